"""Hand histories as records (RULES.md section 10): a hand written as one, a hand built
from one and its actions replayed.

A variant's history also carries its deal fields (VARIANTS.md H1-H3): ``community``,
``indicators`` (in draw order), ``chosen`` (``{"rank": "7"}`` or ``{"colour": "red"}``)
and, optionally, ``deck`` (every other card, top first) and ``reshuffles`` (the deck
after each reshuffle of the discards, top first, P7). ``rules`` names the variant.

A saved hand (``Hand.to_dict()``) is its history, and restoring one (``Hand.from_dict``)
replays it through the same ``Hand.apply`` that play uses: every state play can reach
restores, and a changed snapshot is either an illegal history or another legal hand.

These functions work on any hand class of the engine (the ``cls`` they are given, a
:class:`~teenpatti_env.engine.referee.Referee`); :mod:`teenpatti_env.engine.history`
binds them to :class:`~teenpatti_env.engine.hand.Hand`.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, TypeVar

import numpy as np

from teenpatti_env.cards import format_card, format_cards, parse_card
from teenpatti_env.engine.knowledge import TABLE_CARD_FIELDS
from teenpatti_env.engine.referee import Referee
from teenpatti_env.errors import IllegalActionError
from teenpatti_env.rules import Rules

HAND_FORMAT = "teenpatti-hand/1"
DEAL_FIELDS = (*TABLE_CARD_FIELDS, "reshuffles")
"""A history's deal fields beside ``cards``: the variant's, and the reshuffles (P7)."""
_R = TypeVar("_R", bound=Referee)
_BIT_GENERATORS = ("PCG64", "PCG64DXSM", "Philox", "SFC64", "MT19937")


def rules_of(history: dict[str, Any], num_seats: int) -> Rules:
    """The ``Rules`` a history plays under, sized to its number of seats."""
    spec = history.get("rules", {})
    rules = Rules.of(spec)
    if isinstance(spec, dict) and "num_players" in spec:
        if spec["num_players"] != num_seats:
            raise ValueError(
                f"rules say num_players={spec['num_players']} but the history has {num_seats} seats"
            )
        return rules
    return rules.replace(num_players=num_seats)


def build_hand(
    cls: type[_R], history: dict[str, Any], rng: np.random.Generator | None = None
) -> _R:
    """The hand a history starts from (boots posted, no action taken).

    ``cards`` may be ``null`` only under dealer's choice, for a hand whose deal ``rng``
    makes once the dealer has chosen; ``stacks`` then counts the seats.
    """
    if not isinstance(history, dict):
        raise ValueError(f"a hand history is a JSON object, got {type(history).__name__}")
    form = history.get("format", HAND_FORMAT)
    if form != HAND_FORMAT:
        raise ValueError(f"unknown hand history format {form!r}: expected {HAND_FORMAT!r}")
    cards = history.get("cards")
    stacks = history.get("stacks")
    if stacks is not None and not isinstance(stacks, list):
        raise ValueError(f"'stacks' must be a list of ints, got {stacks!r}")
    dealer = history.get("dealer", 0)
    if cards is None and stacks is not None and rng is not None:
        rules = rules_of(history, len(stacks))
        if rules.dealers_choice is None:
            raise ValueError("only a dealer's-choice hand may be saved before its deal")
        return cls.deal(rules, stacks, dealer, rng)
    if not isinstance(cards, list):
        raise ValueError("a hand history needs 'cards': a list with one entry per seat")
    rules = rules_of(history, len(cards))
    return cls(
        rules,
        cards,
        stacks,
        dealer,
        **{field: history.get(field) for field in DEAL_FIELDS},
        rng=rng,
    )


def play(hand: Referee, actions: Any) -> None:
    """Apply a history's actions in turn; an illegal one is an ``IllegalActionError``
    naming its index. Every recorded reshuffle must be used."""
    if not isinstance(actions, list):
        raise ValueError("'actions' must be a list")
    for index, action in enumerate(actions):
        try:
            hand.apply(action)
        except IllegalActionError as error:
            raise IllegalActionError(f"action {index}: {error}") from None
    if hand._recorded_reshuffles:
        raise ValueError("'reshuffles' lists more reshuffles than the draws made")


def _actions_of(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions taken, read back from a hand's omniscient event log."""
    actions: list[dict[str, Any]] = []
    for event in events:
        kind = event["type"]
        if kind == "discarded":  # phase actions: from the acting seat's own events
            actions.append({"seat": event["seat"], "type": "discard", "card": event["card"]})
        elif kind == "drawn":
            action = {"seat": event["seat"], "type": "draw"}
            if event["named"]:  # P7: after the deck ran out
                action["card"] = event["card"]
            actions.append(action)
        elif kind == "passed":
            actions.append({"seat": event["seat"], "type": "pass", "cards": list(event["cards"])})
        elif kind == "choose_variant":
            action = {"seat": event["seat"], "type": "choose_variant", "variant": event["variant"]}
            for key in ("rank", "colour"):
                if key in event:
                    action[key] = event[key]
            actions.append(action)
        elif kind == "bought":
            actions.append({"seat": event["seat"], "type": "buy_joker", "card": event["card"]})
        elif kind == "keep":
            actions.append({"seat": event["seat"], "type": "keep"})
        elif kind in _ACTION_EVENTS:
            action = {"seat": event["seat"], "type": kind}
            if kind in ("bet", "sideshow"):
                action["amount"] = event["amount"]
            actions.append(action)
        elif kind == "sideshow_result":
            answer = "accept" if event["accepted"] else "refuse"
            actions.append({"seat": event["target"], "type": answer})
    return actions


