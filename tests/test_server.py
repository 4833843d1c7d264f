"""The bot server (interfaces/server.py, interfaces/service.py) over real HTTP.

* A trained policy served over HTTP plays exactly as the same policy in-process.
* Scripted agents keep their memory per table, seat and hand as at a local table.
* Bad input of every kind gets its HTTP status and error code and never takes the server
  down; the web table refuses illegal actions without changing the game.
* Many threads at once get exactly their own answers; web games played concurrently end
  with the chips conserved.
* JSON lines over stdio, in-process and through ``teenpatti serve --stdio``.

The HTTP client is the standard library's (``http.client``, ``urllib``, ``socket``).
"""

from __future__ import annotations

import http.client
import io
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agents import make_agent
from interfaces.server import BotServer, make_server, serve_stdio
from interfaces.service import BotService
from teenpatti_env import Rules, raw_env
from teenpatti_env.protocol import (
    MAX_MESSAGE_BYTES,
    PROTOCOL,
    make_request,
    parse_request,
    parse_response,
    schema,
)

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = Rules.preset("classic")
TIMEOUT = 30


# --------------------------------------------------------------------------- helpers


def start(service: BotService) -> tuple[BotServer, threading.Thread]:
    server = make_server(service, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server, thread


def stop(server: BotServer, thread: threading.Thread) -> None:
    server.shutdown()
    server.server_close()
    thread.join(TIMEOUT)
    assert not thread.is_alive()


@pytest.fixture(scope="module")
def policy_server() -> Iterator[BotServer]:
    """``pretrained:classic`` (deterministic: the most likely legal action)."""
    server, thread = start(BotService("pretrained:classic"))
    yield server
    stop(server, thread)


@pytest.fixture(scope="module")
def equity_server() -> Iterator[BotServer]:
    server, thread = start(BotService("equity"))
    yield server
    stop(server, thread)


def call(server: BotServer, method: str, path: str, body: Any = None,
         headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], Any]:
    """``(status, headers, JSON body or raw bytes)`` of one request."""
    host, port = server.server_address[:2]
    connection = http.client.HTTPConnection(host, port, timeout=TIMEOUT)
    if body is not None and not isinstance(body, (bytes, str)):
        body = json.dumps(body)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        data = response.read()
        found = {k.lower(): v for k, v in response.getheaders()}
    finally:
        connection.close()
    if data and found.get("content-type") == "application/json":
        return response.status, found, json.loads(data)
    return response.status, found, data


def act(server: BotServer, message: Any) -> tuple[int, Any]:
    status, headers, answer = call(server, "POST", "/v1/act", message,
                                   {"Content-Type": "application/json"})
    assert headers["content-type"] == "application/json"
    return status, answer


def raw(server: BotServer, data: bytes) -> tuple[int | None, bytes]:
    """Send raw bytes, read the answer until the server closes: ``(status, body)``; the
    status is ``None`` for an answer without a status line (http.server's answer to a
    request line it cannot read: the whole reply is the body)."""
    host, port = server.server_address[:2]
    with socket.create_connection((host, port), timeout=TIMEOUT) as sock:
        sock.sendall(data)
        chunks: list[bytes] = []
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:  # the server closed with our body unread
                if not chunks:
                    raise
                break
            if not chunk:
                break
            chunks.append(chunk)
    reply = b"".join(chunks)
    if not reply.startswith(b"HTTP/"):
        return None, reply
    head, _, body = reply.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def without_seat(action: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in action.items() if k != "seat"}


def decisions(env: raw_env) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    for agent in env.agent_iter(max_iter=100_000):
        observation, _, terminated, truncated, _ = env.last()
        info = env.unwrapped.view(agent)
        if terminated or truncated:
            env.step(None)
            continue
        yield agent, observation, info


def expected_policy_answer(message: dict[str, Any]) -> dict[str, Any]:
    """The in-process answer of ``pretrained:classic`` to a request."""
    request = parse_request(json.dumps(message))
    index = make_agent("pretrained:classic").act(*request.decision())
    return request.action_of(int(index))


