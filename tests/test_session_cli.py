"""Sessions (RULES.md section 7) and the command line."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from interfaces.cli import main
from teenpatti_env import Rules, Session


def play_out(session: Session, seed: int = 0) -> None:
    """Finish the session with random legal actions."""
    rng = random.Random(seed)
    while not session.over:
        hand = session.hand
        if hand is None or hand.over:
            hand = session.new_hand()
        while not hand.over:
            action = rng.choice(hand.legal_actions())
            move = {"seat": hand.to_act, "type": action["type"]}
            if "min" in action:
                amount = rng.randint(action["min"], action["max"])
                move["amount"] = amount - (amount & 1 if hand.seen[hand.to_act] else 0)
            hand.apply(move)


def test_deal_passes_left_skipping_seats_that_left() -> None:
    """Seat 2 cannot post the boot, so it leaves; the deal skips it."""
    session = Session(Rules(num_players=4, boot=5), seed=3, stacks=[100, 100, 4, 100])
    assert session.active == [True, True, False, True]
    dealers = []
    for _ in range(4):
        hand = session.new_hand()
        dealers.append(hand.dealer)
        assert hand.dealt_in == [True, True, False, True]
        while not hand.over:
            hand.pack()
    order = [0, 1, 3]
    start = order.index(dealers[0])
    assert dealers == [order[(start + i) % 3] for i in range(4)]
    assert session.stacks[2] == 4  # a seat that left keeps its chips


def test_max_hands_ends_the_session_and_ties_share_the_win() -> None:
    session = Session(Rules(max_hands=2), seed=1)
    play_out(session)
    assert session.over and session.hands_played == 2
    best = max(session.stacks)
    assert session.winners == [s for s, c in enumerate(session.stacks) if c == best]
    assert session.standings()[0][1] == best
    with pytest.raises(RuntimeError):
        session.new_hand()


@pytest.mark.parametrize("preset", Rules.PRESET_NAMES)
def test_session_runs_until_one_seat_can_enter_and_conserves_chips(preset: str) -> None:
    rules = Rules.preset(preset, max_hands=None, starting_boots=8)
    session = Session(rules, seed=5)
    total = sum(session.stacks)
    play_out(session, seed=5)
    assert sum(session.stacks) == total
    assert sum(chips >= rules.entry_chips for chips in session.stacks) <= 1


def test_same_seed_same_session_and_snapshot_continues_identically() -> None:
    first, second = Session(Rules(), seed=9), Session(Rules(), seed=9)
    first.new_hand()
    second.new_hand()
    assert first.hand.cards == second.hand.cards and first.dealer == second.dealer
    restored = Session.from_dict(json.loads(json.dumps(first.to_dict())))
    for session in (first, restored):
        play_out(session, seed=2)
    assert restored.stacks == first.stacks and restored.history == first.history


def test_new_hand_before_the_last_is_over_is_refused() -> None:
    session = Session(Rules(), seed=0)
    session.new_hand()
    with pytest.raises(RuntimeError):
        session.new_hand()


def test_cli_replay_prints_the_result(tmp_path, capsys) -> None:
    path = tmp_path / "hand.json"
    path.write_text(
        json.dumps(
            {
                "format": "teenpatti-hand/1",
                "rules": {"preset": "classic", "boot": 1},
                "stacks": [100, 100, 100, 100],
                "dealer": 0,
                "cards": [
                    ["As", "Kd", "2c"],
                    ["Qh", "Qs", "3d"],
                    ["7c", "8c", "9c"],
                    ["2h", "2d", "Js"],
                ],
                "actions": [
                    {"seat": 1, "type": "pack"},
                    {"seat": 2, "type": "pack"},
                    {"seat": 3, "type": "pack"},
                ],
            }
        )
    )
    assert main(["replay", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["over"] and result["stacks"] == [103, 99, 99, 99]


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        json.dumps({"cards": 3}),
        json.dumps({"cards": [["As", "Kd", "Zz"]] * 3}),
        json.dumps(
            {
                "cards": [["As", "Kd", "2c"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"]],
                "actions": [{"seat": 2, "type": "pack"}],
            }
        ),
    ],
)
def test_cli_replay_bad_file_is_one_line_and_exit_2(tmp_path, content: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    run = subprocess.run(
        [sys.executable, "-m", "teenpatti_env", "replay", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2
    assert run.stdout == ""
    assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr


def test_cli_demo_is_seeded(capsys) -> None:
    assert main(["demo", "--hands", "3", "--seed", "4"]) == 0
    first = capsys.readouterr().out
    assert main(["demo", "--hands", "3", "--seed", "4"]) == 0
    assert capsys.readouterr().out == first
    assert "Hand 3" in first and "After 3 hands" in first


def test_session_snapshot_is_exact_json_after_showdowns() -> None:
    """A saved session, hands with shown cards included, survives JSON unchanged."""
    session = Session(Rules(max_hands=6), seed=11)
    play_out(session, seed=11)
    saved = session.to_dict()
    assert any(item["shown"] for item in session.history)
    assert len(saved["hands"]) == session.hands_played
    assert json.loads(json.dumps(saved)) == saved
    assert Session.from_dict(json.loads(json.dumps(saved))).to_dict() == saved


def test_session_stacks_follow_the_finished_hand() -> None:
    session = Session(Rules(), seed=2)
    hand = session.new_hand()
    while not hand.over:
        hand.pack()
    assert session.stacks == hand.stacks


def test_session_ends_when_every_seat_still_in_votes_in_one_break() -> None:
    """RULES 7: all seats still in the session vote to end between hands."""
    session = Session(Rules(num_players=3), seed=4)
    hand = session.new_hand()
    with pytest.raises(RuntimeError):
        session.vote_end(0)
    while not hand.over:
        hand.pack()
    session.vote_end(0)
    session.vote_end(1)
    assert not session.over
    hand = session.new_hand()  # the votes lapse at the deal
    while not hand.over:
        hand.pack()
    session.vote_end(2)
    assert not session.over
    session.vote_end(0)
    session.vote_end(1)
    assert session.over and session.ended_by_vote
    with pytest.raises(ValueError):
        session.vote_end(7)


@pytest.mark.parametrize(
    "kwargs",
    [{"rules": "texas"}, {"rules": 5}, {"seed": "x"}, {"seed": -1}, {"stacks": 5},
     {"stacks": [100, 100]}, {"stacks": [100, -1, 100, 100]}],
)  # fmt: skip
def test_session_rejects_bad_arguments(kwargs) -> None:
    with pytest.raises(ValueError):
        Session(**kwargs)


def test_session_accepts_a_preset_name_or_a_settings_dict() -> None:
    assert Session("flash").rules == Rules.preset("flash")
    assert Session({"preset": "pagat", "boot": 3}).rules.boot == 3


def test_session_attributes_are_current_as_soon_as_the_hand_ends() -> None:
    """Seat 0 cannot post the next boot: it is out as soon as the hand is over."""
    session = Session(Rules(num_players=3), seed=1, stacks=[1, 5, 5])
    hand = session.new_hand()
    while not hand.over:
        hand.pack()
    assert session.hands_played == 1
    assert session.active == [hand.stacks[0] >= 1, True, True]
    assert len(session.history) == 1


def test_malformed_saved_session_is_a_value_error() -> None:
    session = Session(Rules(), seed=0)
    session.new_hand()
    saved = json.loads(json.dumps(session.to_dict()))
    damages = (("stacks", [1]), ("hands", [{"dealer": 17}]), ("rng", 3), ("hands", {}),
               ("votes", [0]), ("version", 1), ("rules", {"boot": -1}))
    for key, value in damages:
        damaged = json.loads(json.dumps(saved))
        damaged[key] = value
        with pytest.raises(ValueError, match="malformed saved session"):
            Session.from_dict(damaged)
