"""The web table's games: a store of sessions against bots, their settings and the
answers of the ``/v1/games`` routes (``interfaces.server`` routes the requests here).

A game answer holds ``game``, ``state`` (``PlayTable.state()``) and ``settings`` (the
game's settings, for the page's form after a reload).
"""

from __future__ import annotations

import ipaddress
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import Message
from typing import Any
from urllib.parse import urlsplit

from agents import SCRIPTED_AGENTS
from interfaces.table import PlayTable, check_bot_count
from interfaces.table_defaults import TABLE_SETTINGS, table_settings
from teenpatti_env.errors import IllegalActionError
from teenpatti_env.protocol import ProtocolError, decode_json, schema
from teenpatti_env.rules import Rules

MAX_GAMES = 200
"""Web sessions kept at once, of all clients; a new game past it is refused (503
``busy``), never another client's game evicted."""
MAX_GAMES_PER_CLIENT = 8
"""Live web sessions of one client (its IP address); a new game past it ends that
client's least recently used one."""
IDLE_SECONDS = 3600.0
"""A web session nobody has read or played for this long is gone."""
REPLAY_SECONDS = 0.5
"""The page replays each bot move for this long (app.js ``REPLAY_MS``): a turn's
deadline allows for the replay before the person's turn shows. A draw, keep, discard or
pass (a step marked ``quick``) replays faster (``QUICK_REPLAY_MS``), so for those the
allowance errs on the generous side."""
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; "
                               "frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
"""Sent with every answer: the page runs only its own files, in no other page's frame."""
ACTION_FIELDS = frozenset(schema()["$defs"]["action"]["properties"])
"""The fields an action of ``/act`` may have (the bot protocol's action)."""
GAME_FIELDS = {"bots", "preset", "variant", "seed", "pause", *TABLE_SETTINGS}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_loopback(host: str) -> bool:
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_origin(method: str, headers: Message[str, str], bound_host: str) -> None:
    """Refuse a game request another web page may have sent for the player (a
    ``ProtocolError``): on a server bound to a loopback address the ``Host`` must name
    a loopback address (no DNS rebinding); a given ``Origin`` must be this server's; a
    ``POST`` must be ``application/json`` (a foreign page cannot send that without a
    CORS preflight, which the server never grants)."""
    host = headers.get("Host", "")
    name = urlsplit("//" + host).hostname or ""
    if _is_loopback(bound_host) and not _is_loopback(name):
        raise ProtocolError("invalid_request", f"this server answers its games only as localhost, "
                            f"not as {host!r}")
    origin = headers.get("Origin")
    if origin is not None and origin not in (f"http://{host}", f"https://{host}"):
        raise ProtocolError("invalid_request", f"a game is played only from its own page, "
                            f"not from {origin!r}")
    if method == "POST":
        media = headers.get("Content-Type", "").split(";", 1)[0].strip().lower()
        if media != "application/json":
            raise ProtocolError("invalid_request", "send the body as application/json, "
                                f"not {media or 'nothing'!r}")


def _empty_body(body: bytes, route: str) -> None:
    """``/timeout`` and ``/next`` take ``{}`` (or nothing)."""
    message = decode_json(body) if body.strip() else {}
    if message != {} or not isinstance(message, dict):
        raise ProtocolError("invalid_request", f"{route} takes an empty object {{}}, "
                            f"got {message!r:.80}")


def _action_of(body: bytes) -> dict[str, Any]:
    message = decode_json(body)
    if not isinstance(message, dict) or set(message) != {"action"} or not \
            isinstance(message["action"], dict):
        raise ProtocolError("invalid_request", 'send {"action": {"type": ...}}')
    unknown = sorted(set(message["action"]) - ACTION_FIELDS)
    if unknown:
        raise ProtocolError("invalid_request", f"unknown action fields {unknown}; an action "
                            f"takes {sorted(ACTION_FIELDS)}")
    return dict(message["action"])


@dataclass
class _Game:
    """One web session: its table, settings, client, when it was last used and the
    deadline of the person's turn on the server's clock (``None``: no timer runs)."""

    table: PlayTable
    settings: dict[str, Any]
    client: str
    used: float
    deadline: float | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(self, game: str, now: float) -> dict[str, Any]:
        """The game answer: ``game``, ``state``, ``settings`` and ``turn_left``, the
        seconds left on the person's turn (``null``: no timer runs)."""
        left = None if self.deadline is None else round(max(0.0, self.deadline - now), 3)
        return {"game": game, "state": self.table.state(), "settings": self.settings,
                "turn_left": left}

    def restart_timer(self, now: float) -> None:
        """After a move: the person's turn deadline (:meth:`PlayTable.turn_deadline`),
        allowing for the page's replay of the bot moves."""
        self.deadline = self.table.turn_deadline(self.deadline, now, REPLAY_SECONDS)


