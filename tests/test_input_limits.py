"""Input that no table can use gets a clear ``ValueError`` (a one-line error and exit
status 2 on the command line), never a ``RecursionError``, ``KeyError``, ``TypeError`` or
an infinite observation: deeply nested data, the environment's bad arguments, and table
settings that leave no betting to play.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from teenpatti_env import Rules, raw_env, replay
from teenpatti_env.environment.actions import MAX_BET_LEVELS
from teenpatti_env.nesting import MAX_NESTING, check_nesting
from teenpatti_env.protocol import schema
from teenpatti_env.rules import MAX_TABLE_CHIPS
from teenpatti_env.rules.variants import load_variant

ROOT = Path(__file__).resolve().parents[1]
HISTORY: dict[str, Any] = {
    "format": "teenpatti-hand/1",
    "rules": {"preset": "classic"},
    "dealer": 0,
    "cards": [["As", "Kd", "2c"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"], ["2h", "2d", "Js"]],
    "actions": [{"seat": 1, "type": "bet", "amount": 1}, {"seat": 2, "type": "pack"}],
}
DEEP = 100_000  # far past Python's recursion limit


def nested_lists(depth: int, leaf: Any = 1) -> Any:
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def nested_tuples(depth: int) -> Any:
    value: Any = ()
    for _ in range(depth - 1):
        value = (value,)
    return value


def nested_dicts(depth: int, leaf: Any = 1) -> Any:
    value = leaf
    for _ in range(depth):
        value = {"k": value}
    return value


# --------------------------------------------------------------------------- nesting


def test_check_nesting_counts_levels() -> None:
    check_nesting(nested_lists(MAX_NESTING), "data")
    check_nesting(nested_dicts(MAX_NESTING), "data")
    for deep in (nested_lists(MAX_NESTING + 1), nested_dicts(MAX_NESTING + 1),
                 {nested_tuples(MAX_NESTING): 1}):  # a key nests too
        with pytest.raises(ValueError, match=f"data: nested more than {MAX_NESTING} levels"):
            check_nesting(deep, "data")


def test_a_container_holding_itself_is_refused() -> None:
    loop: list[Any] = []
    loop.append(loop)
    with pytest.raises(ValueError, match="nested more than"):
        check_nesting(loop, "data")


@pytest.mark.parametrize("field", ["rules", "dealer", "stacks", "cards", "actions",
                                   "community", "chosen"])
@pytest.mark.parametrize("make", [nested_lists, nested_dicts])
def test_replay_of_a_deeply_nested_history_is_a_value_error(field: str, make: Any) -> None:
    history = {**HISTORY, field: make(DEEP)}
    with pytest.raises(ValueError, match="a hand history: nested more than"):
        replay(history)


def test_replay_of_a_deeply_nested_action_is_a_value_error() -> None:
    history = {**HISTORY, "actions": [*HISTORY["actions"], {"seat": 3, "type": nested_lists(DEEP)}]}
    with pytest.raises(ValueError, match="nested more than"):
        replay(history)


@pytest.mark.parametrize("setting", ["boot", "variant", "dealers_choice", "preset"])
@pytest.mark.parametrize("make", [nested_lists, nested_dicts])
def test_rules_from_a_deeply_nested_dict_is_a_value_error(setting: str, make: Any) -> None:
    with pytest.raises(ValueError) as caught:
        Rules.from_dict({setting: make(DEEP)})
    assert len(str(caught.value)) < 300


def test_deep_nesting_inside_a_variant_spec_is_a_value_error() -> None:
    spec = {"name": "deep", "spec": {"wild": nested_lists(DEEP)}}
    with pytest.raises(ValueError, match="rules: nested more than"):
        Rules.from_dict({"variant": spec})
    with pytest.raises(ValueError, match="rules: nested more than"):
        Rules(dealers_choice=["classic", spec])


def test_real_rules_and_histories_are_far_from_the_limit() -> None:
    rules = Rules(dealers_choice=["classic", {"name": "mine", "spec": {
        "private_cards": 4, "phase": "discard_one", "wild": ["rotating_lowest"]}}])
    choice = {"seat": 0, "type": "choose_variant", "variant": "classic"}
    history = {**HISTORY, "rules": rules.to_dict(), "actions": [choice, *HISTORY["actions"]]}
    check_nesting(history, "a history", limit=8)
    assert replay(history)["pot"] == 5


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "teenpatti_env", *args], cwd=ROOT,
                          env=environment, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("depth", [DEEP, 500])  # past json's own limit; past ours only
def test_cli_replay_of_deeply_nested_json_is_one_line_and_status_2(
    tmp_path: Path, depth: int
) -> None:
    path = tmp_path / "deep.json"
    path.write_text(json.dumps({**HISTORY, "actions": nested_lists(depth)}) if depth < 900
                    else "[" * depth + "]" * depth)
    finished = _cli("replay", str(path))
    assert finished.returncode == 2, finished.stderr
    assert finished.stdout == ""
    lines = finished.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("teenpatti: ") and "deep" in lines[0]
    assert "Traceback" not in finished.stderr


@pytest.mark.parametrize("suffix", [".json", ".toml"])
def test_a_deeply_nested_variant_file_is_a_value_error(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"deep{suffix}"
    path.write_text("[" * DEEP + "]" * DEEP if suffix == ".json"
                    else "a = " + "[" * DEEP + "]" * DEEP + "\n")
    with pytest.raises(ValueError, match="nested too deeply"):
        load_variant(path, register=False)
    shallow = tmp_path / "shallow.json"
    shallow.write_text(json.dumps({"name": "deepish", "spec": {"wild": nested_lists(100)}}))
    with pytest.raises(ValueError, match="nested more than"):
        load_variant(shallow, register=False)


# --------------------------------------------------------------------------- environment


def play_out(env: raw_env) -> None:
    for _agent in env.agent_iter(max_iter=10_000):
        observation, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated
                 else int(np.flatnonzero(observation["action_mask"])[0]))
    assert env.agents == []


def test_step_after_the_last_agent_left_is_a_value_error() -> None:
    env = raw_env()
    env.reset(seed=0)
    play_out(env)
    result = env.hand.result() if env.hand is not None else None
    for step in (lambda: env.step(None), lambda: env.step(0),
                 lambda: env.step_action({"type": "pack"})):
        with pytest.raises(ValueError, match=r"episode is over.*reset"):
            step()
    assert env.hand is not None and env.hand.result() == result  # nothing changed
    env.reset(seed=1)  # and the environment plays on
    play_out(env)


@pytest.mark.parametrize("options", [[1, 2], "dealer", 3, ("dealer", 0)])
def test_reset_options_that_are_not_a_dict_are_a_value_error(options: Any) -> None:
    env = raw_env()
    env.reset(seed=0)
    before = env.observe(env.agent_selection)["observation"].copy()
    with pytest.raises(ValueError, match="reset options are a dict"):
        env.reset(seed=5, options=options)
    assert np.array_equal(env.observe(env.agent_selection)["observation"], before)
    env.reset(seed=5, options={"dealer": 0})
    assert env.hand is not None and env.hand.dealer == 0


def test_stacks_beyond_the_table_limit_are_a_value_error() -> None:
    with pytest.raises(ValueError, match="at most 1000000000000000"):
        raw_env(stacks=[10**40] * 4)
    env = raw_env()
    with pytest.raises(ValueError, match="chips in all"):
        env.reset(options={"stacks": [MAX_TABLE_CHIPS // 4 + 1] * 4})
    with pytest.raises(ValueError, match="starting stacks"):
        Rules(boot=10**13, starting_boots=100)


def test_stacks_at_the_table_limit_give_finite_observations() -> None:
    for episode in ("hand", "session"):
        env = raw_env(stacks=[MAX_TABLE_CHIPS // 4] * 4, episode=episode, max_hands=3)
        env.reset(seed=2)
        rng = np.random.default_rng(0)
        for agent in env.agent_iter(max_iter=2000):
            observation, _, terminated, truncated, _ = env.last()
            vector = observation["observation"]
            assert np.isfinite(vector).all()
            assert env.observation_space(agent)["observation"].contains(vector)
            mask = observation["action_mask"]
            env.step(None if terminated or truncated
                     else int(rng.choice(np.flatnonzero(mask))))


def test_the_table_limit_is_the_protocols_chip_bound() -> None:
    assert schema()["$defs"]["chips"]["maximum"] == MAX_TABLE_CHIPS


@pytest.mark.parametrize("levels", [10**6, MAX_BET_LEVELS + 1, 1, 0, 2.0, True])
def test_bet_levels_out_of_bounds_are_a_value_error(levels: Any) -> None:
    with pytest.raises(ValueError, match=f"bet_levels must be an int in 2..{MAX_BET_LEVELS}"):
        raw_env(bet_levels=levels)


def test_bet_levels_within_bounds_and_the_default_cap() -> None:
    assert raw_env(bet_levels=MAX_BET_LEVELS).layout.bet_levels == MAX_BET_LEVELS
    assert raw_env(raise_multiple=3).layout.bet_levels == 5
    assert raw_env(raise_multiple=1000).layout.bet_levels == MAX_BET_LEVELS


# --------------------------------------------------------------------------- settings


def test_a_max_bet_below_twice_the_boot_leaves_no_bet_to_make() -> None:
    """No blind bet (at most max_bet // 2 < boot = S) and no seen bet (at least 2S) is ever
    legal: seats look, pack, and the last two may show. Every hand still ends."""
    rules = Rules(boot=10, max_bet=19, num_players=4)
    env = raw_env(rules=rules, episode="session", max_hands=20)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    ends: set[str] = set()
    for _agent in env.agent_iter(max_iter=20_000):
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        info = env.view(env.agent_selection)
        kinds = {action["type"] for action in info["legal"]}
        assert kinds and not kinds & {"bet", "sideshow"}, kinds
        assert info["min_bet"] is None and info["max_bet"] is None
        hand = env.hand
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        if hand is not None and hand.over:
            ends.add(str(hand.end))
    assert env.session is not None and env.session.hands_played == 20
    assert sum(env.session.stacks) == 4 * rules.starting_stack
    assert ends <= {"last_player", "show"} and ends


def test_a_max_bet_of_twice_the_boot_allows_one_seen_bet() -> None:
    env = raw_env(rules=Rules(boot=10, max_bet=20))
    env.reset(seed=3)
    env.step(env.layout.index("look"))
    assert {"type": "bet", "min": 20, "max": 20} in env.view(env.agent_selection)["legal"]


@pytest.mark.parametrize("pot_cap", [1, 30, 40])
def test_a_pot_cap_the_boots_reach_shows_every_hand_at_the_deal(pot_cap: int) -> None:
    """RULES.md section 2: boots at or past the cap are shown at once (ties split)."""
    env = raw_env(rules=Rules(boot=10, pot_cap=pot_cap), episode="session", max_hands=5)
    env.reset(seed=4)
    assert all(env.terminations.values())  # five hands, each over before anyone acts
    session = env.session
    assert session is not None and session.hands_played == 5
    assert sum(session.stacks) == 4000
    hand = env.hand
    assert hand is not None and hand.end == "showdown"
    assert all(not hand.seen[seat] and not hand.packed[seat] for seat in range(4))
