"""Policy files and their errors, and the warm start from the scripted agents."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from builders.training import (
    CLASSIC,
    collect_observations,
    good_metadata,
    layer_arrays,
    random_policy,
    same_weights,
    trainlib,
    write_npz,
)

from agents.policy import NumpyPolicy, PolicyFileError, load_policy, read_policy
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.environment.observation import OBSERVATION_VERSION, ObservationLayout
from training.config import TrainConfig
from training.pool import OpponentPool, PoolEnv

pytestmark = pytest.mark.filterwarnings("ignore:Path .* does not exist:UserWarning")

# --------------------------------------------------------------------------- 6. policy files


def test_policy_save_read_round_trip(tmp_path: Path) -> None:
    policy = random_policy(hidden=(8, 6), seed=7, activation="relu")
    policy.metadata["timesteps"] = 42
    path = policy.save(tmp_path / "sub" / "policy")  # the suffix is added
    assert path == tmp_path / "sub" / "policy.npz" and path.is_file()
    back = read_policy(path)
    assert same_weights(back, policy)
    assert back.metadata == policy.metadata and back.activation == "relu"
    obs, masks = collect_observations(CLASSIC, 50, seed=3)
    np.testing.assert_array_equal(back.logits(obs), policy.logits(obs))
    np.testing.assert_array_equal(back.masked_logits(obs, masks), policy.masked_logits(obs, masks))
    assert load_policy(path).metadata == back.metadata


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("missing", "no policy file"),
        ("directory", "no policy file"),
        ("text", "not a policy file"),
        ("no_metadata", "no readable metadata"),
        ("bad_json", "no readable metadata"),
        ("wrong_format", "teenpatti-policy/1"),
        ("not_a_dict", "teenpatti-policy/1"),
        ("wrong_version", "observation layout version"),
        ("no_rules", "damaged"),
        ("missing_bias", "unknown arrays"),
        ("layer_shapes", "layer 1"),
        ("bias_shape", "layer 0"),
        ("activation", "activation"),
        ("action_names", "action_names"),
    ],
)
def test_read_policy_errors(tmp_path: Path, case: str, message: str) -> None:
    path = tmp_path / f"{case}.npz"
    n_obs = ObservationLayout(CLASSIC).size
    n_act = len(ActionLayout(CLASSIC).names)
    layers = layer_arrays([n_obs, 8, n_act])
    meta = good_metadata()
    if case == "missing":
        path = tmp_path / "nope.npz"
    elif case == "directory":
        path.mkdir()
    elif case == "text":
        path.write_text("not a zip file at all\n")
    elif case == "no_metadata":
        write_npz(path, None, **layers)
    elif case == "bad_json":
        np.savez(path, metadata=np.array("{not json"), **layers)
    elif case == "wrong_format":
        write_npz(path, {**meta, "format": "teenpatti-policy/0"}, **layers)
    elif case == "not_a_dict":
        write_npz(path, [1, 2], **layers)
    elif case == "wrong_version":
        write_npz(path, {**meta, "observation_version": OBSERVATION_VERSION + 1}, **layers)
    elif case == "no_rules":
        write_npz(path, {k: v for k, v in meta.items() if k != "rules"}, **layers)
    elif case == "missing_bias":
        del layers["layer_1_bias"]
        write_npz(path, meta, **layers)
    elif case == "layer_shapes":
        layers["layer_1_weight"] = np.zeros((5, n_act), np.float32)
        write_npz(path, meta, **layers)
    elif case == "bias_shape":
        layers["layer_0_bias"] = np.zeros(9, np.float32)
        write_npz(path, meta, **layers)
    elif case == "activation":
        write_npz(path, {**meta, "activation": "gelu"}, **layers)
    elif case == "action_names":
        write_npz(path, {**meta, "action_names": ["pack"]}, **layers)
    with pytest.raises(PolicyFileError, match=message) as caught:
        read_policy(path)
    assert isinstance(caught.value, ValueError)
    if case in ("missing", "directory", "text", "no_metadata", "wrong_format", "wrong_version"):
        assert path.name in str(caught.value)
    with pytest.raises(ValueError):
        load_policy(path)


def test_read_policy_layer_error_names_the_file(tmp_path: Path) -> None:
    layers = layer_arrays([ObservationLayout(CLASSIC).size, 8, 10])
    layers["layer_1_weight"] = np.zeros((5, 10), np.float32)
    path = write_npz(tmp_path / "shapes.npz", good_metadata(), **layers)
    with pytest.raises(PolicyFileError, match=r"shapes\.npz"):
        read_policy(path)


def test_numpy_policy_checks_its_inputs() -> None:
    policy = random_policy()
    obs, masks = collect_observations(CLASSIC, 1, seed=0)
    assert 0 <= policy.act(obs[0], masks[0]) < policy.action_size
    with pytest.raises(ValueError, match="observations of size 277"):
        policy.act(obs[0][:-1], masks[0])
    with pytest.raises(ValueError, match="observations of size 277"):
        policy.act(np.zeros(300, np.float32), masks[0])
    with pytest.raises(ValueError, match="10 actions"):
        policy.act(obs[0], masks[0][:-1])
    with pytest.raises(ValueError, match="10 actions"):
        policy.act(obs[0], np.ones(12, bool))
    with pytest.raises(ValueError, match="no legal action"):
        policy.act(obs[0], np.zeros(10, bool))
    with pytest.raises(PolicyFileError):
        NumpyPolicy([], [], good_metadata())


def test_sampled_actions_are_legal_and_follow_the_policy() -> None:
    policy = random_policy(scale=0.01, seed=9)  # small weights: a spread distribution
    obs, masks = collect_observations(CLASSIC, 40, seed=5)
    rng = np.random.default_rng(0)
    for o, m in zip(obs, masks, strict=True):
        picks = [policy.act(o, m, rng) for _ in range(50)]
        assert all(m[a] for a in picks)
        if m.sum() >= 3:
            assert len(set(picks)) >= 2  # a sample, not the argmax
    # random masks too, with the same rng semantics
    for _ in range(300):
        mask = rng.random(10) < 0.3
        mask[rng.integers(10)] = True
        assert mask[policy.act(obs[0], mask, rng)]
    # greedy without an rng: the best legal logit
    logits = policy.logits(obs)
    for o, m, row in zip(obs, masks, logits, strict=True):
        assert policy.act(o, m) == int(np.argmax(np.where(m, row, -np.inf)))


# --------------------------------------------------------------------------- warm start


def test_demonstrations_are_the_teachers_legal_play_with_its_returns() -> None:
    imitation = pytest.importorskip("training.imitation")
    env = PoolEnv(CLASSIC, OpponentPool(("hard", "random")), seed=4)
    data = imitation.collect(env, "equity", 300, seed=4)
    count = len(data.actions)
    assert count >= 300
    assert data.observations.shape == (count, ObservationLayout(CLASSIC).size)
    assert data.masks[np.arange(count), data.actions].all()  # only legal choices
    # Rewards arrive when the learner's hand ends: within a hand, the reward to go is the
    # hand's result and the reward so far is zero until the last decision.
    ends = np.flatnonzero(data.cumulative != 0)
    assert len(ends) > 0
    previous = -1
    for end in ends:
        assert data.returns[end] == data.cumulative[end]
        earlier = data.returns[previous + 1:end]
        # earlier decisions of this hand share its result (0 only for a hand that netted 0)
        assert np.all((earlier == data.returns[end]) | (earlier == 0))
        previous = end
    assert data.returns.std() > 0


def test_warm_start_size_follows_the_run() -> None:
    assert TrainConfig().warm_start_size == 50_000  # 300,000 steps: a sixth
    assert TrainConfig(timesteps=1_000_000).warm_start_size == 50_000
    assert TrainConfig(timesteps=60_000).warm_start_size == 10_000
    assert TrainConfig(timesteps=2_048).warm_start_size == 1_000
    assert TrainConfig(timesteps=2_048, warm_start_decisions=64).warm_start_size == 64


def test_imitation_makes_the_policy_agree_with_its_teacher() -> None:
    imitation = pytest.importorskip("training.imitation")
    train = trainlib()
    config = TrainConfig(envs=1, net_arch=(32,), progress=False, out="unused")
    vec = train.make_vec_env(config)
    try:
        model = train._build_model(config, vec)
        env = PoolEnv(CLASSIC, OpponentPool(("easy",)), seed=1)
        data = imitation.collect(env, "auto", 1500, seed=1)
        before = imitation.imitate(model, data, 0, 256, 1.0, np.random.default_rng(0))
        after = imitation.imitate(model, data, 8, 256, 1.0, np.random.default_rng(0))
    finally:
        vec.close()
    assert after["imitation/agreement"] > before["imitation/agreement"] + 0.25
