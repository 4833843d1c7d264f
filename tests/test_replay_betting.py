"""Hand-worked betting scenarios replayed as section 10 hand histories: the blind-bet
limit (3.2), short stacks and all-in (3.3), ``short_stack`` "pack" and "showdown".

Every expected number is worked out from RULES.md by hand; the arithmetic is in the comments.
Seat s passes to s+1 (RULES 2); the dealer's left acts first."""

from __future__ import annotations

import pytest
from builders.replay import (
    JHI,
    JHI2,
    KHI_A,
    KHI_B,
    MISC,
    PAIR_Q,
    TRAIL5,
    TRAIL_A,
    all_in,
    bet,
    check_over,
    classic,
    look,
    pack,
    rng,
    run,
    show,
    types,
)

from teenpatti_env import IllegalActionError

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
