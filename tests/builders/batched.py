"""Shared builders for the batched-engine tests: random rule sets of the classic family,
random stacks, a per-table twin that follows the batch step by step, and a nudged copy
of the shipped policy (another agent with a batched form)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from agents.policy import NumpyPolicy, load_policy, pretrained_path
from teenpatti_env.environment.aec import raw_env
from teenpatti_env.environment.batched import TableBatch
from teenpatti_env.rules import PRESETS, Rules


def random_rules(rng: np.random.Generator) -> Rules:
    """A preset with random overrides of every setting the classic family has."""
    while True:
        preset = str(rng.choice(sorted(PRESETS)))
        boot = int(rng.integers(1, 4))
        n = int(rng.integers(3, 8))
        settings: dict[str, Any] = {
            "num_players": n,
            "boot": boot,
            "starting_boots": int(rng.choice([4, 8, 15, 30, 100])),
            "best_sequence": str(rng.choice(["AKQ", "A23"])),
            "raise_multiple": int(rng.integers(2, 5)),
            "max_blind_bets": None if rng.random() < 0.3 else int(rng.integers(0, 5)),
            "max_bet": None if rng.random() < 0.5 else int(2 * boot * rng.integers(2, 20)),
            "pot_cap": None if rng.random() < 0.5 else int(boot * (n + rng.integers(1, 80))),
            "pot_limit_betting": bool(rng.random() < 0.3),
            "sideshow": bool(rng.random() < 0.8),
            "sideshow_target": str(rng.choice(["previous", "previous_seen"])),
            "sideshow_requires_all_seen": bool(rng.random() < 0.3),
            "sideshow_reveal": str(rng.choice(["none", "private"])),
            "look_anytime": bool(rng.random() < 0.5),
            "short_stack": str(rng.choice(["all_in", "pack", "showdown"])),
            "entry_minimum": str(rng.choice(["boot", "boot_plus_seen_bet"])),
            "lowball": bool(rng.random() < 0.2),
        }
        keep = {key: value for key, value in settings.items() if rng.random() < 0.8 or
                key == "num_players"}
        try:
            return Rules.preset(preset, **keep)
        except ValueError:
            continue


def random_stacks(rules: Rules, rng: np.random.Generator) -> list[int]:
    """Stacks for one hand: often uneven and short, always two seats or more entering."""
    n = rules.num_players
    while True:
        if rng.random() < 0.4:
            stacks = [rules.starting_stack] * n
        else:
            top = max(2, 12 * rules.boot)
            stacks = [int(x) for x in rng.integers(0, top, size=n)]
        if sum(chips >= rules.entry_chips for chips in stacks) >= 2:
            return stacks


def twin_env(batch: TableBatch, table: int) -> Any:
    """A per-table environment holding the same deal as ``table`` of ``batch`` now
    (call right after the batch dealt it)."""
    hand = batch.hand(table)
    env = raw_env(rules=batch.rules, bet_levels=batch.layout.bet_levels)
    start = batch.hand_stacks[table].tolist()
    env.reset(options={"cards": hand.cards, "dealer": hand.dealer, "stacks": start})
    return env


def describe(batch: TableBatch, table: int) -> str:
    """The table's hand as a history ``teenpatti replay`` reads, for a failure message."""
    return json.dumps(batch.history(table))


def variant_policy(path: Path, scale: float = 0.01) -> Path:
    """The shipped policy with its weights nudged: another deterministic agent."""
    shipped = load_policy(pretrained_path("classic"))
    rng = np.random.default_rng(1)
    weights = [w + rng.normal(0, scale, w.shape).astype(np.float32) for w in shipped.weights]
    return NumpyPolicy(weights, shipped.biases, shipped.metadata).save(path)
