"""The selection phases (VARIANTS.md Phases, P1-P10): discard_one, shopping (the deck
running out, P7) and passing_cards, and illegal phase actions (H4).

Every expectation was worked out by hand from VARIANTS.md ("Phases", "Dealer's choice,
timers, voting", "Hand history fields for variants" and the readings D, S, B, P, J, R, T,
V, C, H) and RULES.md (betting), not from the engine's code; each hand is a
``teenpatti-hand/1`` history replayed with ``replay``, the comments giving the arithmetic
chip by chip. The common table is tests/builders/phases.py's."""

from __future__ import annotations

from typing import Any

import pytest
from builders.phases import (
    DEFAULT_SPEC,
    DISCARD_CARDS,
    PASS_CARDS,
    PASS_INDICATORS,
    SHOP_CARDS,
    SHOP_DECK,
    act,
    bet,
    check_illegal,
    check_over,
    discard,
    discard_history,
    draw,
    history,
    keep,
    kinds,
    pass_cards,
    prefix,
    rest_of_deck,
)

from teenpatti_env import Rules, replay
from teenpatti_env.rules.variants import VARIANTS

# ---------------------------------------------------------------- the named variants

PART_TWO_SPECS: dict[str, dict[str, Any]] = {
    "joker_thresholds": {"wild": [{"thresholds": [10, 20, 30]}]},
    "passing_cards": {
        "phase": "passing",
        "wild": ["indicator_rank", "indicator_colour"],
        "burst_rank": "indicator",
    },
    "shopping": {"phase": "shopping"},
    "rotating_jokers": {"wild": ["rotating_lowest"]},
    "buy_a_joker": {"buy_a_joker": True},
    "discard_one": {"private_cards": 4, "phase": "discard_one"},
}


@pytest.mark.parametrize(
    "name",
    list(PART_TWO_SPECS),
)
def test_part_two_variants_are_the_table_of_variants_md(name: str) -> None:
    """The table "The named variants" (and S5 for passing_cards)."""
    assert VARIANTS[name].to_dict() == {**DEFAULT_SPEC, **PART_TWO_SPECS[name]}
    assert Rules(variant=name).variant == name
    assert Rules.from_dict(Rules(variant=name).to_dict()) == Rules(variant=name)


def test_discard_one_starts_seen_with_the_dealers_left_discarding() -> None:
    """P1: seen from the deal, look never offered; P3: pack legal on a phase turn; the
    first phase turn is the dealer's left's; no chip moves in the phase."""
    h = discard_history("Kc")
    start = replay(prefix(h, 0))
    assert start["to_act"] == 1
    assert start["seen"] == [True, True, True]
    assert kinds(start) == {"discard", "pack"}
    assert start["pot"] == 3 and start["stake"] == 1 and start["stacks"] == [99, 99, 99]
    after_one = replay(prefix(h, 1))
    assert after_one["to_act"] == 2 and kinds(after_one) == {"discard", "pack"}
    betting = replay(prefix(h, 3))  # the three discards made: betting from seat 1
    assert betting["to_act"] == 1
    assert betting["seen"] == [True, True, True]
    assert "bet" in kinds(betting)
    assert not kinds(betting) & {"look", "discard"}
    assert betting["pot"] == 3 and betting["stake"] == 1
    assert betting["contributions"] == [1, 1, 1]


def test_discard_one_a_look_is_illegal() -> None:
    """Blind play is off (discard_one, P1): a look is never legal."""
    h = history("discard_one", DISCARD_CARDS, [act(1, "look")])
    check_illegal(h, 0, 1)
    h = history("discard_one", DISCARD_CARDS, [act(2, "look")])  # off-turn look too
    check_illegal(h, 0, 2)


@pytest.mark.parametrize(
    ("seat1_discard", "winner"),
    [
        # Seat 1 throws a king: K-K-3 (pair of kings) loses to seat 0's A-A-K (pair of
        # aces); a best-three-of-four valuation would have given seat 1 a trail of kings.
        ("Kc", 0),
        # Seat 1 throws the 3: K-K-K, a trail, takes the pot.
        ("3d", 1),
    ],
)
def test_discard_one_showdown_depends_on_the_discards(seat1_discard: str, winner: int) -> None:
    """The winner takes the 9-chip pot: net +6, the two others -3 each."""
    result = replay(discard_history(seat1_discard))
    kept1 = [c for c in ["Ks", "Kh", "Kc", "3d"] if c != seat1_discard]
    net = [-3, -3, -3]
    net[winner] = 6
    payouts = [0, 0, 0]
    payouts[winner] = 9
    check_over(
        result,
        end="showdown",
        payouts=payouts,
        net=net,
        stacks=[100 + n for n in net],
        # The hands as held after the discards (V4 hand order: a discarded card removed);
        # a discard is never shown (P8).
        shown={0: ["As", "Ah", "Kd"], 1: kept1, 2: ["8d", "6h", "5s"]},
    )
    assert result["contributions"] == [3, 3, 3]


