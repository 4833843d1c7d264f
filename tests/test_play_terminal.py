"""``teenpatti play`` driven through a pseudo-terminal, as a person at a terminal types:
fixed keys, the words players use, the hand-end summary and the standings on quit; the
pause between hands, help, rankings and standings at any prompt, only the new story each
turn, suit symbols (in colour unless NO_COLOR or a dumb terminal), lines wrapped at word
boundaries to the terminal's width, errors in the table's words, the turn timer, and a
default seat the trained bot cannot play given to equity with a notice (issues 28, 29)."""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")

WAIT_S = 30.0


class Terminal:
    """A ``teenpatti play`` process on a pseudo-terminal: type lines, read the screen."""

    def __init__(self, *args: str, columns: int = 100, **environ: str) -> None:
        self.main, child = os.openpty()
        # the terminal's size, as a window gives it (rows, columns)
        fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
        env = {key: value for key, value in os.environ.items()
               if key not in ("COLUMNS", "LINES", "NO_COLOR")}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "teenpatti_env", "play", *args],
            stdin=child, stdout=child, stderr=child, close_fds=True,
            env={**env, "PYTHONUNBUFFERED": "1", "TERM": "dumb", **environ},
        )
        os.close(child)
        self.screen = ""
        self.before = ""
        """What came before the last match (since the one before it)."""

    def expect(self, pattern: str) -> re.Match[str]:
        """Read until ``pattern`` (a regex) appears after what was already matched."""
        deadline = time.monotonic() + WAIT_S
        while True:
            found = re.search(pattern, self.screen)
            if found:
                self.before = self.screen[:found.start()]
                self.screen = self.screen[found.end():]
                return found
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {pattern!r} on the terminal; it shows:\n{self.screen}")
            ready, _, _ = select.select([self.main], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.main, 65536)
                except OSError:  # the process closed the terminal
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"the terminal closed before {pattern!r}:\n"
                                         f"{self.screen}")
                self.screen += chunk.decode("utf-8", "replace").replace("\r\n", "\n")

    def type(self, line: str) -> None:
        os.write(self.main, (line + "\n").encode())

    def moves(self) -> str:
        """The next moves line: ``[l] look   [b] blind 1/2   [p] pack``."""
        return self.expect(r"your moves: ([^\n]*)\n").group(1)

    def prompt(self) -> str | None:
        """The next moves line, or ``None`` at the pause after a hand."""
        found = self.expect(r"your moves: ([^\n]*)\n|Enter: next hand > ")
        return found.group(1)

    def close(self) -> int:
        try:
            return self.process.wait(timeout=WAIT_S)
        finally:
            os.close(self.main)


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    started: list[Terminal] = []

    def start(*args: str, **options: Any) -> Terminal:
        started.append(Terminal(*args, **options))
        return started[-1]

    yield start  # type: ignore[misc]
    for term in started:
        if term.process.poll() is None:
            term.process.kill()
        term.process.wait(timeout=WAIT_S)


def test_keys_stay_put_and_the_words_players_use_are_understood(terminal):
    term = terminal("--bots", "hard,equity", "--hands", "3", "--seed", "4")
    first = term.moves()
    assert first.startswith("[l] look   [b] blind ") and first.endswith("[p] pack")
    term.type("l")  # look: the keys of the other moves do not shift
    after = term.moves()
    assert after.startswith("[b] chaal ") and after.endswith("[p] pack") and "[l]" not in after
    assert "  | you look\n  | you hold " in term.before  # the story says "you"
    term.type("chaal")  # a chaal at the smallest seen bet
    found = term.expect(r"\| you bet (\d+) chaal")
    assert int(found.group(1)) % 2 == 0
    moves = term.prompt()
    while moves is not None and "[p] pack" not in moves:  # a sideshow asked of you
        term.type("r")
        moves = term.prompt()
    if moves is not None:
        term.type("fold")
        term.expect(r"\| you pack|-- hand 1: ")
    term.type("quit")
    term.expect("Standings:")
    assert term.close() == 0


