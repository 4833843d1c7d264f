"""The bot server's web games, concurrency and stdio.

* The web table refuses illegal actions without changing the game.
* Many threads at once get exactly their own answers; web games played concurrently end
  with the chips conserved.
* JSON lines over stdio, in-process and through ``teenpatti serve --stdio``."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from typing import Any

import numpy as np
import pytest
from builders.bot_http import (
    CLASSIC,
    ROOT,
    TIMEOUT,
    act,
    assert_healthy,
    call,
    decisions,
    expected_policy_answer,
    game_act,
    game_state,
    new_game,
    random_legal,
    run_threads,
    valid_request,
    without_seat,
)

from agents import make_agent
from interfaces.server import BotServer, serve_stdio
from interfaces.service import BotService
from teenpatti_env import raw_env
from teenpatti_env.protocol import MAX_MESSAGE_BYTES, PROTOCOL, make_request

# --------------------------------------------------------------------------- web games


def test_illegal_actions_leave_a_web_game_unchanged(equity_server: BotServer) -> None:
    status, created = new_game(equity_server, {"bots": ["equity", "random"], "seed": 5,
                                               "hands": 2})
    assert status == 201, created
    game = created["game"]
    state = created["state"]
    assert state == game_state(equity_server, game)
    assert state["players"] == ["you", "equity", "random"] and state["your_turn"]
    legal = {entry["type"]: entry for entry in state["view"]["legal"]}
    bet = legal["bet"]
    illegal = [
        {"type": "bet", "amount": bet["max"] + 1}, {"type": "bet", "amount": bet["min"] - 1},
        {"type": "bet", "amount": 10**9}, {"type": "bet"}, {"type": "bet", "amount": "2"},
        {"type": "sideshow", "amount": 10**6}, {"type": "accept"}, {"type": "fly"}, {},
        {"type": "vote_end"}, {"type": "draw"},
        {"type": "choose_variant", "variant": "ak47"},
    ]
    if "show" not in legal:
        illegal.append({"type": "show"})
    for action in illegal:
        status, answer = game_act(equity_server, game, action)
        assert (status, answer["error"]["code"]) == (400, "illegal_action"), (action, answer)
        assert game_state(equity_server, game) == state, action
    for body in ([], {"action": "pack"}, {"action": {"type": "pack"}, "more": 1}, {},
                 {"move": {"type": "pack"}}, {"action": {"type": "pack", "seat": 1}}):
        status, _, answer = call(equity_server, "POST", f"/v1/games/{game}/act", body)
        assert (status, answer["error"]["code"]) == (400, "invalid_request"), body
    status, _, answer = call(equity_server, "POST", f"/v1/games/{game}/act", b"{nope")
    assert (status, answer["error"]["code"]) == (400, "malformed_json")
    assert game_state(equity_server, game) == state
    # a legal action moves the game on
    status, moved = game_act(equity_server, game, {"type": "bet", "amount": bet["min"]})
    assert status == 200 and moved["state"] != state
    # play to the end; then every action is illegal and changes nothing
    rng = np.random.default_rng(0)
    state = moved["state"]
    while not state["over"]:
        status, moved = game_act(equity_server, game, random_legal(state, rng))
        assert status == 200, moved
        state = moved["state"]
    assert not state["your_turn"] and state["view"]["legal"] == []
    assert sum(state["stacks"]) == 300
    status, answer = game_act(equity_server, game, {"type": "pack"})
    assert (status, answer["error"]["code"]) == (400, "illegal_action")
    assert game_state(equity_server, game) == state
    assert_healthy(equity_server)


@pytest.mark.parametrize("options", [
    [], b'"classic"', b"{", {"bots": []}, {"bots": ["equity"]}, {"bots": ["nobody"]},
    {"bots": "equity"},
    {"bots": ["equity"] * 7}, {"bots": [1]}, {"hands": 0}, {"hands": -1}, {"hands": True},
    {"hands": 1001}, {"hands": 2.5}, {"hands": "3"}, {"seed": -1}, {"seed": "1"},
    {"seed": 2**63}, {"seed": None}, {"preset": "nope"}, {"variant": "nope"},
    {"variant": {"private_cards": 9}}, {"players": 3}, {"bots": ["equity"], "extra": 1},
])
def test_bad_game_options(equity_server: BotServer, options: Any) -> None:
    status, answer = new_game(equity_server, options)
    code = "malformed_json" if options == b"{" else "invalid_request"
    assert (status, answer["error"]["code"]) == (400, code), answer
    assert_healthy(equity_server)


def test_game_options_that_are_fine(equity_server: BotServer) -> None:
    status, created = new_game(equity_server, b"")  # no body: the defaults
    assert status == 201
    assert created["state"]["players"] == ["you", "equity 1", "equity 2", "equity 3"]
    assert created["state"]["max_hands"] == 10
    status, created = new_game(equity_server, {"bots": ["hard"] * 6, "preset": "tabletop",
                                               "variant": "muflis", "hands": 1000, "seed": 0})
    assert status == 201 and len(created["state"]["players"]) == 7
    assert created["state"]["view"]["rules"]["variant"] == "muflis"
    assert game_state(equity_server, created["game"]) == created["state"]


def test_a_game_the_policy_cannot_play_is_refused_or_playable(
    policy_server: BotServer,
) -> None:
    for options in ({"bots": ["pretrained:classic"] * 2, "seed": 0},
                    {"variant": "muflis", "seed": 0}, {"variant": "muflis", "seed": 2}):
        status, created = new_game(policy_server, options)
        if status == 400:
            assert created["error"]["code"] == "invalid_request"
            continue
        assert status == 201
        status, answer = game_act(policy_server, created["game"], {"type": "pack"})
        assert status == 200, answer


# --------------------------------------------------------------------------- concurrency


@pytest.fixture(scope="module")
def mixed_requests() -> list[tuple[dict[str, Any] | bytes, int, Any]]:
    """Valid requests from several tables and seats with the in-process answer, and bad
    ones with their status and error code."""
    valid: list[tuple[dict[str, Any] | bytes, int, Any]] = []
    env = raw_env(rules=CLASSIC)
    local = make_agent("pretrained:classic")
    rng = np.random.default_rng(9)
    for table in range(30):  # enough decisions whatever the shipped policy's style
        env.reset(seed=500 + table)
        for number, (agent, observation, info) in enumerate(decisions(env)):
            index = local.act(observation["observation"], observation["action_mask"], info)
            if number % 2 == 0 and number < 40:
                message = make_request(env.view(agent), table=f"t{table}", hand=0)
                valid.append((message, 200, without_seat(env.action_to_engine(agent, index))))
            # random moves too, so that the views differ more
            if rng.random() < 0.3:
                index = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            env.step(index)
    base = valid[0][0]
    bad: list[tuple[dict[str, Any] | bytes, int, Any]] = [
        (b"{not json", 400, "malformed_json"),
        ({**base, "protocol": "teenpatti-bot/9"}, 400, "unsupported_protocol"),
        ({**base, "extra": True}, 400, "invalid_request"),
        ({**base, "view": {**base["view"], "seat": 6}}, 400, "invalid_view"),
        ({**base, "view": {**base["view"], "legal": []}}, 400, "invalid_request"),
        (b" " * (MAX_MESSAGE_BYTES + 1), 413, "too_large"),
    ]
    assert len(valid) > 60
    return valid + bad


def test_many_threads_get_their_own_answers(
    policy_server: BotServer, mixed_requests: list[tuple[Any, int, Any]]
) -> None:
    threads_count, per_thread = 16, 25
    barrier = threading.Barrier(threads_count)
    failures: list[str] = []
    answered = [0] * threads_count

    def client(number: int) -> None:
        barrier.wait()
        for k in range(per_thread):
            body, status, expected = mixed_requests[(number * 31 + k * 7) % len(mixed_requests)]
            request_id = f"thread{number}-{k}"
            if isinstance(body, dict):
                body = {**body, "id": request_id}
            try:
                got, answer = act(policy_server, body)
            except Exception as error:
                failures.append(f"{request_id}: {error!r}")
                continue
            if got != status:
                failures.append(f"{request_id}: status {got} {answer}")
            elif status == 200 and answer != {"protocol": PROTOCOL, "id": request_id,
                                              "action": expected, "name": answer["name"]}:
                failures.append(f"{request_id}: {answer} != {expected}")
            elif status != 200 and answer["error"]["code"] != expected:
                failures.append(f"{request_id}: {answer}")
            answered[number] += 1

    run_threads(client, [(n,) for n in range(threads_count)])
    assert failures == []
    assert answered == [per_thread] * threads_count
    assert_healthy(policy_server)


def test_concurrent_tables_keep_their_own_memory(equity_server: BotServer) -> None:
    """Six tables played at once through one server, each by its own thread: every answer
    is the one a local ``equity`` agent at that table gives."""
    failures: list[str] = []
    played = [0] * 6

    def table(number: int) -> None:
        try:
            env = raw_env(rules=CLASSIC)
            local = {agent: make_agent("equity") for agent in env.possible_agents}
            for hand in range(5):
                env.reset(seed=2000 + 10 * number + hand)
                for agent in local.values():
                    agent.reset()
                for agent, observation, info in decisions(env):
                    index = local[agent].act(observation["observation"],
                                             observation["action_mask"], info)
                    message = make_request(env.view(agent), id=played[number],
                                           table=f"concurrent-{number}", hand=hand)
                    status, answer = act(equity_server, message)
                    assert status == 200 and answer["id"] == played[number], answer
                    assert answer["action"] == without_seat(env.action_to_engine(agent, index))
                    env.step(index)
                    played[number] += 1
        except Exception as error:
            failures.append(f"table {number}: {error!r}")

    run_threads(table, [(n,) for n in range(6)])
    assert failures == []
    assert all(count > 20 for count in played)


def test_concurrent_web_games_play_to_the_end(policy_server: BotServer) -> None:
    setups = [
        {"bots": ["pretrained:classic"] * 3, "hands": 4},  # the policy's own table
        {"bots": ["equity", "random"], "hands": 5},
        {"bots": ["medium", "hard", "auto"], "hands": 4},
        {"bots": ["random"] * 6, "hands": 3},
        {"bots": ["equity", "easy"], "variant": "shopping", "hands": 3},
        {"bots": ["random", "equity", "random"], "variant": "passing_cards", "hands": 3},
        {"bots": ["random", "random"], "variant": "buy_a_joker", "preset": "pagat", "hands": 3},
        {"bots": ["equity", "random"], "variant": "ak47", "hands": 6},
    ]
    failures: list[str] = []
    finished: list[dict[str, Any]] = []

    def player(number: int, options: dict[str, Any]) -> None:
        try:
            rng = np.random.default_rng(number)
            status, created = new_game(policy_server, {**options, "seed": number})
            assert status == 201, created
            game, state = created["game"], created["state"]
            moves = 0
            while not state["over"]:
                assert state["your_turn"], state
                status, moved = game_act(policy_server, game, random_legal(state, rng))
                assert status == 200 and moved["game"] == game, moved
                state = moved["state"]
                moves += 1
                assert moves < 2000
            assert game_state(policy_server, game) == state
            players = len(options["bots"]) + 1
            assert len(state["stacks"]) == players
            assert sum(state["stacks"]) == players * 100, state["stacks"]
            finished.append(state)
        except Exception as error:
            failures.append(f"game {number} {options}: {error!r}")

    run_threads(player, [(n, o) for n, o in enumerate(setups)])
    assert failures == []
    assert len(finished) == len(setups)
    assert all(state["over"] and not state["your_turn"] for state in finished)
    assert_healthy(policy_server)


# --------------------------------------------------------------------------- stdio


def test_serve_stdio_answers_each_line_in_order() -> None:
    first, second = valid_request(1), valid_request(2)
    first["id"], second["id"] = "a", "b"
    lines = [
        json.dumps(first), "", "   ", "{broken", json.dumps({**first, "protocol": "x"}),
        "x" * (MAX_MESSAGE_BYTES + 1), json.dumps(second), "[1, 2]",
    ]
    out = io.StringIO()
    count = serve_stdio(BotService("pretrained:classic"),
                        io.BytesIO(("\n".join(lines) + "\n").encode()), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert count == len(answers) == 6  # the blank lines are skipped
    assert answers[0] == {"protocol": PROTOCOL, "id": "a",
                          "action": expected_policy_answer(first), "name": answers[0]["name"]}
    assert [a.get("error", {}).get("code") for a in answers] == [
        None, "malformed_json", "unsupported_protocol", "too_large", None, "invalid_request"]
    assert answers[4]["id"] == "b" and answers[4]["action"] == expected_policy_answer(second)
    assert out.getvalue().endswith("\n")


def test_serve_stdio_with_no_input() -> None:
    out = io.StringIO()
    assert serve_stdio(BotService("equity"), io.BytesIO(b""), out) == 0
    assert out.getvalue() == ""


def _cli(*args: str, **kwargs: Any) -> subprocess.Popen[str]:
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    return subprocess.Popen([sys.executable, "-m", "teenpatti_env", *args], cwd=ROOT,
                            env=environment, text=True, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs)


def test_cli_serve_stdio() -> None:
    """``teenpatti serve --stdio --agent equity`` speaks JSON lines and ends with its input;
    each answer comes before the next request is sent."""
    process = _cli("serve", "--stdio", "--agent", "equity")
    assert process.stdin is not None and process.stdout is not None
    try:
        env = raw_env(rules=CLASSIC)
        local = {agent: make_agent("equity") for agent in env.possible_agents}
        env.reset(seed=77)
        count = 0
        for agent, observation, info in decisions(env):
            index = local[agent].act(observation["observation"], observation["action_mask"],
                                     info)
            message = make_request(env.view(agent), id=count, table="cli", hand=1)
            process.stdin.write(json.dumps(message) + "\n")
            process.stdin.flush()
            answer = json.loads(process.stdout.readline())
            assert answer["id"] == count
            assert answer["action"] == without_seat(env.action_to_engine(agent, index))
            env.step_action(answer["action"])
            count += 1
        process.stdin.write("\nnot json\n")
        process.stdin.flush()
        assert json.loads(process.stdout.readline())["error"]["code"] == "malformed_json"
        process.stdin.close()
        assert process.wait(TIMEOUT) == 0
        assert process.stdout.read() == ""
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert count > 0


def test_cli_serve_http() -> None:
    """``teenpatti serve --port 0`` says where it listens and answers there."""
    process = _cli("serve", "--agent", "equity", "--port", "0")
    assert process.stdout is not None
    try:
        line = process.stdout.readline()
        found = re.search(r"http://[0-9.]+:[0-9]+", line)
        assert found, line
        url = found.group(0)
        message = valid_request(4)
        data = json.dumps(message).encode()
        with urllib.request.urlopen(urllib.request.Request(
                url + "/v1/act", data=data, headers={"Content-Type": "application/json"}),
                timeout=TIMEOUT) as response:
            answer = json.loads(response.read())
        assert answer["id"] == message["id"]
        assert BotService("equity").answer(data) == (200, answer)
    finally:
        process.terminate()
        process.wait(TIMEOUT)


def test_cli_serve_refuses_an_unknown_agent() -> None:
    process = _cli("serve", "--stdio", "--agent", "nobody")
    _, err = process.communicate("", timeout=TIMEOUT)
    assert process.returncode != 0 and "nobody" in err
