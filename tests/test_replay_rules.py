"""Hand-worked scenarios replayed through the section 10 hand-history format.

Every expected number is worked out from RULES.md by hand; the arithmetic is in the comments.
Seat s passes to s+1 (RULES 2); the dealer's left acts first.
"""

from __future__ import annotations

import re

import pytest

from teenpatti_env import Hand, IllegalActionError, Rules, replay

# ------------------------------------------------------------------ helpers


def bet(s, a):
    return {"seat": s, "type": "bet", "amount": a}


def look(s):
    return {"seat": s, "type": "look"}


def pack(s):
    return {"seat": s, "type": "pack"}


def all_in(s):
    return {"seat": s, "type": "all_in"}


def show(s):
    return {"seat": s, "type": "show"}


def side(s, a):
    return {"seat": s, "type": "sideshow", "amount": a}


def accept(s):
    return {"seat": s, "type": "accept"}


def refuse(s):
    return {"seat": s, "type": "refuse"}


def hist(rules, cards, actions=(), stacks=None, dealer=0):
    h = {
        "format": "teenpatti-hand/1",
        "rules": rules,
        "dealer": dealer,
        "cards": [c.split() if isinstance(c, str) else c for c in cards],
        "actions": list(actions),
    }
    if stacks is not None:
        h["stacks"] = stacks
    return h


def run(rules, cards, actions=(), stacks=None, dealer=0):
    return replay(hist(rules, cards, actions, stacks, dealer))


def types(r):
    return sorted(a["type"] for a in r["legal"])


def rng(r, kind="bet"):
    (a,) = [x for x in r["legal"] if x["type"] == kind]
    return a["min"], a["max"]


def check_over(r, stacks, net, end=None, shown=None):
    """RULES 10: once over, pot 0, to_act None, legal empty, net filled."""
    assert r["over"] is True
    assert r["pot"] == 0
    assert r["to_act"] is None
    assert r["legal"] == []
    assert r["stacks"] == stacks
    assert r["net"] == net
    assert sum(net) == 0
    if end is not None:
        assert r["end"] == end
    if shown is not None:
        assert sorted(r["shown"]) == sorted(shown)


def classic(n=3, **kw):
    return {"preset": "classic", "num_players": n, **kw}


# Some hands.  HI_* are high cards, J-high < K-high.
JHI = "Js 8h 4d"  # J-high
JHI2 = "Jc 7d 3s"  # J-high, lower than JHI
KHI_A = "Ks Qh 9d"  # K-Q-9
KHI_B = "Kd Qc 9h"  # the same ranks: ties KHI_A
PAIR_Q = "Qs Qh 2c"
PAIR_J = "Jh Jd 6c"
TRAIL5 = "5s 5h 5d"
TRAIL_A = "As Ah Ad"
MISC = "Tc 6h 2d"  # T-high

# =========================================================== 3.2 blind-bet limit


def test_blind_cap_then_only_pack_or_look():
    """RULES 3.2 / 9: after max_blind_bets blind bets a blind player may only pack or look."""
    rules = classic(max_blind_bets=2)
    cards = [JHI, PAIR_Q, MISC]
    acts = [bet(0, 1), bet(1, 1), bet(2, 1), bet(0, 1), bet(1, 1), bet(2, 1)]
    r = run(rules, cards, acts, [100] * 3, dealer=2)
    # pot 3 boots + 6 bets of 1 = 9; stake 1; stacks 100-1-2 = 97
    assert (r["pot"], r["stake"], r["stacks"], r["to_act"]) == (9, 1, [97, 97, 97], 0)
    assert types(r) == ["look", "pack"]
    with pytest.raises(IllegalActionError):
        run(rules, cards, [*acts, bet(0, 1)], [100] * 3, dealer=2)
    # after looking: seen bet [2S, 4S] = [2, 4]; no sideshow (target seat 2 is blind)
    r = run(rules, cards, [*acts, look(0)], [100] * 3, dealer=2)
    assert types(r) == ["bet", "pack"]
    assert rng(r) == (2, 4)
    r = run(rules, cards, [*acts, look(0), bet(0, 2)], [100] * 3, dealer=2)
    # seen 2 -> stake 1, pot 11; seat 1 now at its limit too
    assert (r["pot"], r["stake"], r["to_act"]) == (11, 1, 1)
    assert types(r) == ["look", "pack"]


def test_blind_cap_zero_means_look_first():
    """RULES 9: max_blind_bets=0 means blind betting is off (look before the first bet)."""
    rules = classic(max_blind_bets=0)
    cards = [JHI, PAIR_Q, MISC]
    r = run(rules, cards, [], [100] * 3, dealer=2)
    assert r["to_act"] == 0
    assert types(r) == ["look", "pack"]
    with pytest.raises(IllegalActionError):
        run(rules, cards, [bet(0, 1)], [100] * 3, dealer=2)
    r = run(rules, cards, [look(0)], [100] * 3, dealer=2)
    assert types(r) == ["bet", "pack"]
    assert rng(r) == (2, 4)


