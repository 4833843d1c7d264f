"""The bot server (interfaces/server.py, interfaces/service.py) over real HTTP.

* A trained policy served over HTTP plays exactly as the same policy in-process.
* Scripted agents keep their memory per table, seat and hand as at a local table.
* Bad input of every kind gets its HTTP status and error code and never takes the server
  down.

The HTTP client is the standard library's (``http.client``, ``urllib``, ``socket``)."""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request
from typing import Any

import numpy as np
import pytest
from builders.bot_http import (
    CLASSIC,
    TIMEOUT,
    act,
    assert_healthy,
    call,
    decisions,
    raw,
    valid_request,
    without_seat,
)

from agents import make_agent
from interfaces.server import BotServer
from interfaces.service import BotService
from teenpatti_env import raw_env
from teenpatti_env.protocol import MAX_MESSAGE_BYTES, PROTOCOL, make_request, schema

# --------------------------------------------------------------------------- same play


def test_trained_policy_over_http_plays_as_in_process(policy_server: BotServer) -> None:
    """120 four-seat hands where every seat is the trained policy: at every decision the
    HTTP answer equals the in-process action, and the env is driven by the HTTP answers."""
    env = raw_env(rules=CLASSIC)
    local = make_agent("pretrained:classic", seed=0)
    count = 0
    kinds: set[str] = set()
    for hand in range(120):
        env.reset(seed=hand)
        for agent, observation, info in decisions(env):
            index = local.act(observation["observation"], observation["action_mask"], info)
            expected = without_seat(env.action_to_engine(agent, index))
            status, answer = act(policy_server, make_request(env.view(agent), id=count))
            assert status == 200, answer
            assert answer == {"protocol": PROTOCOL, "id": count, "action": expected,
                              "name": env.action_meanings[index]}
            env.step_action(answer["action"])
            kinds.add(expected["type"])
            count += 1
        assert env.hand.over and sum(env.hand.net) == 0
    assert count > 500
    assert {"look", "bet", "pack"} <= kinds


def test_scripted_agent_with_memory_plays_as_at_a_local_table(equity_server: BotServer) -> None:
    """``equity`` reads the bets made after looks: with ``table`` and ``hand`` the served
    agent remembers as a local agent reset at each hand does; without ``table`` it is a
    fresh agent at every request."""
    env = raw_env(rules=CLASSIC)
    local = {agent: make_agent("equity") for agent in env.possible_agents}
    remembered = 0
    count = 0
    for hand in range(40):
        env.reset(seed=1000 + hand)
        for agent in local.values():
            agent.reset()
        for agent, observation, info in decisions(env):
            index = local[agent].act(observation["observation"], observation["action_mask"],
                                     info)
            expected = without_seat(env.action_to_engine(agent, index))
            view = env.view(agent)
            status, answer = act(equity_server, make_request(view, id=count, table="memory",
                                                             hand=f"h{hand}"))
            assert status == 200 and answer["id"] == count, answer
            assert answer["action"] == expected
            fresh = make_agent("equity")
            fresh_index = fresh.act(observation["observation"], observation["action_mask"],
                                    info)
            fresh_action = without_seat(env.action_to_engine(agent, fresh_index))
            status, memoryless = act(equity_server, make_request(view))
            assert (status, memoryless["action"]) == (200, fresh_action)
            if count % 3 == 0:  # a table without a hand: memory starts afresh every time
                status, no_hand = act(equity_server, make_request(view, table="no-hand"))
                assert (status, no_hand["action"]) == (200, fresh_action)
            remembered += fresh_index != index
            env.step_action(answer["action"])
            count += 1
    assert remembered > 0  # memory changed some decisions, so it was really kept


def test_table_agents_are_seeded_per_table_and_seat() -> None:
    """A seeded agent (``random``) at a table keeps its generator across requests and
    hands; each table and seat has its own, as ``_seed_for`` says."""
    service, twin = BotService("random", seed=5), BotService("random", seed=5)
    env = raw_env(rules=CLASSIC)
    tables = ("north", "south")
    local = {(table, seat): make_agent("random", seed=service._seed_for(table, seat))
             for table in tables for seat in range(4)}
    assert len({service._seed_for(t, s) for t, s in local}) == len(local)
    rng = np.random.default_rng(0)
    for hand in range(6):
        env.reset(seed=hand)
        for agent, observation, info in decisions(env):
            seat = env.agent_name_mapping[agent]
            view = env.view(agent)
            for table in tables:
                index = local[(table, seat)].act(observation["observation"],
                                                 observation["action_mask"], info)
                expected = without_seat(env.action_to_engine(agent, index))
                text = json.dumps(make_request(view, table=table, hand=hand))
                assert service.answer(text) == twin.answer(text) == (
                    200, {"protocol": PROTOCOL, "action": expected,
                          "name": env.action_meanings[index]})
            fresh = make_agent("random", seed=5).act(observation["observation"],
                                                     observation["action_mask"], info)
            status, answer = service.answer(json.dumps(make_request(view)))
            assert status == 200
            assert answer["action"] == without_seat(env.action_to_engine(agent, fresh))
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


