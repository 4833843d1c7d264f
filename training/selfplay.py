"""Self-play PPO on the batched engine: thousands of tables, one network call per step.

A single-file, action-masked PPO in the spirit of CleanRL, written for the batched engine
(:class:`~teenpatti_env.environment.batched.TableBatch`). At every step each table shows
the seat to act; the rows whose seat is played by the learner go through the policy and
value networks in one batch, the rows of each frozen opponent through that opponent in one
batch, and one call of the batched engine applies every action.

Who sits where is drawn for each table at every new hand (:class:`SeatPlan`):

* a share of the tables (``self_play_share``) is pure self-play: every seat is the current
  policy and every seat's decisions are learned from;
* a share (``exploiter_table_share``, once the pool holds exploiters) are exploiter
  tables: one seat an exploiter, every other seat the learner;
* at the others one seat is the learner and every other seat is one opponent drawn from
  the pool: frozen snapshots of the learner taken every ``snapshot_every`` decisions, and
  exploiters (below).

Every ``exploiter_every`` decisions an exploiter is trained: a copy of the current policy
that learns, for ``exploiter_steps`` decisions, against the frozen current policy in every
other seat, played greedily as its export plays (a best response, as in league training
and PSRO). It then joins the pool, so the main policy learns to stop conceding what it
exploited.

Credit: a seat's reward is its own net result of the hand in boots, given to that seat's
last decision of the hand; the returns are undiscounted (``gamma = 1``) with GAE over that
seat's own decisions only. A decision whose hand is still running when a rollout ends is
bootstrapped from its own value.

The same machinery trains a best response against any fixed agent
(:mod:`training.exploit`): see :class:`Learner` and :func:`ppo_round`.

A run writes to its output folder: ``policy.npz`` (the torch-free ``teenpatti-policy/1``
export, a ``ppo:PATH`` agent everywhere), ``checkpoint.pt`` (resume with ``--resume``),
``progress.csv`` and TensorBoard events, and ``run.json`` (the config and the command).
"""

from __future__ import annotations

import copy
import csv
import dataclasses
import itertools
import json
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import torch
from numpy.typing import NDArray
from torch import nn

from agents import make_agent
from agents.policy import NumpyPolicy, PolicyAgent
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.environment.batched import BatchStep, TableBatch
from teenpatti_env.rules import Rules
from training.config import SelfPlayConfig
from training.export import policy_from_linears
from training.league_search import rule_actor, search_exploiter
from training.scaling import observation_scale


class Tables(Protocol):
    """What a :class:`Learner` plays at: :class:`TableBatch`, or
    :class:`training.exploit.PerTableBatch` (scripted opponents, one table each)."""

    num_tables: int
    num_seats: int
    observation_size: int
    action_size: int

    def reset(self, seed: int | None = None) -> BatchStep: ...

    def step(self, actions: Any) -> BatchStep: ...


BatchActor = Callable[[NDArray[np.float32], NDArray[Any]], NDArray[np.int64]]
"""An opponent at the batched tables: ``actor(observations[M, D], masks[M, A]) -> actions[M]``."""

ACTIVATIONS: dict[str, type[nn.Module]] = {"tanh": nn.Tanh, "relu": nn.ReLU}
EXPLOITER = "exploiter"
"""The pool name of an exploiter."""
UNIFORM = "uniform"
"""The pool name of the uniform random policy (the others are snapshots)."""


# ----------------------------------------------------------------------------- config


