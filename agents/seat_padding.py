"""The input of a ``teenpatti-policy/2`` network: any table of 3 to 7 seats, of the
classic family or of a named variant, as one fixed-size vector.

A table of ``n`` seats gives observations whose size depends on ``n`` and on the variant
(:class:`~teenpatti_env.environment.observation.ObservationLayout`). The general policy
takes them padded to seven seats, with a presence flag per seat and the table's rules
appended, so one network plays every seat count, every preset and every such variant.
Every observation slot goes to the padded place of the same name (:class:`InputVersion`).
Three versions exist, each the one before followed by more blocks: ``/2`` is ``/1``
followed by the variant blocks (a classic table's row in ``/2`` is its ``/1`` row followed
by zeros and the variant's block), ``/3`` is ``/2`` followed by the blocks of the selection
phases and of buying a joker (a ``/2`` row is the first 682 numbers of its ``/3`` row):

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
--- ``/2`` only ---
variant slots         132    community cards, face-up indicators, wild ranks and
                             colours, burst rank (zeros at a classic table)
burst                 7      who burst at the deal, seats 0..n-1
thresholds, rotation  2      chips beyond the boots, rotations so far
variant               25     what the variant is made of (:data:`VARIANT_FEATURES`)
--- ``/3`` only ---
phase slots           1 + 52 the selection phase is running; the cards this seat
                             discarded or passed on
bought card           52     the card this seat bought wild
phase seats           7 x 2  seats 0..n-1 done with the phase, shopping draws made
bought                7      seats 0..n-1 that bought a joker
phase                 8      which phase the variant has (discard_one, shopping,
                             passing), whether it sells jokers (:data:`PHASE_FEATURES`)
====================  =====  ==========================================================

``/1`` is 516 numbers, ``/2`` 682, ``/3`` 816. The seat on the observer's right (its
previous player) is block ``n - 1``: padding comes after the last real seat, and the
presence flags say where that is. The rules block holds what the observation does not
carry: the seat count (one-hot 3..7), the starting stack, the blind-bet limit, the bet
and pot limits (each with a flag for "no limit"), pot-limit betting, the sideshow
settings, look-anytime, the short-stack and entry modes, the best sequence, lowball and
the raise multiple. Chip amounts are in boots as in the observation, scaled to stay near
0..1.

A policy sits at a table when its input has a place for every observation slot and its
actions one for every action of the table, by name (:func:`unfit_reason`): a ten-action
policy at the tables with classic's actions, one of the padded action space
(:mod:`agents.padded_actions`) at the selection phases and buying a joker too. Dealer's
choice is in no input yet. The observation's ``my_slots`` and ``my_discards`` blocks
(observation version 2: the own cards slot by slot, what each discard leaves) came after
these inputs and have no place in them: they take the observation without them, its
version-1 head.

>>> from teenpatti_env.rules import Rules
>>> padded = PaddedLayout(Rules.preset("classic", num_players=5))
>>> padded.size, padded.source_size
(816, 342)
>>> unfit_reason(Rules(variant="muflis"), ("pack",), "seat-padded/1")
"the variant 'muflis' is not in its input layout"
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.padded_actions import missing_actions
from teenpatti_env.cards import NUM_CARDS
from teenpatti_env.cards.hands import CATEGORIES
from teenpatti_env.cards.wild import WILD_SOURCES
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.environment.observation import (
    BUY_SEAT_SLOTS,
    BUY_SLOTS,
    CARD_SLOT,
    CATEGORY_SLOT,
    GLOBAL_SLOTS,
    PHASE_SEAT_SLOTS,
    PHASE_SLOTS,
    ROTATING_SLOTS,
    SEAT_SLOTS,
    THRESHOLD_SLOTS,
    VARIANT_SLOTS,
    VERSION_2_BLOCKS,
    ObservationLayout,
    version_1_size,
)
from teenpatti_env.rules import MAX_PLAYERS, MIN_PLAYERS, Rules

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


def _burst_kind(rules: Rules) -> tuple[float, float]:
    burst = rules.spec.burst_rank
    return (0.0, 0.0) if burst is None else (0.0, 1.0) if burst == "indicator" else (1.0, 0.0)


def _threshold_boots(rules: Rules) -> tuple[float, ...]:
    values = [float(v) for source in rules.spec.wild if source.kind == "thresholds"
              for v in source.values][:MAX_THRESHOLDS]
    values += [0.0] * (MAX_THRESHOLDS - len(values))
    return tuple(v / rules.boot / 100.0 for v in values)


MAX_THRESHOLDS = 3
VARIANT_FEATURES: tuple[RuleFeature, ...] = (
    ("private_cards", 3, lambda r: _one_hot(r.spec.private_cards, (2, 3, 4))),
    ("community_cards", 1, lambda r: (r.spec.community_cards / 3.0,)),
    ("open_private_cards", 1, lambda r: (r.spec.open_private_cards / 3.0,)),
    ("imagined_card", 1, lambda r: (float(r.spec.imagined_card),)),
    ("all_open", 1, lambda r: (float(r.spec.visibility == "all_open"),)),
    ("wild_sources", len(WILD_SOURCES),
     lambda r: tuple(float(kind in r.spec.wild_kinds) for kind in WILD_SOURCES)),
    ("burst", 2, _burst_kind),
    ("thresholds", MAX_THRESHOLDS, _threshold_boots),
    ("spare", 4, lambda r: (0.0,) * 4),
)
"""``(name, width, value of the rules)`` of the variant's block (``seat-padded/2``): what
the variant's deal and valuation are made of, beside the variant slots of the observation
(community cards, indicators, wild ranks and colours, burst rank, who burst)."""
VARIANTS_SIZE = sum(width for _, width, _ in VARIANT_FEATURES)


PHASES = ("discard_one", "shopping", "passing")
PHASE_FEATURES: tuple[RuleFeature, ...] = (
    ("phase", len(PHASES), lambda r: _one_hot(r.spec.phase, PHASES)),
    ("buy_a_joker", 1, lambda r: (float(r.spec.buy_a_joker),)),
    ("spare", 4, lambda r: (0.0,) * 4),
)
"""``(name, width, value of the rules)`` of the phase block (``seat-padded/3``): which
selection phase the variant has, if any, and whether a joker can be bought."""
PHASE_RULES_SIZE = sum(width for _, width, _ in PHASE_FEATURES)


@dataclass(frozen=True)
class InputVersion:
    """One version of the padded input: where each observation slot (by name, seat
    slots as ``seat{k}.{field}`` for ``k`` < 7) goes, and where the constant blocks are."""

    name: str
    variants: bool
    """Whether the variant slots and the variant's block are part of it."""
    positions: dict[str, int]
    presence_at: int
    rules_at: int
    variant_rules_at: int
    size: int
    phase_rules_at: int | None = None
    """Where the phase block starts (``None``: not part of it)."""