class GameStore:
    """The web sessions of one server, by id (thread-safe): at most
    :data:`MAX_GAMES_PER_CLIENT` per client, gone after :data:`IDLE_SECONDS` unused."""

    def __init__(self, default_bot: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.default_bot = default_bot
        self.bot_names = [default_bot, *(n for n in SCRIPTED_AGENTS if n != default_bot)]
        self.clock = clock
        self.max_games = MAX_GAMES
        self.max_per_client = MAX_GAMES_PER_CLIENT
        self.idle_seconds = IDLE_SECONDS
        self._games: OrderedDict[str, _Game] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            self._expire(self.clock())
            return len(self._games)

    def _expire(self, now: float) -> None:
        """Drop the games unused for :attr:`idle_seconds` (the oldest come first)."""
        while self._games:
            game, entry = next(iter(self._games.items()))
            if now - entry.used < self.idle_seconds:
                return
            del self._games[game]

    def create(self, options: Any, client: str = "") -> tuple[str, PlayTable, dict[str, Any]]:
        """A new session of ``client`` from the page's options (a JSON object), and its
        settings with every default filled in (the seed only when the options gave one:
        a seed the server drew is never told, it would tell every card to come). Without
        ``bots``, the default bots sit, and one that cannot play the table (a trained
        policy at another seat count or variant) gives its seat to equity, with a
        notice in the state."""
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
        seed = options.get("seed", secrets.randbelow(2**63))
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
                              turn_seconds=settings["turn_seconds"],
                              stand_in="bots" not in options)
        except ValueError as error:
            raise ProtocolError("invalid_request", str(error)) from None
        settings.update(bots=list(table.bot_specs), preset=options.get("preset", "classic"),
                        variant=options.get("variant", "classic"), pause=pause)
        if "seed" in options:
            settings["seed"] = seed
        game = secrets.token_hex(16)
        now = self.clock()
        entry = _Game(table, settings, client, now)
        entry.restart_timer(now)
        with self._lock:
            self._expire(now)
            own = [key for key, old in self._games.items() if old.client == client]
            for key in own[:max(0, len(own) - self.max_per_client + 1)]:
                del self._games[key]
            if len(self._games) >= self.max_games:
                raise ProtocolError("busy", "the server keeps as many games as it can; "
                                    "try again later")
            self._games[game] = entry
        return game, table, settings

    def get(self, game: str) -> _Game:
        """The live game ``game`` (its last use now), or ``not_found``."""
        now = self.clock()
        with self._lock:
            self._expire(now)
            entry = self._games.get(game)
            if entry is None:
                raise ProtocolError("not_found", f"no such game {game!r:.40} (it may have "
                                    "expired)")
            entry.used = now
            self._games.move_to_end(game)
            return entry

    def new_game(self, body: bytes, client: str = "") -> dict[str, Any]:
        """The answer to ``POST /v1/games`` (sent 201)."""
        game, _, _ = self.create(decode_json(body or b"{}"), client)
        entry = self.get(game)
        with entry.lock:
            return entry.answer(game, self.clock())

    def answer(self, game: str, verb: str | None, body: bytes) -> dict[str, Any]:
        """Read a game (``verb`` None), or act, time out or go on to the next hand
        (``/act``, ``/timeout``, ``/next``): the game answer. ``/timeout`` is refused
        where no timer runs or before the turn's deadline on the server's clock."""
        entry = self.get(game)
        table = entry.table
        with entry.lock:
            now = self.clock()
            try:
                if verb == "/act":
                    table.act(_action_of(body))
                elif verb == "/timeout":
                    _empty_body(body, verb)
                    if entry.deadline is None:
                        raise IllegalActionError("no turn timer runs now")
                    if now < entry.deadline:
                        raise IllegalActionError(f"the turn has {entry.deadline - now:.1f} s "
                                                 "left")
                    table.time_out()
                elif verb == "/next":
                    _empty_body(body, verb)
                    table.next_hand()
            except IllegalActionError as error:
                raise ProtocolError("illegal_action", str(error)) from None
            if verb is not None:
                entry.restart_timer(now)
            return entry.answer(game, now)
