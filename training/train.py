"""Train a betting agent: sb3-contrib's MaskablePPO against a pool of opponents.

The learner plays one seat of :class:`training.pool.PoolEnv`; the seat rotates every hand
and every other seat plays a scripted agent or a frozen snapshot of the learner, drawn
again before each hand. An episode is one hand and the reward is the learner's own net
result in boots, so returns are undiscounted (``gamma=1``).

A run writes to its output folder:

* ``policy.npz``: the exported numpy policy (``ppo:DIR/policy.npz`` in the arena);
* ``model.zip``: the final MaskablePPO model; ``checkpoints/step_<N>.zip`` on the way;
* ``snapshots/step_<N>.npz``: the frozen self-play opponents;
* ``progress.csv`` and TensorBoard event files (``tensorboard --logdir DIR``): losses,
  episode rewards and the periodic arena evaluation (``eval/vs_<agent>``);
* ``run.json``: the configuration, the command that reproduces it, and the final
  evaluation.
"""

from __future__ import annotations

import dataclasses
import json
import re
import time
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback, CallbackList
from stable_baselines3.common.logger import CSVOutputFormat, Logger, TensorBoardOutputFormat
from stable_baselines3.common.utils import set_random_seed
from stable_baselines3.common.vec_env import (
    DummyVecEnv,
    SubprocVecEnv,
    VecEnv,
    VecMonitor,
    VecNormalize,
)
from torch import nn
from tqdm import tqdm

from agents import SCRIPTED_AGENTS
from agents.arena import ArenaReport, run_arena
from agents.policy import NumpyPolicy, read_policy
from teenpatti_env.rules import Rules
from training.config import TrainConfig
from training.export import ScaledObservation, export_policy, observation_scale
from training.imitation import collect, imitate
from training.pool import OpponentPool, PoolEnv


@dataclass
class TrainResult:
    """What :func:`train` made."""

    out: Path
    policy: NumpyPolicy
    model: Any
    evaluation: ArenaReport | None
    seconds: float
    timesteps: int
    stopped_at: int | None = None
    """The step at which ``stop_when_beating`` was met, if it was."""
    timings: dict[str, float] = field(default_factory=dict)
    """Seconds spent in the ``warm_start``, in periodic ``evaluation`` and in the
    ``final_evaluation`` (all within ``seconds``)."""


def _make_env(
    rules: Rules, config: TrainConfig, seed: int
) -> Callable[[], gymnasium.Env[Any, Any]]:
    def build() -> gymnasium.Env[Any, Any]:
        pool = OpponentPool(config.opponents, config.self_play_share, config.max_snapshots)
        return PoolEnv(rules, pool, seed=seed)

    return build


def run_seeds(seed: int, count: int) -> list[int]:
    """``count`` independent seeds drawn from the run's seed (so runs with seeds s and
    s + 1 share no stream)."""
    return [int(s) for s in np.random.SeedSequence(seed).generate_state(count, np.uint32)]


def make_vec_env(config: TrainConfig) -> VecEnv:
    """``config.envs`` pool environments, seeded from ``config.seed``, with episode stats."""
    # One stream per environment (its opponents and, mixed with the reset seeds SB3
    # gives, its deals); the last stream is the warm start's.
    seeds = run_seeds(config.seed, config.envs + 1)
    builders = [_make_env(config.rules, config, seed) for seed in seeds[:config.envs]]
    vec: VecEnv = SubprocVecEnv(builders) if config.vec == "subproc" else DummyVecEnv(builders)
    vec = VecMonitor(vec)
    if config.normalize_reward:
        # No clipping: the scale changes, the credit does not.
        vec = VecNormalize(vec, norm_obs=False, norm_reward=True, gamma=1.0,
                           clip_reward=np.inf)
    vec.seed(config.seed)
    return vec


def _step_of(path: Path) -> int:
    match = re.search(r"step_(\d+)", path.stem)
    return int(match.group(1)) if match else -1


