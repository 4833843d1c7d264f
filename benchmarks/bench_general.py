"""A general policy (``teenpatti-policy/2``) at every seat count and preset, on held-out
seeds: the measurement of docs/selfplay.md's "The general policy".

    python benchmarks/bench_general.py [--agent ppo:PATH | --train DECISIONS]
                                       [--hands 4000] [--seed 3031] [--workers 2]
                                       [--markdown FILE] [--json]

``--train`` first trains one from scratch (``teenpatti selfplay --table-mix general`` with
``--timesteps DECISIONS --threads 1``, into ``--out``) and measures it; else ``--agent``
names the policy (default ``pretrained:general``).

Figures, one run each, every pairing its own duplicate arena of ``--hands`` hands on
``--seed`` (a seed no training run deals from: the trainer's tables draw their deals from
the run's seed through ``numpy.random.SeedSequence``), with the Holm-Bonferroni adjustment
over the comparisons of each table:

* classic at 3, 4, 5, 6 and 7 seats: against every scripted agent (``random``, ``auto``,
  ``easy``, ``medium``, ``hard``, ``equity``) one against the rest (1vN) and at the even
  split (ceil(n/2) seats against floor(n/2));
* ``pagat``, ``flash`` and ``tabletop`` at four seats: against ``hard`` and ``equity`` at
  2v2 and 1v3;
* classic at four seats: against ``pretrained:classic`` at 2v2 (no step back at home);
* every variant (``--variants``, default all 23) at four seats: against ``hard`` and
  ``equity`` at 2v2 and 1v3; ``muflis``, ``joker``, ``four_card``, ``shopping`` and
  ``passing_cards`` also at three and seven seats (1vN). A variant the policy cannot sit
  at is a claim that does not hold, with the reason;
* dealer's choice of all 24 variants at four seats (``--dealers-choice``, on by default):
  against ``hard`` and ``equity`` at 2v2 and 1v3 (played per table: the dealer's choice
  of the scripted seats is theirs, the policy's its own);
* sessions: ``--sessions`` session deals of up to 100 hands at four classic seats against
  three ``equity`` seats, each deal played with the policy in every seat
  (:func:`agents.arena.sessions.session_match`): its chips at the end beyond the mean
  ``equity`` seat's.

It ends with one line per claim, ``holds`` or ``does not hold``: a "beats" claim holds when
every row's whole 95% interval is above zero and the edge is significant after Holm; "no
step back" holds when the interval is not wholly below zero.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agents import make_agent
from agents.arena import head_to_head
from agents.arena.pairings import HeadToHeadReport
from agents.arena.sessions import session_match
from teenpatti_env.rules import Rules
from teenpatti_env.rules.variants import VARIANTS

BASELINES = ("hard", "equity")
SCRIPTED = ("random", "auto", "easy", "medium", "hard", "equity")
"""Every scripted agent: the classic seat counts' opponents."""
PRESETS = ("pagat", "flash", "tabletop")
CLASSIC_SEATS = (3, 4, 5, 6, 7)
HOME = "pretrained:classic"
VARIANT_SEATS = {name: (3, 7) for name in ("muflis", "joker", "four_card", "shopping",
                                           "passing_cards")}
"""Variants measured at other seat counts than four too (1vN)."""


def even_split(seats: int) -> str:
    """The even-split composition of ``seats`` seats: ceil(n/2) against floor(n/2)."""
    return f"{math.ceil(seats / 2)}v{seats // 2}"


def train(decisions: int, out: str, seed: int) -> str:
    """Train a general policy from scratch; its agent spec."""
    from training.config import SelfPlayConfig
    from training.selfplay import train_selfplay

    config = SelfPlayConfig(table_mix="general", timesteps=decisions, out=out, seed=seed,
                            threads=1, exploiter_every=0)
    result = train_selfplay(config, say=print)
    print(f"trained {result.decisions:,} decisions in {result.seconds:.0f} s "
          f"({result.steps_per_second:,.0f} learner steps/s)", flush=True)
    return f"ppo:{result.out / 'policy.npz'}"


def beats(report: HeadToHeadReport) -> bool:
    """Every row's whole interval above zero, significant after Holm."""
    return all(row.low > 0 and row.significant for row in report.rows)


