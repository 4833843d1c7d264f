"""Servers, bots and the command line against clients and bots that misbehave, each over
a real transport: the HTTP server (loopback sockets), ``teenpatti serve --stdio`` (a
process) and ``teenpatti match`` against a stdio bot (a process).

* The server serves at most ``max_connections`` connections; one more is answered 503
  ``busy`` at once, and a client that trickles its request is cut off at the request's
  deadline however steadily it sends, after which a valid request is answered as usual.
* A client that hangs up before its answer is not an error worth a line on stderr.
* ``serve --stdio`` answers a line of invalid UTF-8 with an error and goes on, even when
  its stdin decodes strictly.
* A stdio bot's answer line longer than the protocol's 64 KiB is garbage, read past in
  pieces: the table's memory does not grow with it.
* Views that cannot happen are refused as ``invalid_view`` naming the incoherence, and a
  lone surrogate in a request's text gets a message that says so.
"""

from __future__ import annotations

import copy
import http.client
import json
import os
import shlex
import socket
import struct
import subprocess
import sys
import textwrap
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from builders.server import running_server

from interfaces.match import run_match
from interfaces.server import BotServer, make_server
from interfaces.service import BotService
from teenpatti_env import raw_env
from teenpatti_env.protocol import MAX_MESSAGE_BYTES, PROTOCOL, make_request

ROOT = Path(__file__).resolve().parents[1]
WAIT = 30.0  # the most any step here may take on a loaded machine


@pytest.fixture()
def small_server() -> Iterator[BotServer]:
    """A server taking 32 connections (all from one client, for the cap to be reached
    from this test's one address), each request within 3 s."""
    with running_server(max_connections=32, request_seconds=3.0, max_per_client=32) as server:
        yield server


@pytest.fixture(scope="module")
def server() -> Iterator[BotServer]:
    with running_server() as server:
        yield server


def decision(seen: bool = True, seed: int = 0) -> dict[str, Any]:
    """A real request of the first seat to act in a four-seat classic hand (after it
    looked, when ``seen``)."""
    env = raw_env()
    env.reset(seed=seed)
    if seen:
        env.step(env.action_meanings.index("look"))
    return make_request(env.view(env.agent_selection), id="r", table="t", hand=1)


def post(server: BotServer, body: bytes | str) -> tuple[int, dict[str, Any]]:
    host, port = server.server_address[:2]
    connection = http.client.HTTPConnection(host, port, timeout=WAIT)
    try:
        connection.request("POST", "/v1/act", body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def wait_until(condition: Callable[[], bool], what: str) -> float:
    """Seconds until ``condition()`` held (at most :data:`WAIT`)."""
    started = time.monotonic()
    while not condition():
        assert time.monotonic() - started < WAIT, f"still waiting for {what}"
        time.sleep(0.05)
    return time.monotonic() - started


class Trickler:
    """Slow clients: each sends the start of a request, then one more byte every
    ``every`` seconds (never enough to finish), until the server cuts it off."""

    def __init__(self, server: BotServer, count: int, every: float = 0.3) -> None:
        host, port = server.server_address[:2]
        self.sockets = [socket.create_connection((host, port), timeout=WAIT)
                        for _ in range(count)]
        self.cut: list[float | None] = [None] * count
        self.started = time.monotonic()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(every,), daemon=True)
        self._thread.start()

    def _run(self, every: float) -> None:
        head = b"POST /v1/act HTTP/1.0\r\nContent-Length: 1000\r\n\r\n"
        for sock in self.sockets:
            sock.setblocking(False)
        sent = 0
        while not self._stop.is_set() and sent < 400:
            for number, sock in enumerate(self.sockets):
                if self.cut[number] is not None:
                    continue
                try:
                    if sock.recv(4096) == b"":  # the server closed the connection
                        self.cut[number] = time.monotonic() - self.started
                        continue
                except BlockingIOError:
                    pass
                except OSError:
                    self.cut[number] = time.monotonic() - self.started
                    continue
                try:
                    sock.send(head[sent:sent + 1] if sent < len(head) else b"x")
                except OSError:
                    self.cut[number] = time.monotonic() - self.started
            sent += 1
            time.sleep(every)

    def all_cut(self) -> bool:
        return all(when is not None for when in self.cut)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(WAIT)
        for sock in self.sockets:
            sock.close()


# --------------------------------------------------------------------------- HTTP limits


