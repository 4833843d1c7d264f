"""The bot protocol ``teenpatti-bot/1`` (teenpatti_env/protocol/).

* Differential: at every decision of random play (classic, every variant, dealer's choice,
  votes between hands, 3 and 7 seats, hand and session episodes) the observation, mask
  and info a bot builds from the JSON view alone equal the environment's, and every legal
  index means the same engine action.
* The JSON Schema is a valid draft 2020-12 schema that real requests and answers satisfy."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from builders.env import jsonable
from builders.protocol import (
    CHOICES,
    CLASSIC,
    ROOT,
    _validator,
    base_request,
    check_decision,
    play,
    seed_of,
)
from jsonschema import Draft202012Validator

from interfaces.service import BotService
from teenpatti_env import Rules, raw_env
from teenpatti_env.protocol import (
    ERROR_CODES,
    MAX_MESSAGE_BYTES,
    PROTOCOL,
    ProtocolError,
    make_error,
    make_request,
    make_response,
    parse_request,
    parse_response,
    schema,
)
from teenpatti_env.rules.variants import VARIANTS

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


def test_a_shopping_seat_that_discards_a_card_twice_reads_as_the_environment() -> None:
    """After the deck runs out (P7) a seat may draw back a card it threw away and throw it
    away again: its view lists that card twice among many discards, the schema takes it,
    and the protocol reads it exactly as the environment does."""
    rules = Rules(variant="shopping", num_players=3, starting_boots=300)
    env = raw_env(rules=rules)
    env.reset(seed=4)
    draw, thrown = env.layout.names.index("draw"), env.layout.names.index("discard_3")
    request_part = _validator("request")
    twice = False
    while not twice:
        agent = env.agent_selection
        observation = env.observe(agent)
        info = env.view(agent)
        parted = info.get("my_parted") or []
        twice = len(parted) > len(set(parted))
        check_decision(env, agent, observation, info, check_others=False)
        errors = list(request_part.iter_errors(make_request(jsonable(info))))
        assert not errors, errors[0].message
        env.step(draw if observation["action_mask"][draw] else thrown)
    assert env.hand.reshuffles and len(parted) > 6


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
