"""The fixed input scale of trained policies (torch-free, shared by both trainers)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from agents.seat_padding import MAX_SEATS, PADDED_SIZE, padded_layout
from teenpatti_env.environment.observation import ObservationLayout
from teenpatti_env.rules import Rules

CHIP_SLOTS = frozenset({
    "pot", "stake", "min_bet", "max_bet", "hands_played", "hands_remaining",
    "blind_bets", "stack", "chips_in",
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


def padded_observation_scale() -> NDArray[np.float32]:
    """The fixed input scale of the seat-padded input (:mod:`agents.seat_padding`): the
    seven-seat observation's scale in its padded places, 1 on the presence flags and the
    rules block (already near 0..1)."""
    rules = Rules.preset("classic", num_players=MAX_SEATS)
    scale = np.ones(PADDED_SIZE, dtype=np.float32)
    scale[padded_layout(rules).target] = observation_scale(rules)
    return scale