def shop_history(seat2_action: dict[str, Any] | None = None) -> dict[str, Any]:
    # stacks [100, 100, 2]: after the boots 99/99/1, pot 3, stake 1.
    # Round 1: seat 1 draws the 3c (pays 1 -> 98, pot 4) and discards it; seat 2 has 1 chip,
    #   less than a boot plus a chip, so it must keep (P6); seat 0 draws the 8d (pays 1 ->
    #   98, pot 5) and discards the 2c: 8s 8h 8d.
    # Round 2: seat 1 keeps, seat 0 keeps: everyone has kept. Stake still 1 (P5), pot 5,
    #   contributions [2, 2, 1]; seats 0 and 1 are seen (they drew), seat 2 kept blind (P1).
    # Betting: seat 1 bets 2 (seen; 96, pot 7, stake 1); seat 2 packs; seat 0 shows, seen
    #   against seen, for 2S = 2 (96, pot 9). 8-8-8 beats K-K-4: seat 0 takes 9.
    #   Stacks [96 + 9, 96, 1] = [105, 96, 1]; contributions [4, 4, 1]; net [5, -4, -1].
    # Without the shopping seat 1's pair of kings would have beaten the pair of eights.
    return history(
        "shopping",
        SHOP_CARDS,
        [
            draw(1),
            discard(1, "3c"),
            seat2_action or keep(2),
            draw(0),
            discard(0, "2c"),
            keep(1),
            keep(0),
            bet(1, 2),
            act(2, "pack"),
            act(0, "show"),
        ],
        stacks=[100, 100, 2],
        deck=SHOP_DECK,
    )


def test_shopping_hand() -> None:
    h = shop_history()
    check_over(
        replay(h),
        end="show",
        payouts=[9, 0, 0],
        net=[5, -4, -1],
        stacks=[105, 96, 1],
        # V4 hand order: a drawn card appended, a discarded card removed.
        shown={0: ["8s", "8h", "8d"], 1: ["Kh", "Kd", "4s"]},
    )
    assert replay(h)["contributions"] == [4, 4, 1]


def test_shopping_draws_are_contributions_not_bets() -> None:
    """P4, P5, P6, P1 step by step."""
    h = shop_history()
    first = replay(prefix(h, 0))
    assert first["to_act"] == 1
    assert kinds(first) == {"draw", "keep", "pack", "look"}  # blind, may look (P1)
    drawn = replay(prefix(h, 1))  # seat 1 drew: pays a boot, seen, must discard (P4)
    assert drawn["to_act"] == 1
    assert kinds(drawn) == {"discard", "pack"}
    assert drawn["seen"][1] is True
    assert drawn["pot"] == 4 and drawn["stake"] == 1
    assert drawn["stacks"] == [99, 98, 1] and drawn["contributions"] == [1, 2, 1]
    short = replay(prefix(h, 2))  # seat 2 holds 1 chip: it may only keep (or pack, look)
    assert short["to_act"] == 2
    assert kinds(short) == {"keep", "pack", "look"}
    betting = replay(prefix(h, 7))  # every seat has kept
    assert betting["to_act"] == 1
    assert betting["pot"] == 5 and betting["stake"] == 1
    assert betting["stacks"] == [98, 98, 1] and betting["contributions"] == [2, 2, 1]
    assert betting["seen"] == [True, True, False]  # seat 2 kept without looking
    assert not kinds(betting) & {"draw", "keep", "discard"}
    # Seat 1 (seen) may bet 2..4: the stake did not move with the two draws.
    bets = [a for a in betting["legal"] if a["type"] == "bet"]
    assert [(a["min"], a["max"]) for a in bets] == [(2, 4)]


def test_shopping_a_seat_that_cannot_pay_must_keep() -> None:
    """P6: seat 2 holds 1 chip after its boot, less than a boot plus a chip."""
    check_illegal(shop_history(draw(2)), 2, 2)


