"""The clocks a remote bot is held to (interfaces/clock.py, interfaces/remote.py), against
real bots: programs under tests/bots started over stdio, or serving HTTP.

* a bot that floods stale answers is timed out on every turn, on time, and the table's
  memory stays flat;
* the hand and match clocks end a slow bot's turns as docs/protocol.md says;
* the requests carry the clock, and it counts down.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest

from interfaces.clock import BotClock
from interfaces.match import run_match
from interfaces.remote import HttpBot, ProcessBot

BOTS = Path(__file__).parent / "bots"
LOCALS = ["equity", "hard"]
SEED = 3
RSS_BOUND_MB = 40
"""How much the table's resident memory may grow while a bot floods it (the lines it
holds are at most 16 of 64 KiB; the flood is far larger)."""


def _bot(name: str, *args: object) -> str:
    return "stdio:" + " ".join([sys.executable, str(BOTS / f"{name}.py"), *map(str, args)])


def _rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _log(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@pytest.fixture()
def http_slow(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """The slow bot serving HTTP (``request.param``: its seconds per answer)."""
    process = subprocess.Popen(
        [sys.executable, str(BOTS / "slow.py"), str(request.param), str(tmp_path / "log"),
         "--http"], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    try:
        yield process.stdout.readline().strip()
    finally:
        process.terminate()
        process.wait(10)


def _slow(transport: str, seconds: float, tmp_path: Path, http_url: str | None) -> str:
    return http_url if transport == "http" and http_url else _bot("slow", seconds,
                                                                  tmp_path / "log")


def test_a_stale_flood_is_timed_out_on_every_turn_and_memory_stays_flat():
    run_match([*LOCALS, "absent"], hands=1, seed=SEED)  # the local agents are loaded
    peak, stop = [_rss_mb()], threading.Event()

    def sample() -> None:
        while not stop.wait(0.05):
            peak.append(_rss_mb())

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    started = time.monotonic()
    try:
        result = run_match([*LOCALS, _bot("flood")], hands=3, seed=SEED, time_limit=1.0)
    finally:
        stop.set()
        sampler.join()
    wall = time.monotonic() - started
    asked = result.decisions[2]
    assert result.hands_played == 3 and asked >= 3
    # The first request is answered; every later one is lost under the flood.
    assert result.faults[2] == {"timeout": asked - 1, "garbage": 0, "illegal": 0, "gone": 0}
    assert result.timeouts[2] == {"decision": asked - 1, "hand": 0, "match": 0}
    assert result.stale[2] > 100
    # Each timeout takes its limit, not more (the local agents' turns take little).
    assert wall < (asked - 1) * 1.0 + 15, wall
    assert max(peak) - peak[0] < RSS_BOUND_MB, (peak[0], max(peak))


@pytest.mark.parametrize("http_slow", [0.3], indirect=True)
@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_the_hand_clock_ends_a_slow_bots_turns_in_each_hand(transport, tmp_path, http_slow):
    # 0.3 s an answer and 0.75 s a hand: two answers fit, the third has the 0.15 s left
    # of the hand and times out; a turn after that in the same hand is missed unasked,
    # and the next hand's clock starts full again.
    bot = _slow(transport, 0.3, tmp_path, http_slow)
    result = run_match([*LOCALS, bot], hands=4, seed=SEED, time_limit=1.0, hand_time=0.75)
    log = _log(tmp_path / "log")
    by_hand: dict[int, list[dict]] = {}
    for entry in log:
        by_hand.setdefault(entry["hand"], []).append(entry["clock"])
    # (A stdio bot reads a request only once it has answered the one before, even late:
    # that wait is on its clock too, so the numbers are bounds, not exact.)
    for clocks in by_hand.values():
        assert clocks[0] == {"limit": 0.75, "hand_left": 0.75}  # wound at every hand
        for before, after in pairwise(clocks):
            assert after["limit"] == after["hand_left"] <= before["hand_left"]
        # An answer that cannot fit (the bot takes 0.3 s) ends the bot's hand clock.
        assert all(clock["limit"] >= 0.3 for clock in clocks[:-1])
    late = sum(clock["limit"] < 0.3 for clocks in by_hand.values() for clock in clocks)
    missed = [miss["detail"] for miss in result.missed if miss["seat"] == 2]
    run_out = missed.count("its hand time has run out")
    assert late >= 1
    # Each turn asked and not answered timed out on its clock; which requests the bot's log
    # shows under 0.3 s can differ by one from the table's count under load (a stdio bot
    # reads a request only after answering the one before), so the count is not compared.
    asked_and_missed = [detail for detail in missed if detail != "its hand time has run out"]
    assert asked_and_missed
    assert all(detail.startswith("no answer within") for detail in asked_and_missed), missed
    assert result.timeouts[2] == {"decision": 0, "hand": len(missed), "match": 0}
    assert result.faults[2]["timeout"] == len(missed)
    assert len(log) + run_out == result.decisions[2]
    assert result.hand_time == 0.75 and "hand time 0.75 s" in result.table()


@pytest.mark.parametrize("http_slow", [0.3], indirect=True)
@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_the_match_clock_ends_a_slow_bots_turns_for_the_rest_of_the_match(
        transport, tmp_path, http_slow):
    # 0.3 s an answer and 0.8 s for the match: two answers are charged 0.6 s (a stdio
    # bot's first answer, which waits for the program to start, is not charged), the
    # next one has 0.2 s and times out, and every later turn is missed unasked.
    bot = _slow(transport, 0.3, tmp_path, http_slow)
    started = time.monotonic()
    result = run_match([*LOCALS, bot], hands=5, seed=SEED, time_limit=1.0, match_time=0.8)
    wall = time.monotonic() - started
    log = _log(tmp_path / "log")
    charged = 2 + (transport == "stdio")
    assert len(log) == charged + 1
    assert log[-1]["clock"]["limit"] == log[-1]["clock"]["match_left"] < 0.3
    asked_after = result.decisions[2] - len(log)
    assert asked_after > 0, "the match ended before the bank ran out"
    assert result.timeouts[2] == {"decision": 0, "hand": 0, "match": 1 + asked_after}
    assert [miss["detail"] for miss in result.missed if miss["seat"] == 2][1:] == [
        "its match time has run out"] * asked_after
    assert wall < 0.3 * charged + 15


@pytest.mark.parametrize("http_slow", [0.05], indirect=True)
@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_the_clock_arrives_in_every_request_and_counts_down(transport, tmp_path, http_slow):
    bot = _slow(transport, 0.05, tmp_path, http_slow)
    run_match([*LOCALS, bot], hands=3, seed=SEED, time_limit=2.0, hand_time=5.0,
              match_time=30.0)
    log = _log(tmp_path / "log")
    assert len(log) >= 4
    clocks = [entry["clock"] for entry in log]
    assert all(set(clock) == {"limit", "hand_left", "match_left"} for clock in clocks)
    assert all(clock["limit"] == min(2.0, clock["hand_left"], clock["match_left"])
               for clock in clocks)
    lefts = [clock["match_left"] for clock in clocks]
    start = 1 if transport == "stdio" else 0  # the first answer is not charged
    assert lefts[0] == 30.0
    assert all(a > b for a, b in pairwise(lefts[start:]))
    for before, after in pairwise(log):
        if before["hand"] == after["hand"]:
            assert after["clock"]["hand_left"] <= before["clock"]["hand_left"]
        else:
            assert after["clock"]["hand_left"] == 5.0


def test_without_send_clock_the_request_has_no_clock(tmp_path):
    run_match([*LOCALS, _bot("slow", 0, tmp_path / "log")], hands=1, seed=SEED,
              send_clock=False)
    log = _log(tmp_path / "log")
    assert log and all(entry["clock"] is None for entry in log)


def test_hello_over_stdio_and_http():
    bot = ProcessBot(f"{sys.executable} -m teenpatti_env serve --stdio --agent equity")
    try:
        assert bot.hello(5.0) == {"protocols": ["teenpatti-bot/1"], "agent": "equity",
                                  "clock": True}
    finally:
        bot.close()
    from tests.builders.server import running_server
    with running_server("hard") as server:
        assert HttpBot(server.url).hello(5.0) == {"protocols": ["teenpatti-bot/1"],
                                                   "agent": "hard", "clock": True}


@pytest.mark.parametrize("clocks", [(0, None, None), (1, 0, None), (1, None, -1.0),
                                    (1, float("nan"), None), (1, None, True)])
def test_bad_clocks_are_refused_before_any_bot_starts(clocks):
    limit, hand, match = clocks
    with pytest.raises(ValueError, match="positive number of seconds"):
        run_match([*LOCALS, "stdio:no-such-program"], hands=1, time_limit=limit,
                  hand_time=hand, match_time=match)
    with pytest.raises(ValueError):
        BotClock(limit, hand, match)
