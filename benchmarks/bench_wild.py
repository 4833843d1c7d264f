"""Speed of wild-card hand valuation (``teenpatti_env.cards.wild``), one hand at a time, one core.

Usage: ``python benchmarks/bench_wild.py [--hands 100000]``

Prints valuations per second for: classic three-card hands (``hands.evaluate_hand`` on card
ints, for scale), three cards with one wild, four cards with the personal lowest rank wild,
three private plus two community cards (no wild, and rank 7 wild), two cards with the
imaginary card, the engine's valuation of a seat in every named variant (wild flags
included), and the first use of a ranking (table building).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np

from teenpatti_env import Hand, Rules, evaluate_hand
from teenpatti_env.cards.wild import _wild_tables, best_value
from teenpatti_env.rules.variants import VARIANTS


def rate(label: str, inputs: list[tuple[list[int], list[bool]]], value: Callable[..., int]) -> None:
    """Time ``value(cards, wild)`` over every input and print valuations per second."""
    start = time.perf_counter()
    for cards, wild in inputs:
        value(cards, wild)
    seconds = time.perf_counter() - start
    print(f"{label:<40} {len(inputs) / seconds:>12,.0f} /s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    args = parser.parse_args()
    rng = random.Random(0)

    def deal(
        count: int, wild: Callable[[list[int]], list[bool]]
    ) -> list[tuple[list[int], list[bool]]]:
        out = []
        for _ in range(args.hands):
            cards = rng.sample(range(52), count)
            out.append((cards, wild(cards)))
        return out

    def one_wild(cards: list[int]) -> list[bool]:
        return [True, False, False]

    def lowest(cards: list[int]) -> list[bool]:
        low = min(c >> 2 for c in cards)
        return [c >> 2 == low for c in cards]

    def sevens(cards: list[int]) -> list[bool]:
        return [c >> 2 == 5 for c in cards]

    def none(cards: list[int]) -> list[bool]:
        return [False] * len(cards)

    print(f"{args.hands:,} random hands per line")
    rate("classic 3 cards (hands.evaluate_hand)", deal(3, none), lambda c, w: evaluate_hand(c))
    rate("classic 3 cards (wild.best_value)", deal(3, none), best_value)
    rate("3 cards, one wild", deal(3, one_wild), best_value)
    rate("4 cards, personal lowest wild", deal(4, lowest), best_value)
    rate("3 + 2 community, no wild", deal(5, none), best_value)
    rate("3 + 2 community, rank 7 wild", deal(5, sevens), best_value)
    rate(
        "2 cards + imagined card",
        deal(2, none),
        lambda c, w: best_value(c, w, imagined=True),
    )
    print(f"\nthe engine's valuation of a seat, per named variant ({args.hands:,} seats each)")
    generator = np.random.default_rng(0)
    for name in VARIANTS:
        rules = Rules(variant=name)
        hands = [Hand.deal(rules, [100] * 4, 0, generator) for _ in range(args.hands // 4)]
        started = time.perf_counter()
        for hand in hands:
            for seat in range(4):
                hand._seat_values[seat] = None  # value afresh, not from the hand's cache
                hand.hand_value(seat)
        seconds = time.perf_counter() - started
        print(f"{name:<40} {len(hands) * 4 / seconds:>12,.0f} /s")
    start = time.perf_counter()
    _wild_tables("A23", True)
    print(f"{'first use of a ranking (A23, lowball)':<40} {time.perf_counter() - start:>12.3f} s")


if __name__ == "__main__":
    main()
