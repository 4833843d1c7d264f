"""Remote bots in ``teenpatti arena``: a served agent, over HTTP or stdio, plays through the
same duplicate dealing and gives the same report as the agent in-process; a bot that
misses its turns has them played as missed and counted per kind; the arena's folder holds
the transcript and every hand's history."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from agents import Agent, make_agent
from agents.arena import run_arena
from agents.base import LegalMoves
from agents.loop import MISSED_TURNS
from interfaces.players import ArenaSeats
from teenpatti_env.engine import Hand
from teenpatti_env.engine.history import replay

HANDS = 32
"""Hands of each arena: eight deals of four seatings, a few seconds with a served bot."""
SEED = 5
LIMIT = 20.0
"""Generous, so that a loaded machine never turns an answer into a timeout."""
HARD_STDIO = f"stdio:{sys.executable} -m teenpatti_env serve --stdio --agent hard"


def _cli(*args: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "teenpatti_env", *args], text=True,
                          capture_output=True, timeout=300, **kwargs)


@pytest.fixture(scope="module")
def served_hard() -> Iterator[str]:
    """``teenpatti serve --agent hard`` on a free port of 127.0.0.1: its URL."""
    process = subprocess.Popen(
        [sys.executable, "-m", "teenpatti_env", "serve", "--agent", "hard", "--port", "0"],
        stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    try:
        line = process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:[0-9]+", line)
        assert found, line
        yield found.group(0)
    finally:
        process.terminate()
        process.wait(30)


def _numbers(report: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """A report's JSON with the agents' names mapped by ``names`` (the served bot's spec to
    its in-process name) and the missed turns and remote list left out: the numbers."""
    text = json.dumps(report)
    for old, new in names.items():
        text = text.replace(json.dumps(old)[1:-1], new)
    numbers = json.loads(text)
    numbers.pop("remote")
    for result in numbers["results"].values():
        result.pop("missed_turns")
    return numbers


@pytest.fixture(scope="module")
def in_process() -> dict[str, Any]:
    return run_arena(["hard", "equity"], hands=HANDS, seed=SEED, engine="per_table").to_dict()


def test_a_served_hard_over_http_gives_the_report_of_hard_in_process(
        served_hard, in_process, tmp_path):
    out = tmp_path / "arena"
    done = _cli("arena", "--agents", f"{served_hard},equity", "--hands", str(HANDS),
                "--seed", str(SEED), "--time-limit", str(LIMIT), "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    report = json.loads((out / "arena.json").read_text())
    assert report["remote"] == [served_hard]
    assert report["results"][served_hard]["missed_turns"] == dict.fromkeys(MISSED_TURNS, 0)
    assert _numbers(report, {served_hard: "hard"}) == _numbers(in_process, {})
    # the text and markdown reports show the missed turns of the remote bot
    for text in (done.stdout, (out / "arena.md").read_text()):
        assert "missed turns" in text and re.search(
            re.escape(served_hard) + r"\s+0\s+0\s+0\s+0", text)
    _check_transcript(out, served_hard, HANDS)
    first = out / "hands" / "hand-0001.json"
    replayed = _cli("replay", str(first))
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["net"] == Hand.from_dict(json.loads(first.read_text())).net


def test_a_served_hard_at_2v2_tables_gives_the_rows_of_hard_in_process(served_hard):
    with ArenaSeats([served_hard, "equity"], LIMIT) as seats:
        remote = run_arena([served_hard, "equity"], hands=16, seed=SEED, table="2v2",
                           seats=seats)
    local = run_arena(["hard", "equity"], hands=16, seed=SEED, table="2v2")
    assert _numbers(remote.rows[0].report.to_dict(), {served_hard: "hard"}) == _numbers(
        local.rows[0].report.to_dict(), {})
    assert remote.rows[0].result == local.rows[0].result


def test_a_served_hard_over_stdio_gives_the_report_of_hard_in_process(in_process, tmp_path):
    (tmp_path / "hands").mkdir()
    (tmp_path / "hands" / f"hand-{HANDS + 1:04d}.json").write_text("{}")  # an earlier run's
    with ArenaSeats([HARD_STDIO, "equity"], LIMIT, tmp_path) as seats:
        report = run_arena([HARD_STDIO, "equity"], hands=HANDS, seed=SEED, seats=seats)
        assert seats.stale() == {HARD_STDIO: 0}
    first = json.loads((tmp_path / "transcript.jsonl").read_text().splitlines()[1])
    assert first["request"]["clock"] == {"limit": LIMIT}
    assert report.config.remote == {HARD_STDIO}
    assert _numbers(report.to_dict(), {HARD_STDIO: "hard"}) == _numbers(in_process, {})
    _check_transcript(tmp_path, HARD_STDIO, report.hands)


@pytest.mark.parametrize("command", ["arena", "match"])
def test_the_clock_is_in_every_request_unless_told_not_to(served_hard, tmp_path, command):
    for flags, clock in (([], {"limit": 3.0}), (["--no-clock"], None)):
        out = tmp_path / f"{command}{len(flags)}"
        done = _cli(command, "--agents", f"{served_hard},equity,hard", "--hands", "3",
                    "--time-limit", "3", "--out", str(out), *flags,
                    *(["--quiet"] if command == "arena" else []))
        assert done.returncode == 0, done.stderr
        lines = [json.loads(line) for line in (out / "transcript.jsonl").read_text().splitlines()]
        requests = [e["request"] for e in lines if e["event"] == "request"]
        assert requests and all(r.get("clock") == clock for r in requests)


def _check_transcript(folder: Path, spec: str, hands: int) -> None:
    """Every request to ``spec`` and its answer with their times, and every hand's history,
    which replays to the net the hand had."""
    lines = [json.loads(line) for line in (folder / "transcript.jsonl").read_text().splitlines()]
    assert lines[0]["event"] == "start" and spec in lines[0]["players"]
    requests = [e for e in lines if e["event"] == "request"]
    answers = [e for e in lines if e["event"] == "answer"]
    assert requests and len(requests) == len(answers)
    for request, answer in zip(requests, answers, strict=True):
        assert request["turn"] == answer["turn"] and "action" in answer
        assert answer["at"] >= request["at"] and 0 <= answer["seconds"] < LIMIT
        assert request["request"]["view"]["seat"] == request["seat"]
    files = sorted((folder / "hands").glob("hand-*.json"))
    assert len(files) == hands == sum(e["event"] == "hand" for e in lines)
    for path in files:
        history = json.loads(path.read_text())
        assert replay(history)["net"] == Hand.from_dict(history).net


class _Packer(Agent):
    """Plays every turn as a missed one is played (VARIANTS.md C4 at a classic table): a
    sideshow asked of it is refused, any other turn packs."""

    name = "packer"

    def act(self, observation: Any, mask: Any, info: Any) -> int:
        return LegalMoves(mask, info).pick("refuse")


class _WithPacker:
    """Local seats, with the ``packer`` among them (for the per-table engine)."""

    remote: frozenset[str] = frozenset()

    def make(self, spec: str, seed: int | None) -> Agent:
        return _Packer(seed) if spec == "packer" else make_agent(spec, seed)

    def hand_done(self, hand: Hand) -> None:
        pass


def _script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(body))
    return f"stdio:{sys.executable} {path}"


GARBAGE = """
    import sys
    for line in sys.stdin:
        print("not json at all", flush=True)
