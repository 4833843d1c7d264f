"""The scripted agents' phase choices (:mod:`agents.phases`) at many tables of a
:class:`~teenpatti_env.environment.batched.TableBatch` at once: ``continue`` between a
session's hands, the dealer's first variant, a selection phase's turn (look when it may,
discard the worst card, keep the best three, shop while the hand is weak) and buying the
joker that lifts the hand most.

:class:`BatchPhases` chooses exactly what :func:`~agents.phases.phase_action` and
:func:`~agents.phases.buy_action` choose from the seat's info view, reading the same
facts from the batch: whether a phase runs (the table's ``IN_PHASE``), the seat's cards
in hand order (``CARD0..``, ``HELD`` of them), the community cards, and the wild ranks
and colours as the seat knows them (its observation's ``wild_ranks`` and
``wild_colours``, which are the info view's). The sets of cards are valued by the
batch's own kernel (``batch_jokers.best_kept``: the engine's ``wild_value`` over the
batch's value lookups), in the order in which :func:`~agents.phases.best_kept` tries
them, so a tie goes to the same set. No phase choice draws a random number.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
from numpy.typing import NDArray

from agents.batch_view import BatchLegal, Flags, Rows
from agents.phases import BUY_GAIN, SHOP_BELOW
from teenpatti_env.cards.hands import value_strengths
from teenpatti_env.cards.wild import COLOUR_CODES
from teenpatti_env.environment import batch_kernels as k
from teenpatti_env.environment.batch_jokers import best_kept
from teenpatti_env.environment.batched import TableBatch
from teenpatti_env.rules.variants import colour_of

_SUIT_COLOUR = np.array([COLOUR_CODES.index(colour_of(suit)) for suit in range(4)])
"""The ``wild_colours`` slot of each suit (a card's suit is its int's low two bits)."""


class BatchPhases:
    """:mod:`agents.phases`'s choices at the decisions of ``batch``: :meth:`choices` (a
    scripted agent's, before its betting) and :meth:`with_selections` (a selection
    phase's turns only, for an agent that decides the rest itself)."""

    def __init__(self, batch: TableBatch) -> None:
        self.batch = batch
        self.names = batch.layout.names
        index = {name: i for i, name in enumerate(self.names)}
        self.selects = batch.rules.spec.phase is not None
        self.choosing: Flags = np.array([name.startswith("choose_") for name in self.names])
        self.discard_at = np.array([index.get(f"discard_{c}", -1) for c in range(k.MAX_PRIVATE)])
        self.pass_at = np.full(1 << k.MAX_PRIVATE, -1, dtype=np.int64)
        """The index of passing the slots in each set of bits."""
        for slots in combinations(range(k.MAX_PRIVATE), 3):
            name = "pass_" + "_".join(map(str, slots))
            if name in index:
                self.pass_at[sum(1 << c for c in slots)] = index[name]
        self.buys = [(int(name.rsplit("_", 1)[1]), i) for i, name in enumerate(self.names)
                     if name.startswith("buy_joker_")]
        offsets = {name: offset for name, offset, _, _ in batch.obs_layout.slots}
        self.ranks_at = offsets.get("wild_ranks")
        self.colours_at = offsets.get("wild_colours")
        self.strengths = np.asarray(value_strengths(batch.rules), dtype=np.float64)

    @staticmethod
    def needed(batch: TableBatch) -> bool:
        """Whether a decision of ``batch`` can be one :mod:`agents.phases` makes."""
        spec = batch.rules.spec
        names = batch.layout.names
        return (spec.phase is not None or spec.buy_a_joker or "continue" in names
                or any(name.startswith("choose_") for name in names))

    def choices(self, rows: Rows, observations: NDArray[np.float32],
                masks: NDArray[np.int8]) -> Rows:
        """``phase_action``, then ``buy_action``, at the tables ``rows`` (their seats'
        observations and masks given): an action index per row, ``-1`` where neither
        makes a choice (the agent's betting decides)."""
        legal = BatchLegal(masks, self.names)
        out = legal.first("continue")
        choose = legal.mask & self.choosing
        first = (out < 0) & choose.any(axis=1)
        out[first] = choose[first].argmax(axis=1)
        self._select(rows, observations, legal, out)
        self._buy(rows, observations, legal, out)
        return out

    def with_selections(self, rows: Rows, observations: NDArray[np.float32],
                        masks: NDArray[np.int8], actions: Rows) -> Rows:
        """``actions`` with every selection phase's turn among ``rows`` taken by
        ``selection_action`` instead."""
        legal = BatchLegal(masks, self.names)
        out = np.full(len(rows), -1, dtype=np.int64)
        self._select(rows, observations, legal, out)
        chosen: Rows = np.where(out >= 0, out, actions)
        return chosen

    def _select(self, rows: Rows, observations: NDArray[np.float32], legal: BatchLegal,
                out: Rows) -> None:
        """``selection_action`` at the rows where ``out`` is ``-1`` and a phase runs."""
        if not self.selects:
            return
        _, tab, _, _ = self.batch.arrays
        todo = (out < 0) & (tab[rows, k.IN_PHASE] == 1) & (tab[rows, k.END] == k.RUNNING)
        if not todo.any():
            return
        look = todo & legal.has("look")  # shopping: see the hand first (free)
        out[look] = legal.index.get("look", -1)
        todo &= ~look
        held = self._held(rows)
        discard = todo & legal.mask[:, self.discard_at[self.discard_at >= 0]].any(axis=1)
        if discard.any():
            kept, _ = self._kept(rows, observations, discard, held - 1)
            parted = ~kept[discard] & ((1 << held[discard]) - 1)
            thrown = _lowest_bit(parted)
            self._take(legal, discard, self.discard_at[thrown], out)
        todo &= ~discard
        passing = todo & legal.mask[:, self.pass_at[self.pass_at >= 0]].any(axis=1)
        if passing.any():
            kept, _ = self._kept(rows, observations, passing, np.full(len(rows), 3))
            parted = ~kept[passing] & ((1 << held[passing]) - 1)
            self._take(legal, passing, self.pass_at[parted], out)
        todo &= ~passing
        shop = todo & legal.has("draw")
        if shop.any():
            _, value = self._kept(rows, observations, shop, held)
            strength = np.where(self._sees_own(rows) & (value >= 0),
                                self.strengths[np.maximum(value, 0)], 0.0)
            out[shop] = np.where(strength < SHOP_BELOW, legal.pick("draw"),
                                 legal.pick("keep"))[shop]
        todo &= ~shop
        out[todo] = legal.pick("keep")[todo]

    def _buy(self, rows: Rows, observations: NDArray[np.float32], legal: BatchLegal,
             out: Rows) -> None:
        """``buy_action`` at the rows where ``out`` is ``-1``: the joker that lifts the
        hand's strength most (the first such slot), if by at least ``BUY_GAIN``."""
        if not self.buys:
            return
        columns = [i for _, i in self.buys]
        todo = (out < 0) & legal.mask[:, columns].any(axis=1) & self._sees_own(rows)
        if not todo.any():
            return
        held = self._held(rows)
        _, now = self._kept(rows, observations, todo, held)
        best_gain = np.full(len(rows), -np.inf)
        best = np.full(len(rows), -1, dtype=np.int64)
        for slot, index in self.buys:  # in index order, as the info's legal names
            offered = todo & legal.mask[:, index] & (slot < held)
            if not offered.any():
                continue
            _, value = self._kept(rows, observations, offered, held, also_wild=slot)
            gain = self.strengths[np.maximum(value, 0)] - self.strengths[np.maximum(now, 0)]
            better = offered & (gain > best_gain)
            best_gain[better] = gain[better]
            best[better] = index
        buy = todo & (best >= 0) & (best_gain >= BUY_GAIN)
        out[buy] = best[buy]

    def _take(self, legal: BatchLegal, where: Flags, wanted: Rows, out: Rows) -> None:
        """``legal.pick`` of one wanted index per row of ``where``: it if legal, else
        ``pack``, else the lowest legal index."""
        fallback = legal.pick()[where]
        ok = (wanted >= 0) & legal.mask[np.flatnonzero(where), np.maximum(wanted, 0)]
        out[where] = np.where(ok, wanted, fallback)

    def _held(self, rows: Rows) -> Rows:
        """How many cards the seat to act holds (``batch_jokers.held_cards``)."""
        _, tab, seat, _ = self.batch.arrays
        if not self.selects:
            return np.full(len(rows), self.batch.rules.spec.private_cards, dtype=np.int64)
        held: Rows = seat[rows, k.HELD, tab[rows, k.TO_ACT]]
        return held

    def _sees_own(self, rows: Rows) -> Flags:
        """The seat to act has seen its cards (its info's ``cards`` is not ``None``)."""
        _, tab, _, known = self.batch.arrays
        sees: Flags = known[rows, tab[rows, k.TO_ACT], tab[rows, k.TO_ACT]] != 0
        return sees

    def _kept(self, rows: Rows, observations: NDArray[np.float32], where: Flags, keep: Rows,
              also_wild: int = -1) -> tuple[Rows, Rows]:
        """Per row (``-1``, nothing, outside ``where``): the slots of the ``keep`` cards
        worth most together as bits, and their value (``agents.phases.best_kept`` and
        ``kept_value``), with the card in slot ``also_wild`` made wild."""
        params, tab, seat, _ = self.batch.arrays
        count = len(rows)
        ranks = np.zeros((count, 13), dtype=np.int64)
        suits = np.zeros((count, 4), dtype=np.int64)
        if self.ranks_at is not None and self.colours_at is not None:
            ranks[:] = observations[:, self.ranks_at:self.ranks_at + 13] > 0.5
            colours = observations[:, self.colours_at:self.colours_at + 2] > 0.5
            suits[:] = colours[:, _SUIT_COLOUR]
        kept = np.zeros(count, dtype=np.int64)
        value = np.full(count, -1, dtype=np.int64)
        best_kept(params, tab, seat, self.batch.value_lookups, rows, tab[rows, k.TO_ACT],
                  np.where(where, keep, 0).astype(np.int64), ranks, suits,
                  np.full(count, also_wild, dtype=np.int64), kept, value)
        return kept, value


def _lowest_bit(bits: Rows) -> Rows:
    """The index of each entry's lowest set bit."""
    lowest: Rows = np.log2(bits & -bits).astype(np.int64)
    return lowest
