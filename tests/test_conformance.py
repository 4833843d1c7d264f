"""``teenpatti conformance``: the battery covers every decision, the package's own bots
pass it over stdio and HTTP, and bots that misbehave on one kind of decision fail exactly
those cases."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from interfaces.conformance import run_conformance
from interfaces.conformance_cases import Case, all_cases, check_answer
from interfaces.server import make_server
from interfaces.service import BotService
from teenpatti_env.errors import IllegalActionError
from teenpatti_env.protocol import ProtocolError, parse_request
from teenpatti_env.rules.variants import VARIANTS

SERVE = f"stdio:{sys.executable} -m teenpatti_env serve --stdio --agent"


@cache
def battery() -> tuple[Case, ...]:
    return tuple(all_cases())


def _names() -> set[str]:
    return {case.name for case in battery()}


def test_every_variant_is_asked_at_three_and_seven_seats():
    tables = {case.table for case in battery()}
    for variant in VARIANTS:
        for seats in (3, 7):
            assert f"{variant}-{seats}" in tables
    assert {"dealers_choice-3", "dealers_choice-7", "classic-4", "classic-3+vote"} <= tables


def test_every_kind_of_decision_is_asked():
    offered = {action["type"] for case in battery() if case.expect == "action"
               for action in case.request["view"]["legal"]}
    kinds = {"pack", "look", "bet", "show", "sideshow", "accept", "refuse", "all_in",
             "discard", "draw", "keep", "pass", "buy_joker", "choose_variant", "vote_end",
             "continue"}
    assert kinds <= offered
    for seats in (3, 4, 7):
        for situation in ("blind_bet", "chaal", "show", "sideshow_ask", "sideshow_answer",
                          "blind_limit", "all_in"):
            assert f"classic-{seats}/{situation}" in _names()
    for name in ("discard_one-3/discard", "shopping-7/draw_or_keep", "shopping-3/discard_drawn",
                 "passing_cards-7/pass", "buy_a_joker-3/buy_joker",
                 "dealers_choice-7/choose_variant", "classic-7+vote/vote"):
        assert name in _names()


def test_the_situations_are_what_they_are_named():
    cases = {c.name: c.request["view"] for c in battery() if c.expect == "action"}
    limit = cases["classic-7/blind_limit"]
    me = limit["seats"][limit["seat"]]
    assert not limit["seen"] and me["blind_bets"] == limit["rules"]["max_blind_bets"]
    assert "bet" not in {a["type"] for a in limit["legal"]}  # at the limit: look or pack
    answer = cases["classic-3/sideshow_answer"]
    assert answer["sideshow"]["target"] == answer["seat"]
    show = cases["classic-7/show"]
    assert sum(s["dealt_in"] and not s["packed"] for s in show["seats"]) == 2


def test_every_decision_case_is_a_valid_request_and_every_bad_one_is_refused_as_named():
    for case in battery():
        text = json.dumps(case.request)
        if case.expect == "action":
            request = parse_request(text)
            assert request.view == case.request["view"]
        else:
            with pytest.raises(ProtocolError) as refused:
                parse_request(text)
            assert refused.value.code == case.code, case.name


def test_an_answer_is_judged_by_the_hand_it_came_from():
    cases = {case.name: case for case in battery()}
    answer = cases["classic-3/sideshow_answer"]
    check_answer(answer, {"type": "refuse"})
    with pytest.raises(IllegalActionError):
        check_answer(answer, {"type": "look"} if answer.request["view"]["seen"]
                     else {"type": "show"})
    vote = cases["classic-4+vote/vote"]
    check_answer(vote, {"type": "vote_end"})
    with pytest.raises(IllegalActionError):
        check_answer(vote, {"type": "pack"})


@pytest.mark.parametrize("agent", ["random", "auto", "easy", "medium", "hard", "equity"])
def test_every_scripted_agent_served_over_stdio_passes(agent):
    report = run_conformance(f"{SERVE} {agent}", time_limit=5, cases=battery())
    assert report.passed, report.table()
    assert not report.unsupported_tables


def test_the_shipped_policy_passes_at_every_table_with_its_fallback():
    report = run_conformance(f"{SERVE} pretrained:classic", time_limit=5, cases=battery())
    assert report.passed, report.table()
    assert not report.unsupported_tables


def test_the_shipped_policy_without_fallback_passes_and_names_the_tables_it_does_not_play():
    report = run_conformance(f"{SERVE} pretrained:classic --fallback none", time_limit=5,
                             cases=battery())
    assert report.passed, report.table()
    assert "classic-4" not in report.unsupported_tables
    assert {"classic-3", "classic-7", "muflis-3", "classic-4+vote"} <= set(
        report.unsupported_tables)
    outcome = next(o for o in report.outcomes if o.case == "classic-3/blind_bet")
    assert outcome.status == "unsupported" and "cannot play" in outcome.detail


@pytest.fixture
def http_bot() -> Iterator[str]:
    server = make_server(BotService("hard"), port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.url
    finally:
        server.shutdown()
        server.server_close()


def test_a_bot_served_over_http_passes(http_bot):
    report = run_conformance(http_bot, time_limit=5, cases=battery())
    assert report.passed, report.table()
    assert json.loads(json.dumps(report.to_dict()))["passed"] is True


MISBEHAVING = textwrap.dedent("""
    import json, sys, time
    from interfaces.service import BotService
    mode, service = sys.argv[1], BotService("random")
    for line in sys.stdin:
        status, answer = service.answer(line)
        request = json.loads(line) if "view" in line else {}
        legal = {a["type"] for a in request.get("view", {}).get("legal", [])}
        if "accept" in legal or mode == "refuse_all":
            if mode == "illegal":
                answer["action"] = {"type": "bet", "amount": 10 ** 6}
            elif mode == "late":
                time.sleep(2.6)
            elif mode == "other_id":
                answer["id"] = answer["id"] + 10000
            elif mode == "garbage":
                answer = "not an answer"
            elif mode == "silent":
                continue
            elif mode in ("refuse", "refuse_all"):
                answer = {"protocol": "teenpatti-bot/1", "id": request.get("id"),
                          "error": {"code": "invalid_view", "message": "no sideshows here"}}
        print(answer if isinstance(answer, str) else json.dumps(answer), flush=True)
