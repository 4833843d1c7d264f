"""Wall time of an arena and a best response with scripted agents on the batched engine.

    python benchmarks/bench_scripted.py [--hands 20000] [--budget-steps 2000000] [--quick]

Runs, as ``teenpatti`` would run them:

* ``teenpatti arena --agents pretrained:classic,hard,equity --table 2v2 --hands 20000
  --engine batched`` (three pairings of 20,000 duplicate hands each);
* ``teenpatti exploit --method ppo --agent equity --budget-steps 2000000`` (a best
  response trained on the batched engine against the scripted agent's batched form,
  then measured on 20,000 fresh duplicate hands).

It prints the wall time and the CPU time of this process for each, and the figures each
run found. ``--quick`` runs a tenth of each (a check that the script works). Wall time
counts everything else the machine runs: on a shared machine read the CPU time too. The
first call compiles (or loads from numba's cache) the kernels; a short warm-up before the
timed runs keeps that out.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from agents.arena import run_arena
from training.exploit import approximate_exploitability


def timed(label: str, run: object) -> object:
    wall, cpu = time.perf_counter(), time.process_time()
    result = run()  # type: ignore[operator]
    print(f"{label}: {time.perf_counter() - wall:.1f} s wall, "
          f"{time.process_time() - cpu:.1f} s CPU", flush=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--budget-steps", type=int, default=2_000_000)
    parser.add_argument("--quick", action="store_true", help="a tenth of each run")
    args = parser.parse_args()
    hands = args.hands // 10 if args.quick else args.hands
    budget = args.budget_steps // 10 if args.quick else args.budget_steps
    agents = ["pretrained:classic", "hard", "equity"]
    run_arena(agents, hands=64, seed=1, table="2v2", engine="batched")  # warm-up
    report = timed(f"arena --agents {','.join(agents)} --table 2v2 --hands {hands} "
                   f"--engine batched",
                   lambda: run_arena(agents, hands=hands, seed=0, table="2v2",
                                     engine="batched"))
    print(report.table())  # type: ignore[attr-defined]
    exploit = timed(f"exploit --agent equity --budget-steps {budget}",
                    lambda: approximate_exploitability("equity", budget_steps=budget,
                                                       hands=hands, seed=0))
    print(exploit.summary(), f"(trained on the {exploit.engine} engine)")  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
