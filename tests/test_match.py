"""``teenpatti match``: local agents and remote bots at one table, with a turn timer.

A bot that answers too late, answers garbage or answers with an illegal action misses
its turn, which is played as VARIANTS.md C4 says (pack, refuse a sideshow, continue a
vote). So a match against such a bot must end exactly as the same match against a seat
that misses every turn (``absent``), deal for deal and chip for chip.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from interfaces.match import run_match
from interfaces.remote import HttpBot, ProcessBot, connect
from interfaces.server import make_server
from interfaces.service import BotService
from teenpatti_env.protocol import PROTOCOL
from teenpatti_env.rules import Rules

LOCALS = ["equity", "hard", "medium"]
HANDS = 6
SEED = 3
LIMIT = 0.25
"""The sleeping bot's limit (it answers after three times as long)."""
ANSWER_LIMIT = 5.0
"""The limit of bots that answer at once: generous, so a loaded machine never turns their
answer into a timeout."""


def _outcome(result):
    return result.hands_played, result.stacks, result.net, result.decisions


@pytest.fixture(scope="module")
def absent():
    """The reference: the fourth seat misses every turn."""
    result = run_match([*LOCALS, "absent"], hands=HANDS, seed=SEED, time_limit=LIMIT)
    assert result.faults[3]["timeout"] == result.decisions[3] > 0
    assert sum(result.net) == 0
    return result


class _SleepyHandler(BaseHTTPRequestHandler):
    """Answers every request correctly, but only after sleeping past the time limit."""

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        time.sleep(LIMIT * 3)
        status, answer = BotService("equity").answer(body)
        data = json.dumps(answer).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except OSError:
            pass  # the table stopped waiting

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def sleepy_url():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _SleepyHandler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(body))
    return f"stdio:{sys.executable} {path}"


def test_a_bot_that_sleeps_past_its_limit_misses_every_turn(absent, sleepy_url):
    result = run_match([*LOCALS, sleepy_url], hands=HANDS, seed=SEED, time_limit=LIMIT)
    assert _outcome(result) == _outcome(absent)
    assert result.faults[3] == {"timeout": result.decisions[3], "garbage": 0, "illegal": 0,
                                "gone": 0}
    assert all(miss["played"] in ("pack", "refuse", "continue") for miss in result.missed)


@pytest.mark.parametrize("answer", [
    '"hello"',
    "not json at all",
    json.dumps({"protocol": PROTOCOL, "action": {"type": "dance"}}),
    json.dumps({"protocol": "teenpatti-bot/0", "action": {"type": "pack"}}),
    json.dumps({"protocol": PROTOCOL, "action": {"type": "pack"}, "id": "someone else"}),
    json.dumps({"protocol": PROTOCOL, "action": {"type": "pack"}, "extra": 1}),
])
def test_a_bot_that_answers_garbage_misses_every_turn(absent, tmp_path, answer):
    command = _script(tmp_path, "garbage", f"""
        import sys
        for line in sys.stdin:
            print({answer!r}, flush=True)
    """)
    result = run_match([*LOCALS, command], hands=HANDS, seed=SEED, time_limit=ANSWER_LIMIT)
    assert _outcome(result) == _outcome(absent)
    assert result.faults[3]["garbage"] == result.decisions[3]
    assert sum(result.faults[3].values()) == result.decisions[3]


def test_a_bot_that_answers_illegally_misses_every_turn(absent, tmp_path):
    # A well-formed answer to the right request, but a bet no table allows.
    command = _script(tmp_path, "illegal", """
        import json, sys
        for line in sys.stdin:
            request = json.loads(line)
            print(json.dumps({"protocol": request["protocol"], "id": request["id"],
                              "action": {"type": "bet", "amount": 1000000}}), flush=True)
    """)
    result = run_match([*LOCALS, command], hands=HANDS, seed=SEED, time_limit=ANSWER_LIMIT)
    assert _outcome(result) == _outcome(absent)
    assert result.faults[3]["illegal"] == result.decisions[3]
    assert all("1000000" in miss["detail"] for miss in result.missed)


def test_an_illegal_answer_is_judged_by_the_rules_not_by_its_shape(absent, tmp_path):
    # show is a real action, but not while more than two seats are in (and never blind
    # at the first turn): only the turns where it is legal are played as show.
    command = _script(tmp_path, "shower", """
        import json, sys
        for line in sys.stdin:
            request = json.loads(line)
            print(json.dumps({"protocol": request["protocol"], "id": request["id"],
                              "action": {"type": "show"}}), flush=True)
    """)
    result = run_match([*LOCALS, command], hands=HANDS, seed=SEED, time_limit=ANSWER_LIMIT)
    assert result.faults[3]["illegal"] > 0
    assert sum(result.net) == 0