def test_the_connection_cap_answers_503_and_a_deadline_frees_slow_clients(
    small_server: BotServer,
) -> None:
    server = small_server
    threads_before = threading.active_count()
    message = json.dumps(decision())
    few = Trickler(server, 20)
    try:
        wait_until(lambda: server.active_connections == 20, "20 slow clients to connect")
        # Below the cap a valid request is answered as usual, at once.
        started = time.monotonic()
        assert post(server, message)[0] == 200
        assert time.monotonic() - started < 5.0
    finally:
        few.close()
    wait_until(lambda: server.active_connections == 0, "the hung-up clients to be let go")
    many = Trickler(server, 48)  # 32 are served, 16 are refused at once
    try:
        wait_until(lambda: server.active_connections == 32, "the cap to fill")
        assert threading.active_count() <= threads_before + 32 + 2
        started = time.monotonic()
        status, answer = post(server, message)
        assert time.monotonic() - started < 5.0
        assert status == 503, answer
        assert answer == {"protocol": PROTOCOL, "error": {
            "code": "busy", "message": answer["error"]["message"]}}
        # Every slow client is cut off at its 3 s deadline, though it keeps sending (a
        # byte every 0.3 s would have held its thread for two minutes).
        wait_until(many.all_cut, "the slow clients' cut-off")
        slowest = max(when for when in many.cut if when is not None)
        assert 2.5 < slowest < 20.0
        wait_until(lambda: server.active_connections == 0, "the slots to be freed")
    finally:
        many.close()
    started = time.monotonic()
    status, answer = post(server, message)
    assert status == 200 and answer["id"] == "r", answer
    assert time.monotonic() - started < 5.0


def test_a_body_that_stalls_gets_a_timeout_error(small_server: BotServer) -> None:
    """Headers and a few bytes of the body, then nothing: the 400 comes at the request's
    3 s deadline (a timeout per read would wait on the silent client)."""
    host, port = small_server.server_address[:2]
    body = json.dumps(decision()).encode()
    with socket.create_connection((host, port), timeout=WAIT) as sock:
        started = time.monotonic()
        sock.sendall(b"POST /v1/act HTTP/1.0\r\nContent-Length: %d\r\n\r\n" % len(body))
        for byte in body[:5]:
            sock.sendall(bytes([byte]))
            time.sleep(0.1)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
        elapsed = time.monotonic() - started
    head, _, payload = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.0 400"), answer[:200]
    error = json.loads(payload)["error"]
    assert error["code"] == "invalid_request" and "within 3 s" in error["message"]
    assert 2.5 < elapsed < 20.0


def test_the_limits_are_checked() -> None:
    for limits in ({"max_connections": 0}, {"request_seconds": 0}, {"request_seconds": -1.0}):
        with pytest.raises(ValueError):
            make_server(BotService("equity"), port=0, **limits)


def test_a_client_that_hangs_up_is_not_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    """The answer is written to a socket whose other end has closed: the server drops it
    quietly (no BrokenPipeError line) and frees the connection."""
    server = make_server(BotService("equity"), port=0)
    try:
        for _ in range(3):
            ours, theirs = socket.socketpair()
            theirs.sendall(b"POST /v1/act HTTP/1.0\r\nContent-Length: %d\r\n\r\n%s" % (
                len(body := json.dumps(decision()).encode()), body))
            theirs.close()  # hangs up before the answer
            server.process_request(ours, ("client", 0))
            wait_until(lambda: server.active_connections == 0, "the connection to end")
    finally:
        server.server_close()
    captured = capsys.readouterr()
    assert captured.err == "" and captured.out == ""


def _cli(*args: str, **options: Any) -> subprocess.Popen[bytes]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    return subprocess.Popen([sys.executable, "-m", "teenpatti_env", *args], cwd=ROOT,
                            env=environment, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, **options)


def test_cli_serve_stays_quiet_when_clients_hang_up() -> None:
    process = _cli("serve", "--agent", "equity", "--port", "0", "--max-connections", "8",
                   "--request-timeout", "3")
    assert process.stdout is not None and process.stderr is not None
    try:
        line = process.stdout.readline().decode()
        host, port = line.split("http://")[1].split("/")[0].split(":")
        body = json.dumps(decision()).encode()
        request = b"POST /v1/act HTTP/1.0\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
        for number in range(40):
            with socket.create_connection((host, int(port)), timeout=WAIT) as sock:
                sock.sendall(request if number % 2 else b"GET / HTTP/1.0\r\n\r\n")
                # Reset at once (SO_LINGER 0), before the answer is written.
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))

        def answered() -> bool:  # 503 while the hung-up connections still hold the slots
            connection = http.client.HTTPConnection(host, int(port), timeout=WAIT)
            try:
                connection.request("POST", "/v1/act", body)
                status = connection.getresponse().status
            finally:
                connection.close()
            assert status in (200, 503)
            return status == 200

        wait_until(answered, "a valid request to be answered")
    finally:
        process.terminate()
        _, err = process.communicate(timeout=WAIT)
    assert err.decode() == ""


