"""The actor side of self-play (:mod:`training.selfplay`): tables, seats and rollouts.

:class:`Collector` plays the learner's seats at a batch of tables (:class:`SeatPlan` says
who sits where) and keeps its decisions in a :class:`Rollout`; :meth:`Rollout.samples`
turns them into what an update learns from. Nothing here updates a network, so a Ray
rollout worker (:mod:`training.selfplay_ray`) runs this module as it is.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import torch
from numpy.typing import NDArray

from agents.batch_agent import new_hands
from teenpatti_env.environment.batched import BatchStep, TableBatch
from training.config import SelfPlayConfig
from training.selfplay_network import (
    EXPLOITER,
    UNIFORM,
    ActorCritic,
    BatchActor,
    HandReader,
    actor_actions,
    sample_actions,
)
from training.shards import sharded_forward


class Tables(Protocol):
    """What a :class:`Collector` plays at: :class:`TableBatch`, or
    :class:`training.exploit.PerTableBatch` (scripted opponents, one table each)."""

    num_tables: int
    num_seats: int
    observation_size: int
    action_size: int

    def reset(self, seed: int | None = None) -> BatchStep: ...

    def step(self, actions: Any) -> BatchStep: ...


def run_tables(config: SelfPlayConfig, seed: int) -> TableBatch:
    """The ``config.tables`` tables of a run under ``config.rules``, playing its episodes
    (one hand, or sessions: ``config.episode``), seeded by ``seed``."""
    return TableBatch(config.tables, config.rules, seed=seed, episode=config.episode)


@dataclass
class Rollout:
    """The learner's decisions of one rollout, in the order they were taken."""

    capacity: int
    observation_size: int
    action_size: int
    size: int = 0
    observations: NDArray[np.float32] = field(init=False)
    masks: NDArray[np.bool_] = field(init=False)
    actions: NDArray[np.int64] = field(init=False)
    log_probs: NDArray[np.float32] = field(init=False)
    values: NDArray[np.float32] = field(init=False)
    rewards: NDArray[np.float32] = field(init=False)
    done: NDArray[np.bool_] = field(init=False)
    following: NDArray[np.int64] = field(init=False)
    """The index of the same seat's next decision in the same hand (-1: none yet)."""
    tables: NDArray[np.int64] = field(init=False)
    seats: NDArray[np.int64] = field(init=False)
    """Where each decision was taken."""
    step_starts: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.observations = np.zeros((self.capacity, self.observation_size), np.float32)
        self.masks = np.zeros((self.capacity, self.action_size), np.bool_)
        self.actions = np.zeros(self.capacity, np.int64)
        self.log_probs = np.zeros(self.capacity, np.float32)
        self.values = np.zeros(self.capacity, np.float32)
        self.rewards = np.zeros(self.capacity, np.float32)
        self.done = np.zeros(self.capacity, np.bool_)
        self.following = np.full(self.capacity, -1, np.int64)
        self.tables = np.zeros(self.capacity, np.int64)
        self.seats = np.zeros(self.capacity, np.int64)

    def clear(self) -> None:
        self.size = 0
        self.rewards[:] = 0.0
        self.done[:] = False
        self.following[:] = -1
        self.step_starts = []

    def add(self, tables: NDArray[np.int64], seats: NDArray[np.int64],
            observations: NDArray[np.float32], masks: NDArray[Any],
            actions: NDArray[np.int64], log_probs: NDArray[np.float32],
            values: NDArray[np.float32]) -> NDArray[np.int64]:
        """Store one step's decisions; returns their indices."""
        count = len(actions)
        start = self.size
        if start + count > self.capacity:
            raise RuntimeError("rollout buffer full")
        rows = slice(start, start + count)
        self.tables[rows] = tables
        self.seats[rows] = seats
        self.observations[rows] = observations
        self.masks[rows] = masks
        self.actions[rows] = actions
        self.log_probs[rows] = log_probs
        self.values[rows] = values
        self.step_starts.append(start)
        self.size = start + count
        return np.arange(start, start + count)

    def advantages(self, gae_lambda: float) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """GAE over each seat's own decisions (``gamma = 1``): advantages and returns."""
        size = self.size
        values, rewards = self.values[:size], self.rewards[:size]
        done, following = self.done[:size], self.following[:size]
        advantages = np.zeros(size, np.float32)
        bounds = [*self.step_starts, size]
        for k in range(len(self.step_starts) - 1, -1, -1):
            rows = slice(bounds[k], bounds[k + 1])
            nxt = following[rows]
            has_next = nxt >= 0
            # A decision whose hand goes on past the rollout is bootstrapped from itself.
            next_value = np.where(has_next, values[np.maximum(nxt, 0)],
                                  np.where(done[rows], 0.0, values[rows]))
            delta = rewards[rows] + next_value - values[rows]
            carried = np.where(has_next, advantages[np.maximum(nxt, 0)], 0.0)
            advantages[rows] = delta + gae_lambda * carried
        return advantages, advantages + values

    def samples(self, gae_lambda: float) -> Samples:
        """The rollout's decisions with their advantages and returns, ready for an
        update."""
        advantages, returns = self.advantages(gae_lambda)
        size = self.size
        return Samples(self.observations[:size], self.masks[:size], self.actions[:size],
                       self.log_probs[:size], advantages, returns)


