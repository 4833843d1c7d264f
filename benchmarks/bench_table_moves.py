"""The cost of one move at a table for people as its hand grows long (issue 29).

    python benchmarks/bench_table_moves.py [--events 20000] [--moves 200]

A ``PlayTable`` of three seats under classic rules with no chaal limit, no pot limit and
a stack of a million boots, where the person and two bots always bet the smallest
amount, so one hand grows without end. Every 5,000 events the script times ``--moves``
of the person's moves (each with the bots' replies and the ``state()`` a frontend draws
after it) and prints the CPU time per move and the events a move copies out of the hand's
log. Flat columns mean a move costs what its new events cost, however long the hand.
Times are per second of this process's CPU time, so other processes on a shared machine
count little; they are single runs.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import teenpatti_env.engine.knowledge as knowledge
from interfaces.table import PlayTable
from teenpatti_env.rules import Rules


class _Caller:
    """A bot that bets the smallest amount, looking when it may bet no more blind."""

    def act(self, observation: Any, mask: Any, view: Any) -> int:
        return 2 if mask[2] else (1 if mask[1] else 0)

    def reset(self) -> None:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=20_000, help="the longest hand")
    parser.add_argument("--moves", type=int, default=200, help="moves timed at each length")
    args = parser.parse_args()
    copied = [0]
    deepcopy = knowledge.copy.deepcopy

    class Counting:
        @staticmethod
        def deepcopy(value: Any) -> Any:
            copied[0] += len(value)
            return deepcopy(value)

    knowledge.copy = Counting  # type: ignore[assignment]
    rules = Rules.preset("classic").replace(starting_boots=1_000_000, max_bet=None,
                                            pot_cap=None)
    table = PlayTable(["hard", "hard"], rules, hands=1, seed=0)
    table.bots = {1: _Caller(), 2: _Caller()}  # type: ignore[dict-item]
    hand = table.env.hand
    assert hand is not None

    def move() -> None:
        moves = {entry["type"]: entry for entry in table.moves()}
        table.act({"type": "bet", "amount": moves["bet"]["entry"]["min"]} if "bet" in moves
                  else {"type": "look"})
        table.state()

    print(f"{'events in the hand':>18} {'ms per move (CPU)':>18} {'events copied per move':>23}")
    for target in range(0, args.events + 1, 5000):
        while hand.event_count < target:
            move()
        copied[0] = 0
        start = time.process_time()
        for _ in range(args.moves):
            move()
        spent = time.process_time() - start
        print(f"{hand.event_count:>18,} {1000 * spent / args.moves:>18.3f} "
              f"{copied[0] / args.moves:>23.1f}")


if __name__ == "__main__":
    main()
