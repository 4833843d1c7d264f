"""The batched engine against the per-table engine, decision by decision.

Random rule sets of the classic family (every preset, random overrides of every setting,
3-7 seats, short and uneven stacks), given and random deals, random legal actions: at
every step the seat to act, the observation vector, the mask, the pot, the stacks and the
stake agree with ``raw_env`` holding the same deal, and at the end every seat's net
chips, the hands shown and every seat's final observation. A disagreement prints the
hand as a history that ``teenpatti replay`` reads.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from builders.batched import given_deals, play_against_twins, random_rules, random_stacks

from teenpatti_env.engine import Hand
from teenpatti_env.environment.batched import TableBatch

DECISIONS = 100_000
TABLES = 32


def test_batched_engine_agrees_with_the_engine_at_every_decision() -> None:
    rng = np.random.default_rng(20261201)
    decisions = 0
    seen: Counter[str] = Counter()

    def ended(hand: Hand) -> None:
        rules = hand.rules
        if hand.end == "showdown" and rules.pot_cap is not None and (
                sum(hand.contributions) >= rules.pot_cap):
            seen["pot_cap_showdown"] += 1
        if sum(hand.all_in) >= 2:
            seen["all_in_levels"] += 1

    while decisions < DECISIONS:
        rules = random_rules(rng)
        batch = TableBatch(TABLES, rules, autoreset=False,
                           stacks=random_stacks(rules, rng) if rng.random() < 0.5 else None)
        given = given_deals(batch, rng) if rng.random() < 0.5 else None
        seen[f"short_stack={rules.short_stack}"] += 1
        decisions += play_against_twins(batch, rng, int(rng.integers(2**32)), given, seen,
                                        ended)
    # The run reached every rule the issue names.
    for name in ("accept", "refuse", "all_in", "show", "pot_cap_showdown", "all_in_levels",
                 "short_stack=all_in", "short_stack=pack", "short_stack=showdown"):
        assert seen[name] > 0, (name, seen)
