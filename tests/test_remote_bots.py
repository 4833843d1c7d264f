"""remote bots (interfaces/remote.py) and matches against them
(interfaces/match.py) that misbehave at the transport level.

Each test was an adversarial review's reproducer of a defect, now fixed.
"""

from __future__ import annotations

import json
import shlex
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

import interfaces.remote as remote
from interfaces.match import run_match
from interfaces.remote import BotError, HttpBot, ProcessBot

REQUEST = {"protocol": "teenpatti-bot/1", "id": 1, "view": {}}


def _read_http_request(conn: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        body += chunk
    return body


@contextmanager
def raw_http_bot(reply: Callable[[socket.socket, bytes], None]) -> Iterator[str]:
    """A TCP server answering every connection with ``reply(conn, body)``; yields its URL."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.settimeout(0.2)
    stop = threading.Event()

    def handle(conn: socket.socket) -> None:
        try:
            reply(conn, _read_http_request(conn))
        except OSError:
            pass
        finally:
            conn.close()

    def loop() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            threading.Thread(target=handle, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(5)
        listener.close()


def _not_http(conn: socket.socket, body: bytes) -> None:
    """Something listening on the port that does not speak HTTP (a wrong port)."""
    conn.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")


def _too_many_headers(conn: socket.socket, body: bytes) -> None:
    conn.sendall(b"HTTP/1.1 200 OK\r\n" + b"X-Pad: y\r\n" * 150 + b"\r\n")


def _broken_chunks(conn: socket.socket, body: bytes) -> None:
    conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")


# Answers that are not HTTP (a wrong port, a broken server) are garbage: the turn is
# missed and the match goes on.


@pytest.mark.parametrize("reply", [_not_http, _too_many_headers, _broken_chunks],
                         ids=["not-http", "too-many-headers", "broken-chunks"])
def test_an_answer_that_is_not_http_is_garbage(reply: Callable[[socket.socket, bytes], None]):
    with raw_http_bot(reply) as url, pytest.raises(BotError) as caught:
        HttpBot(url).ask(REQUEST, 2.0)
    assert caught.value.kind == "garbage"


def test_a_match_against_a_port_that_is_not_http_goes_on():
    with raw_http_bot(_not_http) as url:
        result = run_match(["equity", "hard", url], hands=2, seed=0, time_limit=2.0)
    assert result.hands_played == 2
    assert result.faults[2]["garbage"] == result.decisions[2] > 0


def _drip(conn: socket.socket, body: bytes) -> None:
    """Headers at once, then a valid answer one byte every 0.1 s (each byte well within
    the time limit, the whole answer far beyond it)."""
    answer = json.dumps({"protocol": "teenpatti-bot/1", "id": 1, "action": {"type": "pack"}})
    conn.sendall(b"HTTP/1.0 200 OK\r\nContent-Length: %d\r\n\r\n" % len(answer))
    for byte in answer.encode():
        conn.sendall(bytes([byte]))
        time.sleep(0.1)


def test_the_time_limit_is_a_deadline_for_the_whole_answer():
    with raw_http_bot(_drip) as url:
        started = time.monotonic()
        with pytest.raises(BotError) as caught:
            HttpBot(url).ask(REQUEST, 1.0)
        elapsed = time.monotonic() - started
    assert caught.value.kind == "timeout"
    assert elapsed < 3.0, f"ask returned after {elapsed:.1f} s with a 1 s limit"


def test_a_stdio_bot_that_stops_reading_cannot_hang_the_table(monkeypatch):
    monkeypatch.setattr(remote, "STARTUP_GRACE", 0.0)
    command = f"{shlex.quote(sys.executable)} -c 'import time; time.sleep(60)'"
    bot = ProcessBot(command)
    faults: list[str] = []

    def ask_many() -> None:
        for number in range(1, 41):  # ~8 KB each: the pipe is full after ~8 requests
            request = {"protocol": "teenpatti-bot/1", "id": number, "view": {"pad": "x" * 8000}}
            try:
                bot.ask(request, 0.02)
            except BotError as error:
                faults.append(error.kind)

    asker = threading.Thread(target=ask_many, daemon=True)
    try:
        asker.start()
        asker.join(15)
        finished = not asker.is_alive()
    finally:
        bot.process.kill()  # unblocks the stuck write (BrokenPipeError)
        bot.process.wait()
        asker.join(10)
    assert finished, f"ask blocked after {len(faults)} requests"
    assert len(faults) == 40 and "illegal" not in faults
