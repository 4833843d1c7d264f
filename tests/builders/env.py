"""Shared helpers for the environment tests (tests/test_env.py, tests/test_single_agent.py).

Imported as a plain module: pytest puts tests/ on sys.path.
"""

from __future__ import annotations

import importlib
import json
import os
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from teenpatti_env import Rules
from teenpatti_env.cards import DECK, format_cards

PRESETS = ("classic", "pagat", "flash", "tabletop")
GOLDEN = sorted((Path(__file__).parent.parent / "golden").glob("*.json"))


def client(name: str) -> ModuleType:
    """Import the RL library ``name`` (an optional extra), or skip the test; under
    ``TEENPATTI_REQUIRE_CLIENTS=1`` (CI) a missing library fails it instead."""
    try:
        return importlib.import_module(name)
    except ImportError as error:
        if os.environ.get("TEENPATTI_REQUIRE_CLIENTS") == "1":
            pytest.fail(f"TEENPATTI_REQUIRE_CLIENTS=1 but {name} is missing: {error}",
                        pytrace=False)
        pytest.skip(f"{name} is not installed (pip install -e '.[clients,ray]')")


def pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random index among the set entries of ``mask``."""
    legal = np.flatnonzero(mask)
    assert legal.size, "an agent to act must have at least one legal action"
    return int(legal[int(rng.integers(legal.size))])


def live(env: Any, agent: str) -> bool:
    """Whether ``agent`` is still playing (not terminated or truncated)."""
    return not (env.terminations[agent] or env.truncations[agent])


def random_deal(rules: Rules, rng: np.random.Generator, fixed: dict[int, list[str]] | None = None):
    """Three distinct cards for every seat as text; ``fixed`` seats keep the cards given."""
    fixed = fixed or {}
    used = {card for cards in fixed.values() for card in cards}
    free = [card for card in format_cards(DECK) if card not in used]
    order = rng.permutation(len(free))
    deal: list[list[str]] = []
    at = 0
    for seat in range(rules.num_players):
        if seat in fixed:
            deal.append(list(fixed[seat]))
        else:
            deal.append([free[i] for i in order[at : at + 3]])
            at += 3
    return deal


def jsonable(value: Any) -> Any:
    """``value`` after a JSON round trip (raises if it is not JSON-serializable)."""
    return json.loads(json.dumps(value))


def golden_cases() -> list[tuple[str, dict[str, Any]]]:
    return [(path.stem, json.loads(path.read_text())) for path in GOLDEN]


def same_view(a: Any, b: Any, agent: str, where: str) -> None:
    """Two raw envs show ``agent`` the same observation, mask, info and events."""
    oa, ob = a.observe(agent), b.observe(agent)
    np.testing.assert_array_equal(oa["observation"], ob["observation"], err_msg=where)
    np.testing.assert_array_equal(oa["action_mask"], ob["action_mask"], err_msg=where)
    ia, ib = a.view(agent), b.view(agent)
    assert json.dumps(ia, sort_keys=True) == json.dumps(ib, sort_keys=True), where
    assert a.events(agent) == b.events(agent), where


def decisions(env: Any, max_iter: int = 2**63) -> Any:
    """The AEC loop: yields ``(agent, observation, view)`` for every live decision (the
    caller then steps); terminated agents are stepped with ``None`` here."""
    for agent in env.agent_iter(max_iter=max_iter):
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        yield agent, observation, env.unwrapped.view(agent)