def test_shopping_a_missed_phase_turn_is_a_pack_and_timeout_is_ignored() -> None:
    """C4: a missed phase choice is sent as pack; replay ignores "timeout": true. Seat 2
    packs in the phase: the hand plays as before (seat 2's boot lost either way) except
    that seat 2 no longer takes a betting turn."""
    timed = shop_history(act(2, "pack", timeout=True))
    timed["actions"] = [a for a in timed["actions"] if a != act(2, "pack")]
    plain = shop_history(act(2, "pack"))
    plain["actions"] = [a for i, a in enumerate(plain["actions"]) if i != 8]
    assert replay(timed) == replay(plain)
    check_over(
        replay(plain),
        end="show",
        payouts=[9, 0, 0],
        net=[5, -4, -1],
        stacks=[105, 96, 1],
        shown={0: ["8s", "8h", "8d"], 1: ["Kh", "Kd", "4s"]},
    )


def test_shopping_needs_the_deck_only_when_it_draws() -> None:
    """H2: ``deck`` is required only when the hand draws."""
    keeps = history("shopping", SHOP_CARDS, [keep(1), keep(2), keep(0)])
    assert replay(keeps)["to_act"] == 1  # everyone kept: betting starts, no deck needed
    with pytest.raises(ValueError, match="deck"):
        replay(history("shopping", SHOP_CARDS, [draw(1)]))


# Running out of deck (P7). Seat 2 packs and seat 0 keeps in round 1; seat 1 then draws
# every card of the deck (43 = 52 - 9) and discards each drawn card, one turn per round.
RUN_OUT_CARDS = ["Ks Kh Kd", "Ah Ad 9c", "Qc Jd 5h"]
RUN_OUT_DECK = rest_of_deck(*RUN_OUT_CARDS)
assert len(RUN_OUT_DECK) == 43 and "As" in RUN_OUT_DECK
RUN_OUT_AT = 4 + 2 * 42  # draw 1, discard, pack, keep; then 42 more draw-discard pairs


def run_out_history(last_draw: dict[str, Any]) -> dict[str, Any]:
    actions = [draw(1), discard(1, RUN_OUT_DECK[0]), act(2, "pack"), keep(0)]
    for card in RUN_OUT_DECK[1:]:
        actions += [draw(1), discard(1, card)]
    assert len(actions) == RUN_OUT_AT
    # The deck is empty; the discards (the 43 drawn cards) are the new deck: seat 1 names
    # the As, one of them, discards its 9c (Ah Ad As) and keeps.
    # Chips: boots -> 99/99/99, pot 3; 44 draws by seat 1 -> 55, pot 47.
    # Betting: seat 1 (seen) bets 2 (53, pot 49, stake 1); seat 2 packed; seat 0 (blind,
    # kept without looking) shows for S = 1 (98, pot 50). A-A-A beats K-K-K: seat 1 takes
    # 50. Stacks [98, 103, 99]; contributions [2, 47, 1]; net [-2, 3, -1].
    actions += [last_draw, discard(1, "9c"), keep(1), bet(1, 2), act(0, "show")]
    return history("shopping", RUN_OUT_CARDS, actions, deck=RUN_OUT_DECK)


def test_shopping_the_deck_runs_out_and_only_discards_come_back() -> None:
    h = run_out_history(draw(1, "As"))
    empty = replay(prefix(h, RUN_OUT_AT))
    assert empty["to_act"] == 1
    assert "draw" in kinds(empty)  # the discards can be drawn (P6, P7)
    assert empty["pot"] == 46 and empty["stake"] == 1
    assert empty["contributions"] == [1, 44, 1]
    assert empty["stacks"] == [99, 56, 99]
    result = replay(h)
    check_over(
        result,
        end="show",
        payouts=[0, 50, 0],
        net=[-2, 3, -1],
        stacks=[98, 103, 99],
        shown={0: ["Ks", "Kh", "Kd"], 1: ["Ah", "Ad", "As"]},
    )
    assert result["contributions"] == [2, 47, 1]
    assert result["packed"] == [False, False, True]


@pytest.mark.parametrize(
    "bad",
    [
        draw(1, "9c"),  # held by seat 1 itself
        draw(1, "Ks"),  # held by seat 0, who kept
        draw(1, "Qc"),  # seat 2's card: packed cards are never shuffled back (P7)
        draw(1),  # after the deck ran out a draw names its card (P7)
        draw(1, "Xx"),  # not a card
    ],
)
def test_shopping_a_draw_after_the_deck_ran_out_must_name_a_discard(bad: dict[str, Any]) -> None:
    check_illegal(run_out_history(bad), RUN_OUT_AT, 1)


