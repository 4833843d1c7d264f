"""``teenpatti play``: a person plays a session in the terminal against chosen bots.

Each turn draws the table (seats, stacks, chips in, who is blind or seen, the cards the
person knows, pot and stake), the story of the hand so far and the legal moves by name.
The person answers with a move's number or name, and an amount for a bet or sideshow
(``bet 4``, ``3 4``; no amount: the smallest). ``quit`` or end of input stops.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interfaces.table import PlayTable
from teenpatti_env.errors import IllegalActionError

STORY_LINES = 14
"""Lines of the hand's story drawn each turn (the latest)."""


def _status(entry: dict[str, Any]) -> str:
    if not entry["dealt_in"]:
        return "out" if not entry["in_session"] else "sits out"
    if entry["packed"]:
        return "packed"
    words = ["seen" if entry["seen"] else f"blind ({entry['blind_bets']} bets)"]
    if entry["all_in"]:
        words.append("all-in")
    return ", ".join(words)


def draw_table(state: dict[str, Any]) -> str:
    """The table as text, from the person's view."""
    view = state["view"]
    number = state["hands_played"] + (0 if view.get("result") else 1)
    limit = state["max_hands"]
    lines = [f"Hand {number}{f' of {limit}' if limit else ''}   pot {view['pot']}   "
             f"stake {view['stake']}   boot {view['boot']}"]
    lines.append(f"  {'seat':<5}{'player':<22}{'stack':>6}{'in pot':>8}  {'status':<18}cards")
    for entry in view["seats"]:
        seat = entry["seat"]
        marks = ("D" if seat == view["dealer"] else " ") + (
            ">" if seat == view["to_act"] and not view.get("result") else " ")
        cards = " ".join(entry["cards"] or []) or ("??" if entry["dealt_in"] else "")
        lines.append(f"{marks}{seat:<5}{state['players'][seat][:21]:<22}{entry['stack']:>6}"
                     f"{entry['chips_in']:>8}  {_status(entry):<18}{cards}".rstrip())
    extras = [f"{key} {' '.join(view[key])}" for key in ("community", "indicators") if view[key]]
    if view["wild_ranks"] or view["wild_colours"]:
        extras.append("wild " + " ".join([*view["wild_ranks"], *view["wild_colours"]]))
    if view["cards"]:
        extras.append(f"your cards {' '.join(view['cards'])}"
                      + (f" ({view['category'].replace('_', ' ')})" if view["category"] else ""))
    lines += ["  " + text for text in extras]
    return "\n".join(lines)


def move_labels(legal: list[dict[str, Any]]) -> list[str]:
    """The legal moves as the person reads them, numbered from 1 in this order."""
    labels = []
    for action in legal:
        kind = action["type"]
        if "min" in action:
            labels.append(f"{kind} {action['min']}..{action['max']}")
        elif kind in ("discard", "buy_joker", "pass"):
            labels.append(f"{kind} <card{'s' if kind == 'pass' else ''}> of "
                          + " ".join(action["cards"]))
        elif kind == "choose_variant":
            labels.append("choose_variant <variant> [rank|colour] of "
                          + ", ".join(action["variants"]))
        else:
            labels.append(kind)
    return labels


def parse_move(text: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The action a typed line names (by number or name, then its arguments); a line
    that names no legal move is a ``ValueError`` that says what to type."""
    words = text.split()
    if not words:
        raise ValueError("type a move's number or name")
    first, rest = words[0].lower(), words[1:]
    if first.isdigit():
        if not 1 <= int(first) <= len(legal):
            raise ValueError(f"choose a number from 1 to {len(legal)}")
        chosen = legal[int(first) - 1]
    else:
        chosen = next((a for a in legal if a["type"] == first), {})
        if not chosen:
            raise ValueError(f"{first!r} is not a legal move now")
    kind = chosen["type"]
    if "min" in chosen:
        if len(rest) > 1 or (rest and not rest[0].isdigit()):
            raise ValueError(f"{kind} takes one amount from {chosen['min']} to {chosen['max']}")
        return {"type": kind, "amount": int(rest[0]) if rest else chosen["min"]}
    if kind in ("discard", "buy_joker"):
        if len(rest) != 1:
            raise ValueError(f"{kind} names one card: {' '.join(chosen['cards'])}")
        return {"type": kind, "card": rest[0]}
    if kind == "pass":
        if len(rest) != 3:
            raise ValueError("pass names three cards")
        return {"type": kind, "cards": rest}
    if kind == "choose_variant":
        if not rest:
            raise ValueError("choose_variant names a variant")
        action = {"type": kind, "variant": rest[0]}
        if len(rest) > 1:
            named = rest[1]
            if named in ("red", "black"):
                action["colour"] = named
            else:
                action["rank"] = named.upper()
        return action
    if rest:
        raise ValueError(f"{kind} takes nothing more")
    return {"type": kind}


def play_session(
    table: PlayTable,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> bool:
    """Play ``table`` with a person typing moves (``read`` a line, ``write`` a block of
    text); returns whether the session ended (not quit)."""
    told = 0
    while not table.over:
        state = table.state()
        for finished in state["finished"][told:]:
            write(f"\n-- hand {finished['number']} --\n" + "\n".join(finished["story"])
                  + f"\nnet: {finished['net']}")
        told = len(state["finished"])
        write("\n" + draw_table(state))
        story = state["story"][-STORY_LINES:]
        write("\n".join("  | " + line for line in story))
        legal = state["view"]["legal"]
        write("your moves: " + "   ".join(f"{k}) {label}" for k, label in
                                          enumerate(move_labels(legal), 1)))
        while True:
            try:
                line = read("> ")
            except EOFError:
                return False
            if line.strip().lower() in ("quit", "exit", "q"):
                return False
            try:
                table.act(parse_move(line, legal))
                break
            except (ValueError, IllegalActionError) as error:
                write(f"! {error}")
    state = table.state()
    for finished in state["finished"][told:]:
        write(f"\n-- hand {finished['number']} --\n" + "\n".join(finished["story"])
              + f"\nnet: {finished['net']}")
    standings = ", ".join(f"{name} {chips}" for name, chips in
                          zip(state["players"], state["stacks"], strict=True))
    write(f"\nSession over after {state['hands_played']} hands: {standings}")
    return True
