"""The bot protocol ``teenpatti-bot/1``: how another program asks a bot for a move.

A request holds one seat's view of the table, the seat that must act: exactly the info
dict the environment gives that seat (:meth:`raw_env.view`), rules, seats, stacks, pot,
stake, what the seat knows and its legal actions with their bet bounds. The answer is
one legal action, as a hand-history action without its seat. Both are JSON objects; the
JSON Schema in ``teenpatti_env/protocol/schemas/teenpatti-bot-1.schema.json`` is the reference
(:func:`schema`), and ``docs/protocol.md`` walks through it.

>>> from teenpatti_env.environment.aec import raw_env
>>> env = raw_env()
>>> env.reset(seed=0)
>>> request = make_request(env.view(env.agent_selection), id=1)
>>> parse_request(json.dumps(request)).view["seat"] == env.hand.to_act
True

This module checks messages and turns a view into what an agent reads (observation
vector, action mask, info); serving agents is :mod:`interfaces.server`'s job.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import IO, Any, NoReturn

import fastjsonschema
import numpy as np
from numpy.typing import NDArray

from teenpatti_env.cards import format_cards, parse_cards
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.environment.observation import ObservationLayout
from teenpatti_env.rules import Rules

PROTOCOL = "teenpatti-bot/1"
"""The protocol name and version every message carries."""
MAX_MESSAGE_BYTES = 64 * 1024
"""The largest request a bot must read (a seven-seat view is about 4 KB)."""
SCHEMA_PATH = Path(__file__).parent / "schemas" / "teenpatti-bot-1.schema.json"

ERROR_CODES = (
    "malformed_json", "unsupported_protocol", "invalid_request", "invalid_view",
    "illegal_action", "too_large", "not_found", "method_not_allowed", "agent_error", "busy",
)  # fmt: skip


HTTP_STATUS = {"too_large": 413, "not_found": 404, "method_not_allowed": 405,
               "agent_error": 500, "busy": 503}
"""The HTTP status of an error answer by its code (any other code: 400)."""


def http_status(code: str) -> int:
    """The HTTP status an error answer with ``code`` is sent with."""
    return HTTP_STATUS.get(code, 400)


class ProtocolError(ValueError):
    """A message that breaks the protocol; ``code`` is one of :data:`ERROR_CODES`."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        assert code in ERROR_CODES, code
        self.code = code
        self.message = message
        self.id: str | int | None = None
        """The request's ``id`` when the request got far enough to tell it."""


class RefusedError(ProtocolError):
    """A bot's error answer: it refused the request; ``code`` and ``id`` are the bot's."""


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The protocol's JSON Schema (draft 2020-12) as a dict."""
    loaded: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return loaded


@lru_cache(maxsize=8)
def _validator(part: str) -> Callable[[Any], Any]:
    """A compiled check of the schema's ``part`` (fastjsonschema: a fraction of a
    millisecond for a whole request)."""
    document = dict(schema())
    document.pop("oneOf")
    check: Callable[[Any], Any] = fastjsonschema.compile({**document, "$ref": f"#/$defs/{part}"})
    return check


def _check(part: str, message: Any, code: str) -> None:
    """Raise ``ProtocolError(code)`` naming the place where ``message`` breaks the
    schema's ``part``."""
    try:
        _validator(part)(message)
    except fastjsonschema.JsonSchemaValueException as error:
        detail = str(error.message)
        if detail.startswith("data"):
            detail = part.replace("_", " ") + detail[len("data"):]
        raise ProtocolError(code, detail) from None


def decode_json(data: bytes | str) -> Any:
    """JSON text (at most :data:`MAX_MESSAGE_BYTES`; bytes are UTF-8) as Python values."""
    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "replace"))
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"a message is at most {MAX_MESSAGE_BYTES} bytes")
    try:
        # JSON exchanged between programs is UTF-8 (RFC 8259); json.loads would guess.
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as error:
        raise ProtocolError("malformed_json", f"not UTF-8: {error}") from None
    try:
        return json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as error:  # JSONDecodeError
        raise ProtocolError("malformed_json", f"not JSON: {error}") from None


