"""Where the variants of VARIANTS.md plug into the engine.

The engine asks this module, and only this module, how many cards a seat is dealt and
how a seat's cards are valued. Today only ``classic`` exists: three private cards
valued by the table lookup of :mod:`teenpatti_env.hands`. The other seams are in the
engine: ``Hand.phase`` (a selection phase will come before ``"betting"``), and the event
log with its audiences, from which ``Hand.known_cards(viewer)`` tells who has seen which
card. Wild cards, community cards, selection phases and per-seat visibility extend these
rather than the betting rules.
"""

from __future__ import annotations

from collections.abc import Sequence

from teenpatti_env.hands import value_table as _value_table
from teenpatti_env.rules import Rules


def cards_dealt(rules: Rules) -> int:
    """Private cards dealt to each seat."""
    return 3


def value_table(rules: Rules) -> list[int]:
    """The lookup that :func:`seat_value` reads for this table's ranking."""
    return _value_table(rules)


def seat_value(cards: Sequence[int], table: list[int]) -> int:
    """Value of one seat's cards (higher is better)."""
    a, b, c = cards
    return table[a * 2704 + b * 52 + c]