def p_text(p: float) -> str:
    """A p-value in two digits (below 1e-15: ``<1e-15``, the float's floor)."""
    return "<1e-15" if p < 1e-15 else f"{p:.2g}"


def markdown(tables: dict[str, HeadToHeadReport]) -> str:
    """One markdown row per comparison."""
    lines = ["| table | composition | opponent | boots per hand | 95% interval | Holm p |",
             "|---|---|---|---:|---|---:|"]
    for name, report in tables.items():
        for row in report.rows:
            lines.append(f"| {name} | {row.table} | {row.opponent} | {row.mean:+.3f} | "
                         f"[{row.low:+.3f}, {row.high:+.3f}] | {p_text(row.adjusted_p_value)} |")
    return "\n".join(lines) + "\n"


def measure_matrix(agent: str, *, hands: int, seed: int, workers: int | None,
                   variants: list[str], classic: bool = True, dealers_choice: bool = True,
                   sessions: int = 0, session_seed: int | None = None,
                   classic_seats: Sequence[int] = CLASSIC_SEATS,
                   presets: Sequence[str] = PRESETS,
                   ) -> tuple[dict[str, HeadToHeadReport], dict[str, bool], Any]:
    """Every head-to-head table of the matrix (the module's docstring), printed as it is
    played: the reports by table, one ``holds`` flag per claim, and the session match
    (``None`` with ``sessions=0``), dealt from ``session_seed`` (default ``seed``). With
    ``classic``, the classic tables of ``classic_seats`` and the ``presets`` (the head to
    head at home with four seats among them); without it, none of them."""
    tables: dict[str, HeadToHeadReport] = {}
    claims: dict[str, bool] = {}

    def measure(name: str, rules: str | Rules, seats: int, compositions: tuple[str, ...],
                opponents: tuple[str, ...]) -> HeadToHeadReport:
        report = head_to_head(agent, opponents, tables=compositions, hands=hands,
                              rules=rules, players=seats, seed=seed, workers=workers)
        print(f"{name}:\n{report.table()}\n", flush=True)
        tables[name] = report
        return report

    for seats in classic_seats if classic else ():
        report = measure(f"classic, {seats} seats", "classic", seats,
                         ("1vN", even_split(seats)), SCRIPTED)
        claims[f"classic at {seats} seats: beats every scripted agent at 1v{seats - 1} and "
               f"{even_split(seats)}"] = beats(report)
    for preset in presets if classic else ():
        report = measure(f"{preset}, 4 seats", preset, 4, ("2v2", "1vN"), BASELINES)
        claims[f"{preset} at 4 seats: beats hard and equity at 2v2 and 1v3"] = beats(report)
    if classic and 4 in classic_seats:
        home = measure("classic, 4 seats, against the shipped classic policy", "classic", 4,
                       ("2v2",), (HOME,))
        claims[f"classic at 4 seats: at least as strong as {HOME} at 2v2 (interval not "
               "wholly below zero)"] = all(row.high >= 0 for row in home.rows)
    player = make_agent(agent)
    for variant in variants:
        for seats in (4, *VARIANT_SEATS.get(variant, ())):
            rules = Rules.preset("classic", variant=variant, num_players=seats)
            compositions = ("2v2", "1vN") if seats == 4 else ("1vN",)
            claim = (f"{variant} at {seats} seats: beats hard and equity at "
                     f"{' and '.join(compositions).replace('N', str(seats - 1))}")
            try:
                player.check_rules(rules)
            except ValueError as error:
                print(f"{variant}, {seats} seats: not measured ({error})", flush=True)
                claims[claim] = False
                continue
            claims[claim] = beats(measure(f"{variant}, {seats} seats", rules, seats,
                                          compositions, BASELINES))

    if dealers_choice:
        rules = Rules(num_players=4, dealers_choice=list(VARIANTS))
        claim = ("dealer's choice of the 24 variants at 4 seats: beats hard and equity at "
                 "2v2 and 1v3")
        try:
            player.check_rules(rules)
        except ValueError as error:
            print(f"dealer's choice: not measured ({error})", flush=True)
            claims[claim] = False
        else:
            claims[claim] = beats(measure("dealer's choice, 4 seats", rules, 4, ("2v2", "1vN"),
                                          BASELINES))

    match = None
    if sessions:
        match = session_match(agent, "equity", sessions=sessions, hands=100, players=4,
                              seed=seed if session_seed is None else session_seed,
                              workers=workers)
        print(match.line(), flush=True)
        claims["sessions of 100 hands at 4 seats: more chips at the end than the mean "
               "equity seat"] = match.edge.low > 0
    return tables, claims, match


