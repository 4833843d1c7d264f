"""``teenpatti serve``: a bot over HTTP, or over stdin/stdout as JSON lines, and a web
table where a person plays against bots.

HTTP routes (every answer is JSON, except the page and its files):

* ``POST /v1/act``: a ``teenpatti-bot/1`` request; the answer is one action (200) or an
  error (400 bad request, 413 too large, 500 the agent failed).
* ``GET /v1``: what is served (agent, protocol); ``GET /v1/schema``: the JSON Schema.
* ``GET /``: the web table; ``POST /v1/games`` starts a session against bots
  (``{"bots": [...], "preset", "variant", "hands", "seed"}`` and the table settings of
  :data:`TABLE_SETTINGS`, whose limits ``GET /v1`` tells), ``GET /v1/games/ID`` reads
  it, ``POST /v1/games/ID/act`` sends the person's action (``{"action": {...}}``),
  ``POST /v1/games/ID/timeout`` plays the person's turn as missed when the page's turn
  timer runs out (VARIANTS.md C4), ``POST /v1/games/ID/next`` goes on from an ended hand
  (with ``"pause": true``). Each game answer holds ``game``, ``state`` and ``settings``
  (the game's settings, for the page's form after a reload).

Each request is answered on its own thread; a bad request gets an error answer and
never takes the server down.
"""

from __future__ import annotations

import json
import re
import secrets
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import IO, Any

from agents import SCRIPTED_AGENTS
from interfaces.service import BotService
from interfaces.table import CATEGORY_WORDS, MOVE_KEYS, PlayTable, check_bot_count
from teenpatti_env.errors import IllegalActionError
from teenpatti_env.protocol import (
    MAX_MESSAGE_BYTES,
    PROTOCOL,
    ProtocolError,
    decode_json,
    http_status,
    make_error,
    schema,
)
from teenpatti_env.rules import Rules

WEB_DIR = Path(__file__).parent / "web"
WEB_FILES = {"index.html": "text/html", "app.js": "text/javascript", "style.css": "text/css"}
MAX_GAMES = 200
"""Web sessions kept at once; the least recently used goes first."""
TABLE_SETTINGS: dict[str, dict[str, Any]] = {
    "boot": {"min": 1, "max": 1000},
    "starting_stack": {"min": 1, "max": 1_000_000, "multiple_of": "boot"},
    "max_bet": {"min": 2, "max": 1_000_000, "optional": True, "at_least": "2 * boot"},
    "pot_cap": {"min": 4, "max": 10_000_000, "optional": True, "at_least": "2 * boot * seats"},
    "sideshow": {"type": "bool"},
    "turn_seconds": {"min": 5, "max": 600, "optional": True},
    "hands": {"min": 1, "max": 1000},
}
"""The settings a web game takes beside bots, preset, variant and seed, with their
limits (``GET /v1`` serves them, and the page checks its form with them). Blank
optional settings take the preset's; a turn timer is off unless given."""


def preset_settings(preset: Rules) -> dict[str, Any]:
    """The settings of :data:`TABLE_SETTINGS` a game under ``preset`` has by default."""
    return {"boot": preset.boot, "starting_stack": preset.starting_stack,
            "max_bet": preset.max_bet, "pot_cap": preset.pot_cap, "sideshow": preset.sideshow,
            "turn_seconds": None, "hands": 10}


PRESET_SETTINGS = {name: preset_settings(Rules.preset(name)) for name in Rules.PRESET_NAMES}
"""Each preset's default settings, for the page's form."""
GAME_FIELDS = {"bots", "preset", "variant", "seed", "pause", *TABLE_SETTINGS}


