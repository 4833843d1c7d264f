"""How strong a hand is against the hands an opponent can still hold.

The 22,100 three-card hands are valued once per ranking with the engine's own tables.
The strength of a hand is then exact given the cards a seat knows: every hand that
shares a card with them is ruled out, and ties count half.

>>> odds = HandOdds.of({"best_sequence": "AKQ", "lowball": False})
>>> round(odds.percentile([48, 49, 50], ()), 3)  # a trail of aces beats everything else
1.0
>>> beat_in_range(0.9, 0.5)  # the top half of the range: 0.9 is the 80th percentile of it
0.8
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from functools import cache, lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from teenpatti_env.cards import NUM_CARDS
from teenpatti_env.cards.hands import evaluate_hands, value_strengths
from teenpatti_env.rules import Rules


class HandOdds:
    """Exact percentiles of a hand among the hands an opponent may hold."""

    def __init__(self, best_sequence: str, lowball: bool) -> None:
        combos = np.array(list(itertools.combinations(range(NUM_CARDS), 3)), dtype=np.int64)
        rules = Rules(best_sequence=best_sequence, lowball=lowball)
        self._values: NDArray[np.int32] = evaluate_hands(combos, rules)
        bits = np.left_shift(np.uint64(1), combos.astype(np.uint64))
        self._masks: NDArray[np.uint64] = np.bitwise_or.reduce(bits, axis=1)
        self._rules = rules
        self._percentiles: NDArray[np.float64] | None = None

    @staticmethod
    def of(rules: Mapping[str, Any] | Rules) -> HandOdds:
        """The (shared, cached) odds of the ranking in ``rules`` (a Rules or its dict)."""
        if not isinstance(rules, Rules):
            rules = rules_of(rules)
        return _odds(rules.best_sequence, rules.ranking_lowball)

    def value(self, cards: Sequence[int]) -> int:
        """The value of a three-card hand under this ranking."""
        return int(evaluate_hands(np.asarray([cards]), self._rules)[0])

    def strength(self, cards: Sequence[int]) -> float:
        """The share of all 22,100 hands that ``cards`` beat, ties half (no card removal)."""
        return value_strengths(self._rules)[self.value(cards)]

    def percentile(self, cards: Sequence[int], dead: Iterable[int]) -> float:
        """The share of the hands an opponent may hold that ``cards`` beat (ties half).

        An opponent's hand shares no card with ``cards`` or with ``dead`` (other cards this
        seat knows are elsewhere).
        """
        blocked = 0
        for card in itertools.chain(cards, dead):
            blocked |= 1 << card
        possible = (self._masks & np.uint64(blocked)) == 0
        values = self._values[possible]
        mine = self.value(cards)
        below = int(np.count_nonzero(values < mine))
        equal = int(np.count_nonzero(values == mine))
        return (below + 0.5 * equal) / len(values)

    def values(self, hands: NDArray[np.int64]) -> NDArray[np.int32]:
        """:meth:`value` of many hands at once (shape ``(..., 3)``)."""
        return evaluate_hands(hands, self._rules)

    def strengths(self, hands: NDArray[np.int64]) -> NDArray[np.float64]:
        """:meth:`strength` of many hands at once (shape ``(..., 3)``)."""
        return np.asarray(value_strengths(self._rules), dtype=np.float64)[self.values(hands)]

    def percentiles(self) -> NDArray[np.float64]:
        """:meth:`percentile` with no dead cards of every hand, as a flat table indexed by
        ``a * 2704 + b * 52 + c`` (any order of the cards; computed once per ranking)."""
        if self._percentiles is None:
            self._percentiles = _percentile_table(self._values, self._masks)
        return self._percentiles


def rules_of(settings: Mapping[str, Any]) -> Rules:
    """The ``Rules`` of an info view's ``rules`` dict (built once per distinct dict)."""
    return _rules_of(json.dumps(settings, sort_keys=True))


@lru_cache(maxsize=256)  # bounded: a server sees any number of distinct rule sets
def _rules_of(settings: str) -> Rules:
    return Rules.from_dict(json.loads(settings))


@cache
def _odds(best_sequence: str, lowball: bool) -> HandOdds:
    return HandOdds(best_sequence, lowball)


def _percentile_table(values: NDArray[np.int32], masks: NDArray[np.uint64]) -> NDArray[np.float64]:
    """Every hand's share of the hands disjoint from it that it beats (ties half), by
    inclusion-exclusion over the hands sharing one or two of its cards: the same counts
    :meth:`HandOdds.percentile` makes hand by hand, so the same floats."""
    combos = np.array(list(itertools.combinations(range(NUM_CARDS), 3)), dtype=np.int64)
    below = np.zeros(len(values), dtype=np.int64)
    equal = np.zeros(len(values), dtype=np.int64)

    def count(group: NDArray[np.int64], sign: int) -> None:
        # group[g, :]: the hands sharing the g-th card (pair); for each of them, how many
        # of the group's hands are worth less, and how many the same
        ranked = np.sort(values[group], axis=1)
        mine = values[group]
        less = np.stack([np.searchsorted(row, own, "left") for row, own in zip(ranked, mine,
                                                                               strict=True)])
        upto = np.stack([np.searchsorted(row, own, "right") for row, own in zip(ranked, mine,
                                                                                strict=True)])
        np.add.at(below, group, sign * less)
        np.add.at(equal, group, sign * (upto - less))

    count(np.arange(len(values))[None, :], 1)
    bits = (masks[:, None] >> np.arange(NUM_CARDS, dtype=np.uint64)) & np.uint64(1)
    count(np.stack([np.flatnonzero(bits[:, c]) for c in range(NUM_CARDS)]), -1)
    pairs = list(itertools.combinations(range(NUM_CARDS), 2))
    count(np.stack([np.flatnonzero(bits[:, a] & bits[:, b]) for a, b in pairs]), 1)
    equal -= 1  # the hand itself, in all three cards' groups and all three pairs' groups
    possible = math.comb(NUM_CARDS - 3, 3)  # the hands that share none of its cards
    flat = np.full(NUM_CARDS**3, np.nan)
    shares = (below + 0.5 * equal) / possible
    for a, b, c in itertools.permutations(range(3)):
        flat[combos[:, a] * NUM_CARDS**2 + combos[:, b] * NUM_CARDS + combos[:, c]] = shares
    flat.flags.writeable = False
    return flat


def beat_in_range(percentile: float, top: float) -> float:
    """The chance to beat one opponent whose hand is in the top ``top`` share of hands,
    for a hand at ``percentile`` of all hands (1.0 when the range is everything)."""
    top = min(max(top, 1e-9), 1.0)
    return min(max((percentile - (1.0 - top)) / top, 0.0), 1.0)
