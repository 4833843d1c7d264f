"""``teenpatti play`` driven through a pseudo-terminal, as a person at a terminal types:
fixed keys, the words players use, the hand-end summary and the standings on quit."""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")

WAIT_S = 30.0


class Terminal:
    """A ``teenpatti play`` process on a pseudo-terminal: type lines, read the screen."""

    def __init__(self, *args: str) -> None:
        self.main, child = os.openpty()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "teenpatti_env", "play", *args],
            stdin=child, stdout=child, stderr=child, close_fds=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1", "TERM": "dumb"},
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

    def close(self) -> int:
        try:
            return self.process.wait(timeout=WAIT_S)
        finally:
            os.close(self.main)


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    started: list[Terminal] = []

    def start(*args: str) -> Terminal:
        started.append(Terminal(*args))
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
    moves = term.moves()
    while "[p] pack" not in moves:  # a sideshow asked of you: refuse it first
        term.type("r")
        moves = term.moves()
    term.type("fold")
    term.expect(r"\| you pack|-- hand 1: ")
    term.type("quit")
    term.expect("Standings:")
    assert term.close() == 0


def test_every_hand_is_summed_up_and_quit_gives_the_standings(terminal):
    term = terminal("--bots", "hard,equity,medium", "--hands", "5", "--seed", "1")
    summary = None
    for _ in range(60):
        moves = term.moves()
        summary = re.search(r"-- hand 1: ([^\n]*) --\n((?:  [^\n]*\n)+)", term.before)
        if summary:
            break
        if "[s] show" in moves:
            term.type("s")
        elif "[a] accept" in moves:
            term.type("accept")
        elif "[l] look" in moves:
            term.type("see")
        else:
            term.type("call")
    assert summary is not None, "hand 1 never ended"
    head, body = summary.group(1), summary.group(2)
    assert re.search(r"(you|hard|equity|medium) wins? \d+", head)
    assert re.search(r"  your net [+-]\d+ {3}hard [+-]\d+, equity [+-]\d+, medium [+-]\d+\n",
                     body)
    if head.startswith(("Showdown", "Show")):  # shown hands carry their category in words
        assert re.search(r"(High card|Pair|Colour|Sequence|Pure sequence|Trail)\n", body)
    term.type("quit")
    found = term.expect(r"You left after (\d+) hands\. Standings:\n((?:  [^\n]*\n?)+)")
    rows = [line.split() for line in found.group(2).strip("\n").splitlines()]
    assert sorted(row[0] for row in rows) == ["equity", "hard", "medium", "you"]
    stacks = [int(row[1]) for row in rows]
    assert stacks == sorted(stacks, reverse=True) and sum(stacks) == 400
    assert all(int(row[2]) == int(row[1]) - 100 for row in rows)
    assert term.close() == 0


def test_a_bad_line_says_what_to_type_and_loses_nothing(terminal):
    term = terminal("--bots", "hard,equity", "--hands", "2", "--seed", "4")
    first = term.moves()
    term.type("dance")
    term.expect(r"! 'dance' is not a legal move now; type one of l \(look\), b \(bet\), p \(pack\)")
    term.type("b 999")
    term.expect(r"! [^\n]*999")
    term.type("")
    term.expect("! type a move's key or name")
    term.type("l")
    assert term.moves() != first
    os.write(term.main, b"\x04")  # end of input: leave with the standings
    term.expect("Standings:")
    assert term.close() == 0
