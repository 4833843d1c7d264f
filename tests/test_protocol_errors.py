"""The bot protocol's errors: every kind of bad request or answer is a ``ProtocolError``
with the right code; answers."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from builders.protocol import _validator, base_request

from interfaces.service import BotService
from teenpatti_env.protocol import (
    ERROR_CODES,
    MAX_MESSAGE_BYTES,
    PROTOCOL,
    ProtocolError,
    make_error,
    make_response,
    parse_request,
    parse_response,
    schema,
)

# --------------------------------------------------------------------------- bad requests


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(message: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        node: Any = message
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
    return mutate


def _delete(path: str) -> Callable[[dict[str, Any]], None]:
    def mutate(message: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        node: Any = message
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        del node[last]
    return mutate


def _seats(change: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]) -> Any:
    def mutate(message: dict[str, Any]) -> None:
        message["view"]["seats"] = change(message["view"]["seats"])
    return mutate


def _renumber(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    seats = copy.deepcopy(seats)
    seats[1]["seat"], seats[2]["seat"] = 2, 1
    return seats


def _extra_seat(seats: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    out = copy.deepcopy(seats)
    while len(out) < count:
        out.append({**copy.deepcopy(seats[-1]), "seat": len(out)})
    return out


BAD_REQUESTS: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("protocol missing", _delete("protocol"), "unsupported_protocol"),
    ("protocol version 2", _set("protocol", "teenpatti-bot/2"), "unsupported_protocol"),
    ("protocol as a number", _set("protocol", 1), "unsupported_protocol"),
    ("protocol null", _set("protocol", None), "unsupported_protocol"),
    ("no view", _delete("view"), "invalid_request"),
    ("view not an object", _set("view", []), "invalid_request"),
    ("unknown top-level field", _set("seat", 0), "invalid_request"),
    ("unknown view field", _set("view/bankroll", 5), "invalid_request"),
    ("unknown seat field", _set("view/seats/2/mood", "happy"), "invalid_request"),
    ("unknown legal field", _set("view/legal/1/step", 2), "invalid_request"),
    ("unknown sideshow field", _set("view/sideshow", {"asker": 1, "target": 0, "x": 1}),
     "invalid_request"),
    ("sideshow without target", _set("view/sideshow", {"asker": 1}), "invalid_request"),
    ("missing seat field", _delete("view/seats/1/stack"), "invalid_request"),
    ("id a float", _set("id", 1.5), "invalid_request"),
    ("id a boolean", _set("id", True), "invalid_request"),
    ("id an object", _set("id", {}), "invalid_request"),
    ("id too long", _set("id", "x" * 201), "invalid_request"),
    ("table empty", _set("table", ""), "invalid_request"),
    ("table a number", _set("table", 5), "invalid_request"),
    ("hand a list", _set("hand", [1]), "invalid_request"),
    ("pot a string", _set("view/pot", "4"), "invalid_request"),
    ("pot negative", _set("view/pot", -1), "invalid_request"),
    ("pot a float", _set("view/pot", 4.5), "invalid_request"),
    ("seat a string", _set("view/seat", "0"), "invalid_request"),
    ("seen a string", _set("view/seen", "yes"), "invalid_request"),
    ("my_turn null", _set("view/my_turn", None), "invalid_request"),
    ("boot zero", _set("view/boot", 0), "invalid_request"),
    ("strength above one", _set("view/strength", 1.5), "invalid_request"),
    ("unknown category", _set("view/category", "flush"), "invalid_request"),
    ("unknown phase", _set("view/phase", "dealing"), "invalid_request"),
    ("cards a string", _set("view/cards", "JhKd7c"), "invalid_request"),
    ("legal an object", _set("view/legal", {"type": "pack"}), "invalid_request"),
    ("seats an object", _set("view/seats", {}), "invalid_request"),
    ("rules a list", _set("view/rules", []), "invalid_request"),
    ("stack a float", _set("view/seats/0/stack", 1.5), "invalid_request"),
    ("view seat 9", _set("view/seat", 9), "invalid_request"),
    ("view seat -1", _set("view/seat", -1), "invalid_request"),
    ("view seat 4 of 4", _set("view/seat", 4), "invalid_view"),
    ("view seat 6 of 4", _set("view/seat", 6), "invalid_view"),
    ("dealer 4 of 4", _set("view/dealer", 4), "invalid_view"),
    ("to_act 5 of 4", _set("view/to_act", 5), "invalid_view"),
    ("previous_player 6 of 4", _set("view/previous_player", 6), "invalid_view"),
    ("sideshow_target 4 of 4", _set("view/sideshow_target", 4), "invalid_view"),
    ("sideshow asker 4 of 4", _set("view/sideshow", {"asker": 4, "target": 0}), "invalid_view"),
    ("seat entry 7", _set("view/seats/3/seat", 7), "invalid_request"),
    ("three seats of four", _seats(lambda s: s[:3]), "invalid_view"),
    ("one seat", _seats(lambda s: s[:1]), "invalid_request"),
    ("five seats of four", _seats(lambda s: _extra_seat(s, 5)), "invalid_view"),
    ("eight seats", _seats(lambda s: _extra_seat(s, 8)), "invalid_request"),
    ("seats out of order", _seats(_renumber), "invalid_view"),
    ("rules seat five", _set("view/rules/num_players", 5), "invalid_view"),
    ("rules seat eight", _set("view/rules/num_players", 8), "invalid_view"),
    ("rules with a bad value", _set("view/rules/boot", "one"), "invalid_view"),
    ("rules with an unknown setting", _set("view/rules/colour", "red"), "invalid_view"),
    ("rules with an unknown variant", _set("view/rules/variant", "snap"), "invalid_view"),
    ("table_rules not matching", _set("view/table_rules", {"num_players": 3}), "invalid_view"),
    ("card Xx", _set("view/cards", ["Xx", "9d", "7c"]), "invalid_request"),
    ("card 1s", _set("view/cards", ["1s", "9d", "7c"]), "invalid_request"),
    ("card lower case rank", _set("view/cards", ["jh", "9d", "7c"]), "invalid_request"),
    ("seven cards", _set("view/cards", ["2s", "3s", "4s", "5s", "6s", "7s", "8s"]),
     "invalid_request"),
    ("bad card of another seat", _set("view/seats/2/cards", ["Ah", "Zz", "2c"]),
     "invalid_request"),
    ("a card twice", _set("view/cards", ["Jh", "Jh", "7c"]), "invalid_view"),
    ("a card twice, 10 and T", _set("view/cards", ["10h", "Th", "7c"]), "invalid_view"),
    ("community twice", _set("view/community", ["As", "As"]), "invalid_view"),
    ("bad wild rank", _set("view/wild_ranks", ["1"]), "invalid_request"),
    ("bet min above max", _set("view/legal/1", {"type": "bet", "min": 5, "max": 4}),
     "invalid_view"),
    ("sideshow min above max",
     _set("view/legal/1", {"type": "sideshow", "min": 6, "max": 2}), "invalid_view"),
    ("bet min zero", _set("view/legal/1", {"type": "bet", "min": 0, "max": 4}),
     "invalid_request"),
    ("bet without max", _set("view/legal/1", {"type": "bet", "min": 2}), "invalid_request"),
    ("unknown action type", _set("view/legal/0", {"type": "fold"}), "invalid_request"),
    ("empty legal list", _set("view/legal", []), "invalid_request"),
    ("legal vote outside vote_to_end", _set("view/legal", [{"type": "vote_end"}]),
     "invalid_view"),
    ("legal draw in classic", _set("view/legal", [{"type": "draw"}]), "invalid_view"),
    ("legal choose_variant in classic",
     _set("view/legal", [{"type": "choose_variant", "variants": ["ak47"]}]), "invalid_view"),
]


@pytest.mark.parametrize(("mutate", "code"), [case[1:] for case in BAD_REQUESTS],
                         ids=[case[0] for case in BAD_REQUESTS])
def test_bad_requests_have_their_error_code(
    mutate: Callable[[dict[str, Any]], None], code: str
) -> None:
    message = base_request()
    parse_request(json.dumps(message))  # the base is fine
    mutate(message)
    with pytest.raises(ProtocolError) as caught:
        parse_request(json.dumps(message))
    assert caught.value.code == code, caught.value.message
    assert caught.value.message and str(caught.value) == caught.value.message
    # the service gives the same error as a 4xx answer
    status, answer = BotService("equity").answer(json.dumps(message))
    assert status == 400 and answer["error"]["code"] == code
    _validator("error_response").validate(answer)


@pytest.mark.parametrize("key", schema()["$defs"]["view"]["required"])
def test_every_required_view_field_is_required(key: str) -> None:
    message = base_request()
    del message["view"][key]
    with pytest.raises(ProtocolError) as caught:
        parse_request(json.dumps(message))
    assert caught.value.code == "invalid_request"
    assert key in caught.value.message


@pytest.mark.parametrize("key", schema()["$defs"]["seat"]["required"])
def test_every_required_seat_field_is_required(key: str) -> None:
    message = base_request()
    del message["view"]["seats"][2][key]
    with pytest.raises(ProtocolError) as caught:
        parse_request(json.dumps(message))
    assert caught.value.code == "invalid_request"


def test_unknown_fields_are_named_in_the_error() -> None:
    message = base_request()
    message["view"]["seats"][1]["mood"] = "happy"
    with pytest.raises(ProtocolError, match="mood") as caught:
        parse_request(json.dumps(message))
    assert caught.value.code == "invalid_request"
    assert "seats" in caught.value.message  # names the place


@pytest.mark.parametrize("text", [
    "{", "", "   ", "{'protocol': 'teenpatti-bot/1'}", '{"protocol": "teenpatti-bot/1",}',
    "[" * 50_000, '{"a": ' * 10_000, b'{"protocol": "\xff\xfe"}', b"\x80abc",
])
def test_malformed_json(text: str | bytes) -> None:
    assert_refused_both_ways(text, "malformed_json")


def assert_refused_both_ways(message: str | bytes, code: str) -> None:
    """Neither a request nor an answer can be read from ``message``: ``code`` both ways."""
    for parse in (parse_request, parse_response):
        with pytest.raises(ProtocolError) as caught:
            parse(message)
        assert caught.value.code == code


@pytest.mark.parametrize("text", ["[]", "null", "1", '"teenpatti-bot/1"', "true", "[{}]"])
def test_json_that_is_not_an_object(text: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_request(text)
    assert caught.value.code == "invalid_request"
    if not isinstance(json.loads(text), str):  # a str would be read as JSON text again
        with pytest.raises(ProtocolError) as caught:
            parse_request(json.loads(text))
        assert caught.value.code == "invalid_request"


def test_oversized_messages_are_too_large() -> None:
    text = json.dumps(base_request())
    padded = text + " " * (MAX_MESSAGE_BYTES + 1 - len(text))
    for message in (padded, padded.encode(), "x" * 10**6, b"{" * (MAX_MESSAGE_BYTES + 1)):
        assert_refused_both_ways(message, "too_large")
    status, answer = BotService("equity").answer(padded)
    assert status == 413 and answer["error"]["code"] == "too_large"


def test_the_size_limit_counts_bytes_for_text_too() -> None:
    message = base_request()
    message["view"]["legal_actions"] = ["é" * 100] * 400  # ignored by bots, 80 KB of UTF-8
    text = json.dumps(message, ensure_ascii=False)
    assert len(text) < MAX_MESSAGE_BYTES < len(text.encode())
    with pytest.raises(ProtocolError) as caught:
        parse_request(text.encode())
    assert caught.value.code == "too_large"
    with pytest.raises(ProtocolError) as caught:
        parse_request(text)
    assert caught.value.code == "too_large"


@pytest.mark.parametrize("mutate", [_seats(lambda s: s[:3]), _set("view/pot", "4")],
                         ids=["invalid_view", "invalid_request"])
def test_error_answers_echo_the_request_id(mutate: Callable[[dict[str, Any]], None]) -> None:
    message = base_request()
    message["id"] = "req-42"
    mutate(message)
    status, answer = BotService("equity").answer(json.dumps(message))
    assert status == 400
    assert answer.get("id") == "req-42"


# --------------------------------------------------------------------------- answers


def test_parse_response_round_trip() -> None:
    action = {"type": "bet", "amount": 4}
    for id_ in (None, 0, 5, "abc"):
        answer = make_response({**action, "seat": 2}, id=id_, name="bet_max")
        assert ("id" in answer) == (id_ is not None) and answer["name"] == "bet_max"
        for form in (answer, json.dumps(answer), json.dumps(answer).encode()):
            assert parse_response(form, id=id_) == action
    assert "name" not in make_response(action)


@pytest.mark.parametrize(("sent", "expected"), [(5, 6), (None, 3), (3, None), ("5", 5),
                                                (5, "5")])
def test_parse_response_rejects_another_id(sent: Any, expected: Any) -> None:
    answer = make_response({"type": "pack"}, id=sent)
    with pytest.raises(ProtocolError) as caught:
        parse_response(json.dumps(answer), id=expected)
    assert caught.value.code == "invalid_request"


@pytest.mark.parametrize("code", ERROR_CODES)
def test_parse_response_raises_the_bots_error(code: str) -> None:
    answer = make_error(ProtocolError(code, "no luck"), id=9)
    with pytest.raises(ProtocolError, match="no luck") as caught:
        parse_response(json.dumps(answer), id=9)
    assert caught.value.code == code


@pytest.mark.parametrize(("answer", "code"), [
    ({"protocol": PROTOCOL}, "invalid_request"),
    ({"action": {"type": "pack"}}, "unsupported_protocol"),
    ({"protocol": "teenpatti-bot/0", "action": {"type": "pack"}}, "unsupported_protocol"),
    ({"protocol": PROTOCOL, "action": {"type": "fold"}}, "invalid_request"),
    ({"protocol": PROTOCOL, "action": {}}, "invalid_request"),
    ({"protocol": PROTOCOL, "action": "pack"}, "invalid_request"),
    ({"protocol": PROTOCOL, "action": {"type": "bet", "amount": 0}}, "invalid_request"),
    ({"protocol": PROTOCOL, "action": {"type": "bet", "amount": "4"}}, "invalid_request"),
    ({"protocol": PROTOCOL, "action": {"type": "pack", "seat": 1}}, "invalid_request"),
    ({"protocol": PROTOCOL, "action": {"type": "discard", "card": "Xx"}}, "invalid_request"),
    ({"protocol": PROTOCOL, "action": {"type": "pack"}, "extra": 1}, "invalid_request"),
    ({"protocol": PROTOCOL, "action": {"type": "pack"}, "id": 1.5}, "invalid_request"),
    ({"protocol": PROTOCOL, "error": {"code": "oops", "message": "m"}}, "invalid_request"),
    ({"protocol": PROTOCOL, "error": {"code": "agent_error"}}, "invalid_request"),
    ({"protocol": PROTOCOL, "error": "agent_error"}, "invalid_request"),
    ({"protocol": PROTOCOL, "error": {"code": "agent_error", "message": "m"},
      "action": {"type": "pack"}}, "invalid_request"),
    ([], "invalid_request"),
    ("pack", "invalid_request"),
])
def test_parse_response_rejects_garbage(answer: Any, code: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_response(json.dumps(answer))
    assert caught.value.code == code
