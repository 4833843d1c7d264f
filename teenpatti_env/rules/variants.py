"""The variants of VARIANTS.md: components, named specs, and how a deal is valued.

Every variant is a :class:`VariantSpec`, a frozen combination of a few components
(``private_cards``, ``community_cards``, ``open_private_cards``, ``imagined_card``, wild
sources, ``burst_rank``, ``visibility``, ``lowball``; ``phase`` and ``buy_a_joker`` are
part 2). The named variants are specs in :data:`VARIANTS`; ``Rules(variant=...)`` takes a
name, a spec or a spec dict. The engine asks this module, and only this module, how many
cards are dealt, which cards are wild for which seat, who bursts and what a seat's cards
are worth (:class:`Deal`).

>>> spec = variant_spec("seven_joker_two_burst")
>>> spec.wild_ranks, spec.burst_rank
((5,), 0)
>>> variant_spec({"private_cards": 4}).private_cards
4
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, Protocol

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from teenpatti_env.cards import RANKS, format_card, rank_of, suit_of
from teenpatti_env.cards.hands import Ranking
from teenpatti_env.cards.hands import value_table as _value_table
from teenpatti_env.cards.wild import (
    COLOUR_CODES,
    WILD_SOURCES,
    public_wild,
    three_card_value,
    trusted_value,
)
from teenpatti_env.nesting import check_nesting

WILD_KINDS = WILD_SOURCES
"""Every wild source of VARIANTS.md."""

"""Wild sources whose rules come with the second part of the variants."""

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


@dataclass(frozen=True)
class WildSource:
    """One wild source: its kind and, for ``ranks`` and ``thresholds``, its values."""

    kind: str
    values: tuple[int, ...] = ()

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
                if any(v <= 0 for v in values) or any(
                    b <= a for a, b in itertools.pairwise(values)
                ):
                    raise ValueError(
                        f"thresholds must be strictly increasing positive ints, got {values!r}"
                    )
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
        counts = tuple(
            len(source.values) if source.kind == "thresholds" else _INDICATORS.get(source.kind, 0)
            for source in self.wild
        )
        fixed = tuple(int(rank in self.wild_ranks) for rank in range(13))
        return kinds, counts, fixed

    @cached_property
    def indicator_count(self) -> int:
        """Indicators the deal draws (S4, S5)."""
        count = 0
        for source in self.wild:
            count += _INDICATORS.get(source.kind, 0)
            if source.kind == "thresholds":
                count += len(source.values)
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
        if source.kind == "thresholds" and not (
            values
            and all(type(t) is int and t > 0 for t in values)
            and all(b > a for a, b in itertools.pairwise(values))
        ):
            raise ValueError(
                f"thresholds must be strictly increasing positive ints, got {values!r}"
            )
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


VARIANTS: dict[str, VariantSpec] = {}
"""The named variants of VARIANTS.md that the engine plays."""


_DESCRIPTIONS: dict[str, tuple[str, dict[str, Any]]] = {
    "classic": ("three private cards, nothing added", {}),
    "muflis": ("lowball: the whole ranking is reversed", {"lowball": True}),
    "imagine_one": (
        "two private cards and an imaginary third that becomes whatever is best",
        {"private_cards": 2, "imagined_card": True},
    ),
    "personal_joker": (
        "four private cards; each seat's own lowest rank is wild for it",
        {"private_cards": 4, "wild": ["personal_lowest"]},
    ),
    "all_open": (
        "every seat sees the others' cards but never its own until the hand is over",
        {"visibility": "all_open"},
    ),
    "joker_galore": (
        "an indicator card is turned up; every card of its colour is wild",
        {"wild": ["indicator_colour"]},
    ),
    "shared_pair": (
        "two community cards: the best three of five",
        {"community_cards": 2},
    ),
    "ak47": ("aces, kings, fours and sevens are wild", {"wild": [{"ranks": ["A", "K", "4", "7"]}]}),
    "joker": ("an indicator card is turned up; the other cards of its rank are wild",
              {"wild": ["indicator_rank"]}),
    "seven_joker": ("sevens are wild", {"wild": [{"ranks": ["7"]}]}),
    "one_open_card": (
        "two private cards and one community card",
        {"private_cards": 2, "community_cards": 1},
    ),
    "two_burst": ("a seat dealt a two packs at once", {"burst_rank": "2"}),
    "seven_joker_two_burst": (
        "sevens are wild and a seat dealt a two packs at once",
        {"wild": [{"ranks": ["7"]}], "burst_rank": "2"},
    ),
    "open_joker": (
        "two private cards, one community card, and a rank named before the deal is wild",
        {"private_cards": 2, "community_cards": 1, "wild": ["chosen_rank"]},
    ),
    "two_cards_open": (
        "the first two of each seat's cards are dealt face up",
        {"open_private_cards": 2},
    ),
    "middle_jokers": (
        "two indicators are turned up; every rank strictly between them is wild",
        {"wild": ["middle"]},
    ),
    "colour_jokers": ("a colour named before the deal is wild", {"wild": ["chosen_colour"]}),
    "four_card": ("four private cards: the best three count", {"private_cards": 4}),
    "rotating_jokers": (
        "each seat's lowest rank is wild for it, and the wild ranks move one seat left "
        "after every full betting round",
        {"wild": ["rotating_lowest"]},
    ),
    "buy_a_joker": (
        "once a hand a seen player may pay a boot to make one of its cards wild, in secret",
        {"buy_a_joker": True},
    ),
    "joker_thresholds": (
        "three face-down indicators turn up as the chips beyond the boots reach 10, 20 "
        "and 30; every rank turned up is wild",
        {"wild": [{"thresholds": [10, 20, 30]}]},
    ),
    "discard_one": (
        "four private cards; each seat discards one before betting, no blind play",
        {"private_cards": 4, "phase": "discard_one"},
    ),
    "shopping": (
        "before betting, seats pay a boot to draw a card and discard one, until all keep",
        {"phase": "shopping"},
    ),
    "passing_cards": (
        "six cards to the dealer's left, three passed on round the table; then a wild "
        "rank, a wild colour and a burst rank are turned up",
        {"phase": "passing", "wild": ["indicator_rank", "indicator_colour"],
         "burst_rank": "indicator"},
    ),
}

VARIANT_DESCRIPTIONS: dict[str, str] = {}
"""One line per named variant, for documentation and menus."""

for _name, (_text, _components) in _DESCRIPTIONS.items():
    VARIANTS[_name] = VariantSpec.from_dict(_components, name=_name)
    VARIANT_DESCRIPTIONS[_name] = _text


PRESET_NAMES = ("classic", "pagat", "flash", "tabletop")
"""The names of the rules presets (``Rules.preset``), which no family special may take."""

FAMILY_SPECIALS: dict[str, VariantSpec] = {}
"""The table's own named specs ([002] "Family Special", C2), added by
:func:`register_variant` or :func:`load_variant`: selectable by name wherever a variant
name is accepted, in this process."""


def variant_spec(value: str | VariantSpec | Mapping[str, Any]) -> VariantSpec:
    """The spec of a variant name (built-in or registered), a spec, or a spec dict
    (optionally ``{"name", "spec"}``)."""
    if isinstance(value, str):
        spec = VARIANTS.get(value) or FAMILY_SPECIALS.get(value)
        if spec is None:
            known = [*VARIANTS, *FAMILY_SPECIALS]
            raise ValueError(
                f"unknown variant {value!r}: allowed {', '.join(known)} or a spec dict"
            )
        return spec
    if isinstance(value, VariantSpec):
        spec = value
        check_spec(spec)
    elif isinstance(value, Mapping):
        if "spec" in value:
            extra = sorted(set(value) - {"name", "spec"})
            if extra:
                raise ValueError(f"a named spec has only 'name' and 'spec', got {extra}")
            name = value.get("name")
            _check_name_type(name)
            spec = VariantSpec.from_dict(value["spec"], name=name)
        else:
            _check_name_type(value.get("name"))
            spec = VariantSpec.from_dict(value)
    else:
        raise ValueError(f"a variant is a name, a VariantSpec or a dict, got {value!r}")
    _check_name_type(spec.name)
    if spec.name in VARIANTS and VARIANTS[spec.name] != spec:
        raise ValueError(f"{spec.name!r} is the name of a built-in variant")
    return spec


def register_variant(spec: VariantSpec | Mapping[str, Any]) -> VariantSpec:
    """Make a named spec selectable by its name (C2); returns the checked spec.

    Registering the same spec again is allowed; another spec under a registered name, a
    built-in variant's name or an unnamed spec is a ``ValueError``.
    """
    checked = variant_spec(spec)
    name = checked.name
    if not name:
        raise ValueError("a family special needs a name")
    if name in VARIANTS:
        raise ValueError(f"{name!r} is the name of a built-in variant")
    if name in PRESET_NAMES:
        raise ValueError(f"{name!r} is the name of a preset; name the variant otherwise")
    if FAMILY_SPECIALS.get(name, checked) != checked:
        raise ValueError(f"another variant is already registered as {name!r}")
    FAMILY_SPECIALS[name] = checked
    return checked


def load_variant(path: str | Path, register: bool = True) -> VariantSpec:
    """Read a family special from JSON or TOML (``{"name": ..., "spec": {...}}``; TOML with
    the same keys, a component left out for its default since TOML has no null), check
    it, and register it under its name unless ``register=False``."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise ValueError(f"cannot read {str(path)!r}: {error.strerror or error}") from None
    try:
        if path.suffix.lower() == ".toml":
            data: Any = tomllib.loads(raw.decode("utf-8"))
        elif path.suffix.lower() == ".json":
            data = json.loads(raw)
        else:
            raise ValueError("a variant file ends in .json or .toml")
    except (UnicodeDecodeError, json.JSONDecodeError, tomllib.TOMLDecodeError) as error:
        raise ValueError(f"{str(path)!r} is not valid {path.suffix[1:].upper()}: {error}") from None
    except ValueError as error:
        raise ValueError(f"{str(path)!r}: {error}") from None
    except RecursionError:
        raise ValueError(f"{str(path)!r} is nested too deeply to read") from None
    check_nesting(data, repr(str(path)))
    if not isinstance(data, Mapping) or set(data) != {"name", "spec"}:
        raise ValueError(f"{str(path)!r} must hold exactly 'name' and 'spec'")
    try:
        spec = variant_spec(data)
        if not spec.name:
            raise ValueError("a family special needs a name")
        return register_variant(spec) if register else spec
    except ValueError as error:
        raise ValueError(f"{str(path)!r}: {error}") from None


def save_variant(spec: VariantSpec | Mapping[str, Any], path: str | Path) -> Path:
    """Write a named spec as JSON ``{"name": ..., "spec": {...}}`` (C2)."""
    checked = variant_spec(spec)
    if not checked.name:
        raise ValueError("a family special needs a name")
    path = Path(path)
    if path.suffix.lower() != ".json":
        raise ValueError(f"family specials are saved as .json, got {str(path)!r}")
    data = {"name": checked.name, "spec": checked.to_dict()}
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return path


def _check_name_type(name: Any) -> None:
    if name is not None and not isinstance(name, str):
        raise ValueError(f"a variant name is a string, got {name!r}")


def variant_to_json(spec: VariantSpec) -> Any:
    """A built-in variant as its name, any other as ``{"name", "spec"}`` (C2)."""
    if spec.name in VARIANTS and VARIANTS[spec.name] == spec:
        return spec.name
    return {"name": spec.name, "spec": spec.to_dict()}


# ---------------------------------------------------------------------- one deal


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
            count = _INDICATORS.get(source.kind, 0)
            if source.kind == "thresholds":
                count = len(source.values)
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

