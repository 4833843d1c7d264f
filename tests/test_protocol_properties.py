"""Property: random mutations of real requests only ever raise ``ProtocolError``; a
request that passes is answered (by ``BotService``) with a legal action or a 4xx error."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from builders.protocol import CLASSIC, _validator, play
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from interfaces.service import BotService
from teenpatti_env.protocol import (
    ERROR_CODES,
    PROTOCOL,
    ProtocolError,
    make_request,
    parse_request,
    parse_response,
)

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
