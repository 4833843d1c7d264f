"""The bot protocol ``teenpatti-bot/1`` (teenpatti_env/protocol/).

* Differential: at every decision of random play (classic, every variant, dealer's choice,
  votes between hands, 3 and 7 seats, hand and session episodes) the observation, mask
  and info a bot builds from the JSON view alone equal the environment's, and every legal
  index means the same engine action.
* The JSON Schema is a valid draft 2020-12 schema that real requests and answers satisfy.
* Every kind of bad request or answer is a ``ProtocolError`` with the right code.
* Property: random mutations of real requests only ever raise ``ProtocolError``; a
  request that passes is answered (by ``BotService``) with a legal action or a 4xx error.
"""

from __future__ import annotations

import copy
import json
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from builders.env import jsonable
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from interfaces.service import BotService
from teenpatti_env import Rules, raw_env
from teenpatti_env.protocol import (
    ERROR_CODES,
    MAX_MESSAGE_BYTES,
    PROTOCOL,
    ProtocolError,
    Request,
    decision_inputs,
    make_error,
    make_request,
    make_response,
    parse_request,
    parse_response,
    schema,
)
from teenpatti_env.rules.variants import VARIANTS

ROOT = Path(__file__).resolve().parent.parent
CHOICES = ["ak47", "open_joker", "colour_jokers", "shopping", "buy_a_joker", "muflis",
           "passing_cards", "joker_thresholds", "rotating_jokers", "discard_one",
           "two_burst", "four_card"]
CLASSIC = Rules.preset("classic")


# --------------------------------------------------------------------------- helpers


def play(
    rules: Rules, episode: str, episodes: int, seed: int, max_hands: int | None = None,
    stacks: list[int] | None = None,
) -> Iterator[tuple[raw_env, str, dict[str, Any], dict[str, Any]]]:
    """Random legal play: yields ``(env, agent, observation, info)`` at every live
    decision, then steps the env with a random legal index."""
    if episode == "session" and max_hands is not None:
        rules = rules.replace(max_hands=max_hands)
    env = raw_env(rules=rules, episode=episode, stacks=stacks)
    rng = np.random.default_rng(seed)
    for _ in range(episodes):
        env.reset(seed=int(rng.integers(2**31)))
        for agent in env.agent_iter(max_iter=100_000):
            observation, _, terminated, truncated, _ = env.last()
            info = env.unwrapped.view(agent)
            if terminated or truncated:
                env.step(None)
                continue
            yield env, agent, observation, info
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def seed_of(name: str) -> int:
    return zlib.crc32(name.encode())


def without_seat(action: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in action.items() if k != "seat"}


def check_decision(env: raw_env, agent: str, observation: dict[str, Any],
                   info: dict[str, Any], check_others: bool) -> None:
    """The protocol's reading of ``agent``'s JSON view equals the environment's."""
    view = jsonable(env.view(agent))
    assert view == jsonable(info)
    vector, mask, bot_info = decision_inputs(view)
    assert vector.dtype == np.float32 and mask.dtype == np.int8
    assert np.array_equal(vector, observation["observation"])
    assert np.array_equal(mask, observation["action_mask"])
    assert bot_info["legal_actions"] == info["legal_actions"]
    assert bot_info == jsonable(info)

    request = parse_request(json.dumps(make_request(view, id=7, table="t", hand=3)))
    assert isinstance(request, Request)
    assert request.view == view and request.seat == env.agent_name_mapping[agent]
    assert (request.id, request.table, request.hand) == (7, "t", 3)
    assert request.rules == env.rules
    vector2, mask2, _ = request.decision()
    assert np.array_equal(vector2, vector) and np.array_equal(mask2, mask)
    for index in np.flatnonzero(mask):
        index = int(index)
        assert request.action_of(index) == without_seat(env.action_to_engine(agent, index))
        assert request.action_name(index) == env.action_meanings[index]
    for illegal in np.flatnonzero(mask == 0)[:3]:
        with pytest.raises(ValueError):
            request.action_of(int(illegal))

    if check_others:  # a seat not to act reads its own view the same way
        for other in env.agents:
            if other == agent:
                continue
            other_view = jsonable(env.view(other))
            other_vector, other_mask, _ = decision_inputs(other_view)
            assert np.array_equal(other_vector, env.observe(other)["observation"]), other
            assert not other_mask.any()


# --------------------------------------------------------------------------- differential