def read_line(stream: IO[bytes]) -> bytes | None:
    """The next line of a JSON-lines stream without its line end, ``None`` at the end of
    the stream. A line longer than :data:`MAX_MESSAGE_BYTES` is read past in pieces, never
    held whole, and is a ``ProtocolError("too_large")``."""
    line = stream.readline(MAX_MESSAGE_BYTES + 1)
    if not line:
        return None
    if len(line) > MAX_MESSAGE_BYTES and not line.endswith(b"\n"):
        while line and not line.endswith(b"\n"):
            line = stream.readline(MAX_MESSAGE_BYTES + 1)
        raise ProtocolError("too_large", f"a message is at most {MAX_MESSAGE_BYTES} bytes")
    return line.rstrip(b"\r\n")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _request_id(data: Any) -> str | int | None:
    """The ``id`` of a decoded request if it is one the schema allows, else ``None``."""
    ident = data.get("id") if isinstance(data, dict) else None
    if isinstance(ident, bool) or not isinstance(ident, (str, int)):
        return None
    return ident if not isinstance(ident, str) or len(ident) <= 200 else None


def _check_protocol(message: Any) -> None:
    if not isinstance(message, dict):
        raise ProtocolError("invalid_request", "a message is a JSON object")
    version = message.get("protocol")
    if version != PROTOCOL:
        raise ProtocolError(
            "unsupported_protocol", f"protocol {version!r} is not supported; speak {PROTOCOL!r}"
        )


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
        error.id = _request_id(data)
        raise


def _parse_request(data: Any) -> Request:
    _check_protocol(data)
    _check("request", data, "invalid_request")
    for key in ("id", "table", "hand"):
        _check_text(data.get(key), key)
    view = data["view"]
    try:
        hand_rules = rules = Rules.from_dict(view["rules"])
        if view.get("table_rules"):  # dealer's choice: ``rules`` is the chosen variant's
            rules = Rules.from_dict(view["table_rules"])
    except (TypeError, ValueError) as error:
        raise ProtocolError("invalid_view", f"view/rules: {error}") from None
    _check_seats(view, rules.num_players)
    _check_cards(view, hand_rules)
    _check_legal(view, rules)
    _check_turn(view)
    request = Request(view, data.get("id"), data.get("table"), data.get("hand"), rules,
                      data.get("clock"))
    try:
        _, mask, _ = request.decision()
    except (KeyError, TypeError, ValueError, IndexError, OverflowError) as error:
        raise ProtocolError("invalid_view", f"the view does not fit its rules: {error}") from None
    if not mask.any():
        raise ProtocolError("invalid_view", "the view offers no legal action to take")
    return request


def _check_seats(view: dict[str, Any], num_players: int) -> None:
    """Every seat number in range, and one entry per seat in seat order."""
    seats = view["seats"]
    if len(seats) != num_players:
        raise ProtocolError(
            "invalid_view", f"view/seats lists {len(seats)} seats; the rules seat {num_players}"
        )
    for index, entry in enumerate(seats):
        if entry["seat"] != index:
            raise ProtocolError("invalid_view", f"view/seats/{index} is seat {entry['seat']}")
    named = {key: view[key] for key in ("seat", "dealer", "to_act", "previous_player",
                                        "sideshow_target")}
    if view["sideshow"] is not None:
        named |= {f"sideshow/{k}": v for k, v in view["sideshow"].items()}
    for key, seat in named.items():
        if seat is not None and not 0 <= seat < num_players:
            raise ProtocolError(
                "invalid_view", f"view/{key}: seat {seat} is out of range 0..{num_players - 1}"
            )
    for key in ("phase_done", "draws", "bought"):
        if key in view and len(view[key]) != num_players:
            raise ProtocolError("invalid_view", f"view/{key} needs one entry per seat")


def _check_legal(view: dict[str, Any], rules: Rules) -> None:
    """The legal actions agree with the rest of the view (an agent reads both)."""
    legal = view["legal"]
    kinds = [action["type"] for action in legal]

    def refuse(why: str) -> None:
        _refuse(f"view/legal: {why}")

    if len(set(kinds)) != len(kinds):
        refuse("each action type may appear once")
    if not view["my_turn"] and not set(kinds) <= {"vote_end", "continue"}:
        refuse("a seat acts only on its turn (my_turn is false)")
    for action in legal:
        kind = action["type"]
        if "min" in action and action["min"] > action["max"]:
            refuse(f"{kind}: min above max")
        if kind == "bet" and (view["min_bet"], view["max_bet"]) != (action["min"], action["max"]):
            refuse("the bet's bounds differ from min_bet and max_bet")
        if kind in ("accept", "refuse") and (
            view["sideshow"] is None or view["sideshow"]["target"] != view["seat"]
        ):
            refuse(f"{kind} needs a sideshow asked of this seat")
        if kind == "choose_variant":
            allowed = [spec.name for spec in rules.choice_specs]
            unknown = [name for name in action["variants"] if name not in allowed]
            if unknown:
                refuse(f"choose_variant offers {unknown}, not among {allowed}")


