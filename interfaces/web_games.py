"""The web table's games: a store of sessions against bots, their settings and the
answers of the ``/v1/games`` routes (``interfaces.server`` routes the requests here).

A game answer holds ``game``, ``state`` (``PlayTable.state()``) and ``settings`` (the
game's settings, for the page's form after a reload).
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from typing import Any

from agents import SCRIPTED_AGENTS
from interfaces.table import PlayTable, check_bot_count
from teenpatti_env.errors import IllegalActionError
from teenpatti_env.protocol import ProtocolError, decode_json
from teenpatti_env.rules import Rules

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
                raise ProtocolError("not_found", f"no such game {game!r} (it may have expired)")
            self._games.move_to_end(game)
            return entry

    def new_game(self, body: bytes) -> dict[str, Any]:
        """The answer to ``POST /v1/games`` (sent 201)."""
        game, table, settings = self.create(decode_json(body or b"{}"))
        return {"game": game, "state": table.state(), "settings": settings}

    def answer(self, game: str, verb: str | None, body: bytes) -> dict[str, Any]:
        """Read a game (``verb`` None), or act, time out or go on to the next hand
        (``/act``, ``/timeout``, ``/next``): the game answer."""
        table, lock, settings = self.get(game)
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
            return {"game": game, "state": table.state(), "settings": settings}
