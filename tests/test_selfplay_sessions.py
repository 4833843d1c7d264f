"""Self-play on sessions (``teenpatti selfplay --episode session``, docs/selfplay.md
"Training on sessions"): each hand's result is credited at that hand's end, the episode
ends at the session's end, the learner plays short and uneven stacks, the run is
reproducible and its policy says it was trained on sessions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("numba")

from agents.policy import read_policy
from interfaces.cli import main
from training.config import SelfPlayConfig
from training.selfplay import Learner, configure_torch, new_model, train_selfplay
from training.selfplay_rollout import run_tables

TINY: dict[str, Any] = {
    "players": 4, "timesteps": 2_000, "tables": 32, "rollout_steps": 32,
    "minibatch_size": 512, "progress": False, "threads": 1, "snapshot_every": 1_000,
    "exploiter_every": 0, "uniform_table_share": 0.0,
}


def session_config(tmp_path: Path, **overrides: Any) -> SelfPlayConfig:
    """A tiny run at four classic seats on sessions of at most 6 hands."""
    settings = {**TINY, "episode": "session", "max_hands": 6, "out": str(tmp_path / "run"),
                **overrides}
    return SelfPlayConfig(**settings)


def replayed_rollout(config: SelfPlayConfig) -> tuple[Learner, list[dict[str, Any]]]:
    """One rollout of ``config`` at six tables, with what every engine step showed: the
    stacks each hand was dealt with before the step, and the step's rewards, finished
    tables and hands played after it."""
    device = configure_torch(config)
    batch = run_tables(config, seed=3)
    events: list[dict[str, Any]] = []
    step = batch.step

    def recording_step(actions: Any) -> Any:
        before = batch.hand_stacks.copy()
        result = step(actions)
        events.append({"stacks": before, "finished": result.finished.copy(),
                       "rewards": result.rewards.copy(),
                       "hands_played": batch.hands_played.copy()})
        return result

    batch.step = recording_step  # type: ignore[method-assign]
    learner = Learner(new_model(config, config.rules).to(device), batch, config, device, 3)
    learner.collect()
    return learner, events


def test_each_hand_is_credited_at_its_end_and_the_session_ends_the_episode(
        tmp_path: Path) -> None:
    """Replays a session rollout: every hand's net of each seat is added to that seat's
    last decision so far in the session; a seat's decisions link across the hands of its
    session; only the session's end marks a decision done."""
    config = session_config(tmp_path, tables=6, rollout_steps=150, reward_scale=0.5)
    learner, events = replayed_rollout(config)
    rollout = learner.rollout
    bounds = [*rollout.step_starts, rollout.size]
    last: dict[tuple[int, int], int] = {}
    expected = np.zeros(rollout.size, np.float64)
    done = np.zeros(rollout.size, np.bool_)
    hand_of = np.zeros(rollout.size, np.int64)  # the hand of its session it was taken in
    hands_in_session = np.zeros(config.tables, np.int64)
    sessions = hand_ends = 0
    for k, event in enumerate(events):
        rows = slice(bounds[k], bounds[k + 1])
        hand_of[rows] = hands_in_session[rollout.tables[rows]]
        for i in range(bounds[k], bounds[k + 1]):
            key = (int(rollout.tables[i]), int(rollout.seats[i]))
            if key in last:
                assert rollout.following[last[key]] == i
            last[key] = i
        for table in np.flatnonzero(event["rewards"].any(axis=1)):
            hand_ends += 1
            for (t, seat), i in last.items():
                if t == table:
                    expected[i] += event["rewards"][t, seat] * 0.5
        hands_in_session = event["hands_played"]
        for table in np.flatnonzero(event["finished"]):
            sessions += 1
            for (t, seat), i in list(last.items()):
                if t == table:
                    done[i] = True
                    del last[(t, seat)]
    following = rollout.following[:rollout.size]
    linked = np.flatnonzero(following >= 0)
    links_across_hands = int((hand_of[following[linked]] != hand_of[linked]).sum())
    assert sessions >= 3 and hand_ends >= 3 * sessions  # sessions of several hands ended
    assert links_across_hands > 10  # a seat's decisions chain from hand to hand
    assert rollout.rewards[:rollout.size] == pytest.approx(expected.astype(np.float32))
    assert np.array_equal(rollout.done[:rollout.size], done)
    for i in last.values():  # sessions still running at the rollout's end
        assert rollout.following[i] == -1 and not rollout.done[i]


def decision_stacks(config: SelfPlayConfig) -> np.ndarray:
    """The stack, in boots, each learner decision's seat was dealt its hand with."""
    learner, events = replayed_rollout(config)
    rollout = learner.rollout
    bounds = [*rollout.step_starts, rollout.size]
    stacks = np.zeros(rollout.size, np.int64)
    for k, event in enumerate(events):
        rows = slice(bounds[k], bounds[k + 1])
        stacks[rows] = event["stacks"][rollout.tables[rows], rollout.seats[rows]]
    return stacks // config.rules.boot


def test_sessions_put_the_learner_at_short_and_uneven_stacks(tmp_path: Path) -> None:
    """In a session rollout many decisions are taken at stacks other than the starting
    100 boots, short ones among them; in one-hand episodes none are."""
    session = decision_stacks(session_config(tmp_path, tables=6, rollout_steps=150))
    start = SelfPlayConfig().rules.starting_boots
    assert (session != start).mean() > 0.3
    assert (session < start // 2).any() and (session > start).any()
    hand = decision_stacks(SelfPlayConfig(**{**TINY, "tables": 6, "rollout_steps": 150,
                                             "out": str(tmp_path / "hand")}))
    assert (hand == start).all()


def test_a_session_run_is_reproducible_and_its_policy_says_sessions(tmp_path: Path) -> None:
    first = train_selfplay(session_config(tmp_path / "a"))
    second = train_selfplay(session_config(tmp_path / "b"))
    assert first.updates > 1 and first.decisions == second.decisions
    for a, b in zip([*first.policy.weights, *first.policy.biases],
                    [*second.policy.weights, *second.policy.biases], strict=True):
        assert np.array_equal(a, b)
    metadata = read_policy(tmp_path / "a" / "run" / "policy.npz").metadata
    assert metadata["episode"] == "session"
    assert metadata["rules"]["max_hands"] == 6
    hand = train_selfplay(SelfPlayConfig(**{**TINY, "out": str(tmp_path / "hand")}))
    assert hand.policy.metadata["episode"] == "hand"
    assert any(not np.array_equal(a, b)
               for a, b in zip(first.policy.weights, hand.policy.weights, strict=True))


def test_the_command_line_trains_on_sessions_and_refuses_bad_settings(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli"
    code = main(["selfplay", "--players", "4", "--episode", "session", "--max-hands", "5",
                 "--timesteps", "1000", "--tables", "32", "--rollout-steps", "32",
                 "--minibatch-size", "512", "--threads", "1", "--exploiter-every", "0",
                 "--out", str(out), "--quiet"])
    assert code == 0
    capsys.readouterr()
    assert "--episode session --max-hands 5" in json.loads(
        (out / "run.json").read_text())["command"]
    assert read_policy(out / "policy.npz").metadata["episode"] == "session"
    for argv, words in [
        (["--max-hands", "5"], "max_hands limits the sessions of episode session"),
        (["--episode", "session", "--table-mix", "general"], "table_mix general trains"),
        (["--episode", "session", "--max-hands", "0"], "max_hands must be a positive int"),
    ]:
        assert main(["selfplay", *argv, "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert words in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    with pytest.raises(SystemExit):
        main(["selfplay", "--episode", "evening", "--out", str(out)])