def resolve_device(name: str) -> torch.device:
    """``auto``: the first CUDA device if torch sees one, else the CPU. A CUDA device that
    is not there is a ``ValueError``."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        device = torch.device(name)
    except RuntimeError as error:
        raise ValueError(f"device must be auto, cpu or cuda[:N], got {name!r}") from error
    if device.type not in ("cpu", "cuda"):
        raise ValueError(f"device must be auto, cpu or cuda[:N], got {name!r}")
    if device.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"device {name!r}: torch sees no CUDA device here")
    return device


# ----------------------------------------------------------------------------- network


def _linear(width_in: int, width_out: int, gain: float) -> nn.Linear:
    linear = nn.Linear(width_in, width_out)
    nn.init.orthogonal_(linear.weight, gain)
    nn.init.zeros_(linear.bias)
    return linear


class ActorCritic(nn.Module):
    """An MLP body over the scaled observation with a policy head and a value head.

    One body serves both heads, so a decision costs one pass through the hidden layers
    (the first layer, 277 inputs wide, is most of the arithmetic)."""

    def __init__(self, observation_size: int, action_size: int, hidden: Sequence[int],
                 activation: str, scale: NDArray[np.float32]) -> None:
        super().__init__()
        self.activation = activation
        self.scale: torch.Tensor
        self.register_buffer("scale", torch.as_tensor(scale, dtype=torch.float32))
        layers: list[nn.Module] = []
        for width_in, width_out in itertools.pairwise([observation_size, *hidden]):
            layers += [_linear(width_in, width_out, math.sqrt(2)), ACTIVATIONS[activation]()]
        self.body = nn.Sequential(*layers)
        self.policy_head = _linear(hidden[-1], action_size, 0.01)
        self.value_head = _linear(hidden[-1], 1, 1.0)

    def forward(self, observations: torch.Tensor,
                masks: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked action logits (illegal actions at a large negative number) and values."""
        features = self.body(observations * self.scale)
        raw = self.policy_head(features)
        logits = torch.where(masks, raw, torch.full_like(raw, -1e9))
        return logits, self.value_head(features).squeeze(-1)

    def load_policy(self, policy: NumpyPolicy) -> None:
        """Take the body and the policy head from an exported policy of the same shape
        (the value head keeps its own weights)."""
        linears = [m for m in self.body if isinstance(m, nn.Linear)] + [self.policy_head]
        shapes = [tuple(m.weight.shape[::-1]) for m in linears]
        if [w.shape for w in policy.weights] != shapes or policy.activation != self.activation:
            raise ValueError(f"the policy's layers {[w.shape for w in policy.weights]} "
                             f"({policy.activation}) do not fit this network's {shapes} "
                             f"({self.activation})")
        scale = self.scale.detach().cpu().numpy()
        with torch.no_grad():
            for k, (linear, weight, bias) in enumerate(
                    zip(linears, policy.weights, policy.biases, strict=True)):
                unscaled = weight / scale[:, None] if k == 0 else weight
                linear.weight.copy_(torch.as_tensor(unscaled.T))
                linear.bias.copy_(torch.as_tensor(bias))

    def to_numpy_policy(self, rules: Rules, **extra: Any) -> NumpyPolicy:
        """The torch-free ``teenpatti-policy/1`` form of the body and the policy head."""
        linears = [m for m in self.body if isinstance(m, nn.Linear)] + [self.policy_head]
        return policy_from_linears(linears, self.scale, self.activation, rules, **extra)


Exploiter = ActorCritic | NDArray[np.float64]
"""A league exploiter: a network (``ppo``) or a rule setting (``search``)."""


class FrozenActor:
    """A copy of a policy network as a pool opponent: it samples its actions, or with
    ``greedy`` plays the most likely legal one (as an exported policy plays in the arena)."""

    def __init__(self, model: ActorCritic, device: torch.device, seed: int,
                 greedy: bool = False) -> None:
        self.model = copy.deepcopy(model).to(device).eval()
        for parameter in self.model.parameters():
            parameter.requires_grad_(False)
        self.device = device
        self.greedy = greedy
        self.generator = torch.Generator(device=device)
        self.generator.manual_seed(seed)

    @torch.no_grad()
    def __call__(self, observations: NDArray[np.float32], masks: NDArray[Any]) -> NDArray[np.int64]:
        obs = torch.as_tensor(observations, device=self.device)
        legal = torch.as_tensor(masks, device=self.device).bool()
        logits = self.model(obs, legal)[0]
        if self.greedy:
            chosen = logits.argmax(dim=-1)
        else:
            chosen = torch.multinomial(torch.softmax(logits, dim=-1), 1,
                                       generator=self.generator).squeeze(-1)
        actions: NDArray[np.int64] = chosen.cpu().numpy()
        return actions