def test_a_bot_that_dies_misses_its_turns_and_the_match_goes_on(absent, tmp_path):
    command = _script(tmp_path, "dies", "import sys; sys.stdin.readline()")
    result = run_match([*LOCALS, command], hands=HANDS, seed=SEED, time_limit=ANSWER_LIMIT)
    assert _outcome(result) == _outcome(absent)
    assert result.faults[3]["gone"] + result.faults[3]["timeout"] == result.decisions[3]
    assert result.faults[3]["gone"] >= result.decisions[3] - 1


def test_a_late_answer_is_not_taken_for_the_next_one(tmp_path):
    # Every third request is answered 1.5 limits late: the late answer arrives half a
    # limit into the wait for the next request's answer (which follows at once) and must
    # be skipped, not taken for it.
    command = _script(tmp_path, "late", """
        import json, sys, time
        for count, line in enumerate(sys.stdin, 1):
            request = json.loads(line)
            legal = request["view"]["legal"]
            pick = next((a for a in legal if a["type"] == "look"), None) or next(
                (a for a in legal if a["type"] == "bet"), legal[0])
            action = {"type": pick["type"]}
            if "min" in pick:
                action["amount"] = pick["min"]
            if "cards" in pick:
                action = {"type": "pack"}
            if count % 3 == 0:
                time.sleep(1.5)
            print(json.dumps({"protocol": request["protocol"], "id": request["id"],
                              "action": action}), flush=True)
    """)
    result = run_match([*LOCALS, command], hands=4, seed=SEED, time_limit=1.0)
    asked = result.decisions[3]
    assert asked >= 3
    assert result.faults[3] == {"timeout": asked // 3, "garbage": 0, "illegal": 0, "gone": 0}


def test_a_served_bot_plays_as_the_same_agent_at_the_table(tmp_path):
    server = make_server(BotService("equity"), port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        local = run_match(["hard", "medium", "equity", "auto"], hands=12, seed=5)
        over_http = run_match(["hard", "medium", server.url, "auto"], hands=12, seed=5)
        over_stdio = run_match(
            ["hard", "medium", f"stdio:{sys.executable} -m teenpatti_env serve --stdio "
             "--agent equity", "auto"], hands=12, seed=5)
    finally:
        server.shutdown()
        server.server_close()
    for remote in (over_http, over_stdio):
        assert _outcome(remote) == _outcome(local)
        assert sum(remote.faults[2].values()) == 0


def test_a_match_mixes_any_number_of_remote_bots_and_votes(tmp_path):
    rules = Rules.preset("classic").replace(vote_to_end=True)
    result = run_match(["equity", f"stdio:{sys.executable} -m teenpatti_env serve "
                        "--stdio --agent hard", "absent"], rules, hands=5, seed=1)
    assert result.hands_played == 5 and sum(result.net) == 0
    # The absent seat's missed votes are "continue", so the session runs to its limit.
    assert any(miss["played"] == "continue" for miss in result.missed)
    assert sum(result.faults[1].values()) == 0


def test_connect_names_the_transport():
    assert isinstance(connect("http://127.0.0.1:1"), HttpBot)
    assert connect("http://127.0.0.1:1").url == "http://127.0.0.1:1/v1/act"
    assert connect("http://127.0.0.1:1/bots/a").url == "http://127.0.0.1:1/bots/a"
    with pytest.raises(ValueError, match="needs a command"):
        ProcessBot("")
    with pytest.raises(ValueError, match="cannot start"):
        ProcessBot("/no/such/program")


def test_run_match_rejects_bad_settings():
    with pytest.raises(ValueError, match="num_players"):
        run_match(["equity", "hard"])
    with pytest.raises(ValueError, match="time_limit"):
        run_match(["equity", "hard", "auto"], time_limit=0)
    with pytest.raises(ValueError, match="unknown agent"):
        run_match(["equity", "nobody", "auto"])


def _cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "teenpatti_env", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_cli_match_prints_the_table_and_writes_json(tmp_path):
    out = tmp_path / "match"
    done = _cli("match", "--agents", "equity,hard,absent", "--hands", "3", "--seed", "2",
                "--time-limit", "0.5", "--out", str(out))
    assert done.returncode == 0, done.stderr
    saved = json.loads((out / "result.json").read_text())
    assert saved["hands_played"] == 3 and sum(saved["net"]) == 0
    assert saved["faults"][2]["timeout"] == saved["decisions"][2]
    assert "absent" in done.stdout and "timeout" in done.stdout


@pytest.mark.parametrize("args, message", [
    (["--agents", "equity,nobody,auto"], "unknown agent"),
    (["--agents", "equity,hard", "--players", "2"], "3..7"),
    (["--agents", "equity,hard,auto", "--time-limit", "0"], "seconds"),
    (["--agents", "equity,hard,auto", "--variant", "nope"], "variant"),
    (["--agents", "equity,hard,stdio:"], "needs a command"),
])
def test_cli_match_bad_input_is_one_line(args, message):
    done = _cli("match", *args)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert message in done.stderr and len(done.stderr.strip().splitlines()) <= 2
