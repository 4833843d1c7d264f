"""Wilds that change during a hand: buy_a_joker (J1-J2), joker_thresholds (T1-T2) and
rotating_jokers (R1-R2).

Every expectation was worked out by hand from VARIANTS.md ("Phases", "Dealer's choice,
timers, voting", "Hand history fields for variants" and the readings D, S, B, P, J, R, T,
V, C, H) and RULES.md (betting), not from the engine's code; each hand is a
``teenpatti-hand/1`` history replayed with ``replay``, the comments giving the arithmetic
chip by chip. The common table is tests/builders/phases.py's."""

from __future__ import annotations

from typing import Any

import pytest
from builders.phases import act, bet, buy, check_illegal, check_over, history, kinds, prefix

from teenpatti_env import Hand, Rules, evaluate_hand, history_of, replay

# ---------------------------------------------------------------- 4. buy_a_joker

BUY_CARDS = ["Qs Qh Qd", "Ks Kh 4s", "9c 8h 6d"]


def buy_history(actions: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return history("buy_a_joker", BUY_CARDS, actions, **extra)


BUY_ACTIONS = [
    act(1, "look"),
    buy(1, "4s"),
    bet(1, 2),
    act(2, "pack"),
    act(0, "look"),
    bet(0, 2),
    act(1, "show"),
]


def test_buy_a_joker_changes_the_show() -> None:
    """J1, P5: seat 1 looks, pays a boot for the 4s (pot 3 -> 4, stake still 1, still its
    turn), bets 2 (pot 6); seat 2 packs; seat 0 looks and bets 2 (pot 8); seat 1 shows for
    2S = 2 (pot 10). K-K + wild 4s is a trail of kings, above Q-Q-Q (without the buy seat
    0 would win). Contributions [3, 6, 1]; net [-3, 4, -1]."""
    h = buy_history(BUY_ACTIONS)
    looked = replay(prefix(h, 1))
    assert "buy_joker" in kinds(looked)
    bought = replay(prefix(h, 2))
    assert bought["to_act"] == 1  # buying does not pass the turn
    assert bought["pot"] == 4 and bought["stake"] == 1
    assert bought["stacks"] == [99, 98, 99] and bought["contributions"] == [1, 2, 1]
    assert "bet" in kinds(bought) and "buy_joker" not in kinds(bought)  # once per hand
    result = replay(h)
    check_over(
        result,
        end="show",
        payouts=[0, 10, 0],
        net=[-3, 4, -1],
        stacks=[97, 104, 99],
        shown={0: ["Qs", "Qh", "Qd"], 1: ["Ks", "Kh", "4s"]},
    )
    assert result["contributions"] == [3, 6, 1]


def test_buy_a_joker_twice_is_illegal() -> None:
    check_illegal(buy_history([*BUY_ACTIONS[:6], buy(1, "Ks")]), 6, 1)


def test_buy_a_joker_while_blind_is_illegal() -> None:
    h = buy_history([buy(1, "4s")])
    assert "buy_joker" not in kinds(replay(prefix(h, 0)))
    check_illegal(h, 0, 1)


def test_buy_a_joker_off_turn_is_illegal() -> None:
    check_illegal(buy_history([act(2, "look"), buy(2, "9c")]), 1, 2)


def test_buy_a_joker_needs_a_boot_plus_a_chip() -> None:
    """J1: seat 1 holds 1 chip after its boot."""
    check_illegal(buy_history([act(1, "look"), buy(1, "4s")], stacks=[100, 2, 100]), 1, 1)


@pytest.mark.parametrize("card", ["Kd", "Qs"])
def test_buy_a_joker_names_one_of_its_own_private_cards(card: str) -> None:
    """J1, H4: never the community card (Kd), never another seat's card (Qs)."""
    h = history(
        {"variant": {"private_cards": 2, "community_cards": 1, "buy_a_joker": True}},
        ["Qs Qh", "Ks 4s", "9c 8h"],
        [act(1, "look"), buy(1, card)],
        community=["Kd"],
    )
    check_illegal(h, 1, 1)


# ---------------------------------------------------------------- 5. joker_thresholds

# Indicators 5s, 9d, Jc belong to the thresholds 10, 20, 30 (T1). raise_multiple 10: a
# blind bet is S..10S.
THRESHOLD_CARDS = ["Qs Qh 2d", "As Jd 9s", "Kh Kd 5c"]
THRESHOLD_INDICATORS = ["5s", "9d", "Jc"]
THRESHOLD_ACTIONS = [bet(1, 2), bet(2, 20), act(0, "pack"), act(1, "show")]


def test_joker_thresholds_one_payment_turns_two_and_the_show_payment_turns_the_third() -> None:
    """T1, T2. Chips beyond the boots: seat 1 bets 2 blind (2; stake 2); seat 2 bets 20
    blind (22: crosses 10 and 20 at once -> fives and nines wild; stake 20); seat 0 packs;
    seat 1 shows blind for S = 20 (42: crosses 30 -> jacks wild before the comparison).
    Seat 1: A + 9s + Jd, two wilds: a trail of aces; seat 2: K-K + 5c: a trail of kings.
    Had the jacks not turned before the comparison, seat 1 (pair of aces) would lose.
    Pot 3 + 2 + 20 + 20 = 45; contributions [1, 23, 21]; net [-1, 22, -21]."""
    h = history(
        {"variant": "joker_thresholds", "raise_multiple": 10},
        THRESHOLD_CARDS,
        THRESHOLD_ACTIONS,
        indicators=THRESHOLD_INDICATORS,
    )
    result = replay(h)
    check_over(
        result,
        end="show",
        payouts=[0, 45, 0],
        net=[-1, 22, -21],
        stacks=[99, 122, 79],
        shown={1: ["As", "Jd", "9s"], 2: ["Kh", "Kd", "5c"]},
    )
    assert result["contributions"] == [1, 23, 21]


def test_joker_thresholds_values_as_the_indicators_turn() -> None:
    """The same hand on Hand(...), the values after each payment (on evaluate_hand's
    scale; a wild hand equals the natural hand it makes, W7)."""
    rules = Rules(variant="joker_thresholds", num_players=3, raise_multiple=10)
    hand = Hand(rules, [c.split() for c in THRESHOLD_CARDS], None, 0,
                indicators=THRESHOLD_INDICATORS)  # fmt: skip
    natural = [evaluate_hand(c) for c in THRESHOLD_CARDS]
    assert [hand.hand_value(s) for s in range(3)] == natural  # nothing turned yet
    hand.apply(THRESHOLD_ACTIONS[0])  # 2 beyond the boots
    assert [hand.hand_value(s) for s in range(3)] == natural
    hand.apply(THRESHOLD_ACTIONS[1])  # 22: the 5s and the 9d turn, not the Jc
    assert hand.hand_value(0) == natural[0]
    assert hand.hand_value(1) == evaluate_hand("As Ah Jd")  # 9s wild: pair of aces
    assert hand.hand_value(2) == evaluate_hand("Kh Kd Ks")  # 5c wild: trail of kings
    hand.apply(THRESHOLD_ACTIONS[2])
    hand.apply(THRESHOLD_ACTIONS[3])  # 42: the Jc turns
    assert hand.over
    assert hand.hand_value(1) == evaluate_hand("As Ah Ad")  # 9s, Jd wild: trail of aces
    assert hand.result() == replay(history_of(hand))


def test_joker_thresholds_count_chips_not_boots() -> None:
    """T1 with boot 2 (stacks 200): seat 1 bets 4 blind (4 beyond the boots; stake 4),
    seat 2 bets 6 blind (10: exactly the first threshold -> sevens wild; 10 chips, only 5
    boots), seat 0 packs, seat 1 shows blind for S = 6 (16: below 20, the 8d stays face
    down and eights are not wild). Seat 1: 7h + K-K, a trail of kings; seat 2: A-A-8, a
    pair of aces (a trail, had the 8d turned). Pot 6 + 4 + 6 + 6 = 22; contributions
    [2, 12, 8]; net [-2, 10, -8]."""
    cards = ["Js 3d 4c", "7h Ks Kd", "Ah Ad 8c"]
    indicators = ["7s", "8d", "Qc"]
    actions = [bet(1, 4), bet(2, 6), act(0, "pack"), act(1, "show")]
    h = history(
        {"variant": "joker_thresholds", "boot": 2},
        cards,
        actions,
        stacks=[200, 200, 200],
        indicators=indicators,
    )
    check_over(
        replay(h),
        end="show",
        payouts=[0, 22, 0],
        net=[-2, 10, -8],
        stacks=[198, 210, 192],
        shown={1: ["7h", "Ks", "Kd"], 2: ["Ah", "Ad", "8c"]},
    )
    hand = Hand(Rules(variant="joker_thresholds", num_players=3, boot=2),
                [c.split() for c in cards], [200, 200, 200], 0, indicators=indicators)  # fmt: skip
    hand.apply(actions[0])
    assert hand.hand_value(1) == evaluate_hand("7h Ks Kd")  # 4 beyond: nothing wild
    hand.apply(actions[1])
    assert hand.hand_value(1) == evaluate_hand("Kh Ks Kd")  # 10 beyond: 7h wild
    assert hand.hand_value(2) == evaluate_hand("Ah Ad 8c")  # the 8d still face down


# ---------------------------------------------------------------- 6. rotating_jokers

# Starting wild ranks (R2: each seat's lowest private rank, ace high): seat 0 "4d 5d 6s"
# -> 4, seat 1 "9c Ks Qd" -> 9, seat 2 "2c Th 9h" -> 2. After k rotations seat s uses the
# starting rank of seat s - k (the seat k places to its right):
#   k = 0: seat 1 uses 9 (9c wild: A-K-Q sequence); seat 2 uses 2 (2c wild: J-T-9 pure)
#   k = 1: seat 1 uses 4 (nothing: K-Q-9 high); seat 2 uses 9 (9h wild: pair of tens)
#   k = 2: seat 1 uses 2 (nothing: K-Q-9 high); seat 2 uses 4 (nothing: T-9-2 high)
# So seat 2 beats seat 1 at k = 0 and k = 1, and loses at k = 2.
ROTATING_CARDS = ["4d 5d 6s", "9c Ks Qd", "2c Th 9h"]


def test_rotating_jokers_show_after_two_full_rounds() -> None:
    """R1: every seat bets 1 blind (round 1: pot 6); the turn comes back to seat 1, the
    first position, at or before the last actor's (seat 0, last): rotation 1. Round 2:
    seats 1 and 2 bet 1 (pot 8), seat 0 packs (R1: packed seats keep their position and
    ring place, R2); back to seat 1: rotation 2. Seat 1 shows blind for S = 1 (pot 9):
    K-Q-9 beats T-9-2. Contributions [2, 4, 3]; net [-2, 5, -3]."""
    actions = [
        bet(1, 1), bet(2, 1), bet(0, 1),  # round 1, then rotation 1
        bet(1, 1), bet(2, 1), act(0, "pack"),  # round 2, then rotation 2
        act(1, "show"),
    ]  # fmt: skip
    h = history("rotating_jokers", ROTATING_CARDS, actions)
    check_over(
        replay(h),
        end="show",
        payouts=[0, 9, 0],
        net=[-2, 5, -3],
        stacks=[98, 105, 97],
        shown={1: ["9c", "Ks", "Qd"], 2: ["2c", "Th", "9h"]},
    )
    # The values as the ranks rotate (R3: every comparison uses the current ranks).
    hand = Hand(Rules(variant="rotating_jokers", num_players=3),
                [c.split() for c in ROTATING_CARDS], None, 0)  # fmt: skip
    assert hand.hand_value(1) == evaluate_hand("Ac Ks Qd")
    assert hand.hand_value(2) == evaluate_hand("Jh Th 9h")
    for action in actions[:2]:
        hand.apply(action)
    assert hand.hand_value(2) == evaluate_hand("Jh Th 9h")  # no rotation inside a round
    hand.apply(actions[2])  # the turn passes to seat 1: rotation 1
    assert hand.hand_value(1) == evaluate_hand("9c Ks Qd")
    assert hand.hand_value(2) == evaluate_hand("Th Ts 2c")
    for action in actions[3:6]:
        hand.apply(action)  # rotation 2
    assert hand.hand_value(1) == evaluate_hand("9c Ks Qd")
    assert hand.hand_value(2) == evaluate_hand("2c Th 9h")
    hand.apply(actions[6])
    assert hand.result() == replay(h)


def test_rotating_jokers_show_after_one_full_round() -> None:
    """The same cards shown at rotation 1: seats 1 and 2 bet 1 blind, seat 0 packs (pot 5);
    rotation 1; seat 1 shows for 1 (pot 6) and its K-Q-9 loses to the pair of tens.
    Contributions [1, 3, 2]; net [-1, -3, 4]."""
    h = history(
        "rotating_jokers",
        ROTATING_CARDS,
        [bet(1, 1), bet(2, 1), act(0, "pack"), act(1, "show")],
    )
    check_over(
        replay(h),
        end="show",
        payouts=[0, 0, 6],
        net=[-1, -3, 4],
        stacks=[99, 97, 104],
        shown={1: ["9c", "Ks", "Qd"], 2: ["2c", "Th", "9h"]},
    )
