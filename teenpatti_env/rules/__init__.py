"""Table settings and the four presets (RULES.md section 8).

``Rules`` is an immutable, validated value. ``Rules()`` is the classic table;
``Rules.preset("flash", boot=4)`` starts from a preset and overrides settings.

>>> Rules.preset("flash").max_bet
32
>>> Rules(boot=2).replace(lowball=True).lowball
True
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Any, ClassVar

from teenpatti_env.cards import NUM_CARDS
from teenpatti_env.nesting import check_nesting
from teenpatti_env.rules.betting import settings_of
from teenpatti_env.rules.variants import (
    PRESET_NAMES,
    VARIANTS,
    VariantSpec,
    variant_spec,
    variant_to_json,
)

MIN_PLAYERS, MAX_PLAYERS = 3, 7
MAX_TABLE_CHIPS = 10**15
"""The most chips one table may hold, every stack together: each chip count (stack,
pot, bet) then stays an exact integer in a float64 and a JavaScript number, and within the
bot protocol's bounds."""

_CHOICES: dict[str, tuple[Any, ...]] = {
    "best_sequence": ("AKQ", "A23"),
    "sideshow_target": ("previous", "previous_seen"),
    "sideshow_reveal": ("none", "private"),
    "short_stack": ("all_in", "pack", "showdown"),
    "entry_minimum": ("boot", "boot_plus_seen_bet"),
}
_BOOLS = (
    "pot_limit_betting",
    "sideshow",
    "sideshow_requires_all_seen",
    "look_anytime",
    "lowball",
    "vote_to_end",
)