""")

SIDESHOW_ANSWERS = {"classic-3/sideshow_answer", "classic-4/sideshow_answer",
                    "classic-7/sideshow_answer"}


def _few_cases() -> list[Case]:
    """The sideshow answers, what comes after them and some bad requests (enough to see
    that only the misbehaving cases fail)."""
    return [c for c in battery() if c.table.startswith("classic-") or c.name.startswith("bad/")]


@pytest.mark.parametrize(("mode", "answer"), [
    ("illegal", "bet 1000000"), ("late", "timeout"), ("other_id", "garbage"),
    ("garbage", "garbage"), ("silent", "timeout"), ("refuse", "error invalid_view"),
])
def test_a_bot_misbehaving_on_one_kind_of_decision_fails_exactly_those_cases(
        tmp_path: Path, mode, answer):
    script = tmp_path / "bot.py"
    script.write_text(MISBEHAVING)
    limit = 2.0 if mode == "late" else 0.7
    report = run_conformance(f"stdio:{sys.executable} {script} {mode}", time_limit=limit,
                             cases=_few_cases())
    assert not report.passed
    assert {o.case for o in report.failures} == SIDESHOW_ANSWERS, report.table()
    assert {o.answer for o in report.failures} == {answer}
    assert all(name in report.table() for name in SIDESHOW_ANSWERS)


def test_a_bot_that_refuses_every_decision_plays_no_table_and_fails(tmp_path: Path):
    script = tmp_path / "bot.py"
    script.write_text(MISBEHAVING)
    cases = [c for c in battery() if c.table == "classic-3"]
    report = run_conformance(f"stdio:{sys.executable} {script} refuse_all", time_limit=2,
                             cases=cases)
    assert not report.passed and not report.failures
    assert report.unsupported_tables == ["classic-3"]
    assert "plays no table" in report.summary()


def test_a_bot_that_plays_a_bad_request_fails_it(tmp_path: Path):
    script = tmp_path / "bot.py"
    script.write_text(textwrap.dedent("""
        import json, sys
        for line in sys.stdin:
            ident = json.loads(line).get("id")
            print(json.dumps({"protocol": "teenpatti-bot/1", "id": ident,
                              "action": {"type": "pack"}}), flush=True)
    """))
    bad = [c for c in battery() if c.name in ("bad/pot_not_paid", "bad/other_protocol")]
    report = run_conformance(f"stdio:{sys.executable} {script}", time_limit=2, cases=bad)
    assert [o.case for o in report.failures] == [c.name for c in bad]
    assert all("should refuse" in o.detail for o in report.failures)


def test_a_misbehaving_http_bot_fails_the_case_it_gets_wrong():
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    service = BotService("random")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            status, answer = service.answer(body)
            if '"accept"' in body.decode():
                answer["action"] = {"type": "bet", "amount": 10 ** 6}
            data = json.dumps(answer).encode()
            self.send_response(status)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        report = run_conformance(f"http://127.0.0.1:{server.server_port}", time_limit=2,
                                 cases=_few_cases())
    finally:
        server.shutdown()
        server.server_close()
    assert {o.case for o in report.failures} == SIDESHOW_ANSWERS, report.table()
    assert all("illegal" in o.detail for o in report.failures)


def test_the_command_prints_the_table_or_json_and_exits_by_the_verdict(tmp_path: Path):
    command = [sys.executable, "-m", "teenpatti_env", "conformance"]
    good = subprocess.run([*command, f"{SERVE} hard", "--json"], capture_output=True,
                          text=True, timeout=300)
    assert good.returncode == 0, good.stderr
    report = json.loads(good.stdout)
    assert report["passed"] and len(report["cases"]) == len(battery())
    script = tmp_path / "bot.py"
    script.write_text(MISBEHAVING)
    bad = subprocess.run([*command, f"stdio:{sys.executable} {script} illegal",
                          "--time-limit", "2"], capture_output=True, text=True, timeout=300)
    assert bad.returncode == 1
    assert "classic-7/sideshow_answer" in bad.stdout and "FAILED" in bad.stdout
    wrong = subprocess.run([*command, "hard"], capture_output=True, text=True, timeout=60)
    assert wrong.returncode == 2 and "stdio:COMMAND" in wrong.stderr
