"""Self-play on Ray (training/selfplay_ray.py, ``teenpatti selfplay --ray``): the same
weights as the local trainer with one worker, two workers training a policy that beats
``random``, a resumed run, a worker that dies, and the one-line errors.

One local Ray instance (2 CPUs) serves the module. Needs the ``ray`` extra; skipped
without it unless ``TEENPATTI_REQUIRE_CLIENTS=1``.
"""

from __future__ import annotations

import csv
import json
import re
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")

import torch
from builders.ray_local import local_ray

from agents.arena import run_arena
from interfaces import cli
from training.config import SelfPlayConfig
from training.selfplay import train_selfplay


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[Any]:
    yield from local_ray()


def small(out: Path, **overrides: object) -> SelfPlayConfig:
    """A small run: a few rounds of 16 tables a worker, a narrow network."""
    settings: dict[str, object] = {
        "timesteps": 2_000, "tables": 16, "rollout_steps": 32, "minibatch_size": 256,
        "hidden": (32,), "out": str(out), "progress": False, "threads": 1,
        "snapshot_every": 500, "exploiter_every": 0}
    settings.update(overrides)
    return SelfPlayConfig(**settings)  # type: ignore[arg-type]


def checkpoint_model(out: Path) -> dict[str, torch.Tensor]:
    state = torch.load(out / "checkpoint.pt", weights_only=True)
    model: dict[str, torch.Tensor] = state["model"]
    return model


def progress_decisions(out: Path) -> list[int]:
    with (out / "progress.csv").open() as handle:
        return [int(float(row["decisions"])) for row in csv.DictReader(handle)
                if row.get("reward_per_hand")]


def test_one_worker_trains_the_local_trainers_weights_bit_for_bit(
        ray_instance: Any, tmp_path: Path) -> None:
    """The whole league at a tiny scale (snapshots, a PPO and a searched exploiter, a
    scripted opponent, the uniform policy): every tensor of the network, the value head
    too, is equal."""
    league = {"exploiter_every": 800, "exploiter_steps": 300,
              "exploiter_kinds": ("ppo", "search"), "scripted_opponents": ("hard",)}
    local = train_selfplay(small(tmp_path / "local", **league))
    on_ray = train_selfplay(small(tmp_path / "ray", ray="", **league))
    assert on_ray.decisions == local.decisions
    mine, theirs = checkpoint_model(tmp_path / "local"), checkpoint_model(tmp_path / "ray")
    assert set(mine) == set(theirs)
    for key in mine:
        assert torch.equal(mine[key], theirs[key]), key
    assert on_ray.rollout_seconds > 0 and on_ray.update_seconds > 0


