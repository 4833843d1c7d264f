"""The self-play run loop (:func:`run_loop`): rounds of rollouts and PPO updates,
snapshots, the league's exploiters, checkpoints, the log and the progress bar.

What differs between one table kind (:class:`OneTable`, :class:`LocalRounds`, the Ray
workers' :class:`~training.selfplay_ray.RayRounds`) and a mixture of kinds
(:mod:`training.general`) sits behind :class:`Rounds` and :class:`TableHooks`;
:func:`training.selfplay.train_selfplay` picks them.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import torch
from numpy.typing import NDArray

from agents.policy import NumpyPolicy
from agents.rule_strategy import PARAMETERS, named_setting
from training.config import SelfPlayConfig
from training.league_search import league_budget, search_exploiter
from training.selfplay_files import (
    RunLog,
    exploiter_count,
    load_checkpoint,
    run_progress_bar,
    save_checkpoint,
)
from training.selfplay_learner import (
    Learner,
    RunClock,
    train_exploiter,
)
from training.selfplay_network import (
    EXPLOITER,
    UNIFORM,
    ActorCritic,
    BatchActor,
    Exploiter,
    PoolMember,
    ScriptedSeats,
    UniformActor,
    new_model,
    pool_actors,
)
from training.selfplay_rollout import RolloutStats, Tables, run_tables


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
    rollout_seconds: float = 0.0
    """The mean seconds of one rollout (one worker's, on Ray)."""
    update_seconds: float = 0.0
    """The mean seconds of one update."""

    @property
    def steps_per_second(self) -> float:
        """Learner decisions per second of rollouts and updates."""
        return self.decisions / max(self.learning_seconds, 1e-9)



class Rounds(Protocol):
    """Where a run's PPO rounds are played: in this process (:class:`LocalRounds`) or by
    rollout workers on Ray (:class:`training.selfplay_ray.RayRounds`). Either way the
    network and its optimizer live here, where the run loop checkpoints them."""

    model: ActorCritic
    optimizer: torch.optim.Optimizer

    @property
    def pool_size(self) -> int:
        """The opponents the tables draw from (the uniform policy counted)."""

    def play(self, learning_rate: float) -> tuple[int, RolloutStats, dict[str, float]]:
        """One round: rollouts with the current weights, then one update; returns the
        decisions learned from, the rollouts' results and the update's losses."""

    def set_pool(self, members: Sequence[tuple[str, PoolMember]], updates: int) -> None:
        """The pool's snapshots and exploiters from now on (``updates``: made so far)."""

    rollout_seconds: list[float]
    """The seconds of each rollout (each worker's, on Ray)."""
    update_seconds: list[float]
    """The seconds of each update."""

    def close(self) -> None:
        """Let go of what the rounds hold (workers, connections)."""


class TableHooks(Protocol):
    """What the run loop asks of the tables it trains at, beyond the rounds: how the
    network is exported, how a pool member is rebuilt from a checkpoint, how the league's
    exploiters are made, and the extra columns of the log. :class:`OneTable` is a run at
    one table kind; :class:`training.general.GeneralRounds` a run at a mixture of kinds."""

    def new_member(self) -> ActorCritic:
        """A fresh network of the run's shape (a checkpoint's snapshots load into it)."""

    def export(self, model: ActorCritic, **metadata: Any) -> NumpyPolicy:
        """The torch-free form of ``model`` (``policy.npz`` and each snapshot), its
        ``trained_by`` filled in."""

    def train_exploiter(self, model: ActorCritic, seed: int,
                        on_round: Callable[[int], None]) -> tuple[ActorCritic, float]:
        """A learned best response to ``model`` and what it won per hand."""

    def search_exploiter(self, model: ActorCritic, seed: int,
                         start: NDArray[np.float64] | None = None,
                         ) -> tuple[NDArray[np.float64], float]:
        """A searched rule exploiter of ``model`` and what it won per hand (``start``: the
        settings the search tries first)."""

    def log_columns(self) -> dict[str, float]:
        """Extra ``progress.csv`` columns of the rounds since the last call."""

    def summary(self) -> dict[str, Any]:
        """Extra entries of the finished run's ``run.json``."""


class OneTable:
    """The :class:`TableHooks` of a run at one table kind, ``config.rules``."""

    def __init__(self, config: SelfPlayConfig, device: torch.device) -> None:
        self.config = config
        self.device = device

    def new_member(self) -> ActorCritic:
        """A fresh network for the run's table."""
        return new_model(self.config, self.config.rules)

    def export(self, model: ActorCritic, **metadata: Any) -> NumpyPolicy:
        """The ``teenpatti-policy/1`` form of ``model``; its metadata's ``episode`` says
        whether it was trained on one-hand episodes or on sessions (its ``rules`` hold the
        sessions' ``max_hands``)."""
        return model.to_numpy_policy(self.config.rules, trained_by="teenpatti selfplay",
                                     episode=self.config.episode, **metadata)

    def train_exploiter(self, model: ActorCritic, seed: int,
                        on_round: Callable[[int], None]) -> tuple[ActorCritic, float]:
        """:func:`train_exploiter` at the run's table."""
        return train_exploiter(model, self.config, self.device, seed, on_round)

    def search_exploiter(self, model: ActorCritic, seed: int,
                         start: NDArray[np.float64] | None = None,
                         ) -> tuple[NDArray[np.float64], float]:
        """:func:`search_exploiter` at the run's table, at the run's search budget."""
        return search_exploiter(self.export(model), self.config.rules, seed,
                                league_budget(self.config.league_search), start)

    def log_columns(self) -> dict[str, float]:
        """None beyond the usual."""
        return {}

    def summary(self) -> dict[str, Any]:
        """Nothing beyond the usual."""
        return {}


class LocalRounds:
    """The rounds of a run in this process: one :class:`Learner` at ``tables`` (default:
    ``config.tables`` tables under ``config.rules``), seeded by the run's seed."""

    rule_seat: Callable[[NDArray[np.float64]], BatchActor] | None = None
    """How a searched exploiter sits at these tables (``None``: at ``config.rules``)."""

    def __init__(self, model: ActorCritic, config: SelfPlayConfig,
                 device: torch.device, tables: Tables | None = None) -> None:
        self.config = config
        self.device = device
        batch = tables if tables is not None else run_tables(config, config.seed)
        self.learner = Learner(model, batch, config, device, config.seed)
        self.model = model
        self.optimizer: torch.optim.Optimizer = self.learner.optimizer
        self.uniform: list[BatchActor] = ([UniformActor(config.seed)]
                                          if config.uniform_table_share else [])
        self.scripted = ScriptedSeats(config.seed)
        self.rollout_seconds: list[float] = []
        self.update_seconds: list[float] = []

    @property
    def pool_size(self) -> int:
        """The opponents the tables draw from (the uniform policy counted)."""
        return len(self.learner.pool)

    def play(self, learning_rate: float) -> tuple[int, RolloutStats, dict[str, float]]:
        """One rollout and one update, as :func:`ppo_round` makes them, each timed."""
        started = time.perf_counter()
        stats = self.learner.collect()
        collected = time.perf_counter()
        losses = self.learner.update(learning_rate)
        self.rollout_seconds.append(collected - started)
        self.update_seconds.append(time.perf_counter() - collected)
        return self.learner.rollout.size, stats, losses

    def set_pool(self, members: Sequence[tuple[str, PoolMember]], updates: int) -> None:
        """The pool's snapshots and exploiters from now on (``updates``: made so far)."""
        actors = pool_actors(members, self.config.rules, self.device, self.config.seed,
                             updates, self.rule_seat, self.config.shards, self.config.workers,
                             scripted_seat=self.scripted)
        self.learner.set_pool(actors + self.uniform, [name for name, _ in members]
                              + [UNIFORM] * len(self.uniform))

    def close(self) -> None:
        """Nothing to let go of."""


def run_loop(config: SelfPlayConfig, model: ActorCritic, rounds: Rounds, table: TableHooks,
             device: torch.device, tell: Callable[[str], None],
             started: float) -> SelfPlayResult:
    """The run loop of :func:`train_selfplay` (and of the general mixture), its rounds
    played by ``rounds`` at the tables ``table`` describes."""
    out = Path(config.out)
    snapshots: list[ActorCritic] = []
    exploiters: list[Exploiter] = []
    decisions = updates = 0
    if config.resume:
        decisions, updates = load_checkpoint(Path(config.resume), model, rounds.optimizer,
                                             snapshots, exploiters, config, config.rules, device,
                                             table.new_member)
        tell(f"resumed from {config.resume} at {decisions:,} decisions")

    # Rule and scripted opponents sit in the pool for the whole run, after the members that
    # come and go.
    rule_opponents = [named_setting(name) for name in config.rule_opponents]
    searched = [m for m in exploiters if isinstance(m, np.ndarray)]

    def refresh_pool() -> None:
        rounds.set_pool([("snapshot", m) for m in snapshots]
                        + [(EXPLOITER, m) for m in exploiters]
                        + [(EXPLOITER, m) for m in rule_opponents]
                        + [(EXPLOITER, name) for name in config.scripted_opponents], updates)

    refresh_pool()
    (out / "run.json").write_text(json.dumps(
        {"config": dataclasses.asdict(config), "command": config.command()}, indent=2) + "\n")
    log = RunLog(out)
    clock = RunClock(started)
    exploiting = 0.0
    next_snapshot = (decisions // config.snapshot_every + 1) * config.snapshot_every
    next_exploiter = ((decisions // config.exploiter_every + 1) * config.exploiter_every
                      if config.exploiter_every else None)
    next_checkpoint = (decisions // config.checkpoint_every + 1) * config.checkpoint_every
    bar = run_progress_bar(config, decisions)
    critic_watch = CriticWatch()
    try:
        while decisions < config.timesteps:
            count, row = clock.play(rounds.play, config, decisions)
            decisions += count
            updates += 1
            bar.update(count)
            log.write({**row, "pool_size": rounds.pool_size, **table.log_columns()})
            notice = critic_watch.see(row)
            if notice:
                tell(notice)
            if decisions >= next_snapshot:
                next_snapshot += config.snapshot_every
                snapshots.append(copy.deepcopy(model))
                del snapshots[:-config.max_snapshots]
                refresh_pool()
                table.export(model, decisions=decisions).save(
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
                    exploiter, edge = _train_exploiter_on_bar(table, model, config,
                                                              config.seed + 1000 + updates,
                                                              bar, label)
                else:  # a search makes no learner decisions: none on the bar
                    start = np.array(rule_opponents + searched).reshape(
                        -1, len(PARAMETERS))
                    exploiter, edge = table.search_exploiter(
                        model, config.seed + 1000 + updates, start)
                    searched.append(exploiter)
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
                save_checkpoint(out / "checkpoint.pt", model, rounds.optimizer, snapshots,
                                exploiters, config, decisions, updates)
        bar.total = bar.n  # the last update may pass --timesteps: the bar ends full
    finally:
        bar.close()
        log.close()
    policy = table.export(model, decisions=decisions, command=config.command())
    policy.save(out / "policy.npz")
    seconds = time.perf_counter() - started
    summary = {"config": dataclasses.asdict(config), "command": config.command(),
               "decisions": decisions, "updates": updates, "seconds": seconds,
               "learning_seconds": clock.learning, "exploiter_seconds": exploiting,
               "steps_per_second": decisions / max(clock.learning, 1e-9), **table.summary()}
    (out / "run.json").write_text(json.dumps(summary, indent=2) + "\n")
    return SelfPlayResult(out, policy, decisions, updates, seconds, clock.learning, exploiting,
                          _mean(rounds.rollout_seconds), _mean(rounds.update_seconds))


class CriticWatch:
    """Says once when the value loss is far above its usual size.

    The policy and value losses share one clipped gradient norm (``max_grad_norm``). A
    value loss far above its usual 1 to 15 (up to 40 in the first updates of a tiny run)
    means pots far larger than usual, and takes most of that norm. At ``rotating_jokers``
    it came with a policy that bet blind to the limit and then went all in, every hand
    (mean value loss near 84, ``approx_kl`` near 0.0002): a larger entropy bonus broke
    that line, a smaller reward scale alone did not
    (docs/selfplay.md#when-the-value-loss-is-large)."""

    WINDOW = 20
    """Updates averaged."""
    LIMIT = 50.0
    """Mean value loss above which the notice is given."""

    def __init__(self) -> None:
        self.losses: deque[float] = deque(maxlen=self.WINDOW)
        self.told = False

    def see(self, row: dict[str, Any]) -> str | None:
        """Take one update's log row; the notice, the first time the mean of the last
        :attr:`WINDOW` value losses passes :attr:`LIMIT` (else ``None``)."""
        loss = row.get("value_loss")
        if self.told or loss is None:
            return None
        self.losses.append(float(loss))
        mean = _mean(self.losses)
        if len(self.losses) < self.WINDOW or mean <= self.LIMIT:
            return None
        self.told = True
        return (f"the value loss averages {mean:.1f} over the last {self.WINDOW} updates, "
                "far above its usual 1 to 15: pots are very large, and the policy may have "
                "settled on going all in; check it with teenpatti exploit, and try a larger "
                "--ent-coef (docs/selfplay.md#when-the-value-loss-is-large)")


def _mean(values: Sequence[float]) -> float:
    return sum(values) / max(len(values), 1)


def _train_exploiter_on_bar(table: TableHooks, main: ActorCritic, config: SelfPlayConfig,
                            seed: int, bar: Any, label: str) -> tuple[ActorCritic, float]:
    """``table``'s learned exploiter, its decisions counted on the run's progress bar
    (whose total is corrected by what the exploiter made beyond its budget)."""
    made = 0

    def advance(count: int) -> None:
        nonlocal made
        made += count
        bar.update(count)

    bar.set_description(label)
    result = table.train_exploiter(main, seed, advance)
    bar.total += made - config.exploiter_steps
    bar.set_description("main policy")
    return result

