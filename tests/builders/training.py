"""Builders for the training tests: the tiny training settings, the torch import, observations
collected from play, random numpy policies."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import teenpatti_env
from agents.policy import NumpyPolicy, policy_metadata
from builders.env import decisions
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.environment.observation import ObservationLayout
from teenpatti_env.rules import Rules
from training.pool import OpponentPool, PoolEnv

CLASSIC = Rules.preset("classic")

TINY: dict[str, Any] = {
    "timesteps": 1024,
    "envs": 2,
    "n_steps": 64,
    "batch_size": 64,
    "n_epochs": 1,
    "eval_every": 512,
    "eval_hands": 16,
    "final_eval_hands": 24,
    "snapshot_every": 256,
    "checkpoint_every": 512,
    "max_snapshots": 5,
    "net_arch": (32, 32),
    "warm_start_decisions": 256,
    "warm_start_epochs": 1,
    "progress": False,
}
"""A run of 8 rollouts of 2 x 64 decisions: snapshots at 256, 512, 768, 1024; checkpoints
at 512 and 1024; one arena evaluation at 512 and a small final one."""

# --------------------------------------------------------------------------- helpers


def trainlib() -> Any:
    """``training.train`` (needs torch and sb3-contrib: skipped without them)."""
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    return pytest.importorskip("training.train")


def random_policy(
    rules: Rules = CLASSIC,
    hidden: tuple[int, ...] = (16,),
    seed: int = 0,
    scale: float = 0.05,
    activation: str = "tanh",
) -> NumpyPolicy:
    """A policy with random weights for ``rules`` (no training, no torch)."""
    names = ActionLayout(rules).names
    sizes = [ObservationLayout(rules).size, *hidden, len(names)]
    rng = np.random.default_rng(seed)
    pairs = list(itertools.pairwise(sizes))
    weights = [rng.normal(0, scale, pair).astype(np.float32) for pair in pairs]
    biases = [rng.normal(0, scale, b).astype(np.float32) for b in sizes[1:]]
    return NumpyPolicy(weights, biases, policy_metadata(rules, names, activation))


def same_weights(a: NumpyPolicy, b: NumpyPolicy) -> bool:
    if len(a.weights) != len(b.weights):
        return False
    pairs = zip(a.weights + a.biases, b.weights + b.biases, strict=True)
    return all(np.array_equal(x, y) for x, y in pairs)


def play_hands(agents: list[Any], rules: Rules, hands: int, seed: int) -> Counter[str]:
    """Play ``hands`` hands of ``raw_env(rules)`` with ``agents[seat]`` in every seat;
    every action must be legal. Returns the actions taken, by name."""
    env = teenpatti_env.raw_env(rules=rules)
    names = env.action_meanings
    taken: Counter[str] = Counter()
    for h in range(hands):
        env.reset(seed=seed * 10_007 + h)
        for agent in agents:
            agent.reset()
        for name, observation, info in decisions(env):
            mask = observation["action_mask"]
            action = agents[env.agent_name_mapping[name]].act(
                observation["observation"], mask, info
            )
            assert isinstance(action, (int, np.integer))
            assert mask[action] == 1, (name, names[action], info["legal_actions"])
            taken[names[action]] += 1
            env.step(action)
        assert env.hand is not None and env.hand.over
    return taken


def collect_observations(
    rules: Rules, count: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """``count`` learner observations and masks of a pool environment stepped with random
    legal actions (every seat of the rotation, early and late in the hand)."""
    env = PoolEnv(rules, OpponentPool(), seed=seed)
    rng = np.random.default_rng(seed)
    observations, masks = [], []
    observation, _ = env.reset(seed=seed)
    while len(observations) < count:
        mask = env.action_masks()
        observations.append(observation)
        masks.append(mask)
        action = int(rng.choice(np.flatnonzero(mask)))
        observation, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            observation, _ = env.reset()
    return np.asarray(observations, dtype=np.float32), np.asarray(masks, dtype=bool)


def write_npz(path: Path, metadata: Any = None, **arrays: np.ndarray) -> Path:
    if metadata is not None:
        arrays["metadata"] = np.array(json.dumps(metadata))
    np.savez(path, **arrays)
    return path


def layer_arrays(sizes: list[int]) -> dict[str, np.ndarray]:
    arrays = {}
    for k, (a, b) in enumerate(itertools.pairwise(sizes)):
        arrays[f"layer_{k}_weight"] = np.zeros((a, b), np.float32)
        arrays[f"layer_{k}_bias"] = np.zeros(b, np.float32)
    return arrays


def good_metadata(rules: Rules = CLASSIC) -> dict[str, Any]:
    return policy_metadata(rules, ActionLayout(rules).names, "tanh")


def user_error(capsys: pytest.CaptureFixture[str]) -> str:
    """The stderr of a command that failed with a user error: one ``teenpatti:`` line."""
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("teenpatti: "), err
    assert "Traceback" not in err
    return lines[0]
