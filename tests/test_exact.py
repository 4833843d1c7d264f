"""The exact best response on the small game: the tree walk against a brute force over
the best responder's pure strategies (each valued history by history, apart from the
walk's own code), against random, a scripted agent, a policy network and a trained
policy."""

from __future__ import annotations

from typing import Any

import pytest
import torch

from agents import PolicyAgent
from training.config import SelfPlayConfig
from training.exact import (
    Strategy,
    best_response,
    expected_values,
    info_set,
    nash_conv,
    strategy_of,
)
from training.selfplay import new_model
from training.small_game import SMALL_RULES, SmallGame

TINY_RULES = SMALL_RULES.replace(starting_boots=3, max_blind_bets=0)
ALL_DEALS = list(SmallGame().deals())


def tiny_game(deals: tuple[int, ...] = (0, 500, 1000, 1500)) -> SmallGame:
    return SmallGame(rules=TINY_RULES, fixed_deals=tuple(ALL_DEALS[i] for i in deals), dealer=0)


def network(game: SmallGame, seed: int = 0) -> Strategy:
    """A policy network (seeded weights) of the game's layout, played greedily."""
    torch.manual_seed(seed)
    policy = new_model(SelfPlayConfig(hidden=(16,)), game.rules).to_numpy_policy(game.rules)
    return strategy_of(PolicyAgent(policy))


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Strategy:
    """A policy trained on the tiny game (a learned best response to random), greedy."""
    from training.exact_check import learned_best_response

    policy, _, _ = learned_best_response(tiny_game(), "random", 65_536, seed=3, threads=1)
    return strategy_of(PolicyAgent(policy))


class _MissingError(Exception):
    def __init__(self, key: str, actions: list[Any]) -> None:
        self.key, self.actions = key, actions


def _value(game: SmallGame, seat: int, others: Strategy, table: dict[str, Any]) -> float:
    """``seat`` playing the pure strategy ``table`` (information set -> action), history
    by history; an information set the table lacks raises :class:`_MissingError`."""
    deals, dealers = list(game.deals()), game.dealers()
    weight0 = 1.0 / (len(deals) * len(dealers))
    total = 0.0

    def walk(hand: Any, memories: tuple[Any, ...], weight: float) -> None:
        nonlocal total
        if hand.over:
            total += weight * hand.net[seat] / game.rules.boot
            return
        acting = hand.to_act
        decision = game.decision(hand, acting)
        actions = decision.actions()
        if acting == seat:
            key = info_set(hand, seat)
            if key not in table:
                raise _MissingError(key, list(actions))
            walk(decision.child(table[key]), memories, weight)
            return
        chances, memory = others.probabilities(memories[acting], decision)
        after = (*memories[:acting], memory, *memories[acting + 1:])
        for action, indices in actions.items():
            chance = float(chances[indices].sum())
            if chance > 0:
                walk(decision.child(action), after, weight * chance)

    for dealer in dealers:
        for cards in deals:
            walk(game.hand(cards, dealer), tuple(others.start() for _ in range(3)), weight0)
    return total


def brute_force(game: SmallGame, seat: int, others: Strategy,
                table: dict[str, Any] | None = None) -> float:
    """The best value over every pure strategy of ``seat`` (each information set it can
    reach given its earlier choices gets every action in turn)."""
    table = table or {}
    try:
        return _value(game, seat, others, table)
    except _MissingError as missing:
        return max(brute_force(game, seat, others, {**table, missing.key: action})
                   for action in missing.actions)


@pytest.mark.parametrize("target", ["random", "hard", "policy", "trained"])
@pytest.mark.parametrize("seat", [1, 2])
def test_tree_walk_equals_brute_force(target: str, seat: int, trained: Strategy) -> None:
    game = tiny_game()
    others = {"policy": network(game), "trained": trained}.get(target) or strategy_of(target)
    walked = best_response(game, seat, others, record=True)
    assert walked.value == pytest.approx(brute_force(game, seat, others), abs=1e-12)
    # The recorded best response, played as a table, earns the walk's value.
    assert _value(game, seat, others, walked.policy) == pytest.approx(walked.value, abs=1e-12)


def test_hand_worked_single_deal() -> None:
    """One deal, seat 0 deals, seat 1 (first to act) holds the best hand."""
    game = SmallGame(rules=TINY_RULES, fixed_deals=(ALL_DEALS[0],), dealer=0)
    values = expected_values(game, "random")
    assert sum(values) == pytest.approx(0.0, abs=1e-12)  # chips only change hands
    for seat in range(3):
        others = strategy_of("random")
        assert best_response(game, seat, others).value >= values[seat] - 1e-12


def test_best_response_beats_every_fixed_strategy() -> None:
    """No strategy of the seat earns more than its best response: not random, not the
    target itself, not a network."""
    game = tiny_game()
    target = strategy_of("hard")
    for mine in (strategy_of("random"), target, network(game, 1), network(game, 2)):
        for seat in range(3):
            profile = [mine if s == seat else target for s in range(3)]
            assert expected_values(game, profile)[seat] <= (
                best_response(game, seat, target).value + 1e-12)


def test_nash_conv() -> None:
    game = tiny_game()
    random_conv = nash_conv(game, "random")
    assert random_conv > 0
    # Symmetric chips-only game: NashConv is the sum of the best responses' values.
    per_seat = sum(best_response(game, s, strategy_of("random")).value for s in range(3))
    assert random_conv == pytest.approx(per_seat - sum(expected_values(game, "random")))


def test_agents_that_draw_inside_a_decision_are_refused() -> None:
    with pytest.raises(ValueError, match="draws at random"):
        strategy_of("easy")


def test_bad_small_games_are_refused() -> None:
    with pytest.raises(ValueError, match="cannot deal"):
        SmallGame(deck=("As", "Ks"))
    with pytest.raises(ValueError, match="twice"):
        SmallGame(deck=("As",) * 9)


def test_exact_cli_refuses_an_agent_it_cannot_walk(capsys: pytest.CaptureFixture[str]) -> None:
    from interfaces.cli import main

    assert main(["exploit", "--exact", "--agent", "easy"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "draws at random" in err[0]
