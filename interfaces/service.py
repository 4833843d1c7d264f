"""A bot behind the protocol: one agent answering ``teenpatti-bot/1`` requests.

:class:`BotService` is what ``teenpatti serve`` runs over HTTP and over stdin/stdout. It
is safe to call from many threads at once. A hello (``{"protocol": "teenpatti-bot/1",
"hello": true}``) is answered with the protocols spoken and the agent served. A request
without a ``table`` is answered by
a fresh agent that sees only that request. Agents that remember what they saw earlier in
a hand (the scripted ones read bets made after looks) keep that memory per ``table`` and
seat, and start afresh when the request's ``hand`` changes, as they do at a local table.
"""

from __future__ import annotations

import sys
import threading
import zlib
from collections import OrderedDict
from typing import Any

from agents import Agent, make_agent
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
    ``"pretrained:classic"``, ``"ppo:PATH"``); ``seed`` seeds every agent it builds."""

    def __init__(self, spec: str, seed: int = 0) -> None:
        self.spec = spec
        self.seed = seed
        make_agent(spec, seed=seed)  # an unknown spec fails here, not at the first request
        self._memories: OrderedDict[tuple[str, int], _Memory] = OrderedDict()
        self._lock = threading.Lock()

    def _seed_for(self, table: str, seat: int) -> int:
        return zlib.crc32(f"{self.seed}/{table}/{seat}".encode()) & 0x7FFFFFFF

    def _memory(self, table: str, seat: int) -> _Memory:
        key = (table, seat)
        with self._lock:
            memory = self._memories.get(key)
            if memory is None:
                memory = _Memory(make_agent(self.spec, seed=self._seed_for(table, seat)))
                self._memories[key] = memory
                while len(self._memories) > MAX_TABLES:
                    self._memories.popitem(last=False)
            else:
                self._memories.move_to_end(key)
            return memory

    def decide(self, request: Request) -> tuple[dict[str, Any], str]:
        """The action (without its seat) for a checked request, and its action name."""
        observation, mask, info = request.decision()
        if request.table is None:
            agent = make_agent(self.spec, seed=self.seed)
            agent.reset()
            index = agent.act(observation, mask, info)
        else:
            memory = self._memory(request.table, request.seat)
            with memory.lock:
                if memory.hand is None or memory.hand != request.hand or request.hand is None:
                    memory.agent.reset()
                    memory.hand = request.hand
                index = memory.agent.act(observation, mask, info)
        index = int(index)
        if not (0 <= index < mask.size and mask[index]):
            raise ProtocolError("agent_error", f"the agent chose illegal action {index}")
        return request.action_of(index), request.action_name(index)

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
                action, name = self.decide(request)
            except ProtocolError:
                raise
            except ValueError as error:  # e.g. a policy trained for another table size
                raise ProtocolError("invalid_view", f"{self.spec} cannot play this view: "
                                    f"{error}") from None
            return 200, make_response(action, request_id, name)
        except ProtocolError as error:
            return http_status(error.code), make_error(
                error, request_id if error.id is None else error.id)
        except Exception as error:  # an agent's bug must not take the server down
            print(f"teenpatti serve: agent error: {error!r}", file=sys.stderr)
            return 500, make_error(ProtocolError("agent_error", f"the agent failed: {error}"),
                                   request_id)
