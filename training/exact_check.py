"""The learned best response of ``teenpatti exploit`` checked against the exact one, on
the small game (:mod:`training.small_game`).

:func:`learned_best_response` trains the PPO best response ``teenpatti exploit`` trains
(from scratch, :mod:`training.selfplay`'s learner, the target in every other seat, its
settings on the batched engine but two: :data:`SMALL_GAME_PPO`) on tables of the small
game. The batched engine deals only the full deck, so the small game trains on its
compiled tables (:class:`~training.exact_tables.CompiledTables`: the engine's public tree
against the target, walked once, then stepped as arrays). Instead of a sampled measurement
on fresh deals, the trained policy's value is then computed exactly by the same tree walk
as the best response's, so the gap between the two is the learned best response's
shortfall and nothing else."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agents import PolicyAgent, make_agent
from agents.policy import NumpyPolicy
from training.config import SelfPlayConfig
from training.exact import Strategy, best_response_value, expected_values, strategy_of
from training.exact_tables import CompiledGame, CompiledTables
from training.exploit import learn_with_curve
from training.selfplay import Learner, configure_torch, new_model
from training.small_game import SmallGame

DEFAULT_BUDGET = 2_000_000
"""``teenpatti exploit``'s default budget of best-response decisions."""
SMALL_GAME_PPO: dict[str, Any] = {"epochs": 4, "ent_coef": 0.003}
"""PPO's settings for the small game where they differ from ``teenpatti exploit``'s (2
epochs, entropy 0.01): twice the passes over each rollout and a quarter of the entropy
bonus, so that the greedy policy settles within the default budget
(docs/exploitability.md)."""


@dataclass
class LearnedCheck:
    """A learned best response against ``agent`` next to the exact one."""

    agent: str
    budget_steps: int
    learned: float
    """The trained policy's exact expected win, boots per hand, one seat against
    ``agent`` in the others, averaged over the seats."""
    exact: float
    seconds: float
    curve: list[tuple[int, float]] = field(default_factory=list)

    @property
    def gap(self) -> float:
        return self.exact - self.learned

    def summary(self) -> str:
        return (f"{self.agent}: learned {self.learned:+.3f}, exact {self.exact:+.3f} boots per "
                f"hand (gap {self.gap:.3f}, {self.budget_steps:,} decisions, "
                f"{self.seconds:.0f} s)")


def policy_value(game: SmallGame, policy: NumpyPolicy | Strategy, target: Any) -> float:
    """The exact expected win of ``policy`` in one seat against ``target`` in every
    other, averaged over the seats."""
    mine = policy if isinstance(policy, Strategy) else strategy_of(PolicyAgent(policy))
    theirs = strategy_of(target)
    n = game.num_seats
    return float(np.mean([
        expected_values(game, [mine if s == seat else theirs for s in range(n)])[seat]
        for seat in range(n)
    ]))


def learned_best_response(
    game: SmallGame,
    agent: str,
    budget_steps: int = DEFAULT_BUDGET,
    seed: int = 0,
    tables: int = 1024,
    threads: int | None = None,
    checkpoints: Sequence[int] = (),
    compiled: CompiledGame | None = None,
    **settings: Any,
) -> tuple[NumpyPolicy, list[tuple[int, float]], dict[int, NumpyPolicy]]:
    """Train ``teenpatti exploit``'s default best response against ``agent`` on the small
    game for ``budget_steps`` decisions (its settings on the batched engine: ``tables``
    tables, 64 steps a rollout); the greedy policy, its training curve and its policy once
    each of ``checkpoints`` decisions was reached (by the decisions made). ``compiled``:
    the game already compiled against ``agent``. ``settings``: other
    :class:`~training.config.SelfPlayConfig` fields (default :data:`SMALL_GAME_PPO`)."""
    config = SelfPlayConfig(**{
        "timesteps": budget_steps, "seed": seed, "device": "cpu", "threads": threads,
        "self_play_share": 0.0, "exploiter_every": 0, "exploiter_table_share": 0.0,
        "uniform_table_share": 0.0, "progress": False, "anneal_lr": False, "tables": tables,
        "rollout_steps": 64, **SMALL_GAME_PPO, **settings})
    make_agent(agent, rules=game.rules)
    if compiled is None:
        compiled = CompiledGame(game, agent)
    device = configure_torch(config)
    model = new_model(config, game.rules).to(device)
    learner = Learner(model, CompiledTables(compiled, tables, seed), config, device, seed)
    snapshots: dict[int, NumpyPolicy] = {}
    pending = sorted(checkpoints)

    def snapshot(made: int) -> None:
        while pending and made >= pending[0]:
            pending.pop(0)
            snapshots[made] = model.to_numpy_policy(game.rules)

    made, curve = learn_with_curve(learner, budget_steps, config.learning_rate, snapshot)
    policy = model.to_numpy_policy(game.rules, trained_by="teenpatti exploit (small game)",
                                   target=agent, decisions=made)
    return policy, curve, snapshots


def check_learned(game: SmallGame, agent: str, budget_steps: int, seed: int = 0,
                  exact: float | None = None, **options: Any) -> LearnedCheck:
    """Learn a best response against ``agent`` and set its exact value beside the exact
    best response's (``exact``: that value when already known)."""
    started = time.perf_counter()
    policy, curve, _ = learned_best_response(game, agent, budget_steps, seed, **options)
    learned = policy_value(game, policy, agent)
    if exact is None:
        exact = best_response_value(game, agent)
    return LearnedCheck(agent, budget_steps, learned, exact, time.perf_counter() - started,
                        curve)
