"""What the tables for people are told (interfaces/table.py), and the web-game routes
and settings of ``teenpatti serve`` (issue 20): moves with keys, costs and targets,
replay steps in names, hand-end summaries, standings, the turn timer's missed turn
(VARIANTS.md C4), the pause between hands, and the table settings a page may choose."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from builders.server import call_json, running_server

from interfaces.table import PlayTable, bet_sizes, category_words
from interfaces.table_defaults import PRESET_SETTINGS, TABLE_SETTINGS
from teenpatti_env.cards.hands import hand_category
from teenpatti_env.errors import IllegalActionError


def _first(moves: list[dict[str, Any]], kind: str) -> dict[str, Any] | None:
    return next((m for m in moves if m["type"] == kind), None)


def _play_until(table: PlayTable, wanted: Any, limit: int = 400) -> bool:
    """Look, then call the smallest bet (accepting sideshows), until ``wanted(table)``."""
    for _ in range(limit):
        if wanted(table):
            return True
        if table.over:
            return False
        if table.between_hands:
            table.next_hand()
            continue
        moves = {m["type"]: m for m in table.moves()}
        for kind in ("look", "accept", "bet", "show", "all_in", "pack"):
            if kind in moves:
                move = moves[kind]
                table.act({"type": kind, **({"amount": move["amounts"][0]}
                                            if "amounts" in move else {})})
                break
    return False


def test_bet_sizes_are_legal_steps_from_the_smallest_to_the_largest() -> None:
    assert bet_sizes(1, 2, 1) == [1, 2]
    assert bet_sizes(2, 4, 2) == [2, 4]
    many = bet_sizes(2, 64, 2)
    assert many[0] == 2 and many[-1] == 64 and len(many) == 6
    assert all(size % 2 == 0 for size in many) and many == sorted(set(many))


def test_moves_say_their_cost_and_target() -> None:
    for seed in range(30):
        table = PlayTable(["hard", "equity", "medium"], hands=3, seed=seed,
                          pause_between_hands=True)
        if _play_until(table, lambda t: _first(t.moves(), "sideshow") is not None):
            break
    else:
        pytest.fail("no sideshow was ever offered")
    hand = table.env.hand
    assert hand is not None
    moves = table.moves()
    sideshow = _first(moves, "sideshow")
    assert sideshow is not None
    target = hand.sideshow_target(0)
    assert sideshow["target"] == target
    assert sideshow["label"] == f"Sideshow with {table.names[target]}"
    legal = next(e for e in table.state()["view"]["legal"] if e["type"] == "sideshow")
    assert sideshow["amounts"] == bet_sizes(legal["min"], legal["max"], 2)
    assert sideshow["cost"] == legal["min"]
    bet = _first(moves, "bet")
    assert bet is not None and bet["label"] == "Chaal"
    assert all(amount % 2 == 0 for amount in bet["amounts"])  # seen bets are even
    assert [m["key"] for m in moves] == [{"pack": "p", "bet": "b", "show": "s",
                                          "sideshow": "w"}.get(m["type"], m["key"])
                                         for m in moves]


def test_a_show_says_what_it_costs_and_against_whom() -> None:
    for seed in range(40):
        table = PlayTable(["hard", "equity"], hands=3, seed=seed)
        if _play_until(table, lambda t: _first(t.moves(), "show") is not None):
            break
    else:
        pytest.fail("no show was ever offered")
    hand = table.env.hand
    assert hand is not None
    show = _first(table.moves(), "show")
    assert show is not None
    assert show["cost"] == hand.show_cost(0) > 0
    other = [s for s in (1, 2) if not hand.packed[s]]
    assert [show["target"]] == other


def test_steps_replay_every_bot_move_in_names() -> None:
    table = PlayTable(["hard", "equity", "medium"], hands=2, seed=3)
    before = table.state()["story"]
    table.act({"type": "look"})
    state = table.state()
    steps = state["steps"]
    assert steps[0]["seat"] == 0 and steps[0]["lines"][0] == "you look"
    told = [line for step in steps for line in step["lines"]]
    assert state["story"][len(before):] == told  # one step per move, nothing else
    for step in steps[1:]:
        assert step["seat"] in (1, 2, 3, None)
        if step["seat"]:
            assert step["lines"][0].startswith(table.names[step["seat"]] + " ")
        assert len(step["seats"]) == 4 and step["pot"] >= 0
    assert not any("seat " in line for line in told)


def test_the_hand_end_pauses_and_tells_winners_categories_and_nets() -> None:
    for seed in range(40):
        table = PlayTable(["hard", "equity"], hands=3, seed=seed, pause_between_hands=True)
        if _play_until(table, lambda t: t.between_hands):
            summary = table.state()["hand_end"]
            if summary["shown"]:
                break
    else:
        pytest.fail("no hand ended at a show")
    state = table.state()
    assert not state["your_turn"] and state["moves"] == [] and state["between_hands"]
    with pytest.raises(IllegalActionError, match="next hand"):
        table.act({"type": "pack"})
    hand = table._shown_hand()
    assert sum(summary["net"]) == 0 and summary["net"] == hand.net
    assert summary["winners"] == [s for s, c in enumerate(hand.payouts or []) if c]
    assert summary["pot"] == sum(hand.payouts or [])
    assert sum(pot["amount"] for pot in summary["pots"]) == summary["pot"]
    for shown in summary["shown"]:
        assert shown["cards"] == hand.shown[shown["seat"]]
        assert shown["category"] == category_words(hand_category(shown["cards"]))
        assert shown["name"] == table.names[shown["seat"]]
    assert state["finished"][-1]["summary"] == summary
    number = state["hands_played"]
    table.next_hand()
    assert table.state()["hand_end"] is None and table.state()["hands_played"] == number
    with pytest.raises(IllegalActionError, match="no ended hand"):
        table.next_hand()


def test_standings_add_up_during_the_session() -> None:
    table = PlayTable(["hard", "equity"], hands=4, seed=2, pause_between_hands=True)
    _play_until(table, lambda t: t.state()["hands_played"] >= 2)
    rows = table.standings()
    assert [row["name"] for row in rows] == ["you", "hard", "equity"]
    assert sum(row["stack"] for row in rows) == 300
    assert sum(row["net"] for row in rows) == 0
    assert [row["stack"] for row in rows] == table.env.session.stacks


def test_a_missed_turn_packs_and_a_missed_sideshow_answer_refuses() -> None:
    table = PlayTable(["hard", "equity"], hands=2, seed=1, turn_seconds=10)
    assert table.state()["turn_seconds"] == 10
    hand = table.env.hand
    table.time_out()
    assert hand.packed[0] and table.missed_turns == 1
    assert "time ran out: you pack" in table.state()["steps"][0]["lines"]
    for seed in range(60):
        table = PlayTable(["hard", "equity", "medium"], hands=4, seed=seed)
        if _play_until(table, lambda t: _first(t.moves(), "refuse") is not None):
            break
    else:
        pytest.fail("no bot ever asked the person for a sideshow")
    hand = table.env.hand
    asker = hand.pending_sideshow[0]
    table.time_out()
    assert table.state()["steps"][0]["lines"][0] == \
        "time ran out: you refuse the sideshow"
    assert not hand.packed[0] and not hand.packed[asker]  # refused: nobody packs


def test_a_duplicate_bot_is_told_apart_by_its_seat() -> None:
    table = PlayTable(["equity", "hard", "equity"], hands=1)
    assert table.names == ["you", "equity 1", "hard", "equity 3"]


# ------------------------------------------------------------------- web-game routes


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with running_server("equity") as server:
        yield server.url


call = call_json


def test_the_server_tells_the_settings_and_the_presets(url: str) -> None:
    status, about = call(url, "GET", "/v1")
    assert status == 200
    assert about["settings"] == TABLE_SETTINGS and about["presets"] == PRESET_SETTINGS
    assert about["presets"]["flash"]["max_bet"] == 32
    assert about["presets"]["classic"]["starting_stack"] == 100


def test_a_game_with_table_settings_plays_under_them(url: str) -> None:
    options = {"bots": ["hard", "equity", "easy"], "boot": 5, "starting_stack": 500,
               "max_bet": 40, "pot_cap": 400, "sideshow": False, "turn_seconds": 20,
               "hands": 3, "seed": 9, "preset": "classic", "variant": "muflis",
               "pause": True}
    status, created = call(url, "POST", "/v1/games", options)
    assert status == 201, created
    rules = created["state"]["view"]["rules"]
    assert (rules["boot"], rules["starting_boots"], rules["max_bet"], rules["pot_cap"],
            rules["sideshow"], rules["variant"]) == (5, 100, 40, 400, False, "muflis")
    assert created["state"]["turn_seconds"] == 20
    assert {k: created["settings"][k] for k in options} == options
    status, read = call(url, "GET", f"/v1/games/{created['game']}")
    assert read["settings"] == created["settings"]  # the page's form after a reload


def test_a_table_has_a_chaal_limit_a_pot_limit_and_a_timer_by_default(url: str) -> None:
    """Issue 29: on unless turned off, scaled to the boot, a preset's own kept."""
    status, about = call(url, "GET", "/v1")
    assert about["defaults"] == {"max_bet_boots": 16, "pot_cap_boots": 128,
                                 "turn_seconds": 30}
    classic = about["presets"]["classic"]
    assert (classic["max_bet"], classic["pot_cap"], classic["turn_seconds"]) == (16, 128, 30)
    assert (about["presets"]["flash"]["max_bet"], about["presets"]["flash"]["pot_cap"]) == \
        (32, 256)
    for options, expected in (({}, (16, 128, 30)), ({"boot": 5}, (80, 640, 30)),
                              ({"preset": "flash", "boot": 4}, (64, 512, 30)),
                              ({"max_bet": None, "pot_cap": None, "turn_seconds": None},
                               (None, None, None))):
        status, created = call(url, "POST", "/v1/games", {"bots": ["hard", "easy"], **options})
        assert status == 201, created
        rules, state = created["state"]["view"]["rules"], created["state"]
        assert (rules["max_bet"], rules["pot_cap"], state["turn_seconds"]) == expected
        settings = created["settings"]
        assert (settings["max_bet"], settings["pot_cap"], settings["turn_seconds"]) == expected
        assert (created["turn_left"] is None) == (expected[2] is None or not state["your_turn"])