@dataclass
class Samples:
    """What a PPO update learns from: decisions with the log-probabilities they were
    sampled with, their advantages and returns (a rollout's, or several workers' joined
    by :meth:`join`)."""

    observations: NDArray[np.float32]
    masks: NDArray[np.bool_]
    actions: NDArray[np.int64]
    log_probs: NDArray[np.float32]
    advantages: NDArray[np.float32]
    returns: NDArray[np.float32]

    def __len__(self) -> int:
        return len(self.actions)

    @staticmethod
    def join(parts: Sequence[Samples]) -> Samples:
        """The decisions of ``parts``, one after the other, in arrays of their own (Ray
        hands over read-only arrays, which torch would warn about)."""
        return Samples(*(np.concatenate([getattr(part, item.name) for part in parts])
                         for item in dataclasses.fields(Samples)))


class SeatPlan:
    """Who plays each seat of each table this hand: 0 the learner, k the pool's k-th
    opponent (1-based). Drawn again for a table at each of its new hands.

    A draw below ``self_play_share`` makes a self-play table (every seat the learner); one
    in the next ``exploiter_table_share``, while the pool holds exploiters, an exploiter
    table (one seat an exploiter, every other seat the learner, the composition a best
    response is measured in); one in the last ``uniform_table_share`` of the draws, where
    the pool holds the uniform random policy, a uniform table (one learner seat, every
    other seat that policy); the rest are versus tables (one learner seat, every other
    seat one pool member other than the uniform policy, or self-play while there is
    none)."""

    def __init__(self, tables: int, seats: int, self_play_share: float,
                 rng: np.random.Generator, exploiter_table_share: float = 0.0,
                 uniform_table_share: float = 0.0) -> None:
        self.roles = np.zeros((tables, seats), np.int64)
        self.self_play_share = self_play_share
        self.exploiter_table_share = exploiter_table_share
        self.uniform_table_share = uniform_table_share
        self.rng = rng

    def draw(self, tables: NDArray[np.int64], pool_size: int,
             exploiters: Sequence[int] = (), uniform: int = 0) -> None:
        """Seat ``tables`` again; ``exploiters``: the pool indices (1-based) of the
        exploiters; ``uniform``: that of the uniform random policy, which must be the last
        member (0: none)."""
        count = len(tables)
        if count == 0:
            return
        seats = self.roles.shape[1]
        others = pool_size - (1 if uniform else 0)
        if pool_size == 0:
            self.roles[tables] = 0
            return
        draw = self.rng.random(count)
        versus = draw >= self.self_play_share
        opponent = self.rng.integers(1, max(others, 1) + 1, count)
        learner_seat = self.rng.integers(0, seats, count)
        if uniform:
            opponent = np.where(draw >= 1.0 - self.uniform_table_share, uniform,
                                opponent if others else 0)
        roles = np.where(versus[:, None], opponent[:, None], 0) * np.ones(seats, np.int64)
        roles[np.arange(count), learner_seat] = 0
        if len(exploiters) and self.exploiter_table_share > 0:
            # Drawn only here, so that runs without exploiter tables seat as before.
            lone = versus & (draw < self.self_play_share + self.exploiter_table_share)
            exploiter = self.rng.choice(np.asarray(exploiters, np.int64), count)
            exploiter_seat = self.rng.integers(0, seats, count)
            roles[lone] = 0
            rows = np.flatnonzero(lone)
            roles[rows, exploiter_seat[rows]] = exploiter[rows]
        self.roles[tables] = roles


