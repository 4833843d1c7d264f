"""Hand-worked show (3.4), sideshow (3.5) and pot-cap scenarios replayed as section 10
hand histories.

Every expected number is worked out from RULES.md by hand; the arithmetic is in the comments.
Seat s passes to s+1 (RULES 2); the dealer's left acts first."""

from __future__ import annotations

import re

import pytest
from builders.replay import (
    JHI,
    JHI2,
    KHI_A,
    KHI_B,
    MISC,
    PAIR_J,
    PAIR_Q,
    TRAIL_A,
    accept,
    all_in,
    bet,
    check_over,
    classic,
    look,
    pack,
    refuse,
    rng,
    run,
    show,
    side,
    types,
)

from teenpatti_env import Hand, IllegalActionError, Rules

# =========================================================== 3.4 show


def test_blind_show_costs_stake():
    """RULES 3.4: a blind asker pays S, may show against a seen player; only the asker pays."""
    rules = classic()
    cards = [JHI, PAIR_Q, MISC]
    acts = [bet(0, 2), look(1), bet(1, 4), pack(2)]  # stake 2, pot 3 + 2 + 4 = 9
    r = run(rules, cards, acts, [100] * 3, dealer=2)
    assert r["to_act"] == 0
    assert types(r) == ["bet", "look", "pack", "show"]
    r = run(rules, cards, [*acts, show(0)], [100] * 3, dealer=2)
    # cost S = 2: pot 11; seat 1's pair wins: 95 + 11 = 106; seat 0: 99 - 2 - 2 = 95
    check_over(r, [95, 106, 99], [-5, 6, -1], "show", [0, 1])
    assert r["stake"] == 2  # the show payment does not change the stake
    assert sorted(r["shown"][0]) == sorted(JHI.split())
    assert sorted(r["shown"][1]) == sorted(PAIR_Q.split())


@pytest.mark.parametrize(
    "c0, c1, stacks, net",
    [
        # seat 0's pair of queens wins 13: 93 + 13 = 106
        (PAIR_Q, PAIR_J, [106, 95, 99], [6, -5, -1]),
        # tie: the asker (seat 0) loses; seat 1: 95 + 13 = 108
        (KHI_A, KHI_B, [93, 108, 99], [-7, 8, -1]),
    ],
)
def test_seen_show_costs_double_and_asker_loses_tie(c0, c1, stacks, net):
    """RULES 3.4: two seen players show for 2S; on a tie the asker loses."""
    acts = [look(0), bet(0, 2), look(1), bet(1, 4), pack(2), show(0)]
    # seen 2 -> stake 1; seen 4 -> stake 2; pot 3 + 2 + 4 = 9; show 2S = 4 -> 13
    # seat 0: 99 - 2 - 4 = 93; seat 1: 99 - 4 = 95
    r = run(classic(), [c0, c1, MISC], acts, [100] * 3, dealer=2)
    check_over(r, stacks, net, "show", [0, 1])
    assert r["stake"] == 2


def test_seen_may_not_show_blind_opponent():
    """RULES 3.4: a seen player may not show against a blind opponent; a blind one may."""
    rules = classic()
    cards = [JHI, PAIR_Q, MISC]
    acts = [look(0), bet(0, 2), bet(1, 1), pack(2)]
    r = run(rules, cards, acts, [100] * 3, dealer=2)
    assert r["to_act"] == 0
    assert types(r) == ["bet", "pack"]
    with pytest.raises(IllegalActionError):
        run(rules, cards, [*acts, show(0)], [100] * 3, dealer=2)
    r = run(rules, cards, [*acts, bet(0, 2)], [100] * 3, dealer=2)
    assert r["to_act"] == 1
    assert types(r) == ["bet", "look", "pack", "show"]


@pytest.mark.parametrize(
    "pot_cap, stacks, net, end",
    [
        # cap 9 reached by the show payment: ordinary showdown, tie split 9 = 4 + 4 + 1,
        # odd chip to seat 0 (dealer 2's left): seat 0 95 + 5 = 100, seat 1 97 + 4 = 101
        (9, [100, 101, 99], [0, 1, -1], "showdown"),
        # no cap: a show, the asker (seat 0) loses the tie: seat 1 97 + 9 = 106
        (None, [95, 106, 99], [-5, 6, -1], "show"),
    ],
)
def test_show_cancelled_at_pot_cap(pot_cap, stacks, net, end):
    """RULES 3.4 / 4: a show payment reaching pot_cap becomes an ordinary showdown (ties split)."""
    acts = [bet(0, 2), bet(1, 2), pack(2), show(0)]  # pot 3 + 2 + 2 = 7, show 2 -> 9
    r = run(classic(pot_cap=pot_cap), [KHI_A, KHI_B, MISC], acts, [100] * 3, dealer=2)
    check_over(r, stacks, net, end, [0, 1])


