"""How much luck the arena's AIVAT estimator takes out, beyond duplicate dealing.

    python benchmarks/bench_aivat.py [--hands 20000] [--pilots 5000,20000] [--seed 0]
                                     [--quick]

Plays ``pretrained:classic`` against ``equity`` and against ``hard`` at ``2v2`` and
``1v3`` tables on the batched engine, each pairing ``--hands`` duplicate hands with AIVAT
(``teenpatti arena --variance-reduction aivat``), once per pilot size in ``--pilots``
(the pilot's hands are played on separate deals before the run; the default pilot is a
quarter of the run). For every pairing it prints, on the same hands, the standard error
of the policy's mean (boots per hand) and the standard deviation per hand it implies
(``se * sqrt(hands)``) for three estimators:

* plain: every hand counted as if dealt independently;
* duplicate: duplicate dealing alone (the deal as the unit of sampling);
* aivat: duplicate dealing with the AIVAT corrections;

and the variance factors plain/duplicate, duplicate/aivat (the gain of AIVAT over
duplicate dealing alone, which issue 31 asks to be at least 4) and that gain counting
the pilot's hands as a cost (``duplicate/aivat * hands / (hands + pilot)``).
``--quick`` plays a tenth of the hands (a check that the script works).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from agents.arena import head_to_head


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--pilots", default="5000,20000",
                        help="comma-separated pilot sizes in hands")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="a tenth of the hands")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    hands = args.hands // scale
    pilots = [int(text) // scale for text in args.pilots.split(",") if text.strip()]
    print(f"pretrained:classic against equity and hard, {hands} hands per pairing, seed "
          f"{args.seed}, batched engine; standard errors in boots per hand, sd = se * "
          "sqrt(hands)\n")
    header = (f"{'opponent':<8} {'table':<5} {'pilot':>6} {'mean':>7} {'plain se':>9} "
              f"{'dup se':>8} {'aivat se':>9} {'plain sd':>9} {'dup sd':>8} "
              f"{'aivat sd':>9} {'plain/dup':>9} {'dup/aivat':>9} {'w/ pilot':>8} "
              f"{'time':>6}")
    print(header)
    for pilot in pilots:
        for table in ("2v2", "1vN"):
            for opponent in ("equity", "hard"):
                start = time.perf_counter()
                report = head_to_head("pretrained:classic", [opponent], tables=(table,),
                                      hands=hands, seed=args.seed, engine="batched",
                                      variance_reduction="aivat", pilot_hands=pilot)
                row = report.rows[0]
                result = row.report.agents[row.agent]
                assert result.uncorrected is not None
                seats = result.result.hands  # hands the policy held
                errors = (result.independent_std_error, result.uncorrected.std_error,
                          result.result.std_error)
                plain_dup = (errors[0] / errors[1]) ** 2
                gain = (errors[1] / errors[2]) ** 2
                print(f"{opponent:<8} {row.table:<5} {pilot:>6} {row.mean:>+7.3f} "
                      + " ".join(f"{e:>{w}.4f}" for e, w in zip(errors, (9, 8, 9),
                                                               strict=True))
                      + " " + " ".join(f"{e * math.sqrt(seats):>{w}.3f}"
                                       for e, w in zip(errors, (9, 8, 9), strict=True))
                      + f" {plain_dup:>9.2f} {gain:>9.2f} "
                      f"{gain * hands / (hands + pilot):>8.2f} "
                      f"{time.perf_counter() - start:>5.0f}s", flush=True)


if __name__ == "__main__":
    main()
