"""What one seat may know, as a flat float32 vector and as a JSON-able dict.

Both are built only from the seat's own knowledge: the public state of the table, its
own cards once it has looked, and the cards shown to it (a show, a showdown, or a
private sideshow reveal). Nothing else about other seats' cards, or the deck, enters.

Vector layout (``ObservationLayout.slots`` lists every slot with its offset): first the
global block, then one block per seat *relative to the observer*: block 0 is the
observer, block 1 the seat on its left (the next to act after it), ..., block n-1 the
seat on its right. Chip quantities are in boots (chips / boot). Flags are 0 or 1.
The slot tables and offsets are ``observation_slots.py``, the variant blocks
``observation_variant.py``; this module encodes the rest and re-exports their names.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from teenpatti_env.cards import NUM_CARDS, parse_cards
from teenpatti_env.cards.hands import CATEGORIES, value_categories, value_strengths
from teenpatti_env.engine import Hand, is_seat
from teenpatti_env.environment.observation_slots import BUY_SEAT_SLOTS as BUY_SEAT_SLOTS
from teenpatti_env.environment.observation_slots import BUY_SLOTS as BUY_SLOTS
from teenpatti_env.environment.observation_slots import CARD_SLOT as CARD_SLOT
from teenpatti_env.environment.observation_slots import CATEGORY_SLOT as CATEGORY_SLOT
from teenpatti_env.environment.observation_slots import DISCARD_PHASES
from teenpatti_env.environment.observation_slots import DISCARDS_NAME as DISCARDS_NAME
from teenpatti_env.environment.observation_slots import GLOBAL_SLOTS as GLOBAL_SLOTS
from teenpatti_env.environment.observation_slots import (
    OBSERVATION_VERSION as OBSERVATION_VERSION,
)
from teenpatti_env.environment.observation_slots import PHASE_SEAT_SLOTS as PHASE_SEAT_SLOTS
from teenpatti_env.environment.observation_slots import PHASE_SLOTS as PHASE_SLOTS
from teenpatti_env.environment.observation_slots import ROTATING_SLOTS as ROTATING_SLOTS
from teenpatti_env.environment.observation_slots import SEAT_SLOTS as SEAT_SLOTS
from teenpatti_env.environment.observation_slots import SLOTS_NAME as SLOTS_NAME
from teenpatti_env.environment.observation_slots import THRESHOLD_SLOTS as THRESHOLD_SLOTS
from teenpatti_env.environment.observation_slots import VARIANT_SLOTS as VARIANT_SLOTS
from teenpatti_env.environment.observation_slots import VERSION_2_BLOCKS as VERSION_2_BLOCKS
from teenpatti_env.environment.observation_slots import VOTE_SLOTS as VOTE_SLOTS
from teenpatti_env.environment.observation_slots import ObservationSlots as ObservationSlots
from teenpatti_env.environment.observation_slots import TableFacts as TableFacts
from teenpatti_env.environment.observation_slots import version_1_size as version_1_size
from teenpatti_env.environment.observation_variant import VariantBlocks
from teenpatti_env.environment.observation_variant import (
    visible_burst_rank as visible_burst_rank,
)
from teenpatti_env.environment.observation_variant import wild_known as wild_known
from teenpatti_env.rules import Rules


class ObservationLayout(VariantBlocks):
    """The observation vector of one rule set (its size depends on ``num_players``).

    Order: the global scalars, the seat scalars of seat 0..n-1 (relative to the
    observer), the observer's hand category (one-hot), then the known cards of seat
    0..n-1 (one-hot by card int; block 0 is the observer's own cards once it has looked).
    """

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        self._scalar_format = f"{self._cards_at}f"
        """The global and seat scalars and the category one-hot, packed as float32 at the
        vector's head (struct keeps the compiled format; a Struct itself would not pickle)."""
        width = len(CATEGORIES)
        self._category_hots = [
            tuple(1.0 if slot == category else 0.0 for slot in range(width))
            for category in range(width)
        ]
        self._no_category = (0.0,) * width
        self._categories = value_categories(rules)
        self._strengths = value_strengths(rules)

    def encode(self, hand: Hand, seat: int, facts: TableFacts) -> NDArray[np.float32]:
        """The observation vector of ``seat``."""
        per_boot = 1.0 / hand.rules.boot
        running = hand.end is None
        out = np.zeros(self.size, dtype=np.float32)
        strength = 0.0
        category = self._no_category
        knows_own, known_cards = hand.known_card_ints_of(seat)
        if knows_own and hand.selection != "passing":
            # D2: during the passing the hand's value would tell the face-down indicators
            value = hand.hand_value(seat)
            categories, strengths = self._tables(hand)
            strength = strengths[value]
            category = self._category_hots[categories[value]]
        bets = self._open_bets(hand, seat)
        pending = hand.pending_sideshow
        my_turn = running and hand.to_act == seat
        remaining = facts.hands_remaining
        # Every scalar is a Python float (flags 1.0 / 0.0): struct packs a float as it is,
        # where a bool or an int would first be turned into a new float object.
        scalars: list[float] = [
            hand.pot * per_boot,
            hand.stake * per_boot,
            0.0 if bets is None else bets[0] * per_boot,
            0.0 if bets is None else bets[1] * per_boot,
            1.0 if my_turn else 0.0,
            1.0 if my_turn and pending is not None else 0.0,
            0.0 if running else 1.0,
            facts.hands_played + 0.0,
            0.0 if remaining is None else remaining + 0.0,
            0.0 if remaining is None else 1.0,
            strength,
        ]
        previous = hand.previous_player(seat) if running else None
        asker = None if pending is None else pending[0]
        to_act = hand.to_act if running else None
        in_session = facts.in_session
        dealer = hand.dealer
        dealt_in, packed, all_in = hand.dealt_in, hand.packed, hand.all_in
        seen, blind_bets = hand.seen, hand.blind_bets
        stacks, chips_in = hand.stacks, hand.contributions
        for other in self._orders[seat]:
            scalars += (
                1.0 if in_session[other] else 0.0,
                1.0 if dealt_in[other] else 0.0,
                1.0 if dealt_in[other] and not packed[other] else 0.0,
                1.0 if packed[other] else 0.0,
                1.0 if all_in[other] else 0.0,
                1.0 if seen[other] else 0.0,
                blind_bets[other] + 0.0,
                stacks[other] * per_boot,
                chips_in[other] * per_boot,
                1.0 if other == dealer else 0.0,
                1.0 if other == previous else 0.0,
                1.0 if other == to_act else 0.0,
                1.0 if other == asker else 0.0,
            )
        scalars += category
        # The scalars fill the vector's head, rounded to float32 as numpy would round them.
        struct.pack_into(self._scalar_format, out, 0, *scalars)  # type: ignore[arg-type]
        relative = self._relative[seat]
        cards_at = self._cards_at
        for other, cards in known_cards.items():
            base = cards_at + relative[other] * NUM_CARDS
            for card in cards:  # a few slots: quicker one by one than by fancy indexing
                out[base + card] = 1.0
        offsets = self._variant_offsets
        slots_at = offsets.get(SLOTS_NAME)
        if slots_at is not None:
            for k, card in enumerate(known_cards.get(seat, ())):
                out[slots_at + k * NUM_CARDS + card] = 1.0
            left = self.discard_strengths(hand, seat)
            if left is not None:
                at = offsets[DISCARDS_NAME]
                out[at : at + len(left)] = left
        if offsets:
            self._encode_variant(out, hand, seat, facts, per_boot)
        return out

    def encode_view(self, view: Mapping[str, Any]) -> NDArray[np.float32]:
        """The observation vector of the seat whose info view (:meth:`view`) this is.

        A view holds everything the vector does, so a program that has only the view (a
        bot served over the network) builds exactly the vector the environment gives.
        Raises ``ValueError`` (or ``KeyError``/``TypeError``) on a view that does not fit.
        """
        n = self.num_seats
        seat = view["seat"]
        seats = view["seats"]
        if not is_seat(seat, n) or len(seats) != n:
            raise ValueError(f"a view of this table names seat 0..{n - 1} among {n} seats")
        per_boot = 1.0 / view["boot"]
        result = view["result"]
        running = result is None
        my_turn = bool(view["my_turn"])
        pending = view["sideshow"]
        remaining = view["hands_remaining"]
        ones: list[int] = []
        strength = view["strength"]
        if view["category"] is not None:
            ones.append(self._category_at + CATEGORIES.index(view["category"]))
        low, high = view["min_bet"], view["max_bet"]
        scalars: list[Any] = [
            view["pot"] * per_boot,
            view["stake"] * per_boot,
            0 if low is None else low * per_boot,
            0 if high is None else high * per_boot,
            my_turn,
            my_turn and pending is not None,
            not running,
            view["hands_played"],
            0 if remaining is None else remaining,
            remaining is not None,
            0.0 if strength is None else float(strength),
        ]
        previous = view["previous_player"] if running else None
        asker = None if pending is None else pending["asker"]
        to_act = view["to_act"] if running else None
        order = self._orders[seat]
        for other in order:
            entry = seats[other]
            scalars += (
                entry["in_session"],
                entry["dealt_in"],
                entry["dealt_in"] and not entry["packed"],
                entry["packed"],
                entry["all_in"],
                entry["seen"],
                entry["blind_bets"],
                entry["stack"] * per_boot,
                entry["chips_in"] * per_boot,
                other == view["dealer"],
                other == previous,
                other == to_act,
                other == asker,
            )
            if entry["cards"]:
                base = self._cards_at + self._relative[seat][other] * NUM_CARDS
                ones += [base + card for card in parse_cards(entry["cards"])]
        slots_at = self._variant_offsets.get(SLOTS_NAME)
        if slots_at is not None and seats[seat]["cards"]:
            ones += [slots_at + k * NUM_CARDS + card
                     for k, card in enumerate(parse_cards(seats[seat]["cards"]))]
        out = np.zeros(self.size, dtype=np.float32)
        left = view.get("discard_strengths")
        if left and DISCARDS_NAME in self._variant_offsets:
            at = self._variant_offsets[DISCARDS_NAME]
            out[at : at + len(left)] = left
        out[: len(scalars)] = scalars
        out[ones] = 1.0
        self._encode_view_variant(out, view, order, per_boot)
        return out

    def _tables(self, hand: Hand) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """Category and strength per value under the hand's ranking (under dealer's
        choice, the chosen variant's)."""
        if hand.rules is self.rules or self.rules.dealers_choice is None:
            return self._categories, self._strengths
        return value_categories(hand.rules), value_strengths(hand.rules)

    def discard_strengths(self, hand: Hand, seat: int) -> list[float] | None:
        """The strength each ``discard_k`` would leave ``seat`` (the ``my_discards``
        slots): ``None`` unless the layout has them and ``seat`` knows the four cards it
        holds in a ``discard_one`` or ``shopping`` hand."""
        if (DISCARDS_NAME not in self._variant_offsets or hand.choosing
                or hand.rules.spec.phase not in DISCARD_PHASES
                or not hand.knows_own_hand(seat) or len(hand.hands[seat] or ()) <= 3):
            return None
        strengths = self._tables(hand)[1]
        return [strengths[value] for value in hand.values_after_discard(seat)]

    @staticmethod
    def _open_bets(hand: Hand, seat: int) -> tuple[int, int] | None:
        """The bet range open to ``seat`` on its turn now (``None`` if it cannot bet, or
        while a sideshow waits for its answer)."""
        if hand.end is not None or hand.pending_sideshow is not None:
            return None
        return hand.open_bet_range(seat)

    def view(
        self,
        hand: Hand,
        seat: int,
        facts: TableFacts,
        legal: list[dict[str, Any]],
        legal_names: list[str],
        agent_names: list[str],
    ) -> dict[str, Any]:
        """The JSON-able view of ``seat``: the public table plus this seat's knowledge.

        ``legal`` and ``legal_names`` are the seat's legal engine actions and the names of
        its legal action indices (both empty when it is not to act).
        """
        running = hand.end is None
        cards = hand.known_cards(seat)
        mine = cards.get(seat)
        category = strength = None
        if hand.knows_own_hand(seat) and hand.selection != "passing":
            # D2: during the passing the hand's value would tell the face-down indicators
            value = hand.hand_value(seat)
            categories, strengths = self._tables(hand)
            category = CATEGORIES[categories[value]]
            strength = strengths[value]
        bets = self._open_bets(hand, seat)
        pending = hand.pending_sideshow
        in_session = facts.in_session
        seats = [
            {
                "seat": other,
                "agent": agent_names[other],
                "in_session": in_session[other],
                "dealt_in": hand.dealt_in[other],
                "packed": hand.packed[other],
                "all_in": hand.all_in[other],
                "seen": hand.seen[other],
                "blind_bets": hand.blind_bets[other],
                "stack": hand.stacks[other],
                "chips_in": hand.contributions[other],
                "cards": cards.get(other),
                "burst": hand.burst[other],
            }
            for other in range(self.num_seats)
        ]
        result = None
        if not running:
            result = {
                "end": hand.end,
                "net": hand.net,
                "payouts": list(hand.payouts or ()),
                "shown": [{"seat": s, "cards": list(c)} for s, c in sorted(hand.shown.items())],
            }
        return {
            "agent": agent_names[seat],
            "seat": seat,
            "rules": dict(self._rules_dict) if hand.rules is self.rules or
            self.rules.dealers_choice is None else hand.rules.to_dict(),
            "phase": hand.phase,
            "dealer": hand.dealer,
            "to_act": hand.to_act,
            "my_turn": running and hand.to_act == seat,
            "boot": hand.rules.boot,
            "pot": hand.pot,
            "stake": hand.stake,
            "seen": hand.seen[seat],
            "cards": None if mine is None else list(mine),
            "category": category,
            "strength": strength,
            "min_bet": None if bets is None else bets[0],
            "max_bet": None if bets is None else bets[1],
            "previous_player": hand.previous_player(seat) if running else None,
            "sideshow_target": hand.sideshow_target(seat) if running else None,
            "sideshow": None if pending is None else {"asker": pending[0], "target": pending[1]},
            "seats": seats,
            "legal": legal,
            "legal_actions": legal_names,
            "hands_played": facts.hands_played,
            "hands_remaining": facts.hands_remaining,
            "result": result,
            **self._variant_view(hand, seat),
            **({"discard_strengths": self.discard_strengths(hand, seat)}
               if DISCARDS_NAME in self._variant_offsets else {}),
        }
