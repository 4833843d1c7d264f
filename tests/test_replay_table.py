"""Hand-worked scenarios on seats and entry, looking, bet sizes and further readings of
RULES.md, replayed as section 10 hand histories.

Every expected number is worked out from RULES.md by hand; the arithmetic is in the comments.
Seat s passes to s+1 (RULES 2); the dealer's left acts first."""

from __future__ import annotations

import pytest
from builders.replay import (
    JHI,
    JHI2,
    MISC,
    PAIR_Q,
    TRAIL_A,
    accept,
    bet,
    check_over,
    classic,
    look,
    pack,
    refuse,
    rng,
    run,
    side,
    types,
)

from teenpatti_env import Hand, IllegalActionError, Rules

# =========================================================== seats, entry


def test_seat_sitting_out_with_zero_chips():
    """RULES 10: a seat with 0 chips sits the hand out (cards null); net 0."""
    cards = [JHI, None, PAIR_Q, MISC]
    stacks = [100, 0, 100, 100]
    r = run(classic(4), cards, [], stacks, dealer=3)
    # three boots: pot 3
    assert (r["pot"], r["stacks"], r["to_act"]) == (3, [99, 0, 99, 99], 0)
    r = run(classic(4), cards, [bet(0, 1)], stacks, dealer=3)
    assert r["to_act"] == 2  # seat 1 skipped
    with pytest.raises(IllegalActionError):
        run(classic(4), cards, [bet(0, 1), bet(1, 1)], stacks, dealer=3)
    r = run(classic(4), cards, [bet(0, 1), pack(2), pack(3)], stacks, dealer=3)
    # seat 0 takes 4: 98 + 4 = 102
    check_over(r, [102, 0, 99, 99], [2, 0, -1, -1], "last_player", [])
    assert r["contributions"] == [2, 0, 1, 1]


def test_sitting_out_seat_left_of_dealer():
    """RULES 2/10: the first to act is the first seat dealt in on the dealer's left."""
    r = run(classic(4), [JHI, None, PAIR_Q, MISC], [], [100, 0, 100, 100], dealer=0)
    assert r["to_act"] == 2


def test_entry_minimum_boot_plus_seen_bet():
    """RULES 2: entry_minimum="boot_plus_seen_bet": boot + min(2*boot, max_bet) chips."""
    # tabletop: 10 + min(20, 100) = 30; seat 1 with 29 sits out, seat 2 with 30 enters
    rules = {"preset": "tabletop"}
    cards = [JHI, None, PAIR_Q, MISC]
    r = run(rules, cards, [], [100, 29, 30, 100], dealer=3)
    assert (r["pot"], r["stake"], r["to_act"]) == (30, 10, 0)
    assert r["stacks"] == [90, 29, 20, 90]  # the sitting-out seat keeps its chips
    r = run(rules, cards, [bet(0, 10)], [100, 29, 30, 100], dealer=3)
    assert r["to_act"] == 2
    r = run(rules, cards, [bet(0, 10), pack(2), pack(3)], [100, 29, 30, 100], dealer=3)
    # seat 0: 90 - 10 + pot (30 + 10) = 120
    check_over(r, [120, 29, 20, 90], [20, 0, -10, -10], "last_player", [])
    # classic boot 1: 1 + min(2, None) = 3
    r = run(
        classic(entry_minimum="boot_plus_seen_bet"), [JHI, None, PAIR_Q], [], [100, 2, 3], dealer=2
    )
    assert (r["pot"], r["stacks"]) == (2, [99, 2, 2])


def test_entry_minimum_boot_all_in():
    """RULES 2: with entry_minimum="boot" a seat holding exactly the boot posts it, all-in."""
    cards = [JHI, PAIR_Q, MISC]
    r = run(classic(), cards, [], [100, 1, 100], dealer=2)
    assert r["all_in"] == [False, True, False]
    assert (r["pot"], r["stacks"], r["to_act"]) == (3, [99, 0, 99], 0)
    r = run(classic(), cards, [bet(0, 1)], [100, 1, 100], dealer=2)
    assert r["to_act"] == 2  # the all-in seat is skipped


# =========================================================== looking


@pytest.mark.parametrize("anytime", [True, False])
def test_look_anytime(anytime):
    """RULES 3.1: look off-turn only with look_anytime=True; looking does not pass the turn."""
    rules = Rules(num_players=3, look_anytime=anytime)
    cards = [JHI.split(), PAIR_Q.split(), MISC.split()]
    hand = Hand(rules, cards, [100] * 3, dealer=2)
    assert hand.to_act == 0
    if anytime:
        assert hand.legal_actions(2) == [{"type": "look"}]
        hand.apply(look(2))
        assert hand.seen == [False, False, True]
        assert hand.to_act == 0
    else:
        assert hand.legal_actions(2) == []
        with pytest.raises(IllegalActionError):
            hand.apply(look(2))
        assert hand.seen == [False, False, False]
        r = run(classic(look_anytime=False), [JHI, PAIR_Q, MISC], [look(0)], [100] * 3, dealer=2)
        assert r["seen"] == [True, False, False] and r["to_act"] == 0
        with pytest.raises(IllegalActionError):
            run(classic(look_anytime=False), [JHI, PAIR_Q, MISC], [look(2)], [100] * 3, dealer=2)