# --------------------------------------------------------------------------- bad input


def _mutated(change: Any) -> dict[str, Any]:
    message = valid_request(3)
    change(message)
    return message


def _too_large() -> bytes:
    text = json.dumps(valid_request(3))
    return (text + " " * (MAX_MESSAGE_BYTES + 1000 - len(text))).encode()


BAD_BODIES: list[tuple[str, bytes | dict[str, Any] | list[Any], int, str]] = [
    ("malformed JSON", b'{"protocol": "teenpatti-bot/1", "view": ', 400, "malformed_json"),
    ("not UTF-8", b'{"protocol": "\xff"}', 400, "malformed_json"),
    ("empty body", b"", 400, "malformed_json"),
    ("protocol 2", _mutated(lambda m: m.update(protocol="teenpatti-bot/2")), 400,
     "unsupported_protocol"),
    ("no protocol", _mutated(lambda m: m.pop("protocol")), 400, "unsupported_protocol"),
    ("unknown top-level field", _mutated(lambda m: m.update(colour="red")), 400,
     "invalid_request"),
    ("unknown view field", _mutated(lambda m: m["view"].update(colour="red")), 400,
     "invalid_request"),
    ("unknown seat field", _mutated(lambda m: m["view"]["seats"][0].update(colour="red")), 400,
     "invalid_request"),
    ("seat 9", _mutated(lambda m: m["view"].update(seat=9)), 400, "invalid_request"),
    ("seat 5 of 4", _mutated(lambda m: m["view"].update(seat=5)), 400, "invalid_view"),
    ("dealer 4 of 4", _mutated(lambda m: m["view"].update(dealer=4)), 400, "invalid_view"),
    ("three seats", _mutated(lambda m: m["view"]["seats"].pop()), 400, "invalid_view"),
    ("no legal action", _mutated(lambda m: m["view"].update(legal=[])), 400,
     "invalid_request"),
    ("no legal action of this table", _mutated(lambda m: m["view"].update(
        legal=[{"type": "vote_end"}])), 400, "invalid_view"),
    ("an array", [valid_request(3)], 400, "invalid_request"),
    ("a JSON string", b"\"hello\"", 400, "invalid_request"),
    ("a JSON number", b"42", 400, "invalid_request"),
    ("too large", _too_large(), 413, "too_large"),
]


@pytest.mark.parametrize(("body", "status", "code"), [case[1:] for case in BAD_BODIES],
                         ids=[case[0] for case in BAD_BODIES])
def test_bad_requests_get_their_status_and_code(
    policy_server: BotServer, body: Any, status: int, code: str
) -> None:
    got, answer = act(policy_server, body)
    assert (got, answer["error"]["code"]) == (status, code), answer
    assert answer["protocol"] == PROTOCOL and answer["error"]["message"]
    assert set(answer) <= {"protocol", "id", "error"}
    assert_healthy(policy_server)


