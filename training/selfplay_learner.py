"""The learner side of self-play (:mod:`training.selfplay`): PPO's clipped update.

:func:`ppo_update` learns from :class:`~training.selfplay_rollout.Samples`, wherever they
were collected; :class:`Learner` is a :class:`~training.selfplay_rollout.Collector` with an
optimizer, the trainer of one process (the main policy's, an exploiter's, a best
response's); :func:`train_exploiter` trains a league exploiter with one.
"""

from __future__ import annotations

import copy
import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from training.config import SelfPlayConfig
from training.selfplay_network import ActorCritic, BatchActor, FrozenActor
from training.selfplay_rollout import Collector, RolloutStats, Samples, Tables, run_tables
from training.shards import run_shards, summed


def new_optimizer(model: ActorCritic, config: SelfPlayConfig) -> torch.optim.Adam:
    """The Adam optimizer a learner updates ``model`` with."""
    return torch.optim.Adam(model.parameters(), lr=config.learning_rate, eps=1e-5)


def ppo_update(model: ActorCritic, optimizer: torch.optim.Optimizer,
               generator: torch.Generator, config: SelfPlayConfig, device: torch.device,
               samples: Samples, learning_rate: float) -> dict[str, float]:
    """PPO's clipped update of ``model`` over ``samples`` (``generator`` draws the
    minibatches' order); returns the mean losses.

    Each minibatch's loss is a sum over its rows divided by the minibatch's size, computed
    in ``config.shards`` row shards whose gradients are added in shard order
    (:mod:`training.shards`), so the update does not depend on ``config.threads``."""
    for group in optimizer.param_groups:
        group["lr"] = learning_rate
    size = len(samples)
    data = [torch.as_tensor(array, device=device) for array in (
        samples.observations, samples.masks, samples.actions, samples.log_probs,
        samples.advantages, samples.returns)]
    shuffled = [torch.empty_like(tensor) for tensor in data]
    parameters = [p for p in model.parameters() if p.requires_grad]
    sums: dict[str, list[float]] = {name: [] for name in LOSS_NAMES}
    for _ in range(config.epochs):
        order = torch.randperm(size, generator=generator, device=device)

        def gather(part: slice, order: torch.Tensor = order) -> None:
            for tensor, out in zip(data, shuffled, strict=True):
                torch.index_select(tensor, 0, order[part], out=out[part])

        run_shards(gather, size, config.shards, config.workers)  # each fills its rows
        for start in range(0, size, config.minibatch_size):
            rows = slice(start, min(start + config.minibatch_size, size))
            count = rows.stop - rows.start
            if count < 2:  # one decision has no spread to normalise its advantage by
                continue
            batch = [tensor[rows] for tensor in shuffled]
            adv = batch[4]
            batch[4] = (adv - adv.mean()) / (adv.std() + 1e-8)

            def shard(part: slice, batch: list[torch.Tensor] = batch,
                      rows_total: int = count) -> tuple[list[torch.Tensor], list[float]]:
                return _shard_gradients(model, parameters, config,
                                        [tensor[part] for tensor in batch], rows_total)

            results = run_shards(shard, count, config.shards, config.workers)
            gradients = summed([grads for grads, _ in results])
            for parameter, gradient in zip(parameters, gradients, strict=True):
                parameter.grad = gradient
            nn.utils.clip_grad_norm_(parameters, config.max_grad_norm)
            optimizer.step()
            for k, name in enumerate(LOSS_NAMES):
                sums[name].append(sum(totals[k] for _, totals in results) / count)
    return {name: float(np.mean(values)) for name, values in sums.items()}


LOSS_NAMES = ("policy_loss", "value_loss", "entropy", "approx_kl", "clip_fraction")
"""What :func:`ppo_update` reports, each a mean over the update's minibatches."""


