"""The learned best response of ``teenpatti exploit`` against the exact one, on the small
game (docs/exploitability.md): for ``random``, ``hard`` and a trained policy, the exact
best-response value and the exact value of the learned best response after growing budgets
of training decisions, up to ``teenpatti exploit``'s default of 2,000,000. Prints a table
and writes docs/exact_best_response.png.

    python benchmarks/bench_exact.py [--budgets 65536,262144,1048576,2000000] [--seed 0]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from training.exact import best_response_value
from training.exact_check import (
    DEFAULT_BUDGET,
    SMALL_GAME_PPO,
    learned_best_response,
    policy_value,
)
from training.exact_tables import CompiledGame
from training.small_game import SmallGame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", default=f"65536,262144,1048576,{DEFAULT_BUDGET}")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--target-steps", type=int, default=262_144,
                        help="decisions the trained target learns against random")
    parser.add_argument("--threads", type=int, default=None, help="torch's CPU threads")
    parser.add_argument("--workers", type=int, default=3,
                        help="targets measured at once, one process each")
    parser.add_argument("--plot", default="docs/exact_best_response.png")
    args = parser.parse_args()
    budgets = sorted(int(b) for b in args.budgets.split(","))
    started = time.perf_counter()
    folder = Path(tempfile.mkdtemp())
    trained, _, _ = learned_best_response(SmallGame(), "random", args.target_steps,
                                          seed=args.seed + 7, threads=args.threads)
    target_path = trained.save(folder / "target.npz")
    targets = {"random": "random", "hard": "hard", "trained policy": f"ppo:{target_path}"}
    print(f"PPO from scratch, exploit's settings but {SMALL_GAME_PPO}; budgets {budgets}; "
          f"trained target: {args.target_steps:,} decisions against random "
          f"({time.perf_counter() - started:.0f} s)")
    print(f"{'target':<16}{'exact':>9}{'decisions':>12}{'learned':>10}{'gap':>8}{'share':>8}"
          f"{'s':>7}", flush=True)
    with ProcessPoolExecutor(args.workers) as pool:
        jobs = {label: pool.submit(measure, agent, budgets, args.seed, args.threads)
                for label, agent in targets.items()}
        results = {label: job.result() for label, job in jobs.items()}
    for label, (exact, points, seconds) in results.items():
        for made, learned in points:
            print(f"{label:<16}{exact:>+9.3f}{made:>12,}{learned:>+10.3f}"
                  f"{exact - learned:>8.3f}{learned / exact:>8.0%}{seconds:>7.0f}")
    plot({label: r[1] for label, r in results.items()},
         {label: r[0] for label, r in results.items()}, args.plot)
    print(f"wrote {args.plot} ({time.perf_counter() - started:.0f} s in all)")


def measure(agent: str, budgets: list[int], seed: int,
            threads: int | None) -> tuple[float, list[tuple[int, float]], float]:
    """The exact best response's value against ``agent``, the learned one's exact value
    at each budget, and the seconds it all took."""
    started = time.perf_counter()
    game = SmallGame()
    exact = best_response_value(game, agent)
    _, _, snapshots = learned_best_response(game, agent, budgets[-1], seed=seed,
                                            threads=threads, checkpoints=budgets,
                                            compiled=CompiledGame(game, agent))
    points = [(made, policy_value(game, policy, agent))
              for made, policy in sorted(snapshots.items())]
    return exact, points, time.perf_counter() - started


def plot(rows: dict[str, list[tuple[int, float]]], exact: dict[str, float], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(figsize=(7, 4))
    for k, (label, points) in enumerate(rows.items()):
        colour = f"C{k}"
        steps, values = zip(*points, strict=True)
        axes.plot(steps, values, "o-", color=colour, label=f"{label}: learned")
        axes.axhline(exact[label], color=colour, linestyle="--",
                     label=f"{label}: exact {exact[label]:+.2f}")
    axes.set_xscale("log")
    axes.set_xlabel("best-response training decisions")
    axes.set_ylabel("boots per hand won (exact value)")
    axes.set_title("Small game: learned best response against the exact one")
    axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    pyplot.close(figure)


if __name__ == "__main__":
    main()
