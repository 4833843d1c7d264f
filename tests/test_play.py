"""A person at the table: ``PlayTable`` (behind the terminal and the web page) and
``teenpatti play`` in the terminal."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from interfaces.play import draw_table, move_labels, parse_move, play_session
from interfaces.table import MOVE_KEYS, PERSON, PlayTable
from teenpatti_env.errors import IllegalActionError
from teenpatti_env.rules import Rules
from teenpatti_env.rules.variants import VARIANTS

CLASSIC_LEGAL = [
    {"type": "look"}, {"type": "pack"}, {"type": "bet", "min": 1, "max": 2},
    {"type": "show"}, {"type": "sideshow", "min": 2, "max": 4},
]


def _moves(legal):
    """Moves as ``PlayTable.moves`` gives them, as far as parsing needs."""
    return [{"type": e["type"], "key": MOVE_KEYS[e["type"]], "entry": e} for e in legal]


def _random_action(legal, rng):
    choice = dict(legal[int(rng.integers(len(legal)))])
    if "min" in choice:
        low, high = choice.pop("min"), choice.pop("max")
        choice["amount"] = low if rng.random() < 0.5 else high
    if choice["type"] in ("discard", "buy_joker"):
        choice = {"type": choice["type"], "card": choice["cards"][0]}
    elif choice["type"] == "pass":
        choice = {"type": "pass", "cards": choice["cards"][:3]}
    elif choice["type"] == "choose_variant":
        choice = {"type": "choose_variant", "variant": "classic"}
    return choice


@pytest.mark.parametrize("variant", ["classic", "muflis", "joker", "discard_one",
                                     "shopping", "passing_cards", "buy_a_joker"])
def test_a_person_plays_a_whole_session_and_chips_are_kept(variant):
    rng = np.random.default_rng(7)
    table = PlayTable(["hard", "equity", "random"], Rules.preset("classic", variant=variant),
                      hands=4, seed=11)
    turns = 0
    while not table.over:
        state = table.state()
        assert state["your_turn"] and state["view"]["legal"]
        # The person's view is exactly the environment's view of seat 0.
        assert state["view"] == table.env.view(PERSON)
        for seat, entry in enumerate(state["view"]["seats"][1:], 1):
            shown = table.env.hand.known_cards(0).get(seat)
            assert entry["cards"] == shown
        table.act(_random_action(state["view"]["legal"], rng))
        turns += 1
    state = table.state()
    assert turns > 0 and not state["your_turn"] and state["view"]["legal"] == []
    assert sum(state["stacks"]) == 4 * table.rules.starting_stack
    assert state["finished"] and state["finished"][-1]["number"] == len(state["finished"])
    for finished in state["finished"]:
        assert sum(finished["net"]) == 0 or finished["story"][-1].startswith("void")


def test_an_illegal_action_changes_nothing():
    table = PlayTable(["hard", "equity"], hands=2, seed=3)
    before = table.state()
    for bad in ({"type": "show"}, {"type": "bet", "amount": 10_000}, {"type": "dance"}, {}):
        with pytest.raises(IllegalActionError):
            table.act(bad)
        assert table.state() == before


def test_acting_after_the_session_is_an_error():
    table = PlayTable(["hard", "equity"], hands=1, seed=3)
    while not table.over:
        table.act({"type": "pack"})
    with pytest.raises(IllegalActionError, match="over"):
        table.act({"type": "pack"})


def test_bots_are_seeded():
    def story(seed):
        table = PlayTable(["random", "easy", "equity"], hands=3, seed=seed)
        while not table.over:
            legal = table.state()["view"]["legal"]
            table.act({"type": "pack"} if {"type": "pack"} in legal else {"type": "refuse"})
        return [hand["story"] for hand in table.state()["finished"]]

    assert story(5) == story(5)
    assert story(5) != story(6)


def test_bad_tables_are_refused():
    with pytest.raises(ValueError, match="2 to 6 bots"):
        PlayTable([])
    with pytest.raises(ValueError, match="2 to 6 bots"):
        PlayTable(["hard"])
    with pytest.raises(ValueError, match="unknown agent"):
        PlayTable(["nobody", "hard"])


def test_parse_move_by_key_name_synonym_and_amount():
    moves = _moves(CLASSIC_LEGAL)
    assert parse_move("b", moves) == {"type": "bet", "amount": 1}
    assert parse_move("b 2", moves) == {"type": "bet", "amount": 2}
    assert parse_move("bet 2", moves) == {"type": "bet", "amount": 2}
    assert parse_move("chaal 2", moves) == parse_move("blind 2", moves) == \
        {"type": "bet", "amount": 2}
    assert parse_move("call", moves) == {"type": "bet", "amount": 1}
    assert parse_move("raise", moves) == {"type": "bet", "amount": 2}
    assert parse_move("  LOOK ", moves) == parse_move("l", moves) == parse_move("see", moves)
    assert parse_move("fold", moves) == parse_move("p", moves) == {"type": "pack"}
    assert parse_move("sideshow", moves) == parse_move("w", moves) == \
        {"type": "sideshow", "amount": 2}
    assert parse_move("s", moves) == {"type": "show"}
    legal = [{"type": "pack"}, {"type": "pass", "cards": ["As", "Kd", "7c", "2h", "3h", "4h"],
                                "count": 3}]
    assert parse_move("t As 2h 3h", _moves(legal)) == {"type": "pass",
                                                       "cards": ["As", "2h", "3h"]}


@pytest.mark.parametrize("line, message", [
    ("", "key or name"), ("1", "you cannot '1' now"), ("accept", "you cannot 'accept' now"),
    ("a", r"your moves are l look, .*p pack.* \(\? for help\)"),
    ("bet two", "type one amount, like bet 1; you can bet 1 or 2 chips"),
    ("bet 1 2", "one amount"), ("b 9", "^you can bet 1 or 2 chips$"),
    ("b 0", "^you can bet 1 or 2 chips$"), ("look now", "nothing more"),
])
def test_parse_move_says_what_to_type(line, message):
    with pytest.raises(ValueError, match=message):
        parse_move(line, _moves(CLASSIC_LEGAL))


def test_move_keys_are_the_same_on_every_turn():
    # Before and after looking, pack and bet keep their keys (the issue: typing 1 twice
    # looked, then packed).
    table = PlayTable(["hard", "equity"], hands=1, seed=4)
    before = {m["type"]: m["key"] for m in table.moves()}
    table.act({"type": "look"})
    after = {m["type"]: m["key"] for m in table.moves()}
    assert before["pack"] == after["pack"] == "p" and before["bet"] == after["bet"] == "b"
    assert "look" in before and "look" not in after
    assert len(set(MOVE_KEYS.values())) == len(MOVE_KEYS)


def test_move_labels_name_every_move_with_its_sizes_cost_and_target():
    table = PlayTable(["hard", "equity"], hands=1, seed=4)
    moves = table.moves()
    labels = move_labels(moves, table.names)
    bet = next(m for m in moves if m["type"] == "bet")
    assert labels[[m["type"] for m in moves].index("bet")] == \
        "[b] blind " + "/".join(map(str, bet["amounts"]))
    assert labels[-1] == "[p] pack"


def test_the_drawn_table_shows_only_what_the_person_knows():
    table = PlayTable(["hard", "equity", "medium"], hands=1, seed=2)
    table.act({"type": "look"})
    text = draw_table(table.state())
    mine = table.env.hand.known_cards(0)[0]
    assert " ".join(mine) in text
    for seat in (1, 2, 3):
        for card in table.env.hand.cards[seat]:
            if card not in mine and table.env.hand.known_cards(0).get(seat) is None:
                assert f" {card}" not in text.split("your cards")[0].split("\n", 2)[2]


def test_play_session_with_typed_lines():
    table = PlayTable(["hard", "equity"], hands=2, seed=4)
    lines = iter(["nonsense", "look", *["fold", "r"] * 200])
    written: list[str] = []
    assert play_session(table, read=lambda prompt: next(lines), write=written.append)
    text = "\n".join(written)
    assert "! you cannot 'nonsense' now; your moves are l look, b blind, p pack" in text
    assert "your moves: [l] look   [b] blind 1/2   [p] pack" in text
    assert "Session over after 2 hands. Standings:" in text
    assert "-- hand 2: " in text and "your net " in text


def test_play_session_stops_on_quit_and_end_of_input():
    table = PlayTable(["hard", "equity"], hands=2, seed=4)
    assert not play_session(table, read=lambda prompt: "quit", write=lambda text: None)

    def ended(prompt):
        raise EOFError

    assert not play_session(table, read=ended, write=lambda text: None)


def _play(*args, stdin):
    return subprocess.run([sys.executable, "-m", "teenpatti_env", "play", *args],
                          input=stdin, capture_output=True, text=True, timeout=120)


def test_cli_play_a_session_in_the_terminal():
    done = _play("--bots", "hard,pretrained:classic,random", "--hands", "2", "--seed", "1",
                 stdin="look\n" + "p\nr\n\n" * 300)  # Enter: the next hand
    assert done.returncode == 0, done.stderr
    assert "Session over after 2 hands" in done.stdout
    assert "your moves:" in done.stdout and "pot" in done.stdout
    assert "you hold" in done.stdout  # the person's own cards, once looked


def test_cli_play_ends_quietly_at_end_of_input():
    done = _play("--hands", "3", stdin="")
    assert done.returncode == 0 and "Traceback" not in done.stderr


@pytest.mark.parametrize("args, message", [
    (["--bots", "nobody,hard"], "unknown agent"),
    (["--bots", ",".join(["hard"] * 7)], "--bots: a table takes 2 to 6 bots"),
    (["--bots", "hard"], "--bots: a table takes 2 to 6 bots"),
    (["--variant", "nope"], "variant"),
    (["--players", "9"], "--players: a table seats 3 to 7 players, got 9"),
    (["--players", "3", "--bots", "hard,easy,medium"], "--players 3 seats 2 bots, but --bots"),
    (["--max-bet", "1"], "--max-bet must be a whole number from 2"),
    (["--pot-cap", "5", "--players", "5"], "--pot-cap must be at least twice the boots"),
    (["--turn-seconds", "soon"], "expected a whole number or off"),
    (["--bots", "pretrained:classic,hard"], "was trained for 4 seats"),
])
def test_cli_play_bad_input_is_one_line(args, message):
    done = _play(*args, stdin="")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_every_variant_can_be_played_from_the_terminal_parser():
    # Every legal move the table offers in any variant can be typed.
    rng = np.random.default_rng(0)
    for variant in VARIANTS:
        table = PlayTable(["equity", "hard"], Rules.preset("classic", variant=variant),
                          hands=1, seed=1)
        while not table.over:
            legal = table.state()["view"]["legal"]
            moves = table.moves()
            assert len(move_labels(moves, table.names)) == len(legal)
            action = _random_action(legal, rng)
            words = [action["type"], *([str(action["amount"])] if "amount" in action else []),
                     *([action["card"]] if "card" in action else []), *action.get("cards", [])]
            if action["type"] == "choose_variant":
                words.append(action["variant"])
            assert parse_move(" ".join(words), moves) == action
            table.act(action)


def _reckless(legal):
    """Look, then bet the most every turn (or go all-in, or show); never pack."""
    kinds = {action["type"]: action for action in legal}
    if "look" in kinds:
        return {"type": "look"}
    if "bet" in kinds:
        return {"type": "bet", "amount": kinds["bet"]["max"]}
    for kind in ("all_in", "show", "accept", "refuse"):
        if kind in kinds:
            return {"type": kind}
    return {"type": "pack"}


def test_a_person_who_goes_broke_sees_the_last_hand_they_played():
    for seed in range(40):
        table = PlayTable(["equity", "equity", "equity"], hands=60, seed=seed)
        while not table.over:
            table.act(_reckless(table.state()["view"]["legal"]))
        state = table.state()
        if state["stacks"][0] == 0:
            break
    else:
        pytest.fail("the reckless person never went broke")
    view = state["view"]
    assert view["result"] is not None  # the hand shown is the one the person lost
    assert [s["stack"] for s in view["seats"]] == state["stacks"]
    assert state["story"] == state["finished"][-1]["story"]
    assert state["finished"][-1]["net"][0] < 0
    assert sum(state["stacks"]) == 4 * table.rules.starting_stack
    assert not state["your_turn"] and view["legal"] == []