class GameStore:
    """The web sessions of one server, by id (thread-safe)."""

    def __init__(self, default_bot: str) -> None:
        self.default_bot = default_bot
        self.bot_names = [default_bot, *(n for n in SCRIPTED_AGENTS if n != default_bot)]
        self._games: OrderedDict[str, tuple[PlayTable, threading.Lock, dict[str, Any]]] = \
            OrderedDict()
        self._lock = threading.Lock()

    def create(self, options: Any) -> tuple[str, PlayTable, dict[str, Any]]:
        """A new session from the page's options (a JSON object), and its settings
        with every default filled in."""
        if not isinstance(options, dict):
            raise ProtocolError("invalid_request", "a new game's options are a JSON object")
        unknown = sorted(set(options) - GAME_FIELDS)
        if unknown:
            raise ProtocolError("invalid_request", f"unknown fields {unknown}; a game takes "
                                f"{sorted(GAME_FIELDS)}")
        bots = options.get("bots", [self.default_bot] * 3)
        if (not isinstance(bots, list) or any(bot not in self.bot_names for bot in bots)):
            raise ProtocolError("invalid_request", "bots: a list of 2 to 6 of "
                                f"{', '.join(self.bot_names)}")
        seed = options.get("seed", secrets.randbelow(2**31))
        if not _is_int(seed) or not 0 <= seed <= 2**63 - 1:
            raise ProtocolError("invalid_request", "seed must be an int in range")
        pause = options.get("pause", False)
        if not isinstance(pause, bool):
            raise ProtocolError("invalid_request", "pause must be true or false")
        try:
            check_bot_count(len(bots))
            preset = Rules.preset(str(options.get("preset", "classic")),
                                  variant=str(options.get("variant", "classic")))
            settings = table_settings(preset, options, seats=len(bots) + 1)
            rules = preset.replace(boot=settings["boot"],
                                   starting_boots=settings["starting_stack"] // settings["boot"],
                                   max_bet=settings["max_bet"], pot_cap=settings["pot_cap"],
                                   sideshow=settings["sideshow"])
            table = PlayTable(bots, rules, hands=settings["hands"], seed=seed,
                              pause_between_hands=pause,
                              turn_seconds=settings["turn_seconds"])
        except ValueError as error:
            raise ProtocolError("invalid_request", str(error)) from None
        settings.update(bots=list(bots), preset=options.get("preset", "classic"),
                        variant=options.get("variant", "classic"), seed=seed, pause=pause)
        game = secrets.token_hex(8)
        with self._lock:
            self._games[game] = (table, threading.Lock(), settings)
            while len(self._games) > MAX_GAMES:
                self._games.popitem(last=False)
        return game, table, settings

    def get(self, game: str) -> tuple[PlayTable, threading.Lock, dict[str, Any]]:
        with self._lock:
            entry = self._games.get(game)
            if entry is None:
                raise ProtocolError("not_found", f"no game {game!r} (it may have expired)")
            self._games.move_to_end(game)
            return entry


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def table_settings(preset: Rules, options: dict[str, Any], seats: int) -> dict[str, Any]:
    """The settings of :data:`TABLE_SETTINGS` from a new game's ``options``: absent ones
    are the preset's (no turn timer, 10 hands), ``null`` an optional one turned off; a
    value out of its limits is a ``ValueError`` naming the setting."""
    settings = {name: options.get(name, default)
                for name, default in preset_settings(preset).items()}
    for name, limits in TABLE_SETTINGS.items():
        value = settings[name]
        if limits.get("type") == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be true or false, got {value!r}")
        elif not (value is None and limits.get("optional")) and (
                not _is_int(value) or not limits["min"] <= value <= limits["max"]):
            blank = " or blank" if limits.get("optional") else ""
            raise ValueError(f"{name} must be a whole number from {limits['min']} to "
                             f"{limits['max']}{blank}, got {value!r}")
    boot = settings["boot"]
    if settings["starting_stack"] % boot:
        raise ValueError(f"starting_stack must be a multiple of the boot ({boot}), "
                         f"got {settings['starting_stack']}")
    if settings["max_bet"] is not None and settings["max_bet"] < 2 * boot:
        raise ValueError(f"max_bet must be at least twice the boot ({2 * boot}), "
                         f"got {settings['max_bet']}")
    if settings["pot_cap"] is not None and settings["pot_cap"] < 2 * boot * seats:
        raise ValueError(f"pot_cap must be at least twice the boots of the table "
                         f"({2 * boot * seats}), got {settings['pot_cap']}")
    return settings