def test_packed_and_all_in_cannot_look():
    """RULES 3.1: all-in and packed players cannot look."""
    cards = [JHI.split(), PAIR_Q.split(), MISC.split(), JHI2.split()]
    hand = Hand(Rules(), cards, [100, 1, 100, 100], dealer=3)
    assert hand.all_in == [False, True, False, False]
    assert hand.legal_actions(1) == []
    hand.apply(pack(0))
    assert hand.legal_actions(0) == []
    with pytest.raises(IllegalActionError):
        hand.apply(look(0))


# =========================================================== bet sizes


def test_seen_bets_even():
    """RULES 3.2: a seen bet is an even integer in [2S, 2kS]; blind any integer in [S, kS]."""
    rules = classic()
    cards = [JHI, PAIR_Q, MISC]
    r = run(rules, cards, [look(0)], [100] * 3, dealer=2)
    assert rng(r) == (2, 4)
    with pytest.raises(IllegalActionError):
        run(rules, cards, [look(0), bet(0, 3)], [100] * 3, dealer=2)
    acts = [look(0), bet(0, 4), bet(1, 3)]  # stake 2, then blind 3 -> stake 3
    r = run(rules, cards, acts, [100] * 3, dealer=2)
    assert r["stake"] == 3 and r["pot"] == 10
    r = run(rules, cards, [*acts, look(2)], [100] * 3, dealer=2)
    assert rng(r) == (6, 12)
    with pytest.raises(IllegalActionError):
        run(rules, cards, [*acts, look(2), bet(2, 7)], [100] * 3, dealer=2)
    r = run(rules, cards, [*acts, look(2), bet(2, 12)], [100] * 3, dealer=2)
    assert r["stake"] == 6 and r["pot"] == 22


def test_raise_multiple():
    """RULES 3.2: k = raise_multiple: blind [S, kS], seen [2S, 2kS]."""
    rules = classic(raise_multiple=3)
    cards = [JHI, PAIR_Q, MISC]
    r = run(rules, cards, [], [100] * 3, dealer=2)
    assert rng(r) == (1, 3)
    r = run(rules, cards, [bet(0, 3)], [100] * 3, dealer=2)
    assert rng(r) == (3, 9)
    r = run(rules, cards, [bet(0, 3), look(1)], [100] * 3, dealer=2)
    assert rng(r) == (6, 18)
    acts = [bet(0, 3), look(1), bet(1, 18)]  # stake 9
    r = run(rules, cards, acts, [100] * 3, dealer=2)
    # pot 3 + 3 + 18 = 24
    assert (r["stake"], r["pot"], r["stacks"]) == (9, 24, [96, 81, 99])
    assert rng(r) == (9, 27)
    with pytest.raises(IllegalActionError):
        run(rules, cards, [*acts, bet(2, 28)], [100] * 3, dealer=2)
    r = run(rules, cards, [*acts, bet(2, 27)], [100] * 3, dealer=2)
    assert (r["stake"], r["pot"]) == (27, 51)


def test_max_bet():
    """RULES 3.2: a seen bet is at most max_bet, a blind bet at most max_bet // 2."""
    rules = classic(max_bet=10)
    cards = [JHI, PAIR_Q, MISC]
    acts = [bet(0, 2), bet(1, 4)]  # stake 4
    r = run(rules, cards, acts, [100] * 3, dealer=2)
    assert rng(r) == (4, 5)  # min(2*4, 10 // 2)
    with pytest.raises(IllegalActionError):
        run(rules, cards, [*acts, bet(2, 6)], [100] * 3, dealer=2)
    r = run(rules, cards, [*acts, look(2)], [100] * 3, dealer=2)
    assert rng(r) == (8, 10)  # min(4*4, 10)
    acts += [look(2), bet(2, 10)]  # stake 5
    r = run(rules, cards, acts, [100] * 3, dealer=2)
    assert r["stake"] == 5
    assert rng(r) == (5, 5)  # blind: min(10, 5)
    r = run(rules, cards, [*acts, look(0)], [100] * 3, dealer=2)
    assert rng(r) == (10, 10)
    with pytest.raises(IllegalActionError):
        run(rules, cards, [*acts, look(0), bet(0, 12)], [100] * 3, dealer=2)


def test_pot_limit_betting():
    """RULES 3.2: pot_limit_betting: no bet is larger than the pot before it."""
    rules = classic(pot_limit_betting=True, raise_multiple=10)
    cards = [JHI, PAIR_Q, MISC]
    r = run(rules, cards, [], [100] * 3, dealer=2)
    assert rng(r) == (1, 3)  # pot 3
    r = run(rules, cards, [look(0)], [100] * 3, dealer=2)
    assert rng(r) == (2, 2)  # seen: even and <= 3
    acts = [bet(0, 3)]  # stake 3, pot 6
    r = run(rules, cards, [*acts, look(1)], [100] * 3, dealer=2)
    assert rng(r) == (6, 6)
    acts += [look(1), bet(1, 6)]  # stake 3, pot 12
    r = run(rules, cards, acts, [100] * 3, dealer=2)
    assert (r["stake"], r["pot"]) == (3, 12)
    assert rng(r) == (3, 12)
    acts += [bet(2, 12)]  # stake 12, pot 24
    r = run(rules, cards, acts, [100] * 3, dealer=2)
    assert rng(r) == (12, 24)
    with pytest.raises(IllegalActionError):
        run(rules, cards, [*acts, bet(0, 25)], [100] * 3, dealer=2)