def test_blind_cap_none_is_unlimited():
    """RULES 9: max_blind_bets=None is unlimited."""
    rules = classic(max_blind_bets=None)
    acts = [bet(s % 3, 1) for s in range(30)]  # ten blind bets each
    r = run(rules, [JHI, PAIR_Q, MISC], acts, [100] * 3, dealer=2)
    assert r["to_act"] == 0
    assert types(r) == ["bet", "look", "pack"]
    assert r["pot"] == 3 + 30


def test_blind_cap_show_needs_look():
    """RULES 3.4: a blind player at the blind-bet limit must look before showing;
    a seen player may not show against a blind one; two seen players show for 2S."""
    rules = classic(max_blind_bets=1)
    cards = [PAIR_Q, JHI, MISC]
    acts = [bet(0, 1), bet(1, 1), pack(2)]
    r = run(rules, cards, acts, [100] * 3, dealer=2)
    assert r["to_act"] == 0
    assert types(r) == ["look", "pack"]  # at the limit: no bet, no show
    acts += [look(0)]
    r = run(rules, cards, acts, [100] * 3, dealer=2)
    assert types(r) == ["bet", "pack"]  # seen vs blind: no show
    acts += [bet(0, 2)]  # seen 2 -> stake 1
    r = run(rules, cards, acts, [100] * 3, dealer=2)
    assert r["to_act"] == 1
    assert types(r) == ["look", "pack"]  # seat 1 at its limit
    acts += [look(1)]
    r = run(rules, cards, acts, [100] * 3, dealer=2)
    assert types(r) == ["bet", "pack", "show"]
    acts += [show(1)]
    r = run(rules, cards, acts, [100] * 3, dealer=2)
    # pot 3 + 1 + 1 + 2 + show 2S = 2 -> 9; seat 0's pair of queens wins
    # seat 0: 99 - 1 - 2 + 9 = 105; seat 1: 99 - 1 - 2 = 96; seat 2: 99
    check_over(r, [105, 96, 99], [5, -4, -1], "show", [0, 1])


# =========================================================== 3.3 short stacks, all_in


def test_all_in_not_offered_while_a_bet_fits():
    """RULES 3.3: all-in is offered only to a short player; a whole-stack bet is a full bet."""
    rules = classic()
    cards = [JHI, PAIR_Q, MISC]
    stacks = [100, 5, 100]
    r = run(rules, cards, [bet(0, 2)], stacks, dealer=2)
    # seat 1: 5 - boot 1 = 4 >= S = 2: blind bet [2, min(4, 4)]
    assert r["to_act"] == 1 and r["stake"] == 2
    assert types(r) == ["bet", "look", "pack"]
    assert rng(r) == (2, 4)
    r = run(rules, cards, [bet(0, 2), look(1)], stacks, dealer=2)
    # seen minimum 2S = 4 <= 4: not short, bet [4, 4], still no all-in
    assert types(r) == ["bet", "pack"]
    assert rng(r) == (4, 4)
    with pytest.raises(IllegalActionError):
        run(rules, cards, [bet(0, 2), look(1), all_in(1)], stacks, dealer=2)
    r = run(rules, cards, [bet(0, 2), look(1), bet(1, 4)], stacks, dealer=2)
    # seen 4 = whole stack: stake 4/2 = 2, seat 1 all-in; pot 3 + 2 + 4 = 9
    assert r["all_in"] == [False, True, False]
    assert (r["stacks"], r["pot"], r["stake"], r["to_act"]) == ([97, 0, 99], 9, 2, 2)
    assert rng(r) == (2, 4)


def test_short_player_all_in_does_not_move_stake():
    """RULES 3.3: a short player may go all-in or pack; a short all-in does not change the stake."""
    rules = classic()
    cards = [JHI, PAIR_Q, MISC]
    stacks = [100, 3, 100]
    r = run(rules, cards, [bet(0, 2)], stacks, dealer=2)
    # seat 1 holds 3 - 1 = 2 = S: not short when blind
    assert types(r) == ["bet", "look", "pack"]
    assert rng(r) == (2, 2)
    r = run(rules, cards, [bet(0, 2), look(1)], stacks, dealer=2)
    # seen: 2 < 2S = 4, short
    assert types(r) == ["all_in", "pack"]
    r = run(rules, cards, [bet(0, 2), look(1), all_in(1)], stacks, dealer=2)
    # pot 3 + 2 + 2 = 7; stake stays 2 (not 2/2 = 1)
    assert (r["stacks"], r["pot"], r["stake"], r["to_act"]) == ([97, 0, 99], 7, 2, 2)
    assert r["all_in"] == [False, True, False]
    assert rng(r) == (2, 4)  # seat 2 blind at stake 2