@pytest.mark.parametrize("options, message", [
    ({"boot": 0}, "boot must be a whole number from 1 to 1000"),
    ({"boot": 2, "starting_stack": 101}, "multiple of the boot"),
    ({"boot": 5, "max_bet": 8}, "max_bet must be at least twice the boot"),
    ({"boot": 5, "pot_cap": 29}, "pot_cap must be at least twice the boots of the table (30)"),
    ({"sideshow": "yes"}, "sideshow must be true or false"),
    ({"turn_seconds": 2}, "turn_seconds must be a whole number from 5 to 600"),
    ({"bots": ["hard"]}, "a table takes 2 to 6 bots"),
    ({"pause": 1}, "pause must be true or false"),
])
def test_bad_settings_are_refused_with_the_setting_named(
    url: str, options: dict[str, Any], message: str
) -> None:
    status, answer = call(url, "POST", "/v1/games", {"bots": ["hard", "easy"], **options})
    assert status == 400 and answer["error"]["code"] == "invalid_request"
    assert message in answer["error"]["message"]


def test_timeout_and_next_hand_routes() -> None:
    with running_server("equity") as server:
        now = [0.0]
        server.games.clock = lambda: now[0]
        _timeout_and_next(server.url, now)


def _timeout_and_next(url: str, now: list[float]) -> None:
    status, created = call(url, "POST", "/v1/games", {"bots": ["hard", "equity"], "seed": 1,
                                                      "turn_seconds": 5, "pause": True})
    game = created["game"]
    status, early = call(url, "POST", f"/v1/games/{game}/timeout")
    assert status == 400 and "left" in early["error"]["message"]
    now[0] += created["turn_left"]
    status, timed = call(url, "POST", f"/v1/games/{game}/timeout")
    assert status == 200, timed
    state = timed["state"]
    assert state["missed_turns"] == 1 and state["between_hands"]
    assert state["hand_end"]["net"][0] < 0
    status, answer = call(url, "POST", f"/v1/games/{game}/timeout")
    assert status == 400 and answer["error"]["code"] == "illegal_action"
    status, moved = call(url, "POST", f"/v1/games/{game}/next")
    assert status == 200 and moved["state"]["your_turn"]
    assert moved["state"]["hand_end"] is None
    status, answer = call(url, "POST", f"/v1/games/{game}/next")
    assert status == 400 and "no ended hand" in answer["error"]["message"]


