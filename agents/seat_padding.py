"""The input of a ``teenpatti-policy/2`` network: any classic-family table, 3 to 7 seats,
as one fixed-size vector.

A table of ``n`` seats gives observations whose size depends on ``n``
(:class:`~teenpatti_env.environment.observation.ObservationLayout`). The general policy
takes them padded to seven seats, with a presence flag per seat and the table's rules
appended, so one network plays every seat count and every preset:

====================  =====  ==========================================================
block                 width  content
====================  =====  ==========================================================
global                11     the observation's global slots, unchanged
seats                 7 x 13 seat scalars of seats 0..n-1 (to the observer's left,
                             0 the observer, as in the observation), zeros beyond
presence              7      1 for seats 0..n-1, 0 for the padding seats
category              6      the observer's hand category, unchanged
cards                 7 x 52 known cards of seats 0..n-1, zeros beyond
rules                 37     the table's settings (:data:`RULE_FEATURES`)
====================  =====  ==========================================================

The seat on the observer's right (its previous player) is block ``n - 1``: padding
comes after the last real seat, and the presence flags say where that is. The rules
block holds what the observation does not carry: the seat count (one-hot 3..7), the
starting stack, the blind-bet limit, the bet and pot limits (each with a flag for "no
limit"), pot-limit betting, the sideshow settings, look-anytime, the short-stack and
entry modes, the best sequence, lowball and the raise multiple. Chip amounts are in
boots as in the observation, scaled to stay near 0..1.

The action mask is not padded: every classic-family table with the default raise
multiple has the same ten actions, and a policy only sits at tables whose action names
are its own (:func:`unfit_reason`).

>>> from teenpatti_env.rules import Rules
>>> padded = PaddedLayout(Rules.preset("classic", num_players=5))
>>> padded.size, padded.source_size
(516, 342)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from teenpatti_env.cards import NUM_CARDS
from teenpatti_env.cards.hands import CATEGORIES
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.environment.observation import GLOBAL_SLOTS, SEAT_SLOTS, ObservationLayout
from teenpatti_env.rules import MAX_PLAYERS, MIN_PLAYERS, Rules

PADDED_LAYOUT = "seat-padded/1"
"""The name and version of this input layout (a ``teenpatti-policy/2`` file records it)."""
MAX_SEATS = MAX_PLAYERS
_GLOBAL = len(GLOBAL_SLOTS)
_SEAT = len(SEAT_SLOTS)
_CATEGORY = len(CATEGORIES)


def _none_or(value: float | None, scale: float) -> tuple[float, float]:
    """``(no limit flag, scaled value)`` of an optional limit."""
    return (1.0, 0.0) if value is None else (0.0, float(value) / scale)


def _one_hot(value: Any, choices: tuple[Any, ...]) -> tuple[float, ...]:
    return tuple(1.0 if value == choice else 0.0 for choice in choices)


RuleFeature = tuple[str, int, Callable[[Rules], tuple[float, ...]]]
RULE_FEATURES: tuple[RuleFeature, ...] = (
    ("seats", MAX_SEATS - MIN_PLAYERS + 1,
     lambda r: _one_hot(r.num_players, tuple(range(MIN_PLAYERS, MAX_SEATS + 1)))),
    ("starting_boots", 1, lambda r: (r.starting_boots / 100.0,)),
    ("max_blind_bets", 2, lambda r: _none_or(r.max_blind_bets, 10.0)),
    ("max_bet_boots", 2,
     lambda r: _none_or(None if r.max_bet is None else r.max_bet / r.boot, 100.0)),
    ("pot_cap_boots", 2,
     lambda r: _none_or(None if r.pot_cap is None else r.pot_cap / r.boot, 1000.0)),
    ("pot_limit_betting", 1, lambda r: (float(r.pot_limit_betting),)),
    ("sideshow", 1, lambda r: (float(r.sideshow),)),
    ("sideshow_target", 2, lambda r: _one_hot(r.sideshow_target, ("previous", "previous_seen"))),
    ("sideshow_requires_all_seen", 1, lambda r: (float(r.sideshow_requires_all_seen),)),
    ("sideshow_reveal", 2, lambda r: _one_hot(r.sideshow_reveal, ("none", "private"))),
    ("look_anytime", 1, lambda r: (float(r.look_anytime),)),
    ("short_stack", 3, lambda r: _one_hot(r.short_stack, ("all_in", "pack", "showdown"))),
    ("entry_minimum", 2,
     lambda r: _one_hot(r.entry_minimum, ("boot", "boot_plus_seen_bet"))),
    ("best_sequence", 2, lambda r: _one_hot(r.best_sequence, ("AKQ", "A23"))),
    ("lowball", 1, lambda r: (float(r.lowball),)),
    ("raise_multiple", 1, lambda r: (r.raise_multiple / 4.0,)),
    ("session_hands", 2, lambda r: _none_or(r.max_hands, 100.0)),
    ("boot_chips", 1, lambda r: (float(np.log10(r.boot)) / 3.0,)),
    ("spare", 5, lambda r: (0.0,) * 5),
)
"""``(name, width, value of the rules)`` of the rules block, in order (``spare``: zeros
kept for settings a later mixture adds, so the layout's size need not change)."""
RULES_SIZE = sum(width for _, width, _ in RULE_FEATURES)
PADDED_SIZE = (_GLOBAL + MAX_SEATS * _SEAT + MAX_SEATS + _CATEGORY + MAX_SEATS * NUM_CARDS
               + RULES_SIZE)
"""The size of every padded input."""


def source_size(seats: int) -> int:
    """The size of a classic-family observation at a table of ``seats`` seats."""
    return _GLOBAL + seats * (_SEAT + NUM_CARDS) + _CATEGORY


def rule_features(rules: Rules) -> NDArray[np.float32]:
    """The rules block of ``rules`` (:data:`RULE_FEATURES`)."""
    values = [v for _, width, feature in RULE_FEATURES for v in feature(rules)]
    assert len(values) == RULES_SIZE
    return np.asarray(values, dtype=np.float32)


def unfit_reason(rules: Rules, action_names: tuple[str, ...] | list[str]) -> str | None:
    """Why a padded-input policy with ``action_names`` cannot sit at a table under
    ``rules`` (a variant, dealer's choice, other actions), or ``None`` when it can."""
    if rules.dealers_choice is not None:
        return "dealer's choice is not in its input layout"
    if rules.variant != "classic" or not rules.spec.is_classic:
        return f"the variant {rules.variant!r} is not in its input layout"
    layout = ObservationLayout(rules)
    if layout.size != source_size(rules.num_players):
        return "its observations carry blocks the padded layout has no place for"
    names = ActionLayout(rules).names
    if tuple(names) != tuple(action_names):
        return f"its actions are {len(action_names)} ({', '.join(action_names)}), the table's " \
               f"{len(names)} ({', '.join(names)})"
    return None


class PaddedLayout:
    """Where each slot of an ``n``-seat observation goes in the padded input, and the
    constant part (presence flags and the rules block) of every padded row."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        n = self.num_seats = rules.num_players
        self.source_size = source_size(n)
        self.size = PADDED_SIZE
        seats_at = _GLOBAL
        presence_at = seats_at + MAX_SEATS * _SEAT
        category_at = presence_at + MAX_SEATS
        cards_at = category_at + _CATEGORY
        self.rules_at = cards_at + MAX_SEATS * NUM_CARDS
        target = list(range(_GLOBAL))
        target += range(seats_at, seats_at + n * _SEAT)
        target += range(category_at, category_at + _CATEGORY)
        target += range(cards_at, cards_at + n * NUM_CARDS)
        self.target = np.asarray(target, dtype=np.int64)
        """``target[i]``: the padded position of the observation's slot ``i``."""
        assert len(self.target) == self.source_size
        self.constant = np.zeros(PADDED_SIZE, dtype=np.float32)
        self.constant[presence_at:presence_at + n] = 1.0
        self.constant[self.rules_at:] = rule_features(rules)
        self.presence = slice(presence_at, presence_at + MAX_SEATS)

    def pad(self, observations: NDArray[Any]) -> NDArray[np.float32]:
        """The padded input of one observation (1-D) or a batch (2-D)."""
        x = np.asarray(observations, dtype=np.float32)
        if x.shape[-1] != self.source_size:
            raise ValueError(f"a {self.num_seats}-seat classic observation has "
                             f"{self.source_size} entries, got {x.shape[-1]}")
        out = np.broadcast_to(self.constant, (*x.shape[:-1], PADDED_SIZE)).copy()
        out[..., self.target] = x
        return out


@lru_cache(maxsize=256)
def _layout(rules: Rules) -> PaddedLayout:
    return PaddedLayout(rules)


def padded_layout(rules: Rules) -> PaddedLayout:
    """The (cached) :class:`PaddedLayout` of ``rules``."""
    return _layout(rules)


def pad_observations(observations: NDArray[Any], rules: Rules) -> NDArray[np.float32]:
    """The padded policy input of ``n``-seat observations (1-D or ``[M, D]``) at a table
    under ``rules``: the one function every player of a ``teenpatti-policy/2`` uses."""
    return padded_layout(rules).pad(observations)


def seats_of_size(size: int) -> int | None:
    """The seat count of a classic-family observation of ``size`` entries, or ``None``."""
    seats, left = divmod(size - _GLOBAL - _CATEGORY, _SEAT + NUM_CARDS)
    return seats if not left and MIN_PLAYERS <= seats <= MAX_SEATS else None