"""
ILLEGAL = """
    import json, sys
    for line in sys.stdin:
        request = json.loads(line)
        print(json.dumps({"protocol": request["protocol"], "id": request["id"],
                          "action": {"type": "bet", "amount": 1000000}}), flush=True)
"""
GONE = """
    import sys
    sys.stdin.readline()
"""


class _Sleepy(BaseHTTPRequestHandler):
    """Takes every request and answers nothing before the table has stopped waiting."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        time.sleep(1.0)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def sleepy_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Sleepy)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize(("kind", "body", "limit"), [
    ("garbage", GARBAGE, LIMIT), ("illegal", ILLEGAL, LIMIT), ("timeout", None, 0.1),
    ("gone", GONE, LIMIT),
])
def test_a_bot_that_misses_its_turns_is_counted_by_kind_and_played_as_missed(
        tmp_path, sleepy_url, kind, body, limit):
    bot = sleepy_url if body is None else _script(tmp_path, kind, body)
    hands = 8
    with ArenaSeats([bot, "equity"], limit, tmp_path / "out") as seats:
        report = run_arena([bot, "equity"], hands=hands, seed=SEED, seats=seats)
    reference = run_arena(["packer", "equity"], hands=hands, seed=SEED, engine="per_table",
                          seats=_WithPacker())
    # every turn of the bot played as missed: the report of a player that always packs
    assert _numbers(report.to_dict(), {bot: "packer"}) == _numbers(reference.to_dict(), {})
    lines = (tmp_path / "out" / "transcript.jsonl").read_text().splitlines()
    asked = sum(json.loads(line)["event"] == "request" for line in lines)
    missed = report.agents[bot].missed
    # a bot that is gone is found so before it is asked again; the rest are asked each turn
    assert missed[kind] >= asked > 0
    assert sum(missed.values()) == missed[kind]
    assert report.to_dict()["results"][bot]["missed_turns"] == missed
    assert re.search(r"missed turns", report.table())


def test_remote_bots_play_per_table_in_one_process(served_hard):
    with ArenaSeats([served_hard, "equity"]) as seats:
        with pytest.raises(ValueError, match="per-table engine"):
            run_arena([served_hard, "equity"], hands=4, engine="batched", seats=seats)
        with pytest.raises(ValueError, match="one process"):
            run_arena([served_hard, "equity"], hands=4, workers=2, seats=seats)
        with pytest.raises(ValueError, match="Ray"):
            run_arena([served_hard, "equity"], hands=4, ray_address="", seats=seats)
        report = run_arena([served_hard, "equity"], hands=4, engine="auto", workers=None,
                           seats=seats)
    assert report.hands == 4


@pytest.mark.parametrize(("args", "message"), [
    (["--engine", "batched"], "per-table engine"),
    (["--workers", "2"], "one process"),
])
def test_cli_arena_with_a_remote_bot_refuses_in_one_line(served_hard, tmp_path, args, message):
    done = _cli("arena", "--agents", f"{served_hard},equity", "--hands", "4", "--quiet",
                "--out", str(tmp_path), *args)
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


def test_cli_arena_with_a_bot_that_cannot_start_is_one_line(tmp_path):
    done = _cli("arena", "--agents", "stdio:/no/such/program,equity", "--hands", "4",
                "--quiet", "--out", str(tmp_path))
    assert done.returncode == 2 and "cannot start" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