class _TrainingCallback(BaseCallback):
    """Progress bar, snapshots, checkpoints and arena evaluations, at learner-decision
    counts (``num_timesteps``) that do not depend on the number of environments."""

    def __init__(self, config: TrainConfig, out: Path) -> None:
        super().__init__()
        self.config = config
        self.out = out
        self.bar: tqdm[Any] | None = None
        self._due: dict[str, int] = {}
        self.evaluation: ArenaReport | None = None
        self.stopped_at: int | None = None
        self.evaluation_seconds = 0.0

    def _next(self, every: int) -> int:
        if every <= 0:
            return 2**62
        return (self.num_timesteps // every + 1) * every

    def _on_training_start(self) -> None:
        config = self.config
        self._due = {
            "snapshot": self._next(config.snapshot_every),
            "checkpoint": self._next(config.checkpoint_every),
            "eval": self._next(config.eval_every),
        }
        if config.progress:
            self.bar = tqdm(total=config.timesteps, initial=min(self.num_timesteps,
                            config.timesteps), unit="step", desc="train", smoothing=0.05)

    def _on_step(self) -> bool:
        if self.bar is not None:
            self.bar.update(min(self.num_timesteps, self.config.timesteps) - self.bar.n)
        return self.stopped_at is None

    def _on_rollout_start(self) -> None:
        # At the start of a rollout the model has learnt from every step counted so far, so
        # a file labelled step_N holds the weights trained on N steps.
        config, now = self.config, self.num_timesteps
        if now >= self._due["snapshot"]:
            self._due["snapshot"] = self._next(config.snapshot_every)
            self.snapshot()
        if now >= self._due["checkpoint"]:
            self._due["checkpoint"] = self._next(config.checkpoint_every)
            self.checkpoint()
        if now >= self._due["eval"]:
            self._due["eval"] = self._next(config.eval_every)
            report = self.evaluate(config.eval_hands)
            if config.stop_when_beating and beats(report, config.stop_when_beating):
                self.stopped_at = now

    def snapshot(self) -> None:
        policy = self.export()
        policy.save(self.out / "snapshots" / f"step_{self.num_timesteps}.npz")
        self.training_env.env_method("add_snapshot", policy)

    def checkpoint(self) -> None:
        now = self.num_timesteps
        (self.out / "checkpoints").mkdir(parents=True, exist_ok=True)
        self.model.save(self.out / "checkpoints" / f"step_{now}.zip")
        save_reward_scale(self.training_env, self.out / "checkpoints" / f"step_{now}.pkl")

    def _on_training_end(self) -> None:
        if self.bar is not None:
            self.bar.close()

    def export(self) -> NumpyPolicy:
        return export_policy(self.model, self.config.rules,
                             timesteps=int(self.model.num_timesteps))

    def evaluate(self, hands: int) -> ArenaReport:
        """The current policy in the arena against the scripted agents; logged."""
        started = time.perf_counter()
        path = self.export().save(self.out / "eval" / f"step_{self.num_timesteps}.npz")
        report = evaluate_policy(path, self.config.rules, hands, seed=self.config.seed)
        me = f"ppo:{path}"
        for name, interval in report.pairwise[me].items():
            self.logger.record(f"eval/vs_{name}", interval.mean)
            self.logger.record(f"eval/vs_{name}_low", interval.low)
        self.logger.record("eval/boots_per_hand", report.agents[me].result.mean)
        self.logger.record("eval/timesteps", self.num_timesteps)
        self.logger.dump(self.num_timesteps)
        self.evaluation = report
        self.evaluation_seconds += time.perf_counter() - started
        return report


def beats(report: ArenaReport, opponents: Sequence[str]) -> bool:
    """Whether the report's trained policy beats every one of ``opponents`` with the whole
    95% interval above zero."""
    me = next(name for name in report.pairwise if name.startswith("ppo:"))
    row = report.pairwise[me]
    return all(name in row and row[name].low > 0 for name in opponents)


def evaluate_policy(
    path: str | Path,
    rules: Rules,
    hands: int,
    seed: int = 0,
    opponents: Sequence[str] = tuple(SCRIPTED_AGENTS),
    workers: int | None = 1,
) -> ArenaReport:
    """A duplicate arena of the policy at ``path`` against ``opponents``."""
    return run_arena([f"ppo:{path}", *opponents], hands=hands, rules=rules, seed=seed,
                     workers=workers)


def train(
    config: TrainConfig | None = None,
    announce: Callable[[str], None] | None = None,
    **options: Any,
) -> TrainResult:
    """Train a MaskablePPO agent as ``config`` (or ``TrainConfig(**options)``) says.

    ``announce``, when given, is called with one line as each phase begins: the warm
    start, PPO, the final evaluation.
    """
    config = config if config is not None else TrainConfig(**options)
    say = announce if announce is not None else (lambda line: None)
    started = time.perf_counter()
    out = Path(config.out)
    out.mkdir(parents=True, exist_ok=True)
    set_random_seed(config.seed)
    torch.set_num_threads(1)  # small networks: threads cost more than they give
    vec = make_vec_env(config)
    try:
        if config.resume is not None:
            vec = load_reward_scale(vec, Path(config.resume).with_suffix(".pkl"))
        model = _build_model(config, vec)
        if config.resume is not None:
            # the snapshots the run had taken when the checkpoint was saved
            snapshots = sorted(
                (path for path in (out / "snapshots").glob("step_*.npz")
                 if 0 <= _step_of(path) <= model.num_timesteps),
                key=_step_of,
            )
            for path in snapshots[-config.max_snapshots:] if config.max_snapshots else []:
                vec.env_method("add_snapshot", read_policy(path))
        model.set_logger(_logger(out, model.num_timesteps if config.resume else None))
        timings = {"warm_start": 0.0, "evaluation": 0.0, "final_evaluation": 0.0}
        if config.resume is None and config.warm_start is not None:
            warm_started = time.perf_counter()
            say(f"warm start: imitating {config.warm_start} for {config.warm_start_size} "
                f"decisions, {config.warm_start_epochs} epochs")
            warm_start(model, vec, config)
            timings["warm_start"] = time.perf_counter() - warm_started
        callback = _TrainingCallback(config, out)
        remaining = config.timesteps - model.num_timesteps
        if remaining > 0:
            say(f"PPO: {remaining} learner decisions from step {model.num_timesteps}")
            model.learn(remaining, callback=CallbackList([callback]),
                        reset_num_timesteps=config.resume is None)
        else:
            callback.init_callback(model)
        model.save(out / "model.zip")
        save_reward_scale(vec, out / "model.pkl")
        if remaining > 0 and config.checkpoint_every:
            callback.checkpoint()  # the trained end of the run, for --resume
        policy = callback.export()
        policy.metadata["command"] = config.command()
        policy_path = policy.save(out / "policy.npz")
        evaluation = None
        timings["evaluation"] = callback.evaluation_seconds
        if config.final_eval_hands:
            evaluated = time.perf_counter()
            say(f"final evaluation: {config.final_eval_hands} hands against "
                f"{', '.join(SCRIPTED_AGENTS)}")
            evaluation = evaluate_policy(policy_path, config.rules, config.final_eval_hands,
                                         seed=config.seed + 1)
            evaluation.to_json(out / "eval.json")
            timings["final_evaluation"] = time.perf_counter() - evaluated
    finally:
        vec.close()
    seconds = time.perf_counter() - started
    _write_run(out, config, evaluation, seconds, int(model.num_timesteps))
    return TrainResult(out, policy, model, evaluation, seconds, int(model.num_timesteps),
                       callback.stopped_at, timings)


def warm_start(model: MaskablePPO, vec: VecEnv, config: TrainConfig) -> dict[str, float]:
    """Fit the fresh model to ``config.warm_start``'s play (see :mod:`training.imitation`)."""
    assert config.warm_start is not None
    pool = OpponentPool(config.opponents, config.self_play_share, config.max_snapshots)
    seed = run_seeds(config.seed, config.envs + 1)[-1]
    env = PoolEnv(config.rules, pool, seed=seed)
    demonstrations = collect(env, config.warm_start, config.warm_start_size, seed=seed)
    scale = 1.0
    if isinstance(vec, VecNormalize):
        vec.ret_rms.update(demonstrations.cumulative)
        scale = float(np.sqrt(vec.ret_rms.var + vec.epsilon))
    losses = imitate(model, demonstrations, config.warm_start_epochs, config.batch_size,
                     scale, np.random.default_rng(config.seed))
    for key, value in losses.items():
        model.logger.record(key, value)
    model.logger.dump(0)
    return losses


def _logger(out: Path, resumed_at: int | None) -> Logger:
    """CSV and TensorBoard logs; a resumed run writes ``progress_from_<step>.csv`` so the
    first part's ``progress.csv`` is kept."""
    name = "progress.csv" if resumed_at is None else f"progress_from_{resumed_at}.csv"
    return Logger(str(out), [CSVOutputFormat(str(out / name)), TensorBoardOutputFormat(str(out))])


def save_reward_scale(vec: VecEnv, path: Path) -> None:
    """Save the running reward scale next to a checkpoint (``.pkl`` beside the ``.zip``)."""
    if isinstance(vec, VecNormalize):
        vec.save(str(path))


def load_reward_scale(vec: VecEnv, path: Path) -> VecEnv:
    """Continue with the reward scale saved beside a checkpoint, if there is one."""
    if isinstance(vec, VecNormalize) and path.is_file():
        return VecNormalize.load(str(path), vec.venv)
    return vec


def _build_model(config: TrainConfig, vec: VecEnv) -> MaskablePPO:
    if config.resume is not None:
        path = Path(config.resume)
        if not path.is_file():
            raise ValueError(f"no checkpoint at {str(path)!r}")
        try:
            return MaskablePPO.load(path, env=vec, device="cpu")
        except (AssertionError, KeyError, ValueError, OSError, zipfile.BadZipFile) as error:
            raise ValueError(f"{str(path)!r} is not a MaskablePPO checkpoint ({error})") from None
    policy_kwargs = {
        "net_arch": {"pi": list(config.net_arch), "vf": list(config.net_arch)},
        "activation_fn": nn.Tanh,
        "features_extractor_class": ScaledObservation,
        "features_extractor_kwargs": {"scale": observation_scale(config.rules).tolist()},
    }
    return MaskablePPO(
        "MlpPolicy",
        vec,
        learning_rate=config.learning_rate,
        n_steps=config.n_steps,
        batch_size=config.batch_size,
        n_epochs=config.n_epochs,
        gamma=1.0,
        gae_lambda=config.gae_lambda,
        ent_coef=config.ent_coef,
        clip_range=config.clip_range,
        policy_kwargs=policy_kwargs,
        seed=config.seed,
        device="cpu",
        verbose=0,
    )


def _write_run(
    out: Path, config: TrainConfig, evaluation: ArenaReport | None, seconds: float,
    timesteps: int,
) -> None:
    record: dict[str, Any] = {
        "config": dataclasses.asdict(config),
        "command": config.command(),
        "timesteps": timesteps,
        "seconds": round(seconds, 1),
    }
    if evaluation is not None:
        me = next(name for name in evaluation.pairwise if name.startswith("ppo:"))
        record["evaluation"] = {
            "hands": evaluation.hands,
            "vs": {name: interval.to_dict() for name, interval in evaluation.pairwise[me].items()},
        }
    (out / "run.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")


def steps_per_second(vec: VecEnv, steps: int, rng: np.random.Generator) -> float:
    """Random legal actions through ``vec`` (environment speed without the learner)."""
    vec.reset()
    started = time.perf_counter()
    for _ in range(steps // vec.num_envs + 1):
        masks = np.stack(vec.env_method("action_masks"))
        actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
        vec.step(np.array(actions))
    return (steps // vec.num_envs + 1) * vec.num_envs / (time.perf_counter() - started)