def valid_request(seed: int = 0) -> dict[str, Any]:
    env = raw_env()
    env.reset(seed=seed)
    env.step(env.action_meanings.index("look"))
    return make_request(env.view(env.agent_selection), id=f"ok-{seed}")


def assert_healthy(server: BotServer) -> None:
    """The server still answers a valid request, with the right action."""
    message = valid_request(11)
    status, answer = act(server, message)
    assert status == 200, answer
    assert answer["id"] == "ok-11"
    expected = (expected_policy_answer(message) if server.service.spec == "pretrained:classic"
                else None)
    if expected is not None:
        assert answer["action"] == expected
    assert parse_response(answer, id="ok-11") == answer["action"]


# --------------------------------------------------------------------------- same play


def run_threads(target: Callable[..., None], arguments: list[tuple[Any, ...]]) -> None:
    """Run ``target`` once per argument tuple, each on its own thread, and wait for all."""
    workers = [threading.Thread(target=target, args=args) for args in arguments]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
    assert not any(worker.is_alive() for worker in workers)

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


# --------------------------------------------------------------------------- web games


def new_game(server: BotServer, options: Any) -> tuple[int, Any]:
    status, _, answer = call(server, "POST", "/v1/games", options)
    return status, answer


def game_act(server: BotServer, game: str, action: Any) -> tuple[int, Any]:
    status, _, answer = call(server, "POST", f"/v1/games/{game}/act", {"action": action})
    return status, answer


def game_state(server: BotServer, game: str) -> dict[str, Any]:
    status, _, answer = call(server, "GET", f"/v1/games/{game}")
    assert status == 200 and answer["game"] == game
    return dict(answer["state"])