class UniformActor:
    """The uniform random policy over the legal actions, the first member of a PSRO
    population (it plays as the scripted ``random`` agent does)."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng([seed, 2])

    def __call__(self, observations: NDArray[np.float32], masks: NDArray[Any]) -> NDArray[np.int64]:
        draws = np.where(masks.astype(np.bool_), self.rng.random(masks.shape), -1.0)
        actions: NDArray[np.int64] = draws.argmax(axis=1)
        return actions


# ----------------------------------------------------------------------------- rollouts


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


class Learner:
    """A network that learns at a :class:`TableBatch` against a pool of batched actors."""

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
        self._replan(np.arange(batch.num_tables))
        self.last = np.full((batch.num_tables, batch.num_seats), -1, np.int64)
        self.rollout = Rollout(batch.num_tables * config.rollout_steps, batch.observation_size,
                               batch.action_size)
        self.generator = torch.Generator(device=device)
        self.generator.manual_seed(seed)
        self.optimizer = torch.optim.Adam(model.parameters(), lr=config.learning_rate, eps=1e-5)

    def set_pool(self, actors: Sequence[BatchActor], names: Sequence[str]) -> None:
        """The opponents; every table draws again at its next hand."""
        self.pool = list(actors)
        self.pool_names = list(names)
        self._exploiters = [k for k, name in enumerate(self.pool_names, start=1)
                            if name == EXPLOITER]
        self._uniform = len(self.pool_names) if self.pool_names[-1:] == [UNIFORM] else 0
        if UNIFORM in self.pool_names[:-1]:
            raise ValueError("the uniform policy must be the pool's last member")

    def _replan(self, tables: NDArray[np.int64]) -> None:
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
                logits, value = model(obs, mask)
                probs = torch.softmax(logits, dim=-1)
                chosen = torch.multinomial(probs, 1, generator=self.generator).squeeze(-1)
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
                    actions[rows] = actor(step.observations[rows], step.action_masks[rows])
            step = batch.step(actions)
            self.step = step
            finished = np.flatnonzero(step.finished)
            if len(finished) == 0:
                continue
            roles = self.plan.roles[finished]
            learner_seats = roles == 0
            paid = step.rewards[finished]
            last = self.last[finished]
            credited = last >= 0
            rollout.rewards[last[credited]] = paid[credited] * scale
            rollout.done[last[credited]] = True
            self.last[finished] = -1
            others = (~learner_seats).sum(axis=1)
            uniform = ((roles == self._uniform).any(axis=1) if self._uniform
                       else np.zeros(len(finished), np.bool_))
            versus, lone = (others > 1) & ~uniform, others == 1
            stats.hands += int(learner_seats.sum())
            stats.reward_sum += float(paid[learner_seats].sum())
            stats.versus_hands += int(versus.sum())
            stats.versus_reward_sum += float(paid[versus][learner_seats[versus]].sum())
            stats.exploiter_hands += int(lone.sum())
            stats.exploiter_reward_sum += float(paid[lone][~learner_seats[lone]].sum())
            stats.uniform_hands += int(uniform.sum())
            stats.uniform_reward_sum += float(paid[uniform][learner_seats[uniform]].sum())
            self._replan(finished)
        return stats

    def update(self, learning_rate: float) -> dict[str, float]:
        """PPO's clipped update over the last rollout."""
        config, model, rollout = self.config, self.model, self.rollout
        for group in self.optimizer.param_groups:
            group["lr"] = learning_rate
        advantages_np, returns_np = rollout.advantages(config.gae_lambda)
        size = rollout.size
        device = self.device
        obs = torch.as_tensor(rollout.observations[:size], device=device)
        masks = torch.as_tensor(rollout.masks[:size], device=device)
        actions = torch.as_tensor(rollout.actions[:size], device=device)
        old_log_probs = torch.as_tensor(rollout.log_probs[:size], device=device)
        advantages = torch.as_tensor(advantages_np, device=device)
        returns = torch.as_tensor(returns_np, device=device)
        logs: dict[str, list[float]] = {"policy_loss": [], "value_loss": [], "entropy": [],
                                        "approx_kl": [], "clip_fraction": []}
        for _ in range(config.epochs):
            order = torch.randperm(size, generator=self.generator, device=device)
            for start in range(0, size, config.minibatch_size):
                rows = order[start:start + config.minibatch_size]
                if len(rows) < 2:  # one decision has no spread to normalise its advantage by
                    continue
                logits, values = model(obs[rows], masks[rows])
                log_all = torch.log_softmax(logits, -1)
                log_prob = log_all.gather(1, actions[rows, None]).squeeze(-1)
                entropy = -(log_all.exp() * log_all).sum(-1).mean()
                ratio = torch.exp(log_prob - old_log_probs[rows])
                adv = advantages[rows]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                policy_loss = torch.max(
                    -adv * ratio,
                    -adv * torch.clamp(ratio, 1 - config.clip_range, 1 + config.clip_range),
                ).mean()
                value_loss = 0.5 * (values - returns[rows]).pow(2).mean()
                loss = policy_loss - config.ent_coef * entropy + config.vf_coef * value_loss
                self.optimizer.zero_grad(set_to_none=True)
                loss.backward()
                nn.utils.clip_grad_norm_(model.parameters(), config.max_grad_norm)
                self.optimizer.step()
                with torch.no_grad():
                    log_ratio = log_prob - old_log_probs[rows]
                    logs["approx_kl"].append(float(((ratio - 1) - log_ratio).mean()))
                    logs["clip_fraction"].append(
                        float(((ratio - 1).abs() > config.clip_range).float().mean()))
                logs["policy_loss"].append(float(policy_loss.detach()))
                logs["value_loss"].append(float(value_loss.detach()))
                logs["entropy"].append(float(entropy.detach()))
        return {key: float(np.mean(values)) for key, values in logs.items()}


