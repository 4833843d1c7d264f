"""The behaviour the agents' specs promise: ``auto`` looks at once, ``easy`` looks on its
first turn unless it errs, ``hard`` uses every blind turn the table allows on an
all-blind table, ``equity`` folds a hopeless hand facing a big bet and never packs a trail
of aces."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest
from builders.agents import Scripted, play, random_lineup, seat_map
from builders.env import PRESETS, random_deal

import teenpatti_env
from agents import LevelAgent, make_agent
from agents.base import Agent
from teenpatti_env import Rules

# ------------------------------------------------------------------ 3. behaviour from specs


@pytest.mark.parametrize("preset", PRESETS)
def test_auto_looks_whenever_look_is_legal(preset: str) -> None:
    env = teenpatti_env.raw_env(rules=preset)
    rng = np.random.default_rng(4)
    looks = 0
    for hand in range(150):
        agents = random_lineup(env, rng)
        agents["player_0"] = make_agent("auto", hand)
        agents["player_2"] = make_agent("auto", hand + 1)
        env.reset(seed=hand)

        def choose(agent: str, observation: np.ndarray, mask: np.ndarray, info: dict,
                   agents: dict[str, Agent] = agents) -> int:
            nonlocal looks
            action = agents[agent].act(observation, mask, info)
            if agents[agent].name == "auto" and "look" in info["legal_actions"]:
                assert env.action_meanings[action] == "look"
                looks += 1
            return action

        play(env, choose)
    assert looks > 100


def first_decisions(level: LevelAgent, hands: int, seed: int) -> list[str]:
    """The first action (by name) of ``level`` in seat 0 of ``hands`` classic hands
    against random agents, with ``blind_bets == 0`` at that decision."""
    env = teenpatti_env.raw_env(rules="classic")
    rng = np.random.default_rng(seed)
    out: list[str] = []
    for hand in range(hands):
        agents = {a: make_agent("random", int(rng.integers(2**31))) for a in env.possible_agents}
        agents["player_0"] = level
        level.reset()
        env.reset(seed=seed * 1000 + hand)
        log: list[tuple[str, str, dict]] = []
        play(env, seat_map(agents, log))
        mine = [(name, info) for agent, name, info in log if agent == "player_0"]
        if mine:
            name, info = mine[0]
            assert info["seats"][0]["blind_bets"] == 0 and not info["seen"]
            out.append(name)
    return out


def test_easy_looks_on_its_first_turn_even_though_it_errs() -> None:
    # Its random three moves in ten are betting moves: the look comes first regardless.
    names = first_decisions(LevelAgent("easy", seed=3), hands=600, seed=1)
    assert set(names) == {"look"}
    # And without its mistakes too.
    careful = LevelAgent("easy", seed=3)
    careful.style = dataclasses.replace(careful.style, mistakes=0.0)
    assert set(first_decisions(careful, hands=150, seed=2)) == {"look"}


def blind_bets_at_look(rules: Rules, level: str, hands: int) -> list[int]:
    """For a table of ``level`` agents without mistakes, every seat's blind bets when it
    first looked."""
    env = teenpatti_env.raw_env(rules=rules)
    out: list[int] = []
    for hand in range(hands):
        agents = {}
        for seat, agent in enumerate(env.possible_agents):
            bot = LevelAgent(level, seed=seat)
            bot.style = dataclasses.replace(bot.style, mistakes=0.0)
            agents[agent] = bot
        env.reset(seed=hand)
        log: list[tuple[str, str, dict]] = []
        play(env, seat_map(agents, log))
        looked: set[str] = set()
        for agent, name, info in log:
            if name == "look" and agent not in looked:
                looked.add(agent)
                out.append(info["seats"][info["seat"]]["blind_bets"])
    return out


@pytest.mark.parametrize("limit", [1, 2, 3, 4, 6, None])
def test_hard_uses_every_blind_turn_of_an_all_blind_table(limit: int | None) -> None:
    rules = Rules(max_blind_bets=limit)
    made = blind_bets_at_look(rules, "hard", hands=25)
    # every seat looks unless the others all packed first
    assert len(made) >= 0.9 * 25 * rules.num_players
    expected = LevelAgent.UNLIMITED_BLIND_TURNS if limit is None else limit
    assert set(made) == {expected}


def test_hard_blind_turns_under_pagat_and_medium_blind_turns() -> None:
    made = blind_bets_at_look(Rules.preset("pagat", num_players=3), "hard", hands=20)
    assert set(made) == {LevelAgent.UNLIMITED_BLIND_TURNS}
    # medium (without mistakes) stays blind for two turns
    assert set(blind_bets_at_look(Rules(), "medium", hands=20)) == {2}
    assert set(blind_bets_at_look(Rules(max_blind_bets=1), "medium", hands=10)) == {1}


def test_hard_looks_early_once_a_seen_opponent_keeps_betting() -> None:
    """Seats 2 and 3 look at once and bet every turn; hard (seat 1, first to act) reads
    their seen bets and looks before it reaches the blind-bet limit of 4."""
    env = teenpatti_env.raw_env(rules="classic")
    hard = make_agent("hard", 0)
    players: dict[str, Any] = {
        "player_0": Scripted("bet_min"),
        "player_1": hard,
        "player_2": Scripted("look", "bet_min"),
        "player_3": Scripted("look", "bet_min"),
    }
    cards = [["Qs", "Qh", "Qd"], ["2s", "3h", "5d"], ["Ks", "Kh", "Kd"], ["7c", "8c", "Td"]]
    env.reset(options={"cards": cards, "dealer": 0})
    log: list[tuple[str, str, dict]] = []
    play(env, seat_map(players, log))
    mine = [(name, info) for agent, name, info in log if agent == "player_1"]
    look = next(info for name, info in mine if name == "look")
    assert 0 < look["seats"][1]["blind_bets"] < 4


def test_reader_counts_seen_bets_made_before_the_first_decision() -> None:
    env = teenpatti_env.raw_env(rules="classic")
    hard = make_agent("hard", 0)
    players: dict[str, Any] = {
        "player_0": Scripted("bet_min"),
        "player_1": Scripted("look", "bet_min"),
        "player_2": Scripted("look", "bet_min"),
        "player_3": hard,
    }
    cards = [["Qs", "Qh", "Qd"], ["2s", "3h", "5d"], ["Ks", "Kh", "Kd"], ["7c", "8c", "Td"]]
    env.reset(options={"cards": cards, "dealer": 0})
    for agent in env.agent_iter():
        observation, _, _, _, _ = env.last()
        info = env.unwrapped.view(agent)
        player = players[agent]
        act = player.act if isinstance(player, Agent) else player
        action = act(observation["observation"], observation["action_mask"], info)
        if agent == "player_3":
            break
        env.step(action)
    # Seats 1 and 2 looked and bet 2 chips each (a seen bet) before seat 3's first turn.
    assert hard.reader.seen_bets.get(1, 0) > 0 and hard.reader.seen_bets.get(2, 0) > 0


@pytest.mark.parametrize("rules", ["classic", "tabletop"])
def test_equity_judges_a_sideshow_against_its_real_target(rules: str) -> None:
    """Seat 1 looks and bets, seat 2 stays blind; equity (seat 3, A-9-2: it beats about
    65% of hands) rates seat 2 at 0.65 but seat 1, whose bet after looking narrows its
    range, at about 0.54, below its sideshow threshold of 0.6. The sideshow's target is
    seat 1 (seat 2 is blind), so equity should not ask for it."""
    env = teenpatti_env.raw_env(rules=rules, sideshow_target="previous_seen")
    players: dict[str, Any] = {
        "player_0": Scripted("bet_min"),
        "player_1": Scripted("bet_min", "look", "bet_min"),
        "player_2": Scripted("bet_min"),
        "player_3": make_agent("equity", 0),
    }
    cards = [["Ks", "Kh", "Kd"], ["Qs", "Qh", "Qd"], ["7c", "8c", "Td"], ["2s", "9s", "Ah"]]
    env.reset(options={"cards": cards, "dealer": 0})
    log: list[tuple[str, str, dict]] = []
    targets: list[int | None] = []
    chooser = seat_map(players, log)

    def choose(agent: str, observation: np.ndarray, mask: np.ndarray, info: dict) -> int:
        if agent == "player_3" and "sideshow" in info["legal_actions"]:
            targets.append(env.hand.sideshow_target(3))
        return chooser(agent, observation, mask, info)

    play(env, choose)
    assert targets[:1] == [1]  # the scenario: seat 1, not the previous player 2, is asked
    asked = [name for agent, name, _ in log if agent == "player_3" and name == "sideshow"]
    assert not asked, "equity asked seat 1 for a sideshow while rating it below 0.6"


HOPELESS = ["2s", "3h", "5d"]  # 5-3-2 of three suits: the lowest hand (no preset is lowball)


@pytest.mark.parametrize("preset", PRESETS)
def test_equity_folds_a_hopeless_hand_facing_big_bets(preset: str) -> None:
    rules = Rules.preset(preset)
    env = teenpatti_env.raw_env(rules=rules)
    rng = np.random.default_rng(PRESETS.index(preset))
    for hand in range(10):
        cards = random_deal(rules, rng, fixed={3: HOPELESS})
        players: dict[str, Any] = {
            "player_0": Scripted("bet_min"),
            "player_1": Scripted("look", "bet_max"),
            "player_2": Scripted("look", "bet_max"),
            "player_3": make_agent("equity", hand),
        }
        env.reset(options={"cards": cards, "dealer": 0})
        log: list[tuple[str, str, dict]] = []
        play(env, seat_map(players, log))
        assert [name for agent, name, _ in log if agent == "player_3"] == ["look", "pack"]


@pytest.mark.parametrize("preset", PRESETS)
def test_equity_folds_a_hopeless_hand_heads_up(preset: str) -> None:
    rules = Rules.preset(preset, num_players=3)
    env = teenpatti_env.raw_env(rules=rules)
    cards = random_deal(rules, np.random.default_rng(0), fixed={0: HOPELESS})
    players: dict[str, Any] = {
        "player_0": make_agent("equity", 0),
        "player_1": Scripted("pack"),
        "player_2": Scripted("look", "bet_max"),
    }
    env.reset(options={"cards": cards, "dealer": 0})
    log: list[tuple[str, str, dict]] = []
    play(env, seat_map(players, log))
    assert [name for agent, name, _ in log if agent == "player_0"] == ["look", "pack"]
    assert env.hand.net[0] == -rules.boot


AAA_TABLES = {
    "classic": {"rules": "classic"},
    "pagat": {"rules": "pagat"},
    "tabletop": {"rules": "tabletop"},
    "pot_limit": {"rules": "classic", "pot_limit_betting": True},
    "raise_3": {"rules": "classic", "raise_multiple": 3},
    "players_7": {"rules": "classic", "num_players": 7},
    "players_3_private": {"rules": "classic", "num_players": 3, "sideshow_reveal": "private"},
    "blind_off": {"rules": "classic", "max_blind_bets": 0},
    "flash_deep": {"rules": "flash", "starting_boots": 1000},
}


def equity_with_aces(env_kwargs: dict[str, Any], hands: int, seed: int) -> list[dict[str, Any]]:
    """``hands`` deals in which an equity agent (in a random seat, against a random
    mixed lineup) holds a trail of aces: per hand its decisions (action name and legal
    action names) and its net chips."""
    env = teenpatti_env.raw_env(**env_kwargs)
    rules = env.rules
    rng = np.random.default_rng(seed)
    out = []
    for hand in range(hands):
        seat = int(rng.integers(rules.num_players))
        agents = random_lineup(env, rng)
        agents[f"player_{seat}"] = make_agent("equity", hand)
        cards = random_deal(rules, rng, fixed={seat: ["As", "Ah", "Ad"]})
        env.reset(options={"cards": cards, "dealer": int(rng.integers(rules.num_players))})
        log: list[tuple[str, str, dict]] = []
        play(env, seat_map(agents, log))
        decisions = [
            (name, list(info["legal_actions"]))
            for agent, name, info in log
            if agent == f"player_{seat}"
        ]
        out.append({"decisions": decisions, "net": env.hand.net[seat]})
    return out


@pytest.mark.parametrize("table", sorted(AAA_TABLES))
def test_equity_never_packs_a_trail_of_aces(table: str) -> None:
    for hand in equity_with_aces(AAA_TABLES[table], 60, sorted(AAA_TABLES).index(table)):
        assert "pack" not in [name for name, _ in hand["decisions"]]
        assert hand["net"] > 0  # it cannot lose with the best hand


def test_equity_packs_a_trail_of_aces_only_when_forced_under_short_stack_pack() -> None:
    """At the flash table (short_stack="pack", 50 boots deep) a short seat may only pack;
    equity never packs aces while anything else is legal."""
    for hand in equity_with_aces({"rules": "flash"}, 100, 1):
        for name, legal in hand["decisions"]:
            if name == "pack":
                assert legal == ["pack"]


def test_equity_rarely_bets_itself_short_with_a_trail_of_aces_at_the_flash_table() -> None:
    """Under short_stack="pack" a short seat must pack, and a seen seat cannot show a blind
    one, so a blind opponent can outlast even a trail of aces. Equity keeps two bets in
    reserve before it raises and bets to the pot cap when it could not bet again; it was
    forced to pack in 13 of 100 such hands before, 4 of 200 with the raise reserve alone."""
    hands = equity_with_aces({"rules": "flash"}, 200, 1)
    forced = [hand for hand in hands if hand["net"] <= 0]
    assert len(forced) <= 4, f"{len(forced)} of 200 hands lost with a trail of aces"