def play_to_the_end_of_hand_one(term: Terminal) -> str:
    """Play hand 1 (show, accept, look, call) until its summary; returns the summary."""
    for _ in range(60):
        moves = term.prompt()
        if moves is None:
            summary = re.search(r"-- hand 1: [^\n]* --\n(?:  [^\n]*\n)+", term.before)
            assert summary, term.before
            return summary.group(0)
        if "[s] show" in moves:
            term.type("s")
        elif "[a] accept" in moves:
            term.type("accept")
        elif "[l] look" in moves:
            term.type("see")
        else:
            term.type("call")
    raise AssertionError("hand 1 never ended")


def test_every_hand_is_summed_up_and_quit_gives_the_standings(terminal):
    term = terminal("--bots", "hard,equity,medium", "--hands", "5", "--seed", "1")
    summary = play_to_the_end_of_hand_one(term)
    head, body = summary.split("\n", 1)
    assert re.search(r"(you|hard|equity|medium) wins? \d+", head)
    assert re.search(r"  your net [+-]\d+ {3}hard [+-]\d+, equity [+-]\d+, medium [+-]\d+\n",
                     body)
    if head.startswith(("-- hand 1: Showdown", "-- hand 1: Show")):  # shown hands: category
        assert re.search(r"(High card|Pair|Colour|Sequence|Pure sequence|Trail)\n", body)
    term.type("quit")
    found = term.expect(r"You left after (\d+) hands\. Standings:\n((?:  [^\n]*\n?)+)")
    rows = [line.split() for line in found.group(2).strip("\n").splitlines()]
    assert sorted(row[0] for row in rows) == ["equity", "hard", "medium", "you"]
    stacks = [int(row[1]) for row in rows]
    assert stacks == sorted(stacks, reverse=True) and sum(stacks) == 400
    assert all(int(row[2]) == int(row[1]) - 100 for row in rows)
    assert term.close() == 0


def test_a_hand_end_waits_for_enter_and_answers_help_meanwhile(terminal):
    term = terminal("--bots", "hard,equity", "--hands", "3", "--seed", "2")
    play_to_the_end_of_hand_one(term)
    term.type("?")
    help_text = term.expect(r"Between hands, Enter deals the next one\.\n")
    assert "Keys: l look, b bet" in term.before and help_text
    term.type("standings")
    term.expect(r"Standings:\n(?:  \S+ +\d+ +[+-]\d+\n){3}")
    term.type("b 2")  # a move now is no move: the hand is over
    term.expect("! the hand is over: press Enter for the next hand")
    assert "Hand 2" not in term.before + term.screen
    term.type("")
    term.expect(r"Hand 2 of 3 ")
    assert term.moves()
    term.type("quit")
    term.expect("You left after 1 hands")
    assert term.close() == 0


def test_help_rankings_and_standings_at_a_move_keep_the_turn(terminal):
    term = terminal("--bots", "hard,equity", "--variant", "muflis", "--seed", "4")
    first = term.moves()
    term.type("?")
    term.expect(r"At any prompt: \? or help")
    term.type("rankings")
    ranks = term.expect(r"Hand rankings, best first \(lowball[^\n]*\n((?:  [^\n]*\n)+?)"
                        r"  This table plays muflis: ")
    order = re.findall(r"\d\. (High card|Pair|Colour|Sequence|Pure sequence|Trail)",
                       ranks.group(1))
    assert order == ["High card", "Pair", "Colour", "Sequence", "Pure sequence", "Trail"]
    term.type("standings")
    term.expect(r"Standings:\n(?:  \S+ +100 +\+0\n){3}")
    term.type("l")  # the turn waited: the move is played now
    assert term.moves() != first
    assert "| you look" in term.before
    term.type("quit")
    assert term.close() == 0