def test_blind_at_limit_must_look_before_all_in():
    """RULES 3.3: a blind player at the blind-bet limit cannot go all-in without looking;
    short is measured at the blind status at the limit too (RULES 9)."""
    rules = classic(max_blind_bets=1)
    cards = [JHI, PAIR_Q, MISC]
    stacks = [100, 3, 100]
    acts = [bet(0, 1), bet(1, 1), bet(2, 1), look(0), bet(0, 4)]
    r = run(rules, cards, acts, stacks, dealer=2)
    # pot 3 + 1 + 1 + 1 + 4 = 10; stake 4/2 = 2; seat 1 holds 3 - 1 - 1 = 1 < 2
    assert (r["pot"], r["stake"], r["to_act"], r["stacks"]) == (10, 2, 1, [94, 1, 98])
    assert types(r) == ["look", "pack"]
    r = run(rules, cards, [*acts, look(1)], stacks, dealer=2)
    assert types(r) == ["all_in", "pack"]
    r = run(rules, cards, [*acts, look(1), all_in(1)], stacks, dealer=2)
    assert (r["pot"], r["stake"], r["to_act"]) == (11, 2, 2)
    assert types(r) == ["look", "pack"]  # seat 2 is at its limit as well


def test_side_pot_with_packed_chips_and_odd_chip():
    """RULES 5: slices cut at all-in contributions, packed chips included; odd chip from the
    dealer's left; RULES 4 rule 4: showdown when at most one player can still bet."""
    rules = classic(4)
    # seats 0 and 2 tie (same ranks); 1 and 3 pack
    cards = [KHI_A, JHI, KHI_B, JHI2]
    stacks = [100, 100, 4, 100]
    acts = [
        bet(0, 2),  # stake 2, pot 4 + 2 = 6
        bet(1, 2),  # pot 8
        look(2),  # seat 2 holds 3 < 2S = 4: short
        all_in(2),  # pot 11, stake stays 2
        bet(3, 4),  # blind [2, 4]: stake 4, pot 15
        bet(0, 4),  # stake 4, pot 19
        pack(1),
        pack(3),  # only seat 0 can bet, seat 2 all-in: showdown
    ]
    r = run(rules, cards, acts[:5], stacks, dealer=3)
    assert (r["pot"], r["stake"], r["to_act"]) == (15, 4, 0)
    r = run(rules, cards, acts[:7], stacks, dealer=3)
    assert r["to_act"] == 3  # seat 2 is all-in and skipped
    r = run(rules, cards, acts, stacks, dealer=3)
    # contributions: s0 1+2+4 = 7, s1 1+2 = 3, s2 1+3 = 4, s3 1+4 = 5 (total 19)
    assert r["contributions"] == [7, 3, 4, 5]
    # slice at L1 = 4: 4 + 3 + 4 + 4 = 15, seats 0 and 2 tie: 7 each, the odd chip to
    # seat 0 (dealer 3's left); top slice 3 + 1 = 4 to seat 0 alone -> payouts 12 and 7
    # stacks: s0 100-7+12 = 105, s1 97, s2 0+7 = 7, s3 95
    assert r["payouts"] == [12, 0, 7, 0]
    check_over(r, [105, 97, 7, 95], [5, -3, 3, -5], "showdown", [0, 2])


# =========================================================== short_stack = "pack"


def test_short_stack_pack_mode():
    """RULES 9: short_stack="pack": a bet may empty a stack without all-in; the empty player
    still counts as able to bet (shows allowed) and can only pack or look."""
    rules = classic(short_stack="pack")
    cards = [JHI, PAIR_Q, MISC]
    stacks = [100, 3, 100]
    acts = [bet(0, 2)]  # stake 2, pot 5
    r = run(rules, cards, acts, stacks, dealer=2)
    assert types(r) == ["bet", "look", "pack"]  # seat 1 holds 2 = S
    assert rng(r) == (2, 2)
    r = run(rules, cards, [*acts, look(1)], stacks, dealer=2)
    assert types(r) == ["pack"]  # short after looking: no all-in in this mode
    acts += [bet(1, 2), pack(2)]  # seat 1 empties its stack; pot 7
    r = run(rules, cards, acts, stacks, dealer=2)
    assert r["all_in"] == [False, False, False]
    assert (r["stacks"], r["pot"], r["stake"], r["to_act"]) == ([97, 0, 99], 7, 2, 0)
    assert types(r) == ["bet", "look", "pack", "show"]  # show against seat 1 allowed
    assert rng(r) == (2, 4)
    acts += [bet(0, 2)]  # pot 9
    r = run(rules, cards, acts, stacks, dealer=2)
    assert r["to_act"] == 1
    assert types(r) == ["look", "pack"]
    r = run(rules, cards, [*acts, look(1)], stacks, dealer=2)
    assert types(r) == ["pack"]
    r = run(rules, cards, [*acts, look(1), pack(1)], stacks, dealer=2)
    # seat 0 takes 9 unseen: 95 + 9 = 104
    check_over(r, [104, 0, 99], [4, -3, -1], "last_player", [])


