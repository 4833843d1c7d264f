"""One tiny training run, shared by the tests here: it writes every promised file (policy,
model, checkpoints, snapshots, progress.csv, TensorBoard events, run.json, eval.json) and
its numpy export acts exactly as the torch model (same greedy actions, same masked logits)
on real observations; runs are reproducible from their seed; resuming from a checkpoint
continues the count and reloads the snapshots; the ``ppo:`` and ``pretrained:`` agent
specs (also in the arena); the torch-free import promise; the ``teenpatti
train``/``arena`` command lines."""

from __future__ import annotations

import csv
import dataclasses
import json
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from builders.training import (
    CLASSIC,
    TINY,
    collect_observations,
    play_hands,
    random_policy,
    same_weights,
    trainlib,
    user_error,
)

from agents import SCRIPTED_AGENTS, make_agent
from agents.arena import run_arena
from agents.policy import POLICY_FORMAT, PolicyAgent, read_policy
from interfaces.cli import main
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.environment.observation import OBSERVATION_VERSION, ObservationLayout
from teenpatti_env.rules import Rules
from training.config import TrainConfig

pytestmark = pytest.mark.filterwarnings("ignore:Path .* does not exist:UserWarning")

# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[TrainConfig, Any]:
    """One tiny training run shared by the tests below."""
    train = trainlib().train
    config = TrainConfig(out=str(tmp_path_factory.mktemp("trained") / "run"), **TINY)
    return config, train(config)


@pytest.fixture(scope="module")
def observations() -> tuple[np.ndarray, np.ndarray]:
    return collect_observations(CLASSIC, 400, seed=11)