TABLES: list[tuple[str, Rules, int, int]] = [
    # (id, rules, hand episodes, session episodes); sessions stop after 4 hands
    ("classic", CLASSIC, 90, 3),
    *[(f"variant-{name}", CLASSIC.replace(variant=name), 8, 1) for name in VARIANTS],
    ("dealers_choice", CLASSIC.replace(dealers_choice=CHOICES), 40, 3),
    ("vote_to_end", CLASSIC.replace(vote_to_end=True), 0, 6),
    ("dealers_choice+vote", CLASSIC.replace(dealers_choice=CHOICES[:5], vote_to_end=True), 0, 3),
    ("3-players", CLASSIC.replace(num_players=3), 30, 2),
    ("7-players", CLASSIC.replace(num_players=7), 20, 2),
    ("7-players-passing", CLASSIC.replace(num_players=7, variant="passing_cards"), 6, 1),
    ("pagat", Rules.preset("pagat"), 20, 1),
    ("tabletop-3", Rules.preset("tabletop", num_players=3), 20, 1),
]


DIFFERENTIAL = [
    pytest.param(rules, episode, count, id=f"{episode}-{name}")
    for name, rules, hands, sessions in TABLES
    for episode, count in (("hand", hands), ("session", sessions)) if count
]


@pytest.mark.parametrize(("rules", "episode", "episodes"), DIFFERENTIAL)
def test_views_decode_exactly_as_the_environment(
    rules: Rules, episode: str, episodes: int, request: pytest.FixtureRequest
) -> None:
    seed = seed_of(request.node.name)
    max_hands = 5 if rules.vote_to_end else 4
    seen_kinds: set[str] = set()
    decisions = 0
    for env, agent, observation, info in play(rules, episode, episodes, seed, max_hands):
        check_decision(env, agent, observation, info, check_others=decisions % 5 == 0)
        seen_kinds.update(action["type"] for action in info["legal"])
        decisions += 1
    assert decisions >= episodes
    if rules.vote_to_end:
        assert {"vote_end", "continue"} <= seen_kinds
    if rules.dealers_choice is not None:
        assert "choose_variant" in seen_kinds


def test_stepping_with_the_protocols_actions_plays_the_same_hands() -> None:
    """``raw_env.step_action(request.action_of(i))`` reaches the same state as
    ``step(i)``: the decoded actions are the engine's, bet amounts included."""
    rules = CLASSIC.replace(dealers_choice=CHOICES[:6], vote_to_end=True, max_hands=4)
    for seed in range(3):
        by_index = raw_env(rules=rules, episode="session")
        by_action = raw_env(rules=rules, episode="session")
        by_index.reset(seed=seed)
        by_action.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in by_index.agent_iter(max_iter=3000):
            observation, _, terminated, truncated, _ = by_index.last()
            assert by_action.agent_selection == agent
            if terminated or truncated:
                by_index.step(None)
                by_action.step(None)
                continue
            request = parse_request(json.dumps(make_request(by_action.view(agent))))
            index = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            by_index.step(index)
            by_action.step_action(request.action_of(index))
            assert json.dumps(by_index.view(agent), sort_keys=True) == json.dumps(
                by_action.view(agent), sort_keys=True)
        assert not by_index.agents and not by_action.agents


# --------------------------------------------------------------------------- schema


def _validator(part: str | None) -> Draft202012Validator:
    document = copy.deepcopy(schema())
    if part is not None:
        document.pop("oneOf")
        document["$ref"] = f"#/$defs/{part}"
    return Draft202012Validator(document)


@pytest.fixture(scope="module")
def real_requests() -> list[dict[str, Any]]:
    """Requests from real views of many tables: every variant, dealer's choice and votes,
    seven seats, short stacks (all in)."""
    out: list[dict[str, Any]] = []
    tables = [
        (CLASSIC, "hand", 12, None), (CLASSIC.replace(num_players=7), "hand", 4, None),
        (CLASSIC, "hand", 6, [3, 100, 5, 100]),  # short stacks go all in
        (CLASSIC.replace(dealers_choice=CHOICES, vote_to_end=True), "session", 1, None),
        *[(CLASSIC.replace(variant=name), "hand", 1, None) for name in VARIANTS],
    ]
    for number, (rules, episode, episodes, stacks) in enumerate(tables):
        for _, _, _, info in play(rules, episode, episodes, number, 3, stacks):
            out.append(make_request(info, id=len(out), table=f"t{number}", hand=number))
    return out


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    document = schema()
    Draft202012Validator.check_schema(document)
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert document["$defs"]["protocol"]["const"] == PROTOCOL
    codes = document["$defs"]["error_response"]["properties"]["error"]["properties"]["code"]
    assert codes["enum"] == list(ERROR_CODES)
    assert schema() is schema()  # loaded once
    path = ROOT / "teenpatti_env/protocol/schemas/teenpatti-bot-1.schema.json"
    on_disk = json.loads(path.read_text())
    assert on_disk == document