RAW_REQUESTS: list[tuple[str, bytes, int | None, str | None]] = [
    ("no Content-Length", b"POST /v1/act HTTP/1.1\r\nHost: x\r\n\r\n", 400, "malformed_json"),
    ("bad Content-Length", b"POST /v1/act HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n",
     400, "invalid_request"),
    ("negative Content-Length",
     b"POST /v1/act HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n", 400, "invalid_request"),
    ("chunked", b"POST /v1/act HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
     b"5\r\nhello\r\n0\r\n\r\n", 400, "invalid_request"),
    # the server answers at once, without waiting for a body it will not read
    ("Content-Length above the limit, no body",
     b"POST /v1/act HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % (MAX_MESSAGE_BYTES + 1),
     413, "too_large"),
    ("Content-Length of a gigabyte", b"POST /v1/act HTTP/1.1\r\nHost: x\r\n"
     b"Content-Length: 1000000000\r\n\r\n{", 413, "too_large"),
    ("games: Content-Length above the limit",
     b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999\r\n\r\n", 413,
     "too_large"),
    # http.server refuses these itself, answered in JSON too (the first two as HTTP/0.9:
    # no status line)
    ("garbage request line", b"\x00\xff\xfe garbage\r\n\r\n", None, "invalid_request"),
    ("HTTP/2 preface", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", None, "invalid_request"),
    ("PATCH", b"PATCH /v1/act HTTP/1.1\r\nHost: x\r\n\r\n", 405, "method_not_allowed"),
    ("unknown method", b"BREW /v1/act HTTP/1.1\r\nHost: x\r\n\r\n", 405,
     "method_not_allowed"),
    ("request line too long", b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\n\r\n", 414,
     "too_large"),
]


@pytest.mark.parametrize(("data", "status", "code"), [case[1:] for case in RAW_REQUESTS],
                         ids=[case[0] for case in RAW_REQUESTS])
def test_bad_http_gets_its_status(
    policy_server: BotServer, data: bytes, status: int | None, code: str | None
) -> None:
    began = time.monotonic()
    got, body = raw(policy_server, data)
    assert time.monotonic() - began < 10  # answered, not left waiting for a body
    assert got == status, body
    if status is None:
        assert code is not None and json.loads(body)["error"]["code"] == code
    elif code is not None:
        answer = json.loads(body)
        assert answer["error"]["code"] == code
    assert_healthy(policy_server)


@pytest.mark.parametrize(("method", "path", "status", "code"), [
    ("GET", "/v1/act", 405, "method_not_allowed"),
    ("PUT", "/v1/act", 405, "method_not_allowed"),
    ("DELETE", "/v1/act", 405, "method_not_allowed"),
    ("POST", "/v1", 405, "method_not_allowed"),
    ("POST", "/v1/schema", 405, "method_not_allowed"),
    ("GET", "/v1/games", 405, "method_not_allowed"),
    ("DELETE", "/v1/games/0123456789abcdef", 405, "method_not_allowed"),
    ("GET", "/nope", 404, "not_found"),
    ("POST", "/v1/act/", 404, "not_found"),
    ("POST", "/v2/act", 404, "not_found"),
    ("GET", "/static/missing.js", 404, "not_found"),
    ("GET", "/static/../server.py", 404, "not_found"),
    ("GET", "/static/%2e%2e/server.py", 404, "not_found"),
    ("GET", "/v1/games/0123456789abcdef", 404, "not_found"),
    ("POST", "/v1/games/0123456789abcdef/act", 404, "not_found"),
    ("GET", "/v1/games/not-a-game", 404, "not_found"),
])
def test_wrong_methods_and_paths(
    policy_server: BotServer, method: str, path: str, status: int, code: str
) -> None:
    body = json.dumps({"action": {"type": "pack"}}) if method == "POST" else None
    got, headers, answer = call(policy_server, method, path, body)
    assert (got, answer["error"]["code"]) == (status, code), answer
    assert headers["content-type"] == "application/json"
    assert_healthy(policy_server)


def test_raw_sockets_that_misbehave_do_not_stop_the_server(policy_server: BotServer) -> None:
    host, port = policy_server.server_address[:2]
    for data in (b"", b"\x00\xff garbage bytes", b"POST /v1/act HTT",
                 b"POST /v1/act HTTP/1.1\r\nContent-Length: 100\r\n\r\n{\"proto",
                 b"GET / HTTP/1.1\r\nHost: x\r\n"):
        with socket.create_connection((host, port), timeout=TIMEOUT) as sock:
            sock.sendall(data)
        # closed at once, answer unread
    # a client that stops mid-request holds only its own thread
    with socket.create_connection((host, port), timeout=TIMEOUT) as slow:
        slow.sendall(b"POST /v1/act HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n{")
        began = time.monotonic()
        assert_healthy(policy_server)
        assert time.monotonic() - began < 5
    assert_healthy(policy_server)


def test_what_is_served(policy_server: BotServer) -> None:
    status, headers, about = call(policy_server, "GET", "/v1")
    assert status == 200 and about["protocol"] == PROTOCOL
    assert about["agent"] == "pretrained:classic" and about["act"] == "/v1/act"
    assert about["bots"][0] == "pretrained:classic" and "equity" in about["bots"]
    status, _, served = call(policy_server, "GET", "/v1/schema")
    assert status == 200 and served == schema()
    status, headers, body = call(policy_server, "HEAD", "/v1")
    assert status == 200 and body == b"" and int(headers["content-length"]) > 0
    with urllib.request.urlopen(policy_server.url + "/", timeout=TIMEOUT) as page:
        assert page.status == 200 and page.headers["Content-Type"].startswith("text/html")
        assert b"<html" in page.read().lower()
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(policy_server.url + "/v1/act", timeout=TIMEOUT)
    assert caught.value.code == 405
    assert json.loads(caught.value.read())["error"]["code"] == "method_not_allowed"
