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

The run loop (:func:`training.selfplay_loop.run_loop`) is also the general trainer's
(:mod:`training.general`): what differs between one table kind and a mixture sits in its
``Rounds`` and ``TableHooks``.

The same machinery trains a best response against any fixed agent
(:mod:`training.exploit`): see :class:`Learner` and :func:`ppo_round`.

A run writes to its output folder: ``policy.npz`` (the torch-free ``teenpatti-policy/1``
export, a ``ppo:PATH`` agent everywhere), ``checkpoint.pt`` (resume with ``--resume``),
``progress.csv`` and TensorBoard events, and ``run.json`` (the config and the command).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from training.config import SelfPlayConfig
from training.general import GENERAL_MIXTURE, GeneralRounds, general_model
from training.padded_policies import matched_start, padded_start
from training.selfplay_files import exploiter_count, exploiters_before, progress_bar
from training.selfplay_learner import Learner, learn, ppo_round, train_exploiter
from training.selfplay_loop import (
    LocalRounds,
    OneTable,
    Rounds,
    SelfPlayResult,
    TableHooks,
    run_loop,
)
from training.selfplay_network import (
    EXPLOITER,
    UNIFORM,
    ActorCritic,
    BatchActor,
    Exploiter,
    FrozenActor,
    UniformActor,
    configure_torch,
    new_model,
    resolve_device,
    starting_policy,
)
from training.selfplay_ray import RayRounds
from training.selfplay_rollout import Rollout, RolloutStats, SeatPlan, Tables

__all__ = [
    "EXPLOITER", "UNIFORM", "ActorCritic", "BatchActor", "Exploiter", "FrozenActor",
    "Learner", "Rollout", "RolloutStats", "SeatPlan", "SelfPlayResult", "Tables",
    "UniformActor", "configure_torch", "exploiter_count", "exploiters_before", "learn",
    "new_model", "ppo_round", "progress_bar", "resolve_device", "starting_policy",
    "train_exploiter", "train_selfplay",
]


def train_selfplay(config: SelfPlayConfig,
                   say: Callable[[str], None] | None = None) -> SelfPlayResult:
    """Train from scratch (or from ``config.resume``) and export ``policy.npz``.

    ``say`` receives one line at each change of phase (an exploiter starts or joins the
    pool, a snapshot is taken, a checkpoint is written)."""
    tell = say or (lambda line: None)
    started = time.perf_counter()
    device = configure_torch(config)
    Path(config.out).mkdir(parents=True, exist_ok=True)
    general = config.table_mix == "general"  # one network for every classic-family table
    model = general_model(config) if general else new_model(config, config.rules)
    if config.init_from and not config.resume:
        start = starting_policy(config.init_from, config.rules)
        model.load_policy(padded_start(start) if general else matched_start(start, config.rules))
    model = model.to(device)
    rounds: Rounds
    table: TableHooks
    if general:
        rounds = table = GeneralRounds(model, config, device, GENERAL_MIXTURE, tell)
    else:
        rounds = (LocalRounds(model, config, device) if config.ray is None
                  else RayRounds(model, config, device, tell))
        table = OneTable(config, device)
    try:
        return run_loop(config, model, rounds, table, device, tell, started)
    finally:
        rounds.close()
