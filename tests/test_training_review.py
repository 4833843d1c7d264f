"""Regression tests from a review of the training pipeline and trained-policy loading.

Each ``xfail(strict=True)`` test shows a defect of the current code; it starts passing
(and then fails as XPASS until its mark is removed) once the defect is fixed. Everything
runs on tiny settings (one shared run of 512 decisions).
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agents.policy import NumpyPolicy, load_policy, policy_metadata
from teenpatti_env.actions import ActionLayout
from teenpatti_env.cli import main
from teenpatti_env.observation import ObservationLayout
from teenpatti_env.rules import Rules
from training.config import TrainConfig

pytestmark = pytest.mark.filterwarnings("ignore:Path .* does not exist:UserWarning")

CLASSIC = Rules.preset("classic")

SMALL: dict[str, Any] = {
    "timesteps": 512,
    "envs": 2,
    "n_steps": 64,
    "batch_size": 64,
    "n_epochs": 1,
    "net_arch": (16,),
    "warm_start_decisions": 64,
    "warm_start_epochs": 1,
    "snapshot_every": 128,
    "checkpoint_every": 256,
    "max_snapshots": 5,
    "eval_every": 0,
    "final_eval_hands": 0,
    "progress": False,
}
"""4 rollouts of 2 x 64 decisions: snapshots at 128, 256, 384, 512; checkpoints at 256
and 512; no arena evaluation."""

CLI_QUICK = [
    "train", "--timesteps", "64", "--envs", "1", "--n-steps", "64", "--batch-size", "64",
    "--n-epochs", "1", "--net-arch", "8", "--warm-start", "none", "--eval-every", "0",
    "--final-eval-hands", "0", "--snapshot-every", "0", "--checkpoint-every", "0", "--quiet",
]


def trainlib() -> Any:
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    return pytest.importorskip("training.train")


def random_policy(seed: int) -> NumpyPolicy:
    names = ActionLayout(CLASSIC).names
    sizes = [ObservationLayout(CLASSIC).size, 8, len(names)]
    rng = np.random.default_rng(seed)
    weights = [rng.normal(0, 0.1, pair).astype(np.float32)
               for pair in itertools.pairwise(sizes)]
    biases = [rng.normal(0, 0.1, n).astype(np.float32) for n in sizes[1:]]
    return NumpyPolicy(weights, biases, policy_metadata(CLASSIC, names, "tanh"))


def same_weights(a: NumpyPolicy, b: NumpyPolicy) -> bool:
    pairs = zip(a.weights + a.biases, b.weights + b.biases, strict=True)
    return len(a.weights) == len(b.weights) and all(np.array_equal(x, y) for x, y in pairs)


def one_user_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("teenpatti: "), err
    return lines[0]


@pytest.fixture(scope="module")
def small_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[TrainConfig, Any]:
    train = trainlib().train
    config = TrainConfig(out=str(tmp_path_factory.mktemp("review") / "run"), **SMALL)
    return config, train(config)


# --------------------------------------------------------------------------- checkpoints


def test_checkpoints_and_snapshots_hold_the_weights_of_their_step(
    small_run: tuple[TrainConfig, Any],
) -> None:
    from sb3_contrib import MaskablePPO

    from agents.policy import read_policy
    from training.export import export_policy

    config, result = small_run
    out = Path(config.out)
    checkpoint = MaskablePPO.load(out / "checkpoints" / "step_512.zip", device="cpu")
    assert checkpoint.num_timesteps == result.model.num_timesteps == 512
    assert checkpoint._n_updates == result.model._n_updates  # 3 != 4 today
    assert same_weights(export_policy(checkpoint, CLASSIC), result.policy)
    # a snapshot labelled step N holds the weights of the checkpoint labelled step N
    at_256 = MaskablePPO.load(out / "checkpoints" / "step_256.zip", device="cpu")
    assert at_256.num_timesteps == 256
    assert same_weights(read_policy(out / "snapshots" / "step_256.npz"),
                        export_policy(at_256, CLASSIC))


def test_resume_from_an_earlier_checkpoint_loads_only_earlier_snapshots(
    small_run: tuple[TrainConfig, Any], tmp_path: Path
) -> None:
    train = trainlib().train
    config, _ = small_run
    out = tmp_path / "run"
    shutil.copytree(config.out, out)
    result = train(dataclasses.replace(
        config, out=str(out), timesteps=384,
        resume=str(out / "checkpoints" / "step_256.zip"),
    ))
    assert result.timesteps == 384
    for pool in result.model.get_env().get_attr("pool"):
        steps = [p.metadata["timesteps"] for p in pool.snapshots]
        assert max(steps) <= 384, steps  # today [128, 256, 384, 512, 384]
        assert len(set(steps)) == len(steps), steps


# --------------------------------------------------------------------------- NaN / crashes


def test_a_minibatch_of_one_does_not_poison_the_policy(tmp_path: Path) -> None:
    train = trainlib().train
    try:
        config = TrainConfig(out=str(tmp_path / "run"), timesteps=65, envs=1, n_steps=65,
                             batch_size=64, n_epochs=1, net_arch=(8,), warm_start=None,
                             eval_every=0, final_eval_hands=0, snapshot_every=0,
                             checkpoint_every=0, progress=False)
    except ValueError:
        return  # rejected up front: fine
    result = train(config)
    assert all(np.isfinite(w).all() for w in result.policy.weights + result.policy.biases)


def test_cli_batch_size_one_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trainlib()
    argv = [*CLI_QUICK, "--timesteps", "128", "--batch-size", "1", "--out", str(tmp_path / "o")]
    assert main(argv) == 2
    assert "batch" in one_user_error(capsys)


def test_warm_start_with_zero_decisions(tmp_path: Path) -> None:
    train = trainlib().train
    try:
        config = TrainConfig(out=str(tmp_path / "run"), timesteps=64, envs=1, n_steps=64,
                             batch_size=64, n_epochs=1, net_arch=(8,), warm_start="equity",
                             warm_start_decisions=0, eval_every=0, final_eval_hands=0,
                             snapshot_every=0, checkpoint_every=0, progress=False)
    except ValueError:
        return  # rejected up front: fine
    result = train(config)
    assert result.timesteps == 64
    assert np.isfinite(result.model.get_env().ret_rms.var)


# --------------------------------------------------------------------------- CLI


def test_cli_resume_from_a_policy_file_is_a_user_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trainlib()
    policy = random_policy(0).save(tmp_path / "policy.npz")
    status = main([*CLI_QUICK, "--resume", str(policy), "--out", str(tmp_path / "o")])
    assert status == 2
    assert "policy.npz" in one_user_error(capsys)


def test_cli_train_output_it_cannot_write_is_a_user_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trainlib()
    out = tmp_path / "o"
    (out / "progress.csv").mkdir(parents=True)
    assert main([*CLI_QUICK, "--out", str(out)]) == 2
    assert "progress.csv" in one_user_error(capsys)


# --------------------------------------------------------------------------- config checks


def test_stop_when_beating_without_evaluations_is_rejected() -> None:
    with pytest.raises(ValueError, match="eval_every"):
        TrainConfig(stop_when_beating=("hard",), eval_every=0)


def test_zero_evaluation_hands_with_periodic_evaluations_is_rejected() -> None:
    with pytest.raises(ValueError, match="eval_hands"):
        TrainConfig(eval_hands=0, eval_every=1000)


# --------------------------------------------------------------------------- seeding


def test_adjacent_seeds_deal_different_hands() -> None:
    make_vec_env = trainlib().make_vec_env

    def first_hands(seed: int, index: int) -> list[Any]:
        config = TrainConfig(envs=2, seed=seed, progress=False, out="unused",
                             normalize_reward=False)
        vec = make_vec_env(config)
        try:
            vec.reset()
            env = vec.unwrapped.envs[index]
            hands, hand = [env.game.hand.cards], env.game.hand
            rng = np.random.default_rng(0)
            while len(hands) < 3:
                masks = np.stack(vec.env_method("action_masks"))
                vec.step(np.array([int(rng.choice(np.flatnonzero(m))) for m in masks]))
                if env.game.hand is not hand:
                    hand = env.game.hand
                    hands.append(hand.cards)
            return hands
        finally:
            vec.close()

    assert first_hands(0, 1) != first_hands(1, 0)


# --------------------------------------------------------------------------- policy cache


def test_load_policy_sees_a_rewrite_that_keeps_the_mtime(tmp_path: Path) -> None:
    path = random_policy(1).save(tmp_path / "p.npz")
    before = os.stat(path)
    first = load_policy(path)
    second = random_policy(2)
    second.save(path)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # a coarse-clock rewrite
    assert not same_weights(load_policy(path), first)
    assert same_weights(load_policy(path), second)


# --------------------------------------------------------------------------- bench_train