_ACTION_EVENTS = ("look", "pack", "bet", "all_in", "show", "sideshow")


def history_of(hand: Referee) -> dict[str, Any]:
    """The hand history of ``hand`` so far (RULES.md section 10, with the variant's deal
    fields of VARIANTS.md H1-H3 and the reshuffles of P7): ``replay`` of it gives
    ``hand.result()`` again.

    The actions are read back from the event log, so the history holds exactly what was
    played, looks (also off-turn ones) included.
    """
    start = [
        chips + paid - (hand.payouts[seat] if hand.payouts is not None else 0)
        for seat, (chips, paid) in enumerate(zip(hand.stacks, hand.contributions, strict=True))
    ]
    rules = hand.table_rules
    if rules.num_players != hand.num_seats:  # a hand's seats are its stacks
        rules = rules.replace(num_players=hand.num_seats)
    return {"format": HAND_FORMAT, "rules": rules.to_dict(), "stacks": start, **play_of(hand)}


def play_of(hand: Referee) -> dict[str, Any]:
    """A hand's history less what its table knows (format, rules, stacks): the dealer,
    the deal and the actions."""
    if hand.choosing:  # C1: the deal waits for the choice (None: rng deals it then)
        pending = hand._pending
        deal: dict[str, Any] = {"cards": None} if pending is None else _deal_texts(pending)
    else:
        deal = {
            "cards": [None if cards is None else format_cards(cards) for cards in hand.cards],
            **hand.table_cards(),
        }
        if hand.reshuffles:
            deal["reshuffles"] = [format_cards(order) for order in hand.reshuffles]
    return {
        "dealer": hand.dealer,
        **deal,
        # Logged events never change, so they are read in place, not copied.
        "actions": _actions_of([event for _, event in hand._log]),
    }


def _deal_texts(pending: dict[str, Any]) -> dict[str, Any]:
    """A deal waiting for the dealer's choice, as a history's fields (cards as text)."""

    def text(card: Any) -> Any:
        try:
            return format_card(parse_card(card))
        except ValueError:
            return card  # checked, with the rest of the deal, when the dealer chooses

    def texts(cards: Any) -> Any:
        if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence):
            return cards
        return [text(card) for card in cards]

    seats = pending["cards"]
    deal = {"cards": [None if seat is None else texts(seat) for seat in seats]}
    for key in DEAL_FIELDS:
        if pending.get(key) is not None:
            value = pending[key]
            deal[key] = [texts(order) for order in value] if key == "reshuffles" else texts(value)
    return copy.deepcopy(deal)