@pytest.fixture(scope="module")
def policy_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A numpy policy file for the classic table, written without torch."""
    return random_policy(CLASSIC, seed=5).save(tmp_path_factory.mktemp("policy") / "p.npz")


# --------------------------------------------------------------------------- 1. end to end


def test_train_writes_every_output(trained: tuple[TrainConfig, Any]) -> None:
    config, result = trained
    out = Path(config.out)
    assert result.out == out
    assert result.timesteps == config.timesteps == 1024
    for name in ("policy.npz", "model.zip", "progress.csv", "run.json", "eval.json"):
        assert (out / name).is_file(), name
    assert zipfile.is_zipfile(out / "model.zip")

    # progress.csv: one row per rollout, with rollout, train and eval columns
    with open(out / "progress.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    columns = set(rows[0])
    assert {"rollout/ep_rew_mean", "rollout/ep_len_mean", "time/total_timesteps"} <= columns
    assert {"train/loss", "train/entropy_loss", "train/value_loss"} <= columns
    assert any(c.startswith("eval/vs_") for c in columns), columns
    steps = [int(float(r["time/total_timesteps"])) for r in rows if r["time/total_timesteps"]]
    assert steps[-1] == 1024
    assert any(r["train/loss"] for r in rows)

    # TensorBoard events, with the same tags
    events = list(out.glob("events.out.tfevents.*"))
    assert events
    data = b"".join(path.read_bytes() for path in events)
    assert b"rollout/ep_rew_mean" in data and b"train/loss" in data

    # snapshots every 256 decisions (taken when a rollout starts, so none at the end),
    # checkpoints every 512 and at the end, the periodic evaluation
    snapshots = sorted(out.glob("snapshots/step_*.npz"))
    assert {p.name for p in snapshots} == {f"step_{n}.npz" for n in (256, 512, 768)}
    for path in snapshots:
        snapshot = read_policy(path)
        assert snapshot.metadata["timesteps"] == int(path.stem.split("_")[1])
    checkpoints = {p.name for p in out.glob("checkpoints/step_*.zip")}
    assert checkpoints == {"step_512.zip", "step_1024.zip"}
    assert all(zipfile.is_zipfile(out / "checkpoints" / c) for c in checkpoints)
    assert (out / "eval" / "step_512.npz").is_file()

    # run.json: the config, the command that reproduces it, the final evaluation
    record = json.loads((out / "run.json").read_text())
    assert record["command"] == config.command()
    assert record["command"].startswith("teenpatti train ")
    assert record["config"] == json.loads(json.dumps(dataclasses.asdict(config)))
    assert record["timesteps"] == 1024
    assert record["evaluation"]["hands"] == result.evaluation.hands >= 24
    assert set(record["evaluation"]["vs"]) <= set(SCRIPTED_AGENTS)
    assert record["evaluation"]["vs"]
    evaluation = json.loads((out / "eval.json").read_text())
    assert evaluation["hands"] == result.evaluation.hands
    assert f"ppo:{out / 'policy.npz'}" in evaluation["pairwise"]


def test_exported_policy_file(trained: tuple[TrainConfig, Any]) -> None:
    config, result = trained
    policy = read_policy(Path(config.out) / "policy.npz")
    assert same_weights(policy, result.policy)
    assert policy.metadata["format"] == POLICY_FORMAT
    assert policy.metadata["observation_version"] == OBSERVATION_VERSION
    assert policy.metadata["timesteps"] == 1024
    assert policy.metadata["command"] == config.command()
    assert policy.rules == CLASSIC
    assert policy.action_names == list(ActionLayout(CLASSIC).names)
    assert policy.observation_size == ObservationLayout(CLASSIC).size
    assert [w.shape for w in policy.weights] == [
        (policy.observation_size, 32), (32, 32), (32, policy.action_size)
    ]
    assert policy.activation == "tanh"


def test_model_zip_is_the_final_model(trained: tuple[TrainConfig, Any]) -> None:
    from sb3_contrib import MaskablePPO

    from training.export import export_policy

    config, result = trained
    model = MaskablePPO.load(Path(config.out) / "model.zip", device="cpu")
    assert model.num_timesteps == 1024
    assert same_weights(export_policy(model, CLASSIC), result.policy)


def test_numpy_policy_acts_as_the_torch_model(
    trained: tuple[TrainConfig, Any], observations: tuple[np.ndarray, np.ndarray]
) -> None:
    import torch

    config, result = trained
    policy = read_policy(Path(config.out) / "policy.npz")
    model = result.model
    obs, masks = observations
    assert len({tuple(m) for m in masks}) >= 4  # varied situations, not one mask

    expected, _ = model.predict(obs, action_masks=masks, deterministic=True)
    mine = np.array([policy.act(o, m) for o, m in zip(obs, masks, strict=True)])
    np.testing.assert_array_equal(mine, expected)
    assert all(m[a] for m, a in zip(masks, mine, strict=True))
    assert len(set(mine.tolist())) >= 2

    with torch.no_grad():
        distribution = model.policy.get_distribution(
            torch.as_tensor(obs), action_masks=masks
        ).distribution
        torch_logits = distribution.logits.cpu().numpy()  # normalised log-probabilities
    logits = policy.masked_logits(obs, masks).astype(np.float64)
    legal_max = np.max(logits, axis=1, keepdims=True)
    log_probs = logits - legal_max - np.log(
        np.sum(np.exp(logits - legal_max), axis=1, keepdims=True)
    )
    np.testing.assert_allclose(log_probs[masks], torch_logits[masks], atol=1e-4)
    # and the raw (unmasked) logits of the action head
    raw = policy.logits(obs)
    with torch.no_grad():
        features = model.policy.extract_features(
            torch.as_tensor(obs), model.policy.pi_features_extractor
        )
        latent = model.policy.mlp_extractor.forward_actor(features)
        torch_raw = model.policy.action_net(latent).cpu().numpy()
    np.testing.assert_allclose(raw, torch_raw, atol=1e-4, rtol=1e-4)


# --------------------------------------------------------------------------- 3. reproducibility


def test_same_seed_same_weights_other_seed_other_weights(
    trained: tuple[TrainConfig, Any], tmp_path: Path
) -> None:
    train = trainlib().train
    config, result = trained
    again = train(dataclasses.replace(config, out=str(tmp_path / "again"), final_eval_hands=0))
    assert same_weights(again.policy, result.policy)
    assert same_weights(read_policy(tmp_path / "again" / "policy.npz"), result.policy)
    for step in (256, 512, 768):
        name = f"snapshots/step_{step}.npz"
        assert same_weights(
            read_policy(tmp_path / "again" / name), read_policy(Path(config.out) / name)
        )
    other = train(dataclasses.replace(config, out=str(tmp_path / "other"), seed=1,
                                      final_eval_hands=0, eval_every=0))
    pairs = zip(other.policy.weights, result.policy.weights, strict=True)
    assert not any(np.array_equal(a, b) for a, b in pairs)


# --------------------------------------------------------------------------- 4. resume


@pytest.fixture(scope="module")
def resumed(
    trained: tuple[TrainConfig, Any], tmp_path_factory: pytest.TempPathFactory
) -> tuple[TrainConfig, Any]:
    """The shared run, copied, then continued from its last checkpoint to 1536."""
    train = trainlib().train
    config, _ = trained
    out = tmp_path_factory.mktemp("resumed") / "run"
    shutil.copytree(config.out, out)
    more = dataclasses.replace(
        config, out=str(out), timesteps=1536, eval_every=0, final_eval_hands=0,
        resume=str(out / "checkpoints" / "step_1024.zip"),
    )
    return more, train(more)


def test_resume_continues_to_the_larger_count(
    trained: tuple[TrainConfig, Any], resumed: tuple[TrainConfig, Any]
) -> None:
    _, first = trained
    config, result = resumed
    out = Path(config.out)
    assert result.timesteps == 1536
    assert result.model.num_timesteps == 1536
    assert json.loads((out / "run.json").read_text())["timesteps"] == 1536
    policy = read_policy(out / "policy.npz")
    assert policy.metadata["timesteps"] == 1536
    assert not same_weights(policy, first.policy)  # it trained on
    assert (out / "checkpoints" / "step_1536.zip").is_file()
    assert {p.name for p in out.glob("snapshots/step_*.npz")} == {
        f"step_{n}.npz" for n in (256, 512, 768, 1280)
    }


def test_resume_reloads_the_snapshots(resumed: tuple[TrainConfig, Any]) -> None:
    config, result = resumed
    out = Path(config.out)
    for pool in result.model.get_env().get_attr("pool"):
        # the three saved snapshots were loaded, then one more was taken
        assert [p.metadata["timesteps"] for p in pool.snapshots] == [256, 512, 768, 1280]
        assert same_weights(pool.snapshots[0], read_policy(out / "snapshots" / "step_256.npz"))


def test_resume_restores_the_reward_scale(
    trained: tuple[TrainConfig, Any], resumed: tuple[TrainConfig, Any]
) -> None:
    config, result = resumed
    if not getattr(config, "normalize_reward", False):
        pytest.skip("this run does not scale its rewards")
    checkpoints = Path(config.out) / "checkpoints"
    assert {p.name for p in checkpoints.glob("*.pkl")} >= {"step_512.pkl", "step_1024.pkl"}
    scaler = result.model.get_env()
    # the running statistics saw the warm start's decisions and the first run's 1024
    # steps, then the 512 after the resume
    first = trained[1].model.get_env().ret_rms.count
    assert first >= 1024 + TINY["warm_start_decisions"]
    assert scaler.ret_rms.count - first == pytest.approx(512, abs=1)


def test_resume_from_a_missing_checkpoint_is_a_value_error(
    trained: tuple[TrainConfig, Any], tmp_path: Path
) -> None:
    train = trainlib().train
    config, _ = trained
    missing = tmp_path / "nowhere" / "step_1.zip"
    with pytest.raises(ValueError, match=r"step_1\.zip"):
        train(dataclasses.replace(config, out=str(tmp_path / "out"), resume=str(missing)))


def test_resume_with_nothing_left_keeps_the_step_count(
    resumed: tuple[TrainConfig, Any], tmp_path: Path
) -> None:
    train = trainlib().train
    config, _ = resumed
    checkpoint = Path(config.out) / "checkpoints" / "step_1536.zip"
    result = train(dataclasses.replace(config, out=str(tmp_path / "same"), timesteps=1024,
                                       resume=str(checkpoint)))
    assert result.timesteps == 1536
    assert result.policy.metadata["timesteps"] == 1536


def test_resume_keeps_the_progress_history(resumed: tuple[TrainConfig, Any]) -> None:
    """The first part's progress.csv is kept; the resumed part writes its own file."""
    config, _ = resumed

    def steps_in(name: str) -> list[int]:
        with open(Path(config.out) / name, newline="") as handle:
            return [int(float(r["time/total_timesteps"])) for r in csv.DictReader(handle)
                    if r["time/total_timesteps"]]

    first, resumed_steps = steps_in("progress.csv"), steps_in("progress_from_1024.csv")
    assert first[0] == 128 and first[-1] == 1024
    assert resumed_steps[0] > 1024 and resumed_steps[-1] == 1536


