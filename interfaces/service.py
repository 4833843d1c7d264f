"""A bot behind the protocol: one agent answering ``teenpatti-bot/1`` requests.

:class:`BotService` is what ``teenpatti serve`` runs over HTTP and over stdin/stdout. It
is safe to call from many threads at once. A hello (``{"protocol": "teenpatti-bot/1",
"hello": true}``) is answered with the protocols spoken and the agent served. A request
without a ``table`` is answered by
a fresh agent that sees only that request. Agents that remember what they saw earlier in
a hand (the scripted ones read bets made after looks) keep that memory per ``table`` and
seat, and start afresh when the request's ``hand`` changes, as they do at a local table.

A trained policy plays only the tables it was trained for. A request for another table (a
seat count, a variant, dealer's choice) is answered by the fallback agent (``equity``),
and the answer says so in its ``notice``; with no fallback it is refused as
``invalid_view``, "cannot play this view".
"""

from __future__ import annotations

import sys
import threading
import zlib
from collections import OrderedDict
from typing import Any

from agents import Agent, make_agent
from agents.defaults import FALLBACK_AGENT, fitting_agent
from teenpatti_env.protocol import (
    ProtocolError,
    Request,
    check_hello,
    decode_json,
    http_status,
    is_hello,
    make_error,
    make_hello,
    make_response,
    parse_request,
)
from teenpatti_env.rules import Rules

MAX_TABLES = 10_000
"""Table memories kept; the least recently used goes first."""


class _Memory:
    """One agent at one seat of one table, and the hand it last saw."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.hand: Any = None
        self.lock = threading.Lock()


class BotService:
    """Answers protocol requests with the moves of the agent ``spec`` (``"equity"``,
    ``"pretrained:classic"``, ``"ppo:PATH"``); ``seed`` seeds every agent it builds.
    ``fallback`` answers the tables ``spec`` cannot play (``None``: refuse them)."""

    def __init__(self, spec: str, seed: int = 0, fallback: str | None = FALLBACK_AGENT) -> None:
        self.spec = spec
        self.seed = seed
        self.fallback = fallback
        make_agent(spec, seed=seed)  # an unknown spec fails here, not at the first request
        if fallback is not None:
            make_agent(fallback)
        self._memories: OrderedDict[tuple[str, str, int], _Memory] = OrderedDict()
        self._lock = threading.Lock()
        self._players: dict[Rules, tuple[str, str | None]] = {}

    def _seed_for(self, table: str, seat: int) -> int:
        return zlib.crc32(f"{self.seed}/{table}/{seat}".encode()) & 0x7FFFFFFF

    def player_for(self, rules: Rules) -> tuple[str, str | None]:
        """The agent that answers at a table under ``rules`` and the notice the answer
        carries: ``(spec, None)``, or the fallback and why, when ``spec`` cannot play it."""
        with self._lock:
            player = self._players.get(rules)
        if player is None:
            player = (self.spec, None) if self.fallback is None else fitting_agent(
                self.spec, rules, self.fallback)
            with self._lock:
                if len(self._players) >= MAX_TABLES:
                    self._players.clear()
                self._players[rules] = player
        return player

    def _memory(self, spec: str, table: str, seat: int) -> _Memory:
        key = (spec, table, seat)
        with self._lock:
            memory = self._memories.get(key)
            if memory is None:
                memory = _Memory(make_agent(spec, seed=self._seed_for(table, seat)))
                self._memories[key] = memory
                while len(self._memories) > MAX_TABLES:
                    self._memories.popitem(last=False)
            else:
                self._memories.move_to_end(key)
            return memory

    def decide(self, request: Request) -> tuple[dict[str, Any], str, str | None]:
        """The action (without its seat) for a checked request, its action name, and the
        notice when the fallback agent answered (:meth:`player_for`)."""
        observation, mask, info = request.decision()
        spec, notice = self.player_for(request.rules)
        if request.table is None:
            agent = make_agent(spec, seed=self.seed)
            agent.check_rules(request.rules)  # a general policy reads the table's rules
            agent.reset()
            index = agent.act(observation, mask, info)
        else:
            memory = self._memory(spec, request.table, request.seat)
            with memory.lock:
                memory.agent.check_rules(request.rules)
                if memory.hand is None or memory.hand != request.hand or request.hand is None:
                    memory.agent.reset()
                    memory.hand = request.hand
                index = memory.agent.act(observation, mask, info)
        index = int(index)
        if not (0 <= index < mask.size and mask[index]):
            raise ProtocolError("agent_error", f"the agent chose illegal action {index}")
        return request.action_of(index), request.action_name(index), notice

    def answer(self, message: bytes | str) -> tuple[int, dict[str, Any]]:
        """``(HTTP status, answer)`` for one request's JSON text; never raises."""
        request_id = None
        try:
            data = decode_json(message)
            if is_hello(data):
                return 200, make_hello(self.spec, check_hello(data))
            request = parse_request(data if isinstance(data, dict) else message)
            request_id = request.id
            try:
                action, name, notice = self.decide(request)
            except ProtocolError:
                raise
            except ValueError as error:  # e.g. a policy trained for another table size
                raise ProtocolError("invalid_view", f"{self.spec} cannot play this view: "
                                    f"{error}") from None
            return 200, make_response(action, request_id, name, notice)
        except ProtocolError as error:
            return http_status(error.code), make_error(
                error, request_id if error.id is None else error.id)
        except Exception as error:  # an agent's bug must not take the server down
            print(f"teenpatti serve: agent error: {error!r}", file=sys.stderr)
            return 500, make_error(ProtocolError("agent_error", f"the agent failed: {error}"),
                                   request_id)
