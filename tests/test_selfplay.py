"""The batched self-play trainer (training/selfplay.py): credit, advantages, export,
checkpoints, the command line, and that it learns."""

from __future__ import annotations

import csv
import dataclasses
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("numba")

import torch

from agents.arena import run_arena
from agents.policy import read_policy
from interfaces.cli import main
from teenpatti_env.environment.batched import TableBatch
from training.config import SelfPlayConfig
from training.selfplay import (
    UNIFORM,
    FrozenActor,
    Learner,
    Rollout,
    SeatPlan,
    UniformActor,
    configure_torch,
    new_model,
    resolve_device,
    train_exploiter,
    train_selfplay,
)


def config_from_command(command: str, **extra: Any) -> SelfPlayConfig:
    """The config that ``teenpatti selfplay ...`` (a recorded command) makes."""
    import shlex

    from interfaces.cli import build_parser

    argv = shlex.split(command)
    assert argv[:2] == ["teenpatti", "selfplay"]
    args = build_parser().parse_args(argv[1:])
    options = {key: value for key, value in vars(args).items()
               if key in SelfPlayConfig.__dataclass_fields__ and value is not None}
    if "hidden" in options:
        options["hidden"] = tuple(options["hidden"])
    return SelfPlayConfig(**options, **extra)


def tiny(tmp_path: Path, **overrides: object) -> SelfPlayConfig:
    settings: dict[str, object] = {
        "timesteps": 4_000, "tables": 32, "rollout_steps": 32, "minibatch_size": 512,
        "out": str(tmp_path / "run"), "progress": False, "threads": 1,
        "snapshot_every": 1_000, "exploiter_every": 0, "uniform_table_share": 0.0,
    }
    settings.update(overrides)
    return SelfPlayConfig(**settings)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- advantages


def test_advantages_follow_each_seats_own_decisions() -> None:
    """GAE with gamma 1 over a hand-worked rollout: seat 0 decides twice, seat 1 once."""
    rollout = Rollout(capacity=8, observation_size=1, action_size=2)
    zeros = np.zeros((2, 1), np.float32)
    masks = np.ones((2, 2), np.bool_)
    first = rollout.add(np.array([0, 0]), np.array([0, 1]), zeros, masks,
                        np.zeros(2, np.int64), np.zeros(2, np.float32),
                        np.array([1.0, 0.5], np.float32))
    second = rollout.add(np.array([0]), np.array([0]), zeros[:1], masks[:1],
                         np.zeros(1, np.int64), np.zeros(1, np.float32),
                         np.array([1.5], np.float32))
    third = rollout.add(np.array([1]), np.array([2]), zeros[:1], masks[:1],
                        np.zeros(1, np.int64), np.zeros(1, np.float32),
                        np.array([0.7], np.float32))
    rollout.following[first[0]] = second[0]
    rollout.rewards[second[0]], rollout.done[second[0]] = 2.0, True
    rollout.rewards[first[1]], rollout.done[first[1]] = -2.0, True
    advantages, returns = rollout.advantages(0.5)
    # seat 0: last decision 2 - 1.5 = 0.5; first (1.5 - 1.0) + 0.5 * 0.5 = 0.75
    # seat 1: -2 - 0.5 = -2.5; the unfinished decision at table 1 bootstraps from itself: 0
    assert advantages.tolist() == pytest.approx([0.75, -2.5, 0.5, 0.0])
    assert returns.tolist() == pytest.approx([1.75, -2.0, 2.0, 0.7])
    assert third.tolist() == [3]


def test_each_seat_is_credited_its_own_net_at_its_last_decision(tmp_path: Path) -> None:
    """Replays a self-play rollout: every hand's net of each seat lands on that seat's last
    decision of the hand and nowhere else; decisions link to the same seat's next one."""
    config = tiny(tmp_path, tables=6, rollout_steps=120, reward_scale=0.5)
    device = configure_torch(config)
    batch = TableBatch(config.tables, config.rules, seed=3)
    events: list[tuple[np.ndarray, np.ndarray]] = []
    step = batch.step

    def recording_step(actions: object) -> object:
        result = step(actions)
        events.append((result.finished.copy(), result.rewards.copy()))
        return result

    batch.step = recording_step  # type: ignore[method-assign]
    learner = Learner(new_model(config, config.rules).to(device), batch, config, device, 3)
    learner.collect()
    rollout = learner.rollout
    bounds = [*rollout.step_starts, rollout.size]
    assert len(events) == config.rollout_steps
    last: dict[tuple[int, int], int] = {}
    credited = np.zeros(rollout.size, np.bool_)
    hands = 0
    for k, (finished, rewards) in enumerate(events):
        for i in range(bounds[k], bounds[k + 1]):
            key = (int(rollout.tables[i]), int(rollout.seats[i]))
            if key in last:
                assert rollout.following[last[key]] == i
            last[key] = i
        for table in np.flatnonzero(finished):
            hands += 1
            for (t, seat), i in list(last.items()):
                if t == table:
                    assert rollout.done[i]
                    assert rollout.rewards[i] == pytest.approx(rewards[t, seat] * 0.5)
                    assert rollout.following[i] == -1
                    credited[i] = True
                    del last[(t, seat)]
    assert hands > 20
    assert not rollout.done[:rollout.size][~credited].any()
    assert not rollout.rewards[:rollout.size][~credited].any()
    for i in last.values():  # hands still running at the end
        assert rollout.following[i] == -1 and not rollout.done[i]


