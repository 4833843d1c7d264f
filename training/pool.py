"""The opponents of a training run: scripted agents and frozen snapshots of the learner.

Every opponent seat draws a new member of the pool before each hand. With probability
``self_play_share`` (once a snapshot exists) it plays a frozen snapshot of the learner,
otherwise one of the scripted agents, uniformly. Needs numpy only; no torch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents import SCRIPTED_AGENTS, Agent, make_agent
from agents.base import Info, Mask, Observation
from agents.policy import NumpyPolicy, PolicyAgent
from teenpatti_env.environment.single_agent import TeenPattiEnv
from teenpatti_env.rules import Rules


class OpponentPool:
    """Scripted agent names plus the latest ``max_snapshots`` snapshots of the learner."""

    def __init__(
        self,
        scripted: Sequence[str] = tuple(SCRIPTED_AGENTS),
        self_play_share: float = 0.2,
        max_snapshots: int = 5,
    ) -> None:
        for name in scripted:
            make_agent(name)  # an unknown name fails here
        if not scripted:
            raise ValueError("the pool needs at least one scripted agent (it plays before "
                             "the first snapshot exists)")
        if not 0 <= self_play_share <= 1:
            raise ValueError(f"self_play_share must be in [0, 1], got {self_play_share!r}")
        if max_snapshots < 0:
            raise ValueError(f"max_snapshots must be >= 0, got {max_snapshots!r}")
        self.scripted = tuple(scripted)
        self.self_play_share = float(self_play_share)
        self.max_snapshots = int(max_snapshots)
        self.snapshots: list[NumpyPolicy] = []

    def add_snapshot(self, policy: NumpyPolicy) -> None:
        """Freeze a copy of the learner into the pool (the oldest beyond the cap leaves)."""
        if self.max_snapshots == 0:
            return
        self.snapshots.append(policy)
        del self.snapshots[: -self.max_snapshots]

    def draw(self, rng: np.random.Generator) -> str | int:
        """A scripted agent's name, or the index of a snapshot."""
        if self.snapshots and rng.random() < self.self_play_share:
            return int(rng.integers(len(self.snapshots)))
        return self.scripted[int(rng.integers(len(self.scripted)))]


class PoolSeat(Agent):
    """One opponent seat: plays a member of the pool, drawn again before every hand."""

    name = "pool"

    def __init__(self, pool: OpponentPool, seed: int | None = None) -> None:
        super().__init__(seed)
        self.pool = pool
        self._scripted: dict[str, Agent] = {}
        self.current: Agent | None = None

    def reset(self) -> None:
        member = self.pool.draw(self.rng)
        if isinstance(member, str):
            agent = self._scripted.get(member)
            if agent is None:
                agent = self._scripted[member] = make_agent(member, int(self.rng.integers(2**31)))
        else:
            agent = PolicyAgent(self.pool.snapshots[member], int(self.rng.integers(2**31)),
                                name="snapshot", sample=True)
        agent.reset()
        self.current = agent

    def act(self, observation: Observation, mask: Mask, info: Info) -> int:
        if self.current is None:
            self.reset()
        assert self.current is not None
        return self.current.act(observation, mask, info)


class PoolEnv(TeenPattiEnv):
    """The single-agent view with the learner's seat rotating and pool opponents.

    ``seed`` is this environment's own stream: it seeds the opponent seats, and every
    seed given to :meth:`reset` is mixed with it, so environments reset with the same
    seed (or with seeds s and s + 1, as vectorised environments are) deal different hands.
    ``add_snapshot`` reaches every seat's pool (it is called through ``env_method`` of a
    vectorised environment).
    """

    def __init__(
        self,
        rules: Rules | str | dict[str, Any] | None = "classic",
        pool: OpponentPool | None = None,
        seed: int = 0,
        **kwargs: Any,
    ) -> None:
        rules = Rules.of(rules)
        self.pool = pool if pool is not None else OpponentPool()
        self.stream = int(seed)
        seeds = np.random.SeedSequence(seed).generate_state(rules.num_players - 1)
        seats = [PoolSeat(self.pool, int(s)) for s in seeds]
        super().__init__(rules=rules, opponents=seats, learner_seat="rotate", **kwargs)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        if seed is not None:
            seed = int(np.random.SeedSequence([self.stream, seed]).generate_state(1)[0])
        return super().reset(seed=seed, options=options)

    def add_snapshot(self, policy: NumpyPolicy) -> None:
        self.pool.add_snapshot(policy)