def test_short_asker_cannot_show():
    """RULES 3.4: a short asker cannot show."""
    # dealer 0: seat 1 acts first; seat 0 holds 2 - 1 = 1 < S = 2
    r = run(classic(), [JHI, PAIR_Q, MISC], [bet(1, 2), pack(2)], [2, 100, 100], dealer=0)
    assert r["to_act"] == 0
    assert types(r) == ["all_in", "look", "pack"]


def test_show_needs_exactly_two_in():
    """RULES 3.4: show only when exactly two players are still in."""
    r = run(classic(), [JHI, PAIR_Q, MISC], [bet(0, 1), bet(1, 1)], [100] * 3, dealer=2)
    assert "show" not in types(r)
    with pytest.raises(IllegalActionError):
        run(classic(), [JHI, PAIR_Q, MISC], [bet(0, 1), bet(1, 1), show(2)], [100] * 3, dealer=2)


# =========================================================== 3.5 sideshow

SS_CARDS_S0_WINS = [PAIR_Q, "Js Jh 9d", MISC, JHI2]


def test_sideshow_offer_and_refuse():
    """RULES 3.5: the asker pays a chaal that updates the stake; the target may only accept or
    refuse; refuse: the chaal stays and play passes to the asker's left."""
    rules = classic(4)
    acts = [look(0), bet(0, 2), look(1)]  # stake 1, pot 4 + 2 = 6
    r = run(rules, SS_CARDS_S0_WINS, acts, [100] * 4, dealer=3)
    assert types(r) == ["bet", "pack", "sideshow"]
    assert rng(r, "sideshow") == (2, 4)
    acts += [side(1, 4)]  # stake 4/2 = 2, pot 10
    r = run(rules, SS_CARDS_S0_WINS, acts, [100] * 4, dealer=3)
    assert r["to_act"] == 0
    assert types(r) == ["accept", "refuse"]
    assert (r["pot"], r["stake"]) == (10, 2)
    r = run(rules, SS_CARDS_S0_WINS, [*acts, refuse(0)], [100] * 4, dealer=3)
    assert (r["pot"], r["stake"], r["to_act"]) == (10, 2, 2)
    assert r["stacks"] == [97, 95, 99, 99]
    assert r["packed"] == [False, False, False, False]
    assert rng(r) == (2, 4)  # seat 2 blind at stake 2


@pytest.mark.parametrize(
    "c0, c1, packed",
    [
        (PAIR_Q, "Js Jh 9d", 1),  # target better: asker packs
        ("Js Jh 9d", PAIR_Q, 0),  # asker better: target packs
        (KHI_A, KHI_B, 1),  # tie: the asker packs
    ],
)
def test_sideshow_accept(c0, c1, packed):
    """RULES 3.5: accept: the lower hand packs, on a tie the asker packs; play passes to the
    asker's left (even if the asker packed, RULES 9)."""
    acts = [look(0), bet(0, 2), look(1), side(1, 2), accept(0)]
    r = run(classic(4), [c0, c1, MISC, JHI2], acts, [100] * 4, dealer=3)
    expected = [False] * 4
    expected[packed] = True
    assert r["packed"] == expected
    assert r["over"] is False
    assert r["to_act"] == 2
    # pot 4 + 2 + 2 = 8, stake 1, nobody's cards shown
    assert (r["pot"], r["stake"]) == (8, 1)
    assert r["stacks"] == [97, 97, 99, 99]


def _leaves(obj):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _leaves(k)
            yield from _leaves(v)
    elif isinstance(obj, (list, tuple, set)):
        yield list(obj)
        for v in obj:
            yield from _leaves(v)
    else:
        yield obj


def _card_int(text):
    return "23456789TJQKA".index(text[0]) * 4 + "shdc".index(text[1])


def _mentions(events, card_text):
    """True if any event mentions the card, as text or as its int inside a list of cards."""
    c = _card_int(card_text)
    for leaf in _leaves(events):
        if isinstance(leaf, str) and card_text in re.split(r"[^0-9A-Za-z]+", leaf):
            return True
        if (
            isinstance(leaf, list)
            and len(leaf) == 3
            and len(set(leaf)) == 3
            and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 52 for x in leaf)
            and c in leaf
        ):
            return True
    return False


def _mentions_hand(events, hand):
    return all(_mentions(events, c) for c in hand.split())


def _mentions_any(events, hand):
    return any(_mentions(events, c) for c in hand.split())


