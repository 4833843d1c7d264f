"""Random masked play through the AEC API: teenpatti_v0 beside PettingZoo's no-limit hold'em.

    python benchmarks/bench_env.py [--seconds 3] [--rounds 3]

Both environments are built with their ``env()`` (PettingZoo's wrappers included) and
played by the same loop: ``last()``, a uniform draw among the mask's legal actions,
``step()``. Decisions are the steps that chose an action (a terminated agent's
``step(None)`` is not one). The two are timed in alternating rounds and the median of
each is reported, so that a noisy machine affects both alike. ``texas_holdem_no_limit_v6``
needs ``pip install "pettingzoo[classic]"``; without it only teenpatti is measured.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import teenpatti_env


def play(make: Callable[[], Any], seconds: float, seed: int = 0) -> tuple[float, float]:
    """Decisions per second and hands (episodes) per second of random masked play."""
    env = make()
    env.reset(seed=seed)
    draw = random.Random(seed).random
    decisions = hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
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
        hands += 1
    elapsed = time.perf_counter() - start
    return decisions / elapsed, hands / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per timed round")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per env")
    args = parser.parse_args()

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

    results: dict[str, list[tuple[float, float]]] = {name: [] for name in contenders}
    for _ in range(args.rounds):
        for name, make in contenders.items():
            results[name].append(play(make, args.seconds))

    print(f"{'environment':<30} {'decisions/s':>12} {'hands/s':>10}")
    medians = {}
    for name, runs in results.items():
        decisions = statistics.median(run[0] for run in runs)
        hands = statistics.median(run[1] for run in runs)
        medians[name] = decisions
        print(f"{name:<30} {decisions:>12,.0f} {hands:>10,.0f}")
    if holdem is not None:
        for name, decisions in medians.items():
            if name != holdem:
                print(f"{name}: {decisions / medians[holdem]:.2f}x the decisions/s of {holdem}")


if __name__ == "__main__":
    main()