def test_short_stack_pack_mode_boot_only_seat():
    """RULES 9: under "pack" a seat holding exactly the boot posts it and is not all-in."""
    rules = classic(short_stack="pack")
    r = run(rules, [JHI, PAIR_Q, MISC], [], [1, 100, 100], dealer=2)
    assert r["over"] is False
    assert r["all_in"] == [False, False, False]
    assert (r["stacks"], r["pot"], r["to_act"]) == ([0, 99, 99], 3, 0)
    assert types(r) == ["look", "pack"]
    r = run(rules, [JHI, PAIR_Q, MISC], [look(0)], [1, 100, 100], dealer=2)
    assert types(r) == ["pack"]


# =========================================================== short_stack = "showdown"


def test_short_stack_showdown_boot_empties_stack():
    """RULES 9: "showdown": a payment (the boot included) emptying a stack shows all hands."""
    rules = classic(short_stack="showdown")
    r = run(rules, [TRAIL_A, PAIR_Q, MISC], [], [1, 100, 100], dealer=2)
    # pot 3, all contributions 1: one slice, seat 0's trail takes 3
    check_over(r, [3, 99, 99], [2, -1, -1], "showdown", [0, 1, 2])


def test_short_stack_showdown_short_at_turn():
    """RULES 9: "showdown" when the player about to take a betting turn is short."""
    rules = classic(short_stack="showdown")
    # seat 1: 2 - 1 = 1 < S = 2 after seat 0's bet of 2; nobody all-in: one pot of 5
    r = run(rules, [JHI, MISC, PAIR_Q], [bet(0, 2)], [100, 2, 100], dealer=2)
    # seat 2's pair wins 5: 99 + 5 = 104; seat 0 97; seat 1 keeps 1
    check_over(r, [97, 1, 104], [-3, -1, 4], "showdown", [0, 1, 2])


def test_short_stack_showdown_right_after_look():
    """RULES 9: "showdown" also right after the player to act looks and is short."""
    rules = classic(short_stack="showdown")
    cards = [JHI, MISC, PAIR_Q]
    r = run(rules, cards, [bet(0, 2)], [100, 3, 100], dealer=2)
    assert r["over"] is False  # 2 = S, not short while blind
    assert rng(r) == (2, 2)
    r = run(rules, cards, [bet(0, 2), look(1)], [100, 3, 100], dealer=2)
    # seen: 2 < 4; one pot 5 to seat 2
    check_over(r, [97, 2, 104], [-3, -1, 4], "showdown", [0, 1, 2])


def test_short_stack_showdown_whole_stack_bet_side_pot():
    """RULES 9: a whole-stack bet makes the bettor all-in and the showdown cuts a side pot at
    its contribution; no uncalled-bet refund."""
    rules = classic(short_stack="showdown")
    cards = [JHI, TRAIL5, PAIR_Q]
    acts = [look(0), bet(0, 4), bet(1, 2)]
    r = run(rules, cards, acts, [100, 3, 100], dealer=2)
    # contributions s0 1+4 = 5, s1 1+2 = 3, s2 1; pot 9
    # slice <= 3: 3 + 3 + 1 = 7 to seat 1 (trail); above 3: 2 (from s0), seats 0 and 2
    # eligible, seat 2's pair wins it.  s0 95, s1 0+7 = 7, s2 99+2 = 101
    assert r["contributions"] == [5, 3, 1]
    assert r["payouts"] == [0, 7, 2]
    check_over(r, [95, 7, 101], [-5, 4, 1], "showdown", [0, 1, 2])


def test_short_stack_showdown_show_emptying_stack_is_a_show():
    """RULES 9: a show payment that empties the asker's stack is still a show (asker loses ties)."""
    rules = classic(short_stack="showdown")
    cards = [KHI_A, KHI_B, MISC]
    acts = [bet(0, 1), bet(1, 1), pack(2), bet(0, 1)]
    r = run(rules, cards, acts, [100, 3, 100], dealer=2)
    # seat 1 holds 3 - 1 - 1 = 1 = S: not short, may pay the show cost 1
    assert r["to_act"] == 1 and r["pot"] == 6
    assert "show" in types(r)
    r = run(rules, cards, [*acts, show(1)], [100, 3, 100], dealer=2)
    # pot 7, tie: the asker (seat 1) loses -> seat 0: 97 + 7 = 104
    check_over(r, [104, 0, 99], [4, -3, -1], "show", [0, 1])


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
