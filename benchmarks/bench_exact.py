"""The learned best response of ``teenpatti exploit`` against the exact one, on the small
game (docs/exploitability.md): for ``random``, ``hard`` and a small trained policy, the
exact best-response value and the exact value of the learned best response after growing
budgets of training decisions. Prints a table and writes docs/exact_best_response.png.

    python benchmarks/bench_exact.py [--budgets 16384,65536,262144] [--seed 0]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from training.exact import best_response_value
from training.exact_check import learned_best_response, policy_value
from training.small_game import SmallGame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", default="16384,65536,262144")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--target-steps", type=int, default=16384,
                        help="decisions the trained target learns against random")
    parser.add_argument("--plot", default="docs/exact_best_response.png")
    args = parser.parse_args()
    budgets = sorted(int(b) for b in args.budgets.split(","))
    game = SmallGame()
    folder = Path(tempfile.mkdtemp())
    trained, _, _ = learned_best_response(game, "random", args.target_steps, seed=args.seed + 7)
    target_path = trained.save(folder / "target.npz")
    targets = {"random": "random", "hard": "hard", "trained policy": f"ppo:{target_path}"}
    rows: dict[str, list[tuple[int, float]]] = {}
    exact: dict[str, float] = {}
    print(f"{'target':<16}{'exact':>9}{'decisions':>12}{'learned':>10}{'gap':>8}{'share':>8}"
          f"{'s':>7}")
    for label, agent in targets.items():
        started = time.perf_counter()
        exact[label] = best_response_value(game, agent)
        _, _, snapshots = learned_best_response(game, agent, budgets[-1], seed=args.seed,
                                                checkpoints=budgets)
        rows[label] = []
        for made, policy in sorted(snapshots.items()):
            learned = policy_value(game, policy, agent)
            rows[label].append((made, learned))
            print(f"{label:<16}{exact[label]:>+9.3f}{made:>12,}{learned:>+10.3f}"
                  f"{exact[label] - learned:>8.3f}{learned / exact[label]:>8.0%}"
                  f"{time.perf_counter() - started:>7.0f}", flush=True)
    plot(rows, exact, args.plot)
    print(f"wrote {args.plot}")


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