@dataclass
class RolloutStats:
    """What the learner won per hand in one rollout."""

    hands: int = 0
    reward_sum: float = 0.0
    versus_hands: int = 0
    versus_reward_sum: float = 0.0
    """Hands at versus tables (against snapshots or exploiters) and what the learner won."""
    exploiter_hands: int = 0
    exploiter_reward_sum: float = 0.0
    """Hands at exploiter tables and what the exploiter seat won in them."""
    uniform_hands: int = 0
    uniform_reward_sum: float = 0.0
    """Hands at uniform tables and what the learner won in them."""

    def add(self, other: RolloutStats) -> None:
        """Count ``other``'s hands and winnings in these (several workers' rollouts)."""
        for item in dataclasses.fields(RolloutStats):
            setattr(self, item.name, getattr(self, item.name) + getattr(other, item.name))

    def per_hand(self) -> dict[str, float]:
        """The log columns of these winnings: what was won per hand at each kind of table."""
        return {
            "reward_per_hand": self.reward_sum / max(self.hands, 1),
            "versus_pool_per_hand": self.versus_reward_sum / max(self.versus_hands, 1),
            "exploiter_table_win_per_hand": (self.exploiter_reward_sum
                                             / max(self.exploiter_hands, 1)),
            "uniform_table_win_per_hand": self.uniform_reward_sum / max(self.uniform_hands, 1),
        }


