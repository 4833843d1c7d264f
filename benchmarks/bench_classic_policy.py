"""The shipped policy's skill on held-out seeds: head to head, the field, exploitability.

    python benchmarks/bench_classic_policy.py [--agent pretrained:classic] [--hands 20000]
                                              [--seed 2027] [--exploit-seeds 7,8,9]
                                              [--budget-steps 150000] [--exploit-hands 10000]
                                              [--threads 1] [--json]

Figures, one run each (the measurement of docs/selfplay.md's "The shipped policy"):

* the agent against each scripted agent at 2v2 and 1v3 tables, ``--hands`` duplicate hands
  per pairing on ``--seed``, with the Holm-Bonferroni adjustment over the comparisons;
* the seven-agent field (the agent and the six scripted agents), ``--hands`` hands on
  ``--seed``: every agent's result and the agent's gaps at the tables it shared;
* approximate exploitability of the agent, ``hard`` and ``equity``: a best response of
  ``--budget-steps`` decisions starting from the agent's weights, then ``--exploit-hands``
  duplicate hands, on each of ``--exploit-seeds``.

It ends with one line per claim of issue 18's "What it must show", each ``holds`` or
``does not hold``. The defaults took 803 s on the otherwise idle 2-core machine (one run).
Needs the ``train`` extra (``pip install torch==2.13.0 && pip install -e ".[train]"``).
"""

from __future__ import annotations

import argparse
import json
import time

from agents import SCRIPTED_AGENTS
from agents.arena import head_to_head, run_arena
from training.exploit import approximate_exploitability

BASELINES = ("hard", "equity")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="pretrained:classic")
    parser.add_argument("--hands", type=int, default=20_000,
                        help="duplicate hands per pairing and in the field")
    parser.add_argument("--seed", type=int, default=2027, help="the arenas' deals")
    parser.add_argument("--exploit-seeds", default="7,8,9")
    parser.add_argument("--budget-steps", type=int, default=150_000)
    parser.add_argument("--exploit-hands", type=int, default=10_000)
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--workers", type=int, default=None,
                        help="processes for the arenas (default: every core)")
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    args = parser.parse_args()
    started = time.perf_counter()
    opponents = list(SCRIPTED_AGENTS)

    pairs = head_to_head(args.agent, opponents, tables=("2v2", "1vN"), hands=args.hands,
                         seed=args.seed, workers=args.workers)
    print(pairs.table(), "\n", flush=True)
    field = run_arena([args.agent, *opponents], hands=args.hands, seed=args.seed,
                      workers=args.workers)
    print(field.table(), "\n", flush=True)

    seeds = [int(seed) for seed in args.exploit_seeds.split(",")]
    exploits = {target: [approximate_exploitability(
        target, budget_steps=args.budget_steps, hands=args.exploit_hands, seed=seed,
        threads=args.threads, workers=args.workers, start_from=args.agent)
        for seed in seeds] for target in (args.agent, *BASELINES)}
    print("Approximate exploitability (boots per hand a best response wins):")
    for target, reports in exploits.items():
        cells = ", ".join(f"seed {r.seed} {r.mean:+.3f} [{r.low:+.3f}, {r.high:+.3f}]"
                          for r in reports)
        print(f"  {target}: {cells}")

    results = {name: result.result for name, result in field.agents.items()}
    own = results[args.agent]
    claims = {
        "beats every scripted agent at 2v2 and 1v3 (whole 95% interval above zero)":
            all(row.result.low > 0 for row in pairs.rows),
        "first in the seven-agent field": all(
            own.mean > result.mean for name, result in results.items() if name != args.agent),
        "ahead of every scripted agent at the field's shared tables": all(
            gap.mean > 0 for gap in field.pairwise[args.agent].values()),
        "less exploitable than hard and equity on every seed (intervals apart)": all(
            mine.high < theirs.low for baseline in BASELINES
            for mine, theirs in zip(exploits[args.agent], exploits[baseline], strict=True)),
    }
    print()
    for claim, holds in claims.items():
        print(f"{'holds' if holds else 'does not hold'}: {claim}")
    print(f"{time.perf_counter() - started:.0f} s")
    if args.json:
        print(json.dumps({
            "head_to_head": pairs.to_dict(), "field": field.to_dict(),
            "exploitability": {target: [r.to_dict() for r in reports]
                               for target, reports in exploits.items()},
            "claims": claims,
        }))


if __name__ == "__main__":
    main()
