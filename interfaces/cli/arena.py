"""``teenpatti arena`` (agents head to head with duplicate dealing) and ``teenpatti
leaderboard`` (every agent against every other, one rating each)."""

from __future__ import annotations

import argparse
import os
from typing import Any

from interfaces.cli.common import (
    CommandError,
    add_command,
    add_rules_options,
    non_negative_int,
    positive_int,
    positive_seconds,
    variant_spec,
    writable_folder,
)
from teenpatti_env.rules import Rules


def _variance_reduction(args: argparse.Namespace, rules: Rules, remote: bool) -> str:
    """The estimator asked for: ``--variance-reduction``, ``none`` with
    ``--independent``, else AIVAT on duplicate dealing where it covers the rules and no
    remote bot plays (its pilot is played by local agents only)."""
    from agents.arena.aivat import supported

    asked = args.variance_reduction
    if args.independent:
        if asked not in (None, "none"):
            raise CommandError(f"--independent deals without duplicate dealing: it cannot go "
                               f"with --variance-reduction {asked}")
        return "none"
    if asked is not None:
        return str(asked)
    return "aivat" if supported(rules) and not remote else "duplicate"


def _command_arena(args: argparse.Namespace) -> None:
    from agents.arena import run_arena
    from interfaces.players import ArenaSeats, is_remote

    names = [name.strip() for name in args.agents.split(",") if name.strip()]
    json_path = os.path.join(args.out, "arena.json")
    plot_path = os.path.join(args.out, "arena.png")
    markdown_path = os.path.join(args.out, "arena.md")
    writable_folder(args.out)  # find an unwritable folder before playing, not after
    remote = any(is_remote(name) for name in names)
    try:
        rules = Rules.preset(args.preset, variant=variant_spec(args.variant))
        start = {"rules": rules.to_dict(), "hands": args.hands, "seed": args.seed}
        # a transcript of the remote bots' requests and answers and every hand's history
        with ArenaSeats(names, args.time_limit, args.out if remote else None, start,
                        send_clock=not args.no_clock) as seats:
            report = run_arena(
                names,
                hands=args.hands,
                rules=rules,
                seed=args.seed,
                players=args.players,
                variance_reduction=_variance_reduction(args, rules, remote),
                pilot_hands=args.pilot_hands,
                compare_plain=args.compare_plain,
                workers=args.workers,
                progress=not args.quiet,
                engine=args.engine.replace("-", "_"),
                ray_address=args.ray,
                table=args.table,
                seats=seats,
            )
    except ValueError as error:
        raise CommandError(str(error)) from error
    except OSError as error:
        raise CommandError(f"cannot write the transcript: {error.strerror or error}") from error
    print(report.table())
    try:
        report.to_json(json_path)
        report.plot(plot_path)
        with open(markdown_path, "w", encoding="utf-8") as out:
            out.write(f"# Arena report\n\n```\n{report.table()}\n```\n")
    except OSError as error:
        raise CommandError(f"cannot write to {args.out}: {error.strerror or error}") from error
    print(f"\nwrote {markdown_path}, {json_path} and {plot_path}")


def _command_leaderboard(args: argparse.Namespace) -> None:
    from agents.leaderboard import default_agents, run_leaderboard

    names = (default_agents() if args.agents is None
             else [name.strip() for name in args.agents.split(",") if name.strip()])
    writable_folder(args.out)
    try:
        board = run_leaderboard(
            names, hands=args.hands,
            tables=[text.strip() for text in args.tables.split(",") if text.strip()],
            rules=Rules.preset(args.preset, variant=variant_spec(args.variant)),
            seed=args.seed, players=args.players, bootstrap=args.bootstrap,
            workers=args.workers, progress=not args.quiet,
            engine=args.engine.replace("-", "_"),
        )
    except ValueError as error:
        raise CommandError(str(error)) from error
    print(board.markdown())
    try:
        paths = board.write(args.out)
    except OSError as error:
        raise CommandError(f"cannot write to {args.out}: {error.strerror or error}") from error
    print(f"\nwrote {', '.join(str(path) for path in paths)}")


