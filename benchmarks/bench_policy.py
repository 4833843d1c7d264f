"""The shipped agent's whole matrix on held-out seeds: every table it must beat `hard` and
`equity` at, sessions, and its exploitability next to theirs.

    python benchmarks/bench_policy.py [--agent pretrained:general] [--hands 2000]
                                      [--seed 3031] [--sessions 100]
                                      [--exploit-tables classic:3,classic:4,...]
                                      [--exploit-seed 9401] [--exploit-hands 10000]
                                      [--exploit-cache FILE] [--no-arena] [--no-exploit]
                                      [--markdown policy-matrix.md] [--json]

Figures, one run each:

* the head-to-head matrix of ``bench_general.py`` (classic at 3 to 7 seats against every
  scripted agent at 1vN and the even split; the presets, every variant, dealer's choice and
  sessions against ``hard`` and ``equity``; the head to head with ``pretrained:classic`` at
  home), ``--hands`` duplicate hands per pairing on ``--seed``, Holm over each table;
* exploitability as ``teenpatti exploit`` measures it with its default (PPO best
  responses from scratch, from the target and from ``pretrained:classic`` where they
  apply, and the searched rule strategy, then each measured on ``--exploit-hands``
  duplicate hands, one seat against copies of the target), for the agent, ``hard`` and
  ``equity`` at every table of ``--exploit-tables``, all with the same settings and seed.

It ends with one line per claim, ``holds`` or ``does not hold``. An exploitability claim
holds when the agent's best exploiter's interval lies wholly below both baselines' (its
upper end under their lower ends); the four-seat classic claim when its upper end is
under +0.3 boots per hand. ``--exploit-cache`` keeps each exploitability report in a JSON
file by target, table, seed and hands, so a rerun measures only what it lacks (the
baselines' figures do not change with the agent). ``--markdown`` writes every row, the
exploitability side by side, and the claims.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from bench_general import BASELINES, add_matrix_options, markdown, measure_matrix

EXPLOIT_TABLES = ("classic:3", "classic:4", "classic:7", "muflis:4", "joker:4",
                  "four_card:4", "shopping:4")
"""Where the agent must be harder to exploit than ``hard`` and ``equity``."""
CLASSIC_HOME_BOUND = 0.3
"""Boots per hand the best exploiter may win at four classic seats, at most."""


def exploit_report(target: str, variant: str, seats: int, args: argparse.Namespace,
                   cache: dict[str, Any]) -> dict[str, Any]:
    """``teenpatti exploit``'s report (as a dict) against ``target`` at ``variant`` with
    ``seats`` seats, from the cache where it holds one."""
    from training.best_response import best_response

    key = f"{target}|{variant}|{seats}|{args.exploit_seed}|{args.exploit_hands}"
    if key not in cache:
        report = best_response(target, players=seats, variant=variant, seed=args.exploit_seed,
                               hands=args.exploit_hands, threads=1, workers=args.workers)
        print(report.summary(), flush=True)
        cache[key] = report.to_dict()
        if args.exploit_cache:
            Path(args.exploit_cache).write_text(json.dumps(cache, indent=1) + "\n")
    return dict(cache[key])


def best_of(report: dict[str, Any]) -> dict[str, Any]:
    """The best exploiter's entry of a report."""
    return dict(max(report["exploiters"], key=lambda entry: entry["mean"]))


def exploit_matrix(agent: str, args: argparse.Namespace) -> tuple[
        dict[str, dict[str, dict[str, Any]]], dict[str, bool]]:
    """The best exploiter of the agent and of each baseline at every table, and the claims."""
    cache: dict[str, Any] = {}
    if args.exploit_cache and Path(args.exploit_cache).is_file():
        cache = json.loads(Path(args.exploit_cache).read_text())
    rows: dict[str, dict[str, dict[str, Any]]] = {}
    claims: dict[str, bool] = {}
    for table in filter(None, args.exploit_tables.split(",")):
        variant, seats = table.split(":")
        name = f"{variant}, {seats} seats"
        rows[name] = {target: best_of(exploit_report(target, variant, int(seats), args, cache))
                      for target in (agent, *BASELINES)}
        mine = rows[name][agent]
        claims[f"{name}: less exploitable than hard and equity (intervals apart)"] = all(
            mine["high"] < rows[name][baseline]["low"] for baseline in BASELINES)
        if variant == "classic" and seats == "4":
            claims[f"{name}: exploitability under +{CLASSIC_HOME_BOUND} boots per hand "
                   "(whole interval)"] = mine["high"] < CLASSIC_HOME_BOUND
    return rows, claims


