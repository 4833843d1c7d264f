"""What one seat may know, as a flat float32 vector and as a JSON-able dict.

Both are built only from the seat's own knowledge: the public state of the table, its
own cards once it has looked, and the cards shown to it (a show, a showdown, or a
private sideshow reveal). Nothing else about other seats' cards, or the deck, enters.

Vector layout (``ObservationLayout.slots`` lists every slot with its offset): first the
global block, then one block per seat *relative to the observer*: block 0 is the
observer, block 1 the seat on its left (the next to act after it), ..., block n-1 the
seat on its right. Chip quantities are in boots (chips / boot). Flags are 0 or 1.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from teenpatti_env.cards import NUM_CARDS, RANKS, format_cards, parse_card, parse_cards
from teenpatti_env.cards.hands import CATEGORIES, value_categories, value_strengths
from teenpatti_env.engine import Hand, is_seat
from teenpatti_env.rules import Rules
from teenpatti_env.rules.variants import COLOURS

OBSERVATION_VERSION = 1
"""Bumped whenever the vector layout changes (saved policies record it)."""

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
_FLAGS = {
    "my_turn", "sideshow_asked", "hand_over", "hand_limit", "my_strength", "in_session",
    "dealt_in", "in_hand", "packed", "all_in", "seen", "is_dealer", "is_previous", "to_act",
    "sideshow_asker", "my_category", "cards", "community", "indicators", "wild_ranks",
    "wild_colours", "burst_rank", "burst", "in_phase", "my_parted", "phase_done",
    "my_bought", "bought", "vote_now", "choosing", "variant_chosen",
}  # fmt: skip
_BIG = float(np.finfo(np.float32).max)
_GLOBAL_SIZE = len(GLOBAL_SLOTS)
_SEAT_SIZE = len(SEAT_SLOTS)
_G = {name: i for i, (name, _, _) in enumerate(GLOBAL_SLOTS)}


def wild_known(hand: Hand, seat: int) -> tuple[list[int], list[str]]:
    """The wild ranks (sorted) and colours that ``seat`` knows of: the public ones, and its
    own personal rank once it has seen all its cards (V1)."""
    deal = hand.variant_deal
    passing = hand.selection == "passing"  # D2: its indicators are still face down
    ranks = set(deal.spec.wild_ranks if passing else deal.wild_ranks)
    cards = hand.hands[seat]
    if cards is not None and hand.knows_own_hand(seat):
        personal = deal.personal_rank(cards)
        rotating = hand.rotating_rank(seat)  # R3: seen only while the seat is seen
        for own in (personal, rotating):
            if own is not None and own != deal.burst_rank:
                ranks.add(own)
    suits = frozenset() if passing else deal.wild_suits
    colours = [c for c, members in COLOURS.items() if suits.issuperset(members)]
    return sorted(ranks), colours


def visible_burst_rank(hand: Hand) -> int | None:
    """The burst rank as the table knows it (an indicator's only once turned up)."""
    if hand.selection == "passing" and hand.variant_deal.spec.burst_rank == "indicator":
        return None
    return hand.variant_deal.burst_rank


@dataclass(frozen=True)
class TableFacts:
    """Session facts the hand itself does not hold."""

    in_session: tuple[bool, ...]
    hands_played: int = 0
    hands_remaining: int | None = None
    voter: int | None = None
    """The seat asked to vote now, between hands (C3)."""


class ObservationLayout:
    """The observation vector of one rule set (its size depends on ``num_players``).

    Order: the global scalars, the seat scalars of seat 0..n-1 (relative to the
    observer), the observer's hand category (one-hot), then the known cards of seat
    0..n-1 (one-hot by card int; block 0 is the observer's own cards once it has looked).
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
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
        self._rules_dict = rules.to_dict()
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

    def _variant_ones(self, hand: Hand, seat: int) -> list[int]:
        """The set slots of the variant block for ``seat``."""
        offsets = self._variant_offsets
        deal = hand.variant_deal
        ones = [offsets["community"] + card for card in deal.community]
        ones += [offsets["indicators"] + card for card in hand.visible_indicators()]
        ranks, colours = wild_known(hand, seat)
        ones += [offsets["wild_ranks"] + rank for rank in ranks]
        ones += [offsets["wild_colours"] + ("red", "black").index(c) for c in colours]
        burst = visible_burst_rank(hand)
        if burst is not None:
            ones.append(offsets["burst_rank"] + burst)
        order = self._orders[seat]
        ones += [offsets["burst"] + k for k, other in enumerate(order) if hand.burst[other]]
        if "in_phase" in offsets:
            if hand.selection is not None and hand.end is None:
                ones.append(offsets["in_phase"])
            ones += [offsets["my_parted"] + card for card in hand.parted[seat]]
            ones += [offsets["phase_done"] + k for k, o in enumerate(order) if hand.phase_done[o]]
        if "choosing" in offsets:
            if hand.choosing:
                ones.append(offsets["choosing"])
            else:
                names = [spec.name for spec in self.rules.choice_specs]
                ones.append(offsets["variant_chosen"] + names.index(hand.rules.spec.name))
        if "my_bought" in offsets:
            mine = hand.bought[seat]
            if mine is not None:
                ones.append(offsets["my_bought"] + mine)
            ones += [offsets["bought"] + k for k, o in enumerate(order)
                     if hand.bought[o] is not None]
        return ones

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
        if offsets:
            self._encode_variant(out, hand, seat, facts, per_boot)
        return out

    def _encode_variant(
        self, out: NDArray[np.float32], hand: Hand, seat: int, facts: TableFacts,
        per_boot: float,
    ) -> None:
        """Fill the variant and part-2 slots of ``seat``'s vector ``out``."""
        offsets = self._variant_offsets
        if "community" in offsets:
            for index in self._variant_ones(hand, seat):
                out[index] = 1.0
        if "draws" in offsets:
            base = offsets["draws"]
            for k, other in enumerate(self._orders[seat]):
                out[base + k] = hand.draws[other]
        if "beyond_boots" in offsets:
            out[offsets["beyond_boots"]] = hand.beyond_boots * per_boot
        if "rotations" in offsets:
            out[offsets["rotations"]] = hand.rotations
        if "vote_now" in offsets:
            out[offsets["vote_now"]] = facts.voter == seat

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
        kinds = {action["type"] for action in view["legal"]}
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
        out = np.zeros(self.size, dtype=np.float32)
        out[: len(scalars)] = scalars
        offsets = self._variant_offsets
        if "community" in offsets:
            ones += [offsets["community"] + card for card in parse_cards(view["community"])]
            ones += [offsets["indicators"] + card for card in parse_cards(view["indicators"])]
            ones += [offsets["wild_ranks"] + RANKS.index(rank) for rank in view["wild_ranks"]]
            ones += [offsets["wild_colours"] + ("red", "black").index(c)
                     for c in view["wild_colours"]]
            if view["burst_rank"] is not None:
                ones.append(offsets["burst_rank"] + RANKS.index(view["burst_rank"]))
            ones += [offsets["burst"] + k for k, other in enumerate(order) if seats[other]["burst"]]
        if "in_phase" in offsets:
            if running and view["phase"] not in ("betting", "over"):
                ones.append(offsets["in_phase"])
            ones += [offsets["my_parted"] + card for card in parse_cards(view["my_parted"])]
            done, draws = view["phase_done"], view["draws"]
            ones += [offsets["phase_done"] + k for k, other in enumerate(order) if done[other]]
            for k, other in enumerate(order):
                out[offsets["draws"] + k] = draws[other]
        if "choosing" in offsets:
            chosen = view["variant"]
            if chosen is None:
                ones.append(offsets["choosing"])
            else:
                ones.append(offsets["variant_chosen"] + view["dealers_choice"].index(chosen))
        if "my_bought" in offsets:
            if view["my_bought"] is not None:
                ones.append(offsets["my_bought"] + parse_card(view["my_bought"]))
            ones += [offsets["bought"] + k for k, other in enumerate(order)
                     if view["bought"][other]]
        out[ones] = 1.0
        if "beyond_boots" in offsets:
            out[offsets["beyond_boots"]] = view["beyond_boots"] * per_boot
        if "rotations" in offsets:
            out[offsets["rotations"]] = view["rotations"]
        if "vote_now" in offsets:
            out[offsets["vote_now"]] = "vote_end" in kinds
        return out

    def _tables(self, hand: Hand) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """Category and strength per value under the hand's ranking (under dealer's
        choice, the chosen variant's)."""
        if hand.rules is self.rules or self.rules.dealers_choice is None:
            return self._categories, self._strengths
        return value_categories(hand.rules), value_strengths(hand.rules)

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
        }

    def _variant_view(self, hand: Hand, seat: int) -> dict[str, Any]:
        """The variant's public cards and the wild cards as ``seat`` knows them."""
        # New lists for every view: callers keep what they get.
        if "community" not in self._variant_offsets:
            return {
                "community": [], "indicators": [], "chosen": None, "wild_ranks": [],
                "wild_colours": [], "burst_rank": None,
            }  # fmt: skip
        deal = hand.variant_deal
        ranks, colours = wild_known(hand, seat)
        burst = visible_burst_rank(hand)
        # The keys follow the table's layout (under dealer's choice: every allowed
        # variant's), so a table's views always hold the same keys.
        phase: dict[str, Any] = {}
        offsets = self._variant_offsets
        if "in_phase" in offsets:
            phase = {
                "phase_done": list(hand.phase_done),
                "draws": list(hand.draws),
                "my_parted": format_cards(hand.parted[seat]),
            }
        if "beyond_boots" in offsets:
            phase["beyond_boots"] = hand.beyond_boots
        if "rotations" in offsets:
            phase["rotations"] = hand.rotations
        if self.rules.dealers_choice is not None:
            phase["dealers_choice"] = [s.name for s in self.rules.choice_specs]
            phase["variant"] = None if hand.choosing else hand.rules.spec.name
            # ``rules`` is the chosen variant's; the table's fix the layouts (C1).
            phase["table_rules"] = dict(self._rules_dict)
        if "my_bought" in offsets:
            mine = hand.bought[seat]
            phase["bought"] = [card is not None for card in hand.bought]
            phase["my_bought"] = None if mine is None else format_cards([mine])[0]
        return {
            **phase,
            "community": format_cards(deal.community),
            "indicators": format_cards(hand.visible_indicators()),
            "chosen": deal.to_json().get("chosen"),
            "wild_ranks": [RANKS[r] for r in ranks],
            "wild_colours": list(colours),
            "burst_rank": None if burst is None else RANKS[burst],
        }
