"""The named variants of VARIANTS.md and the names of the rules presets.

Each named variant is one line of words and a dict of components, checked into a
:class:`~teenpatti_env.rules.variant_spec.VariantSpec` when this module is imported.

>>> VARIANTS["seven_joker"].wild_ranks, VARIANT_DESCRIPTIONS["seven_joker"]
((5,), 'sevens are wild')
"""

from __future__ import annotations

from typing import Any

from teenpatti_env.rules.variant_spec import VariantSpec

VARIANTS: dict[str, VariantSpec] = {}
"""The named variants of VARIANTS.md that the engine plays."""


_DESCRIPTIONS: dict[str, tuple[str, dict[str, Any]]] = {
    "classic": ("three private cards, nothing added", {}),
    "muflis": ("lowball: the whole ranking is reversed", {"lowball": True}),
    "imagine_one": (
        "two private cards and an imaginary third that becomes whatever is best",
        {"private_cards": 2, "imagined_card": True},
    ),
    "personal_joker": (
        "four private cards; each seat's own lowest rank is wild for it",
        {"private_cards": 4, "wild": ["personal_lowest"]},
    ),
    "all_open": (
        "every seat sees the others' cards but never its own until the hand is over",
        {"visibility": "all_open"},
    ),
    "joker_galore": (
        "an indicator card is turned up; every card of its colour is wild",
        {"wild": ["indicator_colour"]},
    ),
    "shared_pair": (
        "two community cards: the best three of five",
        {"community_cards": 2},
    ),
    "ak47": ("aces, kings, fours and sevens are wild", {"wild": [{"ranks": ["A", "K", "4", "7"]}]}),
    "joker": ("an indicator card is turned up; the other cards of its rank are wild",
              {"wild": ["indicator_rank"]}),
    "seven_joker": ("sevens are wild", {"wild": [{"ranks": ["7"]}]}),
    "one_open_card": (
        "two private cards and one community card",
        {"private_cards": 2, "community_cards": 1},
    ),
    "two_burst": ("a seat dealt a two packs at once", {"burst_rank": "2"}),
    "seven_joker_two_burst": (
        "sevens are wild and a seat dealt a two packs at once",
        {"wild": [{"ranks": ["7"]}], "burst_rank": "2"},
    ),
    "open_joker": (
        "two private cards, one community card, and a rank named before the deal is wild",
        {"private_cards": 2, "community_cards": 1, "wild": ["chosen_rank"]},
    ),
    "two_cards_open": (
        "the first two of each seat's cards are dealt face up",
        {"open_private_cards": 2},
    ),
    "middle_jokers": (
        "two indicators are turned up; every rank strictly between them is wild",
        {"wild": ["middle"]},
    ),
    "colour_jokers": ("a colour named before the deal is wild", {"wild": ["chosen_colour"]}),
    "four_card": ("four private cards: the best three count", {"private_cards": 4}),
    "rotating_jokers": (
        "each seat's lowest rank is wild for it, and the wild ranks move one seat left "
        "after every full betting round",
        {"wild": ["rotating_lowest"]},
    ),
    "buy_a_joker": (
        "once a hand a seen player may pay a boot to make one of its cards wild, in secret",
        {"buy_a_joker": True},
    ),
    "joker_thresholds": (
        "three face-down indicators turn up as the chips beyond the boots reach 10, 20 "
        "and 30; every rank turned up is wild",
        {"wild": [{"thresholds": [10, 20, 30]}]},
    ),
    "discard_one": (
        "four private cards; each seat discards one before betting, no blind play",
        {"private_cards": 4, "phase": "discard_one"},
    ),
    "shopping": (
        "before betting, seats pay a boot to draw a card and discard one, until all keep",
        {"phase": "shopping"},
    ),
    "passing_cards": (
        "six cards to the dealer's left, three passed on round the table; then a wild "
        "rank, a wild colour and a burst rank are turned up",
        {"phase": "passing", "wild": ["indicator_rank", "indicator_colour"],
         "burst_rank": "indicator"},
    ),
}

VARIANT_DESCRIPTIONS: dict[str, str] = {}
"""One line per named variant, for documentation and menus."""

for _name, (_text, _components) in _DESCRIPTIONS.items():
    VARIANTS[_name] = VariantSpec.from_dict(_components, name=_name)
    VARIANT_DESCRIPTIONS[_name] = _text


PRESET_NAMES = ("classic", "pagat", "flash", "tabletop")
"""The names of the rules presets (``Rules.preset``), which no family special may take."""
