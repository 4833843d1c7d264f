"""The variants of VARIANTS.md: how a deal is valued, and every variant name in one place.

A variant is a :class:`VariantSpec` (components and checks: ``rules/variant_spec.py``);
the named variants are :data:`VARIANTS` (``rules/variant_catalogue.py``);
``Rules(variant=...)`` takes a name, a spec or a spec dict through :func:`variant_spec`,
which also keeps the family specials (``rules/family_specials.py``). This module is the
one the engine asks how many cards are dealt, which cards are wild for which seat, who
bursts and what a seat's cards are worth (:class:`Deal`); it also re-exports the names of
the modules above, so that ``from teenpatti_env.rules.variants import ...`` reaches all.

>>> spec = variant_spec("seven_joker_two_burst")
>>> spec.wild_ranks, spec.burst_rank
((5,), 0)
>>> variant_spec({"private_cards": 4}).private_cards
4
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, Protocol

from teenpatti_env.cards import format_card, rank_of, suit_of
from teenpatti_env.cards.hands import Ranking
from teenpatti_env.cards.hands import value_table as _value_table
from teenpatti_env.cards.wild import (
    COLOUR_CODES,
    public_wild,
    three_card_value,
    trusted_value,
)
from teenpatti_env.rules.family_specials import FAMILY_SPECIALS as FAMILY_SPECIALS
from teenpatti_env.rules.family_specials import load_variant as load_variant
from teenpatti_env.rules.family_specials import register_variant as register_variant
from teenpatti_env.rules.family_specials import save_variant as save_variant
from teenpatti_env.rules.family_specials import variant_spec as variant_spec
from teenpatti_env.rules.family_specials import variant_to_json as variant_to_json
from teenpatti_env.rules.variant_catalogue import PRESET_NAMES as PRESET_NAMES
from teenpatti_env.rules.variant_catalogue import VARIANT_DESCRIPTIONS as VARIANT_DESCRIPTIONS
from teenpatti_env.rules.variant_catalogue import VARIANTS as VARIANTS
from teenpatti_env.rules.variant_spec import COLOURS as COLOURS
from teenpatti_env.rules.variant_spec import WILD_KINDS as WILD_KINDS
from teenpatti_env.rules.variant_spec import VariantSpec as VariantSpec
from teenpatti_env.rules.variant_spec import WildSource as WildSource
from teenpatti_env.rules.variant_spec import check_spec as check_spec
from teenpatti_env.rules.variant_spec import colour_of as colour_of
from teenpatti_env.rules.variant_spec import parse_rank as parse_rank
from teenpatti_env.rules.variant_spec import rank_text as rank_text


class TableSettings(Ranking, Protocol):
    """What a deal needs of the table's settings: the ranking and the variant's spec;
    :class:`teenpatti_env.rules.Rules` is one (a protocol: the variants sit below the
    rules, which take their specs from here)."""

    @property
    def spec(self) -> VariantSpec:
        """The variant played."""


def cards_dealt(rules: TableSettings) -> int:
    """Private cards dealt to each seat."""
    return rules.spec.private_cards


def value_table(rules: TableSettings) -> list[int]:
    """The three-card lookup of the table's ranking (lowball from the rules or the variant)."""
    return _value_table(rules)


def seat_value(cards: Sequence[int], table: list[int]) -> int:
    """Value of three private cards with nothing wild (the classic fast path)."""
    a, b, c = cards
    return table[a * 2704 + b * 52 + c]


