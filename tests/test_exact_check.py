"""The learned best response of the small game (training/exact_check.py) valued exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_exact import tiny_game
from training.config import SelfPlayConfig
from training.exact import best_response_value
from training.exact_check import learned_best_response, policy_value
from training.selfplay import configure_torch, new_model


def test_learned_best_response_does_not_copy_its_target(tmp_path: Path) -> None:
    """The failure behind the benchmark's old "+0.000": a learned best response that
    still plays as its target plays (every seat alike is worth exactly zero). Here the
    target is the learner's own first network, so copying it earns exactly 0, and the
    learned best response must earn most of what the exact one earns. (The old per-table
    path could not train on this case: "the learner got no decision in 1000 deals".)"""
    game = tiny_game()
    config = SelfPlayConfig(seed=0, device="cpu")
    configure_torch(config)  # the seed learned_best_response starts from
    first = new_model(config, game.rules).to_numpy_policy(game.rules)
    target = f"ppo:{first.save(tmp_path / 'first.npz')}"
    assert policy_value(game, first, target) == pytest.approx(0.0, abs=1e-12)
    exact = best_response_value(game, target)
    assert exact > 0.5
    learned, _, _ = learned_best_response(game, target, 65_536, seed=0, threads=1)
    assert policy_value(game, learned, target) > 0.6 * exact


def test_learned_best_response_refuses_a_bad_agent() -> None:
    with pytest.raises(ValueError):
        learned_best_response(tiny_game(), "no-such-agent", 1024)
