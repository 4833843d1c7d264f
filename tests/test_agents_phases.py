"""The scripted agents' choices in the part-2 variants: keep the best three, discard the
worst card, shop only when it pays, buy a joker when it lifts the hand, choose a variant,
keep playing between hands."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from builders.env import decisions

from agents import SCRIPTED_AGENTS, make_agent
from agents.arena import run_arena
from agents.base import LegalMoves
from agents.phases import BUY_GAIN, SHOP_BELOW, best_kept, buy_action, kept_value, phase_action
from teenpatti_env import Rules, evaluate_hand, raw_env
from teenpatti_env.cards.hands import value_strengths

PLAIN: dict[str, Any] = {"rules": {}, "wild_ranks": [], "wild_colours": []}


def test_best_kept_keeps_the_best_three_by_the_engine_values() -> None:
    cards = ["2c", "Ah", "7d", "As"]
    assert best_kept(cards, 3, PLAIN) == (1, 2, 3)  # the pair of aces with the seven
    six = ["Kd", "2s", "Kh", "5c", "Ks", "9d"]
    assert best_kept(six, 3, PLAIN) == (0, 2, 4)  # three kings
    # the kept value is the engine's value of those three cards
    assert kept_value(["Ah", "7d", "As"], PLAIN) == evaluate_hand(["Ah", "7d", "As"])


def test_wild_cards_count_when_keeping() -> None:
    info = {**PLAIN, "wild_ranks": ["7"]}
    # with sevens wild, 7-K-K is three kings: better than K-K-2
    assert best_kept(["Kd", "2s", "Kh", "7c"], 3, info) == (0, 1, 3) or best_kept(
        ["Kd", "2s", "Kh", "7c"], 3, info) == (0, 2, 3)
    assert kept_value(["Kd", "Kh", "7c"], info) == evaluate_hand(["Kd", "Kh", "Kc"])


def legal_of(names: list[str], size: int = 40) -> tuple[np.ndarray, dict[str, Any]]:
    mask = np.zeros(size, dtype=np.int8)
    mask[: len(names)] = 1
    return mask, {"legal_actions": names}


def test_discard_the_card_whose_loss_leaves_the_best_three() -> None:
    names = ["pack", "discard_0", "discard_1", "discard_2", "discard_3"]
    mask, info = legal_of(names)
    info.update(PLAIN, phase="discard_one", cards=["Qs", "2d", "Qh", "Qc"])
    choice = phase_action(LegalMoves(mask, info), info)
    assert names[choice] == "discard_1"  # throw the two, keep three queens


def test_pass_the_three_outside_the_best_three() -> None:
    names = ["pack", "pass_0_1_2", "pass_0_1_3", "pass_3_4_5", "pass_1_3_5"]
    mask, info = legal_of(names)
    info.update(PLAIN, phase="passing", cards=["Kd", "2s", "Kh", "5c", "Ks", "9d"])
    choice = phase_action(LegalMoves(mask, info), info)
    assert names[choice] == "pass_1_3_5"  # keeps the three kings


@pytest.mark.parametrize(
    ("cards", "expected"),
    [(["2c", "7d", "9h"], "draw"), (["Ac", "Ad", "9h"], "keep"), (["Qs", "Js", "Ts"], "keep")],
)
def test_shop_only_when_the_hand_is_weak(cards: list[str], expected: str) -> None:
    names = ["pack", "draw", "keep"]
    mask, info = legal_of(names)
    info.update(PLAIN, phase="shopping", cards=cards)
    strength = value_strengths(Rules())[evaluate_hand(cards)]
    assert (strength < SHOP_BELOW) == (expected == "draw")
    assert names[phase_action(LegalMoves(mask, info), info)] == expected


def test_look_before_shopping_and_keep_when_drawing_is_not_offered() -> None:
    names = ["look", "pack", "draw", "keep"]
    mask, info = legal_of(names)
    info.update(PLAIN, phase="shopping", cards=None)
    assert names[phase_action(LegalMoves(mask, info), info)] == "look"
    names = ["pack", "keep"]
    mask, info = legal_of(names)
    info.update(PLAIN, phase="shopping", cards=["2c", "7d", "9h"])
    assert names[phase_action(LegalMoves(mask, info), info)] == "keep"


def test_buy_a_joker_only_when_it_lifts_the_hand() -> None:
    names = ["pack", "bet_min", "buy_joker_0", "buy_joker_1", "buy_joker_2"]
    mask, info = legal_of(names)
    info.update(PLAIN, cards=["9d", "5h", "2c"])  # nine high; the two made wild: two nines
    choice = buy_action(LegalMoves(mask, info), info)
    assert choice is not None and names[choice] == "buy_joker_2"
    strengths = value_strengths(Rules())
    assert strengths[kept_value(["9d", "5h", "2c"], info, "2c")] - strengths[
        kept_value(["9d", "5h", "2c"], info)] >= BUY_GAIN
    info["cards"] = ["Kd", "Kh", "2c"]  # a pair of kings: a trail gains less than BUY_GAIN
    assert buy_action(LegalMoves(mask, info), info) is None
    info["cards"] = ["Ad", "Ah", "As"]  # a trail of aces gains nothing
    assert buy_action(LegalMoves(mask, info), info) is None


def test_outside_the_phases_there_is_no_phase_choice() -> None:
    names = ["pack", "look", "bet_min"]
    mask, info = legal_of(names)
    info.update(PLAIN, phase="betting", cards=None)
    assert phase_action(LegalMoves(mask, info), info) is None


@pytest.mark.parametrize("name", sorted(SCRIPTED_AGENTS))
@pytest.mark.parametrize(
    "rules",
    [
        Rules(variant="discard_one"),
        Rules(variant="shopping", num_players=6),
        Rules(variant="passing_cards", num_players=5),
        Rules(variant="buy_a_joker"),
        Rules(variant="joker_thresholds"),
        Rules(variant="rotating_jokers"),
        Rules(dealers_choice=["open_joker", "shopping", "muflis"], vote_to_end=True,
              max_hands=6),
    ],
    ids=["discard_one", "shopping", "passing", "buy", "thresholds", "rotating", "choice"],
)
def test_every_scripted_agent_plays_legally(name: str, rules: Rules) -> None:
    env = raw_env(rules=rules.replace(max_hands=6), episode="session")
    env.reset(seed=7)
    agents = {a: make_agent(name, seed=k) for k, a in enumerate(env.possible_agents)}
    steps = 0
    for agent, observation, info in decisions(env, max_iter=20_000):
        action = agents[agent].act(observation["observation"], observation["action_mask"], info)
        assert observation["action_mask"][action] == 1, (agent, info["legal_actions"])
        env.step(action)
        steps += 1
    assert steps > 5  # (random may vote to end early)
    assert env.hand is not None and env.hand.over


def test_the_arena_runs_under_dealers_choice() -> None:
    rules = Rules(dealers_choice=["ak47", "shopping", "buy_a_joker", "passing_cards"])
    report = run_arena(["hard", "equity", "random"], hands=120, rules=rules, seed=1)
    assert report.hands == 120
    assert report.pairwise["hard"]["random"].mean > 0  # hard beats random here too
