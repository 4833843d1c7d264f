"""Self-play on a Ray cluster: rollout workers as Ray actors, the update in this process.

``teenpatti selfplay --ray [ADDRESS] --rollout-workers K`` runs the trainer of
:mod:`training.selfplay` with its rounds played by :class:`RayRounds`:

* each of the K workers (:class:`RolloutWorker`, one CPU each) steps its own
  :class:`~teenpatti_env.environment.batched.TableBatch` of ``tables`` tables with the
  local trainer's :class:`~training.selfplay_rollout.Collector`: the same seat plan,
  league and table mixture; the pool's snapshots and exploiters are sent to the workers
  and played there;
* rounds are synchronous: every worker collects one rollout with the same weights, the
  driver joins their decisions and makes one PPO update (on ``device``, CUDA where there
  is one), and the new weights go to every worker with the next round. No decision is
  learned from with weights older than the update before it, so PPO's ratios need no
  correction (no V-trace);
* worker ``i`` is seeded with :func:`worker_seed`: worker 0 with the run's seed, so one
  worker on the CPU trains the same weights as the local trainer, bit for bit (the
  update draws its minibatch order from worker 0's generator, handed over with its
  rollout and back with the weights, as the local trainer's one generator is shared);
* a worker that dies is started again (its tables dealt afresh) up to
  :data:`MAX_RESTARTS` times, then the run stops with a one-line error.

Exploiters are trained in this process, as the local trainer trains them, and join the
pool the workers play.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import torch

from agents.ray_support import connect, require_cpus
from training.config import SelfPlayConfig
from training.selfplay_learner import new_optimizer, ppo_update
from training.selfplay_network import (
    UNIFORM,
    ActorCritic,
    BatchActor,
    PoolMember,
    ScriptedSeats,
    UniformActor,
    new_model,
    pool_actors,
)
from training.selfplay_rollout import Collector, RolloutStats, Samples, run_tables

MAX_RESTARTS = 3
"""How many times each rollout worker is started again after it dies."""
PURPOSE = "selfplay --ray"

PoolMembers = list[tuple[str, Any]]
"""The pool as sent to the workers: ``(name, state dict or rule parameters)``."""


def cpu_weights(model: ActorCritic) -> dict[str, torch.Tensor]:
    """``model``'s state dict on the CPU, as sent to the workers."""
    return {key: value.detach().cpu() for key, value in model.state_dict().items()}


def worker_seed(seed: int, index: int) -> int:
    """The seed of rollout worker ``index`` in a run seeded ``seed``: the run's own seed
    for worker 0 (so one worker plays as the local trainer), a seed drawn from both for
    the others."""
    if index == 0:
        return seed
    return int(np.random.SeedSequence([seed, index]).generate_state(1)[0])


class RolloutWorker:
    """One rollout worker (a Ray actor): a :class:`Collector` at its own ``tables``
    tables, on the CPU, seeded by ``seed``."""

    def __init__(self, config: SelfPlayConfig, seed: int) -> None:
        torch.set_num_threads(1)  # config.threads threads compute the row shards
        self.config = config
        self.seed = seed
        self.device = torch.device("cpu")
        rules = config.rules
        batch = run_tables(config, seed)
        self.collector = Collector(new_model(config, rules), batch, config, self.device, seed)
        self.uniform: list[BatchActor] = ([UniformActor(seed)] if config.uniform_table_share
                                          else [])
        self.scripted = ScriptedSeats(seed)

    def set_pool(self, members: PoolMembers, updates: int) -> None:
        """The pool's snapshots and exploiters (state dicts, rule parameters or scripted
        agents' names), played here as the local trainer plays them."""
        rules = self.config.rules
        built: list[tuple[str, PoolMember]] = []
        for name, member in members:
            if isinstance(member, np.ndarray | str):
                built.append((name, member))
                continue
            model = new_model(self.config, rules)
            model.load_state_dict(member)
            built.append((name, model))
        actors = pool_actors(built, rules, self.device, self.seed, updates,
                             shards=self.config.shards, workers=self.config.workers,
                             scripted_seat=self.scripted)
        self.collector.set_pool(actors + self.uniform,
                                [name for name, _ in members] + [UNIFORM] * len(self.uniform))

    def collect(self, weights: dict[str, torch.Tensor], generator_state: torch.Tensor | None,
                ) -> tuple[Samples, RolloutStats, torch.Tensor, float]:
        """One rollout with ``weights`` (and, if given, the sampling generator's state):
        its samples, its results, the generator's state after it, and its seconds."""
        started = time.perf_counter()
        self.collector.model.load_state_dict(weights)
        if generator_state is not None:
            self.collector.generator.set_state(generator_state)
        stats = self.collector.collect()
        samples = self.collector.rollout.samples(self.config.gae_lambda)
        return (samples, stats, self.collector.generator.get_state(),
                time.perf_counter() - started)


