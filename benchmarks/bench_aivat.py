"""How much luck the arena's AIVAT estimator takes out, beyond duplicate dealing.

    python benchmarks/bench_aivat.py [--hands 20000] [--pilots 5000,20000] [--seed 0]
                                     [--quick]

Plays ``pretrained:classic`` against ``equity`` and against ``hard`` at ``2v2`` and
``1v3`` tables on the batched engine, each pairing ``--hands`` duplicate hands with AIVAT
(``teenpatti arena --variance-reduction aivat``: duplicate dealing, deals drawn by
stratum, control variates): once with the value functions shipped for the pairing (pilot
``shipped``: no pilot; the networks were fitted on seed 100 and selected on seed 200, the
linear weights and the strata's allocation fitted on seed 400, so use another ``--seed``),
then once per pilot size in ``--pilots`` with the shipped value functions set aside (the
linear value function fitted on a pilot, as for agents without a shipped one; the
pilot's hands are played on separate deals before the run). For every pairing it prints,
on the same hands, the standard error of the policy's mean (boots per hand) and the
standard deviation per hand it implies (``se * sqrt(hands)``) for three estimators:

* plain: every hand counted as if dealt independently;
* duplicate: duplicate dealing alone (the deal as the unit of sampling), on as many
  uniformly drawn deals (estimated from the stratified ones);
* aivat: duplicate dealing by stratum with the AIVAT corrections;

and the variance factors plain/duplicate, duplicate/aivat (the gain of AIVAT over
duplicate dealing alone, which issue 31 asks to be at least 4) and that gain counting
the cost: the pilot's hands (``duplicate/aivat * hands / (hands + pilot)``). A shipped
network's expectation is estimated by Monte Carlo; that error (``mc se``, the standard
error of the policy's mean correction due to the Monte Carlo) is part of the reported
AIVAT error, as the strata's estimated shares are.
Then it plays each pairing once more with duplicate dealing alone (uniform deals, the
same seed and number of hands) and prints that run's standard error and its variance over
the shipped row's: duplicate/aivat measured against a played run rather than estimated.
``--quick`` plays a tenth of the hands (a check that the script works).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from agents.arena import aivat, aivat_net, aivat_values, head_to_head
from agents.arena.aivat_net import net_corrections


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
    pilots: list[int | None] = [None, *(int(text) // scale for text in args.pilots.split(",")
                                         if text.strip())]
    shipped, linear = aivat_net.shipped_net, aivat_values.linear_model
    print(f"pretrained:classic against equity and hard, {hands} hands per pairing, seed "
          f"{args.seed}, batched engine; standard errors in boots per hand, sd = se * "
          "sqrt(hands)\n")
    header = (f"{'opponent':<8} {'table':<5} {'pilot':>7} {'mean':>7} {'plain se':>9} "
              f"{'dup se':>8} {'aivat se':>9} {'plain sd':>9} {'dup sd':>8} "
              f"{'aivat sd':>9} {'plain/dup':>9} {'dup/aivat':>9} {'mc se':>7} {'w/ cost':>8} "
              f"{'time':>6}")
    print(header)
    shipped_errors: dict[tuple[str, str], float] = {}
    for pilot in pilots:
        # with a pilot size, the shipped networks are set aside: the pilot's linear fit
        aivat_net.shipped_net = shipped if pilot is None else (lambda *args: None)
        aivat_values.linear_model = linear if pilot is None else (lambda *args: None)
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
                config, mc = row.report.config, 0.0
                net = aivat_net.value_net(config)
                if pilot is None and net is not None and row.report.deals is not None:
                    mc = float(net_corrections(net, *aivat.dealt_cards(config),
                                               row.report.deals.agent,
                                               aivat_net.monte_carlo_seed(config)).mc_std_error[0])
                played = row.report.pilot  # None: the shipped network, no pilot
                # a shipped network's Monte Carlo error is already in the reported error
                cost = hands / (hands + played.hands) if played is not None else 1.0
                label = "shipped" if played is None else str(played.hands)
                if pilot is None:
                    shipped_errors[table, opponent] = errors[2]
                print(f"{opponent:<8} {row.table:<5} {label:>7} {row.mean:>+7.3f} "
                      + " ".join(f"{e:>{w}.4f}" for e, w in zip(errors, (9, 8, 9),
                                                               strict=True))
                      + " " + " ".join(f"{e * math.sqrt(seats):>{w}.3f}"
                                       for e, w in zip(errors, (9, 8, 9), strict=True))
                      + f" {plain_dup:>9.2f} {gain:>9.2f} {mc:>7.4f} "
                      f"{gain * cost:>8.2f} "
                      f"{time.perf_counter() - start:>5.0f}s", flush=True)
    aivat_net.shipped_net, aivat_values.linear_model = shipped, linear
    print("\nduplicate dealing alone, played: the same number of hands on the same seed with "
          "--variance-reduction duplicate (uniform deals), against the shipped row above")
    print(f"{'opponent':<8} {'table':<5} {'mean':>7} {'dup se':>8} {'dup/aivat':>9}")
    for (table, opponent), aivat_error in shipped_errors.items():
        report = head_to_head("pretrained:classic", [opponent], tables=(table,),
                              hands=hands, seed=args.seed, engine="batched",
                              variance_reduction="duplicate")
        row = report.rows[0]
        error = row.report.agents[row.agent].result.std_error
        print(f"{opponent:<8} {row.table:<5} {row.mean:>+7.3f} {error:>8.4f} "
              f"{(error / aivat_error) ** 2:>9.2f}", flush=True)


if __name__ == "__main__":
    main()
