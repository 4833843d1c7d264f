"""What the scripted agents' batched forms read: the decisions waiting at many tables of a
:class:`~teenpatti_env.environment.batched.TableBatch`, as arrays.

:class:`Decisions` holds, for rows ``M`` of tables whose seat to act an agent plays, the
same facts the per-table agents read from their seat's info view (pot, stake, every
seat's chips, looks, blind bets and the cards this seat knows); :class:`BatchLegal` is
:class:`~agents.base.LegalMoves` for all the rows at once. The bet bounds and the
sideshow target come from the engine's own rule functions (``batch_kernels``), never from
a second copy of the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.odds import HandOdds
from teenpatti_env.cards.hands import value_strengths
from teenpatti_env.environment import batch_kernels as k
from teenpatti_env.environment.batched import TableBatch

Rows = NDArray[np.int64]
Flags = NDArray[np.bool_]


@k.jit
def _bets_and_targets(params: Any, tab: Any, seat: Any, rows: Any, out: Any) -> None:
    """``out[i]``: the smallest and largest bet open to the seat to act at table
    ``rows[i]`` (``0, 0`` when none is) and its sideshow target (``-1``: none)."""
    for i in range(rows.shape[0]):
        t = rows[i]
        s = tab[t, k.TO_ACT]
        low, high = k.bet_range(params, tab, seat, t, s, 0)
        if low > high:
            low, high = 0, 0
        out[i, 0] = low
        out[i, 1] = high
        out[i, 2] = k.sideshow_target(params, seat, t, s)


class Decisions:
    """The decision of the seat to act at each table of ``rows`` (all waiting for one),
    read from the batch's state: per row ``me``, ``pot``, ``stake``, ``asker`` (``-1``:
    no sideshow asked), ``low``/``high`` (the open bets, ``0, 0`` when none) and
    ``target`` (the sideshow target, ``-1``: none); per row and seat ``[M, n]``:
    ``dealt``, ``packed``, ``seen``, ``blind_bets``, ``stack``, ``chips_in``, ``known``
    (whether ``me`` knows every private card of that seat) and ``cards`` ``[M, n, 3]``
    (the first three private cards).

    In a variant the info view's facts are read the same way: ``full`` (``known`` where
    the seat's private cards are a three-card hand, the only cards the per-table agents
    value by the plain ranking), ``sees_none_own`` (the info's ``cards`` is ``None``: the
    seat has seen none of its own cards, not even an open one) and ``classic`` (three
    private cards, nothing wild: card-removal odds apply, as ``Table.classic``)."""

    def __init__(self, batch: TableBatch, rows: Rows) -> None:
        params, tab, seat, known = batch.arrays
        self.rules = batch.rules
        self.rows = rows
        self.count = len(rows)
        self.me: Rows = tab[rows, k.TO_ACT]
        self.pot: Rows = tab[rows, k.POT]
        self.stake: Rows = tab[rows, k.STAKE]
        self.asker: Rows = tab[rows, k.ASKER]
        fields = seat[rows]
        self.dealt: Flags = fields[:, k.DEALT] == 1
        self.packed: Flags = fields[:, k.PACKED] == 1
        self.seen: Flags = fields[:, k.SEEN] == 1
        self.blind_bets: Rows = fields[:, k.BLIND_BETS]
        self.stack: Rows = fields[:, k.STACK]
        self.chips_in: Rows = fields[:, k.CONTRIB]
        self.cards: Rows = fields[:, k.CARD0:k.CARD0 + 3].transpose(0, 2, 1)
        spec = self.rules.spec
        self.classic: bool = spec.is_classic
        self.known: Flags = known[rows, self.me] == 1
        self.full: Flags = self.known & (spec.private_cards == 3)
        every = np.arange(batch.num_seats)
        self.is_me: Flags = every[None, :] == self.me[:, None]
        self.opponents: Flags = self.dealt & ~self.packed & ~self.is_me
        index = np.arange(self.count)
        self.my_seen: Flags = self.seen[index, self.me]
        self.my_stack: Rows = self.stack[index, self.me]
        self.my_blind_bets: Rows = self.blind_bets[index, self.me]
        self.knows_own: Flags = self.known[index, self.me]
        self.sees_none_own: Flags = known[rows, self.me, self.me] == 0
        self.my_cards: Rows = self.cards[index, self.me]
        self.heads_up: Flags = self.opponents.sum(axis=1) == 1
        extra = np.zeros((self.count, 3), dtype=np.int64)
        _bets_and_targets(params, tab, seat, rows, extra)
        self.low: Rows = extra[:, 0]
        self.high: Rows = extra[:, 1]
        self.target: Rows = extra[:, 2]
        self.odds = HandOdds.of(self.rules)
        self.strength = self._strength(fields[:, k.VALUE])

    def _strength(self, values: Rows) -> NDArray[np.float64]:
        """``Table.strength``: the info's strength of an own hand it has seen; else the
        chance that a random hand beats every opponent still in whose cards it knows."""
        strengths = np.asarray(value_strengths(self.rules), dtype=np.float64)
        index = np.arange(self.count)
        mine = np.where(self.knows_own, values[index, self.me], 0)
        strength = np.where(self.knows_own, strengths[mine], 1.0)
        for j in range(self.opponents.shape[1]):
            seen_theirs = ~self.knows_own & self.opponents[:, j] & self.full[:, j]
            if seen_theirs.any():
                strength[seen_theirs] *= 1.0 - self.odds.strengths(self.cards[seen_theirs, j])
        return strength

    def odds_values(self) -> Rows:
        """``[M, n]``: every seat's hand value under the odds' ranking (``-1``: no cards)."""
        dealt = self.cards[:, :, 0] >= 0
        filler = np.array([0, 1, 2], dtype=np.int64)  # any hand, for the seats without one
        values = self.odds.values(np.where(dealt[:, :, None], self.cards, filler))
        out: Rows = np.where(dealt, values, -1)
        return out

    def can_follow(self, amount: Rows, turns: int = 1) -> Flags:
        """``Table.can_follow``: after betting ``amount`` the seat can still bet as much
        for ``turns`` more turns (only ``short_stack="pack"`` makes that matter)."""
        if self.rules.short_stack != "pack":
            return np.ones(self.count, dtype=np.bool_)
        enough: Flags = self.my_stack >= (1 + turns) * amount
        return enough

    def cost(self, kind: str) -> Rows:
        """``Table.cost``: the chips a legal ``bet`` (at its minimum), ``show`` or
        ``all_in`` costs now (a bet or show that is not legal: the stake's price)."""
        if kind == "all_in":
            return self.my_stack
        price: Rows = np.where(self.my_seen, 2, 1) * self.stake
        if kind == "bet":
            return np.where(self.low > 0, self.low, price)
        return price


class BatchLegal:
    """:class:`~agents.base.LegalMoves` of many decisions: the rows' masks ``[M, A]`` and
    the action table's names."""

    def __init__(self, masks: NDArray[Any], names: Sequence[str]) -> None:
        self.mask: Flags = masks.astype(np.bool_)
        self.index = {name: i for i, name in enumerate(names)}
        self.count = len(masks)

    def has(self, name: str) -> Flags:
        """Rows where ``name`` is legal."""
        i = self.index.get(name)
        if i is None:
            return np.zeros(self.count, dtype=np.bool_)
        legal: Flags = self.mask[:, i]
        return legal

    def first(self, *names: str) -> Rows:
        """Per row, the index of the first of ``names`` that is legal (``-1``: none)."""
        out = np.full(self.count, -1, dtype=np.int64)
        for name in names:
            if name in self.index:  # an action the table does not have is never legal
                free = (out < 0) & self.has(name)
                out[free] = self.index[name]
        return out

    def pick(self, *names: str) -> Rows:
        """Per row, :meth:`LegalMoves.pick`: the first legal of ``names``, else ``pack``,
        else the lowest legal index."""
        out = self.first(*names, "pack")
        none = out < 0
        out[none] = self.mask[none].argmax(axis=1)
        return out

    def any(self, rngs: Sequence[np.random.Generator], rows: Flags,
            without: str | None = None) -> Rows:
        """:meth:`LegalMoves.any` at the rows ``rows``, each drawing from its own
        generator (``rngs``: one per selected row, in row order)."""
        mask = self.mask[rows].copy()
        skip = self.index.get(without) if without is not None else None
        if skip is not None:
            others = mask.copy()
            others[:, skip] = False
            some = others.any(axis=1)
            mask[some] = others[some]
        counts = mask.sum(axis=1)
        drawn = np.array([int(rng.integers(int(count))) for rng, count in zip(rngs, counts,
                                                                          strict=True)],
                         dtype=np.int64)
        # the drawn-th legal index: the first column where the running count passes it
        chosen: Rows = (np.cumsum(mask, axis=1) > drawn[:, None]).argmax(axis=1)
        return chosen