# ---------------------------------------------------------------- 3. passing_cards

# Dealer 0: seat 1 (the dealer's left) is dealt six, the others three (H1: its six in
# deal order). Indicators (D1, S5): the first's rank is wild, the second's colour is wild,
# the third's rank bursts; they are turned up when the passing is over (D2, P9).


def test_passing_every_seat_bursts_void() -> None:
    """B4: seat 1 keeps 2s As Kd and passes 2h 9c 5d to seat 2; seat 2 (Qs Jh 4c + those)
    keeps 2h Qs Jh and passes 9c 5d 4c to seat 0; seat 0 (2d Ts 6h + those) passes its
    extra three out of play. Burst rank 2 (the 2c indicator): every seat holds a 2, all
    burst: void, every boot back, net 0."""
    h = history(
        "passing_cards",
        ["2d Ts 6h", "2s 2h As Kd 9c 5d", "Qs Jh 4c"],
        [
            pass_cards(1, "2h 9c 5d"),
            pass_cards(2, "9c 5d 4c"),
            pass_cards(0, "9c 5d 4c"),
        ],
        indicators=["3s", "8h", "2c"],
    )
    first = replay(prefix(h, 0))
    assert first["to_act"] == 1 and first["seen"] == [True, True, True]  # P1
    assert kinds(first) == {"pass", "pack"}
    (offer,) = [a for a in first["legal"] if a["type"] == "pass"]
    assert offer["count"] == 3  # V4
    second = replay(prefix(h, 1))
    assert second["to_act"] == 2 and kinds(second) == {"pass", "pack"}
    last = replay(prefix(h, 2))
    assert last["to_act"] == 0 and kinds(last) == {"pass", "pack"}  # the dealer, last
    result = replay(h)
    check_over(
        result,
        end="void",
        payouts=[1, 1, 1],
        net=[0, 0, 0],
        stacks=[100, 100, 100],
        shown={},
    )
    assert result["burst"] == [True, True, True]


def test_passing_one_seat_left_takes_the_pot() -> None:
    """B4: seat 1 keeps Qd Jd Td and passes Ks Kh 2c; seat 2 (As 7s 6s + those) keeps
    As Ks Kh and passes 7s 6s 2c; seat 0 keeps Kd 9h 3h and passes out 7s 6s 2c. Burst
    rank K (the Kc indicator; B2: never wild though red is): seats 0 and 2 burst, seat 1 is
    left: the three boots, net [-1, 2, -1], no card shown."""
    h = history(
        "passing_cards",
        ["Kd 9h 3h", "Ks Kh Qd Jd Td 2c", "As 7s 6s"],
        [
            pass_cards(1, "Ks Kh 2c"),
            pass_cards(2, "7s 6s 2c"),
            pass_cards(0, "7s 6s 2c"),
        ],
        indicators=["3s", "8h", "Kc"],
    )
    result = replay(h)
    check_over(
        result,
        end="last_player",
        payouts=[0, 3, 0],
        net=[-1, 2, -1],
        stacks=[99, 102, 99],
        shown={},
    )
    assert result["burst"] == [True, False, True]


def passing_show_history(actions_after: list[dict[str, Any]]) -> dict[str, Any]:
    return history(
        "passing_cards",
        PASS_CARDS,
        [
            pass_cards(1, "3h 5d Qs"),  # seat 1 keeps Ah Ad 9d
            pass_cards(2, "7h 3h 5d"),  # seat 2: Jh Jd 7h 3h 5d Qs -> keeps Jh Jd Qs
            pass_cards(0, "7h 3h 5d"),  # seat 0: Kd 8d 2h 7h 3h 5d -> keeps Kd 8d 2h
            *actions_after,
        ],
        indicators=PASS_INDICATORS,
    )