def test_real_requests_and_answers_satisfy_the_schema(real_requests: list[dict[str, Any]]) -> None:
    whole, request_part = _validator(None), _validator("request")
    response_part, error_part = _validator("response"), _validator("error_response")
    kinds: set[str] = set()
    answers: dict[str, dict[str, Any]] = {}
    for number, message in enumerate(real_requests):
        request_part.validate(message)
        if number % 10 == 0:
            whole.validate(message)  # exactly one of request / response / error
        request = parse_request(json.dumps(message))
        _, mask, _ = request.decision()
        for index in np.flatnonzero(mask):
            action = request.action_of(int(index))
            kinds.add(action["type"])
            answer = make_response({**action, "seat": request.seat, "timeout": True},
                                   id=message["id"], name=request.action_name(int(index)))
            assert answer["action"] == action  # seat and timeout dropped
            answers.setdefault(json.dumps(answer["action"], sort_keys=True), answer)
            assert parse_response(json.dumps(answer), id=message["id"]) == action
    for answer in answers.values():
        response_part.validate(answer)
        whole.validate(answer)
    # every kind of action the schema names was produced and validated
    assert kinds == set(schema()["$defs"]["action"]["properties"]["type"]["enum"])
    for code in ERROR_CODES:
        error = make_error(ProtocolError(code, "why"), id="x")
        error_part.validate(error)
        whole.validate(error)
        assert error == {"protocol": PROTOCOL, "id": "x",
                         "error": {"code": code, "message": "why"}}
        assert "id" not in make_error(ProtocolError(code, "why"))


def test_the_documented_example_request_is_valid() -> None:
    message = json.loads((ROOT / "docs/examples/request.json").read_text())
    _validator("request").validate(message)
    request = parse_request(json.dumps(message))
    assert request.id == message.get("id")
    assert BotService("equity").answer(json.dumps(message))[0] == 200


def test_make_request_copies_the_view_as_json() -> None:
    env = raw_env()
    env.reset(seed=1)
    view = env.view(env.agent_selection)
    request = make_request(view)
    assert request == {"protocol": PROTOCOL, "view": jsonable(view)}
    assert request["view"] is not view
    request["view"]["seats"][0]["stack"] = -5
    assert view["seats"][0]["stack"] != -5
    assert list(make_request(view, id=0, table="a", hand=0)) == [
        "protocol", "id", "table", "hand", "view"]


def test_parse_request_accepts_text_bytes_and_objects() -> None:
    message = base_request()
    text = json.dumps(message)
    for form in (text, text.encode(), message):
        request = parse_request(form)
        assert request.view == message["view"] and request.id == 1
        assert request.table is None and request.hand is None
    padded = text + " " * (MAX_MESSAGE_BYTES - len(text.encode()))
    assert len(padded.encode()) == MAX_MESSAGE_BYTES
    assert parse_request(padded.encode()).id == 1  # exactly the limit is fine


# --------------------------------------------------------------------------- bad requests


def base_request() -> dict[str, Any]:
    """A classic four-seat request of a seat that has looked and may bet (cards known)."""
    env = raw_env()
    env.reset(seed=3)
    env.step(env.action_meanings.index("look"))
    view = env.view(env.agent_selection)
    assert view["cards"] and view["seat"] == 0 and view["dealer"] == 3
    assert [a["type"] for a in view["legal"]] == ["pack", "bet"]
    return make_request(view, id=1)


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


# --------------------------------------------------------------------------- properties


def _requests_for_fuzzing() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    tables = [
        (CLASSIC, "session", 1, 40),
        (CLASSIC.replace(num_players=3, variant="shopping"), "session", 1, 25),
        (CLASSIC.replace(variant="passing_cards"), "hand", 2, 15),
        (CLASSIC.replace(variant="buy_a_joker"), "hand", 2, 15),
        (CLASSIC.replace(dealers_choice=["ak47", "open_joker", "discard_one"],
                         vote_to_end=True), "session", 1, 40),
    ]
    for number, (rules, episode, episodes, keep) in enumerate(tables):
        kept = 0
        for _, _, _, info in play(rules, episode, episodes, 100 + number, max_hands=3):
            if kept < keep:
                out.append(make_request(info, id=len(out), table=f"fuzz{number}",
                                        hand=info["hands_played"]))
                kept += 1
    return out


