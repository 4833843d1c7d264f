"""Variant spec and hand-history validation (C2, P10, H1-H3), and review regressions."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from builders.variants import ALL_CARDS, HISTORIES, PHASE_NAMES, history

from teenpatti_env import Hand, Rules, replay
from teenpatti_env.rules.variants import VariantSpec, WildSource

# ---------------------------------------------------------------- validation


@pytest.mark.parametrize(
    "variant",
    [
        # cannot make three cards
        {"private_cards": 2},
        # open_private_cards >= private_cards
        {"private_cards": 2, "community_cards": 1, "open_private_cards": 2},
        # all_open with open cards
        {"visibility": "all_open", "open_private_cards": 2},
        # unknown component, unknown value, unknown wild source
        {"jokers": 2},
        {"private_cards": 5},
        {"community_cards": 3},
        {"open_private_cards": 1},
        {"visibility": "open"},
        {"wild": ["purple"]},
        {"wild": [{"ranks": ["1"]}]},
        {"wild": [{"ranks": []}]},
        {"burst_rank": "11"},
        # thresholds not strictly increasing positive ints
        {"wild": [{"thresholds": [10, 10, 30]}]},
        {"wild": [{"thresholds": [20, 10]}]},
        {"wild": [{"thresholds": [0, 10]}]},
        {"wild": [{"thresholds": [1.5, 10]}]},
        # a wild source listed twice; two chosen sources
        {"wild": ["middle", "middle"]},
        {"wild": ["chosen_rank", "chosen_colour"]},
        # a family special named like a preset or a built-in variant (C2)
        {"name": "pagat", "spec": {"lowball": True}},
        {"name": "flash", "spec": {"private_cards": 4}},
        {"name": "classic", "spec": {"lowball": True}},
        {"name": "muflis", "spec": {"private_cards": 4}},
        {"name": "pagat", "lowball": True},
        {"name": "classic", "lowball": True},
        # a {"name", "spec"} with anything else
        {"name": "mine", "spec": {}, "extra": 1},
        "no_such_variant",
    ],
)
def test_bad_specs_are_rejected(variant: Any) -> None:
    with pytest.raises(ValueError):
        Rules(variant=variant)


@pytest.mark.parametrize(
    "variant",
    [
        {"name": "muflis", "private_cards": 4},
        {"name": "ak47", "lowball": True},
        {"name": 5, "lowball": True},  # a name that is not a string
        {"name": ["x"], "lowball": True},  # today a TypeError, not a ValueError
    ],
)
def test_flat_spec_named_like_a_built_in_variant_is_rejected(variant: dict[str, Any]) -> None:
    # Today Rules(variant=variant) is accepted and Rules.from_dict(rules.to_dict()) then
    # raises "'muflis' is the name of a built-in variant".
    with pytest.raises(ValueError):
        Rules(variant=variant)


def test_cards_needed_against_the_deck() -> None:
    """C2: a spec needing more than 52 cards at num_players is rejected.

    With the part-one components a deal never needs more than 52 cards: 7 seats of 4 cards,
    2 community cards and four indicators (middle two, rank, colour) plus a burst indicator
    is 28 + 2 + 5 = 35; that largest spec plays.
    """
    biggest = {
        "private_cards": 4,
        "community_cards": 2,
        "wild": ["middle", "indicator_rank", "indicator_colour"],
        "burst_rank": "indicator",
    }
    rules = Rules(variant=biggest, num_players=7)
    hand = Hand.deal(rules, [100] * 7, 3, np.random.default_rng(0))
    saved = hand.to_dict()
    dealt = [c for cards in saved["cards"] for c in cards]
    dealt += saved["community"] + saved["indicators"]
    assert len(dealt) == len(set(dealt)) == 35
    assert len(saved["indicators"]) == 5
    # Thresholds add one indicator each: 7 * 4 + 2 + 23 = 53 > 52 is refused (for now part
    # 2 refuses thresholds at all, also a ValueError).
    too_many = {**biggest, "wild": [{"thresholds": list(range(1, 24))}], "burst_rank": None}
    assert 7 * 4 + 2 + 23 > 52
    with pytest.raises(ValueError):
        Rules(variant=too_many, num_players=7)


def test_good_family_special_round_trips() -> None:
    mine = {"name": "my_game", "spec": {"private_cards": 4, "wild": ["middle"]}}
    rules = Rules(variant=mine)
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    assert rules.to_dict()["variant"]["name"] == "my_game"


def base(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    cards, extra, actions, _ = HISTORIES[name]
    return history(name, cards, extra, actions), actions


def with_fields(name: str, **changes: Any) -> dict[str, Any]:
    h, _ = base(name)
    for key, value in changes.items():
        if value is None:
            h.pop(key, None)
        else:
            h[key] = value
    return h


BAD_HISTORIES = [
    # missing or wrong counts of community cards and indicators (H2)
    ("shared_pair", {"community": None}),
    ("shared_pair", {"community": ["Ks"]}),
    ("shared_pair", {"community": ["Ks", "Kd", "Ac"]}),
    ("one_open_card", {"community": None}),
    ("open_joker", {"community": None}),
    ("classic", {"community": ["Ks"]}),
    ("joker", {"indicators": None}),
    ("joker", {"indicators": ["9s", "Td"]}),
    ("joker_galore", {"indicators": None}),
    ("middle_jokers", {"indicators": ["3s"]}),
    ("middle_jokers", {"indicators": None}),
    ("classic", {"indicators": ["9s"]}),
    ("seven_joker", {"indicators": ["9s"]}),
    ("joker", {"indicators": "9s"}),
    # chosen: required exactly when needed, of the right kind (H3)
    ("open_joker", {"chosen": None}),
    ("open_joker", {"chosen": {"colour": "red"}}),
    ("open_joker", {"chosen": {"rank": "1"}}),
    ("open_joker", {"chosen": {"rank": "5", "colour": "red"}}),
    ("colour_jokers", {"chosen": None}),
    ("colour_jokers", {"chosen": {"colour": "green"}}),
    ("colour_jokers", {"chosen": {"rank": "5"}}),
    ("classic", {"chosen": {"rank": "7"}}),
    ("joker", {"chosen": {"colour": "red"}}),
    # a card in two places
    ("shared_pair", {"community": ["Kh", "Kd"]}),
    ("shared_pair", {"community": ["Ks", "Ks"]}),
    ("joker", {"indicators": ["9h"]}),
    ("open_joker", {"community": ["5s"]}),
    ("middle_jokers", {"indicators": ["6d", "6d"]}),
    ("shared_pair", {"cards": [["Kh", "2c", "7d"], ["As", "Ad", "Qh"], ["Ks", "8h", "6d"]]}),
    # wrong private counts (H1)
    ("imagine_one", {"cards": [["As", "Ks", "Qs"], ["9h", "9d"], ["4c", "6h"]]}),
    ("four_card", {"cards": [["As", "Ks", "Qs"], ["3h", "3d", "3c"], ["9c", "8h", "6d"]]}),
    ("classic", {"cards": [["As", "Ks"], ["3h", "3d", "3c"], ["9c", "8h", "6d"]]}),
]


@pytest.mark.parametrize(("name", "changes"), BAD_HISTORIES)
def test_bad_histories_are_value_errors(name: str, changes: dict[str, Any]) -> None:
    h = with_fields(name, **changes)
    with pytest.raises(ValueError):
        replay(h)


def rest_of_deck(h: dict[str, Any]) -> list[str]:
    used = {c for cards in h["cards"] for c in cards}
    used |= set(h.get("community", [])) | set(h.get("indicators", []))
    return [c for c in ALL_CARDS if c not in used]


@pytest.mark.parametrize("name", ["classic", "shared_pair", "joker", "middle_jokers"])
def test_deck_field(name: str) -> None:
    """H2: ``deck`` lists every other card exactly once."""
    h, _ = base(name)
    deck = rest_of_deck(h)
    assert replay({**h, "deck": deck}) == replay(h)
    for bad in (
        deck[:-1],  # a card missing
        [*deck, deck[0]],  # a card repeated
        [*deck[:-1], deck[0]],  # repeated, so one missing
        [*deck[:-1], h["cards"][0][0]],  # a dealt card in the deck
        [*deck, h["cards"][0][0]],
        [*deck[:-1], "Zz"],
        "As",
    ):
        with pytest.raises(ValueError):
            replay({**h, "deck": bad})
    extra = h.get("community", []) + h.get("indicators", [])
    for card in extra:
        with pytest.raises(ValueError):
            replay({**h, "deck": [*deck[:-1], card]})


# ------------------------------------------------------------ review regressions


def test_a_malformed_chosen_colour_is_a_value_error() -> None:
    history = {
        "rules": {"variant": "colour_jokers"},
        "dealer": 0,
        "cards": [["As", "Kd", "2c"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"], ["2h", "2d", "Js"]],
        "actions": [],
    }
    for chosen in ({"colour": ["red"]}, {"colour": {}}, {"colour": 3}, {"colour": "green"}):
        with pytest.raises(ValueError, match="colour"):
            replay({**history, "chosen": chosen})


@pytest.mark.parametrize("name", PHASE_NAMES)
def test_a_family_special_may_not_take_a_part_two_name(name: str) -> None:
    with pytest.raises(ValueError, match="built-in variant"):
        Rules(variant={"name": name, "spec": {"private_cards": 4}})


@pytest.mark.parametrize(
    "wild",
    [
        ("middle",),
        None,
        (WildSource("jokers_everywhere"),),
        (WildSource("ranks", (99,)),),
        (WildSource("ranks", ("7",)),),
        (WildSource("middle", (3,)),),
    ],
)
def test_a_directly_built_spec_is_checked_like_a_dict(wild: Any) -> None:
    with pytest.raises(ValueError):
        Rules(variant=VariantSpec(name="fam", wild=wild))


def test_a_saved_hand_with_a_damaged_action_is_a_value_error() -> None:
    """A saved hand is its history: a damaged action is an illegal history."""
    hand = Hand.deal(Rules(variant="two_cards_open"), [100] * 4, 0, np.random.default_rng(0))
    for damaged in (
        {"type": "reveal", "hands": 5},
        {"type": "look", "seat": 9},
        {"type": "bet", "seat": 1, "amount": 1000},
        {"type": "buy_joker", "seat": 1, "card": "Zz"},
    ):
        data = hand.to_dict()
        data["actions"].append(damaged)
        with pytest.raises(ValueError):
            Hand.from_dict(data)
