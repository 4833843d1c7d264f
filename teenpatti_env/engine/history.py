"""Hand histories (RULES.md section 10): validate, build the hand, replay the actions.

The records themselves (writing a hand's history, building a hand from one, the
snapshot) are :mod:`teenpatti_env.engine.records`; this module binds them to
:class:`~teenpatti_env.engine.hand.Hand` and adds :func:`replay`.

>>> result = replay({
...     "format": "teenpatti-hand/1",
...     "rules": {"preset": "classic"},
...     "dealer": 0,
...     "cards": [["As", "Kd", "2c"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"], ["2h", "2d", "Js"]],
...     "actions": [{"seat": 1, "type": "bet", "amount": 1}, {"seat": 2, "type": "pack"}],
... })
>>> result["pot"], result["stake"], result["to_act"]
(5, 1, 3)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from teenpatti_env.engine import records
from teenpatti_env.engine.hand import Hand
from teenpatti_env.engine.records import (
    DEAL_FIELDS,
    HAND_FORMAT,
    history_of,
    play,
    play_of,
    rng_from_state,
    rng_state,
    rules_of,
    snapshot,
)
from teenpatti_env.nesting import check_nesting

__all__ = [
    "DEAL_FIELDS",
    "HAND_FORMAT",
    "hand_from_history",
    "history_of",
    "play",
    "play_of",
    "replay",
    "restore",
    "rng_from_state",
    "rng_state",
    "rules_of",
    "snapshot",
]


def hand_from_history(history: dict[str, Any], rng: np.random.Generator | None = None) -> Hand:
    """The hand a history starts from (boots posted, no action taken).

    ``cards`` may be ``null`` only under dealer's choice, for a hand whose deal ``rng``
    makes once the dealer has chosen; ``stacks`` then counts the seats.
    """
    return records.build_hand(Hand, history, rng)


def replay(history: dict[str, Any]) -> dict[str, Any]:
    """Replay a hand history and return the state after its last action.

    Raises ``ValueError`` for a malformed history and ``IllegalActionError`` (naming
    the action's index, the seat and the reason) for an action that is not legal.
    """
    check_nesting(history, "a hand history")
    hand = hand_from_history(history)
    play(hand, history.get("actions", []))
    return hand.result()


def restore(data: Any) -> Hand:
    """``Hand.from_dict``: replay a snapshot; anything malformed or illegal is a
    ``ValueError``."""
    return records.restore(Hand, data)