class RayRounds:
    """The rounds of a run on Ray (see the module docstring): the network, its optimizer
    and the update here, the rollouts on ``config.rollout_workers`` Ray actors."""

    def __init__(self, model: ActorCritic, config: SelfPlayConfig, device: torch.device,
                 say: Callable[[str], None] | None = None) -> None:
        assert config.ray is not None
        self.config = config
        self.device = device
        self.model = model
        self.optimizer: torch.optim.Optimizer = new_optimizer(model, config)
        self.generator = torch.Generator(device=device)
        self.generator.manual_seed(config.seed)
        self.say = say or (lambda line: None)
        self.rollout_seconds: list[float] = []
        self.update_seconds: list[float] = []
        self.restarts = [0] * config.rollout_workers
        self._members: PoolMembers = []
        self._updates = 0
        self._generator_state: torch.Tensor | None = None
        self.ray, self._started = connect(config.ray, PURPOSE)
        try:
            require_cpus(self.ray, config.rollout_workers,
                         f"{config.rollout_workers} rollout workers")
            self._actor = self.ray.remote(num_cpus=1, max_restarts=0)(RolloutWorker)
            self.workers = [self._start(index) for index in range(config.rollout_workers)]
        except BaseException:
            self._disconnect()
            raise

    @property
    def pool_size(self) -> int:
        """The opponents the tables draw from (the uniform policy counted)."""
        return len(self._members) + (1 if self.config.uniform_table_share else 0)

    def _start(self, index: int) -> Any:
        worker = self._actor.remote(self.config, worker_seed(self.config.seed, index))
        if self._members:
            worker.set_pool.remote(self._members, self._updates)
        return worker

    def set_pool(self, members: Sequence[tuple[str, PoolMember]], updates: int) -> None:
        """Send the pool's snapshots and exploiters to every worker (networks as CPU state
        dicts); they play them from the next round."""
        self._members = [(name, member if isinstance(member, np.ndarray | str) else
                          cpu_weights(member)) for name, member in members]
        self._updates = updates
        from ray.exceptions import RayActorError

        members_ref = self.ray.put(self._members)
        sent = [worker.set_pool.remote(members_ref, updates) for worker in self.workers]
        for index, ref in enumerate(sent):
            try:
                self.ray.get(ref)
            except RayActorError as error:
                self._restart(index, error)  # started again with the new pool

    def _generator_shared(self) -> bool:
        """Whether the update draws from worker 0's generator (both on the CPU)."""
        return self.device.type == "cpu"

    def play(self, learning_rate: float) -> tuple[int, RolloutStats, dict[str, float]]:
        """One synchronous round: every worker collects with the current weights, then
        one update here over all their decisions."""
        weights = self.ray.put(cpu_weights(self.model))
        state = self._generator_state if self._generator_shared() else None
        results = self._collect_all(weights, state)
        samples = Samples.join([result[0] for result in results])
        stats = RolloutStats()
        for result in results:
            stats.add(result[1])
        self.rollout_seconds.extend(result[3] for result in results)
        if self._generator_shared():
            self.generator.set_state(results[0][2])
        started = time.perf_counter()
        losses = ppo_update(self.model, self.optimizer, self.generator,
                            self.config, self.device, samples, learning_rate)
        self.update_seconds.append(time.perf_counter() - started)
        if self._generator_shared():
            self._generator_state = self.generator.get_state()
        return len(samples), stats, losses

    def _collect_all(self, weights: Any, state: torch.Tensor | None) -> list[Any]:
        """Every worker's rollout; a worker that died is started again and collects
        anew (up to :data:`MAX_RESTARTS` times each)."""
        from ray.exceptions import RayActorError

        pending = {index: worker.collect.remote(weights, state if index == 0 else None)
                   for index, worker in enumerate(self.workers)}
        results: dict[int, Any] = {}
        while pending:
            index, ref = next(iter(pending.items()))
            try:
                results[index] = self.ray.get(ref)
                del pending[index]
            except RayActorError as error:
                self._restart(index, error)
                pending[index] = self.workers[index].collect.remote(
                    weights, state if index == 0 else None)
        return [results[index] for index in range(len(self.workers))]

    def _restart(self, index: int, error: BaseException) -> None:
        """Start worker ``index`` again after ``error``, or stop the run."""
        cause = (str(error).strip().splitlines() or [type(error).__name__])[0]
        if self.restarts[index] >= MAX_RESTARTS:
            raise ValueError(f"rollout worker {index} died {MAX_RESTARTS + 1} times, the "
                             f"run stops (last: {cause}); the last checkpoint.pt resumes it")
        self.restarts[index] += 1
        self.say(f"rollout worker {index} died ({cause}); started again "
                 f"({self.restarts[index]} of {MAX_RESTARTS}), its tables dealt afresh")
        self.workers[index] = self._start(index)

    def close(self) -> None:
        """Stop the workers, and the Ray connection if this run made it."""
        for worker in getattr(self, "workers", []):
            self.ray.kill(worker)
        self._disconnect()

    def _disconnect(self) -> None:
        if self._started and self.ray.is_initialized():
            self.ray.shutdown()
