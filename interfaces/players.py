"""Remote bots as players at a table: one piece of code asks a bot for its turn, for
``teenpatti match`` and ``teenpatti arena`` alike.

:class:`RemotePlayer` builds the request from the seat's view (with the bot's clock),
asks the bot through the transcript (:class:`interfaces.transcript.Transcript`, which
records the request and the answer with their times), and applies the answer; a late,
garbled or illegal answer, or a bot that is gone, is an :class:`agents.loop.MissedTurnError`,
which the table plays as missed. :class:`ArenaSeats` seats remote bots in the arena
beside local agents (``agents.arena.run_arena(..., seats=...)``).
"""

from __future__ import annotations

import itertools
import json
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from agents import Agent, make_agent
from agents.loop import MissedTurnError, TablePlayer
from interfaces.clock import BotClock
from interfaces.remote import REMOTE_PREFIXES, BotError, RemoteBot, connect
from interfaces.transcript import HANDS, Transcript
from teenpatti_env.engine import Hand
from teenpatti_env.errors import IllegalActionError
from teenpatti_env.protocol import make_request


def is_remote(spec: str) -> bool:
    """Whether ``spec`` names a remote bot (``http://``, ``https://``, ``stdio:``)."""
    return spec.startswith(REMOTE_PREFIXES)


class RemotePlayer(TablePlayer):
    """``bot`` at one seat of a table: each turn is one request under ``clock`` (sent in
    the request unless ``send_clock`` is false), with the next id of ``ids``, the table's
    name and ``hand()`` (the number of the hand being played), through ``log``."""

    def __init__(self, bot: RemoteBot, clock: BotClock, log: Transcript, table: str,
                 hand: Callable[[], int], ids: Iterator[int], send_clock: bool = True) -> None:
        super().__init__(None)
        self.name = bot.spec
        self.bot = bot
        self.clock = clock
        self.log = log
        self.table = table
        self.hand = hand
        self.ids = ids
        self.send_clock = send_clock

    def reset(self) -> None:
        """A new hand: wind the hand clock."""
        self.clock.new_hand()

    def play_turn(self, env: Any, name: str) -> dict[str, Any]:
        limit, clock_kind = self.clock.budget()
        run_out = self.clock.exhausted()
        if run_out is not None:
            raise MissedTurnError("timeout", f"its {run_out} time has run out", run_out)
        hand = self.hand()
        request = make_request(env.view(name), id=next(self.ids), table=self.table,
                               hand=hand, clock=self.clock.fields() if self.send_clock else None)
        action: dict[str, Any] = {}
        try:
            action = self.log.ask(self.bot, request, limit, hand, env.agent_name_mapping[name])
            env.step_action(action)
            return action
        except BotError as error:
            raise MissedTurnError(error.kind, error.detail, clock_kind) from None
        except IllegalActionError as error:
            raise MissedTurnError("illegal", f"{json.dumps(action)}: {error}") from None
        finally:
            self.clock.spend(self.bot.last_seconds)


class ArenaSeats:
    """The arena's players (:class:`agents.arena.seating.Seats`): local agents by
    :func:`agents.make_agent`, and a :class:`RemotePlayer` for every remote spec, each
    spec over one connection (one process for ``stdio:``) shared by all its seats, held
    to ``time_limit`` seconds a turn (sent in each request's ``clock`` unless
    ``send_clock`` is false). With ``out``, the folder gets the transcript of
    every request and answer and every hand's history (:mod:`interfaces.transcript`), in
    place of an earlier run's. Use it as a context manager: leaving it closes the bots
    and the transcript."""

    def __init__(self, specs: Sequence[str], time_limit: float = 5.0,
                 out: str | Path | None = None, start: dict[str, Any] | None = None,
                 send_clock: bool = True) -> None:
        BotClock(time_limit)  # checks the limit
        self.time_limit = time_limit
        self.send_clock = send_clock
        self.remote = frozenset(spec for spec in specs if is_remote(spec))
        self.table = f"arena-{uuid.uuid4().hex}"
        self.hands = 0
        self._ids = itertools.count(1)
        if out is not None:  # an earlier run's hands in the folder would read as this one's
            for old in Path(out, HANDS).glob("hand-*.json"):
                old.unlink()
        self.log = Transcript(out, {"kind": "arena", "players": list(specs),
                                    "time_limit": time_limit, "table": self.table,
                                    "at": time.time(), **(start or {})})
        self.bots: dict[str, RemoteBot] = {}
        try:
            for spec in sorted(self.remote):
                self.bots[spec] = connect(spec)
        except BaseException:
            self.close()
            raise

    def make(self, spec: str, seed: int | None) -> Agent:
        if spec not in self.remote:
            return make_agent(spec, seed)
        return RemotePlayer(self.bots[spec], BotClock(self.time_limit), self.log, self.table,
                            lambda: self.hands, self._ids, self.send_clock)

    def hand_done(self, hand: Hand) -> None:
        self.hands += 1
        self.log.hand_done(hand)

    def stale(self) -> dict[str, int]:
        """Per remote bot, the answers read past because they named an earlier request."""
        return {spec: bot.stale for spec, bot in self.bots.items()}

    def close(self) -> None:
        self.log.close()
        for bot in self.bots.values():
            bot.close()

    def __enter__(self) -> ArenaSeats:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
