"""The state record every part of a hand works on, and the seat queries all of them ask.

:class:`HandState` declares every attribute of a hand, grouped by the part that owns it
(writes it); the parts (betting, show, selection, ...) are the classes stacked on it, one
module each, and :class:`~teenpatti_env.engine.hand.Hand` is the top of the stack.
``docs/design.md`` describes the structure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from teenpatti_env.engine.validation import is_seat
from teenpatti_env.rules.betting import NONE, other_in_hand, previous_player

if TYPE_CHECKING:
    import numpy as np

    from teenpatti_env.rules import Rules
    from teenpatti_env.rules.variants import Deal

ACTION_TYPES = (
    "look", "pack", "bet", "all_in", "show", "sideshow", "accept", "refuse",
    "discard", "draw", "keep", "pass", "buy_joker", "choose_variant",
)  # fmt: skip
"""Every action type: a classic hand's, in the order ``legal_actions`` lists them, then
the selection phases' (VARIANTS.md Phases, H4)."""
PHASE_TYPES = ("discard", "draw", "keep", "pass")
PHASES = ("discard_one", "shopping", "passing")
AMOUNT_TYPES = ("bet", "sideshow")
"""The action types that carry an ``amount``."""
RANK_TEXTS = "23456789TJQKA"

Event = dict[str, Any]
Known = tuple[int, dict[int, list[str]], tuple[int, ...], dict[int, tuple[int, ...]]]
"""A viewer's known cards: card events read, texts by seat, seats in order, ints by seat."""

TABLE_STATE = (
    "rules", "table_rules", "num_seats", "dealer", "stacks", "dealt_in", "cards", "hands",
    "rng", "contributions", "packed", "seen", "all_in", "blind_bets", "pot", "stake",
    "to_act", "pending_sideshow", "_seat_record",
)  # fmt: skip
"""The table: the chips, the seats and the turn, which the parts move through the moves
the rules name (a bet, a pack, a burst, a pass, the payout)."""
PART_STATE = {
    "outcome": ("end", "payouts", "shown"),
    "knowledge": ("_log", "_card_log", "_known_cache"),
    "valuation": (
        "variant_deal", "rotations", "_seat_values", "_thresholds", "_rotating",
        "_boots_total", "_values", "_classic", "_ranking",
    ),
    "variant_deal": ("burst", "bought"),
    "selection": (
        "selection", "phase_done", "drew", "draws", "parted", "deck_given", "deck",
        "dealt_deck", "discards", "reshuffles", "_recorded_reshuffles", "_drawing_reshuffled",
    ),
    "choice": ("choosing", "_pending", "_choices"),
}  # fmt: skip
"""The rest of a hand's state, by the part (module) that owns it."""


