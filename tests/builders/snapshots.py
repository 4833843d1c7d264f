"""Random play and full public views of hands and sessions, for the snapshot tests."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from teenpatti_env import Hand, Rules, Session
from teenpatti_env.rules.variants import VARIANTS

RANKS = "23456789TJQKA"
TIME_OUT = {"time_out": True}
"""A step that lets the turn timer run out (``Hand.time_out()``)."""


def rules_for(kind: str, name: str, seats: int) -> Rules:
    """A preset, a named variant, or dealer's choice among every variant."""
    if kind == "preset":
        return Rules.preset(name, num_players=seats)
    if kind == "variant":
        return Rules(variant=name, num_players=seats, sideshow_reveal="private")
    return Rules(dealers_choice=list(VARIANTS), num_players=seats)


CONFIGS = [
    *(("preset", name) for name in Rules.PRESET_NAMES),
    *(("variant", name) for name in VARIANTS),
    ("dealers_choice", "all"),
]


def random_stacks(rules: Rules, rng: np.random.Generator) -> list[int]:
    """Short stacks, some a single boot (all-in on the boot), some out, two deep."""
    seats = rules.num_players
    boots = [int(rng.choice([0, 1, 1, 2, 3, 8, 20])) for _ in range(seats)]
    for seat in rng.choice(seats, 2, replace=False):
        boots[int(seat)] = 30
    return [rules.boot * count for count in boots]


def concrete(hand: Hand, seat: int, legal: dict[str, Any], rng: np.random.Generator) -> dict:
    """One concrete action for a legal-action entry."""
    action: dict[str, Any] = {"seat": seat, "type": legal["type"]}
    kind = legal["type"]
    if "min" in legal:
        action["amount"] = int(rng.choice([legal["min"], legal["max"]]))
    elif kind in ("discard", "buy_joker"):
        action["card"] = str(rng.choice(legal["cards"]))
    elif kind == "pass":
        action["cards"] = [str(c) for c in rng.choice(legal["cards"], 3, replace=False)]
    elif kind == "choose_variant":
        spec = hand.table_rules.choice_specs[int(rng.integers(len(legal["variants"])))]
        action["variant"] = spec.name
        if spec.chooses == "rank":
            action["rank"] = RANKS[int(rng.integers(13))]
        elif spec.chooses == "colour":
            action["colour"] = ("red", "black")[int(rng.integers(2))]
    return action


def random_step(hand: Hand, rng: np.random.Generator) -> dict[str, Any]:
    """A random legal action (off-turn looks included), or now and then a time-out."""
    if rng.random() < 0.05:
        return TIME_OUT
    options = []
    for seat in range(hand.num_seats):
        for legal in hand.legal_actions(seat):
            if seat == hand.to_act or legal["type"] == "look":
                options.append(concrete(hand, seat, legal, rng))
    weight = {"pack": 0.2, "draw": 4.0, "look": 0.5}
    weights = np.array([weight.get(o["type"], 1.0) for o in options])
    return options[int(rng.choice(len(options), p=weights / weights.sum()))]


def take(hand: Hand, step: dict[str, Any]) -> None:
    if step is TIME_OUT:
        hand.time_out()
    else:
        hand.apply(step)


def hand_views(hand: Hand) -> Any:
    """Every public query of a hand, as plain data."""
    seats = range(hand.num_seats)
    return (
        hand.phase,
        hand.to_act,
        hand.over,
        [hand.legal_actions(s) for s in seats],
        hand.result(),
        hand.public_events(),
        [hand.events_for(s) for s in seats],
        [hand.known_cards(v) for v in [None, *seats]],
        [hand.knows_own_hand(s) for s in seats],
        None if hand.choosing else [hand.hand_value(s) for s in seats if hand.dealt_in[s]],
        [hand.rotating_rank(s) for s in seats],
        hand.visible_indicators(),
        None if hand.to_act is None or hand.choosing else hand.timeout_action(),  # no draw
        hand.to_dict(),
    )


def session_views(session: Session) -> Any:
    """Every public query of a session, its hand's included."""
    return (
        session.stacks,
        session.active,
        session.hands_played,
        session.history,
        session.votes,
        session.over,
        session.ended_by_vote,
        session.dealer,
        session.winners,
        session.standings(),
        None if session.hand is None else hand_views(session.hand),
        session.to_dict(),
    )


def through_json(data: Any) -> Any:
    return json.loads(json.dumps(data))