def add_matrix_options(parser: argparse.ArgumentParser, hands: int) -> None:
    """The options of the head-to-head matrix (shared with ``bench_policy.py``)."""
    parser.add_argument("--hands", type=int, default=hands, help="duplicate hands per pairing")
    parser.add_argument("--seed", type=int, default=3031, help="the arenas' deals")
    parser.add_argument("--workers", type=int, default=None,
                        help="processes for the arenas (default: every core)")
    parser.add_argument("--variants", default=",".join(v for v in VARIANTS if v != "classic"),
                        help="comma-separated variants to measure ('' for none)")
    parser.add_argument("--variants-only", action="store_true",
                        help="measure the variants alone (no classic seat counts, presets or "
                             "home claim)")
    parser.add_argument("--dealers-choice", action=argparse.BooleanOptionalAction,
                        default=True, help="measure a dealer's choice of all 24 variants")
    parser.add_argument("--classic-seats", default=",".join(map(str, CLASSIC_SEATS)),
                        help="comma-separated classic seat counts to measure ('' for none; "
                             "the head to head at home with 4)")
    parser.add_argument("--presets", default=",".join(PRESETS),
                        help="comma-separated presets to measure at four seats ('' for none)")


def matrix_tables(args: argparse.Namespace) -> dict[str, Any]:
    """:func:`measure_matrix`'s table options from the options of :func:`add_matrix_options`."""
    presets = list(filter(None, args.presets.split(",")))
    for preset in presets:
        if preset not in PRESETS:
            raise SystemExit(f"--presets: {preset!r} is not one of {', '.join(PRESETS)}")
    try:
        seats = [int(text) for text in filter(None, args.classic_seats.split(","))]
    except ValueError:
        raise SystemExit(f"--classic-seats: {args.classic_seats!r} is not a list of "
                         "seat counts") from None
    if any(n not in CLASSIC_SEATS for n in seats):
        raise SystemExit(f"--classic-seats: seat counts are 3 to 7, got {args.classic_seats!r}")
    return {"variants": list(filter(None, args.variants.split(","))),
            "classic": not args.variants_only, "dealers_choice": args.dealers_choice,
            "classic_seats": seats, "presets": presets}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="pretrained:general")
    parser.add_argument("--train", type=int, default=None, metavar="DECISIONS",
                        help="train a general policy of this many decisions first")
    parser.add_argument("--out", default="training-runs/general", help="--train's folder")
    parser.add_argument("--train-seed", type=int, default=0)
    add_matrix_options(parser, hands=4_000)
    parser.add_argument("--sessions", type=int, default=200,
                        help="session deals against equity (0: none)")
    parser.add_argument("--markdown", default=None, help="also write the rows to this file")
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    args = parser.parse_args()
    started = time.perf_counter()
    agent = args.agent if args.train is None else train(args.train, args.out, args.train_seed)
    tables, claims, sessions = measure_matrix(
        agent, hands=args.hands, seed=args.seed, workers=args.workers,
        sessions=args.sessions, **matrix_tables(args))
    for claim, holds in claims.items():
        print(f"{'holds' if holds else 'does not hold'}: {claim}")
    print(f"{agent}; {args.hands} duplicate hands per pairing on seed {args.seed}; "
          f"{time.perf_counter() - started:.0f} s")
    if args.markdown:
        Path(args.markdown).write_text(markdown(tables))
    if args.json:
        summary: dict[str, Any] = {"agent": agent, "claims": claims,
                                   "tables": {k: v.to_dict() for k, v in tables.items()},
                                   "sessions": None if sessions is None
                                   else sessions.edge.to_dict()}
        print(json.dumps(summary))


if __name__ == "__main__":
    main()