# --------------------------------------------------------------------------- stdio


def test_cli_serve_stdio_answers_invalid_utf8_and_goes_on() -> None:
    first, second = decision(seed=1), decision(seed=2)
    first["id"], second["id"] = "first", "second"
    lines = [
        json.dumps(first).encode(),
        b"\xff\xfe not UTF-8 at all",
        b'{"protocol": "teenpatti-bot/1", "id": "\xc3\x28"}',  # a broken sequence in a string
        json.dumps({**first, "id": "lone", "table": "\ud800"}).encode(),  # escaped: valid JSON
        json.dumps(second).encode(),
    ]
    process = _cli("serve", "--stdio", "--agent", "equity")
    out, err = process.communicate(b"\n".join(lines) + b"\n", timeout=120)
    assert process.returncode == 0, err.decode()
    assert err == b""
    answers = [json.loads(line) for line in out.decode().splitlines()]
    assert [answer.get("id") for answer in answers] == ["first", None, None, "lone", "second"]
    assert "action" in answers[0] and "action" in answers[4]
    for answer in answers[1:3]:
        assert answer["error"]["code"] == "malformed_json"
        assert "utf-8" in answer["error"]["message"].lower()
    assert answers[3]["error"]["code"] == "invalid_request"
    assert "lone surrogate" in answers[3]["error"]["message"]


# --------------------------------------------------------------------------- match


_HUGE_BOT = """\
import sys
line = b"x" * 65536
for request in sys.stdin.buffer:
    for _ in range({chunks}):  # one answer line of {chunks} * 64 KiB, written in pieces
        sys.stdout.buffer.write(line)
    sys.stdout.buffer.write(b"\\n")
    sys.stdout.buffer.flush()
"""


def _huge_bot(tmp_path: Path, megabytes: int) -> str:
    script = tmp_path / "huge_bot.py"
    script.write_text(_HUGE_BOT.format(chunks=megabytes * 16))
    return f"stdio:{shlex.quote(sys.executable)} {shlex.quote(str(script))}"


def test_an_oversized_bot_answer_is_garbage_read_in_pieces(tmp_path: Path) -> None:
    bot = _huge_bot(tmp_path, 48)
    tracemalloc.start()
    try:
        result = run_match(["equity", "hard", bot], hands=2, seed=0, time_limit=30.0)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.hands_played == 2
    assert result.faults[2]["garbage"] == result.decisions[2] == 2  # it packs at once
    assert all(f"at most {MAX_MESSAGE_BYTES} bytes" in missed["detail"]
               for missed in result.missed)
    assert peak < 8 * 2**20, f"{peak / 2**20:.0f} MiB traced for two 48 MiB answers"


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads Linux's VmHWM")
def test_cli_match_with_an_oversized_answer_keeps_its_memory(tmp_path: Path) -> None:
    """A 256 MiB answer line: the ``teenpatti match`` process stays far below it (its peak
    resident size, VmHWM, is its own: ru_maxrss would carry over the parent's peak)."""
    bot = _huge_bot(tmp_path, 256)
    code = textwrap.dedent(f"""
        import re, sys
        from pathlib import Path
        from interfaces.cli import main
        status = main(["match", "--agent", "equity", "--agent", "hard", "--agent", {bot!r},
                       "--hands", "1", "--time-limit", "60"])
        print(re.search(r"VmHWM:\\s*(\\d+) kB", Path("/proc/self/status").read_text())[1])
        sys.exit(status)
    """)
    finished = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                              text=True, timeout=300,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert finished.returncode == 0, finished.stderr
    *table, peak_kib = finished.stdout.splitlines()
    assert "1 garbage" in "\n".join(table)
    assert int(peak_kib) < 200 * 1024, f"peak RSS {int(peak_kib) // 1024} MiB"


# --------------------------------------------------------------------------- views


def _show_with_four_in_hand(view: dict[str, Any]) -> None:
    view["legal"].append({"type": "show"})


def _bets_beyond_every_stack(view: dict[str, Any]) -> None:
    bet = next(action for action in view["legal"] if action["type"] == "bet")
    bet["max"] = view["max_bet"] = 10**12


def _one_card_in_two_seats(view: dict[str, Any]) -> None:
    view["seats"][1]["cards"] = [view["cards"][0], "2c", "3c"]
    if "2c" in view["cards"] or "3c" in view["cards"]:
        view["seats"][1]["cards"][1:] = ["4d", "5d"]