def test_each_seat_shows_its_last_move_without_its_name() -> None:
    def sideshow_answered(table: PlayTable) -> bool:
        hand = table.env.hand
        return hand is not None and any(e["type"] == "sideshow_result"
                                        for e in hand.public_events())

    for seed in range(60):
        table = PlayTable(["hard", "equity", "medium"], hands=4, seed=seed)
        if _play_until(table, sideshow_answered):
            break
    else:
        pytest.fail("no sideshow was ever answered")
    hand = table.env.hand
    last = table.state()["last_actions"]
    result = [e for e in hand.public_events() if e["type"] == "sideshow_result"][-1]
    asked = [e for e in hand.public_events() if e["type"] == "sideshow"][-1]
    words = "accepts" if result["accepted"] else "refuses"
    target, asker = result["target"], asked["seat"]
    if target == 0:
        words = words.removesuffix("s")
    later = [e for e in hand.public_events()[hand.public_events().index(result) + 1:]
             if e.get("seat") in (target, asker)]
    assert not later  # found at once: the two seats' last moves are the sideshow's
    assert last[target].startswith(f"{words} the sideshow")
    ask = "asks" if asker else "ask"
    assert last[asker].startswith(f"pay{'s' if asker else ''} {asked['amount']} and {ask} "
                                  f"{table.names[target]} for a sideshow")
    assert all(line is None or not line.startswith(table.names[seat] + " ")
               for seat, line in enumerate(last))


