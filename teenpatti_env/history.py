"""Hand histories (RULES.md section 10): validate, build the hand, replay the actions.

A variant's history also carries its deal fields (VARIANTS.md H1-H3): ``community``,
``indicators`` (in draw order), ``chosen`` (``{"rank": "7"}`` or ``{"colour": "red"}``)
and, optionally, ``deck`` (every other card, top first). ``rules`` names the variant.

>>> result = replay({
...     "format": "teenpatti-hand/1",
...     "rules": {"preset": "classic"},
...     "dealer": 0,
...     "cards": [["As", "Kd", "2c"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"], ["2h", "2d", "Js"]],
...     "actions": [{"seat": 1, "type": "bet", "amount": 1}, {"seat": 2, "type": "pack"}],
... })
>>> result["pot"], result["stake"], result["to_act"]
(5, 1, 3)
"""

from __future__ import annotations

from typing import Any

from teenpatti_env.cards import format_cards
from teenpatti_env.engine import TABLE_CARD_FIELDS, Hand
from teenpatti_env.errors import IllegalActionError
from teenpatti_env.nesting import check_nesting
from teenpatti_env.rules import Rules

HAND_FORMAT = "teenpatti-hand/1"


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


def hand_from_history(history: dict[str, Any]) -> Hand:
    """The hand a history starts from (boots posted, no action taken)."""
    if not isinstance(history, dict):
        raise ValueError(f"a hand history is a JSON object, got {type(history).__name__}")
    form = history.get("format", HAND_FORMAT)
    if form != HAND_FORMAT:
        raise ValueError(f"unknown hand history format {form!r}: expected {HAND_FORMAT!r}")
    cards = history.get("cards")
    if not isinstance(cards, list):
        raise ValueError("a hand history needs 'cards': a list with one entry per seat")
    rules = rules_of(history, len(cards))
    stacks = history.get("stacks")
    if stacks is not None and not isinstance(stacks, list):
        raise ValueError(f"'stacks' must be a list of ints, got {stacks!r}")
    hand = Hand(
        rules,
        cards,
        stacks,
        history.get("dealer", 0),
        **{field: history.get(field) for field in TABLE_CARD_FIELDS},
    )
    return hand


_ACTION_EVENTS = ("look", "pack", "bet", "all_in", "show", "sideshow")


def history_of(hand: Hand) -> dict[str, Any]:
    """The hand history of ``hand`` so far (RULES.md section 10, with the variant's deal
    fields of VARIANTS.md H1-H3): ``replay`` of it gives ``hand.result()`` again.

    The actions are read back from the public event log, so the history holds exactly
    what was played, looks (also off-turn ones) included.
    """
    start = [
        chips + paid - (hand.payouts[seat] if hand.payouts is not None else 0)
        for seat, (chips, paid) in enumerate(zip(hand.stacks, hand.contributions, strict=True))
    ]
    actions: list[dict[str, Any]] = []
    for event in hand.all_events():
        kind = event["type"]
        if kind == "discarded":  # phase actions: from the acting seat's own events
            actions.append({"seat": event["seat"], "type": "discard", "card": event["card"]})
        elif kind == "drawn":
            action = {"seat": event["seat"], "type": "draw"}
            if event["named"]:  # P7: after the deck ran out
                action["card"] = event["card"]
            actions.append(action)
        elif kind == "passed":
            actions.append({"seat": event["seat"], "type": "pass", "cards": event["cards"]})
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
    return {
        "format": HAND_FORMAT,
        # A hand's seats are its card lists, whatever num_players its rules carry.
        "rules": hand.table_rules.replace(num_players=len(hand.cards)).to_dict(),
        "dealer": hand.dealer,
        "stacks": start,
        "cards": [None if cards is None else format_cards(cards) for cards in hand.cards],
        **hand.table_cards(),
        "actions": actions,
    }


def replay(history: dict[str, Any]) -> dict[str, Any]:
    """Replay a hand history and return the state after its last action.

    Raises ``ValueError`` for a malformed history and ``IllegalActionError`` (naming
    the action's index, the seat and the reason) for an action that is not legal.
    """
    check_nesting(history, "a hand history")
    hand = hand_from_history(history)
    actions = history.get("actions", [])
    if not isinstance(actions, list):
        raise ValueError("'actions' must be a list")
    for index, action in enumerate(actions):
        try:
            hand.apply(action)
        except IllegalActionError as error:
            raise IllegalActionError(f"action {index}: {error}") from None
    return hand.result()
