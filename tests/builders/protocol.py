"""Builders for the bot-protocol tests: requests from real views, schema validators, a
base request to mutate."""

from __future__ import annotations

import copy
import json
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from jsonschema import Draft202012Validator

from builders.env import jsonable
from teenpatti_env import Rules, raw_env
from teenpatti_env.protocol import Request, decision_inputs, make_request, parse_request, schema

ROOT = Path(__file__).resolve().parent.parent.parent
CHOICES = ["ak47", "open_joker", "colour_jokers", "shopping", "buy_a_joker", "muflis",
           "passing_cards", "joker_thresholds", "rotating_jokers", "discard_one",
           "two_burst", "four_card"]
CLASSIC = Rules.preset("classic")


# --------------------------------------------------------------------------- helpers


def play(
    rules: Rules, episode: str, episodes: int, seed: int, max_hands: int | None = None,
    stacks: list[int] | None = None,
) -> Iterator[tuple[raw_env, str, dict[str, Any], dict[str, Any]]]:
    """Random legal play: yields ``(env, agent, observation, info)`` at every live
    decision, then steps the env with a random legal index."""
    if episode == "session" and max_hands is not None:
        rules = rules.replace(max_hands=max_hands)
    env = raw_env(rules=rules, episode=episode, stacks=stacks)
    rng = np.random.default_rng(seed)
    for _ in range(episodes):
        env.reset(seed=int(rng.integers(2**31)))
        for agent in env.agent_iter(max_iter=100_000):
            observation, _, terminated, truncated, _ = env.last()
            info = env.unwrapped.view(agent)
            if terminated or truncated:
                env.step(None)
                continue
            yield env, agent, observation, info
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def seed_of(name: str) -> int:
    return zlib.crc32(name.encode())


def without_seat(action: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in action.items() if k != "seat"}


def check_decision(env: raw_env, agent: str, observation: dict[str, Any],
                   info: dict[str, Any], check_others: bool) -> None:
    """The protocol's reading of ``agent``'s JSON view equals the environment's."""
    view = jsonable(env.view(agent))
    assert view == jsonable(info)
    vector, mask, bot_info = decision_inputs(view)
    assert vector.dtype == np.float32 and mask.dtype == np.int8
    assert np.array_equal(vector, observation["observation"])
    assert np.array_equal(mask, observation["action_mask"])
    assert bot_info["legal_actions"] == info["legal_actions"]
    assert bot_info == jsonable(info)

    request = parse_request(json.dumps(make_request(view, id=7, table="t", hand=3)))
    assert isinstance(request, Request)
    assert request.view == view and request.seat == env.agent_name_mapping[agent]
    assert (request.id, request.table, request.hand) == (7, "t", 3)
    assert request.rules == env.rules
    vector2, mask2, _ = request.decision()
    assert np.array_equal(vector2, vector) and np.array_equal(mask2, mask)
    for index in np.flatnonzero(mask):
        index = int(index)
        assert request.action_of(index) == without_seat(env.action_to_engine(agent, index))
        assert request.action_name(index) == env.action_meanings[index]
    for illegal in np.flatnonzero(mask == 0)[:3]:
        with pytest.raises(ValueError):
            request.action_of(int(illegal))

    if check_others:  # a seat not to act reads its own view the same way
        for other in env.agents:
            if other == agent:
                continue
            other_view = jsonable(env.view(other))
            other_vector, other_mask, _ = decision_inputs(other_view)
            assert np.array_equal(other_vector, env.observe(other)["observation"]), other
            assert not other_mask.any()


def _validator(part: str | None) -> Draft202012Validator:
    document = copy.deepcopy(schema())
    if part is not None:
        document.pop("oneOf")
        document["$ref"] = f"#/$defs/{part}"
    return Draft202012Validator(document)


def base_request() -> dict[str, Any]:
    """A classic four-seat request of a seat that has looked and may bet (cards known)."""
    env = raw_env()
    env.reset(seed=3)
    env.step(env.action_meanings.index("look"))
    view = env.view(env.agent_selection)
    assert view["cards"] and view["seat"] == 0 and view["dealer"] == 3
    assert [a["type"] for a in view["legal"]] == ["pack", "bet"]
    return make_request(view, id=1)