@pytest.fixture(scope="module")
def resumed(ray_instance: Any, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """Two rollout workers train from scratch to 24,000 decisions; the run is resumed
    from its checkpoint and trained on to 48,000."""
    out = tmp_path_factory.mktemp("two-workers")
    told: list[str] = []
    recipe: dict[str, object] = {"tables": 128, "minibatch_size": 2048, "hidden": (64, 64),
                                 "snapshot_every": 12_000, "rollout_workers": 2, "ray": ""}
    train_selfplay(small(out, timesteps=24_000, **recipe), say=told.append)
    train_selfplay(small(out, timesteps=48_000, resume=str(out / "checkpoint.pt"), **recipe),
                   say=told.append)
    return out, told


def test_a_resumed_ray_run_continues_from_its_checkpoint(
        resumed: tuple[Path, list[str]]) -> None:
    out, told = resumed
    decisions = progress_decisions(out)
    first_leg_end = next(d for d in decisions if d >= 24_000)
    assert f"resumed from {out / 'checkpoint.pt'} at {first_leg_end:,} decisions" in told
    # the second leg's rows count on from the first leg's last: no row starts again at 0
    assert decisions == sorted(decisions) and len(set(decisions)) == len(decisions)
    assert decisions[-1] >= 48_000 and decisions.index(first_leg_end) < len(decisions) - 1
    state = torch.load(out / "checkpoint.pt", weights_only=True)
    assert state["decisions"] == decisions[-1]


def test_two_workers_train_a_policy_that_beats_random(resumed: tuple[Path, list[str]]) -> None:
    out, _ = resumed
    policy = f"ppo:{out / 'policy.npz'}"
    report = run_arena([policy, "random"], hands=2_000, seed=12_345, workers=1)
    assert report.agents[policy].result.low > 0.0, report.table()


def test_a_worker_that_dies_is_started_again_and_the_run_finishes(
        ray_instance: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test kills worker 0 after the first round (a crash of its actor); the next
    round starts it again and the run trains to the end."""
    from training.selfplay_ray import RayRounds

    real = RayRounds.play
    kills: list[int] = []

    def play_then_kill(self: RayRounds, learning_rate: float) -> Any:
        result = real(self, learning_rate)
        if not kills:
            ray_instance.kill(self.workers[0], no_restart=True)
            kills.append(1)
        return result

    monkeypatch.setattr(RayRounds, "play", play_then_kill)
    told: list[str] = []
    result = train_selfplay(small(tmp_path, ray="", rollout_workers=2), say=told.append)
    assert result.decisions >= 2_000
    assert [line for line in told if "died" in line] == [
        next(line for line in told if line.startswith("rollout worker 0 died"))]
    assert "started again (1 of 3)" in " ".join(told)


def test_the_command_trains_on_ray_and_records_its_flags(
        ray_instance: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    code = cli.main(["selfplay", "--ray", "--rollout-workers", "2", "--timesteps", "1000",
                     "--tables", "8", "--hidden", "16", "--exploiter-every", "0",
                     "--out", str(out), "--quiet"])
    assert code == 0
    assert capsys.readouterr().out.startswith("trained ")
    command = json.loads((out / "run.json").read_text())["command"]
    assert "--ray '' --rollout-workers 2" in command
    assert (out / "policy.npz").is_file() and (out / "checkpoint.pt").is_file()
    assert ray_instance.is_initialized(), "a connected Ray instance is left running"


def test_a_worker_that_keeps_dying_stops_the_run_with_one_line(
        ray_instance: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import training.selfplay_ray as selfplay_ray

    real = selfplay_ray.RayRounds._collect_all

    def kill_first(self: Any, *args: Any) -> Any:
        ray_instance.kill(self.workers[1], no_restart=True)
        return real(self, *args)

    monkeypatch.setattr(selfplay_ray, "MAX_RESTARTS", 1)
    monkeypatch.setattr(selfplay_ray.RayRounds, "_collect_all", kill_first)
    monkeypatch.setattr(selfplay_ray.RayRounds, "_start", _start_dead(selfplay_ray))
    code = cli.main(["selfplay", "--ray", "--rollout-workers", "2", "--timesteps", "1000",
                     "--tables", "8", "--hidden", "16", "--exploiter-every", "0",
                     "--out", str(tmp_path / "run"), "--quiet"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code != 0
    assert err[-1].startswith("teenpatti: rollout worker 1 died 2 times, the run "
                              "stops"), err


def _start_dead(selfplay_ray: types.ModuleType) -> Any:
    """``RayRounds._start`` whose worker 1 is killed as soon as it is started again."""
    real = selfplay_ray.RayRounds._start

    def start(self: Any, index: int) -> Any:
        worker = real(self, index)
        if index == 1 and hasattr(self, "workers"):
            self.ray.kill(worker, no_restart=True)
        return worker

    return start


def test_more_workers_than_free_cpus_is_one_line(
        ray_instance: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["selfplay", "--ray", "--rollout-workers", "3", "--timesteps", "1000",
                     "--out", str(tmp_path / "run"), "--quiet"])
    (line,) = capsys.readouterr().err.strip().splitlines()
    # (the free CPUs may still be coming back from the workers of the test before)
    assert code == 2 and re.fullmatch(
        r"teenpatti: 3 rollout workers need 3 CPUs but the Ray cluster has (\d) free "
        r"\(2 in all\): ask for at most \1, or add machines with `ray start --address`",
        line), line
    assert ray_instance.is_initialized(), "a connected Ray instance is left running"


def test_ray_missing_or_unreachable_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Without the ray extra, and at an address where nothing listens (a stand-in ``ray``
    module that is not connected, so the check runs before Ray would retry)."""
    common = ["selfplay", "--timesteps", "1000", "--out", str(tmp_path / "run"), "--quiet"]
    monkeypatch.setitem(sys.modules, "ray", None)
    assert cli.main([*common, "--ray"]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        "teenpatti: selfplay --ray needs the ray extra: pip install "
        "'teenpatti-env[ray]'"]
    unconnected = types.SimpleNamespace(is_initialized=lambda: False)
    monkeypatch.setitem(sys.modules, "ray", unconnected)
    assert cli.main([*common, "--ray", "127.0.0.1:1"]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("teenpatti: cannot connect to Ray at 127.0.0.1:1: ")


def test_rollout_workers_need_ray(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="rollout_workers needs ray"):
        small(tmp_path, rollout_workers=2)