def exploit_markdown(agent: str, rows: dict[str, dict[str, dict[str, Any]]]) -> str:
    """The exploitability side by side: the best exploiter's win against each target."""
    targets = (agent, *BASELINES)
    lines = ["| table | " + " | ".join(f"`{t}`" for t in targets) + " |",
             "|---|" + "---|" * len(targets)]
    for name, by_target in rows.items():
        cells = [f"{e['mean']:+.2f} [{e['low']:+.2f}, {e['high']:+.2f}] ({e['name']})"
                 for e in (by_target[t] for t in targets)]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="pretrained:general")
    add_matrix_options(parser, hands=2_000)
    parser.add_argument("--sessions", type=int, default=100,
                        help="session deals against equity (0: none)")
    parser.add_argument("--exploit-tables", default=",".join(EXPLOIT_TABLES),
                        help="comma-separated VARIANT:SEATS tables for exploitability")
    parser.add_argument("--exploit-seed", type=int, default=9401)
    parser.add_argument("--exploit-hands", type=int, default=10_000)
    parser.add_argument("--exploit-cache", default=None,
                        help="a JSON file keeping each exploitability report")
    parser.add_argument("--arena", action=argparse.BooleanOptionalAction, default=True,
                        help="measure the head-to-head matrix")
    parser.add_argument("--exploit", action=argparse.BooleanOptionalAction, default=True,
                        help="measure exploitability")
    parser.add_argument("--markdown", default=None, help="write the tables and claims here")
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    args = parser.parse_args()
    started = time.perf_counter()
    tables: dict[str, Any] = {}
    claims: dict[str, bool] = {}
    sessions = None
    if args.arena:
        tables, claims, sessions = measure_matrix(
            args.agent, hands=args.hands, seed=args.seed, workers=args.workers,
            variants=list(filter(None, args.variants.split(","))),
            classic=not args.variants_only, dealers_choice=args.dealers_choice,
            sessions=args.sessions)
    exploits: dict[str, dict[str, dict[str, Any]]] = {}
    if args.exploit:
        exploits, exploit_claims = exploit_matrix(args.agent, args)
        claims.update(exploit_claims)
        print(exploit_markdown(args.agent, exploits), flush=True)
    lines = [f"{'holds' if holds else 'does not hold'}: {claim}" for claim, holds in
             claims.items()]
    print("\n".join(lines))
    seconds = time.perf_counter() - started
    print(f"{args.agent}; {args.hands} duplicate hands per pairing on seed {args.seed}; "
          f"exploitability on seed {args.exploit_seed}, {args.exploit_hands} hands; "
          f"{seconds:.0f} s")
    if args.markdown:
        parts = [f"# `{args.agent}` on held-out seeds\n"]
        if tables:
            parts += [f"## Head to head ({args.hands} duplicate hands per pairing, seed "
                      f"{args.seed})\n", markdown(tables)]
        if sessions is not None:
            parts += ["## Sessions\n", sessions.line() + "\n"]
        if exploits:
            parts += [f"## Exploitability (seed {args.exploit_seed}, {args.exploit_hands} "
                      "hands per exploiter; the best exploiter's win, boots per hand)\n",
                      exploit_markdown(args.agent, exploits)]
        parts += ["## Claims\n", "\n".join(f"* {line}" for line in lines) + "\n"]
        Path(args.markdown).write_text("\n".join(parts))
    if args.json:
        print(json.dumps({
            "agent": args.agent, "claims": claims,
            "tables": {k: v.to_dict() for k, v in tables.items()},
            "sessions": None if sessions is None else sessions.edge.to_dict(),
            "exploitability": exploits, "seconds": seconds,
        }))


if __name__ == "__main__":
    main()
