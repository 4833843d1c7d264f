"""Bots in other processes, reached through the ``teenpatti-bot/1`` protocol.

* ``http://HOST:PORT`` (or any URL): a bot server; requests go to ``POST /v1/act`` when
  the URL has no path of its own.
* ``stdio:COMMAND``: a program started by the table that reads one request per line on
  its stdin and writes one answer per line on its stdout (``teenpatti serve --stdio``
  is one).

:meth:`RemoteBot.ask` returns the bot's action or raises :class:`BotError` saying what
went wrong: no answer within the time limit (``timeout``), an answer that is not a
protocol answer to this request (``garbage``), or a bot that cannot be reached
(``gone``). Whether the action is legal is the table's to judge (``illegal``).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import queue
import shlex
import socket
import subprocess
import threading
import time
import urllib.parse
from collections.abc import Callable
from typing import Any

from agents.loop import MISSED_TURNS
from teenpatti_env.protocol import (
    MAX_MESSAGE_BYTES,
    PROTOCOL,
    ProtocolError,
    RefusedError,
    decode_json,
    parse_hello,
    parse_response,
    read_line,
)

FAULTS = MISSED_TURNS
"""The ways a bot can miss a turn."""
REMOTE_PREFIXES = ("http://", "https://", "stdio:")


class BotError(Exception):
    """A bot missed its turn; ``kind`` is one of :data:`FAULTS`."""

    def __init__(self, kind: str, detail: str, cause: ProtocolError | None = None) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail
        self.refusal = cause if isinstance(cause, RefusedError) else None
        """The bot's error answer, when it answered with one (the conformance kit
        expects one to a bad request)."""


class RemoteBot:
    """A bot in another process."""

    spec = "remote"
    stale = 0
    """Answers read past because they named an earlier request (they came too late)."""
    last_seconds = 0.0
    """How long the last exchange took, at most its limit (a stdio bot's start-up grace
    left out): what the bot's hand and match clocks are charged."""

    def ask(self, request: dict[str, Any], limit: float) -> dict[str, Any]:
        """The action the bot answers ``request`` with, within ``limit`` seconds."""
        raise NotImplementedError

    def hello(self, limit: float) -> dict[str, Any]:
        """What the bot says it is (``protocols``, ``agent``, ``clock``), asked before
        the first hand; a bot that does not answer it raises :class:`BotError`."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the connection or the process."""


def _within(limit: float, exchange: Callable[[], Any], cancel: Callable[[], None]) -> Any:
    """``exchange()`` run on its own thread; after ``limit`` seconds ``cancel()`` is called
    and the turn is a timeout, however slowly the other side is still answering."""
    outcome: queue.Queue[tuple[bool, Any]] = queue.Queue(maxsize=1)

    def run() -> None:
        try:
            outcome.put((True, exchange()))
        except BaseException as error:  # handed to the caller below
            outcome.put((False, error))

    threading.Thread(target=run, daemon=True).start()
    try:
        done, value = outcome.get(timeout=limit)
    except queue.Empty:
        cancel()
        raise BotError("timeout", f"no answer within {limit:g} s") from None
    if not done:
        raise value
    return value


class HttpBot(RemoteBot):
    """A bot server reached over HTTP; the time limit covers the whole exchange."""

    def __init__(self, url: str) -> None:
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not a bot URL: {url!r}")
        try:
            parts.port  # noqa: B018 (checks the port)
        except ValueError:
            raise ValueError(f"not a bot URL: {url!r} (bad port)") from None
        self.spec = url
        self._parts = parts
        self.path = "/v1/act" if parts.path in ("", "/") else parts.path
        if parts.query:
            self.path += "?" + parts.query
        self.url = f"{parts.scheme}://{parts.netloc}{self.path}"

    def ask(self, request: dict[str, Any], limit: float) -> dict[str, Any]:
        answer = self._exchange("POST", self.path, json.dumps(request).encode(), limit)
        try:
            return parse_response(answer, id=request.get("id"))
        except ProtocolError as error:
            raise BotError("garbage", error.message, error) from None

    def hello(self, limit: float) -> dict[str, Any]:
        answer = self._exchange("GET", "/v1", None, limit)
        try:
            return parse_hello(decode_json(answer))
        except ProtocolError as error:
            raise BotError("garbage", f"GET /v1: {error.message}") from None

    def _exchange(self, method: str, path: str, body: bytes | None, limit: float) -> bytes:
        """The body of the answer to one HTTP request, all of it within ``limit``."""
        parts = self._parts
        kind = http.client.HTTPSConnection if parts.scheme == "https" else (
            http.client.HTTPConnection)
        connection = kind(parts.hostname or "", parts.port, timeout=limit)
        headers = {"Content-Type": "application/json"} if body is not None else {}

        def exchange() -> bytes:
            connection.request(method, path, body, headers)
            answer = connection.getresponse()
            return answer.read(MAX_MESSAGE_BYTES + 1)

        def cancel() -> None:
            sock = connection.sock
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)  # wakes the thread blocked reading
            connection.close()

        started = time.monotonic()
        try:
            answer: bytes = _within(limit, exchange, cancel)
            return answer
        except (ConnectionRefusedError, socket.gaierror) as error:
            raise BotError("gone", f"cannot reach {self.url}: {error}") from None
        except TimeoutError:
            raise BotError("timeout", f"no answer within {limit:g} s") from None
        except (OSError, ValueError, http.client.HTTPException) as error:
            raise BotError("garbage", f"not an HTTP answer: {error!r}") from None
        finally:
            connection.close()
            self.last_seconds = min(time.monotonic() - started, limit)