class HandState:
    """Every attribute of a hand, by owner, and the seat queries.

    Seats are ``0..n-1``; seat ``s`` passes to ``s + 1 mod n`` (its left). Any part may
    read any attribute; a part writes only the table's (:data:`TABLE_STATE`) and its own
    (:data:`PART_STATE`), and asks the owner of any other through its methods (for
    instance ``_record`` to log, ``_forget_value`` when a seat's cards change).
    ``dealing`` lays out every attribute, ``choice`` replaces a waiting hand by the
    chosen one, ``hand`` copies them.
    """

    # --- the table (TABLE_STATE): the chips, the seats and the turn
    rules: Rules
    table_rules: Rules
    """The table's rules (with dealer's choice, ``rules`` are the chosen variant's)."""
    num_seats: int
    dealer: int
    stacks: list[int]
    dealt_in: list[bool]
    cards: list[tuple[int, ...] | None]
    """Each seat's private cards as dealt (H1)."""
    hands: list[tuple[int, ...] | None]
    """Each seat's private cards now, in hand order (VARIANTS.md V4: deal order, a
    drawn or received card appended, a discarded or passed one removed); ``cards``
    keeps the deal (H1)."""
    rng: np.random.Generator | None
    contributions: list[int]
    packed: list[bool]
    seen: list[bool]
    all_in: list[bool]
    blind_bets: list[int]
    pot: int
    stake: int
    to_act: int | None
    pending_sideshow: tuple[int, int] | None
    _seat_record: tuple[list[Any], ...]
    """The seat lists the shared betting rules read (:meth:`_seats`), bound once a hand's
    lists are laid out (:meth:`_bind_seats`): the lists change in place, never rebound."""
    # --- the rest by owning part (PART_STATE)
    # outcome.py
    end: str | None
    payouts: list[int] | None
    shown: dict[int, list[str]]
    # knowledge.py
    _log: list[tuple[tuple[int, ...] | None, Event]]
    _card_log: list[tuple[tuple[int, ...] | None, Event]]
    """The log's card events alone (what the known cards are read from)."""
    _known_cache: dict[int | None, Known]
    # valuation.py: what the hands are worth now
    variant_deal: Deal
    rotations: int
    """Full betting rounds so far under rotating jokers (R1; public)."""
    _seat_values: list[int | None]
    _thresholds: tuple[int, ...]
    _rotating: bool
    _boots_total: int
    _values: list[int]
    _classic: bool
    _ranking: tuple[str, bool]
    # variant_deal.py: bursts and bought jokers
    burst: list[bool]
    bought: list[int | None]
    """The card each seat bought wild (buy_a_joker; known only to that seat)."""
    # selection.py
    selection: str | None
    """The selection phase running now (``discard_one``, ``shopping``, ``passing``)."""
    phase_done: list[bool]
    """Shopping: the seat kept; discard_one: the seat discarded."""
    drew: bool
    """Shopping: the seat to act drew and must discard."""
    draws: list[int]
    """Shopping draws per seat (public)."""
    parted: list[tuple[int, ...]]
    """The cards each seat discarded or passed on (known only to that seat)."""
    deck_given: bool
    deck: list[int]
    """The rest of the deck, top first (shopping draws from it)."""
    dealt_deck: tuple[int, ...]
    discards: list[int]
    """Cards discarded this hand (shopping reshuffles them when the deck runs out)."""
    reshuffles: list[tuple[int, ...]]
    """The deck after each reshuffle so far, top first (P7)."""
    _recorded_reshuffles: list[tuple[int, ...]]
    """A saved hand's reshuffles not yet replayed, used before ``rng``."""
    _drawing_reshuffled: bool
    # choice.py
    choosing: bool
    """C1: the dealer has yet to choose the hand's variant."""
    _pending: dict[str, Any] | None
    """The history's deal waiting for the dealer's choice (``None``: deal from ``rng``)."""
    _choices: tuple[str, ...]
    """The variants the dealer may choose: those the history's deal fits (all of the
    table's when the deal is to come)."""

    def _in_hand(self, seat: int) -> bool:
        return self.dealt_in[seat] and not self.packed[seat]

    def _can_bet(self, seat: int) -> bool:
        return self.dealt_in[seat] and not self.packed[seat] and not self.all_in[seat]

    # Only seats dealt in pack or go all-in, and never both: counting flags is exact.
    def _count_in_hand(self) -> int:
        return self.dealt_in.count(True) - self.packed.count(True)

    def _count_can_bet(self) -> int:
        return self.dealt_in.count(True) - self.packed.count(True) - self.all_in.count(True)

    @property
    def phase(self) -> str:
        """The selection phase running (``"discard_one"``, ``"shopping"``,
        ``"passing"``), ``"betting"`` or ``"over"``."""
        if self.end is not None:
            return "over"
        return self.selection or "betting"

    @property
    def over(self) -> bool:
        """Whether the hand is finished (the pot is paid out)."""
        return self.end is not None

    @property
    def net(self) -> list[int] | None:
        """Chips received minus chips put in, per seat; ``None`` while not over."""
        if self.payouts is None:
            return None
        return [p - c for p, c in zip(self.payouts, self.contributions, strict=True)]

    def seat_order(self) -> list[int]:
        """All seats from the dealer's left, the dealer last."""
        n = self.num_seats
        return [(self.dealer + 1 + i) % n for i in range(n)]

    def _previous_player(self, seat: int, seen_only: bool = False) -> int | None:
        other = previous_player(seat, seen_only, self._seats())
        return None if other == NONE else other

    def _other_in_hand(self, seat: int) -> int:
        return other_in_hand(seat, self._seats())

    def _seats(self) -> tuple[list[Any], ...]:
        """The seat record the shared betting rules read (``rules.betting``, in its field
        order ``STACK`` .. ``BLIND_BETS``): the hand's own per-seat lists."""
        return self._seat_record

    def _bind_seats(self) -> None:
        """Bind :meth:`_seats` to the per-seat lists laid out (a new hand, a copy)."""
        self._seat_record = (self.stacks, self.contributions, self.dealt_in, self.packed,
                             self.seen, self.all_in, self.blind_bets)

    def _seat(self, seat: int) -> int:
        if type(seat) is int and 0 <= seat < self.num_seats:  # the common case, first
            return seat
        if not is_seat(seat, self.num_seats):
            raise ValueError(f"no seat {seat!r}: seats are 0..{self.num_seats - 1}")
        return seat

    def _dealt_seat(self, seat: int) -> int:
        if not self.dealt_in[self._seat(seat)]:
            raise ValueError(f"seat {seat} is not dealt in this hand")
        return seat
