"""Builders for the bot server tests over real HTTP: a server on a thread (and the
``policy_server`` and ``equity_server`` fixtures, shared through tests/conftest.py), raw
HTTP calls, requests, web-game calls."""

from __future__ import annotations

import http.client
import json
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agents import make_agent
from interfaces.server import BotServer, make_server
from interfaces.service import BotService
from teenpatti_env import Rules, raw_env
from teenpatti_env.protocol import make_request, parse_request, parse_response

ROOT = Path(__file__).resolve().parent.parent.parent
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
    if headers is None:
        headers = {"Content-Type": "application/json"} if body is not None else {}
    try:
        connection.request(method, path, body=body, headers=headers)
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


def run_threads(target: Callable[..., None], arguments: list[tuple[Any, ...]]) -> None:
    """Run ``target`` once per argument tuple, each on its own thread, and wait for all."""
    workers = [threading.Thread(target=target, args=args) for args in arguments]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
    assert not any(worker.is_alive() for worker in workers)


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