STARTUP_GRACE = 20.0
"""Seconds a started program has, on top of the time limit, for its first answer (it
may still be importing its libraries)."""


LINE_BUFFER = 16
"""Answer lines a stdio bot may have written ahead of the table's reading: the reader
waits (and so, once its pipe is full, does the bot) until the table reads on."""


class ProcessBot(RemoteBot):
    """A program speaking the protocol as JSON lines on its stdin and stdout; its first
    answer may take :data:`STARTUP_GRACE` seconds longer than the time limit.

    At most :data:`LINE_BUFFER` lines of at most ``MAX_MESSAGE_BYTES`` each are held, so
    a bot that writes without end costs the table no memory; every line read is checked
    against the deadline, so it costs no more time than its limit either. An answer to an
    earlier request (another ``id``, which came too late) is read past and counted in
    :attr:`stale`."""

    def __init__(self, command: str) -> None:
        argv = shlex.split(command)
        if not argv:
            raise ValueError("stdio: needs a command, e.g. stdio:teenpatti serve --stdio")
        self.spec = f"stdio:{command}"
        try:
            self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        except OSError as error:
            raise ValueError(f"cannot start {command!r}: {error.strerror or error}") from None
        self._lines: queue.Queue[bytes | ProtocolError | None] = queue.Queue(LINE_BUFFER)
        self._outbox: queue.Queue[bytes] = queue.Queue()
        self._closed_input = False
        self._closing = threading.Event()
        self._asked: set[Any] = set()
        self._hellos = 0
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._write, daemon=True).start()

    def _read(self) -> None:
        """Hands the program's answer lines to :meth:`ask`; a line longer than the
        protocol allows is handed over as its error, never held whole."""
        stdout = self.process.stdout
        assert stdout is not None
        while not self._closing.is_set():
            line: bytes | ProtocolError | None
            try:
                line = read_line(stdout)
            except ProtocolError as error:
                line = error
            except (OSError, ValueError):
                line = None
            while not self._closing.is_set():
                try:
                    self._lines.put(line, timeout=0.5)
                    break
                except queue.Full:
                    continue
            if line is None:
                return

    def _write(self) -> None:
        """Hands requests to the program; a program that stops reading blocks only
        this thread, never the table."""
        stdin = self.process.stdin
        assert stdin is not None
        while True:
            line = self._outbox.get()
            try:
                stdin.write(line)
                stdin.flush()
            except (OSError, ValueError):
                self._closed_input = True
                return

    def ask(self, request: dict[str, Any], limit: float) -> dict[str, Any]:
        ident = request.get("id")
        return self._exchange(request, limit, lambda data: parse_response(data, id=ident))

    def hello(self, limit: float) -> dict[str, Any]:
        self._hellos += 1
        ident = f"hello-{self._hellos}"
        message = {"protocol": PROTOCOL, "id": ident, "hello": True}
        return self._exchange(message, limit, lambda data: parse_hello(data, id=ident))

    def _exchange(self, message: dict[str, Any], limit: float,
                  parse: Callable[[Any], dict[str, Any]]) -> dict[str, Any]:
        """Send ``message`` and ``parse`` the first answer line that is not stale."""
        grace = 0.0 if self._asked else STARTUP_GRACE
        sent = time.monotonic()
        deadline = sent + limit + grace
        self.last_seconds = 0.0
        if self.process.poll() is not None:
            raise BotError("gone", f"the bot exited with status {self.process.returncode}")
        if self._closed_input:
            raise BotError("gone", "the bot closed its input")
        self._outbox.put(json.dumps(message).encode() + b"\n")
        self._asked.add(message.get("id"))
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:  # checked before every line, however fast they come
                    raise BotError("timeout", f"no answer within {limit:g} s")
                try:
                    line = self._lines.get(timeout=left)
                except queue.Empty:
                    raise BotError("timeout", f"no answer within {limit:g} s") from None
                if line is None:
                    self._lines.put(None)  # every later ask sees the end too
                    raise BotError("gone", "the bot closed its output")
                try:
                    if isinstance(line, ProtocolError):
                        raise line
                    data = decode_json(line)
                    if self._late(data, message.get("id")):
                        self.stale += 1  # an answer to an earlier request, too late
                        continue
                    return parse(data)
                except ProtocolError as error:
                    raise BotError("garbage", error.message, error) from None
        finally:
            self.last_seconds = min(max(time.monotonic() - sent - grace, 0.0), limit)

    def _late(self, data: Any, current: Any) -> bool:
        """Whether a decoded answer names an earlier request of this bot."""
        ident = data.get("id") if isinstance(data, dict) else None
        return isinstance(ident, (str, int)) and ident != current and ident in self._asked

    def close(self) -> None:
        self._closing.set()
        if self.process.poll() is None:
            try:
                self.process.terminate()
                self.process.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()


def connect(spec: str) -> RemoteBot:
    """The remote bot a spec names (``http://...``, ``https://...``, ``stdio:COMMAND``)."""
    if spec.startswith("stdio:"):
        return ProcessBot(spec[len("stdio:"):])
    return HttpBot(spec)
