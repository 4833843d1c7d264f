"""Random masked play through the AEC API: teenpatti_v0 beside PettingZoo's no-limit hold'em.

    python benchmarks/bench_env.py [--seconds 3] [--rounds 3]

Both environments are built with their ``env()`` (PettingZoo's wrappers included) and
played by the same loop: ``last()``, a uniform draw among the mask's legal actions,
``step()``. Decisions are the steps that chose an action (a terminated agent's
``step(None)`` is not one). The two are timed in alternating rounds and the median of
each is reported, so that a noisy machine affects both alike; the time is this process's
CPU time, so that other processes on a shared machine do not count. ``texas_holdem_no_limit_v6``
needs ``pip install "pettingzoo[classic]"``; without it only teenpatti is measured.

Two reference rows show what the wrappers alone cost: an AEC environment that does
nothing (constant observation, eleven decisions a hand like a random teenpatti hand)
inside PettingZoo's unmodified classic-game wrappers, and inside the ones ``env()`` uses
(the same classes, reading per-step attributes directly).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import teenpatti_env
from teenpatti_env.environment import aec


class Idle(AECEnv):  # type: ignore[misc]
    """Four agents, a constant observation, every action legal, eleven decisions a hand."""

    metadata = {"name": "idle_v0", "is_parallelizable": False, "render_modes": []}  # noqa: RUF012

    def __init__(self, decisions: int = 11) -> None:
        self.possible_agents = [f"player_{i}" for i in range(4)]
        self.decisions = decisions
        self._observation = {
            "observation": np.zeros(277, dtype=np.float32),
            "action_mask": np.ones(10, dtype=np.int8),
        }
        self._spaces = {agent: aec.ActionSpace(10) for agent in self.possible_agents}

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._spaces[agent]

    def observation_space(self, agent: str) -> None:
        return None

    def observe(self, agent: str) -> dict[str, Any]:
        return self._observation

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]
        self._made = 0

    def step(self, action: Any) -> None:
        if self.terminations[self.agent_selection]:
            self._was_dead_step(action)
            return
        self._made += 1
        self._cumulative_rewards[self.agent_selection] = 0
        self._clear_rewards()
        if self._made >= self.decisions:
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.possible_agents[self._made % 4]
        self._accumulate_rewards()
        self._deads_step_first()


def idle(direct: bool) -> Any:
    """The do-nothing environment in the classic-game wrappers (``direct``: env()'s)."""
    kinds = (
        (aec.TerminateIllegalWrapper, aec.AssertOutOfBoundsWrapper, aec.OrderEnforcingWrapper)
        if direct
        else (
            wrappers.TerminateIllegalWrapper,
            wrappers.AssertOutOfBoundsWrapper,
            wrappers.OrderEnforcingWrapper,
        )
    )
    environment: Any = kinds[0](Idle(), illegal_reward=-1)
    return kinds[2](kinds[1](environment))


def play(make: Callable[[], Any], seconds: float, seed: int = 0) -> tuple[float, float, float]:
    """Decisions, agent steps (``step(None)`` of finished agents included) and hands
    (episodes) per second of random masked play."""
    env = make()
    env.reset(seed=seed)
    draw = random.Random(seed).random
    decisions = steps = hands = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        env.reset()
        for _agent in env.agent_iter():
            observation, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = observation["action_mask"].nonzero()[0]
                action = int(legal[int(draw() * len(legal))])
                decisions += 1
            env.step(action)
            steps += 1
        hands += 1
    elapsed = time.process_time() - start
    return decisions / elapsed, steps / elapsed, hands / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per timed round")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per env")
    parser.add_argument(
        "--variants",
        action="store_true",
        help="time every named variant of VARIANTS.md (classic rules otherwise) instead",
    )
    args = parser.parse_args()
    if args.variants:
        variants(args)
        return

    contenders: dict[str, Callable[[], Any]] = {
        f"teenpatti_v0 ({preset})": lambda preset=preset: teenpatti_env.env(rules=preset)
        for preset in teenpatti_env.PRESETS
    }
    try:
        from pettingzoo.classic import texas_holdem_no_limit_v6
    except ImportError:
        holdem = None
        print("texas_holdem_no_limit_v6 not installed: pip install 'pettingzoo[classic]'")
    else:
        holdem = "texas_holdem_no_limit_v6"
        contenders[holdem] = texas_holdem_no_limit_v6.env

    contenders["(wrappers around a do-nothing env)"] = lambda: idle(direct=False)
    contenders["(env()'s wrappers, do-nothing env)"] = lambda: idle(direct=True)
    results: dict[str, list[tuple[float, float, float]]] = {name: [] for name in contenders}
    for _ in range(args.rounds):
        for name, make in contenders.items():
            results[name].append(play(make, args.seconds))

    print(f"{'environment':<36} {'decisions/s':>12} {'steps/s':>10} {'hands/s':>10}")
    medians = {}
    for name, runs in results.items():
        decisions, steps, hands = (statistics.median(run[i] for run in runs) for i in range(3))
        medians[name] = decisions
        print(f"{name:<36} {decisions:>12,.0f} {steps:>10,.0f} {hands:>10,.0f}")
    if holdem is not None:
        for name, decisions in medians.items():
            if name != holdem and not name.startswith("("):
                print(f"{name}: {decisions / medians[holdem]:.2f}x the decisions/s of {holdem}")


def variants(args: argparse.Namespace) -> None:
    """Random play through ``env()`` in every named variant, in alternating rounds."""
    contenders = {
        name: lambda name=name: teenpatti_env.env(rules=teenpatti_env.Rules(variant=name))
        for name in teenpatti_env.VARIANTS
    }
    results: dict[str, list[tuple[float, float, float]]] = {name: [] for name in contenders}
    for _ in range(args.rounds):
        for name, make in contenders.items():
            results[name].append(play(make, args.seconds))
    print(f"{'variant':<24} {'decisions/s':>12} {'steps/s':>10} {'hands/s':>10}")
    for name, runs in results.items():
        decisions, steps, hands = (statistics.median(run[i] for run in runs) for i in range(3))
        print(f"{name:<24} {decisions:>12,.0f} {steps:>10,.0f} {hands:>10,.0f}")


if __name__ == "__main__":
    main()