def _indicator_in_a_hand(view: dict[str, Any]) -> None:
    view["indicators"] = [view["cards"][1]]


def _blind_with_cards(view: dict[str, Any]) -> None:
    view["seen"] = view["seats"][view["seat"]]["seen"] = False


def _cards_differ_from_the_seat(view: dict[str, Any]) -> None:
    view["seats"][view["seat"]]["cards"] = None


def _turn_of_another_seat(view: dict[str, Any]) -> None:
    view["to_act"] = (view["seat"] + 1) % len(view["seats"])


def _packed_seat_to_act(view: dict[str, Any]) -> None:
    view["seats"][view["seat"]]["packed"] = True


def _pot_unlike_the_seats(view: dict[str, Any]) -> None:
    view["pot"] += 7


def _sideshow_of_itself(view: dict[str, Any]) -> None:
    view["sideshow"] = {"asker": view["seat"], "target": view["seat"]}


INCOHERENT = [
    ("show offered with four seats in the hand", _show_with_four_in_hand,
     "a show needs exactly two seats in the hand, not 4"),
    ("bet bounds beyond every stack", _bets_beyond_every_stack,
     "a bet of up to 1000000000000 chips, but seat"),
    ("the same card in two seats", _one_card_in_two_seats, "is also in view/seats/"),
    ("an indicator that is in a hand", _indicator_in_a_hand, "is also in view/seats/"),
    ("seen: false with cards", _blind_with_cards,
     "a blind seat (seen: false) knows only its 0 open cards, not 3"),
    ("cards unlike the seat's", _cards_differ_from_the_seat, "view/cards differ"),
    ("my_turn but another seat to act", _turn_of_another_seat, "is to act, not this seat"),
    ("a packed seat to act", _packed_seat_to_act, "the seat to act has packed"),
    ("a pot unlike the seats' chips", _pot_unlike_the_seats, "but the seats put in"),
    ("a sideshow asked of itself", _sideshow_of_itself, "asks a sideshow of itself"),
]


@pytest.mark.parametrize(("change", "says"), [pytest.param(change, says, id=name)
                                              for name, change, says in INCOHERENT])
def test_an_incoherent_view_is_refused_naming_why(
    server: BotServer, change: Callable[[dict[str, Any]], None], says: str
) -> None:
    message = decision()
    assert post(server, json.dumps(message))[0] == 200  # the view as dealt is fine
    broken = copy.deepcopy(message)
    change(broken["view"])
    status, answer = post(server, json.dumps(broken))
    assert status == 400, answer
    assert answer["error"]["code"] == "invalid_view" and answer["id"] == "r"
    assert says in answer["error"]["message"], answer["error"]["message"]


def test_a_blind_seat_may_know_its_open_cards(server: BotServer) -> None:
    env = raw_env(variant="two_cards_open")
    env.reset(seed=0)
    view = env.view(env.agent_selection)
    assert not view["seen"] and len(view["cards"]) == 2
    assert post(server, json.dumps(make_request(view, id=1)))[0] == 200
    view["cards"] = view["seats"][view["seat"]]["cards"] = [*view["cards"], "2c"]
    if len(set(view["cards"])) == 3:
        status, answer = post(server, json.dumps(make_request(view, id=1)))
        assert status == 400 and "knows only its 2 open cards, not 3" in answer["error"]["message"]


@pytest.mark.parametrize("key", ["table", "id", "hand"])
def test_a_lone_surrogate_in_a_text_field_is_named(server: BotServer, key: str) -> None:
    message = decision()
    message[key] = "table\ud83d!"  # half of an emoji's surrogate pair
    status, answer = post(server, json.dumps(message))  # json escapes it as \ud83d
    assert status == 400, answer
    assert answer["error"]["code"] == "invalid_request"
    assert answer["error"]["message"].startswith(f"{key}: character 5 is a lone surrogate")
    message[key] = "table\U0001f600"  # the whole pair is a character like any other
    assert post(server, json.dumps(message))[0] == 200


def test_a_deeply_nested_request_is_a_client_error(server: BotServer) -> None:
    text = json.dumps(decision())
    assert '"variant": "classic"' in text
    for depth in (500, 20_000):  # within json's recursion limit; past it
        nested = text.replace('"variant": "classic"', '"variant": ' + "[" * depth + "]" * depth)
        status, answer = post(server, nested)
        assert status == 400, answer
        assert answer["error"]["code"] in ("invalid_view", "invalid_request", "malformed_json")
