"""The web table's games attacked over HTTP on 127.0.0.1 (issue 29): no drawn seed is
told, ids are unguessable, only the page's own JSON requests change a game, each client
keeps a few live games that expire when idle, the turn timer is the server's, every body
is read and checked, and every answer carries the security headers."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from typing import Any

import pytest
from builders.server import running_server

from interfaces.server import BotServer
from interfaces.web_games import IDLE_SECONDS, MAX_GAMES_PER_CLIENT


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture()
def server() -> Iterator[BotServer]:
    with running_server("equity") as running:
        running.games.clock = Clock()
        yield running


def request(server: BotServer, method: str, path: str, body: Any = None,
            headers: dict[str, str] | None = None,
            source: str = "127.0.0.1") -> tuple[int, dict[str, str], bytes]:
    """One raw request (from ``source``): status, headers (lower case) and the body."""
    host, port = server.server_address[:2]
    connection = http.client.HTTPConnection(host, port, timeout=30,
                                            source_address=(source, 0))
    if body is not None and not isinstance(body, (bytes, str)):
        body = json.dumps(body)
    sent = {"Content-Type": "application/json"} if headers is None else headers
    try:
        connection.request(method, path, body=body, headers=sent)
        response = connection.getresponse()
        return (response.status, {k.lower(): v for k, v in response.getheaders()},
                response.read())
    finally:
        connection.close()


def call(server: BotServer, method: str, path: str, body: Any = None,
         **options: Any) -> tuple[int, Any]:
    status, _, data = request(server, method, path, body, **options)
    return status, json.loads(data)


def new(server: BotServer, **options: Any) -> dict[str, Any]:
    source = options.pop("source", "127.0.0.1")
    status, answer = call(server, "POST", "/v1/games",
                          {"bots": ["hard", "equity"], "pause": True, **options},
                          source=source)
    assert status == 201, answer
    return dict(answer)


def alive(server: BotServer, game: str) -> bool:
    status, _ = call(server, "GET", f"/v1/games/{game}")
    assert status in (200, 404)
    return status == 200


def test_a_seed_the_server_drew_is_never_told(server: BotServer,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = 7_123_456_789_012_345_678
    monkeypatch.setattr("interfaces.web_games.secrets.randbelow", lambda _: drawn)
    created = new(server)
    assert "seed" not in created["settings"]
    game = created["game"]
    bodies = [request(server, "POST", "/v1/games", {"bots": ["hard", "equity"]})[2],
              request(server, "GET", f"/v1/games/{game}")[2],
              request(server, "POST", f"/v1/games/{game}/act",
                      {"action": {"type": "look"}})[2]]
    assert all(str(drawn) not in body.decode() for body in bodies)
    # a seed the player gave is told back, for the form after a reload
    assert new(server, seed=42)["settings"]["seed"] == 42


def test_game_ids_are_unguessable(server: BotServer) -> None:
    ids = [new(server)["game"] for _ in range(MAX_GAMES_PER_CLIENT)]
    assert len(set(ids)) == len(ids)
    assert all(len(game) == 32 and int(game, 16) >= 0 for game in ids)  # 128 random bits
    assert not alive(server, ids[0][:-1] + ("A" if ids[0][-1] != "A" else "B"))


@pytest.mark.parametrize("headers", [
    {"Content-Type": "text/plain"}, {},
    {"Content-Type": "application/x-www-form-urlencoded"},
    {"Content-Type": "application/json", "Origin": "http://evil.example"},
    {"Content-Type": "application/json", "Origin": "null"},
    {"Content-Type": "application/json", "Host": "evil.example"},
])
def test_a_request_a_foreign_page_could_send_is_refused(
    server: BotServer, headers: dict[str, str]
) -> None:
    game = new(server)["game"]
    before = call(server, "GET", f"/v1/games/{game}")[1]["state"]
    for path, body in (("/v1/games", {}), (f"/v1/games/{game}/act", {"action": {"type": "pack"}}),
                       (f"/v1/games/{game}/timeout", {}), (f"/v1/games/{game}/next", {})):
        status, answer = call(server, "POST", path, body, headers=headers)
        assert (status, answer["error"]["code"]) == (400, "invalid_request"), (path, answer)
    assert call(server, "GET", f"/v1/games/{game}")[1]["state"] == before
    # the page's own requests (same origin) are served
    host = "{}:{}".format(*server.server_address[:2])
    status, _ = call(server, "POST", "/v1/games", {}, headers={
        "Content-Type": "application/json; charset=utf-8", "Origin": f"http://{host}"})
    assert status == 201


def test_a_flood_of_plain_posts_cannot_evict_a_game(server: BotServer) -> None:
    game = new(server)["game"]
    for _ in range(3 * MAX_GAMES_PER_CLIENT):
        status, _, _ = request(server, "POST", "/v1/games", b'{"bots": ["hard", "hard"]}',
                               headers={"Content-Type": "text/plain"})
        assert status == 400
    assert alive(server, game)


def test_each_client_keeps_its_cap_of_games_and_no_other_clients(server: BotServer) -> None:
    other = new(server, source="127.0.0.2")["game"]
    mine = [new(server)["game"] for _ in range(MAX_GAMES_PER_CLIENT + 2)]
    assert [alive(server, game) for game in mine] == [False] * 2 + [True] * MAX_GAMES_PER_CLIENT
    assert alive(server, other)
    server.games.max_games = len(server.games)  # a full store refuses, evicts nobody
    status, answer = call(server, "POST", "/v1/games", {}, source="127.0.0.3")
    assert (status, answer["error"]["code"]) == (503, "busy")
    assert alive(server, other)


def test_an_idle_game_expires(server: BotServer) -> None:
    clock = server.games.clock
    assert isinstance(clock, Clock)
    kept, idle = new(server)["game"], new(server)["game"]
    clock.now += IDLE_SECONDS / 2
    assert alive(server, kept)
    clock.now += IDLE_SECONDS / 2 + 1
    assert alive(server, kept) and not alive(server, idle)


def test_the_turn_timer_is_the_servers(server: BotServer) -> None:
    clock = server.games.clock
    assert isinstance(clock, Clock)
    untimed = new(server, turn_seconds=None)
    assert untimed["turn_left"] is None
    status, answer = call(server, "POST", f"/v1/games/{untimed['game']}/timeout", {})
    assert status == 400 and "no turn timer" in answer["error"]["message"]

    timed = new(server, turn_seconds=10, seed=3)
    game, left = timed["game"], timed["turn_left"]
    assert timed["state"]["your_turn"] and 10 <= left <= 10 + 0.5 * len(timed["state"]["steps"])
    clock.now += 4
    read = call(server, "GET", f"/v1/games/{game}")[1]  # looking at it keeps the deadline
    assert read["turn_left"] == pytest.approx(left - 4)
    status, looked = call(server, "POST", f"/v1/games/{game}/act", {"action": {"type": "look"}})
    assert status == 200 and looked["turn_left"] == pytest.approx(left - 4)  # a look too
    status, answer = call(server, "POST", f"/v1/games/{game}/timeout", {})
    assert status == 400 and "left" in answer["error"]["message"]
    assert call(server, "GET", f"/v1/games/{game}")[1]["state"] == looked["state"]
    clock.now += left - 4
    status, timed_out = call(server, "POST", f"/v1/games/{game}/timeout", {})
    assert status == 200 and timed_out["state"]["missed_turns"] == 1
    assert timed_out["turn_left"] is None  # the hand waits for "next": no turn runs


@pytest.mark.parametrize(("verb", "body", "code"), [
    ("timeout", b"{nope", "malformed_json"), ("next", b"{nope", "malformed_json"),
    ("timeout", {"soon": True}, "invalid_request"), ("next", [], "invalid_request"),
    ("act", {"action": {"type": "pack", "why": "bored"}}, "invalid_request"),
    ("act", b"", "malformed_json"),
])
def test_every_route_reads_and_checks_its_body(
    server: BotServer, verb: str, body: Any, code: str
) -> None:
    game = new(server, turn_seconds=5)["game"]
    before = call(server, "GET", f"/v1/games/{game}")[1]["state"]
    status, answer = call(server, "POST", f"/v1/games/{game}/{verb}", body)
    assert (status, answer["error"]["code"]) == (400, code), answer
    assert call(server, "GET", f"/v1/games/{game}")[1]["state"] == before
    status, answer = call(server, "POST", "/v1/games", {"bots": ["hard", "hard"], "colour": 1})
    assert status == 400 and "unknown fields" in answer["error"]["message"]
    status, answer = call(server, "POST", "/v1/games", b'{"bots": ["hard", "hard"]')
    assert (status, answer["error"]["code"]) == (400, "malformed_json")


def test_every_answer_carries_the_security_headers(server: BotServer) -> None:
    game = new(server)["game"]
    for method, path, body in (("GET", "/", None), ("GET", "/static/app.js", None),
                               ("GET", "/v1", None), ("GET", f"/v1/games/{game}", None),
                               ("POST", "/v1/games", b"nope"), ("GET", "/nowhere", None),
                               ("POST", "/v1/act", b"{}")):
        _, headers, _ = request(server, method, path, body)
        assert "default-src 'self'" in headers["content-security-policy"], path
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["x-frame-options"] == "DENY"
        assert headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("path", ["/v1", "/v1/games/GAME", "/"])
def test_a_get_with_a_body_is_refused_and_its_body_is_not_a_request(
    server: BotServer, path: str
) -> None:
    game = new(server)["game"]
    host, port = server.server_address[:2]
    connection = http.client.HTTPConnection(host, port, timeout=30)
    try:
        smuggled = f"POST /v1/games/{game}/act HTTP/1.1\r\nContent-Length: 0\r\n\r\n"
        connection.request("GET", path.replace("GAME", game), body=smuggled,
                           headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        answer = json.loads(response.read())
        assert response.status == 400 and "takes no body" in answer["error"]["message"]
        connection.request("GET", f"/v1/games/{game}")  # the same connection goes on
        response = connection.getresponse()
        assert response.status == 200
        assert json.loads(response.read())["state"]["hands_played"] == 0
    finally:
        connection.close()
