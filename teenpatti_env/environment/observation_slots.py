"""Where each slot of the observation vector sits: the slot tables and their offsets.

The vector is the global block, one block of seat scalars per seat *relative to the
observer* (block 0 the observer, block 1 the seat on its left, ..., block n-1 the seat
on its right), the observer's hand category, the known cards of each seat, then the
variant blocks a rule set may need. :class:`ObservationSlots` works out the offsets and
the bounds for one rule set; the encoders stand on it
(:mod:`teenpatti_env.environment.observation`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from teenpatti_env.cards import NUM_CARDS
from teenpatti_env.cards.hands import CATEGORIES
from teenpatti_env.rules import Rules

OBSERVATION_VERSION = 2
"""Bumped whenever the vector layout changes (saved policies record it). Version 2 added
the ``my_slots`` block, last in the vector and only where actions name hand slots; a
version-1 vector is a version-2 one without it (:func:`version_1_size`)."""

GLOBAL_SLOTS: tuple[tuple[str, int, str], ...] = (
    ("pot", 1, "chips in the pot, in boots"),
    ("stake", 1, "the stake S, in boots"),
    ("min_bet", 1, "smallest bet open to this seat now, in boots (0: none)"),
    ("max_bet", 1, "largest bet open to this seat now, in boots (0: none)"),
    ("my_turn", 1, "this seat is to act"),
    ("sideshow_asked", 1, "a sideshow asks this seat to accept or refuse"),
    ("hand_over", 1, "the hand has ended"),
    ("hands_played", 1, "hands finished in this session (0 in episode='hand')"),
    ("hands_remaining", 1, "hands left under max_hands, this one included (0: no limit)"),
    ("hand_limit", 1, "the session has a max_hands limit"),
    ("my_strength", 1, "share of the 22,100 hands own hand beats, ties half (0 until seen)"),
)
SEAT_SLOTS: tuple[tuple[str, int, str], ...] = (
    ("in_session", 1, "the seat is still in the session"),
    ("dealt_in", 1, "the seat was dealt into this hand"),
    ("in_hand", 1, "dealt in and not packed"),
    ("packed", 1, "has packed"),
    ("all_in", 1, "is all-in"),
    ("seen", 1, "has looked at its cards"),
    ("blind_bets", 1, "blind bets made this hand"),
    ("stack", 1, "chips behind, in boots"),
    ("chips_in", 1, "chips put into this hand, boot included, in boots"),
    ("is_dealer", 1, "deals this hand"),
    ("is_previous", 1, "is the observer's previous player"),
    ("to_act", 1, "is the seat to act"),
    ("sideshow_asker", 1, "asked the sideshow now waiting for an answer"),
)
CATEGORY_SLOT = ("my_category", len(CATEGORIES), "own hand's category, one-hot high_card..trail")
CARD_SLOT = ("cards", NUM_CARDS, "that seat's cards as known to the observer, one-hot by card int")
VARIANT_SLOTS: tuple[tuple[str, int, str], ...] = (
    ("community", NUM_CARDS, "the community cards, one-hot by card int"),
    ("indicators", NUM_CARDS, "the face-up indicator cards, one-hot by card int"),
    ("wild_ranks", 13, "ranks wild for this seat as it knows them (2..A), own personal rank "
     "included once it has seen its cards"),
    ("wild_colours", 2, "wild colours: red, black"),
    ("burst_rank", 13, "the rank that bursts a seat, one-hot 2..A"),
)
"""The variant block, after the cards, in every variant but ``classic`` (``burst`` flags
per seat, relative to the observer, follow it)."""
PHASE_SLOTS: tuple[tuple[str, int, str], ...] = (
    ("in_phase", 1, "the selection phase is running"),
    ("my_parted", NUM_CARDS, "the cards this seat discarded or passed on, one-hot"),
)
PHASE_SEAT_SLOTS: tuple[tuple[str, str], ...] = (
    ("phase_done", "has discarded (discard_one) or kept (shopping)"),
    ("draws", "shopping draws made"),
)
"""In variants with a selection phase, after the variant block: the global phase slots,
then each phase seat slot for seats 0..n-1 relative to the observer."""
THRESHOLD_SLOTS = (("beyond_boots", 1, "chips paid beyond the boots, in boots (T1)"),)
ROTATING_SLOTS = (("rotations", 1, "full betting rounds so far: wild ranks moved (R1)"),)
BUY_SLOTS = (("my_bought", NUM_CARDS, "the card this seat bought wild, one-hot (J1)"),)
BUY_SEAT_SLOTS = (("bought", "has bought a joker this hand (J2: the card stays secret)"),)
VOTE_SLOTS = (("vote_now", 1, "this seat is asked, between hands, to vote to end (C3)"),)
SLOTS_NAME = "my_slots"
"""The own cards in hand-slot order (version 2): slot ``k``'s card one-hot at ``52 k`` on,
as far as the seat knows it, where the variant's actions name a card by its slot
(``discard_k``, ``pass_a_b_c``, ``buy_joker_k``); the ``cards`` slots say which cards a
seat holds, not in which slot."""
DISCARDS_NAME = "my_discards"
"""The strength each ``discard_k`` would leave (version 2): slot ``k``'s entry is the
share of the 22,100 hands that the own cards without slot ``k`` beat, while the seat holds
four cards in a ``discard_one`` or ``shopping`` hand (0 otherwise)."""
VERSION_2_BLOCKS = (SLOTS_NAME, DISCARDS_NAME)
"""The blocks version 2 added, last in the vector (a version-1 vector is the head before them)."""
DISCARD_PHASES = ("discard_one", "shopping")
"""The selection phases whose actions throw one card by its slot."""
_FLAGS = {
    "my_turn", "sideshow_asked", "hand_over", "hand_limit", "my_strength", "in_session",
    "dealt_in", "in_hand", "packed", "all_in", "seen", "is_dealer", "is_previous", "to_act",
    "sideshow_asker", "my_category", "cards", "community", "indicators", "wild_ranks",
    "wild_colours", "burst_rank", "burst", "in_phase", "my_parted", "phase_done",
    "my_bought", "bought", "vote_now", "choosing", "variant_chosen", "my_slots",
    "my_discards",
}  # fmt: skip
_BIG = float(np.finfo(np.float32).max)
_GLOBAL_SIZE = len(GLOBAL_SLOTS)
_SEAT_SIZE = len(SEAT_SLOTS)


@dataclass(frozen=True)
class TableFacts:
    """Session facts the hand itself does not hold."""

    in_session: tuple[bool, ...]
    hands_played: int = 0
    hands_remaining: int | None = None
    voter: int | None = None
    """The seat asked to vote now, between hands (C3)."""


class ObservationSlots:
    """The slot offsets, size and bounds of the observation vector of one rule set."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._rules_dict = rules.to_dict()
        n = self.num_seats = rules.num_players
        self._category_at = _GLOBAL_SIZE + n * _SEAT_SIZE
        self._cards_at = self._category_at + len(CATEGORIES)
        self.size = self._cards_at + n * NUM_CARDS
        self._variant_offsets: dict[str, int] = {}
        # One layout for every variant, muflis included (and under dealer's choice).
        if rules.variant != "classic" or rules.dealers_choice is not None:
            for name, width, _ in VARIANT_SLOTS:
                self._variant_offsets[name] = self.size
                self.size += width
            self._variant_offsets["burst"] = self.size
            self.size += n
        for slots, seat_slots in self._extras(rules):
            for name, width, _ in slots:
                self._variant_offsets[name] = self.size
                self.size += width
            for name, _ in seat_slots:
                self._variant_offsets[name] = self.size
                self.size += n
        # Seats in observer-relative order, and each seat's position in that order.
        self._orders = [tuple((seat + k) % n for k in range(n)) for seat in range(n)]
        self._relative = [{other: k for k, other in enumerate(order)} for order in self._orders]
        self.low = np.zeros(self.size, dtype=np.float32)
        self.high = np.full(self.size, _BIG, dtype=np.float32)
        for name, offset, width, _ in self.slots:
            if name.split(".")[-1] in _FLAGS:
                self.high[offset : offset + width] = 1.0

    @staticmethod
    def _extras(rules: Rules) -> list[tuple[tuple[tuple[str, int, str], ...],
                                            tuple[tuple[str, str], ...]]]:
        """The blocks of the part-2 variants this rule set may play, in layout order
        (under dealer's choice: every allowed variant's, and the choice itself)."""
        specs = rules.choice_specs or (rules.spec,)
        kinds = {kind for spec in specs for kind in spec.wild_kinds}
        blocks: list[Any] = []
        if any(spec.phase is not None for spec in specs):
            blocks.append((PHASE_SLOTS, PHASE_SEAT_SLOTS))
        if "thresholds" in kinds:
            blocks.append((THRESHOLD_SLOTS, ()))
        if "rotating_lowest" in kinds:
            blocks.append((ROTATING_SLOTS, ()))
        if any(spec.buy_a_joker for spec in specs):
            blocks.append((BUY_SLOTS, BUY_SEAT_SLOTS))
        if rules.dealers_choice is not None:
            width = len(rules.dealers_choice)
            blocks.append(((("choosing", 1, "the dealer is choosing the hand's variant (C1)"),
                            ("variant_chosen", width, "the chosen variant, one-hot in "
                             "dealers_choice order")), ()))
        if rules.vote_to_end:
            blocks.append((VOTE_SLOTS, ()))
        # sized for the largest own hand of any listed variant (dealer's choice): a hand
        # of a variant without slot actions writes its cards here too
        slots = max(map(hand_slots, specs)) if any(map(names_slots, specs)) else 0
        if slots:  # last, so that a version-1 vector is this one's head
            blocks.append((((SLOTS_NAME, slots * NUM_CARDS,
                             "own cards in hand-slot order, slot k's card one-hot at 52k"),),
                           ()))
        discards = max(hand_slots(spec) if spec.phase in DISCARD_PHASES else 0
                       for spec in specs)
        if discards:
            blocks.append((((DISCARDS_NAME, discards,
                             "strength left by each discard_k (holding four cards)"),), ()))
        return blocks

    @property
    def slots(self) -> list[tuple[str, int, int, str]]:
        """``(name, offset, width, meaning)`` for every slot; seat slots are named
        ``seat{k}.{field}`` with ``k`` counted to the observer's left (0: the observer)."""
        n = self.num_seats
        table = [(name, i, 1, text) for i, (name, _, text) in enumerate(GLOBAL_SLOTS)]
        for k in range(n):
            base = _GLOBAL_SIZE + k * _SEAT_SIZE
            table += [
                (f"seat{k}.{name}", base + i, 1, text)
                for i, (name, _, text) in enumerate(SEAT_SLOTS)
            ]
        name, width, text = CATEGORY_SLOT
        table.append((name, self._category_at, width, text))
        name, width, text = CARD_SLOT
        table += [(f"seat{k}.{name}", self._cards_at + k * width, width, text) for k in range(n)]
        offsets = self._variant_offsets
        if "community" in offsets:
            table += [(name, offsets[name], width, text) for name, width, text in VARIANT_SLOTS]
            table += [
                (f"seat{k}.burst", offsets["burst"] + k, 1, "burst at the deal")
                for k in range(n)
            ]
        for slots, seat_slots in self._extras(self.rules):
            table += [(name, offsets[name], width, text) for name, width, text in slots]
            for name, text in seat_slots:
                table += [(f"seat{k}.{name}", offsets[name] + k, 1, text) for k in range(n)]
        return table


def names_slots(spec: Any) -> bool:
    """Whether a variant ``spec``'s actions name a card by its hand slot (a selection phase,
    or buying a joker)."""
    return spec.phase is not None or bool(spec.buy_a_joker)


def hand_slots(spec: Any) -> int:
    """The most own cards a seat holds at once under a variant ``spec``: the private cards,
    with a shopping draw's and the passing dealer's-left seat's extra cards."""
    return int(spec.private_cards) + {"passing": 3, "shopping": 1}.get(spec.phase, 0)


def version_1_size(rules: Rules) -> int:
    """The size of ``rules``'s version-1 observation: the vector without ``my_slots``."""
    layout = ObservationSlots(rules)
    offset = layout._variant_offsets.get(SLOTS_NAME)
    return layout.size if offset is None else offset