@pytest.mark.parametrize("options", [{"variant": "muflis"}, {"variant": "shared_pair"},
                                     {"variant": "ak47"}])
def test_default_seats_the_trained_bot_cannot_play_go_to_equity(options: dict[str, Any]) -> None:
    """Issue 29 (never a failed Start): the served trained bot fills the default seats;
    at a table it was not trained for, equity takes them with a notice, while a bot the
    page names that cannot sit is still refused, naming why."""
    with running_server("pretrained:classic") as server:
        status, created = call(server.url, "POST", "/v1/games", options)
        assert status == 201, created
        state = created["state"]
        assert state["players"] == ["you", "equity 1", "equity 2", "equity 3"]
        assert created["settings"]["bots"] == ["equity"] * 3
        [notice] = state["notices"]  # the three seats in one line
        assert notice.startswith("seats 1, 2, 3: pretrained:classic was trained for 4 seats")
        assert notice.endswith("equity plays in its place")
        status, answer = call(server.url, "POST", "/v1/games",
                              {**options, "bots": ["pretrained:classic", "hard", "hard"]})
        assert status == 400 and "was trained for 4 seats" in answer["error"]["message"]
        status, created = call(server.url, "POST", "/v1/games", {})  # its own table
        assert status == 201 and created["state"]["notices"] == []
        assert created["settings"]["bots"] == ["pretrained:classic"] * 3
