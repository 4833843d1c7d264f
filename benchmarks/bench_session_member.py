"""A policy trained on sessions (``teenpatti selfplay --episode session``) next to
``pretrained:classic``: the measurement of docs/selfplay.md's "Training on sessions".

    python benchmarks/bench_session_member.py --agent ppo:PATH [--sessions 100]
                                              [--hands 2000] [--seed 99] [--workers 1]

Figures, one run each, all at four classic seats on ``--seed`` (a seed the trainer's tables
never deal from; not the held-out 3031 of ``bench_general.py``):

* sessions: ``--sessions`` session deals of up to 100 hands against three ``equity``
  seats, each deal played with the policy in every seat
  (:func:`agents.arena.sessions.session_match`, as ``bench_general.py --sessions``), for
  ``--agent`` and for each of ``--compare`` (default ``pretrained:classic``);
* one-hand play: ``--agent`` against ``hard`` and ``equity`` at 1v3 and 2v2, and against
  ``--compare`` at 2v2, duplicate arenas of ``--hands`` hands (the batched engine where it
  plays the pairing).

The last line gives the machine's load average (a loaded, shared machine changes the
times, never the figures).
"""

from __future__ import annotations

import argparse
import os
import time

from agents.arena import head_to_head
from agents.arena.sessions import session_match

BASELINES = ("hard", "equity")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", required=True, help="the session member (ppo:PATH)")
    parser.add_argument("--compare", default="pretrained:classic",
                        help="comma-separated policies measured beside it")
    parser.add_argument("--sessions", type=int, default=100, help="session deals (0: none)")
    parser.add_argument("--hands", type=int, default=2_000,
                        help="duplicate hands per one-hand pairing (0: none)")
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    compared = [name for name in args.compare.split(",") if name]
    started = time.perf_counter()
    if args.sessions:
        for agent in (args.agent, *compared):
            report = session_match(agent, "equity", sessions=args.sessions, hands=100,
                                   players=4, seed=args.seed, workers=args.workers)
            print(report.line(), flush=True)
    if args.hands:
        one_hand = head_to_head(args.agent, BASELINES, tables=("1vN", "2v2"),
                                hands=args.hands, players=4, seed=args.seed,
                                workers=args.workers)
        print(f"one hand, 4 classic seats:\n{one_hand.table()}\n", flush=True)
        if compared:
            home = head_to_head(args.agent, compared, tables=("2v2",), hands=args.hands,
                                players=4, seed=args.seed, workers=args.workers)
            print(f"one hand, 4 classic seats, against {args.compare}:\n{home.table()}\n",
                  flush=True)
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"{args.agent}; seed {args.seed}; {time.perf_counter() - started:.0f} s; "
          f"load average {load}")


if __name__ == "__main__":
    main()
