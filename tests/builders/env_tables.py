"""Table settings and observation readers for the AEC environment tests: the API
configurations, observation slots by name, random short and ordinary stacks."""

from __future__ import annotations

import numpy as np

from teenpatti_env import Rules, raw_env

API_CONFIGS = [("classic", 4), ("flash", 3), ("pagat", 7), ("tabletop", 5)]
EPISODES = ("hand", "session")


def slot_map(raw: raw_env) -> dict[str, tuple[int, int]]:
    return {name: (offset, width) for name, offset, width, _ in raw.obs_layout.slots}


def slot(raw: raw_env, vector: np.ndarray, name: str) -> np.ndarray:
    offset, width = slot_map(raw)[name]
    return vector[offset : offset + width]


def _random_stacks(rules: Rules, rng: np.random.Generator) -> list[int]:
    """Short, odd and ordinary stacks; at least two seats can enter."""
    boot = rules.boot
    while True:
        stacks = [
            int(rng.choice([0, boot, boot + 1, 2 * boot + 1, 3 * boot, 5 * boot + 1,
                            12 * boot, 40 * boot, rules.starting_stack]))
            for _ in range(rules.num_players)
        ]  # fmt: skip
        if sum(chips >= rules.entry_chips for chips in stacks) >= 2:
            return stacks
