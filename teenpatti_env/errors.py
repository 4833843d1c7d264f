"""Errors raised by the engine, and the check of a seed that every layer shares."""

from __future__ import annotations

import numpy as np


class IllegalActionError(ValueError):
    """An action that the rules do not allow at this point of the hand.

    The message names the seat and the reason (and, from ``replay``, the index of the
    action in the history). The hand is left exactly as it was.
    """


def check_seed(seed: object, name: str = "seed", optional: bool = False) -> int | None:
    """``seed`` as an int, or a ``ValueError`` naming ``name`` when it is not an int >= 0
    (numpy integers count, bools do not); ``None`` passes only when ``optional``."""
    if seed is None and optional:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) \
            or seed < 0:
        raise ValueError(f"{name} must be an int >= 0{' or None' if optional else ''}, "
                         f"got {seed!r}")
    return int(seed)