def _input_version(name: str, variants: bool, phases: bool = False) -> InputVersion:
    positions: dict[str, int] = {}
    at = 0

    def place(slot: str, width: int) -> int:
        nonlocal at
        positions[slot] = at
        at += width
        return positions[slot]

    for slot, width, _ in GLOBAL_SLOTS:
        place(slot, width)
    for k in range(MAX_SEATS):
        for slot, width, _ in SEAT_SLOTS:
            place(f"seat{k}.{slot}", width)
    presence_at = place("presence", MAX_SEATS)
    place(CATEGORY_SLOT[0], CATEGORY_SLOT[1])
    for k in range(MAX_SEATS):
        place(f"seat{k}.{CARD_SLOT[0]}", CARD_SLOT[1])
    rules_at = place("rules", RULES_SIZE)
    variant_rules_at = at
    if variants:
        for slot, width, _ in VARIANT_SLOTS:
            place(slot, width)
        for k in range(MAX_SEATS):
            place(f"seat{k}.burst", 1)
        for slot, width, _ in (*THRESHOLD_SLOTS, *ROTATING_SLOTS):
            place(slot, width)
        variant_rules_at = place("variant_rules", VARIANTS_SIZE)
    phase_rules_at = None
    if phases:
        for slot, width, _ in (*PHASE_SLOTS, *BUY_SLOTS):
            place(slot, width)
        for slot, _ in (*PHASE_SEAT_SLOTS, *BUY_SEAT_SLOTS):
            for k in range(MAX_SEATS):
                place(f"seat{k}.{slot}", 1)
        phase_rules_at = place("phase_rules", PHASE_RULES_SIZE)
    for block in ("presence", "rules", "variant_rules", "phase_rules"):
        positions.pop(block, None)
    return InputVersion(name, variants, positions, presence_at, rules_at, variant_rules_at, at,
                        phase_rules_at)


INPUT_VERSIONS: dict[str, InputVersion] = {
    "seat-padded/1": _input_version("seat-padded/1", variants=False),
    "seat-padded/2": _input_version("seat-padded/2", variants=True),
    "seat-padded/3": _input_version("seat-padded/3", variants=True, phases=True),
}
"""Every padded input a ``teenpatti-policy/2`` file may name: ``/1`` (the classic family),
``/2`` (``/1`` followed by the variant slots and the variant's block) and ``/3`` (``/2``
followed by the selection phases' and joker buying's slots and the phase block)."""
PADDED_LAYOUT = "seat-padded/3"
"""The padded input new general runs train on."""
PADDED_SIZE = INPUT_VERSIONS[PADDED_LAYOUT].size
"""The size of its every input."""


def input_version(name: str) -> InputVersion:
    """The padded input called ``name``, or a ``ValueError`` naming the known ones."""
    if name not in INPUT_VERSIONS:
        raise ValueError(f"unknown padded input {name!r} (known: {', '.join(INPUT_VERSIONS)})")
    return INPUT_VERSIONS[name]


def _block(features: tuple[RuleFeature, ...], rules: Rules) -> NDArray[np.float32]:
    """The values of ``features`` for ``rules``, each as wide as it says."""
    values: list[float] = []
    for name, width, feature in features:
        value = feature(rules)
        assert len(value) == width, name
        values += value
    return np.asarray(values, dtype=np.float32)