@pytest.mark.parametrize("reveal", ["none", "private"])
def test_sideshow_privacy(reveal):
    """RULES 3.5 privacy: the table is told only who packed; the two players learn each other's
    hand only with sideshow_reveal="private"; a packed hand is never named later."""
    h0, h1 = PAIR_Q, "Js Jh 9d"
    cards = [h0.split(), h1.split(), MISC.split(), JHI2.split()]
    hand = Hand(Rules(sideshow_reveal=reveal), cards, [100] * 4, dealer=3)
    for a in [look(0), bet(0, 2), look(1), side(1, 2), accept(0)]:
        hand.apply(a)
    assert hand.packed == [False, True, False, False]
    for seat in (2, 3):
        ev = hand.events_for(seat)
        assert not _mentions_any(ev, h0), seat
        assert not _mentions_any(ev, h1), seat
    assert not _mentions_any(hand.public_events(), h0)
    assert not _mentions_any(hand.public_events(), h1)
    if reveal == "private":
        assert _mentions_hand(hand.events_for(0), h1)
        assert _mentions_hand(hand.events_for(1), h0)
    else:
        assert not _mentions_any(hand.events_for(0), h1)
        assert not _mentions_any(hand.events_for(1), h0)
    hand.apply(pack(2))
    hand.apply(pack(3))
    # seat 0 is the last player: 97 + 8 = 105, nothing turned up
    assert hand.over
    assert hand.shown == {}
    assert hand.stacks == [105, 97, 99, 99]
    assert hand.net == [5, -3, -1, -1]
    for seat in (2, 3):
        ev = hand.events_for(seat)
        assert not _mentions_any(ev, h0) and not _mentions_any(ev, h1)
    assert not _mentions_any(hand.public_events(), h1)


@pytest.mark.parametrize("target", ["previous", "previous_seen"])
def test_sideshow_target(target):
    """RULES 3.5: target is the previous player ("previous") or the nearest previous seen player
    ("previous_seen")."""
    rules = classic(4, sideshow_target=target)
    cards = [PAIR_Q, MISC, "Js Jh 9d", "Kc 7d 3s"]
    acts = [look(0), bet(0, 2), bet(1, 1), look(2)]
    r = run(rules, cards, acts, [100] * 4, dealer=3)
    assert r["to_act"] == 2
    if target == "previous":
        # previous of seat 2 is seat 1, blind
        assert types(r) == ["bet", "pack"]
        return
    assert types(r) == ["bet", "pack", "sideshow"]
    r = run(rules, cards, [*acts, side(2, 2)], [100] * 4, dealer=3)
    assert r["to_act"] == 0  # skips blind seat 1
    assert types(r) == ["accept", "refuse"]
    r = run(rules, cards, [*acts, side(2, 2), accept(0)], [100] * 4, dealer=3)
    # seat 0's pair of queens beats seat 2's pair of jacks: the asker packs
    assert r["packed"] == [False, False, True, False]
    assert r["to_act"] == 3


def test_sideshow_target_on_first_turn_by_seat_order():
    """RULES 3: the previous player is by seat order, also on the first turn; RULES 3.1 an
    off-turn look with look_anytime."""
    rules = classic(4)
    cards = [PAIR_J, JHI2, MISC, PAIR_Q]
    acts = [look(3), look(0)]
    r = run(rules, cards, acts, [100] * 4, dealer=3)
    assert r["to_act"] == 0
    assert types(r) == ["bet", "pack", "sideshow"]
    r = run(rules, cards, [*acts, side(0, 2)], [100] * 4, dealer=3)
    assert r["to_act"] == 3
    assert types(r) == ["accept", "refuse"]
    r = run(rules, cards, [*acts, side(0, 2), accept(3)], [100] * 4, dealer=3)
    # seat 3's queens beat seat 0's jacks: asker 0 packs, play passes to seat 1
    assert r["packed"] == [True, False, False, False]
    assert r["to_act"] == 1
    assert r["pot"] == 6


@pytest.mark.parametrize("requires", [False, True])
def test_sideshow_requires_all_seen(requires):
    """RULES 3.5: with sideshow_requires_all_seen every player still in must be seen."""
    rules = classic(4, sideshow_requires_all_seen=requires)
    cards = [PAIR_Q, "Js Jh 9d", MISC, JHI2]
    acts = [look(0), bet(0, 2), look(1)]
    r = run(rules, cards, acts, [100] * 4, dealer=3)
    assert types(r) == (["bet", "pack"] if requires else ["bet", "pack", "sideshow"])
    # seats 2 and 3 look off-turn: now everyone is seen
    r = run(rules, cards, [*acts, look(2), look(3)], [100] * 4, dealer=3)
    assert types(r) == ["bet", "pack", "sideshow"]


