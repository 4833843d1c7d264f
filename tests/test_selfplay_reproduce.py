"""What the self-play trainer's weights depend on (docs/selfplay.md, "What the weights
depend on"): the documented command, run again in a fresh process from another folder,
gives the same weights as the library call; the thread count is the trainer's default;
the installed packages are the ones constraints/train.txt pins."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("numba")

import torch

from agents.policy import read_policy
from training.config import SelfPlayConfig
from training.selfplay import configure_torch, train_selfplay

ROOT = Path(__file__).resolve().parents[1]
SHORT_RECIPE = {"timesteps": 3_000, "tables": 32, "rollout_steps": 32,
                "minibatch_size": 512, "snapshot_every": 1_000, "exploiter_every": 1_000,
                "exploiter_steps": 400}
"""A short league: snapshots, exploiters, exploiter and uniform tables at a tiny scale."""


def pinned_versions() -> dict[str, str]:
    """constraints/train.txt as {package: version}."""
    pins = {}
    for line in (ROOT / "constraints" / "train.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, pinned = line.partition("==")
            pins[name.strip()] = pinned.strip()
    return pins


def test_torch_gets_one_thread_and_the_shards_get_the_others() -> None:
    torch.set_num_threads(2)
    configure_torch(SelfPlayConfig(threads=4))
    assert torch.get_num_threads() == 1
    assert SelfPlayConfig(threads=4).workers == 4 and SelfPlayConfig().workers == 2


def test_the_thread_count_does_not_change_the_weights(tmp_path: Path) -> None:
    """Threads compute fixed row shards (training.shards), so one thread and three give
    the same run bit for bit: the same decisions, losses and weights."""
    runs = [train_selfplay(SelfPlayConfig(out=str(tmp_path / str(threads)), progress=False,
                                          threads=threads, **SHORT_RECIPE))  # type: ignore[arg-type]
            for threads in (1, 3)]
    assert runs[0].decisions == runs[1].decisions
    for a, b in zip([*runs[0].policy.weights, *runs[0].policy.biases],
                    [*runs[1].policy.weights, *runs[1].policy.biases], strict=True):
        assert np.array_equal(a, b)
    logs = [[row.split(",") for row in
             (tmp_path / str(threads) / "progress.csv").read_text().splitlines()]
            for threads in (1, 3)]
    assert len(logs[0]) > 3
    timed = {logs[0][0].index("seconds"), logs[0][0].index("steps_per_second")}
    assert [[v for k, v in enumerate(row) if k not in timed] for row in logs[0]] == \
        [[v for k, v in enumerate(row) if k not in timed] for row in logs[1]]


def test_the_command_in_a_fresh_process_gives_the_library_calls_weights(
        tmp_path: Path) -> None:
    """The rerun happens as a user would run it: `python -m teenpatti_env selfplay` in a
    new process, from another working folder, with torch's own thread settings in the
    environment (which the trainer overrides: torch gets one thread, the shard threads
    the rest); it trains the same decisions and the same weights bit for bit."""
    first = train_selfplay(SelfPlayConfig(out=str(tmp_path / "a"), progress=False,
                                          **SHORT_RECIPE))  # type: ignore[arg-type]
    options = [f"--{key.replace('_', '-')}={value}" for key, value in SHORT_RECIPE.items()]
    environment = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="2",
                       MKL_NUM_THREADS="2")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    subprocess.run([sys.executable, "-m", "teenpatti_env", "selfplay", *options,
                    "--out", str(tmp_path / "b"), "--quiet"],
                   cwd=elsewhere, env=environment, check=True, capture_output=True)
    second = read_policy(tmp_path / "b" / "policy.npz")
    assert second.metadata["decisions"] == first.decisions
    for a, b in zip([*first.policy.weights, *first.policy.biases],
                    [*second.weights, *second.biases], strict=True):
        assert np.array_equal(a, b)


def test_the_installed_training_packages_are_the_pinned_ones() -> None:
    """The tests above check reproducibility under these versions; the README's training
    command installs them (pip install -c constraints/train.txt)."""
    pins = pinned_versions()
    assert {"torch", "numpy", "numba"} <= set(pins)
    for name, pinned in pins.items():
        installed = version(name).split("+")[0]  # torch's local label: 2.13.0+cpu
        assert installed == pinned, f"{name} {installed} is installed, {pinned} pinned"
    readme = (ROOT / "README.md").read_text()
    assert 'pip install -c constraints/train.txt -e ".[train]"' in readme
