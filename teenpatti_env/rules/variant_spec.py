"""A variant as components: :class:`VariantSpec`, its wild sources and its checks.

Every variant of VARIANTS.md is a frozen combination of a few components
(``private_cards``, ``community_cards``, ``open_private_cards``, ``imagined_card``, wild
sources, ``burst_rank``, ``visibility``, ``lowball``, ``phase``, ``buy_a_joker``).
:func:`check_spec` says whether a combination can be played. The named variants are in
:mod:`teenpatti_env.rules.variant_catalogue`; how a deal of a spec is valued is
:mod:`teenpatti_env.rules.variants`.

>>> VariantSpec.from_dict({"private_cards": 4, "wild": [{"ranks": ["7"]}]}).wild_ranks
(5,)
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from teenpatti_env.cards import RANKS, suit_of
from teenpatti_env.cards.wild import WILD_SOURCES

WILD_KINDS = WILD_SOURCES
"""Every wild source of VARIANTS.md."""

COLOURS = {"red": (1, 2), "black": (0, 3)}
"""Suit indices of each colour: hearts and diamonds are red, spades and clubs black."""

_INDICATORS = {"indicator_rank": 1, "indicator_colour": 1, "middle": 2}


def parse_rank(text: Any) -> int:
    """A rank index from ``"2".."9"``, ``"10"``/``"T"``, ``"J"``, ``"Q"``, ``"K"``, ``"A"``."""
    if isinstance(text, str):
        key = "T" if text.upper() == "10" else text.upper()
        if len(key) == 1 and key in RANKS:
            return RANKS.index(key)
    raise ValueError(f"not a rank: {text!r} (expected one of 2-9, 10 or T, J, Q, K, A)")


def rank_text(rank: int) -> str:
    return RANKS[rank]


def colour_of(card: int) -> str:
    """``"red"`` or ``"black"``."""
    return "red" if suit_of(card) in COLOURS["red"] else "black"


def _check_thresholds(values: Sequence[int]) -> None:
    """Raise ``ValueError`` unless the ints ``values`` are positive and strictly increasing."""
    if any(v <= 0 for v in values) or any(b <= a for a, b in itertools.pairwise(values)):
        raise ValueError(f"thresholds must be strictly increasing positive ints, got {values!r}")


@dataclass(frozen=True)
class WildSource:
    """One wild source: its kind and, for ``ranks`` and ``thresholds``, its values."""

    kind: str
    values: tuple[int, ...] = ()

    @property
    def indicator_count(self) -> int:
        """Indicators this source draws (S4): one per threshold, two for ``middle``."""
        if self.kind == "thresholds":
            return len(self.values)
        return _INDICATORS.get(self.kind, 0)

    def to_json(self) -> Any:
        if self.kind == "ranks":
            return {"ranks": [rank_text(r) for r in self.values]}
        if self.kind == "thresholds":
            return {"thresholds": list(self.values)}
        return self.kind

    @staticmethod
    def from_json(value: Any) -> WildSource:
        if isinstance(value, WildSource):
            return value
        if isinstance(value, str):
            if value in ("ranks", "thresholds") or value not in WILD_KINDS:
                raise ValueError(
                    f"unknown wild source {value!r}: expected one of "
                    f"{', '.join(k for k in WILD_KINDS if k not in ('ranks', 'thresholds'))}, "
                    "{'ranks': [...]} or {'thresholds': [...]}"
                )
            return WildSource(value)
        if isinstance(value, Mapping) and len(value) == 1:
            ((kind, values),) = value.items()
            if kind in ("ranks", "thresholds"):
                if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
                    raise ValueError(f"wild {kind} must be a list, got {values!r}")
                if not values:
                    raise ValueError(f"wild {kind} must not be empty")
                if kind == "ranks":
                    ranks = tuple(sorted({parse_rank(v) for v in values}))
                    return WildSource("ranks", ranks)
                if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
                    raise ValueError(f"thresholds must be ints, got {values!r}")
                _check_thresholds(values)
                return WildSource("thresholds", tuple(values))
        raise ValueError(
            f"a wild source is a name or {{'ranks': [...]}} / {{'thresholds': [...]}}, "
            f"got {value!r}"
        )


@dataclass(frozen=True)
class VariantSpec:
    """A variant as a combination of the components of VARIANTS.md."""

    name: str | None = None
    private_cards: int = 3
    community_cards: int = 0
    open_private_cards: int = 0
    imagined_card: bool = False
    wild: tuple[WildSource, ...] = ()
    burst_rank: int | str | None = None
    """A rank index, ``"indicator"`` or ``None``."""
    phase: str | None = None
    buy_a_joker: bool = False
    visibility: str = "normal"
    lowball: bool = False

    # ------------------------------------------------------------------ derived facts
    # Read on every deal; a spec never changes, so each is worked out once.

    @cached_property
    def wild_kinds(self) -> tuple[str, ...]:
        return tuple(source.kind for source in self.wild)

    @cached_property
    def wild_ranks(self) -> tuple[int, ...]:
        """The fixed wild ranks (``ranks`` sources)."""
        return tuple(sorted({r for s in self.wild if s.kind == "ranks" for r in s.values}))

    @cached_property
    def source_codes(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """The wild sources as integers for :func:`public_wild`: each source's index in
        :data:`WILD_KINDS`, the indicators each draws (S4), and the fixed ranks as 13 flags."""
        kinds = tuple(WILD_KINDS.index(source.kind) for source in self.wild)
        counts = tuple(source.indicator_count for source in self.wild)
        fixed = tuple(int(rank in self.wild_ranks) for rank in range(13))
        return kinds, counts, fixed

    @cached_property
    def indicator_count(self) -> int:
        """Indicators the deal draws (S4, S5)."""
        count = sum(source.indicator_count for source in self.wild)
        return count + (1 if self.burst_rank == "indicator" else 0)

    @cached_property
    def chooses(self) -> str | None:
        """``"rank"`` or ``"colour"`` when a ``chosen_*`` source needs a choice."""
        if "chosen_rank" in self.wild_kinds:
            return "rank"
        if "chosen_colour" in self.wild_kinds:
            return "colour"
        return None

    @cached_property
    def is_classic(self) -> bool:
        """Three private cards valued by the plain table: no variant machinery needed."""
        return (
            self.private_cards == 3
            and not self.community_cards
            and not self.open_private_cards
            and not self.imagined_card
            and not self.wild
            and self.burst_rank is None
            and self.phase is None
            and not self.buy_a_joker
            and self.visibility == "normal"
        )

    def cards_needed(self, seats: int) -> int:
        """Cards one deal takes for ``seats`` seats (passing deals three more)."""
        extra = 3 if self.phase == "passing" else 0
        return seats * self.private_cards + extra + self.community_cards + self.indicator_count

    # ------------------------------------------------------------------ JSON

    def to_dict(self) -> dict[str, Any]:
        """The spec as JSON (components only; ``name`` apart)."""
        burst: Any = self.burst_rank
        if isinstance(burst, int):
            burst = rank_text(burst)
        return {
            "private_cards": self.private_cards,
            "community_cards": self.community_cards,
            "open_private_cards": self.open_private_cards,
            "imagined_card": self.imagined_card,
            "wild": [source.to_json() for source in self.wild],
            "burst_rank": burst,
            "phase": self.phase,
            "buy_a_joker": self.buy_a_joker,
            "visibility": self.visibility,
            "lowball": self.lowball,
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any], name: str | None = None) -> VariantSpec:
        """A checked spec from its JSON form; an unknown component or a bad value is a
        ``ValueError`` naming it."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a variant spec is a dict of components, got {data!r}")
        known = {f.name for f in dataclasses.fields(VariantSpec)} - {"name"}
        unknown = sorted(set(data) - known - {"name"})
        if unknown:
            raise ValueError(
                f"unknown variant component {unknown[0]!r}: allowed {', '.join(sorted(known))}"
            )
        values = dict(data)
        given_name = values.pop("name", None)
        wild = values.get("wild", ())
        if isinstance(wild, (str, Mapping)):
            wild = [wild]
        if not isinstance(wild, Sequence):
            raise ValueError(f"wild must be a list of sources, got {wild!r}")
        values["wild"] = tuple(WildSource.from_json(w) for w in wild)
        burst = values.get("burst_rank")
        if burst is not None and burst != "indicator":
            values["burst_rank"] = parse_rank(burst)
        spec = VariantSpec(name=name or given_name, **values)
        check_spec(spec)
        return spec


