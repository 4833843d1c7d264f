"""The frontends' default bot (issue 28): ``serve`` and ``match`` seat
``pretrained:general`` (a family with a member for classic at 3 to 7 seats), and a table
it cannot play (a variant it has no member for, a selection phase, dealer's choice) gets
``equity`` with a one-line notice, never a failed start."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from agents.defaults import DEFAULT_AGENT, FALLBACK_AGENT, fitting_agent
from interfaces.match import run_match
from interfaces.service import BotService
from teenpatti_env.environment.aec import raw_env
from teenpatti_env.protocol import make_request, parse_response
from teenpatti_env.rules import Rules

HOME = Rules.preset("classic")
"""A table the shipped family has a member for: four seats of classic."""
HOMES = [HOME.replace(num_players=n) for n in (3, 4, 5, 6, 7)]
AWAY = [
    Rules.preset("classic", variant="all_open", num_players=6),
    Rules.preset("classic", variant="shopping", num_players=5),
    HOME.replace(num_players=5, dealers_choice=("all_open", "discard_one")),
]
"""Tables the shipped family has no member for: two variants at a seat count without
their member, and a dealer's choice of variants without members at five seats."""


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "teenpatti_env", *args], input=stdin,
                          text=True, capture_output=True, timeout=300)


@pytest.mark.parametrize("rules", HOMES, ids=repr)
def test_the_default_policy_keeps_every_classic_table(rules):
    assert fitting_agent(DEFAULT_AGENT, rules) == (DEFAULT_AGENT, None)
    assert fitting_agent("hard", AWAY[0]) == ("hard", None)  # scripted agents sit anywhere


def test_the_default_policy_sits_at_a_dealers_choice_with_a_member_for_one_variant():
    rules = HOME.replace(dealers_choice=("discard_one", "muflis"))
    assert fitting_agent(DEFAULT_AGENT, rules) == (DEFAULT_AGENT, None)


def test_an_unknown_agent_is_an_error_not_a_seat_for_equity():
    with pytest.raises(ValueError, match="nonesuch"):
        fitting_agent("nonesuch", HOME)


@pytest.mark.parametrize("rules", AWAY, ids=repr)
def test_a_table_the_policy_cannot_play_gets_equity_with_a_one_line_notice(rules):
    spec, notice = fitting_agent(DEFAULT_AGENT, rules)
    assert spec == FALLBACK_AGENT == "equity"
    assert notice is not None and "\n" not in notice
    assert DEFAULT_AGENT in notice and notice.endswith("equity plays in its place")


def _request(rules: Rules, seed: int = 1) -> dict:
    env = raw_env(rules=rules)
    env.reset(seed=seed)
    return make_request(env.view(env.agent_selection), id=7, table="t", hand=0)


@pytest.mark.parametrize("rules", AWAY, ids=repr)
def test_serve_answers_a_table_the_policy_cannot_play_as_equity_with_a_notice(rules):
    request = json.dumps(_request(rules))
    status, answer = BotService(DEFAULT_AGENT).answer(request)
    assert status == 200 and "equity plays in its place" in answer["notice"]
    assert parse_response(answer, id=7)  # a protocol answer, notice and all
    _, by_equity = BotService("equity").answer(request)
    assert answer["action"] == by_equity["action"]
    status, refusal = BotService(DEFAULT_AGENT, fallback=None).answer(request)
    assert status == 400 and refusal["error"]["code"] == "invalid_view"


def test_serve_at_the_policys_own_table_answers_with_the_policy_and_no_notice():
    request = json.dumps(_request(HOME))
    status, answer = BotService(DEFAULT_AGENT).answer(request)
    assert status == 200 and "notice" not in answer
    assert answer == BotService(DEFAULT_AGENT, fallback=None).answer(request)[1]


def test_cli_serve_stdio_falls_back_unless_told_not_to():
    line = json.dumps(_request(AWAY[1])) + "\n"
    done = _cli("serve", "--stdio", stdin=line)
    assert done.returncode == 0, done.stderr
    notice = json.loads(done.stdout)["notice"]
    assert notice.startswith(f"{DEFAULT_AGENT} has no member") and "equity plays" in notice
    done = _cli("serve", "--stdio", "--fallback", "none", stdin=line)
    assert json.loads(done.stdout)["error"]["code"] == "invalid_view"


def test_run_match_gives_a_seat_the_policy_cannot_take_to_equity():
    result = run_match(["hard", DEFAULT_AGENT, "medium", DEFAULT_AGENT, "easy"], hands=2,
                       rules=Rules.preset("classic", variant="colour_jokers", num_players=5))
    assert result.players == ["hard", "equity", "medium", "equity", "easy"]
    assert len(result.notices) == 1 and result.notices[0].startswith("seats 1, 3: ")
    assert result.table().splitlines()[0] == result.notices[0]
    at_home = run_match(["hard", DEFAULT_AGENT, "medium", "easy"], hands=2)
    assert at_home.players[1] == DEFAULT_AGENT and not at_home.notices


@pytest.mark.parametrize(("args", "seats", "moved"), [
    ([], [DEFAULT_AGENT] * 4, False),
    (["--agents", "hard", "--players", "5"], ["hard"] + [DEFAULT_AGENT] * 4, False),
    (["--agents", "hard,medium", "--variant", "all_open", "--players", "5"],
     ["hard", "medium", "equity", "equity", "equity"], True),
    (["--agents", "hard,medium,easy"], ["hard", "medium", "easy"], False),
])
def test_cli_match_seats_the_default_bot_and_always_starts(args, seats, moved):
    done = _cli("match", "--hands", "1", *args)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    notices = [line for line in lines if line.endswith("equity plays in its place")]
    assert len(notices) == int(moved)
    rows = lines[len(notices) + 2:]
    assert [row.split()[1] for row in rows] == seats


def test_cli_match_more_players_than_seats_is_one_line():
    done = _cli("match", "--agents", "hard,easy,medium,auto", "--players", "3")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "4 players named for 3 seats" in done.stderr
