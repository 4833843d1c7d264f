"""The variant blocks of the observation: what a seat knows of the variant's cards.

The slots after the cards (community cards, indicators, wild ranks and colours, the
burst rank, the selection phase, thresholds, rotations, bought jokers, dealer's choice,
the vote between hands), encoded from the hand (:meth:`VariantBlocks._encode_variant`),
from a seat's view (:meth:`VariantBlocks._encode_view_variant`) and written into the
view (:meth:`VariantBlocks._variant_view`). Only what the seat may know enters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from teenpatti_env.cards import RANKS, format_cards, parse_card, parse_cards
from teenpatti_env.engine import Hand
from teenpatti_env.environment.observation_slots import ObservationSlots, TableFacts
from teenpatti_env.rules.variants import COLOURS


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


class VariantBlocks(ObservationSlots):
    """The encoders of the variant blocks (the base of the observation layout)."""

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

    def _encode_view_variant(
        self, out: NDArray[np.float32], view: Mapping[str, Any], order: tuple[int, ...],
        per_boot: float,
    ) -> None:
        """Fill the variant and part-2 slots of ``out`` from a seat's view, as
        :meth:`_encode_variant` fills them from the hand (``order``: the seats relative to
        the observer)."""
        seats = view["seats"]
        running = view["result"] is None
        ones: list[int] = []
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
            # a card discarded, drawn back after a reshuffle and discarded again is listed twice
            ones += [offsets["my_parted"] + card
                     for card in parse_cards(view["my_parted"], distinct=False)]
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
            out[offsets["vote_now"]] = any(action["type"] == "vote_end" for action in view["legal"])

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