def _check_text(value: Any, key: str) -> None:
    """A string field holds Unicode text: JSON's ``\\ud800`` escapes can name a lone
    surrogate, which is no character and cannot be encoded."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as error:
            raise ProtocolError(
                "invalid_request", f"{key}: character {error.start} is a lone surrogate "
                f"({value[error.start]!r}), not a Unicode character; a {key} is Unicode text"
            ) from None


def _refuse(why: str) -> NoReturn:
    raise ProtocolError("invalid_view", why)


def _check_cards(view: dict[str, Any], hand_rules: Rules) -> None:
    """Every card parses, no card is in two places, the seat's own cards agree, and a
    blind seat knows no more of its cards than the open ones (VARIANTS.md V3)."""
    lists = [("view/cards", view["cards"] or []), ("view/my_parted", view.get("my_parted", []))]
    places = [(f"view/seats/{k}/cards", s["cards"] or []) for k, s in enumerate(view["seats"])]
    places += [("view/community", view["community"]), ("view/indicators", view["indicators"])]
    parsed: dict[str, tuple[int, ...]] = {}
    for where, cards in lists + places:
        try:
            parsed[where] = parse_cards(cards)
        except ValueError as error:
            raise ProtocolError("invalid_view", f"{where}: {error}") from None
    # A seat's parted cards may reach another seat (passing), so they are left out here.
    seen_at: dict[int, str] = {}
    for where, _ in places:
        for card in parsed[where]:
            if card in seen_at:
                _refuse(f"{where}: card {format_cards([card])[0]} is also in {seen_at[card]}")
            seen_at[card] = where
    seat = view["seat"]
    if parsed["view/cards"] != parsed[f"view/seats/{seat}/cards"]:
        _refuse(f"view/cards differ from view/seats/{seat}/cards (the same seat's cards)")
    known, opened = len(parsed["view/cards"]), hand_rules.spec.open_private_cards
    if view["result"] is None and not view["seen"] and known > opened:
        _refuse(f"view/cards: a blind seat (seen: false) knows only its {opened} open "
                f"cards, not {known}")


def _check_turn(view: dict[str, Any]) -> None:
    """The seat to act, the pot, a show and the bet bounds agree with the seats."""
    seats, seat = view["seats"], view["seat"]
    me = seats[seat]
    if view["my_turn"] and view["to_act"] != seat:
        _refuse(f"view/my_turn: seat {view['to_act']} is to act, not this seat {seat}")
    if view["my_turn"] and (me["packed"] or not me["dealt_in"]):
        state = "has packed" if me["packed"] else "was not dealt in"
        _refuse(f"view/seats/{seat}: the seat to act {state}")
    if view["result"] is None:
        paid = sum(entry["chips_in"] for entry in seats)
        if view["pot"] != paid:
            _refuse(f"view/pot: {view['pot']} chips, but the seats put in {paid}")
    in_hand = sum(entry["dealt_in"] and not entry["packed"] for entry in seats)
    bounds = [("view/max_bet", view["max_bet"])]
    for action in view["legal"]:
        if action["type"] == "show" and in_hand != 2:
            _refuse(f"view/legal: a show needs exactly two seats in the hand, not {in_hand}")
        bounds.append((f"view/legal/{action['type']}", action.get("max")))
    for where, high in bounds:
        if high is not None and high > me["stack"]:
            _refuse(f"{where}: a bet of up to {high} chips, but seat {seat} has {me['stack']}")
    pending = view["sideshow"]
    if pending is not None and pending["asker"] == pending["target"]:
        _refuse(f"view/sideshow: seat {pending['asker']} asks a sideshow of itself")


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


def make_request(
    view: Mapping[str, Any],
    id: str | int | None = None,
    table: str | None = None,
    hand: str | int | None = None,
    clock: Mapping[str, float] | None = None,
) -> dict[str, Any]:
    """A request for the seat whose view this is (the environment's info dict), with the
    bot's ``clock`` when the caller keeps one."""
    request: dict[str, Any] = {"protocol": PROTOCOL}
    for key, value in (("id", id), ("table", table), ("hand", hand),
                       ("clock", None if clock is None else dict(clock))):
        if value is not None:
            request[key] = value
    request["view"] = json.loads(json.dumps(dict(view)))
    return request


def make_response(
    action: Mapping[str, Any], id: str | int | None = None, name: str | None = None,
    notice: str | None = None,
) -> dict[str, Any]:
    """The answer carrying ``action`` (a hand-history action; its seat is dropped), with
    a ``notice`` for the table when the bot has one (another agent answered for it)."""
    response: dict[str, Any] = {"protocol": PROTOCOL}
    if id is not None:
        response["id"] = id
    response["action"] = {k: v for k, v in action.items() if k not in ("seat", "timeout")}
    if name is not None:
        response["name"] = name
    if notice is not None:
        response["notice"] = notice
    return response


def hello_info(agent: str) -> dict[str, Any]:
    """What a bot serving ``agent`` says of itself (a hello's answer, ``GET /v1``)."""
    return {"protocols": [PROTOCOL], "agent": agent, "clock": True}


def is_hello(data: Any) -> bool:
    """Whether a decoded message is a hello (asks what the bot is) rather than a request."""
    return isinstance(data, dict) and "hello" in data and "view" not in data


def check_hello(data: Any) -> str | int | None:
    """Check a decoded hello; returns its ``id``. A bad one is a :class:`ProtocolError`."""
    try:
        _check_protocol(data)
        _check("hello", data, "invalid_request")
    except ProtocolError as error:
        error.id = _request_id(data)
        raise
    ident: str | int | None = data.get("id")
    return ident


def make_hello(agent: str, id: str | int | None = None) -> dict[str, Any]:
    """The answer to a hello from a bot serving ``agent``."""
    response: dict[str, Any] = {"protocol": PROTOCOL}
    if id is not None:
        response["id"] = id
    response["hello"] = hello_info(agent)
    return response


def parse_hello(message: bytes | str | Mapping[str, Any],
                id: str | int | None = None) -> dict[str, Any]:
    """The bot's :func:`hello_info` from its answer to a hello (or from its ``GET /v1``
    answer, which holds the same keys); anything else is a :class:`ProtocolError`."""
    data = decode_json(message) if isinstance(message, (bytes, str)) else message
    _check_protocol(data)
    if "error" in data:
        _check("error_response", data, "invalid_request")
        raise ProtocolError(data["error"]["code"], f"the bot says: {data['error']['message']}")
    if "hello" not in data:  # GET /v1
        _check("hello_info", data, "invalid_request")
        return {key: data[key] for key in ("protocols", "agent", "clock") if key in data}
    _check("hello_response", data, "invalid_request")
    if data.get("id") != id:
        raise ProtocolError("invalid_request", f"answer to request {data.get('id')!r}, not {id!r}")
    return dict(data["hello"])


def make_error(error: ProtocolError, id: str | int | None = None) -> dict[str, Any]:
    """The error answer for ``error``."""
    response: dict[str, Any] = {"protocol": PROTOCOL}
    if id is not None:
        response["id"] = id
    response["error"] = {"code": error.code, "message": error.message}
    return response


def parse_response(
    message: bytes | str | Mapping[str, Any], id: str | int | None = None
) -> dict[str, Any]:
    """The action of a bot's answer (JSON text or decoded), checked against the schema.

    An error answer, another ``id`` than the request's, or anything malformed is a
    :class:`ProtocolError`. Whether the action is legal is the table's to judge.
    """
    data = decode_json(message) if isinstance(message, (bytes, str)) else message
    _check_protocol(data)
    if "error" in data:
        _check("error_response", data, "invalid_request")
        refusal = RefusedError(data["error"]["code"], f"the bot says: {data['error']['message']}")
        refusal.id = data.get("id")
        raise refusal
    _check("response", data, "invalid_request")
    if data.get("id") != id:
        raise ProtocolError("invalid_request", f"answer to request {data.get('id')!r}, not {id!r}")
    return dict(data["action"])