# =========================================================== more readings


def test_look_while_sideshow_pending():
    """RULES 9: while a sideshow answer is pending the target may only accept or refuse; other
    blind players may still look when look_anytime=True."""
    cards = [PAIR_Q.split(), ["Js", "Jh", "9d"], MISC.split(), JHI2.split()]
    hand = Hand(Rules(), cards, [100] * 4, dealer=3)
    for a in [look(0), bet(0, 2), look(1), side(1, 2)]:
        hand.apply(a)
    assert hand.to_act == 0
    assert tuple(hand.pending_sideshow) == (1, 0)
    assert sorted(a["type"] for a in hand.legal_actions()) == ["accept", "refuse"]
    assert hand.legal_actions(2) == [{"type": "look"}]
    hand.apply(look(2))
    assert hand.seen == [True, True, True, False]
    assert hand.to_act == 0
    assert sorted(a["type"] for a in hand.legal_actions()) == ["accept", "refuse"]
    with pytest.raises(IllegalActionError):
        hand.apply(bet(0, 2))
    hand.apply(refuse(0))
    assert hand.pending_sideshow is None
    assert hand.to_act == 2


@pytest.mark.parametrize("mode", ["all_in", "showdown", "pack"])
def test_boots_leave_at_most_one_bettor(mode):
    """RULES 2: at most one player who can still bet after the boots: shown at once; under
    "pack" (RULES 9) nobody is all-in and the hand goes on."""
    cards = [JHI, PAIR_Q, MISC]
    r = run(classic(short_stack=mode), cards, [], [1, 1, 100], dealer=2)
    if mode == "pack":
        assert r["over"] is False
        assert r["all_in"] == [False, False, False]
        assert (r["to_act"], r["pot"]) == (0, 3)
        assert types(r) == ["look", "pack"]
        return
    # pot 3, every contribution 1: one slice, seat 1's pair takes it
    check_over(r, [0, 3, 99], [-1, 2, -1], "showdown", [0, 1, 2])


def test_short_stack_showdown_target_answer_is_not_a_betting_turn():
    """RULES 9: under "showdown" a short sideshow target still answers; the showdown comes when
    the short player is about to take a betting turn."""
    rules = classic(4, short_stack="showdown")
    cards = [PAIR_Q, "Js Jh 9d", MISC, JHI2]
    stacks = [6, 100, 100, 100]
    # boots: pot 4, seat 0 holds 5; seat 0 seen 2 -> stake 1 (holds 3); seat 1 chaal 4 ->
    # stake 2, pot 10; seat 0 now short (3 < 4) but answering is not a betting turn
    acts = [look(0), bet(0, 2), look(1), side(1, 4)]
    r = run(rules, cards, acts, stacks, dealer=3)
    assert r["over"] is False
    assert r["to_act"] == 0
    assert types(r) == ["accept", "refuse"]
    acts += [accept(0)]  # queens beat jacks: seat 1 packs
    r = run(rules, cards, acts, stacks, dealer=3)
    assert r["over"] is False
    assert r["packed"] == [False, True, False, False]
    assert r["to_act"] == 2
    acts += [bet(2, 2), bet(3, 2)]  # pot 14; seat 0 about to bet and short: showdown
    r = run(rules, cards, acts, stacks, dealer=3)
    # one pot (nobody all-in): seat 0's pair takes 14 -> 3 + 14 = 17
    check_over(r, [17, 95, 97, 97], [11, -5, -3, -3], "showdown", [0, 2, 3])


@pytest.mark.parametrize("lowball, stacks", [(False, [102, 99, 99]), (True, [99, 99, 102])])
def test_lowball_showdown(lowball, stacks):
    """RULES 1: lowball reverses the ranking at the showdown (pot 3 -> winner 99 + 3 = 102)."""
    cards = [TRAIL_A, PAIR_Q, "7c 5d 3h"]
    r = run(classic(pot_cap=3, lowball=lowball), cards, [], [100] * 3, dealer=2)
    assert r["stacks"] == stacks
    assert r["end"] == "showdown"


@pytest.mark.parametrize("preset, stacks", [("classic", [99, 102, 99]), ("pagat", [102, 99, 99])])
def test_best_sequence_showdown(preset, stacks):
    """RULES 1/8: classic ranks A-K-Q over A-2-3, pagat A-2-3 over A-K-Q (winner 99 + 3)."""
    rules = {"preset": preset, "num_players": 3, "pot_cap": 3}
    r = run(rules, ["As 2d 3c", "Ah Kd Qc", JHI], [], [100] * 3, dealer=2)
    assert r["stacks"] == stacks
