"""The messages of ``teenpatti-bot/1``: their schema, reading them, writing them.

The names, limits and error codes of the protocol; :class:`ProtocolError`; the JSON
Schema and its compiled checks; reading JSON text and JSON lines within the size limit;
and every message but the request's view: the request's envelope, the answers (an
action, a hello, an error) and their checks. The request's view is checked in
:mod:`teenpatti_env.protocol.view_checks`, and :mod:`teenpatti_env.protocol` turns it
into what an agent reads.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import IO, Any

import fastjsonschema

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


def check_schema(part: str, message: Any, code: str) -> None:
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


def request_id_of(data: Any) -> str | int | None:
    """The ``id`` of a decoded request if it is one the schema allows, else ``None``."""
    ident = data.get("id") if isinstance(data, dict) else None
    if isinstance(ident, bool) or not isinstance(ident, (str, int)):
        return None
    return ident if not isinstance(ident, str) or len(ident) <= 200 else None


def check_protocol(message: Any) -> None:
    """A message is a JSON object of this protocol (``ProtocolError`` otherwise)."""
    if not isinstance(message, dict):
        raise ProtocolError("invalid_request", "a message is a JSON object")
    version = message.get("protocol")
    if version != PROTOCOL:
        raise ProtocolError(
            "unsupported_protocol", f"protocol {version!r} is not supported; speak {PROTOCOL!r}"
        )



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



def _head(id: str | int | None) -> dict[str, Any]:
    """A bot's answer as far as its protocol and, when there is one, the request's ``id``."""
    head: dict[str, Any] = {"protocol": PROTOCOL}
    if id is not None:
        head["id"] = id
    return head


def _check_answers(data: Mapping[str, Any], id: str | int | None) -> None:
    """An answer names the request it answers."""
    if data.get("id") != id:
        raise ProtocolError("invalid_request", f"answer to request {data.get('id')!r}, not {id!r}")


def make_response(
    action: Mapping[str, Any], id: str | int | None = None, name: str | None = None,
    notice: str | None = None,
) -> dict[str, Any]:
    """The answer carrying ``action`` (a hand-history action; its seat is dropped), with
    a ``notice`` for the table when the bot has one (another agent answered for it)."""
    response = _head(id)
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
        check_protocol(data)
        check_schema("hello", data, "invalid_request")
    except ProtocolError as error:
        error.id = request_id_of(data)
        raise
    ident: str | int | None = data.get("id")
    return ident


def make_hello(agent: str, id: str | int | None = None) -> dict[str, Any]:
    """The answer to a hello from a bot serving ``agent``."""
    response = _head(id)
    response["hello"] = hello_info(agent)
    return response


def parse_hello(message: bytes | str | Mapping[str, Any],
                id: str | int | None = None) -> dict[str, Any]:
    """The bot's :func:`hello_info` from its answer to a hello (or from its ``GET /v1``
    answer, which holds the same keys); anything else is a :class:`ProtocolError`."""
    data = decode_json(message) if isinstance(message, (bytes, str)) else message
    check_protocol(data)
    if "error" in data:
        check_schema("error_response", data, "invalid_request")
        raise ProtocolError(data["error"]["code"], f"the bot says: {data['error']['message']}")
    if "hello" not in data:  # GET /v1
        check_schema("hello_info", data, "invalid_request")
        return {key: data[key] for key in ("protocols", "agent", "clock") if key in data}
    check_schema("hello_response", data, "invalid_request")
    _check_answers(data, id)
    return dict(data["hello"])


def make_error(error: ProtocolError, id: str | int | None = None) -> dict[str, Any]:
    """The error answer for ``error``."""
    response = _head(id)
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
    check_protocol(data)
    if "error" in data:
        check_schema("error_response", data, "invalid_request")
        refusal = RefusedError(data["error"]["code"], f"the bot says: {data['error']['message']}")
        refusal.id = data.get("id")
        raise refusal
    check_schema("response", data, "invalid_request")
    _check_answers(data, id)
    return dict(data["action"])
