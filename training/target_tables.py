"""A best response's tables against a scripted agent on the batched engine.

:class:`OneSeatBatch` shows a :class:`~training.selfplay.Learner` a
:class:`~teenpatti_env.environment.batched.TableBatch` as a batch of one-seat tables, as
:class:`training.exploit.PerTableBatch` does with per-table environments: the learner's
seat rotates from hand to hand, and the target's batched form
(:mod:`agents.batch_scripted`) plays every other seat, stepped inside until the learner is
to act again. A hand that ends before the learner's first decision is dealt again and not
reported, as :class:`~teenpatti_env.environment.single_agent.TeenPattiEnv` does.

>>> from teenpatti_env.rules import Rules
>>> tables = OneSeatBatch(8, Rules.preset("classic"), "equity", seed=0)
>>> step = tables.reset()
>>> step.observations.shape[0], bool((step.action_masks.sum(axis=1) > 0).all())
(8, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.batch_scripted import batch_agent
from teenpatti_env.environment.batched import BatchStep, TableBatch
from teenpatti_env.rules import Rules


class OneSeatBatch:
    """``num_tables`` batched tables of ``rules``: one learner seat each (rotating), the
    agent ``agent`` (any agent with a batched form) in every other seat.

    Every :meth:`step` is one step of the whole batch: the learner acts where it is to
    act, the agent everywhere else; a table waiting for the agent shows ``to_act = -1``
    (no decision of the learner's), as the pool's tables do in self-play."""

    num_seats = 1

    def __init__(self, num_tables: int, rules: Rules, agent: str, seed: int) -> None:
        self.batch = TableBatch(num_tables, rules, seed=seed)
        self.num_tables = num_tables
        self.observation_size = self.batch.observation_size
        self.action_size = self.batch.action_size
        self.agent = batch_agent(agent, self.batch, seed + 1)
        self.learner = np.arange(num_tables) % self.batch.num_seats
        """The learner's seat at every table this hand."""
        self._decided = np.zeros(num_tables, np.bool_)
        self._rewards = np.zeros((num_tables, 1))
        self._finished = np.zeros(num_tables, np.bool_)
        self._to_act = np.zeros(num_tables, np.int64)
        self._last: BatchStep | None = None

    def reset(self, seed: int | None = None) -> BatchStep:
        step = self.batch.reset(seed=seed)
        self.agent.reset(np.ones(self.num_tables, np.bool_))
        self.learner[:] = np.arange(self.num_tables) % self.batch.num_seats
        self._decided[:] = False
        self._rewards[:] = 0.0
        self._finished[:] = False
        return self._result(step)

    def step(self, actions: Any) -> BatchStep:
        to_act = self.batch.to_act
        mine = to_act == self.learner
        self._decided |= mine
        chosen = np.array(actions, dtype=np.int64)
        rows = np.flatnonzero((to_act >= 0) & ~mine)
        if len(rows):
            last = self._last  # the batch's buffers, unchanged since its last call
            assert last is not None, "reset() first"
            chosen[rows] = self.agent.act(rows, last.observations[rows],
                                          last.action_masks[rows])
        step = self.batch.step(chosen)
        self._rewards[:] = 0.0
        self._finished[:] = False
        self._settle(step)
        ended = step.to_act < 0  # a deal that ended at once: deal again
        if ended.any():
            step = self.batch.redeal(ended)
        return self._result(step)

    def _result(self, step: BatchStep) -> BatchStep:
        self._last = step
        self._to_act[:] = np.where(step.to_act == self.learner, 0, -1)
        return BatchStep(self._to_act, step.observations, step.action_masks, self._rewards,
                         self._finished)

    def _settle(self, step: BatchStep) -> None:
        """Report the hands that ended (those the learner decided in), then move the
        learner one seat on and clear the agent's memory there."""
        done = step.finished
        if not done.any():
            return
        tables = np.flatnonzero(done)
        reported = tables[self._decided[tables]]
        self._rewards[reported, 0] = step.rewards[reported, self.learner[reported]]
        self._finished[reported] = True
        self.learner[tables] = (self.learner[tables] + 1) % self.batch.num_seats
        self._decided[tables] = False
        self.agent.reset(done)