def random_legal(state: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """A random legal action of the person, from the state's view (through the protocol)."""
    request = parse_request(make_request(state["view"]))
    _, mask, _ = request.decision()
    return request.action_of(int(rng.choice(np.flatnonzero(mask))))


def test_illegal_actions_leave_a_web_game_unchanged(equity_server: BotServer) -> None:
    status, created = new_game(equity_server, {"bots": ["equity", "random"], "seed": 5,
                                               "hands": 2})
    assert status == 201, created
    game = created["game"]
    state = created["state"]
    assert state == game_state(equity_server, game)
    assert state["players"] == ["you", "equity", "random"] and state["your_turn"]
    legal = {entry["type"]: entry for entry in state["view"]["legal"]}
    bet = legal["bet"]
    illegal = [
        {"type": "bet", "amount": bet["max"] + 1}, {"type": "bet", "amount": bet["min"] - 1},
        {"type": "bet", "amount": 10**9}, {"type": "bet"}, {"type": "bet", "amount": "2"},
        {"type": "sideshow", "amount": 10**6}, {"type": "accept"}, {"type": "fly"}, {},
        {"type": "pack", "seat": 1}, {"type": "vote_end"}, {"type": "draw"},
        {"type": "choose_variant", "variant": "ak47"},
    ]
    if "show" not in legal:
        illegal.append({"type": "show"})
    for action in illegal:
        status, answer = game_act(equity_server, game, action)
        assert (status, answer["error"]["code"]) == (400, "illegal_action"), (action, answer)
        assert game_state(equity_server, game) == state, action
    for body in ([], {"action": "pack"}, {"action": {"type": "pack"}, "more": 1}, {},
                 {"move": {"type": "pack"}}):
        status, _, answer = call(equity_server, "POST", f"/v1/games/{game}/act", body)
        assert (status, answer["error"]["code"]) == (400, "invalid_request"), body
    status, _, answer = call(equity_server, "POST", f"/v1/games/{game}/act", b"{nope")
    assert (status, answer["error"]["code"]) == (400, "malformed_json")
    assert game_state(equity_server, game) == state
    # a legal action moves the game on
    status, moved = game_act(equity_server, game, {"type": "bet", "amount": bet["min"]})
    assert status == 200 and moved["state"] != state
    # play to the end; then every action is illegal and changes nothing
    rng = np.random.default_rng(0)
    state = moved["state"]
    while not state["over"]:
        status, moved = game_act(equity_server, game, random_legal(state, rng))
        assert status == 200, moved
        state = moved["state"]
    assert not state["your_turn"] and state["view"]["legal"] == []
    assert sum(state["stacks"]) == 300
    status, answer = game_act(equity_server, game, {"type": "pack"})
    assert (status, answer["error"]["code"]) == (400, "illegal_action")
    assert game_state(equity_server, game) == state
    assert_healthy(equity_server)


@pytest.mark.parametrize("options", [
    [], b'"classic"', b"{", {"bots": []}, {"bots": ["equity"]}, {"bots": ["nobody"]},
    {"bots": "equity"},
    {"bots": ["equity"] * 7}, {"bots": [1]}, {"hands": 0}, {"hands": -1}, {"hands": True},
    {"hands": 1001}, {"hands": 2.5}, {"hands": "3"}, {"seed": -1}, {"seed": "1"},
    {"seed": 2**63}, {"seed": None}, {"preset": "nope"}, {"variant": "nope"},
    {"variant": {"private_cards": 9}}, {"players": 3}, {"bots": ["equity"], "extra": 1},
])
def test_bad_game_options(equity_server: BotServer, options: Any) -> None:
    status, answer = new_game(equity_server, options)
    code = "malformed_json" if options == b"{" else "invalid_request"
    assert (status, answer["error"]["code"]) == (400, code), answer
    assert_healthy(equity_server)


def test_game_options_that_are_fine(equity_server: BotServer) -> None:
    status, created = new_game(equity_server, b"")  # no body: the defaults
    assert status == 201
    assert created["state"]["players"] == ["you", "equity 1", "equity 2", "equity 3"]
    assert created["state"]["max_hands"] == 10
    status, created = new_game(equity_server, {"bots": ["hard"] * 6, "preset": "tabletop",
                                               "variant": "muflis", "hands": 1000, "seed": 0})
    assert status == 201 and len(created["state"]["players"]) == 7
    assert created["state"]["view"]["rules"]["variant"] == "muflis"
    assert game_state(equity_server, created["game"]) == created["state"]


def test_a_game_the_policy_cannot_play_is_refused_or_playable(
    policy_server: BotServer,
) -> None:
    for options in ({"bots": ["pretrained:classic"] * 2, "seed": 0},
                    {"variant": "muflis", "seed": 0}, {"variant": "muflis", "seed": 2}):
        status, created = new_game(policy_server, options)
        if status == 400:
            assert created["error"]["code"] == "invalid_request"
            continue
        assert status == 201
        status, answer = game_act(policy_server, created["game"], {"type": "pack"})
        assert status == 200, answer


# --------------------------------------------------------------------------- concurrency


@pytest.fixture(scope="module")
def mixed_requests() -> list[tuple[dict[str, Any] | bytes, int, Any]]:
    """Valid requests from several tables and seats with the in-process answer, and bad
    ones with their status and error code."""
    valid: list[tuple[dict[str, Any] | bytes, int, Any]] = []
    env = raw_env(rules=CLASSIC)
    local = make_agent("pretrained:classic")
    rng = np.random.default_rng(9)
    for table in range(10):
        env.reset(seed=500 + table)
        for number, (agent, observation, info) in enumerate(decisions(env)):
            index = local.act(observation["observation"], observation["action_mask"], info)
            if number % 2 == 0 and number < 40:
                message = make_request(env.view(agent), table=f"t{table}", hand=0)
                valid.append((message, 200, without_seat(env.action_to_engine(agent, index))))
            # random moves too, so that the views differ more
            if rng.random() < 0.3:
                index = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            env.step(index)
    base = valid[0][0]
    bad: list[tuple[dict[str, Any] | bytes, int, Any]] = [
        (b"{not json", 400, "malformed_json"),
        ({**base, "protocol": "teenpatti-bot/9"}, 400, "unsupported_protocol"),
        ({**base, "extra": True}, 400, "invalid_request"),
        ({**base, "view": {**base["view"], "seat": 6}}, 400, "invalid_view"),
        ({**base, "view": {**base["view"], "legal": []}}, 400, "invalid_request"),
        (b" " * (MAX_MESSAGE_BYTES + 1), 413, "too_large"),
    ]
    assert len(valid) > 60
    return valid + bad


def test_many_threads_get_their_own_answers(
    policy_server: BotServer, mixed_requests: list[tuple[Any, int, Any]]
) -> None:
    threads_count, per_thread = 16, 25
    barrier = threading.Barrier(threads_count)
    failures: list[str] = []
    answered = [0] * threads_count

    def client(number: int) -> None:
        barrier.wait()
        for k in range(per_thread):
            body, status, expected = mixed_requests[(number * 31 + k * 7) % len(mixed_requests)]
            request_id = f"thread{number}-{k}"
            if isinstance(body, dict):
                body = {**body, "id": request_id}
            try:
                got, answer = act(policy_server, body)
            except Exception as error:
                failures.append(f"{request_id}: {error!r}")
                continue
            if got != status:
                failures.append(f"{request_id}: status {got} {answer}")
            elif status == 200 and answer != {"protocol": PROTOCOL, "id": request_id,
                                              "action": expected, "name": answer["name"]}:
                failures.append(f"{request_id}: {answer} != {expected}")
            elif status != 200 and answer["error"]["code"] != expected:
                failures.append(f"{request_id}: {answer}")
            answered[number] += 1

    run_threads(client, [(n,) for n in range(threads_count)])
    assert failures == []
    assert answered == [per_thread] * threads_count
    assert_healthy(policy_server)


def test_concurrent_tables_keep_their_own_memory(equity_server: BotServer) -> None:
    """Six tables played at once through one server, each by its own thread: every answer
    is the one a local ``equity`` agent at that table gives."""
    failures: list[str] = []
    played = [0] * 6

    def table(number: int) -> None:
        try:
            env = raw_env(rules=CLASSIC)
            local = {agent: make_agent("equity") for agent in env.possible_agents}
            for hand in range(5):
                env.reset(seed=2000 + 10 * number + hand)
                for agent in local.values():
                    agent.reset()
                for agent, observation, info in decisions(env):
                    index = local[agent].act(observation["observation"],
                                             observation["action_mask"], info)
                    message = make_request(env.view(agent), id=played[number],
                                           table=f"concurrent-{number}", hand=hand)
                    status, answer = act(equity_server, message)
                    assert status == 200 and answer["id"] == played[number], answer
                    assert answer["action"] == without_seat(env.action_to_engine(agent, index))
                    env.step(index)
                    played[number] += 1
        except Exception as error:
            failures.append(f"table {number}: {error!r}")

    run_threads(table, [(n,) for n in range(6)])
    assert failures == []
    assert all(count > 20 for count in played)


def test_concurrent_web_games_play_to_the_end(policy_server: BotServer) -> None:
    setups = [
        {"bots": ["pretrained:classic"] * 3, "hands": 4},  # the policy's own table
        {"bots": ["equity", "random"], "hands": 5},
        {"bots": ["medium", "hard", "auto"], "hands": 4},
        {"bots": ["random"] * 6, "hands": 3},
        {"bots": ["equity", "easy"], "variant": "shopping", "hands": 3},
        {"bots": ["random", "equity", "random"], "variant": "passing_cards", "hands": 3},
        {"bots": ["random", "random"], "variant": "buy_a_joker", "preset": "pagat", "hands": 3},
        {"bots": ["equity", "random"], "variant": "ak47", "hands": 6},
    ]
    failures: list[str] = []
    finished: list[dict[str, Any]] = []

    def player(number: int, options: dict[str, Any]) -> None:
        try:
            rng = np.random.default_rng(number)
            status, created = new_game(policy_server, {**options, "seed": number})
            assert status == 201, created
            game, state = created["game"], created["state"]
            moves = 0
            while not state["over"]:
                assert state["your_turn"], state
                status, moved = game_act(policy_server, game, random_legal(state, rng))
                assert status == 200 and moved["game"] == game, moved
                state = moved["state"]
                moves += 1
                assert moves < 2000
            assert game_state(policy_server, game) == state
            players = len(options["bots"]) + 1
            assert len(state["stacks"]) == players
            assert sum(state["stacks"]) == players * 100, state["stacks"]
            finished.append(state)
        except Exception as error:
            failures.append(f"game {number} {options}: {error!r}")

    run_threads(player, [(n, o) for n, o in enumerate(setups)])
    assert failures == []
    assert len(finished) == len(setups)
    assert all(state["over"] and not state["your_turn"] for state in finished)
    assert_healthy(policy_server)


# --------------------------------------------------------------------------- stdio


def test_serve_stdio_answers_each_line_in_order() -> None:
    first, second = valid_request(1), valid_request(2)
    first["id"], second["id"] = "a", "b"
    lines = [
        json.dumps(first), "", "   ", "{broken", json.dumps({**first, "protocol": "x"}),
        "x" * (MAX_MESSAGE_BYTES + 1), json.dumps(second), "[1, 2]",
    ]
    out = io.StringIO()
    count = serve_stdio(BotService("pretrained:classic"),
                        io.BytesIO(("\n".join(lines) + "\n").encode()), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert count == len(answers) == 6  # the blank lines are skipped
    assert answers[0] == {"protocol": PROTOCOL, "id": "a",
                          "action": expected_policy_answer(first), "name": answers[0]["name"]}
    assert [a.get("error", {}).get("code") for a in answers] == [
        None, "malformed_json", "unsupported_protocol", "too_large", None, "invalid_request"]
    assert answers[4]["id"] == "b" and answers[4]["action"] == expected_policy_answer(second)
    assert out.getvalue().endswith("\n")


def test_serve_stdio_with_no_input() -> None:
    out = io.StringIO()
    assert serve_stdio(BotService("equity"), io.BytesIO(b""), out) == 0
    assert out.getvalue() == ""


def _cli(*args: str, **kwargs: Any) -> subprocess.Popen[str]:
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    return subprocess.Popen([sys.executable, "-m", "teenpatti_env.cli", *args], cwd=ROOT,
                            env=environment, text=True, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs)


def test_cli_serve_stdio() -> None:
    """``teenpatti serve --stdio --agent equity`` speaks JSON lines and ends with its input;
    each answer comes before the next request is sent."""
    process = _cli("serve", "--stdio", "--agent", "equity")
    assert process.stdin is not None and process.stdout is not None
    try:
        env = raw_env(rules=CLASSIC)
        local = {agent: make_agent("equity") for agent in env.possible_agents}
        env.reset(seed=77)
        count = 0
        for agent, observation, info in decisions(env):
            index = local[agent].act(observation["observation"], observation["action_mask"],
                                     info)
            message = make_request(env.view(agent), id=count, table="cli", hand=1)
            process.stdin.write(json.dumps(message) + "\n")
            process.stdin.flush()
            answer = json.loads(process.stdout.readline())
            assert answer["id"] == count
            assert answer["action"] == without_seat(env.action_to_engine(agent, index))
            env.step_action(answer["action"])
            count += 1
        process.stdin.write("\nnot json\n")
        process.stdin.flush()
        assert json.loads(process.stdout.readline())["error"]["code"] == "malformed_json"
        process.stdin.close()
        assert process.wait(TIMEOUT) == 0
        assert process.stdout.read() == ""
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert count > 0


def test_cli_serve_http() -> None:
    """``teenpatti serve --port 0`` says where it listens and answers there."""
    process = _cli("serve", "--agent", "equity", "--port", "0")
    assert process.stdout is not None
    try:
        line = process.stdout.readline()
        found = re.search(r"http://[0-9.]+:[0-9]+", line)
        assert found, line
        url = found.group(0)
        message = valid_request(4)
        data = json.dumps(message).encode()
        with urllib.request.urlopen(urllib.request.Request(
                url + "/v1/act", data=data, headers={"Content-Type": "application/json"}),
                timeout=TIMEOUT) as response:
            answer = json.loads(response.read())
        assert answer["id"] == message["id"]
        assert BotService("equity").answer(data) == (200, answer)
    finally:
        process.terminate()
        process.wait(TIMEOUT)


def test_cli_serve_refuses_an_unknown_agent() -> None:
    process = _cli("serve", "--stdio", "--agent", "nobody")
    _, err = process.communicate("", timeout=TIMEOUT)
    assert process.returncode != 0 and "nobody" in err