_GAME_PATH = re.compile(r"/v1/games/([0-9a-f]{16})(/act|/timeout|/next)?")


class BotServer(ThreadingHTTPServer):
    """The HTTP server: a :class:`BotService` plus the web sessions."""

    daemon_threads = True
    request_queue_size = 128

    def __init__(self, address: tuple[str, int], service: BotService, quiet: bool = True):
        self.service = service
        self.games = GameStore(service.spec)
        self.quiet = quiet
        super().__init__(address, BotHandler)

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


class BotHandler(BaseHTTPRequestHandler):
    """Routes one HTTP request."""

    server: BotServer
    server_version = "teenpatti-serve/1"
    timeout = 30  # a client that stops sending mid-request frees its thread

    def log_message(self, format: str, *args: Any) -> None:
        if not self.server.quiet:
            super().log_message(format, *args)

    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
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
            body = b""
        if len(body) < size:
            self.close_connection = True
            raise ProtocolError("invalid_request",
                                f"the body ended before its Content-Length of {size} bytes")
        return body

    def _route(self, method: str) -> None:
        path = self.path.split("?", 1)[0]
        try:
            handler = self._handler(method, path)
            handler()
        except ProtocolError as error:
            self._error(error)
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
        self._json(200, {"protocol": PROTOCOL, "agent": self.server.service.spec,
                         "act": "/v1/act", "schema": "/v1/schema",
                         "bots": self.server.games.bot_names,
                         "settings": TABLE_SETTINGS, "presets": PRESET_SETTINGS,
                         "keys": MOVE_KEYS,
                         "categories": list(CATEGORY_WORDS.values())})

    def _file(self, path: str) -> None:
        name = "index.html" if path in ("/", "/index.html") else path[len("/static/"):]
        if name not in WEB_FILES:
            raise ProtocolError("not_found", f"no such file {path!r}")
        self._send(200, (WEB_DIR / name).read_bytes(), WEB_FILES[name] + "; charset=utf-8")

    def _new_game(self) -> None:
        game, table, settings = self.server.games.create(decode_json(self._body() or b"{}"))
        self._json(201, {"game": game, "state": table.state(), "settings": settings})

    def _game(self, game: str, verb: str | None) -> None:
        """Read a game (``verb`` None), or act, time out or go on to the next hand."""
        body = self._body() if verb else b""
        table, lock, settings = self.server.games.get(game)
        with lock:
            try:
                if verb == "/act":
                    message = decode_json(body)
                    if not isinstance(message, dict) or set(message) != {"action"} or not \
                            isinstance(message["action"], dict):
                        raise ProtocolError("invalid_request",
                                            'send {"action": {"type": ...}}')
                    table.act(message["action"])
                elif verb == "/timeout":
                    table.time_out()
                elif verb == "/next":
                    table.next_hand()
            except IllegalActionError as error:
                raise ProtocolError("illegal_action", str(error)) from None
            self._json(200, {"game": game, "state": table.state(), "settings": settings})


def make_server(
    service: BotService, host: str = "127.0.0.1", port: int = 8000, quiet: bool = True
) -> BotServer:
    """A :class:`BotServer` bound to ``host:port`` (port 0: any free port), not yet
    serving: call ``serve_forever()`` (in a thread, for tests)."""
    return BotServer((host, port), service, quiet=quiet)


def serve_stdio(service: BotService, lines: IO[str], out: IO[str]) -> int:
    """Answer one request per input line, one JSON answer per output line, until the
    input ends; returns the number of requests answered."""
    answered = 0
    while True:
        line = lines.readline(MAX_MESSAGE_BYTES + 1)  # a huge line is never held whole
        if not line:
            break
        if len(line) > MAX_MESSAGE_BYTES:
            while line and not line.endswith("\n"):  # skip the rest of it
                line = lines.readline(MAX_MESSAGE_BYTES + 1)
            answer = make_error(ProtocolError("too_large",
                                              f"a request is at most {MAX_MESSAGE_BYTES} bytes"))
        elif not line.strip():
            continue
        else:
            answer = service.answer(line)[1]
        out.write(json.dumps(answer) + "\n")
        out.flush()
        answered += 1
    return answered