@pytest.mark.parametrize("requires", [False, True])
def test_sideshow_counts_all_in_players(requires):
    """RULES 9: a sideshow needs three in, all-in players counted; the target skips all-in
    seats; under requires_all_seen a blind all-in player blocks sideshows."""
    rules = classic(3, sideshow_requires_all_seen=requires)
    cards = [PAIR_Q, "Js Jh 9d", MISC]
    # seat 2 holds 2 - 1 = 1 < S = 2 when its turn comes: short, all-in blind
    acts = [look(0), bet(0, 4), look(1), bet(1, 4), all_in(2)]
    r = run(rules, cards, acts, [100, 100, 2], dealer=2)
    # pot 3 + 4 + 4 + 1 = 12, stake 2 (short all-in does not move it)
    assert (r["pot"], r["stake"], r["to_act"]) == (12, 2, 0)
    assert r["all_in"] == [False, False, True]
    assert types(r) == (["bet", "pack"] if requires else ["bet", "pack", "sideshow"])
    if not requires:
        r = run(rules, cards, [*acts, side(0, 4)], [100, 100, 2], dealer=2)
        assert r["to_act"] == 1  # previous of 0 skipping all-in seat 2
        assert types(r) == ["accept", "refuse"]


def test_sideshow_off():
    """RULES 3.5: sideshow=False."""
    r = run(
        classic(4, sideshow=False),
        SS_CARDS_S0_WINS,
        [look(0), bet(0, 2), look(1)],
        [100] * 4,
        dealer=3,
    )
    assert types(r) == ["bet", "pack"]


def test_sideshow_chaal_must_leave_a_chip():
    """RULES 3.5: a chaal that spends the last chips is a bet, not a sideshow."""
    rules = classic(4)
    stacks = [100, 5, 100, 100]  # seat 1 holds 4 after the boot
    acts = [look(0), bet(0, 2), look(1)]  # stake 1
    r = run(rules, SS_CARDS_S0_WINS, acts, stacks, dealer=3)
    assert rng(r) == (2, 4)
    assert rng(r, "sideshow") == (2, 2)  # even and at most 4 - 1 = 3
    with pytest.raises(IllegalActionError):
        run(rules, SS_CARDS_S0_WINS, [*acts, side(1, 4)], stacks, dealer=3)
    r = run(rules, SS_CARDS_S0_WINS, [*acts, bet(1, 4)], stacks, dealer=3)
    assert r["all_in"] == [False, True, False, False]
    assert r["stake"] == 2


def test_sideshow_cancelled_at_pot_cap():
    """RULES 3.5 / 4: a sideshow chaal that brings the pot to pot_cap: ordinary showdown."""
    rules = classic(4, pot_cap=10)
    cards = [PAIR_Q, "Js Jh 9d", TRAIL_A, JHI2]
    r = run(rules, cards, [look(0), bet(0, 2), look(1), side(1, 4)], [100] * 4, dealer=3)
    # pot 4 + 2 + 4 = 10 = cap: all four shown, seat 2's trail takes 10: 99 + 10 = 109
    check_over(r, [97, 95, 109, 99], [-3, -5, 9, -1], "showdown", [0, 1, 2, 3])


# =========================================================== pot cap


def test_pot_cap_reached_by_boots():
    """RULES 2: if the boots already reach pot_cap the hands are shown at once."""
    r = run(classic(4, pot_cap=4), [JHI, PAIR_Q, TRAIL_A, JHI2], [], [100] * 4, dealer=3)
    check_over(r, [99, 99, 103, 99], [-1, -1, 3, -1], "showdown", [0, 1, 2, 3])


@pytest.mark.parametrize(
    "dealer, acts, stacks, net",
    [
        # dealer 3: s0 2, s1 2, s2 3 -> pot 4 + 7 = 11; contributions 3, 3, 4, 1.
        # seats 1 and 3 tie: 5 each + odd chip to seat 1 (order 0, 1, 2, 3 from dealer's left)
        # s1 97 + 6 = 103, s3 99 + 5 = 104
        (3, [bet(0, 2), bet(1, 2), bet(2, 3)], [97, 103, 96, 104], [-3, 3, -4, 4]),
        # dealer 1: s2 2, s3 2, s0 3; order from dealer's left 2, 3, 0, 1 (dealer last):
        # odd chip to seat 3: s3 97 + 6 = 103, s1 99 + 5 = 104
        (1, [bet(2, 2), bet(3, 2), bet(0, 3)], [96, 104, 97, 103], [-4, 4, -3, 3]),
    ],
)
def test_pot_cap_showdown_split_odd_chip(dealer, acts, stacks, net):
    """RULES 4 rule 2, 5, 9: pot cap showdown, ties split, odd chip from the dealer's left."""
    cards = [JHI, KHI_A, JHI2, KHI_B]
    r = run(classic(4, pot_cap=11), cards, acts[:2], [100] * 4, dealer=dealer)
    assert r["over"] is False and r["pot"] == 8
    r = run(classic(4, pot_cap=11), cards, acts, [100] * 4, dealer=dealer)
    check_over(r, stacks, net, "showdown", [0, 1, 2, 3])
