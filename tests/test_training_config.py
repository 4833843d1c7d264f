"""``TrainConfig``'s checks and its ``command()`` round trip through the CLI parser, and
review regressions: checkpoints, NaN and crashes, the CLI, seeding, the policy cache,
benchmarks/bench_train.py."""

from __future__ import annotations

import dataclasses
import os
import shlex
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from builders.training import CLASSIC, random_policy, same_weights, trainlib, user_error

from agents.policy import load_policy, read_policy
from interfaces.cli import build_parser, main
from teenpatti_env.rules import Rules
from training.config import TrainConfig

pytestmark = pytest.mark.filterwarnings("ignore:Path .* does not exist:UserWarning")

# --------------------------------------------------------------------------- 10. TrainConfig


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"preset": "nope"}, "nope"),
        ({"timesteps": 0}, "timesteps"),
        ({"timesteps": -5}, "timesteps"),
        ({"timesteps": 1.5}, "timesteps"),
        ({"timesteps": True}, "timesteps"),
        ({"envs": 0}, "envs"),
        ({"n_steps": 0}, "n_steps"),
        ({"batch_size": -1}, "batch_size"),
        ({"n_epochs": 0}, "n_epochs"),
        ({"seed": -1}, "seed"),
        ({"snapshot_every": -1}, "snapshot_every"),
        ({"final_eval_hands": -1}, "final_eval_hands"),
        ({"vec": "threads"}, "vec"),
        ({"net_arch": ()}, "net_arch"),
        ({"net_arch": (64, -1)}, "net_arch"),
        ({"net_arch": (0,)}, "net_arch"),
        ({"opponents": ("random", "nobody")}, "nobody"),
        ({"self_play_share": 1.01}, "self_play_share"),
        ({"max_snapshots": -2}, "max_snapshots"),
    ],
)
def test_train_config_checks(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TrainConfig(**options)


def test_train_config_defaults_and_rules() -> None:
    config = TrainConfig()
    assert config.rules == CLASSIC
    assert TrainConfig(players=6).rules.num_players == 6
    assert TrainConfig(preset="tabletop").rules == Rules.preset("tabletop")
    assert config.command() == "teenpatti train"
    assert isinstance(TrainConfig(opponents=["random"], net_arch=[8]).net_arch, tuple)


def test_train_config_checks_players() -> None:
    with pytest.raises(ValueError, match="num_players"):
        TrainConfig(players=9)


def config_from_cli(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> TrainConfig:
    """The TrainConfig that ``teenpatti train ARGV`` builds (train() itself stubbed out)."""
    tt = trainlib()
    seen: list[TrainConfig] = []

    def fake_train(config: TrainConfig, announce: Any = None) -> Any:
        seen.append(config)
        return tt.TrainResult(Path(config.out), None, None, None, 0.0, 0)

    monkeypatch.setattr(tt, "train", fake_train)
    try:
        status = main(argv)
    except SystemExit:
        pytest.fail(f"the train subcommand rejects {shlex.join(argv)!r}")
    assert status == 0, capsys.readouterr().err
    assert len(seen) == 1
    return seen[0]


def comparable(config: TrainConfig) -> dict[str, Any]:
    return {k: v for k, v in dataclasses.asdict(config).items() if k != "progress"}


def test_train_config_command_round_trip(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    options: dict[str, Any] = {
        "preset": "pagat", "players": 5, "timesteps": 1000, "out": str(tmp_path / "run-a"),
        "seed": 3, "envs": 3, "vec": "subproc", "opponents": ("random", "easy"),
        "self_play_share": 0.5, "snapshot_every": 10, "max_snapshots": 2, "eval_every": 0,
        "eval_hands": 100, "final_eval_hands": 0, "checkpoint_every": 0,
        "net_arch": (32, 16), "learning_rate": 1e-3, "n_steps": 32, "batch_size": 16,
        "n_epochs": 2, "gae_lambda": 0.9, "ent_coef": 0.001, "clip_range": 0.1,
    }
    config = TrainConfig(**options, progress=False)
    argv = shlex.split(config.command())
    assert argv[:2] == ["teenpatti", "train"]
    assert len(argv) == 2 + 2 * len(options)  # every option above, with its value
    build_parser().parse_args(argv[1:])  # the parser accepts every printed option
    parsed = config_from_cli([*argv[1:], "--quiet"], monkeypatch, capsys)
    assert comparable(parsed) == comparable(config)
    assert parsed.command() == config.command()
    assert comparable(config_from_cli(["train", "--quiet"], monkeypatch, capsys)) == comparable(
        TrainConfig()
    )


def other_value(name: str, default: Any) -> Any:
    """A valid value of TrainConfig's field ``name`` other than its default."""
    special = {
        "preset": "tabletop", "players": 6, "out": "elsewhere/run", "vec": "subproc",
        "opponents": ("hard", "random"), "net_arch": (24, 12), "self_play_share": 0.75,
        "warm_start": "hard", "warm_start_decisions": 2000,
    }
    if name in special:
        return special[name]
    if isinstance(default, bool):
        return not default
    if isinstance(default, int):
        return default + 7
    if isinstance(default, float):
        return default / 2 if default else 0.125
    if isinstance(default, tuple) and all(isinstance(v, str) for v in default):
        return ("hard", "easy")
    raise AssertionError(f"no test value for TrainConfig.{name}={default!r}")


CLI_BROKEN: dict[str, str] = {}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(f.name, marks=[pytest.mark.xfail(strict=True, reason=CLI_BROKEN[f.name])]
                     if f.name in CLI_BROKEN else [])
        for f in dataclasses.fields(TrainConfig)
        if f.name not in ("progress", "resume", "extra")
    ],
)
def test_every_option_survives_the_command_round_trip(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each field alone, set to another value: command() names it and the CLI parses it
    back (a new TrainConfig field needs its --option)."""
    default = getattr(TrainConfig(), name)
    config = TrainConfig(**{name: other_value(name, default)})
    flag = name.replace("_", "-")
    assert f"--{flag} " in config.command() or f"--no-{flag}" in config.command()
    argv = shlex.split(config.command())
    parsed = config_from_cli([*argv[1:], "--quiet"], monkeypatch, capsys)
    assert comparable(parsed) == comparable(config)


def test_command_round_trip_quotes_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = TrainConfig(out=str(tmp_path / "my runs" / "first try"), timesteps=5000)
    argv = shlex.split(config.command())
    parsed = config_from_cli([*argv[1:], "--quiet"], monkeypatch, capsys)
    assert comparable(parsed) == comparable(config)


# --------------------------------------------------------------------------- review regressions

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
    assert "batch" in user_error(capsys)


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
    policy = random_policy(seed=0).save(tmp_path / "policy.npz")
    status = main([*CLI_QUICK, "--resume", str(policy), "--out", str(tmp_path / "o")])
    assert status == 2
    assert "policy.npz" in user_error(capsys)


def test_cli_train_output_it_cannot_write_is_a_user_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trainlib()
    out = tmp_path / "o"
    (out / "progress.csv").mkdir(parents=True)
    assert main([*CLI_QUICK, "--out", str(out)]) == 2
    assert "progress.csv" in user_error(capsys)


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
    path = random_policy(seed=1).save(tmp_path / "p.npz")
    before = os.stat(path)
    first = load_policy(path)
    second = random_policy(seed=2)
    second.save(path)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # a coarse-clock rewrite
    assert not same_weights(load_policy(path), first)
    assert same_weights(load_policy(path), second)


# --------------------------------------------------------------------------- bench_train
