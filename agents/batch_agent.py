"""The base of the batched agents: :class:`BatchAgent` and the seeds it draws with.

A batched agent plays its seats at every table of a
:class:`~teenpatti_env.environment.batched.TableBatch`; every table and seat that draws
has its own ``numpy`` Generator, made from the seed the per-table agent would be made
with (:meth:`BatchAgent.generators`). The scripted agents' batched forms are in
:mod:`agents.batch_scripted` and :mod:`agents.batch_reading`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from agents.batch_phases import BatchPhases
from agents.batch_view import BatchLegal, Decisions, Flags, Rows
from teenpatti_env.environment.batched import TableBatch

Seeds = NDArray[np.int64] | int | None
"""The per-table agents' seeds: ``[N, n]`` (one per table and seat), one int that
spawns them, or ``None`` (fresh entropy)."""


class BatchAgent:
    """An agent's batched form, bound to one batch: :meth:`act` decides at the tables
    ``rows`` (each waiting for a seat this agent plays), :meth:`reset` forgets the hand at
    some tables (call it whenever a table is dealt a new hand)."""

    name = "agent"
    phase_choices = True
    """Makes :mod:`agents.phases`'s choices (:class:`~agents.batch_phases.BatchPhases`)
    before its own decision, as the per-table agent calls ``phase_action`` and
    ``buy_action`` first; its :meth:`decide` sees only the other rows."""

    def __init__(self, batch: TableBatch, seeds: Seeds = None) -> None:
        self.batch = batch
        self.names = batch.layout.names
        shape = (batch.num_tables, batch.num_seats)
        if seeds is None or isinstance(seeds, (int, np.integer)):
            state = np.random.SeedSequence(seeds).generate_state(shape[0] * shape[1],
                                                                   dtype=np.uint32)
            seeds = state.astype(np.int64).reshape(shape)
        self.seeds = np.asarray(seeds, dtype=np.int64)
        if self.seeds.shape != shape:
            raise ValueError(f"seeds must have shape {shape} (tables, seats), "
                             f"got {self.seeds.shape}")
        self._rngs: dict[tuple[int, int], np.random.Generator] = {}
        self.phases = (BatchPhases(batch) if self.phase_choices and BatchPhases.needed(batch)
                       else None)

    def act(self, rows: Rows, observations: NDArray[np.float32],
            masks: NDArray[np.int8]) -> Rows:
        """The actions at the tables ``rows`` (their observations and masks given)."""
        if self.phases is None:
            return self.decide(Decisions(self.batch, rows), BatchLegal(masks, self.names))
        out = self.phases.choices(rows, observations, masks)
        rest = out < 0
        if rest.any():
            out[rest] = self.decide(Decisions(self.batch, rows[rest]),
                                    BatchLegal(masks[rest], self.names))
        return out

    def decide(self, d: Decisions, legal: BatchLegal) -> Rows:
        raise NotImplementedError

    def reset(self, tables: Flags) -> None:
        """Forget the hand at the tables ``tables`` (the generators go on)."""

    def generators(self, d: Decisions, which: Flags) -> list[np.random.Generator]:
        """The generator of each selected row's table and seat, made on first use."""
        out = []
        for t, s in zip(d.rows[which].tolist(), d.me[which].tolist(), strict=True):
            rng = self._rngs.get((t, s))
            if rng is None:
                rng = self._rngs[t, s] = np.random.default_rng(int(self.seeds[t, s]))
            out.append(rng)
        return out


def new_hands(batch: TableBatch, dealt_before: NDArray[np.int64]) -> Flags:
    """The tables of ``batch`` dealt a new hand since ``batch.hands_dealt`` read
    ``dealt_before`` (a session's next hand, or the next episode's first): where a batched
    agent forgets the hand before, as :func:`agents.loop.play_out` tells a per-table one."""
    dealt: Flags = batch.hands_dealt != dealt_before
    return dealt