def ppo_round(learner: Learner, learning_rate: float) -> tuple[int, RolloutStats,
                                                               dict[str, float]]:
    """One rollout and one update: the decisions learned from, the rollout's results and
    the update's losses."""
    stats = learner.collect()
    decisions = learner.rollout.size
    losses = learner.update(learning_rate)
    return decisions, stats, losses


# ----------------------------------------------------------------------------- the run


@dataclass
class SelfPlayResult:
    """What :func:`train_selfplay` made."""

    out: Path
    policy: NumpyPolicy
    decisions: int
    updates: int
    seconds: float
    learning_seconds: float
    """Seconds in the main policy's rollouts and updates (exploiters and saving left out)."""
    exploiter_seconds: float

    @property
    def steps_per_second(self) -> float:
        """Learner decisions per second of rollouts and updates."""
        return self.decisions / max(self.learning_seconds, 1e-9)


def new_model(config: SelfPlayConfig, rules: Rules) -> ActorCritic:
    """A freshly initialised network for ``rules``."""
    scale = observation_scale(rules)
    return ActorCritic(len(scale), ActionLayout(rules).size, config.hidden, config.activation,
                       scale)


def starting_policy(name: str) -> NumpyPolicy:
    """The trained policy ``name`` (``ppo:PATH``, ``pretrained:NAME``) a network starts
    from."""
    agent = make_agent(name)
    if not isinstance(agent, PolicyAgent):
        raise ValueError(f"a network starts from a trained policy (ppo:PATH or "
                         f"pretrained:NAME), got {name!r}")
    return agent.policy


def configure_torch(config: SelfPlayConfig) -> torch.device:
    """Seed torch, set its CPU threads and pick the device."""
    torch.manual_seed(config.seed)
    torch.set_num_threads(config.threads or os.cpu_count() or 1)
    return resolve_device(config.device)


def learn(learner: Learner, decisions: int, learning_rate: Callable[[int], float],
          on_round: Callable[[int, RolloutStats, dict[str, float]], None] | None = None) -> int:
    """PPO rounds until ``decisions`` learner decisions; returns how many were made."""
    made = 0
    while made < decisions:
        count, stats, losses = ppo_round(learner, learning_rate(made))
        made += count
        if on_round is not None:
            on_round(count, stats, losses)
    return made