# ----------------------------------------------------------------- snapshots


def snapshot(hand: Referee) -> dict[str, Any]:
    """``hand.to_dict()``: its history, plus ``rng``, the state of the generator while the
    hand may still draw from it (a missed choice and the deal under dealer's choice, a
    reshuffle in shopping)."""
    saved = history_of(hand)
    if hand.rng is not None and (hand.choosing or hand.selection == "shopping"):
        saved["rng"] = rng_state(hand.rng)
    return saved


def restore(cls: type[_R], data: Any) -> _R:
    """``Hand.from_dict``: replay a snapshot (or a version 1 snapshot, converted to its
    history first). Anything malformed or illegal is a ``ValueError``."""
    try:
        if isinstance(data, dict) and data.get("version") == 1:
            data = _history_of_version_1(data)
        if not isinstance(data, dict):
            raise ValueError(f"a saved hand is a JSON object, got {type(data).__name__}")
        rng = None if data.get("rng") is None else rng_from_state(data["rng"])
        hand = build_hand(cls, data, rng)
        play(hand, data.get("actions", []))
        if rng is not None:  # replay draws nothing a history holds: back to the saved state
            rng.bit_generator.state = rng_from_state(data["rng"]).bit_generator.state
    except RecursionError:
        raise ValueError("malformed saved hand: nested too deeply") from None
    except IllegalActionError as error:
        raise IllegalActionError(f"malformed saved hand: {error}") from None
    except ValueError as error:
        raise ValueError(f"malformed saved hand: {error}") from None
    return hand


def rng_state(rng: np.random.Generator) -> dict[str, Any]:
    """The JSON-able state of a generator."""
    return copy.deepcopy(dict(rng.bit_generator.state))


def rng_from_state(state: Any) -> np.random.Generator:
    """A generator in a saved state (one of numpy's bit generators)."""
    name = state.get("bit_generator") if isinstance(state, dict) else None
    if name not in _BIT_GENERATORS:
        raise ValueError(f"'rng' must be a numpy bit generator's state, got {state!r}")
    bits = getattr(np.random, name)()
    try:
        bits.state = state
    except (TypeError, ValueError, KeyError, OverflowError) as error:
        raise ValueError(f"'rng' is not a valid {name} state: {error}") from None
    return np.random.Generator(bits)


def _history_of_version_1(data: dict[str, Any]) -> dict[str, Any]:
    """A version 1 snapshot (the hand's state and full event log) as its history."""
    try:
        if data.get("choosing"):  # waiting for the dealer's choice
            if data["pending"] is None:
                raise ValueError(
                    "a version 1 hand waiting for an rng deal cannot be "
                    "restored: its rng was not saved"
                )
            return {
                "rules": data["rules"],
                "dealer": data["dealer"],
                "stacks": data["stacks"],
                **data["pending"],
                "actions": [],
            }
        payouts = data["payouts"] or [0] * len(data["stacks"])
        start = [
            chips + paid - won
            for chips, paid, won in zip(data["stacks"], data["contributions"], payouts, strict=True)
        ]
        deal = {
            key: data[key]
            for key in ("community", "indicators", "chosen")
            if data.get(key) is not None
        }
        if data.get("dealt_deck") is not None:
            deal["deck"] = data["dealt_deck"]
        rules = data.get("table_rules", data["rules"])
        if isinstance(rules, dict) and rules.get("dealers_choice"):
            deal.pop("chosen", None)  # H3: named in choose_variant
        return {
            "rules": rules,
            "dealer": data["dealer"],
            "stacks": start,
            "cards": data["cards"],
            **deal,
            "actions": _actions_of([event for _, event in data["log"]]),
        }
    except (KeyError, TypeError, IndexError) as error:
        raise ValueError(f"not a version 1 saved hand: {error!r}") from None