FUZZ_BASE = _requests_for_fuzzing()
EQUITY = BotService("equity")
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10) | st.integers()
    | st.floats(allow_nan=False) | st.text(max_size=6)
    | st.sampled_from(["As", "Td", "10c", "bet", "look", "pack", "show", "accept", "betting",
                       "classic", PROTOCOL]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(
        st.text(max_size=6) | st.sampled_from(["type", "min", "max", "cards", "seat", "asker"]),
        children, max_size=3),
    max_leaves=6,
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, (*prefix, index))


def _node(message: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        message = message[part]
    return message


def assert_legal_answer(view: dict[str, Any], action: dict[str, Any]) -> None:
    """``action`` is one of the view's legal actions, within its bounds."""
    entries = [entry for entry in view["legal"] if entry["type"] == action["type"]]
    assert entries, (action, view["legal"])
    entry = entries[0]
    if action["type"] in ("bet", "sideshow"):
        amount = action["amount"]
        assert isinstance(amount, int) and entry["min"] <= amount <= entry["max"]
        if action["type"] == "bet":
            assert (amount - entry["min"]) % (2 if view["seen"] else 1) == 0
        else:
            assert amount == entry["min"]
    elif action["type"] in ("discard", "buy_joker"):
        assert set(action) == {"type", "card"} and action["card"] in entry["cards"]
    elif action["type"] == "pass":
        assert len(set(action["cards"])) == 3 and set(action["cards"]) <= set(entry["cards"])
    elif action["type"] == "choose_variant":
        assert action["variant"] in entry["variants"]
    else:
        assert set(action) == {"type"}


@settings(max_examples=400, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.data())
def test_mutated_requests_fail_cleanly_or_get_a_legal_answer(data: st.DataObject) -> None:
    message = copy.deepcopy(data.draw(st.sampled_from(FUZZ_BASE), label="base"))
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        paths = [p for p in _paths(message) if p]
        if not paths:
            break
        path = data.draw(st.sampled_from(paths), label="path")
        parent, key = _node(message, path[:-1]), path[-1]
        operation = data.draw(st.sampled_from(["delete", "replace", "add", "duplicate"]))
        if operation == "delete":
            del parent[key]
        elif operation == "replace":
            parent[key] = data.draw(JSON_VALUES, label="value")
        elif isinstance(parent, dict):
            name = data.draw(st.text(max_size=8) | st.sampled_from(["x", "seat", "cards"]))
            parent[name] = data.draw(JSON_VALUES, label="value")
        else:
            parent.append(copy.deepcopy(parent[key]) if operation == "duplicate"
                          else data.draw(JSON_VALUES, label="value"))
    text = json.dumps(message)
    try:
        request = parse_request(text)
    except ProtocolError as error:
        assert error.code in ERROR_CODES
        status, answer = EQUITY.answer(text)
        expected = 413 if error.code == "too_large" else 400
        assert (status, answer["error"]["code"]) == (expected, error.code)
        return
    status, answer = EQUITY.answer(text)
    assert status == 200 or 400 <= status < 500, answer
    if status == 200:
        _validator("response").validate(answer)
        assert answer.get("id") == request.id
        assert_legal_answer(request.view, answer["action"])
        assert parse_response(json.dumps(answer), id=request.id) == answer["action"]


# Views that pass parse_request but whose legal actions contradict the rest of the view.
def _inconsistent(change: Callable[[dict[str, Any]], None], base: int = 0) -> dict[str, Any]:
    message = copy.deepcopy(FUZZ_BASE[base])
    change(message["view"])
    return message


def _duplicate_first_legal(view: dict[str, Any]) -> None:
    view["legal"].append(copy.deepcopy(view["legal"][0]))


def _accept_without_sideshow(view: dict[str, Any]) -> None:
    view["legal"], view["sideshow"] = [{"type": "accept"}], None


def _shopping_discard_of_unknown_cards(view: dict[str, Any]) -> None:
    view.update(phase="shopping", cards=None,
                legal=[{"type": "discard", "cards": ["Ts", "9d", "3h", "Kd"]}])


def _pass_without_cards(view: dict[str, Any]) -> None:
    view.update(phase="passing", cards=None,
                legal=[{"type": "pass", "cards": ["Kd", "2c", "9d", "3h", "As"]}])


def _two_discard_entries(view: dict[str, Any]) -> None:
    view["legal"] = [{"type": "discard", "cards": []}, {"type": "discard", "cards": ["As"]}]


def _offer_one_variant(view: dict[str, Any]) -> None:
    assert view["legal"][0]["type"] == "choose_variant"
    view["legal"] = [{"type": "choose_variant", "variants": [view["dealers_choice"][-1]]}]


SHOPPING = next(i for i, m in enumerate(FUZZ_BASE) if m["view"]["rules"]["variant"] == "shopping")
PASSING = next(i for i, m in enumerate(FUZZ_BASE)
               if m["view"]["rules"]["variant"] == "passing_cards")
SHOPPING_BETTING = next(i for i, m in enumerate(FUZZ_BASE)
                        if m["view"]["rules"]["variant"] == "shopping"
                        and m["view"]["phase"] == "betting")
CHOOSING = next(i for i, m in enumerate(FUZZ_BASE)
                if m["view"]["legal"][0]["type"] == "choose_variant")
INCONSISTENT_VIEWS = [
    ("duplicate legal entry", _inconsistent(_duplicate_first_legal)),
    ("accept without a sideshow", _inconsistent(_accept_without_sideshow)),
    ("shopping discard, cards unknown", _inconsistent(_shopping_discard_of_unknown_cards,
                                                      SHOPPING)),
    ("pass, cards unknown", _inconsistent(_pass_without_cards, PASSING)),
    ("two discard entries", _inconsistent(_two_discard_entries, SHOPPING_BETTING)),
]


@pytest.mark.parametrize("message", [pytest.param(message, id=name)
                                     for name, message in INCONSISTENT_VIEWS])
def test_inconsistent_views_are_refused_not_a_500(message: dict[str, Any]) -> None:
    status, answer = EQUITY.answer(json.dumps(message))
    assert status in (200, 400), answer
    assert answer.get("id") == message["id"]
    if status == 200:
        _validator("response").validate(answer)
        assert_legal_answer(message["view"], answer["action"])
    else:
        assert answer["error"]["code"] == "invalid_view"


def test_a_choose_variant_offer_is_respected() -> None:
    message = _inconsistent(_offer_one_variant, CHOOSING)
    offered = message["view"]["legal"][0]["variants"]
    assert len(offered) == 1 and len(message["view"]["dealers_choice"]) > 1
    request = parse_request(json.dumps(message))
    _, mask, _ = request.decision()
    chosen = {request.action_of(int(index))["variant"] for index in np.flatnonzero(mask)}
    assert chosen == set(offered)


def test_two_legal_entries_of_one_type_are_refused() -> None:
    message = _inconsistent(_two_discard_entries, SHOPPING_BETTING)
    with pytest.raises(ProtocolError, match="once") as caught:
        parse_request(json.dumps(message))
    assert caught.value.code == "invalid_view"


LEGAL_ENTRIES = (
    st.sampled_from([{"type": t} for t in ("look", "pack", "all_in", "show", "accept", "refuse",
                                            "draw", "keep", "vote_end", "continue")])
    | st.builds(lambda kind, low, high: {"type": kind, "min": low, "max": high},
                st.sampled_from(["bet", "sideshow"]), st.integers(1, 300), st.integers(1, 300))
    | st.builds(lambda kind, cards: {"type": kind, "cards": cards},
                st.sampled_from(["discard", "pass", "buy_joker"]),
                st.lists(st.sampled_from(["As", "Kd", "2c", "3h", "Ts", "9d"]), unique=True,
                         max_size=6))
    | st.builds(lambda names: {"type": "choose_variant", "variants": names},
                st.lists(st.sampled_from(["ak47", "open_joker", "discard_one", "classic"]),
                         min_size=1, max_size=3, unique=True))
)


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@example(base=0, legal=[{"type": "look"}, {"type": "look"}], no_sideshow=False, no_cards=False)
@given(base=st.integers(0, len(FUZZ_BASE) - 1),
       legal=st.lists(LEGAL_ENTRIES, min_size=1, max_size=4),
       no_sideshow=st.booleans(), no_cards=st.booleans())
def test_any_legal_list_gets_a_legal_answer_or_a_4xx(
    base: int, legal: list[dict[str, Any]], no_sideshow: bool, no_cards: bool
) -> None:
    message = copy.deepcopy(FUZZ_BASE[base])
    message["view"]["legal"] = legal
    if no_sideshow:
        message["view"]["sideshow"] = None
    if no_cards:
        message["view"]["cards"] = None
    text = json.dumps(message)
    try:
        request = parse_request(text)
    except ProtocolError:
        return
    status, answer = EQUITY.answer(text)
    assert status == 200 or 400 <= status < 500, answer
    if status == 200:
        _validator("response").validate(answer)
        action = answer["action"]
        if action["type"] == "choose_variant":
            offered = next(a for a in legal if a["type"] == "choose_variant")["variants"]
            assert action["variant"] in offered
        assert_legal_answer(request.view, action)
