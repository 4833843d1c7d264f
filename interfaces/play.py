"""``teenpatti play``: a person plays a session in the terminal against chosen bots.

Each turn tells the story since the person last saw it ("you" for the person), then
draws the table (seats, stacks, chips in, who is blind or seen, the cards the person
knows, pot and stake) and the legal moves, each on a fixed letter key with what it costs
and to whom. The person types a key or a move's name, and an amount for a bet or
sideshow (``b 4``, ``bet 4``; no amount: the smallest). ``chaal``, ``blind`` and
``call`` bet (``raise``: the most), ``fold`` packs, ``see`` looks. At any prompt ``?``
(or ``help``), ``rankings`` and ``standings`` answer and the turn goes on. Every ended
hand is summed up (who won with what, the pot and side pots, everyone's net) and waits
for Enter. A turn timer packs a turn not played in time (on a terminal). ``quit`` or end
of input stops with the standings. Cards show with suit symbols, in colour on a
terminal, and lines wrap at word boundaries (:mod:`interfaces.terminal_text`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from interfaces.table import MOVE_KEYS, PlayTable
from interfaces.terminal_text import Style, help_text, rankings_text
from teenpatti_env.errors import IllegalActionError

COMMANDS = {"?": "help", "help": "help", "h": "help", "rankings": "rankings",
            "ranking": "rankings", "standings": "standings", "quit": "quit",
            "exit": "quit", "q": "quit"}  # fmt: skip
"""What a player can type at any prompt beside a move."""

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
        raise ValueError("type a move's key or name (? for help)")
    first, rest = words[0].lower(), words[1:]
    kind = _BY_KEY.get(first) or SYNONYMS.get(first) or first
    chosen = next((m["entry"] for m in moves if m["type"] == kind), None)
    if chosen is None:
        keys = ", ".join(f"{m['key']} {m.get('label', m['type']).lower()}" for m in moves)
        raise ValueError(f"you cannot {first!r} now; your moves are {keys} (? for help)")
    if "min" in chosen:
        if len(rest) > 1 or (rest and not rest[0].isdigit()):
            raise ValueError(f"type one amount, like {first} {chosen['min']}; "
                             f"{amount_words(kind, chosen['min'], chosen['max'])}")
        unsaid = chosen["max"] if first == "raise" else chosen["min"]
        amount = int(rest[0]) if rest else unsaid
        if not chosen["min"] <= amount <= chosen["max"]:
            raise ValueError(amount_words(kind, chosen["min"], chosen["max"]))
        return {"type": kind, "amount": amount}
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


def amount_words(kind: str, low: int, high: int) -> str:
    """The amounts a bet or sideshow may have, as the table says them ("you can bet 1
    or 2 chips")."""
    sizes = (f"{low}" if low == high else f"{low} or {high}" if high == low + 1
             else f"{low} to {high}")
    what = "bet" if kind == "bet" else "ask for a sideshow with"
    return f"you can {what} {sizes} chip{'s' if high > 1 else ''}"


_ENGINE_PREFIX = re.compile(r"^seat \d+ cannot [^:]*: ")
_EVEN = re.compile(r"a seen bet must be even, got (\d+)")


def table_words(error: IllegalActionError) -> str:
    """An engine's refusal as the table says it ("a seen bet is an even number of
    chips", not "seat 0 cannot bet 3: a seen bet must be even, got 3")."""
    reason = _ENGINE_PREFIX.sub("", str(error))
    if _EVEN.fullmatch(reason):
        return "once you have seen your cards, you bet an even number of chips"
    return f"you cannot do that now: {reason}"


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


def timed_input(prompt: str, seconds: float) -> str:
    """A line typed within ``seconds`` (``TimeoutError`` when none is), on a terminal
    (POSIX): the prompt is written, then the terminal's line is awaited."""
    import select
    import sys

    sys.stdout.write(prompt)
    sys.stdout.flush()
    ready, _, _ = select.select([sys.stdin], [], [], max(0.0, seconds))
    if not ready:
        sys.stdout.write("\n")
        raise TimeoutError("the turn timer ran out")
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.rstrip("\n")


class _Session:
    """One person's session at ``table`` in the terminal (:func:`play_session`)."""

    def __init__(self, table: PlayTable, read: Callable[[str], str],
                 write: Callable[[str], None], style: Style,
                 read_within: Callable[[str, float], str] | None,
                 clock: Callable[[], float]) -> None:
        self.table, self.read, self.style = table, read, style
        self.raw_write, self.read_within, self.clock = write, read_within, clock
        self.told = 0  # hands summed up
        self.shown = (0, 0)  # the hand whose story was told, and its lines told
        self.deadline: float | None = None

    def write(self, text: str) -> None:
        self.raw_write(self.style.block(text))

    def tell_story(self, number: int, story: list[str]) -> None:
        """The lines of hand ``number``'s story not told yet."""
        start = self.shown[1] if self.shown[0] == number else 0
        if story[start:]:
            self.write("\n".join("  | " + line for line in story[start:]))
        self.shown = (number, len(story))

    def tell_finished(self, state: dict[str, Any]) -> None:
        """The end of every hand not summed up yet: its untold story, then its summary."""
        for finished in state["finished"]:
            if finished["number"] > self.told:
                self.write("")
                self.tell_story(finished["number"], finished["story"])
                self.write(hand_end_text(finished["number"], finished["summary"],
                                         state["players"]))
        self.told = max([self.told, *(f["number"] for f in state["finished"])])

    def answer(self, command: str) -> None:
        if command == "help":
            self.write(help_text(MOVE_KEYS))
        elif command == "rankings":
            self.write(rankings_text(self.table.rules))
        else:
            self.write("Standings:\n" + standings_text(self.table))

    def ask(self, prompt: str) -> str | None:
        """A line, or ``None`` when the turn timer ran out (or the person left: "quit")."""
        seconds = None if self.deadline is None else self.deadline - self.clock()
        try:
            if seconds is not None and self.read_within is not None:
                return self.read_within(f"[{max(0, round(seconds))} s] {prompt}", seconds)
            return self.read(prompt)
        except EOFError:
            return "quit"
        except TimeoutError:
            return None

    def between_hands(self) -> bool:
        """Wait for Enter after a hand's end; ``False`` when the person leaves."""
        while True:
            line = self.ask("Enter: next hand > ")
            word = (line or "").strip().lower()
            if COMMANDS.get(word) == "quit":
                return False
            if word in ("", "n", "next"):
                self.table.next_hand()
                return True
            if word in COMMANDS:
                self.answer(COMMANDS[word])
            else:
                self.write("! the hand is over: press Enter for the next hand (? for help)")

    def turn(self, state: dict[str, Any]) -> bool:
        """Tell the new story, draw the table and play the person's move; ``False`` when
        the person leaves."""
        table = self.table
        number = state["hands_played"] + 1
        self.write("")
        self.tell_story(number, state["story"])
        self.write(draw_table(state))
        moves = table.moves()
        self.write("your moves: " + "   ".join(move_labels(moves, state["players"])))
        self.deadline = table.turn_deadline(self.deadline, self.clock())
        while True:
            line = self.ask("> ")
            if line is None:
                missed = "refuse" if any(m["type"] == "refuse" for m in moves) else "pack"
                table.time_out()
                self.write("Your time ran out: you "
                           + ("refuse the sideshow." if missed == "refuse" else "pack."))
                return True
            command = COMMANDS.get(line.strip().lower())
            if command == "quit":
                return False
            if command is not None:
                self.answer(command)
                continue
            try:
                table.act(parse_move(line, moves))
                return True
            except IllegalActionError as error:  # (a ValueError: first)
                self.write(f"! {table_words(error)}")
            except ValueError as error:
                self.write(f"! {error}")

    def play(self) -> bool:
        table = self.table
        while not table.over:
            state = table.state()
            self.tell_finished(state)
            if table.between_hands:
                self.deadline = None
                if not self.between_hands():
                    break
            elif not self.turn(state):
                break
        else:
            state = table.state()
            self.tell_finished(state)
            self.write(f"\nSession over after {state['hands_played']} hands. Standings:\n"
                       + standings_text(table))
            return True
        self.write(f"\nYou left after {table.state()['hands_played']} hands. Standings:\n"
                   + standings_text(table))
        return False


def play_session(
    table: PlayTable,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    style: Style | None = None,
    read_within: Callable[[str, float], str] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> bool:
    """Play ``table`` with a person typing moves (``read`` a line, ``write`` a block of
    text, shown in ``style``: plain text by default); returns whether the session ended
    (not quit). Either way the standings end the text. With ``read_within`` (a line
    within some seconds, else ``TimeoutError``: :func:`timed_input`) the table's turn
    timer runs: a turn not played in time is played as missed."""
    return _Session(table, read, write, style or Style(symbols=False, width=10_000),
                    read_within, clock).play()
