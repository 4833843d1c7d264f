"""The chance side of AIVAT: hand buckets, their exact chances, and the deals' cards.

:class:`ChanceTable` holds the bucket and value of every three-card hand and the exact
chance of each bucket for one seat and of each ordered pair of buckets for two seats, a
uniformly shuffled deck dealing them; :func:`hand_buckets` makes the 52-card table of a
ranking. :class:`DealCards` is what the value function of :mod:`agents.arena.aivat`
reads of a run's deals.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import cache

import numpy as np
from numpy.typing import NDArray

from agents.arena.seating import ArenaConfig, draw_deal
from agents.odds import HandOdds
from teenpatti_env.cards import NUM_CARDS
from teenpatti_env.cards.hands import value_categories
from teenpatti_env.rules import Rules

BUCKET_SHARE = 0.15
"""A hand category holding more than this share of all hands is split by strength into
pieces of at most this share (a high card in five, a pair in two)."""


@dataclass(frozen=True)
class ChanceTable:
    """The bucket of every three-card hand of a ``deck``-card deck and the exact chance of
    each bucket for one seat (``single``) and of each ordered pair of buckets for two
    seats (``pair``), when the cards are dealt from a uniformly shuffled deck."""

    deck: int
    bucket_of: NDArray[np.int64]
    """Indexed by ``a * deck**2 + b * deck + c`` for the hand's cards in any order."""
    value_of: NDArray[np.int64]
    """The hand's value (higher wins), indexed as ``bucket_of``."""
    single: NDArray[np.float64]
    pair: NDArray[np.float64]

    @property
    def buckets(self) -> int:
        return len(self.single)

    @staticmethod
    def of_hands(buckets: NDArray[np.int64], values: NDArray[np.int64],
                 deck: int) -> ChanceTable:
        """The table of ``buckets[i]`` and ``values[i]``, the bucket and value of the
        ``i``-th hand of ``itertools.combinations(range(deck), 3)`` (buckets ordered as
        the values); the pair chances are counted exactly by inclusion-exclusion over the
        hands sharing one or two cards."""
        combos = np.array(list(itertools.combinations(range(deck), 3)), dtype=np.int64)
        if deck < 6 or len(buckets) != len(combos):
            raise ValueError(f"need one bucket per hand of a deck of at least 6 cards, got "
                             f"{len(buckets)} for {len(combos)} hands")
        count = int(buckets.max()) + 1
        onehot = np.eye(count)[buckets]
        with_card = np.zeros((deck, count))
        with_two = np.zeros((deck, deck, count))
        for i, j in itertools.combinations(range(3), 2):
            np.add.at(with_two, (combos[:, i], combos[:, j]), onehot)
            np.add.at(with_two, (combos[:, j], combos[:, i]), onehot)
        for i in range(3):
            np.add.at(with_card, combos[:, i], onehot)
        sharing = with_card[combos].sum(axis=1) + onehot
        for i, j in itertools.combinations(range(3), 2):
            sharing -= with_two[combos[:, i], combos[:, j]]
        disjoint = onehot.sum(axis=0) - sharing  # [hand, bucket]: hands sharing no card
        pair = np.zeros((count, count))
        np.add.at(pair, buckets, disjoint)
        flat = np.full(deck**3, -1, dtype=np.int64)
        flat_values = np.full(deck**3, -1, dtype=np.int64)
        for a, b, c in itertools.permutations(range(3)):
            index = combos[:, a] * deck**2 + combos[:, b] * deck + combos[:, c]
            flat[index], flat_values[index] = buckets, values
        return ChanceTable(deck, flat, flat_values, onehot.mean(axis=0),
                           pair / (len(combos) * math.comb(deck - 3, 3)))

    def bucket(self, cards: NDArray[np.int64]) -> NDArray[np.int64]:
        """The bucket of every hand in ``cards`` (shape ``(..., 3)``)."""
        out: NDArray[np.int64] = self.bucket_of[self._index(cards)]
        return out

    def value(self, cards: NDArray[np.int64]) -> NDArray[np.int64]:
        """The value of every hand in ``cards`` (shape ``(..., 3)``)."""
        out: NDArray[np.int64] = self.value_of[self._index(cards)]
        return out

    def _index(self, cards: NDArray[np.int64]) -> NDArray[np.int64]:
        cards = np.asarray(cards, dtype=np.int64)
        return (cards[..., 0] * self.deck + cards[..., 1]) * self.deck + cards[..., 2]


def hand_buckets(rules: Rules) -> ChanceTable:
    """The buckets of the 52-card hands under the ranking of ``rules``: each hand category
    (trail, pure sequence, ...), the large ones split by strength (:data:`BUCKET_SHARE`)."""
    return _hand_buckets(rules.best_sequence, rules.ranking_lowball)


@cache
def _hand_buckets(best_sequence: str, lowball: bool) -> ChanceTable:
    combos = np.array(list(itertools.combinations(range(NUM_CARDS), 3)), dtype=np.int64)
    ranking = Rules(best_sequence=best_sequence, lowball=lowball)
    values = HandOdds.of(ranking).values(combos)
    categories = np.asarray(value_categories(ranking))[values]
    buckets = np.zeros(len(combos), dtype=np.int64)
    next_bucket = 0
    for category in np.unique(categories):
        members = np.flatnonzero(categories == category)
        members = members[np.argsort(values[members], kind="stable")]
        pieces = max(1, math.ceil(len(members) / len(combos) / BUCKET_SHARE - 1e-9))
        buckets[members] = next_bucket + np.arange(len(members)) * pieces // len(members)
        next_bucket += pieces
    return ChanceTable.of_hands(buckets, values.astype(np.int64), NUM_CARDS)


@dataclass(frozen=True)
class DealCards:
    """What the value function reads of a run's deals: ``[deal, seat]`` arrays."""

    buckets: NDArray[np.int64]
    values: NDArray[np.int64]
    position: NDArray[np.int64]
    """Each seat's place in the order of play from the dealer's left (0: first)."""

    @staticmethod
    def of(table: ChanceTable, cards: NDArray[np.int64], dealers: NDArray[np.int64]
           ) -> DealCards:
        """What the value function reads of ``cards[deal, seat, :3]`` dealt with the
        dealer ``dealers[deal]``."""
        players = cards.shape[1]
        position = (np.arange(players)[None, :] - dealers[:, None] - 1) % players
        return DealCards(table.bucket(cards[..., :3]), table.value(cards[..., :3]), position)


def dealt_cards(config: ArenaConfig) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """``cards[deal, seat, 3]`` and ``dealers[deal]`` of every deal of ``config`` (drawn
    again from the deals' seeds, exactly as the engines drew them)."""
    cards = np.zeros((config.deals, config.players, 3), dtype=np.int64)
    dealers = np.zeros(config.deals, dtype=np.int64)
    for deal in range(config.deals):
        options = draw_deal(config, deal).options
        cards[deal] = np.asarray(options["cards"])[:, :3]
        dealers[deal] = options["dealer"]
    return cards, dealers


def deal_cards(config: ArenaConfig, table: ChanceTable) -> DealCards:
    """The buckets and positions of every deal of ``config``."""
    return DealCards.of(table, *dealt_cards(config))
