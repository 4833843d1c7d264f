"""Engine speed: random legal play and hand valuation, on one core.

Usage: ``python benchmarks/bench_engine.py [--hands 20000] [--batch 1000000]``

Prints a small table:
* hands/s and decisions/s of random legal play on the engine alone (every decision
  asks the hand for its legal actions, picks one uniformly, draws an amount, applies
  it; dealing included);
* hand valuations/s one at a time (``evaluate_hand`` on card ints, and the engine's
  raw table lookup) and in batch (``evaluate_hands`` on an ``(N, 3)`` array);
* the plain numpy gather from a table of the same size, as a ceiling for the batch;
* if PokerKit is installed (``pip install pokerkit``), random legal play of its
  no-limit hold'em engine with the same loop, four seats, for a ratio in one run.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from teenpatti_env import Hand, Rules, evaluate_hand, evaluate_hands
from teenpatti_env.cards.hands import value_table


def random_play(rules: Rules, hands: int, seed: int) -> tuple[float, int]:
    """Seconds spent and decisions made over ``hands`` random hands."""
    rng = random.Random(seed)
    deck_rng = np.random.default_rng(seed)
    stacks = [rules.starting_stack] * rules.num_players
    decisions = 0
    start = time.perf_counter()
    for number in range(hands):
        hand = Hand.deal(rules, stacks, number % rules.num_players, deck_rng)
        while not hand.over:
            action = rng.choice(hand.legal_actions())
            kind = action["type"]
            if kind == "look":
                hand.apply({"seat": hand.to_act, "type": "look"})
            elif "min" in action:
                amount = rng.randint(action["min"], action["max"])
                if hand.seen[hand.to_act]:
                    amount -= amount & 1
                hand.apply({"seat": hand.to_act, "type": kind, "amount": amount})
            else:
                hand.apply({"seat": hand.to_act, "type": kind})
            decisions += 1
    return time.perf_counter() - start, decisions


def pokerkit_play(hands: int, seed: int) -> tuple[float, int] | None:
    """Random legal play on PokerKit's no-limit hold'em, if PokerKit is installed."""
    try:
        from pokerkit import Automation, NoLimitTexasHoldem
    except ImportError:
        return None
    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for _ in range(hands):
        state = NoLimitTexasHoldem.create_state(automations, True, 0, (1, 2), 2, (200,) * 4, 4)
        while state.status:
            options = [
                name
                for name, can in (
                    ("fold", state.can_fold()),
                    ("call", state.can_check_or_call()),
                    ("raise", state.can_complete_bet_or_raise_to()),
                )
                if can
            ]
            choice = rng.choice(options)
            if choice == "fold":
                state.fold()
            elif choice == "call":
                state.check_or_call()
            else:
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                state.complete_bet_or_raise_to(rng.randint(low, high))  # type: ignore[arg-type]
            decisions += 1
    return time.perf_counter() - start, decisions


def per_second(count: int, seconds: float) -> str:
    """A rate, readable."""
    rate = count / seconds
    return f"{rate / 1e6:,.1f} M/s" if rate >= 1e6 else f"{rate:,.0f} /s"


def main() -> None:
    """Run every measurement and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--batch", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    rows: list[tuple[str, str, str]] = []
    for preset in Rules.PRESET_NAMES:
        seconds, decisions = random_play(Rules.preset(preset), args.hands, args.seed)
        rows.append(
            (
                f"random play, {preset}",
                per_second(args.hands, seconds) + " hands",
                per_second(decisions, seconds) + " decisions",
            )
        )

    compared = pokerkit_play(max(1, args.hands // 10), args.seed)
    if compared is not None:
        seconds, decisions = compared
        rows.append(
            (
                "PokerKit no-limit hold'em, random play",
                per_second(args.hands // 10, seconds) + " hands",
                per_second(decisions, seconds) + " decisions",
            )
        )

    rng = np.random.default_rng(args.seed)
    hands = np.argsort(rng.random((args.batch, 52)), axis=1)[:, :3].astype(np.int64)
    singles = [tuple(int(c) for c in row) for row in hands[:200_000]]

    start = time.perf_counter()
    for cards in singles:
        evaluate_hand(cards)
    rows.append(
        ("evaluate_hand, one at a time", per_second(len(singles), time.perf_counter() - start), "")
    )

    table = value_table()
    start = time.perf_counter()
    for a, b, c in singles:
        table[a * 2704 + b * 52 + c]
    rows.append(
        ("engine lookup, one at a time", per_second(len(singles), time.perf_counter() - start), "")
    )

    for dtype in (np.int64, np.int32, np.uint8):
        batch = hands.astype(dtype)
        evaluate_hands(batch)
        start = time.perf_counter()
        repeats = 5
        for _ in range(repeats):
            evaluate_hands(batch)
        seconds = time.perf_counter() - start
        rows.append(
            (
                f"evaluate_hands, batch of {args.batch:,} {np.dtype(dtype).name}",
                per_second(repeats * args.batch, seconds),
                "",
            )
        )

    flat = np.asarray(value_table(), dtype=np.int32)
    index = rng.integers(0, flat.size, args.batch)
    start = time.perf_counter()
    for _ in range(5):
        flat[index]
    rows.append(
        (
            "plain numpy gather (ceiling)",
            per_second(5 * args.batch, time.perf_counter() - start),
            "",
        )
    )

    width = max(len(row[0]) for row in rows)
    print(f"{'measurement':<{width}}  {'rate':>16}  {'':>20}")
    for name, rate, extra in rows:
        print(f"{name:<{width}}  {rate:>16}  {extra:>20}")


if __name__ == "__main__":
    main()
