"""Cases found by review: each once went wrong in the environment or its single-agent view."""

from __future__ import annotations

import contextlib
import copy
import io
import pickle
from typing import Any

import gymnasium
import numpy as np
import pytest

from teenpatti_env import TeenPattiEnv, env, raw_env

DEAL = [["As", "Kd", "2c"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"], ["2h", "2d", "Js"]]


def _engine_mask(raw: raw_env, agent: str) -> list[int]:
    assert raw.hand is not None
    return [int(raw.hand.is_legal(raw.action_to_engine(agent, i))) for i in range(raw.layout.size)]


def test_a_dead_step_does_not_leave_a_stale_empty_mask() -> None:
    raw = raw_env(num_players=3, episode="session", stacks=[1, 100, 100])
    deal = [["2c", "3d", "5h"], ["As", "Ad", "Ah"], ["Ks", "Kd", "Kh"]]
    raw.reset(seed=0, options={"dealer": 0, "cards": deal})
    raw.step(raw.layout.index("pack"))  # showdown; seat 0 loses its only chip and leaves
    assert raw.terminations["player_0"] and raw.agent_selection == "player_0"
    raw.observe("player_2")  # read while the leaving seat is selected
    raw.view("player_2")
    raw.step(None)
    agent = raw.agent_selection
    mask = raw.observe(agent)["action_mask"]
    assert mask.any() and mask.tolist() == _engine_mask(raw, agent)
    assert raw.view(agent)["legal_actions"]


def test_after_an_illegal_move_ends_the_episode_nobody_has_legal_actions() -> None:
    wrapped = env()
    wrapped.reset(seed=0, options={"cards": DEAL, "dealer": 0})
    mask = wrapped.observe("player_1")["action_mask"]
    wrapped.step(int(np.flatnonzero(mask == 0)[0]))
    raw = wrapped.unwrapped
    for agent in raw.agents:
        assert not raw.action_mask(agent).any()
        assert raw.view(agent)["legal"] == []


def test_the_single_agent_view_rejects_a_learner_that_gets_no_decision() -> None:
    with pytest.raises(ValueError, match="not dealt in"):
        TeenPattiEnv(stacks=[100, 100, 0, 100], learner_seat=2).reset(seed=0)
    with pytest.raises(ValueError, match="no decision"):  # all-in from the boot, every deal
        TeenPattiEnv(stacks=[1, 100, 100, 100], learner_seat=0).reset(seed=0)


def test_a_random_learner_seat_is_not_the_dealer_by_construction() -> None:
    single = TeenPattiEnv(learner_seat="random")
    same = 0
    for seed in range(200):
        single.reset(seed=seed)
        assert single.game.hand is not None
        same += single.game.hand.dealer == single.learner
    assert same < 100  # about 50 expected for independent draws among four seats


def test_a_short_session_that_ends_before_the_learner_acts_is_dealt_again() -> None:
    single = gymnasium.make("TeenPatti-v0", num_players=3, episode="session", max_hands=1)
    redealt = 0
    for seed in range(400):
        _, info = single.reset(seed=seed)
        redealt += info["redealt"]
        assert single.unwrapped.action_masks().any()
    assert redealt > 0


def test_reset_rejects_stacks_of_the_wrong_length_and_keeps_its_state() -> None:
    raw = raw_env()
    raw.reset(seed=2)
    before = raw.hand.to_dict() if raw.hand else None
    for stacks in ([100] * 5, [100] * 3):
        with pytest.raises(ValueError, match="stacks"):
            raw.reset(options={"stacks": stacks, "dealer": 0})
        assert raw.hand is not None and raw.hand.to_dict() == before


def test_a_failed_reset_draws_nothing_from_the_generator() -> None:
    def trajectory(fail: bool) -> list[dict[str, object]]:
        raw = raw_env()
        raw.reset(seed=5)
        if fail:
            with pytest.raises(ValueError):
                raw.reset(options={"cards": [["As", "As", "2c"]] * 4})
        raw.reset()
        assert raw.hand is not None
        return raw.hand.to_dict()

    assert trajectory(True) == trajectory(False)


def test_the_single_agent_view_takes_a_0d_array_and_refuses_a_bool() -> None:
    single = TeenPattiEnv()
    single.reset(seed=0)
    legal = int(np.flatnonzero(single.action_masks())[0])
    single.step(np.array(legal))
    single.reset(seed=0)
    with pytest.raises(ValueError, match="action must be an int"):
        single.step(True)


def test_human_rendering_prints_once_per_step() -> None:
    first_legal = lambda obs, mask: int(np.flatnonzero(mask)[0])  # noqa: E731
    single = TeenPattiEnv(render_mode="human", opponents=first_legal)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        single.reset(seed=0)
        single.step(int(np.flatnonzero(single.action_masks())[0]))
    tables = [line for line in out.getvalue().splitlines() if line.startswith("pot ")]
    assert len(tables) == 2


def test_nobody_is_shown_a_bet_while_a_sideshow_waits() -> None:
    raw = raw_env(num_players=4)
    raw.reset(options={"cards": DEAL, "dealer": 0})
    index = raw.layout.index
    for name in ("look", "bet_min", "look", "sideshow"):
        raw.step(index(name))
    assert raw.hand is not None and raw.hand.pending_sideshow == (2, 1)
    for agent in raw.agents:
        info = raw.view(agent)
        assert info["min_bet"] is None and info["max_bet"] is None
        vector = raw.observe(agent)["observation"]
        assert vector[2] == 0 and vector[3] == 0  # the min_bet and max_bet slots


@pytest.mark.parametrize("make", [raw_env, env])
@pytest.mark.parametrize("clone", [copy.deepcopy, lambda game: pickle.loads(pickle.dumps(game))])
def test_a_copied_environment_plays_on_exactly_like_the_original(make: Any, clone: Any) -> None:
    original = make()
    original.reset(seed=1)
    original.step(original.unwrapped.layout.index("look"))
    copied = clone(original)

    def play(game: Any) -> list[tuple[str, float, bytes, Any]]:
        rng = np.random.default_rng(0)
        seen = []
        for agent in game.agent_iter():
            observation, reward, terminated, truncated, _ = game.last()
            info = game.unwrapped.view(agent)
            seen.append((agent, reward, observation["observation"].tobytes(), info["pot"]))
            mask = observation["action_mask"]
            done = terminated or truncated
            game.step(None if done else int(rng.choice(np.flatnonzero(mask))))
        return seen

    assert play(copied) == play(original)
