"""What a table keeps and what a move costs (issue 29): a finished hand leaves its
history, not its event log, so a long web game's memory per hand stays bounded; and a
move reads only the events logged since the last one, so a 20,000-event hand's moves
cost what its first moves did (counted as events copied, not timed)."""

from __future__ import annotations

import gc
import sys
import types
from typing import Any

import numpy as np
import pytest
from builders.server import call_json, running_server

import teenpatti_env.engine.knowledge as knowledge
from interfaces.table import PlayTable
from teenpatti_env.engine import Hand
from teenpatti_env.rules import Rules


def test_events_since_a_position_are_the_tail_of_the_log() -> None:
    rng = np.random.default_rng(3)
    hand = Hand.deal(Rules(num_players=4), [100] * 4, 0, rng)
    while not hand.over:
        legal = hand.legal_actions()
        hand.apply(legal[int(rng.integers(len(legal)))] if "min" not in legal[0] else
                   {"type": legal[0]["type"], "amount": legal[0]["min"]})
    for seat in range(4):
        whole = hand.events_for(seat)
        for since in range(hand.event_count + 2):
            tail = hand.events_for(seat, since)
            assert tail == whole[len(whole) - len(tail):]
        assert hand.events_for(seat, hand.event_count) == []
    public = hand.public_events()
    assert hand.public_events(5) == public[len(public) - len(hand.public_events(5)):]
    for bad in (-1, 1.5, True, "3"):
        with pytest.raises(ValueError, match="since"):
            hand.events_for(0, bad)  # type: ignore[arg-type]


class Caller:
    """A bot that bets the smallest amount (looking when it may bet no more blind)."""

    def act(self, observation: Any, mask: Any, view: Any) -> int:
        return 2 if mask[2] else (1 if mask[1] else 0)  # bet_min, look, pack

    def reset(self) -> None:
        pass


def test_a_move_in_a_20000_event_hand_copies_only_the_new_events(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    copied = []
    deepcopy = knowledge.copy.deepcopy

    class CountingCopy:
        @staticmethod
        def deepcopy(value: Any) -> Any:
            copied.append(len(value))
            return deepcopy(value)

    rules = Rules.preset("classic").replace(starting_boots=1_000_000, max_bet=None,
                                            pot_cap=None)
    table = PlayTable(["hard", "hard"], rules, hands=1, seed=0)
    table.bots = {1: Caller(), 2: Caller()}  # type: ignore[dict-item]
    hand = table.env.hand
    assert hand is not None
    monkeypatch.setattr(knowledge, "copy", CountingCopy)

    def one_move() -> int:
        """Events copied by one move of the person (and the bots' replies) and the
        state a frontend draws after it."""
        copied.clear()
        moves = {move["type"]: move for move in table.moves()}
        table.act({"type": "bet", "amount": moves["bet"]["entry"]["min"]} if "bet" in moves
                  else {"type": "look"})
        table.state()
        return sum(copied)

    early = [one_move() for _ in range(20)]
    while hand.event_count < 20_000:
        one_move()
    late = [one_move() for _ in range(20)]
    assert not hand.over and hand is table.env.hand
    assert max(late) <= max(early) <= 20  # three seats' moves: a handful of events
    assert len(table.state()["story"]) > 20_000


def deep_size(root: object) -> int:
    """Bytes of ``root`` and every object it reaches (classes, modules and functions,
    which every game shares, left out)."""
    seen: set[int] = set()
    todo = [root]
    total = 0
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (type, types.ModuleType, types.FunctionType,
                                               types.BuiltinFunctionType)):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        todo.extend(gc.get_referents(obj))
    return total


def test_memory_per_finished_hand_stays_bounded_over_http() -> None:
    """A web game of many hands keeps each finished hand as its history (a few KB),
    never its event log: live ``Hand`` objects stay few however many hands were
    played, and the game's size grows by about a history per hand."""
    with running_server("equity") as server:
        url = server.url

        def play(game: str, hands: int) -> int:
            while True:
                status, answer = call_json(url, "GET", f"/v1/games/{game}")
                state = answer["state"]
                if state["over"] or state["hands_played"] >= hands:
                    return int(state["hands_played"])
                kinds = {move["type"] for move in state["moves"]}
                action = "pack" if "pack" in kinds else "refuse"
                status, answer = call_json(url, "POST", f"/v1/games/{game}/act",
                                           {"action": {"type": action}})
                assert status == 200, answer

        status, created = call_json(url, "POST", "/v1/games", {
            "bots": ["hard", "equity"], "starting_stack": 1_000_000, "hands": 1000,
            "max_bet": None, "pot_cap": None, "turn_seconds": None, "seed": 5})
        assert status == 201, created
        game = created["game"]
        entry = server.games.get(game)
        assert play(game, 30) == 30  # the kept story of the last hands is full by then
        session = entry.table.env.session
        assert session is not None

        def sizes() -> tuple[int, int]:
            """The game's size and its hand histories' (the session's)."""
            return deep_size(entry), deep_size((session._played, session._history))

        game_before, histories_before = sizes()
        assert play(game, 330) == 330
        game_after, histories_after = sizes()
        grown = game_after - game_before
        assert 0 < grown / 300 < 4096, f"{grown / 300:.0f} bytes per finished hand"
        # what the game gained is its hand histories, and nothing else worth a mention
        assert abs(grown - (histories_after - histories_before)) / 300 < 100
        hands = [obj for obj in gc.get_objects() if isinstance(obj, Hand)]
        assert len(hands) <= 6, len(hands)
