"""Tampered snapshots (issue 15): only ``ValueError`` (``IllegalActionError`` is one)
ever escapes ``Hand.from_dict`` and ``Session.from_dict``, and an accepted snapshot is
a state that replaying its own history gives again: the same hand, never a silently
wrong one.

The tampering changes any field, at any depth, to a wrong type, an out-of-range or huge
number, a duplicate or impossible card, deep nesting, or removes it; then the cases the
reliability review named one by one.
"""

from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np
import pytest
from builders.snapshots import (
    TIME_OUT,
    hand_views,
    random_step,
    rules_for,
    session_views,
    take,
    through_json,
)

from teenpatti_env import Hand, Rules, Session, replay


def deep(levels: int) -> list[Any]:
    nested: list[Any] = []
    for _ in range(levels):
        nested = [nested]
    return nested


BAD_VALUES: list[Any] = [
    None, True, False, 0, -1, 1, 7, -50, 10**9, 10**30, -(10**30), 1.5, math.inf,
    -math.inf, math.nan, "", "As", "Zz", "10h", "pack", "version", [], {}, ["As"],
    ["As", "As", "As"], {"seat": 0}, {"bit_generator": "PCG64"},
]  # fmt: skip


def base_hands() -> list[dict[str, Any]]:
    """Snapshots of varied states: classic and variants mid-hand and finished, phases,
    a shopping reshuffle, dealer's choice before and after the choice."""
    rng = np.random.default_rng(15)
    snapshots = []
    configs = [("preset", "classic"), ("preset", "tabletop"), ("variant", "shopping"),
               ("variant", "passing_cards"), ("variant", "discard_one"),
               ("variant", "buy_a_joker"), ("variant", "joker_thresholds"),
               ("variant", "rotating_jokers"), ("dealers_choice", "all")]  # fmt: skip
    for kind, name in configs:
        rules = rules_for(kind, name, 4)
        hand = Hand.deal(rules, [rules.boot * 20] * 4, 1, np.random.default_rng(len(snapshots)))
        snapshots.append(hand.to_dict())
        while not hand.over:
            step = random_step(hand, rng)
            take(hand, step if step is not TIME_OUT or hand.choosing else {"type": "pack"})
            if rng.random() < 0.3 or hand.over:
                snapshots.append(hand.to_dict())
    shopping = Hand(
        Rules(variant="shopping", num_players=3),
        [["As", "Kd", "2c"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"]],
        [100, 100, 100],
        0,
        rng=np.random.default_rng(3),
    )
    while "reshuffles" not in shopping.to_dict():  # every seat draws until the deck runs out
        seat = shopping.to_act
        shopping.apply({"seat": seat, "type": "draw"})
        shopping.apply({"seat": seat, "type": "discard", "card": shopping.card_texts(seat)[0]})
    snapshots.append(shopping.to_dict())
    return snapshots


BASES = base_hands()


def places(tree: Any) -> list[tuple[Any, Any]]:
    """Every (container, key) in a JSON-like tree (no deeper than 100 levels)."""
    found: list[tuple[Any, Any]] = []
    todo = [(tree, 0)]
    while todo:
        node, depth = todo.pop()
        if depth > 100:
            continue
        keys: Any = ()
        if isinstance(node, dict):
            keys = node
        elif isinstance(node, list):
            keys = range(len(node))
        for key in keys:
            found.append((node, key))
            todo.append((node[key], depth + 1))
    return found


def cards_in(tree: Any) -> list[str]:
    return [
        value
        for container, key in places(tree)
        if isinstance(value := container[key], str) and len(value) == 2 and value[1] in "shdc"
    ]


def tamper(data: dict[str, Any], rng: np.random.Generator) -> str:
    """Change one place of ``data`` at random (a field, then any place inside it); say
    what was done."""
    field = str(rng.choice(sorted(data)))
    spots = [(data, field), *places(data[field])]
    container, key = spots[int(rng.integers(len(spots)))]
    how = int(rng.integers(6))
    if how == 0 and cards_in(data):  # a card that is already elsewhere: a duplicate
        value: Any = str(rng.choice(cards_in(data)))
    elif how == 1:
        if isinstance(container, dict):
            del container[key]
        else:
            container.pop(key)
        return f"removed {key!r}"
    elif how == 2:
        container[key] = deep(50_000)
        return f"{key!r} nested 50,000 deep"
    else:
        value = copy.deepcopy(BAD_VALUES[int(rng.integers(len(BAD_VALUES)))])
    container[key] = value
    return f"{key!r} = {str(value)[:40]}"


def check_accepted(hand: Hand) -> None:
    """An accepted snapshot gives the state its own history replays to."""
    own = through_json(hand.to_dict())
    assert hand_views(Hand.from_dict(own)) == hand_views(hand)
    if own["cards"] is not None:  # a dealer's choice waiting on the rng's deal has none
        assert replay(own) == hand.result()


@pytest.mark.parametrize("seed", range(8))
def test_tampered_hand_snapshots_are_value_errors_or_replayable(seed: int) -> None:
    rng = np.random.default_rng(seed)
    accepted = 0
    for _ in range(250):
        data = copy.deepcopy(BASES[int(rng.integers(len(BASES)))])
        done = [tamper(data, rng) for _ in range(int(rng.integers(1, 4)))]
        try:
            hand = Hand.from_dict(data)
        except ValueError:
            continue
        except Exception as error:  # pragma: no cover - the failure this test looks for
            raise AssertionError(f"{done}: {type(error).__name__}: {error}") from error
        check_accepted(hand)
        accepted += 1
    assert 0 < accepted < 250  # both outcomes happen


def base_session() -> dict[str, Any]:
    rules = Rules(variant="shopping", num_players=3, max_hands=3)
    session = Session(rules, seed=4, stacks=[30, 2, 30])
    rng = np.random.default_rng(5)
    for _ in range(2):
        hand = session.new_hand()
        while not hand.over:
            step = random_step(hand, rng)
            take(hand, {"type": "pack"} if step is TIME_OUT else step)
    session.vote_end(0)
    session.new_hand()
    return session.to_dict()


def test_tampered_session_snapshots_are_value_errors_or_replayable() -> None:
    base = base_session()
    rng = np.random.default_rng(0)
    accepted = 0
    for _ in range(300):
        data = copy.deepcopy(base)
        done = [tamper(data, rng) for _ in range(int(rng.integers(1, 3)))]
        try:
            session = Session.from_dict(data)
        except ValueError:
            continue
        except Exception as error:  # pragma: no cover
            raise AssertionError(f"{done}: {type(error).__name__}: {error}") from error
        again = Session.from_dict(through_json(session.to_dict()))
        assert session_views(again) == session_views(session)
        accepted += 1
    assert 0 < accepted < 300


# ---------------------------------------------------------------- the review's cases

CARDS = [["As", "Kd", "2c"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"], ["2h", "2d", "Js"]]


def classic_hand() -> Hand:
    hand = Hand(Rules(), CARDS, [100, 100, 100, 100], 0)
    hand.bet(1)
    hand.look(2)
    return hand


def finished_hand() -> Hand:
    hand = classic_hand()
    while not hand.over:
        hand.pack()
    return hand


BIG_RNG = {"bit_generator": "PCG64", "state": {"state": 2**200, "inc": 1}, "has_uint32": 0,
           "uinteger": 0}  # fmt: skip


def add_action(**action: Any) -> Any:
    return lambda d: d["actions"].append(action)


@pytest.mark.parametrize(
    ("what", "change"),
    [
        ("three aces held elsewhere", lambda d: d["cards"].__setitem__(1, ["As", "Ah", "Ad"])),
        ("a duplicate card", lambda d: d["cards"][3].__setitem__(0, "Kd")),
        ("a sideshow asked of oneself", add_action(seat=2, type="accept")),
        ("num_players other than the seats", lambda d: d["rules"].update(num_players=3)),
        ("stacks of 10**30", lambda d: d.update(stacks=[10**30] * 4)),
        ("a negative stack", lambda d: d.update(stacks=[-5, 100, 100, 100])),
        ("an rng state out of range", lambda d: d.update(rng=BIG_RNG)),
        ("an rng of Infinity", lambda d: d.update(rng=math.inf)),
        ("a bet beyond the stack", add_action(seat=3, type="bet", amount=10**9)),
        ("an unknown format", lambda d: d.update(format="teenpatti-hand/9")),
    ],
)
def test_the_reviews_tampered_hands_are_value_errors(what: str, change: Any) -> None:
    data = through_json(classic_hand().to_dict())
    change(data)
    with pytest.raises(ValueError, match="malformed saved hand"):
        Hand.from_dict(data)


@pytest.mark.parametrize(
    "extra",
    [
        {"payouts": [-50, 0, 0, 10**9]}, {"to_act": True}, {"stake": 10**30},
        {"hands": [["As", "Ah", "Ad"]] * 4}, {"rotations": math.inf}, {"draws": [math.inf] * 4},
        {"pot": -3}, {"packed": [True] * 4}, {"end": "won"},
    ],
)  # fmt: skip
def test_state_fields_of_the_old_format_cannot_change_a_hand(extra: dict[str, Any]) -> None:
    """A snapshot holds the history, not the state: a state field written beside it is
    no part of the hand, which is the one its history replays to."""
    for hand in (classic_hand(), finished_hand()):
        restored = Hand.from_dict({**through_json(hand.to_dict()), **extra})
        assert hand_views(restored) == hand_views(hand)


def test_a_passing_snapshot_with_nobody_dealt_in_is_a_value_error() -> None:
    """Was StopIteration: a passing_cards hand whose stacks let nobody in."""
    rules = Rules(variant="passing_cards", num_players=3)
    cards = [["As", "Kd", "2c", "3c", "4c", "5c"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"]]
    hand = Hand(rules, cards, [100, 100, 100], 2, indicators=["2s", "2h", "2d"])
    data = through_json(hand.to_dict())
    data["stacks"] = [0, 0, 0]
    with pytest.raises(ValueError, match="fewer than two seats"):
        Hand.from_dict(data)


def test_a_restored_dealers_choice_hand_chooses_exactly_as_it_says() -> None:
    """Was: is_legal(choose_variant) true, then AssertionError. The saved rng deals the
    same cards after the choice; without a deal to make, the choice is not legal."""
    rules = Rules(dealers_choice=["ak47", "open_joker"])
    hand = Hand.deal(rules, [100] * 4, 0, np.random.default_rng(9))
    restored = Hand.from_dict(through_json(hand.to_dict()))
    choice = {"seat": 0, "type": "choose_variant", "variant": "open_joker", "rank": "7"}
    assert restored.is_legal(choice)
    for each in (hand, restored):
        each.apply(choice)
    assert hand_views(restored) == hand_views(hand)
    no_deal = through_json(Hand.deal(rules, [100] * 4, 0, np.random.default_rng(9)).to_dict())
    del no_deal["rng"]
    with pytest.raises(ValueError, match="'cards'"):
        Hand.from_dict(no_deal)


def test_a_dealers_choice_history_whose_deal_does_not_fit_the_choice_is_refused() -> None:
    """A waiting deal of three cards a seat cannot become four_card's hand: the choice
    is illegal, says why, and changes nothing."""
    rules = Rules(dealers_choice=["ak47", "four_card"], num_players=3)
    hand = Hand(rules, [["As", "Kd", "2c"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"]])
    choice = {"seat": 0, "type": "choose_variant", "variant": "four_card"}
    before = hand.to_dict()
    assert "does not fit four_card" in str(hand.illegal_reason(choice))
    with pytest.raises(ValueError, match="does not fit"):
        hand.apply(choice)
    assert hand.to_dict() == before and hand.choosing


def between_hands() -> dict[str, Any]:
    """A saved session between hands, seat 0 having voted to end."""
    data = base_session()
    data["hands"].pop()
    data["votes"] = [0]
    return data


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("stacks", [10**15, 10**15, 0], "a table holds at most"),
        ("hands", [{"dealer": 0}], "has no 'cards'"),
        ("votes", [7], "not in the session"),
        ("votes", [1], "not in the session"),  # seat 1 had 2 chips: it lost them and left
        ("rng", [1, 2], "'rng'"),
        ("version", 1, "version 1 saved no hand histories"),
    ],
)
def test_the_reviews_tampered_sessions(field: str, value: Any, reason: str) -> None:
    """Session stacks beyond the table's bound, a hand with no cards under a fixed deal,
    a vote by a seat not in the session, a bad rng, the old version: ``ValueError``."""
    data = between_hands()
    restored = Session.from_dict(data)
    assert restored.votes == [True, False, False] and restored.active == [True, False, True]
    data[field] = value
    with pytest.raises(ValueError, match=reason):
        Session.from_dict(data)


def test_a_vote_while_a_hand_is_in_play_is_refused() -> None:
    data = base_session()
    data["votes"] = [0]
    with pytest.raises(ValueError, match="votes to end are cast between hands"):
        Session.from_dict(data)


def test_state_fields_of_the_old_session_format_cannot_change_a_session() -> None:
    data = between_hands()
    played = Session.from_dict(data)
    tampered = Session.from_dict({**data, "hands_played": -3, "active": [False] * 3})
    assert session_views(tampered) == session_views(played)