def add_parsers(commands: Any) -> None:
    """``arena`` and ``leaderboard``."""
    arena = add_command(
        commands, "arena",
        "play agents head to head with duplicate dealing and report their skill",
    )
    arena.add_argument(
        "--agents",
        default="random,auto,easy,medium,hard,equity",
        help="comma-separated agents: scripted agent names, ppo:PATH (an exported policy), "
             "pretrained:NAME, and remote bots http://HOST:PORT or stdio:COMMAND (played on "
             "the per-table engine in one process; their transcript goes to --out)",
    )
    arena.add_argument("--time-limit", type=positive_seconds, default=5.0,
                       help="seconds a remote bot has per turn")
    arena.add_argument("--no-clock", action="store_true",
                       help="send remote bots no clock field (for bots written before it)")
    arena.add_argument("--hands", type=positive_int, default=20_000,
                       help="hands in total, rounded up to whole deals")
    add_rules_options(arena, players="seats per table, 3..7 (default: the preset's)")
    arena.add_argument("--seed", type=non_negative_int, default=0,
                       help="seeds every deal and agent: the same seed gives the same report, "
                            "whatever the number of workers")
    arena.add_argument(
        "--workers", type=positive_int, default=None, help="processes (default: every core)"
    )
    arena.add_argument(
        "--ray", nargs="?", const="", default=None, metavar="ADDRESS",
        help="play the deals as Ray tasks on the cluster at ADDRESS (without one: the "
             "cluster Ray finds, else a new local instance); needs the ray extra",
    )
    arena.add_argument(
        "--independent", action="store_true",
        help="independent deals, no duplicate dealing (--variance-reduction none)"
    )
    arena.add_argument(
        "--variance-reduction", choices=("none", "duplicate", "aivat"), default=None,
        help="how luck is taken out: none (independent deals), duplicate (duplicate "
             "dealing), aivat (duplicate dealing and control variates on the deal, fitted on "
             "a pilot of separate deals; classic-family rules). Default: aivat where the "
             "rules allow it, else duplicate",
    )
    arena.add_argument(
        "--pilot-hands", type=positive_int, default=None,
        help="hands of the aivat pilot, played on separate deals before the run (default: "
             "a quarter of --hands; none where a value network is shipped for the pairing)",
    )
    arena.add_argument(
        "--compare-plain",
        action="store_true",
        help="also play as many hands on independent deals, to measure the variance saved",
    )
    arena.add_argument(
        "--engine",
        choices=("auto", "batched", "per-table"),
        default="auto",
        help="batched: every hand on the batched engine (the classic family and every "
        "variant without a selection phase, buying, thresholds or rotating jokers; the "
        "scripted agents and trained policies); per-table: through the environment; auto: "
        "batched when it can. "
        "Both give the same report for the same seed",
    )
    arena.add_argument(
        "--table", default="field", metavar="COMPOSITION",
        help="who sits at each table: field (a lineup drawn from the agents for every "
             "deal); 2v2 (two seats each of two agents, four seats; every pair of agents, "
             "each pair its own arena of --hands hands); 1vN (one seat of an agent against "
             "copies of another in every other seat; every ordered pair); AvB (A seats "
             "against B, A + B = --players). Pairs are reported with a Holm-Bonferroni "
             "adjustment over their number",
    )
    arena.add_argument("--out", default="arena-results",
                       help="folder for arena.json/md/png (and, with remote bots, "
                            "transcript.jsonl and hands/)")
    arena.add_argument("--quiet", action="store_true", help="no progress bar")
    arena.set_defaults(run=_command_arena)

    board = add_command(
        commands, "leaderboard",
        "play every agent against every other at 2v2 and 1vN tables and rate them on one "
        "scale",
    )
    board.add_argument("--agents", default=None,
                       help="comma-separated agents (default: every scripted agent and every "
                            "shipped policy)")
    board.add_argument("--hands", type=positive_int, default=2_000,
                       help="hands per pairing, rounded up to whole deals")
    board.add_argument("--tables", default="2v2,1vN",
                       help="comma-separated pair compositions (2v2, 1vN, AvB)")
    add_rules_options(board, players="seats per table, 3..7 (default: the preset's)")
    board.add_argument("--seed", type=non_negative_int, default=0,
                       help="seeds every deal, agent and bootstrap draw")
    board.add_argument("--bootstrap", type=positive_int, default=200,
                       help="bootstrap draws over deals for the intervals")
    board.add_argument("--workers", type=positive_int, default=1,
                       help="processes for the per-table pairings (default 1)")
    board.add_argument("--engine", choices=("auto", "batched", "per-table"), default="auto",
                       help="as for arena")
    board.add_argument("--out", default="leaderboard-results",
                       help="folder for leaderboard.md/json/png")
    board.add_argument("--quiet", action="store_true", help="no progress bar")
    board.set_defaults(run=_command_leaderboard)