def test_each_turn_tells_only_the_new_story_with_suit_symbols(terminal):
    term = terminal("--bots", "hard,equity", "--hands", "2", "--seed", "4")
    term.moves()
    deal = re.findall(r"\| \w+ deals; ", term.before)
    assert len(deal) == 1
    term.type("l")
    term.moves()
    told = term.before
    assert "deals; " not in told  # the deal was told already
    held = re.search(r"\| you hold ([^\n]*)\n", told)
    assert held and re.fullmatch(r"(?:(?:10|[2-9JQKA])[♠♥♦♣] ){2}(?:10|[2-9JQKA])[♠♥♦♣]",
                                 held.group(1)), told
    assert not re.search(r"\b[2-9TJQKA][shdc]\b", told)  # no letter suits
    assert "\033[" not in told  # TERM=dumb: no colour
    term.type("quit")
    assert term.close() == 0


@pytest.mark.parametrize(("environ", "coloured"), [
    ({"TERM": "xterm-256color"}, True),
    ({"TERM": "xterm-256color", "NO_COLOR": "1"}, False),
])
def test_cards_are_coloured_on_a_terminal_unless_no_color(terminal, environ, coloured):
    term = terminal("--bots", "hard,equity", "--seed", "4", **environ)
    term.moves()
    term.type("l")
    term.moves()
    assert ("\033[31m" in term.before or "\033[1m" in term.before) == coloured
    term.type("quit")
    assert term.close() == 0


def test_lines_wrap_at_word_boundaries_to_the_terminal(terminal):
    from interfaces.table import MOVE_KEYS
    from interfaces.terminal_text import help_text

    term = terminal("--bots", "hard,equity,medium", "--seed", "4", columns=44)
    term.moves()
    term.expect(r"\[\d+ s\] > ")  # the prompt first: typed ahead, it would share its line
    term.type("?")
    term.expect(r"the next\s+one\.\n")
    shown = term.before + term.screen
    assert [line for line in shown.split("\n")[1:] if len(line) > 44] == []
    words = re.sub(r"^> ", "", term.before[term.before.index("Type a move's key"):],
                   flags=re.M).split()
    assert words == help_text(MOVE_KEYS).split()[:len(words)]  # every word whole
    term.type("quit")
    assert term.close() == 0


def test_errors_are_told_in_the_tables_words(terminal):
    term = terminal("--bots", "hard,equity", "--hands", "2", "--seed", "4")
    first = term.moves()
    term.type("dance")
    term.expect(r"! you cannot 'dance' now; your moves are l look, b blind, p pack "
                r"\(\? for help\)")
    term.type("b 999")
    term.expect(r"! you can bet 1 or 2 chips\n")
    term.type("")
    term.expect("! type a move's key or name")
    term.type("l")
    assert term.moves() != first
    term.type("b 3")
    term.expect(r"! once you have seen your cards, you bet an even number of chips\n")
    assert "seat 0" not in term.before + term.screen
    os.write(term.main, b"\x04")  # end of input: leave with the standings
    term.expect("Standings:")
    assert term.close() == 0


def test_a_turn_not_played_in_time_packs(terminal):
    term = terminal("--bots", "hard,equity", "--hands", "2", "--seed", "4",
                    "--turn-seconds", "5")
    term.moves()
    term.expect(r"\[5 s\] > ")
    term.expect(r"Your time ran out: you pack\.")  # after five seconds of nothing
    term.expect(r"-- hand 1: ")
    term.type("quit")
    assert term.close() == 0


@pytest.mark.parametrize("args", [("--players", "5", "--variant", "all_open"),
                                  ("--players", "6", "--variant", "shopping")])
def test_a_default_seat_the_trained_bot_cannot_play_goes_to_equity(terminal, args):
    term = terminal(*args, "--seed", "1")
    term.expect(r"seat 3: pretrained:general has no member for [^\n]*: equity plays in its "
                r"place\n")
    seats = int(args[1]) if args[0] == "--players" else 4
    term.moves()
    assert len(re.findall(r"^[ D][ >](\d) ", term.before, flags=re.M)) == seats
    term.type("quit")
    assert term.close() == 0