def rule_features(rules: Rules) -> NDArray[np.float32]:
    """The rules block of ``rules`` (:data:`RULE_FEATURES`)."""
    return _block(RULE_FEATURES, rules)


def variant_features(rules: Rules) -> NDArray[np.float32]:
    """The variant's block of ``rules`` (:data:`VARIANT_FEATURES`)."""
    return _block(VARIANT_FEATURES, rules)


def phase_features(rules: Rules) -> NDArray[np.float32]:
    """The phase block of ``rules`` (:data:`PHASE_FEATURES`)."""
    return _block(PHASE_FEATURES, rules)


def unfit_reason(rules: Rules, action_names: tuple[str, ...] | list[str],
                 layout: str = PADDED_LAYOUT) -> str | None:
    """Why a padded-input policy (input ``layout``) with ``action_names`` cannot sit at a
    table under ``rules`` (dealer's choice, a variant its input has no place for, other
    actions), or ``None`` when it can."""
    version = input_version(layout)
    if rules.dealers_choice is not None:
        return "dealer's choice is not in its input layout"
    if not version.variants and (rules.variant != "classic" or not rules.spec.is_classic):
        return f"the variant {rules.variant!r} is not in its input layout"
    missing = sorted({name.split(".")[-1] for name, _, _, _ in ObservationLayout(rules).slots
                      if name not in version.positions and name not in VERSION_2_BLOCKS})
    if missing:
        return (f"the variant {rules.variant!r} is not in its input layout (its "
                f"observations add {', '.join(missing)})")
    missing = missing_actions(rules, action_names)
    if missing:
        named = ", ".join(missing[:4]) + (f" and {len(missing) - 4} more" if len(missing) > 4
                                          else "")
        return f"its {len(action_names)} actions have no place for the table's {named}"
    return None


class PaddedLayout:
    """Where each slot of an ``n``-seat observation goes in the padded input ``layout``,
    and the constant part (presence flags, the rules and the variant's blocks) of every
    padded row."""

    def __init__(self, rules: Rules, layout: str = PADDED_LAYOUT) -> None:
        self.rules = rules
        self.version = version = input_version(layout)
        n = self.num_seats = rules.num_players
        reason = unfit_reason(rules, ActionLayout(rules).names, layout)
        if reason is not None:
            raise ValueError(f"the {layout} input cannot take this table: {reason}")
        observation = ObservationLayout(rules)
        self.source_size = observation.size
        self.size = version.size
        # The padded inputs predate version 2's blocks (the vector's last): they take the head.
        self.taken = version_1_size(rules)
        target = np.zeros(self.taken, dtype=np.int64)
        for name, offset, width, _ in observation.slots:
            if name in VERSION_2_BLOCKS:
                continue
            start = version.positions[name]
            target[offset:offset + width] = np.arange(start, start + width)
        self.target = target
        """``target[i]``: the padded position of the observation's slot ``i``."""
        self.rules_at = version.rules_at
        self.constant = np.zeros(self.size, dtype=np.float32)
        self.constant[version.presence_at:version.presence_at + n] = 1.0
        self.constant[self.rules_at:self.rules_at + RULES_SIZE] = rule_features(rules)
        if version.variants:
            self.constant[version.variant_rules_at:version.variant_rules_at + VARIANTS_SIZE] \
                = variant_features(rules)
        if version.phase_rules_at is not None:
            self.constant[version.phase_rules_at:] = phase_features(rules)
        self.presence = slice(version.presence_at, version.presence_at + MAX_SEATS)

    def pad(self, observations: NDArray[Any]) -> NDArray[np.float32]:
        """The padded input of one observation (1-D) or a batch (2-D)."""
        x = np.asarray(observations, dtype=np.float32)
        if x.shape[-1] != self.source_size:
            raise ValueError(f"a {self.num_seats}-seat observation of {self.rules.variant!r} "
                             f"has {self.source_size} entries, got {x.shape[-1]}")
        out = np.broadcast_to(self.constant, (*x.shape[:-1], self.size)).copy()
        out[..., self.target] = x[..., :self.taken]
        return out


@lru_cache(maxsize=256)
def _layout(rules: Rules, layout: str) -> PaddedLayout:
    return PaddedLayout(rules, layout)


def padded_layout(rules: Rules, layout: str = PADDED_LAYOUT) -> PaddedLayout:
    """The (cached) :class:`PaddedLayout` of ``rules`` in the padded input ``layout``."""
    return _layout(rules, layout)


def pad_observations(observations: NDArray[Any], rules: Rules,
                     layout: str = PADDED_LAYOUT) -> NDArray[np.float32]:
    """The padded policy input of ``n``-seat observations (1-D or ``[M, D]``) at a table
    under ``rules``: the one function every player of a ``teenpatti-policy/2`` uses."""
    return padded_layout(rules, layout).pad(observations)


def seats_of_size(size: int) -> int | None:
    """The seat count of a classic-family observation of ``size`` entries, or ``None``."""
    seats, left = divmod(size - _GLOBAL - _CATEGORY, _SEAT + NUM_CARDS)
    return seats if not left and MIN_PLAYERS <= seats <= MAX_SEATS else None
