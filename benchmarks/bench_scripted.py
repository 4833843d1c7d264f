"""Wall time of an arena and a best response with scripted agents on the batched engine.

    python benchmarks/bench_scripted.py [--hands 20000] [--budget-steps 2000000] [--quick]
                                        [--variant NAME]

Runs, as ``teenpatti`` would run them:

* ``teenpatti arena --agents pretrained:classic,hard,equity --table 2v2 --hands 20000
  --engine batched`` (three pairings of 20,000 duplicate hands each);
* ``teenpatti exploit --method ppo --agent equity --budget-steps 2000000`` (a best
  response trained on the batched engine against the scripted agent's batched form,
  then measured on 20,000 fresh duplicate hands).

With ``--variant NAME`` (a variant the batched engine plays) both run at that variant
with scripted agents only (``hard,equity,medium``: the shipped policy plays the classic
family), and the arena is also played per table (one process) on the same deals, with
the ratio of the two wall times; the two reports must be equal.

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
from teenpatti_env.rules import Rules
from training.exploit import approximate_exploitability


def timed(label: str, run: object) -> tuple[object, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = run()  # type: ignore[operator]
    seconds = time.perf_counter() - wall
    print(f"{label}: {seconds:.1f} s wall, {time.process_time() - cpu:.1f} s CPU",
          flush=True)
    return result, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--budget-steps", type=int, default=2_000_000)
    parser.add_argument("--quick", action="store_true", help="a tenth of each run")
    parser.add_argument("--variant", default="classic",
                        help="a variant the batched engine plays (scripted agents only, "
                             "and the arena also per table)")
    args = parser.parse_args()
    hands = args.hands // 10 if args.quick else args.hands
    budget = args.budget_steps // 10 if args.quick else args.budget_steps
    variant = args.variant
    rules = Rules(variant=variant)
    agents = (["pretrained:classic", "hard", "equity"] if variant == "classic"
              else ["hard", "equity", "medium"])
    run_arena(agents, hands=64, seed=1, table="2v2", engine="batched", rules=rules)  # warm-up
    command = (f"arena --agents {','.join(agents)} --table 2v2 --hands {hands} "
               f"--variant {variant}")
    report, batched = timed(f"{command} --engine batched",
                            lambda: run_arena(agents, hands=hands, seed=0, table="2v2",
                                              engine="batched", rules=rules))
    print(report.table())  # type: ignore[attr-defined]
    if variant != "classic":
        alone, per_table = timed(f"{command} --engine per-table --workers 1",
                                 lambda: run_arena(agents, hands=hands, seed=0, table="2v2",
                                                   engine="per_table", workers=1,
                                                   rules=rules))
        same = alone.to_dict() == report.to_dict()  # type: ignore[attr-defined]
        print(f"batched {per_table / batched:.1f} times faster than per table in one "
              f"process; the same report: {same}")
    exploit, _ = timed(f"exploit --agent equity --budget-steps {budget} --variant {variant}",
                       lambda: approximate_exploitability("equity", budget_steps=budget,
                                                          hands=hands, seed=0,
                                                          variant=variant))
    print(exploit.summary(), f"(trained on the {exploit.engine} engine)")  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
