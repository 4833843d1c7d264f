"""The small game compiled into arrays (training/exact_tables.py): the tables the learned
best response trains at show what the environment shows and pay what the engine pays,
and the arrays value a strategy as the exact walk values it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from agents import PolicyAgent, make_agent
from agents.policy import NumpyPolicy
from tests.test_exact import tiny_game
from training.config import SelfPlayConfig
from training.exact import expected_values, strategy_of
from training.exact_tables import CompiledGame, CompiledTables
from training.selfplay import new_model
from training.small_game import SmallGame, small_game_env


def network_policy(game: SmallGame, seed: int) -> NumpyPolicy:
    import torch

    torch.manual_seed(seed)
    return new_model(SelfPlayConfig(hidden=(16,)), game.rules).to_numpy_policy(game.rules)


def target_agent(name: str, game: SmallGame) -> Any:
    return PolicyAgent(network_policy(game, 7)) if name == "network" else make_agent(name)


@pytest.mark.parametrize("target", ["hard", "network"])
def test_compiled_tables_play_as_the_environment(target: str) -> None:
    """Every hand of the tiny game (each deal, each learner seat), a greedy network
    learning: the same observations, masks and result at the compiled tables as at the
    small game's environment with the target in the other seats."""
    game = tiny_game()
    compiled = CompiledGame(game, strategy_of(target_agent(target, game)))
    learner = network_policy(game, 3)
    tables = CompiledTables(compiled, 1, seed=0)
    one = np.zeros(1, np.int64)
    hands = 0
    for d, cards in enumerate(game.deals()):
        for seat in range(game.num_seats):
            step = tables.start(one, one + d, one, one + seat)
            env = small_game_env(game, [target_agent(target, game) for _ in range(2)],
                                 learner_seat=seat)
            options = {"cards": [list(c) for c in cards], "dealer": game.dealers()[0]}
            if compiled.to_act_array[tables.node[0]] < 0:  # over before the seat acts
                with pytest.raises(ValueError, match="before the learner's first decision"):
                    env.reset(seed=0, options=options)
                continue
            observation, _ = env.reset(seed=0, options=options)
            done = False
            while not done:
                assert np.array_equal(step.observations[0], observation)
                assert np.array_equal(step.action_masks[0], env.unwrapped.action_masks())
                action = learner.act(observation, step.action_masks[0])
                observation, reward, done, _, _ = env.step(action)
                step = tables.step(np.array([action]))
                assert bool(step.finished[0]) == done
            assert step.rewards[0, 0] == pytest.approx(reward)
            hands += 1
    assert hands > 6


def array_value(compiled: CompiledGame, policy: NumpyPolicy) -> float:
    """The greedy ``policy``'s expected win in one seat against the compiled target in
    the others, averaged over the seats, from the arrays alone."""
    deals = np.arange(compiled.num_deals)
    weight = 1.0 / (len(deals) * len(compiled.roots))

    def walk(node: int, reach: NDArray[np.float64], seat: int) -> float:
        acting = compiled.to_act[node]
        if acting < 0:
            return float(reach @ compiled.net[node, compiled.pattern, seat])
        rows = compiled.row(np.full(len(deals), node), deals)
        if acting == seat:
            best = policy.act_batch(compiled.observations[rows], compiled.masks[rows])
            chances = np.eye(compiled.size)[best]
        else:
            chances = compiled.target_probabilities[rows]
        return sum(walk(int(compiled.child_of[node, a]), reach * chances[:, a], seat)
                   for a in range(compiled.size) if (reach * chances[:, a]).any())

    return float(np.mean([
        sum(walk(root, np.full(len(deals), weight), seat) for root in compiled.roots)
        for seat in range(compiled.game.num_seats)]))


@pytest.mark.parametrize("target", ["random", "hard", "network"])
def test_compiled_arrays_value_a_policy_as_the_exact_walk(target: str) -> None:
    game = tiny_game()
    agent = target_agent(target, game)
    compiled = CompiledGame(game, strategy_of(agent))
    learner = network_policy(game, 5)
    mine = strategy_of(PolicyAgent(learner))
    exact = np.mean([
        expected_values(game, [mine if s == seat else strategy_of(agent) for s in range(3)])[seat]
        for seat in range(3)])
    assert array_value(compiled, learner) == pytest.approx(exact, abs=1e-12)


def test_compiled_tables_refuse_an_action_outside_the_mask() -> None:
    tables = CompiledTables(CompiledGame(tiny_game(), "random"), 4, seed=0)
    step = tables.reset()
    illegal = np.argmin(step.action_masks, axis=1)
    assert not step.action_masks[np.arange(4), illegal].any()
    with pytest.raises(ValueError, match="outside the mask"):
        tables.step(illegal)
