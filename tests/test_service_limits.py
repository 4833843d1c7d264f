"""BotService / parse_request (interfaces/service.py,
teenpatti_env/protocol/) and the match's use of table memories.

Each test was an adversarial review's reproducer of a defect, now fixed.
"""

from __future__ import annotations

import copy
import json
import threading
from pathlib import Path
from typing import Any

import pytest

from interfaces.match import run_match
from interfaces.server import make_server
from interfaces.service import BotService

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE: dict[str, Any] = json.loads((ROOT / "docs" / "examples" / "request.json").read_text())


def example(**top: Any) -> dict[str, Any]:
    message = copy.deepcopy(EXAMPLE)
    message.update(top)
    return message


@pytest.mark.parametrize("path", [("pot",), ("boot",), ("hands_played",), ("seats", 1, "stack"),
                                  ("seats", 2, "blind_bets")],
                         ids=["pot", "boot", "hands_played", "stack", "blind_bets"])
def test_huge_integers_are_a_bad_request_not_an_agent_error(path: tuple[Any, ...]) -> None:
    message = example(id="big")
    node = message["view"]
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = 10**400
    status, answer = BotService("equity").answer(json.dumps(message))
    assert status == 400, answer
    assert answer["error"]["code"] in ("invalid_request", "invalid_view")
    assert answer.get("id") == "big"


def test_unknown_fields_inside_chosen_are_an_error() -> None:
    message = example()
    message["view"]["chosen"] = {"evil": [1, {"deep": None}]}
    status, answer = BotService("equity").answer(json.dumps(message))
    assert status == 400, answer
    assert answer["error"]["code"] in ("invalid_request", "invalid_view")


def test_distinct_rules_in_requests_do_not_grow_memory_without_bound() -> None:
    from agents.odds import _rules_of

    service = BotService("equity")
    before = _rules_of.cache_info().currsize
    for number in range(3000):
        message = example()
        message["view"]["rules"]["max_hands"] = 10**9 + number
        status, answer = service.answer(json.dumps(message))
        assert status == 200, answer
    grown = _rules_of.cache_info().currsize - before
    assert grown < 1000, f"{grown} rules dicts kept after 3000 requests"


def test_the_same_match_twice_against_one_server_ends_the_same() -> None:
    server = make_server(BotService("equity"), port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        differing = []
        for seed in range(5):
            players = ["hard", "medium", server.url]
            first = run_match(players, hands=1, seed=seed, time_limit=10)
            second = run_match(players, hands=1, seed=seed, time_limit=10)
            if (first.net, first.decisions) != (second.net, second.decisions):
                differing.append((seed, first.net, second.net))
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)
    assert differing == []