def _shard_gradients(model: ActorCritic, parameters: Sequence[torch.Tensor],
                     config: SelfPlayConfig, batch: list[torch.Tensor],
                     rows_total: int) -> tuple[list[torch.Tensor], list[float]]:
    """One shard's share of a minibatch's PPO loss: its gradients and its sums of
    :data:`LOSS_NAMES` (each over the shard's rows)."""
    obs, masks, actions, old_log_probs, adv, returns = batch
    with torch.enable_grad():  # grad mode is per thread
        logits, values = model(obs, masks)
        log_all = torch.log_softmax(logits, -1)
        log_prob = log_all.gather(1, actions[:, None]).squeeze(-1)
        entropy = -(log_all.exp() * log_all).sum()
        log_ratio = log_prob - old_log_probs
        ratio = torch.exp(log_ratio)
        policy_loss = torch.max(
            -adv * ratio,
            -adv * torch.clamp(ratio, 1 - config.clip_range, 1 + config.clip_range),
        ).sum()
        value_loss = 0.5 * (values - returns).pow(2).sum()
        loss = (policy_loss - config.ent_coef * entropy
                + config.vf_coef * value_loss) / rows_total
        gradients = list(torch.autograd.grad(loss, parameters))
    with torch.no_grad():
        ratio, log_ratio = ratio.detach(), log_ratio.detach()
        totals = [policy_loss.detach(), value_loss.detach(), entropy.detach(),
                  ((ratio - 1) - log_ratio).sum(),
                  ((ratio - 1).abs() > config.clip_range).float().sum()]
    return gradients, [float(total) for total in totals]


class Learner(Collector):
    """A network that learns at a :class:`TableBatch` against a pool of batched actors:
    it collects its rollouts and updates itself, in this process."""

    def __init__(self, model: ActorCritic, batch: Tables, config: SelfPlayConfig,
                 device: torch.device, seed: int,
                 pool: Sequence[BatchActor] = (), names: Sequence[str] = ()) -> None:
        super().__init__(model, batch, config, device, seed, pool, names)
        self.optimizer = new_optimizer(model, config)

    def update(self, learning_rate: float) -> dict[str, float]:
        """PPO's clipped update over the last rollout."""
        return ppo_update(self.model, self.optimizer, self.generator, self.config,
                          self.device, self.rollout.samples(self.config.gae_lambda),
                          learning_rate)


def scheduled_learning_rate(config: SelfPlayConfig, decisions: int) -> float:
    """The learning rate after ``decisions``: annealed linearly towards 5% of the start
    over the run's budget when ``config.anneal_lr``, else constant."""
    fraction = decisions / config.timesteps if config.anneal_lr else 0.0
    return config.learning_rate * max(1.0 - fraction, 0.05)


@dataclass
class RunClock:
    """A run's clock: when it started and the seconds spent in its PPO rounds (rollouts
    and updates), which the learner's steps per second are counted over."""

    started: float
    learning: float = 0.0

    def play(self, play_round: Callable[[float], tuple[int, RolloutStats, dict[str, float]]],
             config: SelfPlayConfig, decisions: int) -> tuple[int, dict[str, float]]:
        """Play one round at the scheduled learning rate; its decisions and its log row."""
        rate = scheduled_learning_rate(config, decisions)
        began = time.perf_counter()
        count, stats, losses = play_round(rate)
        self.learning += time.perf_counter() - began
        total = decisions + count
        return count, {"decisions": total, "seconds": time.perf_counter() - self.started,
                       "steps_per_second": total / max(self.learning, 1e-9),
                       "learning_rate": rate, **stats.per_hand(), **losses}


def ppo_round(learner: Learner, learning_rate: float) -> tuple[int, RolloutStats,
                                                               dict[str, float]]:
    """One rollout and one update: the decisions learned from, the rollout's results and
    the update's losses."""
    stats = learner.collect()
    decisions = learner.rollout.size
    losses = learner.update(learning_rate)
    return decisions, stats, losses


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
                    tables: Tables | None = None,
                    prepare: Callable[[Learner], None] | None = None,
                    ) -> tuple[ActorCritic, float]:
    """A best response to the frozen ``main`` played greedily, as its export plays in the
    arena (a copy of it that learns against it in every other seat, the way
    :mod:`training.exploit` measures a policy); returns it and what it won per hand in
    its last rounds. ``main`` and torch's global random state are left as they were;
    ``on_round`` receives the decisions of each of the exploiter's rounds. It learns at
    ``tables`` where given (else ``config.tables`` tables under ``config.rules``);
    ``prepare`` may adjust its learner before the first round."""
    exploiter = copy.deepcopy(main)
    settings = dataclasses.replace(config, self_play_share=0.0, anneal_lr=False)
    batch = tables if tables is not None else run_tables(config, seed)
    learner = Learner(exploiter, batch, settings, device, seed,
                      pool=[FrozenActor(main, device, seed, greedy=True, shards=config.shards,
                                        workers=config.workers)],
                      names=["main"])
    if prepare is not None:
        prepare(learner)
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