def test_passing_indicators_joker_rank_wild_colour_burst_rank() -> None:
    """S5: the 9s makes 9d wild (A-A + wild: trail of aces); the 4c makes black wild (Qs:
    J-J + wild: trail of jacks); the Kh makes kings burst (seat 0's Kd). Were the first two
    read the other way round, seat 1 would hold a pair of aces and lose.
    Chips: boots -> pot 3; seat 0 burst (packed). Seat 1 (seen, P1) bets 2 (pot 5, stake
    1); seat 2 shows for 2S = 2 (pot 7); the asker's trail of jacks loses to the trail of
    aces. Contributions [1, 3, 3]; net [-1, 4, -3]."""
    h = passing_show_history([bet(1, 2), act(2, "show")])
    betting = replay(prefix(h, 3))
    assert betting["burst"] == [True, False, False]
    assert betting["packed"] == [True, False, False]
    assert betting["to_act"] == 1 and betting["pot"] == 3
    assert betting["seen"][1] and betting["seen"][2]
    assert "look" not in kinds(betting)
    result = replay(h)
    check_over(
        result,
        end="show",
        payouts=[0, 7, 0],
        net=[-1, 4, -3],
        stacks=[99, 104, 97],
        # V4 hand order: passed cards removed, received cards appended.
        shown={1: ["Ah", "Ad", "9d"], 2: ["Jh", "Jd", "Qs"]},
    )


# ---------------------------------------------------------------- 9. illegal phase actions (H4)


def discard_case(actions: list[dict[str, Any]]) -> dict[str, Any]:
    return history("discard_one", DISCARD_CARDS, actions)


def shop_case(actions: list[dict[str, Any]]) -> dict[str, Any]:
    return history("shopping", SHOP_CARDS, actions, deck=SHOP_DECK)


def pass_case(actions: list[dict[str, Any]]) -> dict[str, Any]:
    return history("passing_cards", PASS_CARDS, actions, indicators=PASS_INDICATORS)


DISCARDS = [discard(1, "Kc"), discard(2, "9c"), discard(0, "2c")]
PASSES = [pass_cards(1, "3h 5d Qs"), pass_cards(2, "7h 3h 5d"), pass_cards(0, "7h 3h 5d")]

ILLEGAL_PHASE_ACTIONS = {
    # discard_one
    "discard out of turn": (discard_case([discard(2, "9c")]), 0, 2),
    "dealer discards first": (discard_case([discard(0, "2c")]), 0, 0),
    "bet before the discards": (discard_case([bet(1, 2)]), 0, 1),
    "discard a card not held": (discard_case([discard(1, "9c")]), 0, 1),
    "discard twice": (discard_case([discard(1, "Kc"), discard(1, "3d")]), 1, 1),
    "discard during betting": (discard_case([*DISCARDS, discard(1, "3d")]), 3, 1),
    "blind bet after discard_one": (discard_case([*DISCARDS, bet(1, 1)]), 3, 1),
    "draw in discard_one": (discard_case([draw(1)]), 0, 1),
    "choose_variant without dealer's choice": (
        discard_case([act(0, "choose_variant", variant="ak47")]), 0, 0
    ),
    # shopping
    "discard before drawing": (shop_case([discard(1, "4s")]), 0, 1),
    "keep after drawing": (shop_case([draw(1), keep(1)]), 1, 1),
    "draw twice": (shop_case([draw(1), draw(1)]), 1, 1),
    "next seat before the discard": (shop_case([draw(1), keep(2)]), 1, 2),
    "discard a card not held after drawing": (shop_case([draw(1), discard(1, "8d")]), 1, 1),
    "keep out of turn": (shop_case([keep(0)]), 0, 0),
    "a kept seat draws again": (
        shop_case([keep(1), keep(2), keep(0), draw(1)]), 3, 1
    ),
    "bet before everyone kept": (shop_case([keep(1), bet(2, 1)]), 1, 2),
    # passing
    "pass out of turn": (pass_case([pass_cards(2, "Jh Jd 7h")]), 0, 2),
    "pass two cards": (pass_case([act(1, "pass", cards=["3h", "5d"])]), 0, 1),
    "pass four cards": (pass_case([act(1, "pass", cards=["3h", "5d", "Qs", "Ah"])]), 0, 1),
    "pass a card not held": (pass_case([pass_cards(1, "3h 5d Jh")]), 0, 1),
    "pass a card twice": (pass_case([act(1, "pass", cards=["3h", "3h", "5d"])]), 0, 1),
    "pass before receiving": (pass_case([pass_cards(1, "3h 5d Qs"), pass_cards(0, "Kd 8d 2h")]),
                              1, 0),
    "discard in passing": (pass_case([discard(1, "3h")]), 0, 1),
    "pass during betting": (pass_case([*PASSES, pass_cards(1, "Ah Ad 9d")]), 3, 1),
}  # fmt: skip


@pytest.mark.parametrize("case", list(ILLEGAL_PHASE_ACTIONS))
def test_illegal_phase_action_names_index_seat_and_why(case: str) -> None:
    h, index, seat = ILLEGAL_PHASE_ACTIONS[case]
    check_illegal(h, index, seat)