# --------------------------------------------------------------------------- export


def test_export_plays_as_the_torch_policy(tmp_path: Path) -> None:
    config = tiny(tmp_path)
    configure_torch(config)
    model = new_model(config, config.rules)
    for parameter in model.policy_head.parameters():
        torch.nn.init.normal_(parameter, std=1.0)  # make the policy far from uniform
    batch = TableBatch(64, config.rules, seed=5)
    step = batch.reset()
    policy = model.to_numpy_policy(config.rules)
    observations = torch.as_tensor(step.observations)
    masks = torch.as_tensor(step.action_masks.astype(bool))
    with torch.no_grad():
        logits, _ = model(observations, masks)
    expected = logits.argmax(-1).numpy()
    assert (policy.act_batch(step.observations, step.action_masks) == expected).all()
    legal = step.action_masks.astype(bool)
    assert np.allclose(policy.logits(step.observations)[legal], logits.numpy()[legal],
                       atol=1e-4)


# --------------------------------------------------------------------------- runs


def test_run_writes_policy_log_and_checkpoint_and_resumes(tmp_path: Path) -> None:
    config = tiny(tmp_path, checkpoint_every=1_000)
    result = train_selfplay(config)
    out = Path(config.out)
    assert result.decisions >= config.timesteps
    assert (out / "policy.npz").is_file() and (out / "checkpoint.pt").is_file()
    rows = (out / "progress.csv").read_text().splitlines()
    assert rows[0].startswith("decisions,") and len(rows) == result.updates + 1
    summary = json.loads((out / "run.json").read_text())
    assert summary["command"].startswith("teenpatti selfplay ")
    assert read_policy(out / "policy.npz").metadata["trained_by"] == "teenpatti selfplay"

    longer = tiny(tmp_path, timesteps=8_000, checkpoint_every=1_000,
                  resume=str(out / "checkpoint.pt"))
    resumed = train_selfplay(longer)
    assert resumed.decisions >= 8_000
    assert resumed.updates > result.updates

    with pytest.raises(ValueError, match="hidden"):
        train_selfplay(tiny(tmp_path, hidden=(16,), resume=str(out / "checkpoint.pt")))
    broken = tmp_path / "broken.pt"
    broken.write_bytes(b"not a checkpoint")
    with pytest.raises(ValueError, match="not a self-play checkpoint"):
        train_selfplay(tiny(tmp_path, resume=str(broken)))


def test_same_seed_same_weights(tmp_path: Path) -> None:
    first = train_selfplay(tiny(tmp_path / "a", timesteps=2_000))
    second = train_selfplay(tiny(tmp_path / "b", timesteps=2_000))
    for a, b in zip(first.policy.weights, second.policy.weights, strict=True):
        assert np.array_equal(a, b)


@pytest.mark.parametrize(("setting", "value", "match"), [
    ("timesteps", 0, "timesteps"), ("tables", -1, "tables"), ("hidden", (), "hidden"),
    ("activation", "gelu", "activation"), ("self_play_share", 1.5, "self_play_share"),
    ("device", "tpu", "device"), ("preset", "nope", "preset"), ("players", 9, "players"),
    ("exploiter_table_share", -0.1, "exploiter_table_share"),
    ("uniform_table_share", 1.2, "uniform_table_share"),
    ("exploiter_learning_rate", -1.0, "exploiter_learning_rate"),
    ("exploiter_learning_rate", 0.0, "exploiter_learning_rate"),
])
def test_bad_settings_are_refused(tmp_path: Path, setting: str, value: object,
                                  match: str) -> None:
    with pytest.raises(ValueError, match=match):
        tiny(tmp_path, **{setting: value})


def test_the_table_shares_may_not_add_up_to_more_than_one(tmp_path: Path) -> None:
    """Self-play, exploiter and uniform tables share the hands; the exploiter tables'
    share counts only where the run has exploiters."""
    with pytest.raises(ValueError, match="add up to more than 1"):
        tiny(tmp_path, self_play_share=0.5, uniform_table_share=0.6)
    with pytest.raises(ValueError, match="add up to more than 1"):
        tiny(tmp_path, exploiter_every=500, exploiter_table_share=0.4, uniform_table_share=0.3)
    tiny(tmp_path, exploiter_table_share=0.4, uniform_table_share=0.3)
    tiny(tmp_path, exploiter_every=500, self_play_share=0.4, exploiter_table_share=0.3,
         uniform_table_share=0.3)