@dataclass(frozen=True)
class Deal:
    """The public cards of one deal and what they make wild.

    ``community`` and ``indicators`` are card ints in deal order; ``chosen`` is the rank
    index or colour a ``chosen_*`` source names (``None`` otherwise).
    """

    spec: VariantSpec
    community: tuple[int, ...] = ()
    indicators: tuple[int, ...] = ()
    chosen: int | str | None = None
    revealed: int = 0
    """Threshold indicators turned up so far (T1); the others are not wild yet."""

    @property
    def burst_rank(self) -> int | None:
        """The rank that bursts a seat (B1), if any."""
        burst = self.spec.burst_rank
        if burst == "indicator":
            return rank_of(self.indicators[-1])
        return burst if isinstance(burst, int) else None

    @cached_property
    def _public_masks(self) -> tuple[list[int], list[int]]:
        """:func:`public_wild` of this deal: the wild rank and suit flags."""
        kinds, counts, fixed = self.spec.source_codes
        chosen = self.chosen
        chosen_rank = chosen if isinstance(chosen, int) else -1
        chosen_colour = COLOUR_CODES.index(chosen) if isinstance(chosen, str) else -1
        burst = self.burst_rank
        ranks, suits = [0] * 13, [0] * 4
        public_wild(kinds, counts, fixed, self.indicators, self.revealed, chosen_rank,
                    chosen_colour, -1 if burst is None else burst, ranks, suits)
        return ranks, suits

    @property
    def wild_ranks(self) -> frozenset[int]:
        """Ranks wild for every seat (the burst rank never is: B2)."""
        return frozenset(r for r, wild in enumerate(self._public_masks[0]) if wild)

    @property
    def wild_suits(self) -> frozenset[int]:
        """Suits wild for every seat (indicator or chosen colour)."""
        return frozenset(u for u, wild in enumerate(self._public_masks[1]) if wild)

    @cached_property
    def _wild_card(self) -> tuple[bool, ...]:
        """For every card int: wild for every seat (B2: never the burst rank)."""
        if not self.spec.wild:
            return _NO_WILDS
        return _wild_cards(self.wild_ranks, self.wild_suits, self.burst_rank)

    @cached_property
    def _personal(self) -> bool:
        """A wild rank of the seat's own (personal or rotating lowest)."""
        kinds = self.spec.wild_kinds
        return "personal_lowest" in kinds or "rotating_lowest" in kinds

    @cached_property
    def _three(self) -> bool:
        """Exactly three usable cards (no community, no imaginary card)."""
        spec = self.spec
        return spec.private_cards == 3 and not spec.community_cards and not spec.imagined_card

    def _indicators_by_source(self) -> list[tuple[str, tuple[int, ...]]]:
        """Each indicator source with its cards, in draw order (S4)."""
        out = []
        at = 0
        for source in self.spec.wild:
            count = source.indicator_count
            if count:
                out.append((source.kind, self.indicators[at : at + count]))
                at += count
        return out

    @property
    def thresholds(self) -> tuple[int, ...]:
        """The ``thresholds`` source's chip counts (empty without one)."""
        return next((s.values for s in self.spec.wild if s.kind == "thresholds"), ())

    def hidden_indicators(self) -> frozenset[int]:
        """Positions in ``indicators`` of threshold indicators still face down (D2)."""
        at = 0
        for kind, cards in self._indicators_by_source():
            if kind == "thresholds":
                return frozenset(range(at + self.revealed, at + len(cards)))
            at += len(cards)
        return frozenset()

    def personal_rank(self, private: Sequence[int]) -> int | None:
        """The seat's own wild rank (``personal_lowest``): its lowest private rank, ace
        high (S1); ``None`` without that source or when it is the burst rank."""
        if "personal_lowest" not in self.spec.wild_kinds:
            return None
        lowest = min(rank_of(card) for card in private)
        return None if lowest == self.burst_rank else lowest

    def bursts(self, private: Sequence[int]) -> bool:
        """Whether a seat holding ``private`` bursts (only real private cards: B1)."""
        burst = self.burst_rank
        return burst is not None and any(rank_of(card) == burst for card in private)

    def wild_flags(self, cards: Sequence[int], personal: int | None) -> list[bool]:
        """Which of ``cards`` are wild for a seat whose own wild rank is ``personal``."""
        public = self._wild_card
        return [public[card] or rank_of(card) == personal for card in cards]

    def value(
        self,
        private: Sequence[int],
        best_sequence: str,
        lowball: bool,
        own_rank: int | None = None,
        bought: int | None = None,
    ) -> int:
        """The best value of a seat's hand: its private and the community cards, the
        imaginary card, every value of its wild cards (W1-W7). ``own_rank``: the seat's
        rotating wild rank (R2); ``bought``: the card it bought wild (J1)."""
        if self._three and not self._personal and len(private) == 3 and bought is None:
            a, b, c = private
            public = self._wild_card
            flags = (public[a], public[b], public[c])
            return three_card_value(a, b, c, flags, best_sequence, lowball)
        usable, flags_of = self.usable_cards(private, own_rank, bought)
        return trusted_value(usable, flags_of, self.spec.imagined_card, best_sequence, lowball)

    def usable_cards(self, private: Sequence[int], own_rank: int | None = None,
                     bought: int | None = None) -> tuple[list[int], list[bool]]:
        """The cards a seat holding ``private`` may use (its own, then the community
        cards) and which of them are wild for it (``own_rank``, ``bought``: as in
        :meth:`value`)."""
        usable = [*private, *self.community]
        personal = self.personal_rank(private)
        if own_rank is not None and own_rank != self.burst_rank:  # B2
            personal = own_rank
        flags_of = self.wild_flags(usable, personal)
        if bought is not None:
            flags_of = [flag or card == bought for flag, card in zip(flags_of, usable, strict=True)]
        return usable, flags_of

    def to_json(self) -> dict[str, Any]:
        """The hand-history fields of this deal (``community``, ``indicators``, ``chosen``)."""
        out: dict[str, Any] = {}
        if self.spec.community_cards:
            out["community"] = [format_card(c) for c in self.community]
        if self.spec.indicator_count:
            out["indicators"] = [format_card(c) for c in self.indicators]
        if self.chosen is not None:
            out["chosen"] = (
                {"rank": rank_text(self.chosen)}
                if isinstance(self.chosen, int)
                else {"colour": self.chosen}
            )
        return out


_NO_WILDS = (False,) * 52


@lru_cache(maxsize=1024)
def _wild_cards(
    ranks: frozenset[int], suits: frozenset[int], burst: int | None
) -> tuple[bool, ...]:
    return tuple(
        rank_of(card) != burst and (rank_of(card) in ranks or suit_of(card) in suits)
        for card in range(52)
    )


def parse_chosen(spec: VariantSpec, chosen: Any) -> int | str | None:
    """The ``chosen`` field of a history (H3): required exactly when the spec chooses."""
    need = spec.chooses
    if need is None:
        if chosen is not None:
            raise ValueError("'chosen' is given but the variant has no chosen_* wild source")
        return None
    if not isinstance(chosen, Mapping) or set(chosen) != {need}:
        raise ValueError(f"the variant needs 'chosen': {{{need!r}: ...}}, got {chosen!r}")
    value = chosen[need]
    if need == "rank":
        return parse_rank(value)
    if not isinstance(value, str) or value not in COLOURS:
        raise ValueError(f"chosen colour must be 'red' or 'black', got {value!r}")
    return str(value)


def draw_chosen(spec: VariantSpec, draw: Any) -> int | str | None:
    """A ``chosen_*`` value drawn uniformly with ``draw(n) -> int`` (S2)."""
    if spec.chooses == "rank":
        return int(draw(13))
    if spec.chooses == "colour":
        return ("red", "black")[int(draw(2))]
    return None