# --------------------------------------------------------------------------- 7. agent specs


def test_ppo_agent_plays_legally(trained: tuple[TrainConfig, Any]) -> None:
    config, _ = trained
    spec = f"ppo:{Path(config.out) / 'policy.npz'}"
    agents = [make_agent(spec, seed=s) for s in range(2)] + [make_agent("random", 2),
                                                             make_agent("equity", 3)]
    assert isinstance(agents[0], PolicyAgent) and agents[0].name == spec
    taken = play_hands(agents, CLASSIC, hands=60, seed=1)
    assert sum(taken.values()) > 60


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ppo:", "names no policy"),
        ("pretrained:", "names no policy"),
        ("ppo:/missing.npz", "/missing.npz"),
        ("pretrained:nope", "no pretrained policy 'nope'"),
        ("nobody", "unknown agent 'nobody'"),
    ],
)
def test_bad_agent_specs(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(spec)


def test_ppo_agent_at_the_wrong_table_says_so(policy_file: Path) -> None:
    agent = make_agent(f"ppo:{policy_file}")
    six = Rules.preset("classic", num_players=6)
    with pytest.raises(ValueError, match="4 seats"):
        play_hands([agent] * 6, six, hands=1, seed=0)


def test_arena_with_a_trained_policy(trained: tuple[TrainConfig, Any]) -> None:
    config, _ = trained
    spec = f"ppo:{Path(config.out) / 'policy.npz'}"
    report = run_arena([spec, "random"], hands=200, rules="classic", seed=4, workers=1)
    assert report.hands == 200
    assert set(report.agents) == {spec, "random"}
    assert report.agents[spec].result.hands > 0
    assert "random" in report.pairwise[spec]
    assert report.pairwise[spec]["random"].mean == pytest.approx(
        -report.pairwise["random"][spec].mean
    )
    assert spec in report.table()


def test_pretrained_classic_plays_legally() -> None:
    agent = make_agent("pretrained:classic", seed=0)
    assert isinstance(agent, PolicyAgent)
    assert agent.policy.rules.num_players == 4
    agents = [agent, make_agent("pretrained:classic", 1), make_agent("random", 2),
              make_agent("hard", 3)]
    taken = play_hands(agents, CLASSIC, hands=40, seed=2)
    assert sum(taken.values()) >= 40


# --------------------------------------------------------------------------- 8. without torch


NO_TORCH = textwrap.dedent(
    """
    import sys
    sys.modules["torch"] = None  # any import of torch now fails
    import numpy as np
    import teenpatti_env, agents, agents.arena
    import training.config, training.pool
    from agents import make_agent
    from interfaces.cli import build_parser, main

    build_parser()
    agent = make_agent("ppo:" + sys.argv[1], seed=0)
    env = teenpatti_env.raw_env(rules="classic")
    decisions = 0
    for hand in range(10):
        env.reset(seed=hand)
        for name in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            info = env.unwrapped.view(name)
            if terminated or truncated:
                env.step(None)
                continue
            mask = observation["action_mask"]
            action = agent.act(observation["observation"], mask, info)
            assert mask[action] == 1
            decisions += 1
            env.step(action)
    report = agents.arena.run_arena(["ppo:" + sys.argv[1], "random"], hands=8, workers=1)
    assert report.hands == 8
    status = main(["train", "--timesteps", "64", "--out", sys.argv[2], "--quiet"])
    assert sys.modules["torch"] is None
    loaded = sorted(m for m in sys.modules
                    if m.split(".")[0] in ("stable_baselines3", "sb3_contrib"))
    print(decisions, status, loaded)
    """
)


def test_play_and_arena_without_torch(policy_file: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", NO_TORCH, str(policy_file), str(tmp_path / "train")],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    decisions, status, loaded = done.stdout.split(maxsplit=2)
    assert int(decisions) >= 10
    assert status == "2"  # train needs torch: a user error, not a traceback
    assert loaded.strip() == "[]"
    assert "teenpatti: training needs torch" in done.stderr
    assert "Traceback" not in done.stderr


def test_importing_the_package_does_not_import_torch() -> None:
    code = (
        "import sys\n"
        "import teenpatti_env, agents, agents.arena, agents.policy, training.config, "
        "training.pool, interfaces.cli\n"
        "interfaces.cli.build_parser()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('torch', 'stable_baselines3', 'sb3_contrib')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


# --------------------------------------------------------------------------- 9. command line


def test_cli_train(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli-run"
    status = main([
        "train", "--timesteps", "256", "--envs", "2", "--n-steps", "64", "--batch-size", "64",
        "--n-epochs", "1", "--net-arch", "16", "--opponents", "random,auto",
        "--eval-every", "0", "--final-eval-hands", "0", "--snapshot-every", "128",
        "--checkpoint-every", "0", "--seed", "2", "--warm-start-decisions", "64",
        "--out", str(out), "--quiet",
    ])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert "policy.npz" in captured.out
    policy = read_policy(out / "policy.npz")
    assert policy.metadata["timesteps"] == 256
    assert [w.shape[1] for w in policy.weights] == [16, policy.action_size]
    record = json.loads((out / "run.json").read_text())
    assert record["config"]["opponents"] == ["random", "auto"]
    assert record["config"]["seed"] == 2
    assert {p.name for p in out.glob("snapshots/*.npz")} == {"step_128.npz"}
    assert not list(out.glob("checkpoints/*.zip"))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--net-arch", "a,b"], "net-arch"),
        (["--net-arch", "0,8"], "net_arch"),
        (["--self-play-share", "2"], "self_play_share"),
        (["--opponents", "nobody"], "nobody"),
        (["--opponents", "random", "--self-play-share", "-0.5"], "self_play_share"),
        (["--preset", "classic", "--players", "9"], "num_players"),
        (["--resume", "/missing-checkpoint.zip"], "missing-checkpoint.zip"),
    ],
)
def test_cli_train_user_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    status = main(["train", "--timesteps", "128", "--envs", "1", "--n-steps", "64",
                   "--batch-size", "64", "--warm-start", "none", *options,
                   "--out", str(tmp_path / "o"), "--quiet"])
    assert status == 2
    assert message in user_error(capsys)
    assert not (tmp_path / "o" / "policy.npz").exists()


def test_cli_arena_with_policies(
    policy_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["arena", "--agents", "ppo:/missing.npz,random", "--hands", "10",
                   "--out", str(tmp_path / "a"), "--quiet"])
    assert status == 2
    assert "/missing.npz" in user_error(capsys)

    status = main(["arena", "--agents", f"ppo:{policy_file},random", "--hands", "8",
                   "--workers", "1", "--out", str(tmp_path / "b"), "--quiet"])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    report = json.loads((tmp_path / "b" / "arena.json").read_text())
    assert f"ppo:{policy_file}" in report["pairwise"]
    assert report["hands"] == 8