def test_the_defaults_are_the_shipped_policys_recipe() -> None:
    """The shipped policy's recorded command is `teenpatti selfplay --threads 1`: the
    defaults are the league recipe that trained it."""
    from agents.policy import load_policy, pretrained_path

    command = load_policy(pretrained_path("classic")).metadata["command"]
    config = config_from_command(command)
    assert config == SelfPlayConfig(threads=1, out=config.out)
    assert SelfPlayConfig().exploiter_every > 0 and SelfPlayConfig().uniform_table_share > 0


def test_a_missing_cuda_device_is_a_clear_error() -> None:
    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    with pytest.raises(ValueError, match="no CUDA device"):
        resolve_device("cuda")
    assert resolve_device("auto").type == "cpu"


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli"
    code = main(["selfplay", "--timesteps", "2000", "--tables", "32", "--rollout-steps",
                 "32", "--minibatch-size", "512", "--hidden", "32", "32", "--threads", "1",
                 "--out", str(out), "--quiet"])
    assert code == 0
    assert "learner steps/s" in capsys.readouterr().out
    assert read_policy(out / "policy.npz").weights[0].shape[1] == 32
    assert main(["selfplay", "--device", "tpu", "--out", str(out)]) == 2
    assert "device must be" in capsys.readouterr().err
    assert main(["selfplay", "--resume", str(tmp_path / "none.pt"), "--out", str(out),
                 "--quiet"]) == 2
    assert "no checkpoint" in capsys.readouterr().err


# --------------------------------------------------------------------------- learning


@pytest.mark.parametrize("league", [False, True], ids=["plain", "league"])
def test_self_play_from_scratch_beats_random(tmp_path: Path, league: bool) -> None:
    """A tiny self-play run, no imitation, then a duplicate arena on fresh seeds; plain
    self-play, and the shipped recipe's league (exploiters, exploiter and uniform tables)
    at a tiny scale."""
    recipe = SelfPlayConfig()
    extra: dict[str, object] = (
        {"exploiter_every": 20_000, "exploiter_steps": 5_000, "snapshot_every": 20_000,
         "uniform_table_share": recipe.uniform_table_share,
         "exploiter_table_share": recipe.exploiter_table_share} if league else {})
    config = tiny(tmp_path, timesteps=60_000, tables=256, rollout_steps=32,
                  minibatch_size=2048, threads=2, **extra)
    result = train_selfplay(config)
    report = run_arena([f"ppo:{result.out / 'policy.npz'}", "random"], hands=2_000,
                       seed=12_345, workers=1)
    assert report.agents[f"ppo:{result.out / 'policy.npz'}"].result.low > 0.0, report.table()


# --------------------------------------------------------------------------- exploitability


def always_pack_policy(path: Path) -> Path:
    """A fixed policy that packs whenever it may (else: look, bet the minimum, ...)."""
    from agents.policy import NumpyPolicy, policy_metadata
    from teenpatti_env.environment.actions import ActionLayout
    from teenpatti_env.rules import Rules

    rules = Rules()
    names = ActionLayout(rules).names
    order = ["pack", "refuse", "look", "bet_min", "accept", "show", "all_in", "bet_max",
             "bet_level_1", "sideshow"]
    bias = np.array([len(order) - order.index(name) for name in names], np.float32)
    weights = [np.zeros((277, len(names)), np.float32)]
    policy = NumpyPolicy(weights, [bias], policy_metadata(rules, names, "tanh"))
    return policy.save(path)


def test_a_best_response_finds_a_large_edge_against_a_fixed_agent(tmp_path: Path) -> None:
    """On the batched engine: the fixed agent has a batched form."""
    from training.exploit import approximate_exploitability

    target = f"ppo:{always_pack_policy(tmp_path / 'fixed.npz')}"
    report = approximate_exploitability(target, budget_steps=20_000, hands=1_000, seed=3,
                                        tables=128, threads=2)
    assert report.engine == "batched"
    assert report.low > 1.0, report.summary()
    assert report.curve and report.curve[-1][0] >= 20_000


