"""The fixed input scale of trained policies (torch-free, shared by both trainers)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from agents.seat_padding import PADDED_LAYOUT, input_version
from teenpatti_env.environment.observation import ObservationLayout
from teenpatti_env.rules import Rules

CHIP_SLOTS = frozenset({
    "pot", "stake", "min_bet", "max_bet", "hands_played", "hands_remaining",
    "blind_bets", "stack", "chips_in", "beyond_boots",
})  # fmt: skip
"""Observation slots that count chips (in boots) or hands: scaled down before the MLP."""
CHIP_SCALE = 0.1


def observation_scale(rules: Rules) -> NDArray[np.float32]:
    """The fixed per-slot input scale: :data:`CHIP_SCALE` for counts, 1 for flags."""
    layout = ObservationLayout(rules)
    scale = np.ones(layout.size, dtype=np.float32)
    for name, offset, width, _ in layout.slots:
        if name.split(".")[-1] in CHIP_SLOTS:
            scale[offset:offset + width] = CHIP_SCALE
    return scale


def padded_observation_scale(layout: str = PADDED_LAYOUT) -> NDArray[np.float32]:
    """The fixed input scale of the seat-padded input ``layout``
    (:mod:`agents.seat_padding`): :data:`CHIP_SCALE` at every padded place of a slot that
    counts chips or hands, 1 elsewhere (flags, presence, the rules and variant blocks,
    already near 0..1)."""
    version = input_version(layout)
    scale = np.ones(version.size, dtype=np.float32)
    for name, start in version.positions.items():
        if name.split(".")[-1] in CHIP_SLOTS:
            scale[start] = CHIP_SCALE
    return scale
