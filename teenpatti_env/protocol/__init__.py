"""The bot protocol ``teenpatti-bot/1``: how another program asks a bot for a move.

A request holds one seat's view of the table, the seat that must act: exactly the info
dict the environment gives that seat (:meth:`raw_env.view`), rules, seats, stacks, pot,
stake, what the seat knows and its legal actions with their bet bounds. The answer is
one legal action, as a hand-history action without its seat. Both are JSON objects; the
JSON Schema in ``teenpatti_env/protocol/schemas/teenpatti-bot-1.schema.json`` is the reference
(:func:`schema`), and ``docs/protocol.md`` walks through it.

>>> import json
>>> from teenpatti_env.environment.aec import raw_env
>>> env = raw_env()
>>> env.reset(seed=0)
>>> request = make_request(env.view(env.agent_selection), id=1)
>>> parse_request(json.dumps(request)).view["seat"] == env.hand.to_act
True

This package checks messages and turns a view into what an agent reads (observation
vector, action mask, info): the messages and their schema are ``messages.py``, the
checks of a view ``view_checks.py``, and this module reads a request and re-exports the
names of both. Serving agents is :mod:`interfaces.server`'s job.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.environment.observation import ObservationLayout
from teenpatti_env.protocol.messages import ERROR_CODES as ERROR_CODES
from teenpatti_env.protocol.messages import HTTP_STATUS as HTTP_STATUS
from teenpatti_env.protocol.messages import MAX_MESSAGE_BYTES as MAX_MESSAGE_BYTES
from teenpatti_env.protocol.messages import PROTOCOL as PROTOCOL
from teenpatti_env.protocol.messages import SCHEMA_PATH as SCHEMA_PATH
from teenpatti_env.protocol.messages import ProtocolError as ProtocolError
from teenpatti_env.protocol.messages import RefusedError as RefusedError
from teenpatti_env.protocol.messages import check_hello as check_hello
from teenpatti_env.protocol.messages import check_protocol, check_schema, request_id_of
from teenpatti_env.protocol.messages import decode_json as decode_json
from teenpatti_env.protocol.messages import hello_info as hello_info
from teenpatti_env.protocol.messages import http_status as http_status
from teenpatti_env.protocol.messages import is_hello as is_hello
from teenpatti_env.protocol.messages import make_error as make_error
from teenpatti_env.protocol.messages import make_hello as make_hello
from teenpatti_env.protocol.messages import make_request as make_request
from teenpatti_env.protocol.messages import make_response as make_response
from teenpatti_env.protocol.messages import parse_hello as parse_hello
from teenpatti_env.protocol.messages import parse_response as parse_response
from teenpatti_env.protocol.messages import read_line as read_line
from teenpatti_env.protocol.messages import schema as schema
from teenpatti_env.protocol.view_checks import (
    check_cards,
    check_legal,
    check_seats,
    check_text,
    check_turn,
)
from teenpatti_env.rules import Rules


@dataclass(frozen=True)
class Request:
    """A checked request: its view, the rules the view is played under and the tables
    of observation slots and actions that go with them."""

    view: dict[str, Any]
    id: str | int | None
    table: str | None
    hand: str | int | None
    rules: Rules
    """The table's rules (under dealer's choice, with every allowed variant)."""
    clock: dict[str, float] | None = None
    """The bot's clock when the caller sent one (``limit``, ``hand_left``, ``match_left``)."""

    @property
    def seat(self) -> int:
        return int(self.view["seat"])

    def decision(self) -> tuple[NDArray[np.float32], NDArray[np.int8], dict[str, Any]]:
        """``(observation, action_mask, info)`` as the environment would give them (built
        once: checking the request already needs them)."""
        return self._decision

    @cached_property
    def _decision(self) -> tuple[NDArray[np.float32], NDArray[np.int8], dict[str, Any]]:
        return decision_inputs(self.view, self.rules)

    def action_name(self, index: int) -> str:
        """The environment's name of an action index (``"bet_max"``, ...)."""
        return _action_layout(self.rules).names[index]

    def action_of(self, index: int) -> dict[str, Any]:
        """The action (without its seat) that a legal action index means here."""
        layout = _action_layout(self.rules)
        return layout.decode_legal(index, self.view["legal"], bool(self.view["seen"]))


@lru_cache(maxsize=64)
def _layouts(rules: Rules) -> tuple[ObservationLayout, ActionLayout]:
    return ObservationLayout(rules), ActionLayout(rules)


def _action_layout(rules: Rules) -> ActionLayout:
    return _layouts(rules)[1]


def parse_request(message: bytes | str | Mapping[str, Any]) -> Request:
    """Check a request (JSON text or the decoded object) and return it.

    Every problem is a :class:`ProtocolError`: bad JSON, another protocol version,
    unknown or missing fields, values of the wrong type, seats out of range, cards or
    rules that do not parse, a view with no legal action.
    """
    data = decode_json(message) if isinstance(message, (bytes, str)) else message
    try:
        return _parse_request(data)
    except ProtocolError as error:
        error.id = request_id_of(data)
        raise


def _parse_request(data: Any) -> Request:
    check_protocol(data)
    check_schema("request", data, "invalid_request")
    for key in ("id", "table", "hand"):
        check_text(data.get(key), key)
    view = data["view"]
    try:
        hand_rules = rules = Rules.from_dict(view["rules"])
        if view.get("table_rules"):  # dealer's choice: ``rules`` is the chosen variant's
            rules = Rules.from_dict(view["table_rules"])
    except (TypeError, ValueError) as error:
        raise ProtocolError("invalid_view", f"view/rules: {error}") from None
    check_seats(view, rules.num_players)
    check_cards(view, hand_rules)
    check_legal(view, rules)
    check_turn(view)
    request = Request(view, data.get("id"), data.get("table"), data.get("hand"), rules,
                      data.get("clock"))
    try:
        _, mask, _ = request.decision()
    except (KeyError, TypeError, ValueError, IndexError, OverflowError) as error:
        raise ProtocolError("invalid_view", f"the view does not fit its rules: {error}") from None
    if not mask.any():
        raise ProtocolError("invalid_view", "the view offers no legal action to take")
    return request


def decision_inputs(
    view: Mapping[str, Any], rules: Rules | None = None
) -> tuple[NDArray[np.float32], NDArray[np.int8], dict[str, Any]]:
    """``(observation, action_mask, info)`` of a seat from its view alone: what an
    agent reads in the environment (``rules``: the table's, default the view's)."""
    if rules is None:
        rules = Rules.from_dict(view.get("table_rules") or view["rules"])
    observations, actions = _layouts(rules)
    legal = list(view["legal"])
    info = {**view, "legal_actions": actions.legal_names(legal)}
    return observations.encode_view(view), actions.mask_of(legal), info