def check_spec(spec: VariantSpec) -> None:
    """Raise ``ValueError`` unless ``spec`` can be played (VARIANTS C2, P10)."""

    def need(name: str, allowed: tuple[Any, ...]) -> None:
        value = getattr(spec, name)
        if type(value) not in {type(a) for a in allowed} or value not in allowed:
            raise ValueError(
                f"variant component {name!r} must be one of "
                f"{', '.join(map(repr, allowed))}, got {value!r}"
            )

    if not isinstance(spec.wild, tuple) or not all(isinstance(w, WildSource) for w in spec.wild):
        raise ValueError(f"wild must be a tuple of WildSource, got {spec.wild!r}")
    for source in spec.wild:
        if source.kind not in WILD_KINDS:
            raise ValueError(f"unknown wild source {source.kind!r}")
        values = source.values
        if source.kind == "ranks" and not (
            values and all(type(r) is int and 0 <= r < 13 for r in values)
        ):
            raise ValueError(f"wild ranks must be rank indices 0..12, got {values!r}")
        if source.kind == "thresholds":
            if not values or not all(type(t) is int for t in values):
                raise ValueError(
                    f"thresholds must be strictly increasing positive ints, got {values!r}"
                )
            _check_thresholds(values)
        if source.kind not in ("ranks", "thresholds") and values:
            raise ValueError(f"wild source {source.kind!r} takes no values")
    need("private_cards", (2, 3, 4))
    need("community_cards", (0, 1, 2))
    need("open_private_cards", (0, 2))
    need("imagined_card", (False, True))
    need("buy_a_joker", (False, True))
    need("lowball", (False, True))
    need("visibility", ("normal", "all_open"))
    need("phase", (None, "discard_one", "shopping", "passing"))
    burst = spec.burst_rank
    if not (burst is None or burst == "indicator" or (type(burst) is int and 0 <= burst < 13)):
        raise ValueError(f"burst_rank must be a rank, 'indicator' or None, got {burst!r}")
    kinds = spec.wild_kinds
    if len(set(kinds)) != len(kinds):
        raise ValueError(f"a wild source is listed twice: {list(kinds)}")
    if "chosen_rank" in kinds and "chosen_colour" in kinds:
        raise ValueError("a variant can have chosen_rank or chosen_colour, not both")
    if spec.private_cards + spec.community_cards + spec.imagined_card < 3:
        raise ValueError(
            "the variant cannot make a hand of three cards: private_cards + community_cards "
            f"+ imagined_card is {spec.private_cards + spec.community_cards + spec.imagined_card}"
        )
    if spec.open_private_cards >= spec.private_cards:
        raise ValueError(
            f"open_private_cards ({spec.open_private_cards}) must be fewer than "
            f"private_cards ({spec.private_cards})"
        )
    if spec.visibility == "all_open" and (
        spec.phase is not None or spec.buy_a_joker or spec.open_private_cards
    ):
        raise ValueError(
            "visibility 'all_open' goes with no phase, no buy_a_joker and no open private "
            "cards (a seat that never sees its cards cannot choose among them)"
        )
    if spec.phase == "discard_one" and (
        spec.private_cards - 1 + spec.community_cards + spec.imagined_card < 3
    ):
        raise ValueError("discard_one needs private_cards - 1 + community_cards + imagined >= 3")
    if spec.phase == "passing" and (spec.private_cards != 3 or spec.open_private_cards):
        raise ValueError("passing needs private_cards = 3 and no open private cards")
