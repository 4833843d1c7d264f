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

from teenpatti_env.protocol import (
    MAX_MESSAGE_BYTES,
    ProtocolError,
    RefusedError,
    decode_json,
    parse_response,
    read_line,
)

FAULTS = ("timeout", "garbage", "illegal", "gone")
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

    def ask(self, request: dict[str, Any], limit: float) -> dict[str, Any]:
        """The action the bot answers ``request`` with, within ``limit`` seconds."""
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
        parts = self._parts
        kind = http.client.HTTPSConnection if parts.scheme == "https" else (
            http.client.HTTPConnection)
        connection = kind(parts.hostname or "", parts.port, timeout=limit)
        body = json.dumps(request).encode()

        def exchange() -> bytes:
            connection.request("POST", self.path, body, {"Content-Type": "application/json"})
            answer = connection.getresponse()
            return answer.read(MAX_MESSAGE_BYTES + 1)

        def cancel() -> None:
            sock = connection.sock
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)  # wakes the thread blocked reading
            connection.close()

        try:
            answer = _within(limit, exchange, cancel)
        except (ConnectionRefusedError, socket.gaierror) as error:
            raise BotError("gone", f"cannot reach {self.url}: {error}") from None
        except TimeoutError:
            raise BotError("timeout", f"no answer within {limit:g} s") from None
        except (OSError, ValueError, http.client.HTTPException) as error:
            raise BotError("garbage", f"not an HTTP answer: {error!r}") from None
        finally:
            connection.close()
        try:
            return parse_response(answer, id=request.get("id"))
        except ProtocolError as error:
            raise BotError("garbage", error.message, error) from None


STARTUP_GRACE = 20.0
"""Seconds a started program has, on top of the time limit, for its first answer (it
may still be importing its libraries)."""


class ProcessBot(RemoteBot):
    """A program speaking the protocol as JSON lines on its stdin and stdout; its first
    answer may take :data:`STARTUP_GRACE` seconds longer than the time limit."""

    def __init__(self, command: str) -> None:
        argv = shlex.split(command)
        if not argv:
            raise ValueError("stdio: needs a command, e.g. stdio:teenpatti serve --stdio")
        self.spec = f"stdio:{command}"
        try:
            self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        except OSError as error:
            raise ValueError(f"cannot start {command!r}: {error.strerror or error}") from None
        self._lines: queue.Queue[bytes | ProtocolError | None] = queue.Queue()
        self._outbox: queue.Queue[bytes] = queue.Queue()
        self._closed_input = False
        self._asked: set[Any] = set()
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._write, daemon=True).start()

    def _read(self) -> None:
        """Hands the program's answer lines to :meth:`ask`; a line longer than the
        protocol allows is handed over as its error, never held whole."""
        stdout = self.process.stdout
        assert stdout is not None
        while True:
            try:
                line = read_line(stdout)
            except ProtocolError as error:
                self._lines.put(error)
                continue
            except (OSError, ValueError):
                line = None
            self._lines.put(line)
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
        deadline = time.monotonic() + limit + (0.0 if self._asked else STARTUP_GRACE)
        if self.process.poll() is not None:
            raise BotError("gone", f"the bot exited with status {self.process.returncode}")
        if self._closed_input:
            raise BotError("gone", "the bot closed its input")
        self._outbox.put(json.dumps(request).encode() + b"\n")
        self._asked.add(request.get("id"))
        while True:
            try:
                line = self._lines.get(timeout=max(deadline - time.monotonic(), 0.0))
            except queue.Empty:
                raise BotError("timeout", f"no answer within {limit:g} s") from None
            if line is None:
                self._lines.put(None)  # every later ask sees the end too
                raise BotError("gone", "the bot closed its output")
            try:
                if isinstance(line, ProtocolError):
                    raise line
                data = decode_json(line)
                if self._late(data, request.get("id")):
                    continue  # an answer to an earlier request that came too late
                return parse_response(data, id=request.get("id"))
            except ProtocolError as error:
                raise BotError("garbage", error.message, error) from None

    def _late(self, data: Any, current: Any) -> bool:
        """Whether a decoded answer names an earlier request of this bot."""
        ident = data.get("id") if isinstance(data, dict) else None
        return isinstance(ident, (str, int)) and ident != current and ident in self._asked

    def close(self) -> None:
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