def test_a_best_response_beats_random_on_the_batched_engine(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "exploit"
    code = main(["exploit", "--agent", "random", "--method", "ppo", "--budget-steps", "10000",
                 "--hands", "1000", "--seed", "2", "--workers", "1", "--out", str(out),
                 "--json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    # random has a batched form, so its best response trains on the batched engine
    assert report["agent"] == "random" and report["engine"] == "batched"
    assert report["low"] > 0.5 and report["low"] <= report["mean"] <= report["high"]
    assert (out / "exploit.png").is_file() and (out / "best_response.npz").is_file()
    assert main(["exploit", "--agent", "nobody", "--out", str(out)]) == 2
    assert "nobody" in capsys.readouterr().err


def test_a_network_takes_an_exported_policys_weights(tmp_path: Path) -> None:
    from agents.policy import load_policy, pretrained_path

    shipped = load_policy(pretrained_path("classic"))
    config = tiny(tmp_path)
    model = new_model(config, config.rules)
    model.load_policy(shipped)
    again = model.to_numpy_policy(config.rules)
    for mine, theirs in zip(again.weights, shipped.weights, strict=True):
        assert np.allclose(mine, theirs, atol=1e-6)
    small = new_model(tiny(tmp_path, hidden=(16,)), config.rules)
    with pytest.raises(ValueError, match="do not fit"):
        small.load_policy(shipped)


def test_a_best_response_may_start_from_a_trained_policy(tmp_path: Path) -> None:
    from training.exploit import approximate_exploitability

    with pytest.raises(ValueError, match="starts from a trained policy"):
        approximate_exploitability("random", budget_steps=10, start_from="hard")
    target = f"ppo:{always_pack_policy(tmp_path / 'fixed.npz')}"
    report = approximate_exploitability(target, budget_steps=5_000, hands=400, seed=4,
                                        tables=64, threads=1,
                                        start_from="pretrained:classic",
                                        save_policy=tmp_path / "br.npz")
    assert report.low > 1.0, report.summary()
    assert read_policy(tmp_path / "br.npz").metadata["started_from"] == "pretrained:classic"


def test_the_recorded_command_makes_the_same_config(tmp_path: Path) -> None:
    config = tiny(tmp_path, hidden=(32, 16), anneal_lr=False, exploiter_every=5_000, seed=3)
    assert config_from_command(config.command(), progress=False) == config


# --------------------------------------------------------------------------- exploiters


def test_seat_plan_draws_self_play_exploiter_and_versus_tables() -> None:
    """Pool members 1-3 are snapshots, 4 and 5 exploiters: about 20% self-play tables, 50%
    exploiter tables (one exploiter seat, the learner in the others), 30% versus tables
    (one learner seat, one pool member in the others)."""
    tables = np.arange(20_000)
    plan = SeatPlan(len(tables), 4, 0.2, np.random.default_rng(0), exploiter_table_share=0.5)
    plan.draw(tables, 5, exploiters=[4, 5])
    roles = plan.roles
    others = (roles != 0).sum(axis=1)
    assert set(others.tolist()) == {0, 1, 3}
    lone = others == 1
    assert set(roles[lone].max(axis=1).tolist()) == {4, 5}
    versus = roles[others == 3]
    assert (versus.max(axis=1) == np.where(versus == 0, 99, versus).min(axis=1)).all()
    assert np.mean(others == 0) == pytest.approx(0.2, abs=0.015)
    assert np.mean(lone) == pytest.approx(0.5, abs=0.015)
    assert set(versus.max(axis=1).tolist()) == {1, 2, 3, 4, 5}


def test_seat_plan_without_exploiters_seats_as_before() -> None:
    """No exploiter in the pool, or no exploiter tables asked for: the same draws as a plan
    that knows nothing of exploiter tables (so older runs reproduce)."""
    tables = np.arange(500)
    plain = SeatPlan(len(tables), 4, 0.5, np.random.default_rng(7))
    plain.draw(tables, 3)
    for share, exploiters in ((0.3, ()), (0.0, (3,))):
        plan = SeatPlan(len(tables), 4, 0.5, np.random.default_rng(7), share)
        plan.draw(tables, 3, exploiters)
        assert np.array_equal(plan.roles, plain.roles)


def test_an_update_whose_last_minibatch_holds_one_decision_stays_finite(
        tmp_path: Path) -> None:
    """A lone decision left over for the last minibatch has no spread to normalise its
    advantage by: it is skipped, where it used to turn every weight into NaN."""
    config = tiny(tmp_path, tables=16, rollout_steps=40)
    device = configure_torch(config)
    model = new_model(config, config.rules).to(device)
    learner = Learner(model, TableBatch(config.tables, config.rules, seed=3), config,
                      device, 3)
    learner.collect()
    learner.config = dataclasses.replace(config, minibatch_size=learner.rollout.size - 1)
    losses = learner.update(0.01)
    assert all(np.isfinite(value) for value in losses.values())
    assert all(torch.isfinite(parameter).all() for parameter in model.parameters())


def test_seat_plan_draws_uniform_tables_from_the_last_share() -> None:
    """Pool members 1-2 snapshots, 3 the uniform policy: 30% self-play, the last 25% of the
    draws uniform tables (one learner seat, the uniform policy in the others), the rest
    versus tables against the snapshots only; with the uniform policy alone in the pool the
    versus tables are self-play."""
    tables = np.arange(20_000)
    plan = SeatPlan(len(tables), 4, 0.3, np.random.default_rng(1), uniform_table_share=0.25)
    plan.draw(tables, 3, uniform=3)
    roles = plan.roles
    others = (roles != 0).sum(axis=1)
    assert set(others.tolist()) == {0, 3}
    opponent = roles.max(axis=1)
    assert np.mean(others == 0) == pytest.approx(0.3, abs=0.015)
    assert np.mean(opponent == 3) == pytest.approx(0.25, abs=0.015)
    assert set(opponent[(others == 3) & (opponent != 3)].tolist()) == {1, 2}
    plan.draw(tables, 1, uniform=1)
    alone = plan.roles.max(axis=1)
    assert set(alone.tolist()) == {0, 1}
    assert np.mean(alone == 1) == pytest.approx(0.25, abs=0.015)


def test_uniform_tables_seat_the_uniform_policy_and_log_its_hands(tmp_path: Path) -> None:
    """Every table a uniform table: the learner holds one seat, the uniform policy the other
    three and plays only legal actions, and the run logs what the learner won there."""
    config = tiny(tmp_path, tables=16, rollout_steps=120, self_play_share=0.0,
                  uniform_table_share=1.0, exploiter_every=0)
    device = configure_torch(config)
    model = new_model(config, config.rules).to(device)
    batch = TableBatch(config.tables, config.rules, seed=4)
    learner = Learner(model, batch, config, device, 4, pool=[UniformActor(4)],
                      names=[UNIFORM])
    stats = learner.collect()
    assert stats.uniform_hands > 10 and stats.uniform_hands == stats.hands
    assert stats.uniform_reward_sum == pytest.approx(stats.reward_sum)
    assert stats.versus_hands == 0
    assert ((learner.plan.roles != 0).sum(axis=1) == 3).all()
    with pytest.raises(ValueError, match="last member"):
        learner.set_pool([UniformActor(4), FrozenActor(model, device, 0)],
                         [UNIFORM, "snapshot"])
    run = train_selfplay(tiny(tmp_path / "run", uniform_table_share=0.3))
    log = (run.out / "progress.csv").read_text().splitlines()
    column = log[0].split(",").index("uniform_table_win_per_hand")
    assert any(float(row.split(",")[column]) != 0 for row in log[1:])


def test_the_uniform_actor_draws_every_legal_action_evenly() -> None:
    masks = np.zeros((30_000, 5), np.int8)
    masks[:, [0, 2, 3]] = 1
    actions = UniformActor(0)(np.zeros((30_000, 1), np.float32), masks)
    counts = np.bincount(actions, minlength=5)
    assert counts[1] == counts[4] == 0
    assert counts[[0, 2, 3]] == pytest.approx([10_000] * 3, rel=0.05)


def test_exploiters_train_at_their_own_step_size(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import training.selfplay_learner as selfplay_learner

    used: list[float] = []
    real = selfplay_learner.learn

    def spy(learner: Learner, decisions: int, rate: Any, *args: Any) -> int:
        used.append(rate(0))
        return real(learner, decisions, rate, *args)

    monkeypatch.setattr(selfplay_learner, "learn", spy)
    config = tiny(tmp_path, learning_rate=0.0003, exploiter_steps=500)
    model = new_model(config, config.rules)
    for rate in (0.002, 0.0005):
        train_exploiter(model, dataclasses.replace(config, exploiter_learning_rate=rate),
                        torch.device("cpu"), 1)
    assert used == [0.002, 0.0005]


def test_exploiter_tables_credit_the_learner_seats_only(tmp_path: Path) -> None:
    """Every table an exploiter table: the learner plays three seats of four, and what it
    won is what the exploiter seat lost."""
    config = tiny(tmp_path, tables=16, rollout_steps=200, self_play_share=0.0,
                  exploiter_table_share=1.0)
    device = configure_torch(config)
    model = new_model(config, config.rules).to(device)
    batch = TableBatch(config.tables, config.rules, seed=5)
    exploiter = FrozenActor(new_model(config, config.rules), device, 9, greedy=True)
    learner = Learner(model, batch, config, device, 5, pool=[exploiter], names=["exploiter"])
    stats = learner.collect()
    assert stats.exploiter_hands > 20 and stats.versus_hands == 0
    assert stats.hands == 3 * stats.exploiter_hands
    assert stats.reward_sum == pytest.approx(-stats.exploiter_reward_sum)
    seats = learner.plan.roles
    assert ((seats != 0).sum(axis=1) == 1).all()


def test_a_greedy_frozen_actor_plays_as_the_exported_policy(tmp_path: Path) -> None:
    config = tiny(tmp_path)
    device = configure_torch(config)
    model = new_model(config, config.rules)
    batch = TableBatch(64, config.rules, seed=2)
    step = batch.reset()
    greedy = FrozenActor(model, device, 0, greedy=True)
    policy = model.to_numpy_policy(config.rules)
    got = greedy(step.observations, step.action_masks)
    assert np.array_equal(got, policy.act_batch(step.observations, step.action_masks))


def test_a_run_may_start_from_a_trained_policy(tmp_path: Path) -> None:
    """--init-from: the network starts from the policy's weights (with a vanishing step
    size the run ends where it started); a policy of another shape is refused."""
    start = train_selfplay(tiny(tmp_path / "start", hidden=(32, 16), timesteps=1_000))
    path = start.policy.save(tmp_path / "start.npz")
    run = train_selfplay(tiny(tmp_path / "run", hidden=(32, 16), timesteps=1_000,
                              learning_rate=1e-12, init_from=f"ppo:{path}", seed=5))
    for got, expected in zip(run.policy.weights, start.policy.weights, strict=True):
        np.testing.assert_allclose(got, expected, atol=1e-6)
    with pytest.raises(ValueError, match="do not fit"):
        train_selfplay(tiny(tmp_path / "bad", hidden=(16,), init_from=f"ppo:{path}"))
    with pytest.raises(ValueError, match="starts from a trained policy"):
        train_selfplay(tiny(tmp_path / "bad", init_from="hard"))


def test_a_run_may_start_from_a_policy_of_another_table(tmp_path: Path) -> None:
    """--init-from a four-seat ``discard_one`` policy: a ``shopping`` run at four seats (the
    same observation, two more actions) keeps each input and action by name, ``draw`` and
    ``keep`` start at zero; at three and five seats each observation slot takes the rows
    of the slot of the same name, a seat the policy never sat starting at zero."""
    from teenpatti_env.environment.actions import ActionLayout
    from teenpatti_env.environment.observation import ObservationLayout
    from teenpatti_env.rules import Rules
    from training.padded_policies import matched_start

    start = train_selfplay(tiny(tmp_path / "start", hidden=(16,), timesteps=500,
                                variant="discard_one"))
    path = start.policy.save(tmp_path / "start.npz")
    run = train_selfplay(tiny(tmp_path / "run", hidden=(16,), timesteps=500,
                              variant="shopping", learning_rate=1e-12,
                              init_from=f"ppo:{path}", seed=5))
    names = ActionLayout(run.policy.rules).names
    assert set(start.policy.action_names) < set(names)
    for k, name in enumerate(names):
        got = (run.policy.weights[-1][:, k], run.policy.biases[-1][k])
        if name in start.policy.action_names:
            j = start.policy.action_names.index(name)
            np.testing.assert_allclose(got[0], start.policy.weights[-1][:, j], atol=1e-6)
            np.testing.assert_allclose(got[1], start.policy.biases[-1][j], atol=1e-6)
        else:
            np.testing.assert_allclose(got[0], 0.0, atol=1e-6)
            np.testing.assert_allclose(got[1], 0.0, atol=1e-6)
    np.testing.assert_allclose(run.policy.weights[0], start.policy.weights[0], atol=1e-6)

    old = {name: (offset, width)
           for name, offset, width, _ in ObservationLayout(start.policy.rules).slots}
    for seats in (3, 5):
        rules = Rules.preset("classic", variant="shopping", num_players=seats)
        moved = matched_start(start.policy, rules)
        first = moved.weights[0]
        slots = ObservationLayout(rules).slots
        assert first.shape[0] == sum(width for _, _, width, _ in slots)
        for name, offset, width, _ in slots:
            rows = first[offset:offset + width]
            if name in old and old[name][1] == width:
                source = start.policy.weights[0][old[name][0]:old[name][0] + width]
                np.testing.assert_array_equal(rows, source)
            else:
                np.testing.assert_array_equal(rows, 0.0)
        unseated = [name for name, *_ in slots if name.startswith("seat4.")]
        assert bool(unseated) == (seats == 5)
    train_selfplay(tiny(tmp_path / "three", hidden=(16,), timesteps=500, variant="shopping",
                        players=3, init_from=f"ppo:{path}"))


def test_the_evaluation_reports_head_to_head_and_exploitability(tmp_path: Path) -> None:
    """evaluate_policy: the policy against each opponent at 2v2 and 1vN tables, then the
    approximate exploitability of it and of each baseline, best responses starting from
    it (the torch threads passed through)."""
    from training.evaluation import evaluate_policy

    run = train_selfplay(tiny(tmp_path, hidden=(16,), timesteps=1_000))
    agent = f"ppo:{run.out / 'policy.npz'}"
    said: list[str] = []
    torch.set_num_threads(2)
    evaluation = evaluate_policy(agent, hands=8, exploit_budget=100, exploit_hands=8,
                                 opponents=("random",), baselines=("random",), threads=1,
                                 workers=1, say=said.append,
                                 curve_path=str(tmp_path / "curves.png"))
    rows = evaluation.head_to_head.rows
    assert [(row.opponent, row.table) for row in rows] == [("random", "2v2"),
                                                            ("random", "1v3")]
    assert [report.agent for report in evaluation.exploitability] == [agent, "random"]
    # the policy and the scripted agent both have batched forms
    assert [report.engine for report in evaluation.exploitability] == ["batched", "batched"]
    assert "Approximate exploitability" in evaluation.text()
    assert (tmp_path / "curves.png").is_file() and len(said) == 3
    assert torch.get_num_threads() == 1


def test_a_league_may_train_searched_rule_exploiters(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``exploiter_kinds=("search", "ppo")`` the exploiters take turns: the first is
    the rule setting a search finds against the current policy; it joins the pool, sits at
    exploiter tables (the only exploiter until the second joins), and a checkpoint keeps
    it."""
    from training import league_search
    from training.rule_search import SearchBudget

    monkeypatch.setattr(league_search, "LEAGUE_SEARCH", SearchBudget(
        population=4, rounds=1, deals=10, finalists=2, final_deals=20, random_rounds=1))
    said: list[str] = []
    settings: dict[str, Any] = {
        "exploiter_every": 1_000, "exploiter_steps": 500, "exploiter_table_share": 0.5,
        "exploiter_kinds": ("search", "ppo"), "checkpoint_every": 1_000}
    train_selfplay(tiny(tmp_path, timesteps=3_000, **settings), said.append)
    assert any("training exploiter 1 of 2 (a rule strategy searched" in line for line in said), said
    assert any("training exploiter 2 of 2 (500 decisions" in line for line in said), said
    state = torch.load(tmp_path / "run" / "checkpoint.pt", weights_only=True)
    kinds = ["rule" if "rule_params" in member else "ppo" for member in state["exploiters"]]
    assert kinds[:2] == ["rule", "ppo"]
    rows = list(csv.DictReader((tmp_path / "run" / "progress.csv").open()))
    joined = [k for k, row in enumerate(rows) if not row["seconds"]]  # an exploiter's row
    between = rows[joined[0] + 1:joined[1]]
    assert between and any(float(row["exploiter_table_win_per_hand"] or 0) != 0.0
                           for row in between)
    # a run resumed from the checkpoint seats the rule exploiter again
    again = tiny(tmp_path, timesteps=3_500, resume=str(tmp_path / "run" / "checkpoint.pt"),
                 out=str(tmp_path / "again"), **settings)
    assert train_selfplay(again).decisions >= 3_500
    with pytest.raises(ValueError, match="exploiter_kinds"):
        tiny(tmp_path, exploiter_kinds=("genius",))


def test_rule_opponents_sit_in_the_pool_and_seed_every_search(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``rule_opponents`` are in the pool from the first round (and at exploiter tables,
    with no learned exploiter yet); every league search starts from them and from what the
    run's earlier searches found."""
    from agents.rule_strategy import STYLES
    from training import league_search
    from training.rule_search import SearchBudget

    monkeypatch.setattr(league_search, "LEAGUE_SEARCH", SearchBudget(
        population=4, rounds=1, deals=10, finalists=2, final_deals=20, random_rounds=1))
    starts: list[np.ndarray] = []
    search = league_search.search_rule_response

    def spy(*args: Any, **kwargs: Any) -> Any:
        starts.append(kwargs["start"])
        return search(*args, **kwargs)

    monkeypatch.setattr(league_search, "search_rule_response", spy)
    config = tiny(tmp_path, timesteps=3_000, rule_opponents=("blind-heavy",),
                  exploiter_every=1_000, exploiter_kinds=("search",),
                  exploiter_table_share=0.5)
    train_selfplay(config)
    rows = [row for row in csv.DictReader((tmp_path / "run" / "progress.csv").open())
            if row["seconds"]]
    assert int(rows[0]["pool_size"]) == 1  # the rule opponent alone, before any snapshot
    assert float(rows[0]["exploiter_table_win_per_hand"]) != 0.0
    heavy = np.array(STYLES["blind-heavy"])
    assert len(starts) == 2
    assert np.allclose(starts[0], heavy[None])
    assert len(starts[1]) == 2 and np.allclose(starts[1][0], heavy)
    state = torch.load(tmp_path / "run" / "checkpoint.pt", weights_only=True)
    assert np.allclose(starts[1][1], state["exploiters"][0]["rule_params"])
    with pytest.raises(ValueError, match="unknown rule strategy"):
        tiny(tmp_path, rule_opponents=("sneaky",))
    with pytest.raises(ValueError, match="league_search"):
        tiny(tmp_path, league_search="huge")


def test_a_scripted_seat_forgets_a_hand_when_its_table_deals_the_next() -> None:
    """A scripted opponent keeps its reads of a hand (the reading agents count the seen
    bets they saw) until that table deals again: ``new_hands`` clears the reads of the
    tables named and of no other, so that at an autoresetting batch every hand is read
    from its start, as the per-table agent reads it."""
    from agents.batch_scripted import batch_agent
    from teenpatti_env.rules import Rules
    from training.selfplay_network import ScriptedSeat

    batch = TableBatch(64, Rules.preset("classic", num_players=4), seed=5)
    step = batch.reset()
    seat = ScriptedSeat("equity", seed=11)
    reference = batch_agent("equity", batch, 11)
    dealt_again = 0
    for _ in range(80):
        rows = np.flatnonzero(step.to_act >= 0)
        obs, masks = step.observations[rows], step.action_masks[rows]
        chosen = seat.at_tables(batch, rows, obs, masks)
        assert np.array_equal(chosen, reference.act(rows, obs, masks))
        assert masks[np.arange(len(rows)), chosen].all()
        actions = np.zeros(batch.num_tables, np.int64)
        actions[rows] = chosen
        step = batch.step(actions)
        settled = np.flatnonzero(step.finished)
        agent = seat._agent
        assert agent is not None
        if len(settled):
            dealt_again += len(settled)
            kept = np.setdiff1d(np.flatnonzero(agent.has_last.any(axis=1)), settled)
            before = agent.seen_bets[kept].copy()
            seat.new_hands(settled)
            assert not agent.has_last[settled].any()
            assert not agent.seen_bets[settled].any()
            assert np.array_equal(agent.seen_bets[kept], before)
            fresh = np.zeros(batch.num_tables, np.bool_)
            fresh[settled] = True
            reference.reset(fresh)
    assert dealt_again > 64  # most tables played more than one hand


def test_a_scripted_seat_forgets_each_hand_of_a_session_as_the_collector_steps(
        tmp_path: Path) -> None:
    """At session tables the collector tells a scripted opponent of every hand a session
    deals (not only of the sessions' ends): after each engine step (one-step rollouts) the
    tables dealt a new hand hold no reads, and the tables whose hand goes on keep theirs."""
    from training.selfplay_network import ScriptedSeat

    config = tiny(tmp_path, tables=32, rollout_steps=1, self_play_share=0.0,
                  exploiter_table_share=0.0, episode="session", max_hands=30)
    device = configure_torch(config)
    batch = TableBatch(config.tables, config.rules, episode="session", seed=4)
    seat = ScriptedSeat("equity", seed=3)
    learner = Learner(new_model(config, config.rules).to(device), batch, config, device, 4,
                      pool=[seat], names=["exploiter"])
    later_hands = forgotten = kept = 0
    for _ in range(400):
        dealt_before = batch.hands_dealt
        reads_before = seat._agent.seen_bets.copy() if seat._agent is not None else None
        learner.collect()
        agent = seat._agent
        if agent is None or reads_before is None:
            continue
        dealt = batch.hands_dealt != dealt_before
        later_hands += int((dealt & (batch.hands_played > 0)).sum())
        forgotten += int(dealt.sum())
        assert not agent.has_last[dealt].any() and not agent.seen_bets[dealt].any()
        going_on = ~dealt & (batch.to_act >= 0)
        # a hand that goes on keeps what was read, and may read more
        assert (agent.seen_bets[going_on] >= reads_before[going_on]).all()
        kept += int(agent.has_last[going_on].any(axis=1).sum())
    assert later_hands > 50 and forgotten > 50 and kept > 50


def test_scripted_opponents_sit_in_the_pool_for_the_whole_run(tmp_path: Path) -> None:
    """``scripted_opponents`` are in the pool from the first round, seated as exploiters
    (one at an exploiter table, or every other seat at a versus table), a place per name
    given (one agent for a name given twice); the run's command names them; a name that
    is no scripted agent and the general mixture are refused with a clear error."""
    from training.selfplay_network import ScriptedSeats

    config = tiny(tmp_path, timesteps=2_000, scripted_opponents=("equity", "hard", "equity"),
                  exploiter_table_share=0.5, self_play_share=0.2)
    assert "--scripted-opponents equity hard equity" in config.command()
    seats = ScriptedSeats(0)
    assert seats("equity") is seats("equity") and seats("hard") is not seats("equity")
    train_selfplay(config)
    rows = [row for row in csv.DictReader((tmp_path / "run" / "progress.csv").open())
            if row["seconds"]]
    assert int(rows[0]["pool_size"]) == 3  # a place per name given, before any snapshot
    assert float(rows[0]["exploiter_table_win_per_hand"]) != 0.0
    assert float(rows[0]["versus_pool_per_hand"]) != 0.0
    with pytest.raises(ValueError, match="scripted agents"):
        tiny(tmp_path, scripted_opponents=("genius",))
    with pytest.raises(ValueError, match="tables of one kind"):
        tiny(tmp_path, scripted_opponents=("equity",), table_mix="general")


def test_a_rule_seat_takes_selection_phase_turns_as_the_scripted_agents(
        tmp_path: Path) -> None:
    """In ``shopping`` a rule setting alone would pack at its first phase turn (its
    numbers say nothing about drawing); as a pool member it takes every phase turn as
    :class:`~agents.batch_phases.BatchPhases` does (look, then draw or keep), and bets by
    its numbers elsewhere. A league run in ``shopping`` seats such members."""
    from agents.batch_phases import BatchPhases
    from agents.rule_strategy import STYLES
    from teenpatti_env.environment.batched import TableBatch
    from teenpatti_env.rules import Rules
    from training.league_search import rule_actor

    rules = Rules.preset("classic", variant="shopping", num_players=4)
    seat = rule_actor(np.array(STYLES["loose"]), rules)
    batch = TableBatch(256, rules, seed=3)
    step = batch.reset()
    phases = BatchPhases(batch)
    names = batch.layout.names
    phase_turns = 0
    for _ in range(12):
        rows = np.flatnonzero(step.to_act >= 0)
        obs, masks = step.observations[rows], step.action_masks[rows]
        alone = seat(obs, masks)
        chosen = seat.at_tables(batch, rows, obs, masks)
        expected = phases.with_selections(rows, obs, masks.astype(np.int8), alone)
        assert np.array_equal(chosen, expected)
        assert masks[np.arange(len(rows)), chosen].all()
        in_phase = chosen != alone
        phase_turns += int(in_phase.sum())
        assert not any(names[a] == "pack" for a in chosen[in_phase])
        actions = np.zeros(batch.num_tables, np.int64)
        actions[rows] = chosen
        step = batch.step(actions)
    assert phase_turns > 100
    run = train_selfplay(tiny(tmp_path, variant="shopping", timesteps=1_500,
                              rule_opponents=("loose",), exploiter_table_share=0.5))
    assert run.decisions >= 1_500
