"""Hands in words, and the three cards a hand is made of.

:func:`value_name` names a hand value as players say it ("pair of jacks, king kicker");
:func:`beats_words` says why one hand beats another; :func:`played_cards` finds the three
cards a seat's best hand is made of, and what each wild (or the imaginary) card became.

>>> from teenpatti_env.cards.hands import evaluate_hand
>>> value_name(evaluate_hand("Jh Js Kd"))
'pair of jacks, king kicker'
>>> beats_words(evaluate_hand("Jh Js Kd"), evaluate_hand("Th Ts Ad"))
'pair of jacks, king kicker, beats pair of tens, ace kicker'
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from teenpatti_env.cards import DECK
from teenpatti_env.cards.hands import BEST_SEQUENCES, ranking_tables
from teenpatti_env.cards.wild import best_value

RANK_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
              "queen", "king", "ace")
"""Each rank index's name (0: two ... 12: ace)."""
_PLURALS = {"six": "sixes"}
_ACE, _THREE, _TWO = 12, 1, 0


def _plural(rank: int) -> str:
    word = RANK_WORDS[rank]
    return _PLURALS.get(word, word + "s")


@cache
def _examples(best_sequence: str, lowball: bool) -> dict[int, tuple[int, int, int]]:
    """One three-card hand of every hand value of a ranking."""
    table = ranking_tables(best_sequence, lowball)[1]
    examples: dict[int, tuple[int, int, int]] = {}
    for a, b, c in itertools.combinations(DECK, 3):
        examples.setdefault(table[a * 2704 + b * 52 + c], (a, b, c))
    return examples


def rank_order(cards: Sequence[int]) -> list[int]:
    """Three cards in the order they rank: a pair before its kicker, a run from its top
    (A-2-3 as 3-2-A), anything else highest first."""
    ranks = sorted(cards, key=lambda card: card >> 2, reverse=True)
    high, mid, low = (card >> 2 for card in ranks)
    if high != mid and mid == low:  # the pair is the lower two
        return [ranks[1], ranks[2], ranks[0]]
    if (high, mid, low) == (_ACE, _THREE, _TWO):
        return [ranks[1], ranks[2], ranks[0]]
    return ranks


def cards_name(cards: Sequence[int]) -> str:
    """Three cards as a hand: "trail of sevens", "pure sequence ace-king-queen", "colour
    king-nine-four", "pair of jacks, king kicker", "high card ace-nine-six"."""
    if len(cards) != 3 or len(set(cards)) != 3:
        raise ValueError(f"a hand is three different cards, got {list(cards)!r}")
    ordered = rank_order(cards)
    ranks = [card >> 2 for card in ordered]
    words = "-".join(RANK_WORDS[rank] for rank in ranks)
    one_suit = len({card & 3 for card in cards}) == 1
    top = sorted(ranks, reverse=True)
    run = (top[0] - top[1] == 1 and top[1] - top[2] == 1) or top == [_ACE, _THREE, _TWO]
    if ranks[0] == ranks[2]:
        return f"trail of {_plural(ranks[0])}"
    if run:
        words = "ace-two-three" if top == [_ACE, _THREE, _TWO] else words
        return f"{'pure sequence' if one_suit else 'sequence'} {words}"
    if one_suit:
        return f"colour {words}"
    if ranks[0] == ranks[1]:
        return f"pair of {_plural(ranks[0])}, {RANK_WORDS[ranks[2]]} kicker"
    return f"high card {words}"


def _check_ranking(best_sequence: str, lowball: bool) -> None:
    if best_sequence not in BEST_SEQUENCES:
        raise ValueError(f"best_sequence must be one of {BEST_SEQUENCES}, got {best_sequence!r}")


def value_name(value: int, best_sequence: str = "AKQ", lowball: bool = False) -> str:
    """A hand value of a ranking in words (suits never matter to a value)."""
    _check_ranking(best_sequence, lowball)
    example = _examples(best_sequence, bool(lowball)).get(value)
    if example is None:
        raise ValueError(f"no hand has value {value!r} under this ranking")
    return cards_name(example)


def beats_words(winner: int, loser: int, best_sequence: str = "AKQ",
                lowball: bool = False) -> str:
    """Why hand value ``winner`` beats (or ties) ``loser``: "pair of jacks, king kicker,
    beats pair of tens, ace kicker"."""
    verb = "beats" if winner > loser else "ties with" if winner == loser else "loses to"
    return (f"{value_name(winner, best_sequence, lowball)}, {verb} "
            f"{value_name(loser, best_sequence, lowball)}")


class PlayedCard(NamedTuple):
    """One of the three cards a hand is made of: ``source`` is its index among the seat's
    cards (``None``: the imaginary card), ``card`` what it counts as."""

    source: int | None
    card: int


def played_cards(cards: Sequence[int], wild: Sequence[bool] | None = None, *,
                 imagined: bool = False, best_sequence: str = "AKQ",
                 lowball: bool = False) -> list[PlayedCard]:
    """The three cards of a seat's best hand (its value is :func:`best_value`'s) in the
    order they rank, each with the card it counts as: a natural card itself, a wild or
    the imaginary card what it became. Fewest wild cards first, then the seat's order."""
    flags = [False] * len(cards) if wild is None else [bool(w) for w in wild]
    target = best_value(cards, flags, imagined=imagined, best_sequence=best_sequence,
                        lowball=lowball)
    table = ranking_tables(best_sequence, bool(lowball))[1]
    slots: list[int | None] = [*range(len(cards)), *([None] if imagined else [])]

    def free(slot: int | None) -> bool:
        return slot is None or flags[slot]

    choices = sorted(itertools.combinations(slots, 3), key=lambda c: sum(map(free, c)))
    for choice in choices:
        options = [[c for c in DECK if c not in cards] if slot is None else
                   list(DECK) if flags[slot] else [cards[slot]] for slot in choice]
        if sum(map(free, choice)) == 3:
            options = [[card] for card in _examples(best_sequence, bool(lowball))[target]]
        for a, b, c in itertools.product(*options):
            if table[a * 2704 + b * 52 + c] == target:
                played = {a: choice[0], b: choice[1], c: choice[2]}
                return [PlayedCard(played[card], card) for card in rank_order((a, b, c))]
    raise AssertionError("the best value is always made of three of the cards")

