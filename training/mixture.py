"""The general policy's table kinds: :class:`TableKind` and :data:`GENERAL_MIXTURE`.

A mixture is a tuple of table kinds, each a name, the rules and a weight of drawing it
(and, for the short-stack kinds, the range of stacks its seats start with). The general
trainer (:mod:`training.general`) draws a kind per group of tables before every round;
the kinds' names are the column prefixes of its ``progress.csv``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from agents.padded_actions import PADDED_ACTION_NAMES
from agents.seat_padding import MAX_SEATS, unfit_reason
from teenpatti_env.environment.batch_variant import unsupported
from teenpatti_env.rules import MIN_PLAYERS, Rules
from teenpatti_env.rules.variants import PRESET_NAMES, VARIANTS


@dataclass(frozen=True)
class TableKind:
    """One entry of a mixture: a name (a ``progress.csv`` column prefix), the rules and
    the weight of drawing it."""

    name: str
    rules: Rules
    weight: float = 1.0
    short_stacks: tuple[int, int] | None = None
    """Short and uneven stacks: each table's seats start every hand of a round with
    stacks drawn per seat, log-uniformly between these many boots (the stacks a
    session's later hands have); ``None``: the rules' starting stack."""


def _setting_kinds() -> list[TableKind]:
    """``classic`` with other settings than its preset's, at four and six seats."""
    settings: dict[str, dict[str, Any]] = {
        "potlimit": {"pot_limit_betting": True},
        "capped": {"max_bet": 32, "pot_cap": 256},
        "nosideshow": {"sideshow": False},
    }
    return [TableKind(f"classic_{name}_{seats}",
                      Rules.preset("classic", num_players=seats, **values), 0.5)
            for name, values in settings.items() for seats in (4, 6)]


def batch_variants() -> list[str]:
    """The variants a general policy trains at: every named variant (classic aside) that
    the batched engine plays and the padded input and action space take (the selection
    phases and buying a joker among them)."""
    names = []
    for name in VARIANTS:
        rules = Rules.preset("classic", variant=name)
        if name != "classic" and unsupported(rules) is None \
                and unfit_reason(rules, PADDED_ACTION_NAMES) is None:
            names.append(name)
    return names


VARIANT_SEATS = {"muflis": (3, 7), "joker": (3, 7), "four_card": (3, 7)}
"""Variants the mixture also plays at other seat counts than four."""


def _variant_kinds() -> list[TableKind]:
    """Each of :func:`batch_variants` at four seats (weight 0.5), and those of
    :data:`VARIANT_SEATS` at their other seat counts (weight 0.25)."""
    kinds = []
    for name in batch_variants():
        kinds.append(TableKind(f"{name}_4", Rules.preset("classic", variant=name), 0.5))
        kinds += [TableKind(f"{name}_{seats}",
                            Rules.preset("classic", variant=name, num_players=seats), 0.25)
                  for seats in VARIANT_SEATS.get(name, ())]
    return kinds


SHORT_STACKS = (2, 300)
"""The range, in boots, of the short-stack kinds' stacks."""


def _short_stack_kinds() -> list[TableKind]:
    """``classic`` at 3..7 seats with short and uneven stacks (weight 1 at four seats,
    0.5 elsewhere)."""
    return [TableKind(f"classic_{seats}_short", Rules.preset("classic", num_players=seats),
                      1.0 if seats == 4 else 0.5, SHORT_STACKS)
            for seats in range(MIN_PLAYERS, MAX_SEATS + 1)]


GENERAL_MIXTURE: tuple[TableKind, ...] = (
    *(TableKind(f"{preset}_{seats}", Rules.preset(preset, num_players=seats))
      for preset in PRESET_NAMES for seats in range(MIN_PLAYERS, MAX_SEATS + 1)),
    *_setting_kinds(),
    *_short_stack_kinds(),
    *_variant_kinds(),
)
"""The ``general`` mixture: the four presets at 3..7 seats (weight 1 each),
``classic`` with pot-limit betting, with a bet and pot cap, and without sideshows, at four
and six seats (weight 0.5 each), ``classic`` at 3..7 seats with short and uneven stacks
(:data:`SHORT_STACKS`; weight 1 at four seats, 0.5 elsewhere), and the variants of
:func:`batch_variants` under the ``classic`` preset at four seats (0.5 each,
``discard_one``, ``shopping``, ``passing_cards`` and ``buy_a_joker`` among them;
``muflis``, ``joker`` and ``four_card`` also at three and seven, 0.25 each)."""


def mixture_names(mixture: Sequence[TableKind]) -> list[str]:
    """The kinds' names, in order."""
    return [kind.name for kind in mixture]
