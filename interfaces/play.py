"""``teenpatti play``: a person plays a session in the terminal against chosen bots.

Each turn draws the table (seats, stacks, chips in, who is blind or seen, the cards the
person knows, pot and stake), the story of the hand so far ("you" for the person) and
the legal moves, each on a fixed letter key with what it costs and to whom. The person
types a key or a move's name, and an amount for a bet or sideshow (``b 4``, ``bet 4``;
no amount: the smallest). ``chaal``, ``blind`` and ``call`` bet (``raise``: the most),
``fold`` packs, ``see`` looks. Every ended hand is summed up: who won with what, the pot
and side pots, everyone's net. ``quit`` or end of input stops with the standings.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interfaces.table import MOVE_KEYS, PlayTable
from teenpatti_env.errors import IllegalActionError

STORY_LINES = 14
"""Lines of the hand's story drawn each turn (the latest)."""

SYNONYMS = {
    "fold": "pack", "chaal": "bet", "blind": "bet", "call": "bet", "raise": "bet",
    "see": "look", "side": "sideshow", "allin": "all_in", "all-in": "all_in",
    "buy": "buy_joker", "choose": "choose_variant", "vote": "vote_end",
}  # fmt: skip
"""Words players use for a move, beside its name and key."""
_BY_KEY = {key: kind for kind, key in MOVE_KEYS.items()}


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
                      + (f" ({state['category_words']})" if state["category_words"] else ""))
    lines += ["  " + text for text in extras]
    return "\n".join(lines)


def move_labels(moves: list[dict[str, Any]], players: list[str]) -> list[str]:
    """The moves as the person reads them: key, name, cost and target
    (``[b] blind 1/2``, ``[s] show (costs 2, against hard)``)."""
    labels = []
    for move in moves:
        entry = move["entry"]
        kind = move["type"]
        text = f"[{move['key']}] {move['label'].lower()}"
        if "amounts" in move:
            text += " " + "/".join(map(str, move["amounts"]))
        elif kind in ("discard", "buy_joker", "pass"):
            text += f" <card{'s' if kind == 'pass' else ''}> of " + " ".join(entry["cards"])
        elif kind == "choose_variant":
            text += " <variant> [rank|colour] of " + ", ".join(entry["variants"])
        facts = []
        if move["cost"] and "amounts" not in move:
            facts.append(f"costs {move['cost']}")
        if move["target"] is not None and kind == "show":
            facts.append(f"against {players[move['target']]}")
        if facts:
            text += f" ({', '.join(facts)})"
        labels.append(text)
    return labels


def parse_move(text: str, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """The action a typed line names (a move's key, name or a synonym, then its
    arguments); a line that names no legal move is a ``ValueError`` that says what to
    type."""
    words = text.split()
    if not words:
        raise ValueError("type a move's key or name")
    first, rest = words[0].lower(), words[1:]
    kind = _BY_KEY.get(first) or SYNONYMS.get(first) or first
    chosen = next((m["entry"] for m in moves if m["type"] == kind), None)
    if chosen is None:
        keys = ", ".join(f"{m['key']} ({m['type']})" for m in moves)
        raise ValueError(f"{first!r} is not a legal move now; type one of {keys}")
    if "min" in chosen:
        if len(rest) > 1 or (rest and not rest[0].isdigit()):
            raise ValueError(f"{kind} takes one amount from {chosen['min']} to {chosen['max']}")
        unsaid = chosen["max"] if first == "raise" else chosen["min"]
        return {"type": kind, "amount": int(rest[0]) if rest else unsaid}
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


def hand_end_text(number: int, summary: dict[str, Any], players: list[str]) -> str:
    """An ended hand summed up, as the web table's hand-end panel tells it."""
    winners = " and ".join(players[s] for s in summary["winners"]) or "nobody"
    lines = [f"-- hand {number}: {summary['end_words']}; {winners} "
             f"{'win' if summary['winners'] == [0] or len(summary['winners']) > 1 else 'wins'}"
             f" {summary['pot']} --"]
    width = max(len(name) for name in players)
    for shown in summary["shown"]:
        lines.append(f"  {shown['name']:<{width}}  {' '.join(shown['cards'])}  "
                     f"{shown['category']}")
    if len(summary["pots"]) > 1:
        for index, pot in enumerate(summary["pots"]):
            lines.append(f"  {'main pot' if index == 0 else f'side pot {index}'} "
                         f"{pot['amount']}: " + ", ".join(players[s] for s in pot["winners"]))
    if summary.get("reason"):
        lines.append(f"  why: {summary['reason']}")
    lines += [f"  {text}" for text in summary["sideshows"]]
    for sideshow in summary.get("sideshow_hands", []):
        lines.append(f"  {sideshow['words']}")
    lines += [f"  {text}" for text in summary["hidden"]]
    net = summary["net"]
    lines.append(f"  your net {net[0]:+d}   " + ", ".join(
        f"{players[s]} {net[s]:+d}" for s in range(1, len(net))))
    return "\n".join(lines)


def standings_text(table: PlayTable) -> str:
    """The standings, one player a line, most chips first."""
    rows = sorted(table.standings(), key=lambda row: -row["stack"])
    width = max(len(row["name"]) for row in rows)
    return "\n".join(f"  {row['name']:<{width}} {row['stack']:>7} {row['net']:>+7}"
                     for row in rows)


def play_session(
    table: PlayTable,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> bool:
    """Play ``table`` with a person typing moves (``read`` a line, ``write`` a block of
    text); returns whether the session ended (not quit). Either way the standings end
    the text."""
    told = 0
    drawn = (0, 0)  # the hand last drawn and the lines of its story then

    def tell_finished(state: dict[str, Any]) -> None:
        """The end of every hand not told yet: its story since the person last saw
        it (the bots' replies), then its summary."""
        nonlocal told
        for finished in state["finished"]:
            if finished["number"] > told:
                story = finished["story"][drawn[1]:] if finished["number"] == drawn[0] else \
                    finished["story"]
                write("\n".join(["", *("  | " + line for line in story),
                                 hand_end_text(finished["number"], finished["summary"],
                                               state["players"])]))
        told = max([told, *(f["number"] for f in state["finished"])])

    while not table.over:
        state = table.state()
        tell_finished(state)
        write("\n" + draw_table(state))
        drawn = (state["hands_played"] + 1, len(state["story"]))
        story = state["story"][-STORY_LINES:]
        write("\n".join("  | " + line for line in story))
        moves = table.moves()
        write("your moves: " + "   ".join(move_labels(moves, state["players"])))
        while True:
            try:
                line = read("> ")
            except EOFError:
                line = "quit"
            if line.strip().lower() in ("quit", "exit", "q"):
                write(f"\nYou left after {table.state()['hands_played']} hands. Standings:\n"
                      + standings_text(table))
                return False
            try:
                table.act(parse_move(line, moves))
                break
            except (ValueError, IllegalActionError) as error:
                write(f"! {error}")
    state = table.state()
    tell_finished(state)
    write(f"\nSession over after {state['hands_played']} hands. Standings:\n"
          + standings_text(table))
    return True