def train_exploiter(main: ActorCritic, config: SelfPlayConfig, device: torch.device,
                    seed: int, on_round: Callable[[int], None] | None = None,
                    ) -> tuple[ActorCritic, float]:
    """A best response to the frozen ``main`` played greedily, as its export plays in the
    arena (a copy of it that learns against it in every other seat, the way
    :mod:`training.exploit` measures a policy); returns it and what it won per hand in
    its last rounds. ``main`` and torch's global random state are left as they were;
    ``on_round`` receives the decisions of each of the exploiter's rounds."""
    exploiter = copy.deepcopy(main)
    rules = config.rules
    settings = dataclasses.replace(config, self_play_share=0.0, anneal_lr=False)
    batch = TableBatch(config.tables, rules, seed=seed)
    learner = Learner(exploiter, batch, settings, device, seed,
                      pool=[FrozenActor(main, device, seed, greedy=True)], names=["main"])
    recent: list[tuple[int, float]] = []

    def record(count: int, stats: RolloutStats, losses: dict[str, float]) -> None:
        recent.append((stats.versus_hands, stats.versus_reward_sum))
        if on_round is not None:
            on_round(count)

    learn(learner, config.exploiter_steps, lambda made: config.exploiter_learning_rate,
          record)
    tail = recent[-max(1, len(recent) // 4):]
    hands = sum(h for h, _ in tail)
    return exploiter, sum(r for _, r in tail) / max(hands, 1)


class RunLog:
    """``progress.csv`` and, where tensorboard is installed, TensorBoard events."""

    def __init__(self, out: Path) -> None:
        self.path = out / "progress.csv"
        self.fields: list[str] | None = None
        self.writer: Any = None
        try:
            from torch.utils.tensorboard import SummaryWriter
        except ImportError:  # pragma: no cover - tensorboard is in the train extra
            return
        self.writer = SummaryWriter(str(out))

    def write(self, row: dict[str, float]) -> None:
        if self.fields is None:
            self.fields = list(row)
            new = not self.path.exists()
            with self.path.open("a", newline="") as handle:
                if new:
                    csv.DictWriter(handle, self.fields).writeheader()
        with self.path.open("a", newline="") as handle:
            csv.DictWriter(handle, self.fields, extrasaction="ignore").writerow(row)
        if self.writer is not None:
            step = int(row["decisions"])
            for key, value in row.items():
                if key != "decisions":
                    self.writer.add_scalar(key, value, step)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def exploiter_count(config: SelfPlayConfig) -> int:
    """How many exploiters a run trains at most: one at each multiple of
    ``exploiter_every`` below ``timesteps`` (none at the end, where no update follows)."""
    if not config.exploiter_every:
        return 0
    return (config.timesteps - 1) // config.exploiter_every


def exploiters_before(config: SelfPlayConfig, decisions: int) -> int:
    """The exploiters a run has trained by ``decisions`` learner decisions."""
    if not config.exploiter_every:
        return 0
    return min(decisions // config.exploiter_every, exploiter_count(config))


def _progress_bar(config: SelfPlayConfig, decisions: int) -> Any:
    """A bar in decisions, the main policy's and the exploiters' budgets together, so its
    estimate of the time left counts the exploiters' training too."""
    from tqdm import tqdm

    per_exploiter = config.exploiter_steps
    total = config.timesteps + exploiter_count(config) * per_exploiter
    initial = decisions + exploiters_before(config, decisions) * per_exploiter
    return tqdm(total=total, initial=initial, unit="decision", unit_scale=True,
                disable=not config.progress, dynamic_ncols=True, desc="main policy")


def progress_bar(total: int, initial: int, enabled: bool) -> Any:
    """A tqdm bar of training decisions (off unless ``enabled``): a best response's."""
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="decision", unit_scale=True,
                disable=not enabled, dynamic_ncols=True)


def train_selfplay(config: SelfPlayConfig,
                   say: Callable[[str], None] | None = None) -> SelfPlayResult:
    """Train from scratch (or from ``config.resume``) and export ``policy.npz``.

    ``say`` receives one line at each change of phase (an exploiter starts or joins the
    pool, a snapshot is taken, a checkpoint is written)."""
    if config.table_mix == "general":  # one network for every classic-family table
        from training.general import train_general

        return train_general(config, say)
    tell = say or (lambda line: None)
    started = time.perf_counter()
    device = configure_torch(config)
    rules = config.rules
    out = Path(config.out)
    out.mkdir(parents=True, exist_ok=True)
    model = new_model(config, rules)
    if config.init_from and not config.resume:
        model.load_policy(starting_policy(config.init_from))
    model = model.to(device)
    batch = TableBatch(config.tables, rules, seed=config.seed)
    learner = Learner(model, batch, config, device, config.seed)
    snapshots: list[ActorCritic] = []
    exploiters: list[Exploiter] = []
    decisions = updates = 0
    if config.resume:
        decisions, updates = _load_checkpoint(Path(config.resume), learner, snapshots,
                                              exploiters, config, rules, device)
        tell(f"resumed from {config.resume} at {decisions:,} decisions")

    uniform: list[BatchActor] = ([UniformActor(config.seed)] if config.uniform_table_share
                                 else [])

    def refresh_pool() -> None:
        members = [("snapshot", m) for m in snapshots] + [(EXPLOITER, m) for m in exploiters]
        # Exploiters play greedily, as the best responses that measure a policy do.
        actors: list[BatchActor] = [
            rule_actor(m, rules) if isinstance(m, np.ndarray) else
            FrozenActor(m, device, config.seed + 7919 * (k + 1) + updates,
                        greedy=name == EXPLOITER)
            for k, (name, m) in enumerate(members)]
        learner.set_pool(actors + uniform,
                         [name for name, _ in members] + [UNIFORM] * len(uniform))

    refresh_pool()
    (out / "run.json").write_text(json.dumps(
        {"config": dataclasses.asdict(config), "command": config.command()}, indent=2) + "\n")
    log = RunLog(out)
    learning = exploiting = 0.0
    next_snapshot = (decisions // config.snapshot_every + 1) * config.snapshot_every
    next_exploiter = ((decisions // config.exploiter_every + 1) * config.exploiter_every
                      if config.exploiter_every else None)
    next_checkpoint = (decisions // config.checkpoint_every + 1) * config.checkpoint_every
    bar = _progress_bar(config, decisions)
    try:
        while decisions < config.timesteps:
            fraction = decisions / config.timesteps if config.anneal_lr else 0.0
            rate = config.learning_rate * max(1.0 - fraction, 0.05)
            round_started = time.perf_counter()
            count, stats, losses = ppo_round(learner, rate)
            learning += time.perf_counter() - round_started
            decisions += count
            updates += 1
            bar.update(count)
            log.write({
                "decisions": decisions, "seconds": time.perf_counter() - started,
                "steps_per_second": decisions / max(learning, 1e-9), "learning_rate": rate,
                "reward_per_hand": stats.reward_sum / max(stats.hands, 1),
                "versus_pool_per_hand": stats.versus_reward_sum / max(stats.versus_hands, 1),
                "exploiter_table_win_per_hand": (stats.exploiter_reward_sum
                                                 / max(stats.exploiter_hands, 1)),
                "uniform_table_win_per_hand": (stats.uniform_reward_sum
                                               / max(stats.uniform_hands, 1)),
                "pool_size": len(learner.pool), **losses,
            })
            if decisions >= next_snapshot:
                next_snapshot += config.snapshot_every
                snapshots.append(copy.deepcopy(model))
                del snapshots[:-config.max_snapshots]
                refresh_pool()
                model.to_numpy_policy(rules, trained_by="teenpatti selfplay",
                                      decisions=decisions).save(
                    out / "snapshots" / f"step_{decisions}.npz")
            # An exploiter after the last update would teach the main policy nothing.
            if (next_exploiter is not None and decisions >= next_exploiter
                    and decisions < config.timesteps):
                number = next_exploiter // config.exploiter_every
                next_exploiter += config.exploiter_every
                label = f"exploiter {number} of {exploiter_count(config)}"
                kind = config.exploiter_kinds[(number - 1) % len(config.exploiter_kinds)]
                tell(f"{decisions:,} decisions: training {label} "
                     + (f"({config.exploiter_steps:,} decisions against the current policy)"
                        if kind == "ppo" else "(a rule strategy searched against the "
                        "current policy)"))
                exploit_started = time.perf_counter()
                exploiter: Exploiter
                if kind == "ppo":
                    exploiter, edge = _train_exploiter_on_bar(model, config, device,
                                                              config.seed + 1000 + updates,
                                                              bar, label)
                else:  # a search makes no learner decisions: none on the bar
                    exploiter, edge = search_exploiter(model, rules,
                                                       config.seed + 1000 + updates)
                    bar.total -= config.exploiter_steps
                exploiting += time.perf_counter() - exploit_started
                exploiters.append(exploiter)
                del exploiters[:-config.max_exploiters]
                refresh_pool()
                tell(f"{label} joined the pool: it won {edge:+.3f} boots per hand from "
                     "the policy it trained against; back to the main policy")
                log.write({"decisions": decisions, "exploiter_edge": edge})
            if decisions >= next_checkpoint or decisions >= config.timesteps:
                next_checkpoint += config.checkpoint_every
                _save_checkpoint(out / "checkpoint.pt", learner, snapshots, exploiters,
                                 config, decisions, updates)
        bar.total = bar.n  # the last update may pass --timesteps: the bar ends full
    finally:
        bar.close()
        log.close()
    policy = model.to_numpy_policy(rules, trained_by="teenpatti selfplay",
                                   decisions=decisions, command=config.command())
    policy.save(out / "policy.npz")
    seconds = time.perf_counter() - started
    summary = {"config": dataclasses.asdict(config), "command": config.command(),
               "decisions": decisions, "updates": updates, "seconds": seconds,
               "learning_seconds": learning, "exploiter_seconds": exploiting,
               "steps_per_second": decisions / max(learning, 1e-9)}
    (out / "run.json").write_text(json.dumps(summary, indent=2) + "\n")
    return SelfPlayResult(out, policy, decisions, updates, seconds, learning, exploiting)


def _train_exploiter_on_bar(main: ActorCritic, config: SelfPlayConfig,
                            device: torch.device, seed: int, bar: Any,
                            label: str) -> tuple[ActorCritic, float]:
    """:func:`train_exploiter`, its decisions counted on the run's progress bar (whose
    total is corrected by what the exploiter made beyond its budget)."""
    made = 0

    def advance(count: int) -> None:
        nonlocal made
        made += count
        bar.update(count)

    bar.set_description(label)
    result = train_exploiter(main, config, device, seed, advance)
    bar.total += made - config.exploiter_steps
    bar.set_description("main policy")
    return result


CHECKPOINT_FORMAT = "teenpatti-selfplay-checkpoint/1"


def _save_checkpoint(path: Path, learner: Learner, snapshots: Sequence[ActorCritic],
                     exploiters: Sequence[Exploiter], config: SelfPlayConfig,
                     decisions: int, updates: int) -> None:
    state = {
        "format": CHECKPOINT_FORMAT,
        "config": dataclasses.asdict(config),
        "model": learner.model.state_dict(),
        "optimizer": learner.optimizer.state_dict(),
        "snapshots": [m.state_dict() for m in snapshots],
        "exploiters": [{"rule_params": torch.as_tensor(m)} if isinstance(m, np.ndarray)
                       else m.state_dict() for m in exploiters],
        "decisions": decisions,
        "updates": updates,
    }
    partial = path.with_suffix(".tmp")
    torch.save(state, partial)
    partial.replace(path)


def _load_checkpoint(path: Path, learner: Learner, snapshots: list[Any],
                     exploiters: list[Exploiter], config: SelfPlayConfig, rules: Rules,
                     device: torch.device) -> tuple[int, int]:
    if not path.is_file():
        raise ValueError(f"no checkpoint at {str(path)!r}")
    try:
        state = torch.load(path, map_location=device, weights_only=True)
    except Exception as error:  # torch raises many kinds for a damaged file
        raise ValueError(f"{str(path)!r} is not a self-play checkpoint: {error}") from None
    if not isinstance(state, dict) or state.get("format") != CHECKPOINT_FORMAT:
        raise ValueError(f"{str(path)!r} is not a {CHECKPOINT_FORMAT} file")
    saved = state["config"]
    for key in ("preset", "players", "hidden", "activation"):
        mine = getattr(config, key)
        theirs = tuple(saved[key]) if key == "hidden" else saved[key]
        if mine != theirs:
            raise ValueError(f"{str(path)!r} was trained with {key}={theirs!r}, this run "
                             f"asks for {mine!r}")
    try:
        learner.model.load_state_dict(state["model"])
        learner.optimizer.load_state_dict(state["optimizer"])
        for target, states in ((snapshots, state["snapshots"]),
                               (exploiters, state["exploiters"])):
            for weights in states:
                if "rule_params" in weights:  # a searched rule exploiter
                    target.append(weights["rule_params"].cpu().numpy())
                    continue
                member = new_model(config, rules).to(device)
                member.load_state_dict(weights)
                target.append(member)
    except (KeyError, RuntimeError) as error:
        raise ValueError(f"{str(path)!r} is damaged: {error}") from None
    return int(state["decisions"]), int(state["updates"])
