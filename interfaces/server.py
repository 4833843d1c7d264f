"""``teenpatti serve``: a bot over HTTP, or over stdin/stdout as JSON lines, and a web
table where a person plays against bots.

HTTP routes (every answer is JSON, except the page and its files):

* ``POST /v1/act``: a ``teenpatti-bot/1`` request; the answer is one action (200) or an
  error (400 bad request, 413 too large, 500 the agent failed).
* ``GET /v1``: what is served (agent, protocol); ``GET /v1/schema``: the JSON Schema.
* ``GET /``: the web table; ``POST /v1/games`` starts a session against bots
  (``{"bots": [...], "preset", "variant", "hands", "seed"}`` and the table settings of
  ``interfaces.web_games.TABLE_SETTINGS``, whose limits ``GET /v1`` tells; that module
  keeps the games), ``GET /v1/games/ID`` reads it, ``POST /v1/games/ID/act`` sends the
  person's action (``{"action": {...}}``),
  ``POST /v1/games/ID/timeout`` plays the person's turn as missed when the page's turn
  timer runs out (VARIANTS.md C4), ``POST /v1/games/ID/next`` goes on from an ended hand
  (with ``"pause": true``). Each game answer holds ``game``, ``state`` and ``settings``
  (the game's settings, for the page's form after a reload).

Each connection is answered on its own thread, at most ``max_connections`` at once and
at most ``max_per_client`` from one client address (one more is answered 503 ``busy`` at
once), and each request has ``request_seconds`` in all to
arrive, and as long again to take its answer: a client that sends or reads slowly is cut
off, however steadily it trickles. A bad request gets an error answer and never takes the
server down; a client that hangs up is no error.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import socket
import sys
import threading
import time
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import IO, Any

from interfaces.guide import bot_guide
from interfaces.service import BotService
from interfaces.story import CATEGORY_WORDS
from interfaces.table import MOVE_KEYS
from interfaces.table_defaults import PRESET_SETTINGS, TABLE_SETTINGS, defaults_info
from interfaces.web_games import SECURITY_HEADERS, GameStore, check_origin
from teenpatti_env.protocol import (
    MAX_MESSAGE_BYTES,
    PROTOCOL,
    ProtocolError,
    hello_info,
    http_status,
    make_error,
    read_line,
    schema,
)

WEB_DIR = Path(__file__).parent / "web"
WEB_FILES = {"index.html": "text/html", "app.js": "text/javascript",
             "explain.js": "text/javascript", "style.css": "text/css"}
MAX_CONNECTIONS = 64
"""Connections served at once by default; one more is answered 503 ``busy``."""
CLIENT_SHARE = 2
"""By default one client address is served at most ``max_connections // CLIENT_SHARE``
connections at once (one more from it is answered 503 ``busy``), so one client cannot
hold the whole server."""
REQUEST_SECONDS = 10.0
"""Default seconds a request has, in all, to arrive (and again to take its answer)."""
_LINGER_SECONDS = 1.0
"""How long a connection refused as busy is kept half closed, for the client to read the
answer."""
_BUSY = json.dumps(make_error(ProtocolError(
    "busy", "the server is answering as many connections as it takes; try again shortly"
))).encode()
_BUSY_ANSWER = (
    b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: application/json\r\n"
    b"Content-Length: %d\r\nRetry-After: 1\r\nCache-Control: no-store\r\n"
    b"Connection: close\r\n\r\n%s" % (len(_BUSY), _BUSY)
)


_GAME_PATH = re.compile(r"/v1/games/([^/]+)(/act|/timeout|/next)?")


class BotServer(ThreadingHTTPServer):
    """The HTTP server: a :class:`BotService` plus the web sessions, serving at most
    ``max_connections`` connections at once, each request within ``request_seconds``."""

    daemon_threads = True
    request_queue_size = 128

    def __init__(
        self,
        address: tuple[str, int],
        service: BotService,
        quiet: bool = True,
        max_connections: int = MAX_CONNECTIONS,
        request_seconds: float = REQUEST_SECONDS,
        max_per_client: int | None = None,
    ) -> None:
        if not isinstance(max_connections, int) or max_connections < 1:
            raise ValueError(f"max_connections must be an int >= 1, got {max_connections!r}")
        if max_per_client is None:
            max_per_client = max(1, max_connections // CLIENT_SHARE)
        if not isinstance(max_per_client, int) or max_per_client < 1:
            raise ValueError(f"max_per_client must be an int >= 1, got {max_per_client!r}")
        if not 0 < request_seconds < 3600:
            raise ValueError(f"request_seconds must be above 0, got {request_seconds!r}")
        self.service = service
        self.games = GameStore(service.spec)
        self.quiet = quiet
        self.max_connections = max_connections
        self.request_seconds = request_seconds
        self.max_per_client = min(max_per_client, max_connections)
        self._active = 0
        self._per_client: dict[str, int] = {}
        """Connections served now, by client address (an address serving none is dropped)."""
        self._active_lock = threading.Lock()
        self._lingering: list[tuple[socket.socket, float]] = []
        """Connections refused as busy, half closed, and when to close them."""
        super().__init__(address, BotHandler)

    @property
    def active_connections(self) -> int:
        """Connections being served now."""
        return self._active

    def process_request(self, request: Any, client_address: Any) -> None:
        """Serve the connection on a thread of its own, or answer 503 ``busy`` at once
        when ``max_connections`` are being served, or ``max_per_client`` from its
        client's address."""
        client = _client(client_address)
        with self._active_lock:
            held = self._per_client.get(client, 0)
            full = self._active >= self.max_connections or held >= self.max_per_client
            if not full:
                self._active += 1
                self._per_client[client] = held + 1
        if full:
            self._refuse_busy(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._release(client)
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._release(_client(client_address))

    def _release(self, client: str) -> None:
        with self._active_lock:
            self._active -= 1
            left = self._per_client[client] - 1
            if left:
                self._per_client[client] = left
            else:
                del self._per_client[client]

    def _refuse_busy(self, connection: socket.socket) -> None:
        """Answer 503 ``busy`` from the accepting thread without waiting on the client.
        The connection is only half closed and kept a moment, its input read and
        dropped: closing it over the request that is still arriving would reset it
        before the client reads the answer."""
        with contextlib.suppress(OSError):
            connection.setblocking(False)
            _drain(connection)
            connection.send(_BUSY_ANSWER)
            connection.shutdown(socket.SHUT_WR)
        self._lingering.append((connection, time.monotonic() + _LINGER_SECONDS))
        while len(self._lingering) > 4 * self.max_connections:
            self._close_lingering(0)

    def _close_lingering(self, index: int) -> None:
        connection, _ = self._lingering.pop(index)
        _drain(connection)
        connection.close()

    def service_actions(self) -> None:
        """Close the refused connections whose moment has passed (called by
        ``serve_forever`` between requests and at least every half second)."""
        now = time.monotonic()
        for index in range(len(self._lingering) - 1, -1, -1):
            if self._lingering[index][1] <= now:
                self._close_lingering(index)
            else:
                _drain(self._lingering[index][0])

    def server_close(self) -> None:
        super().server_close()
        while self._lingering:
            self._close_lingering(0)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hangs up or stalls is its own business; anything else is
        printed (and the server carries on)."""
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}"


def _client(client_address: Any) -> str:
    """The address a connection comes from (its host, without the port)."""
    return str(client_address[0]) if isinstance(client_address, tuple) else str(client_address)


def _drain(connection: socket.socket) -> None:
    """Read and drop what the client has sent so far, without waiting."""
    with contextlib.suppress(OSError):
        for _ in range(16):  # at most 1 MiB: a request is far smaller
            if not connection.recv(65536):
                return


class _DeadlineReader(io.RawIOBase):
    """A connection's incoming bytes with one deadline for a whole request: every read
    waits only for what is left of it (a per-read timeout would let a client that sends
    a byte at a time hold its thread for ever)."""

    def __init__(self, connection: socket.socket) -> None:
        super().__init__()
        self.connection = connection
        self.deadline = time.monotonic()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request took too long to arrive")
        self.connection.settimeout(left)
        return self.connection.recv_into(buffer)


class BotHandler(BaseHTTPRequestHandler):
    """Routes one HTTP request."""

    server: BotServer
    server_version = "teenpatti-serve/1"

    def setup(self) -> None:
        super().setup()
        self.rfile.close()  # the plain reader; the socket stays open
        self._incoming = _DeadlineReader(self.connection)
        self.rfile = io.BufferedReader(self._incoming)

    def handle_one_request(self) -> None:
        self._incoming.deadline = time.monotonic() + self.server.request_seconds
        super().handle_one_request()

    def log_message(self, format: str, *args: Any) -> None:
        if not self.server.quiet:
            super().log_message(format, *args)

    def _send(self, status: int, body: bytes, content_type: str) -> None:
        # The answer has as long to be taken as the request had to arrive (sendall's
        # timeout bounds the whole write).
        self.connection.settimeout(self.server.request_seconds)
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, value: Any) -> None:
        self._send(status, json.dumps(value).encode(), "application/json")

    def _error(self, error: ProtocolError) -> None:
        self._json(http_status(error.code), make_error(error))

    def _body(self) -> bytes:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            self.close_connection = True
            raise ProtocolError("invalid_request", "send a Content-Length, not chunks")
        length = self.headers.get("Content-Length")
        try:
            size = int(length) if length is not None else 0
        except ValueError:
            size = -1
        if size < 0:
            self.close_connection = True
            raise ProtocolError("invalid_request", f"bad Content-Length {length!r}")
        if size > MAX_MESSAGE_BYTES:
            self.close_connection = True  # the unread body must not be taken for a request
            raise ProtocolError("too_large", f"a request is at most {MAX_MESSAGE_BYTES} bytes")
        try:
            body = self.rfile.read(size)
        except TimeoutError:
            self.close_connection = True
            raise ProtocolError("invalid_request", f"the request did not arrive within "
                                f"{self.server.request_seconds:g} s") from None
        if len(body) < size:
            self.close_connection = True
            raise ProtocolError("invalid_request",
                                f"the body ended before its Content-Length of {size} bytes")
        return body

    def _route(self, method: str) -> None:
        path = self.path.split("?", 1)[0]
        try:
            handler = self._handler(method, path)
            if method == "GET" and self._body():  # read, so it is not taken for a request
                raise ProtocolError("invalid_request", f"GET {path} takes no body")
            handler()
        except ProtocolError as error:
            self._error(error)
        except (ConnectionError, TimeoutError):
            raise  # the client hung up or stalled: nothing to answer (handle_error)
        except Exception as error:  # a bug answers 500; the server carries on
            print(f"teenpatti serve: {method} {path}: {error!r}", file=sys.stderr)
            self._error(ProtocolError("agent_error", f"internal error: {error}"))

    def _handler(self, method: str, path: str) -> Callable[[], None]:
        game = _GAME_PATH.fullmatch(path)
        routes: dict[tuple[str, str], Callable[[], None]] = {
            ("POST", "/v1/act"): self._act,
            ("GET", "/v1"): self._about,
            ("GET", "/v1/schema"): lambda: self._json(200, schema()),
            ("POST", "/v1/games"): self._new_game,
        }
        if game is not None:
            key = ("POST" if game.group(2) else "GET", "/v1/games/*")
            routes[key] = lambda: self._game(game.group(1), game.group(2))
            path = "/v1/games/*"
        if path in ("/", "/index.html") or path.startswith("/static/"):
            routes[("GET", path)] = lambda: self._file(path)
        if (method, path) in routes:
            return routes[(method, path)]
        if any(p == path for _, p in routes):
            raise ProtocolError("method_not_allowed", f"{method} is not allowed on {path}")
        raise ProtocolError("not_found", f"no such path {path!r}; the bot answers POST /v1/act")

    def do_GET(self) -> None:
        self._route("GET")

    def do_HEAD(self) -> None:
        self._route("GET")

    def do_POST(self) -> None:
        self._route("POST")

    def do_PUT(self) -> None:
        self._route("PUT")

    def do_DELETE(self) -> None:
        self._route("DELETE")

    def do_PATCH(self) -> None:
        self._route("PATCH")

    def do_OPTIONS(self) -> None:
        self._route("OPTIONS")

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        """http.server's own refusals (a malformed request line, an unknown method, a
        too long header) as protocol errors in JSON, like every other answer."""
        kind = {501: "method_not_allowed", 413: "too_large", 414: "too_large",
                431: "too_large"}.get(code, "invalid_request")
        try:
            phrase = HTTPStatus(code).phrase
        except ValueError:
            phrase = "bad request"
        self.close_connection = True
        self._json(405 if code == 501 else code, make_error(ProtocolError(kind, message or phrase)))

    def _act(self) -> None:
        status, answer = self.server.service.answer(self._body())
        self._json(status, answer)

    def _about(self) -> None:
        self._json(200, {"protocol": PROTOCOL, **hello_info(self.server.service.spec),
                         "act": "/v1/act", "schema": "/v1/schema",
                         "bots": self.server.games.bot_names,
                         "settings": TABLE_SETTINGS, "presets": PRESET_SETTINGS,
                         "defaults": defaults_info(),
                         "keys": MOVE_KEYS,
                         "categories": list(CATEGORY_WORDS.values()),
                         **bot_guide(self.server.games.bot_names)})

    def _file(self, path: str) -> None:
        name = "index.html" if path in ("/", "/index.html") else path[len("/static/"):]
        if name not in WEB_FILES:
            raise ProtocolError("not_found", f"no such file {path!r}")
        self._send(200, (WEB_DIR / name).read_bytes(), WEB_FILES[name] + "; charset=utf-8")

    def _new_game(self) -> None:
        body = self._body()  # read first: an unread body must not be taken for a request
        check_origin("POST", self.headers, str(self.server.server_address[0]))
        self._json(201, self.server.games.new_game(body, self.client_address[0]))

    def _game(self, game: str, verb: str | None) -> None:
        """Read a game (``verb`` None), or act, time out or go on to the next hand."""
        body = self._body() if verb else b""
        check_origin("POST" if verb else "GET", self.headers, str(self.server.server_address[0]))
        self._json(200, self.server.games.answer(game, verb, body))


def make_server(
    service: BotService,
    host: str = "127.0.0.1",
    port: int = 8000,
    quiet: bool = True,
    max_connections: int = MAX_CONNECTIONS,
    request_seconds: float = REQUEST_SECONDS,
    max_per_client: int | None = None,
) -> BotServer:
    """A :class:`BotServer` bound to ``host:port`` (port 0: any free port), not yet
    serving: call ``serve_forever()`` (in a thread, for tests). ``max_per_client``
    defaults to half of ``max_connections``."""
    return BotServer((host, port), service, quiet=quiet, max_connections=max_connections,
                     request_seconds=request_seconds, max_per_client=max_per_client)


def serve_stdio(service: BotService, lines: IO[bytes], out: IO[str]) -> int:
    """Answer one request per input line (bytes: a line that is not UTF-8 gets an error
    answer like any other bad line), one JSON answer per output line, until the input
    ends; returns the number of requests answered."""
    answered = 0
    while True:
        try:
            line = read_line(lines)
        except ProtocolError as error:
            answer = make_error(error)
        else:
            if line is None:
                break
            if not line.strip():
                continue
            answer = service.answer(line)[1]
        out.write(json.dumps(answer) + "\n")
        out.flush()
        answered += 1
    return answered
