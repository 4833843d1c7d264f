"""The checks of a request's view beyond its schema: a view must agree with itself.

The seats are in range and in order, every card parses and sits in one place only, a
blind seat knows no more than its open cards, the legal actions agree with the rest of
the view, and the seat to act, the pot and the bet bounds agree with the seats. Each
problem is a ``ProtocolError("invalid_view")`` naming the place.
"""

from __future__ import annotations

from typing import Any, NoReturn

from teenpatti_env.cards import format_cards, parse_cards
from teenpatti_env.protocol.messages import ProtocolError
from teenpatti_env.rules import Rules


def check_seats(view: dict[str, Any], num_players: int) -> None:
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


def check_legal(view: dict[str, Any], rules: Rules) -> None:
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


def check_text(value: Any, key: str) -> None:
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


def check_cards(view: dict[str, Any], hand_rules: Rules) -> None:
    """Every card parses, no card is in two places, the seat's own cards agree, and a
    blind seat knows no more of its cards than the open ones (VARIANTS.md V3)."""
    lists = [("view/cards", view["cards"] or []), ("view/my_parted", view.get("my_parted", []))]
    places = [(f"view/seats/{k}/cards", s["cards"] or []) for k, s in enumerate(view["seats"])]
    places += [("view/community", view["community"]), ("view/indicators", view["indicators"])]
    parsed: dict[str, tuple[int, ...]] = {}
    for where, cards in lists + places:
        try:  # a shopping seat may discard a card twice (drawn back after a reshuffle)
            parsed[where] = parse_cards(cards, distinct=where != "view/my_parted")
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


def check_turn(view: dict[str, Any]) -> None:
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