@dataclass(frozen=True, init=False)
class Rules:
    """Every setting of a Teen Patti table; see RULES.md section 8 for the meanings.

    Built from keyword settings only (``Rules(boot=2)``: classic plus overrides); an
    unknown setting or a bad value is a ``ValueError`` naming the setting.
    """

    num_players: int = 4
    """Seats at the table, 3..7."""
    boot: int = 1
    """Chips every seat posts before the deal; the opening stake."""
    starting_boots: int = 100
    """A session's starting stack in boots."""
    best_sequence: str = "AKQ"
    """Top run: ``"AKQ"`` (A-K-Q, then A-2-3) or ``"A23"`` (A-2-3, then A-K-Q)."""
    raise_multiple: int = 2
    """``k``: a blind bet is ``S..k*S``, a seen bet ``2S..2k*S``."""
    max_blind_bets: int | None = 4
    """Blind bets a seat may make before it must look; ``None`` is unlimited."""
    max_bet: int | None = None
    """Largest seen bet (a blind bet is at most half of it); ``None`` is no limit."""
    pot_cap: int | None = None
    """Pot at which every hand still in is shown; ``None`` is no cap."""
    pot_limit_betting: bool = False
    """No bet larger than the pot before it."""
    sideshow: bool = True
    """Whether sideshows are allowed."""
    sideshow_target: str = "previous"
    """``"previous"`` player, or the nearest ``"previous_seen"`` player."""
    sideshow_requires_all_seen: bool = False
    """Sideshows only while every player still in has seen."""
    sideshow_reveal: str = "none"
    """``"private"``: the two players see each other's hand; ``"none"``: nobody does."""
    look_anytime: bool = True
    """Blind players may look off their turn."""
    short_stack: str = "all_in"
    """What a short player may do: ``"all_in"``, ``"pack"`` or force a ``"showdown"``."""
    entry_minimum: str = "boot"
    """Chips needed to enter a hand: ``"boot"`` or ``"boot_plus_seen_bet"``."""
    lowball: bool = False
    """Muflis: the whole hand ranking is reversed."""
    max_hands: int | None = None
    """Hands in a session; ``None`` plays until one seat is left."""
    dealers_choice: tuple[str | VariantSpec, ...] | None = None
    """VARIANTS.md C1: the variants the dealer chooses among before each hand (names or
    specs); ``None``: every hand plays ``variant``. When set, ``variant`` plays no part."""
    vote_to_end: bool = False
    """VARIANTS.md C3: after every hand of a session each seat still in answers
    ``vote_end`` or ``continue``; the session ends when all vote to end."""
    variant: str | VariantSpec = "classic"
    """The variant of VARIANTS.md: a name of :data:`~teenpatti_env.rules.variants.VARIANTS`, a
    ``VariantSpec``, or a spec dict (``{"private_cards": 4, ...}`` or ``{"name", "spec"}``).
    A built-in variant is kept as its name, any other as its spec."""

    PRESET_NAMES: ClassVar[tuple[str, ...]] = PRESET_NAMES

    def __init__(self, **settings: Any) -> None:
        _check_names(settings)
        check_nesting(settings, "rules")
        for field in dataclasses.fields(self):
            object.__setattr__(self, field.name, settings.get(field.name, field.default))
        try:
            spec = variant_spec(self.variant)
        except ValueError as error:
            raise ValueError(f"setting 'variant': {error}") from None
        built_in = variant_to_json(spec) == spec.name
        object.__setattr__(self, "variant", spec.name if built_in else spec)
        object.__setattr__(self, "dealers_choice", _choices(self.dealers_choice))
        _validate(self)

    @classmethod
    def of(cls, value: Rules | str | dict[str, Any] | None) -> Rules:
        """Rules from a ``Rules``, a preset name, a settings dict, or ``None`` (classic)."""
        if value is None:
            return cls()
        if isinstance(value, Rules):
            return value
        if isinstance(value, str):
            return cls.preset(value)
        if isinstance(value, dict):
            return cls.from_dict(value)
        raise ValueError(
            f"rules must be a Rules, a preset name or a dict of settings, got {value!r}"
        )

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> Rules:
        """The preset ``name`` (classic, pagat, flash, tabletop) with ``overrides``."""
        allowed = ", ".join(cls.PRESET_NAMES)
        if not isinstance(name, str):
            raise ValueError(f"a preset is a name ({allowed}), got {type(name).__name__}")
        if name not in PRESETS:
            raise ValueError(f"unknown preset {name!r}: allowed {allowed}")
        return PRESETS[name].replace(**overrides)

    @property
    def preset_name(self) -> str | None:
        """The preset these rules are (at their number of seats), or ``None``."""
        for name, preset in PRESETS.items():
            if preset.replace(num_players=self.num_players) == self:
                return name
        return None

    def replace(self, **changes: Any) -> Rules:
        """A new validated ``Rules`` with some settings changed."""
        _check_names(changes)
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Every setting as a plain JSON-able dict (a custom variant as ``{"name", "spec"}``)."""
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        out["variant"] = variant_to_json(self.spec)
        if self.dealers_choice is not None:
            out["dealers_choice"] = [variant_to_json(s) for s in self.choice_specs]
        return out

    @property
    def choice_specs(self) -> tuple[VariantSpec, ...]:
        """The specs of the variants the dealer may choose (empty without dealer's choice)."""
        return tuple(variant_spec(v) for v in self.dealers_choice or ())

    def with_variant(self, spec: VariantSpec) -> Rules:
        """These rules playing ``spec``, without dealer's choice (one hand's rules)."""
        return self.replace(variant=spec, dealers_choice=None)

    @property
    def spec(self) -> VariantSpec:
        """The variant's components."""
        variant = self.variant
        return VARIANTS[variant] if isinstance(variant, str) else variant

    @property
    def ranking_lowball(self) -> bool:
        """Whether hands rank lowball: ``lowball`` or the variant's (never reversed twice)."""
        return self.lowball or self.spec.lowball

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Build from ``to_dict()`` output or from ``{"preset": name, **overrides}``."""
        if not isinstance(data, dict):
            raise ValueError(f"rules must be a dict of settings, got {type(data).__name__}")
        settings = dict(data)
        preset = settings.pop("preset", "classic")
        return cls.preset(preset, **settings)

    @functools.cached_property
    def settings(self) -> tuple[int, ...]:
        """The settings the betting rules read, as ints (:func:`rules.betting.settings_of`;
        computed once, then an attribute read)."""
        return settings_of(self)

    @property
    def starting_stack(self) -> int:
        """Chips each seat starts a session with."""
        return self.boot * self.starting_boots

    @property
    def entry_chips(self) -> int:
        """Chips a seat needs to enter a hand."""
        if self.entry_minimum == "boot":
            return self.boot
        seen_bet = 2 * self.boot if self.max_bet is None else min(2 * self.boot, self.max_bet)
        return self.boot + seen_bet


def _check_names(settings: dict[str, Any]) -> None:
    known = {f.name for f in dataclasses.fields(Rules)}
    for name in settings:
        if not isinstance(name, str):
            raise ValueError(f"setting names must be strings, got {name!r}")
        if name not in known:
            raise ValueError(f"unknown setting {name!r}: allowed {', '.join(sorted(known))}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _choices(value: Any) -> tuple[str | VariantSpec, ...] | None:
    """C1: ``None`` or a non-empty list of distinct variant names or specs."""
    if value is None:
        return None
    if isinstance(value, (str, bytes, dict)) or not isinstance(value, (list, tuple)) or not value:
        raise ValueError(
            f"setting 'dealers_choice' must be None or a non-empty list of variants, got {value!r}"
        )
    out: list[str | VariantSpec] = []
    for item in value:
        try:
            spec = variant_spec(item)
        except ValueError as error:
            raise ValueError(f"setting 'dealers_choice': {error}") from None
        if not spec.name:
            raise ValueError("setting 'dealers_choice': every variant needs a name")
        out.append(spec.name if variant_to_json(spec) == spec.name else spec)
    names = [v if isinstance(v, str) else v.name for v in out]
    if len(set(names)) != len(names):
        raise ValueError(f"setting 'dealers_choice' names a variant twice: {names}")
    return tuple(out)


def _validate(rules: Rules) -> None:
    def need_int(name: str, low: int, high: int | None = None, optional: bool = False) -> None:
        value = getattr(rules, name)
        if optional and value is None:
            return
        if not _is_int(value) or value < low or (high is not None and value > high):
            allowed = f"an int in {low}..{high}" if high is not None else f"an int >= {low}"
            if optional:
                allowed += " or None"
            raise ValueError(f"setting {name!r} must be {allowed}, got {value!r}")

    need_int("num_players", MIN_PLAYERS, MAX_PLAYERS)
    need_int("boot", 1)
    need_int("starting_boots", 1)
    need_int("raise_multiple", 2)
    need_int("max_blind_bets", 0, optional=True)
    need_int("max_bet", 1, optional=True)
    need_int("pot_cap", 1, optional=True)
    need_int("max_hands", 1, optional=True)
    for name in _BOOLS:
        value = getattr(rules, name)
        if not isinstance(value, bool):
            raise ValueError(f"setting {name!r} must be True or False, got {value!r}")
    for name, allowed in _CHOICES.items():
        value = getattr(rules, name)
        if not isinstance(value, str) or value not in allowed:
            raise ValueError(
                f"setting {name!r} must be one of {', '.join(map(repr, allowed))}, got {value!r}"
            )
    if rules.num_players * rules.starting_stack > MAX_TABLE_CHIPS:
        raise ValueError(
            f"the starting stacks (num_players * boot * starting_boots = "
            f"{rules.num_players * rules.starting_stack}) exceed the table limit of "
            f"{MAX_TABLE_CHIPS} chips"
        )
    for spec in (rules.spec, *rules.choice_specs):
        needed = spec.cards_needed(rules.num_players)
        if needed > NUM_CARDS:
            raise ValueError(
                f"variant {spec.name or 'spec'!r} needs {needed} cards for {rules.num_players} "
                f"seats; the deck has {NUM_CARDS}"
            )
    if not isinstance(rules.variant, str) and spec.name in Rules.PRESET_NAMES:
        raise ValueError(f"{spec.name!r} is the name of a preset; name the variant otherwise")


PRESETS: dict[str, Rules] = {
    "classic": Rules(),
    "pagat": Rules(
        best_sequence="A23",
        max_blind_bets=None,
        sideshow_requires_all_seen=True,
        sideshow_reveal="private",
        look_anytime=False,
    ),
    "flash": Rules(
        boot=2,
        starting_boots=50,
        best_sequence="A23",
        max_bet=32,
        pot_cap=256,
        sideshow_reveal="private",
        short_stack="pack",
        max_hands=5,
    ),
    "tabletop": Rules(
        boot=10,
        max_bet=100,
        sideshow_target="previous_seen",
        sideshow_reveal="private",
        short_stack="showdown",
        entry_minimum="boot_plus_seen_bet",
    ),
}