class Collector:
    """The actor side of self-play: a network plays its seats at a batch of tables against
    a pool of batched actors and keeps its decisions in a :class:`Rollout`.

    The seat plan, the deals and the sampling are seeded by ``seed``; ``generator`` (a
    torch generator on ``device``) draws the sampled actions. A :class:`Learner` in this
    process and a Ray rollout worker (:mod:`training.selfplay_ray`) collect the same way.
    """

    def __init__(self, model: ActorCritic, batch: Tables, config: SelfPlayConfig,
                 device: torch.device, seed: int,
                 pool: Sequence[BatchActor] = (), names: Sequence[str] = ()) -> None:
        self.model = model
        self.batch = batch
        self.config = config
        self.device = device
        self.set_pool(pool, names)
        rng = np.random.default_rng([seed, 1])
        self.plan = SeatPlan(batch.num_tables, batch.num_seats, config.self_play_share, rng,
                             config.exploiter_table_share, config.uniform_table_share)
        self.step: BatchStep = batch.reset(seed=seed)
        self.replan(np.arange(batch.num_tables))
        self.last = np.full((batch.num_tables, batch.num_seats), -1, np.int64)
        self.rollout = Rollout(batch.num_tables * config.rollout_steps, batch.observation_size,
                               batch.action_size)
        self.generator = torch.Generator(device=device)
        self.generator.manual_seed(seed)

    def set_pool(self, actors: Sequence[BatchActor], names: Sequence[str]) -> None:
        """The opponents; every table draws again at its next hand."""
        self.pool = list(actors)
        self.pool_names = list(names)
        self._readers: list[HandReader] = []  # each once: a name given twice is one seat
        for actor in self.pool:
            if isinstance(actor, HandReader) and all(actor is not r for r in self._readers):
                self._readers.append(actor)
        # the readers are told of new hands by the batch's deal count
        self._deals = None
        if self._readers:
            if not isinstance(self.batch, TableBatch):
                raise TypeError("scripted opponents read the hands of a TableBatch, "
                                f"not of a {type(self.batch).__name__}")
            self._deals = self.batch
        self._exploiters = [k for k, name in enumerate(self.pool_names, start=1)
                            if name == EXPLOITER]
        self._uniform = len(self.pool_names) if self.pool_names[-1:] == [UNIFORM] else 0
        if UNIFORM in self.pool_names[:-1]:
            raise ValueError("the uniform policy must be the pool's last member")

    def replan(self, tables: NDArray[np.int64]) -> None:
        """Draw who sits where at ``tables`` (their next hands) from the pool."""
        self.plan.draw(tables, len(self.pool), self._exploiters, self._uniform)

    @torch.no_grad()
    def collect(self) -> RolloutStats:
        """Play ``rollout_steps`` engine steps and keep the learner's decisions."""
        rollout, batch, model = self.rollout, self.batch, self.model
        rollout.clear()
        self.last[:] = -1
        stats = RolloutStats()
        rows_all = np.arange(batch.num_tables)
        scale = self.config.reward_scale
        for _ in range(self.config.rollout_steps):
            step = self.step
            active = step.to_act >= 0
            seat = np.where(active, step.to_act, 0)
            role = self.plan.roles[rows_all, seat]
            actions = np.zeros(batch.num_tables, np.int64)
            learn = np.flatnonzero(active & (role == 0))
            if len(learn):
                obs_np = step.observations[learn]
                mask_np = step.action_masks[learn].astype(np.bool_)
                obs = torch.as_tensor(obs_np, device=self.device)
                mask = torch.as_tensor(mask_np, device=self.device)
                logits, value = sharded_forward(model, obs, mask, self.config.shards,
                                                self.config.workers)
                chosen = sample_actions(logits, self.generator)
                log_prob = torch.log_softmax(logits, -1).gather(1, chosen[:, None]).squeeze(-1)
                chosen_np = chosen.cpu().numpy()
                seats = seat[learn]
                index = rollout.add(learn, seats, obs_np, mask_np, chosen_np,
                                    log_prob.cpu().numpy(), value.cpu().numpy())
                previous = self.last[learn, seats]
                linked = previous >= 0
                rollout.following[previous[linked]] = index[linked]
                self.last[learn, seats] = index
                actions[learn] = chosen_np
            for k, actor in enumerate(self.pool, start=1):
                rows = np.flatnonzero(active & (role == k))
                if len(rows):
                    actions[rows] = actor_actions(actor, batch, rows, step.observations[rows],
                                                  step.action_masks[rows])
            deals = self._deals
            dealt_before = deals.hands_dealt if deals is not None else None
            step = batch.step(actions)
            self.step = step
            if deals is not None and dealt_before is not None:
                dealt = np.flatnonzero(new_hands(deals, dealt_before))
                for reader in self._readers:
                    reader.new_hands(dealt)
            # A hand pays where the step pays (in a session, hands end before the episode).
            settled = np.flatnonzero(step.finished | step.rewards.any(axis=1))
            if len(settled) == 0:
                continue
            roles = self.plan.roles[settled]
            learner_seats = roles == 0
            paid = step.rewards[settled]
            last = self.last[settled]
            credited = last >= 0
            # Added: a seat with no decision in a session's hand credits its last one.
            np.add.at(rollout.rewards, last[credited], paid[credited] * scale)
            finished = np.flatnonzero(step.finished)
            ended = self.last[finished]
            rollout.done[ended[ended >= 0]] = True
            self.last[finished] = -1
            others = (~learner_seats).sum(axis=1)
            uniform = ((roles == self._uniform).any(axis=1) if self._uniform
                       else np.zeros(len(settled), np.bool_))
            versus, lone = (others > 1) & ~uniform, others == 1
            stats.hands += int(learner_seats.sum())
            stats.reward_sum += float(paid[learner_seats].sum())
            stats.versus_hands += int(versus.sum())
            stats.versus_reward_sum += float(paid[versus][learner_seats[versus]].sum())
            stats.exploiter_hands += int(lone.sum())
            stats.exploiter_reward_sum += float(paid[lone][~learner_seats[lone]].sum())
            stats.uniform_hands += int(uniform.sum())
            stats.uniform_reward_sum += float(paid[uniform][learner_seats[uniform]].sum())
            self.replan(finished)
        return stats
