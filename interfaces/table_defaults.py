"""The settings of a table for people, the web table's and the terminal's alike, with
their limits and defaults: a chaal limit, a pot limit and a turn timer on unless turned
off (the bot that takes a default seat a trained bot cannot play is
``agents.defaults.FALLBACK_AGENT``).

The limits are the engine's own settings (RULES.md): ``max_bet``, the largest seen bet
(a chaal; a blind bet is at most half of it), and ``pot_cap``, the pot at which every
hand still in is shown. A preset that sets them keeps its own; the others get
:data:`MAX_BET_BOOTS` and :data:`POT_CAP_BOOTS` times the boot, so with the usual stack
of 100 boots no single chaal or hand can take a player's whole stack at once.
"""

from __future__ import annotations

from typing import Any

from teenpatti_env.rules import Rules

MAX_BET_BOOTS = 16
"""Default chaal limit, in boots (a blind bet: at most half of it)."""
POT_CAP_BOOTS = 128
"""Default pot limit, in boots (eight chaal limits, as the apps have it)."""
TURN_SECONDS = 30
"""Default seconds a person has for a turn; a missed turn packs (a sideshow asked of
the person is refused)."""


def default_limits(rules: Rules, boot: int | None = None) -> dict[str, int]:
    """The chaal limit and pot limit a table under ``rules`` has by default, at ``boot``
    (default: the rules' boot): the preset's own where it sets one (scaled to the boot),
    else the defaults above."""
    boot = rules.boot if boot is None else boot
    return {
        "max_bet": boot * (rules.max_bet // rules.boot if rules.max_bet else MAX_BET_BOOTS),
        "pot_cap": boot * (rules.pot_cap // rules.boot if rules.pot_cap else POT_CAP_BOOTS),
    }


def defaults_info() -> dict[str, Any]:
    """The defaults as ``GET /v1`` tells them to the page."""
    return {"max_bet_boots": MAX_BET_BOOTS, "pot_cap_boots": POT_CAP_BOOTS,
            "turn_seconds": TURN_SECONDS}


TABLE_SETTINGS: dict[str, dict[str, Any]] = {
    "boot": {"min": 1, "max": 1000},
    "starting_stack": {"min": 1, "max": 1_000_000, "multiple_of": "boot"},
    "max_bet": {"min": 2, "max": 1_000_000, "optional": True, "at_least": "2 * boot"},
    "pot_cap": {"min": 4, "max": 10_000_000, "optional": True, "at_least": "2 * boot * seats"},
    "sideshow": {"type": "bool"},
    "turn_seconds": {"min": 5, "max": 600, "optional": True},
    "hands": {"min": 1, "max": 1000},
}
"""The settings a web game takes beside bots, preset, variant and seed, with their
limits (``GET /v1`` serves them, and the page checks its form with them). An absent
setting takes its default (:func:`preset_settings`); ``null`` turns an optional one
off."""


def preset_settings(preset: Rules, boot: int | None = None) -> dict[str, Any]:
    """The settings of :data:`TABLE_SETTINGS` a game under ``preset`` has by default (at
    ``boot``, default the preset's): a chaal limit, a pot limit and a turn timer on
    (``interfaces.table_defaults``), 10 hands."""
    return {"boot": preset.boot, "starting_stack": preset.starting_stack,
            **default_limits(preset, boot), "sideshow": preset.sideshow,
            "turn_seconds": TURN_SECONDS, "hands": 10}


PRESET_SETTINGS = {name: preset_settings(Rules.preset(name)) for name in Rules.PRESET_NAMES}
"""Each preset's default settings, for the page's form."""

def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def table_settings(preset: Rules, options: dict[str, Any], seats: int) -> dict[str, Any]:
    """The settings of :data:`TABLE_SETTINGS` from a new game's ``options``: absent ones
    take their defaults (the limits scaled to the boot given), ``null`` turns an optional
    one off; a value out of its limits is a ``ValueError`` naming the setting."""
    boot: Any = options.get("boot")
    defaults = preset_settings(preset, boot if _is_int(boot) and boot > 0 else None)
    settings = {name: options.get(name, default) for name, default in defaults.items()}
    for name, limits in TABLE_SETTINGS.items():
        value = settings[name]
        if limits.get("type") == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be true or false, got {value!r}")
        elif not (value is None and limits.get("optional")) and (
                not _is_int(value) or not limits["min"] <= value <= limits["max"]):
            blank = " or blank" if limits.get("optional") else ""
            raise ValueError(f"{name} must be a whole number from {limits['min']} to "
                             f"{limits['max']}{blank}, got {value!r}")
    boot = settings["boot"]
    if settings["starting_stack"] % boot:
        raise ValueError(f"starting_stack must be a multiple of the boot ({boot}), "
                         f"got {settings['starting_stack']}")
    if settings["max_bet"] is not None and settings["max_bet"] < 2 * boot:
        raise ValueError(f"max_bet must be at least twice the boot ({2 * boot}), "
                         f"got {settings['max_bet']}")
    if settings["pot_cap"] is not None and settings["pot_cap"] < 2 * boot * seats:
        raise ValueError(f"pot_cap must be at least twice the boots of the table "
                         f"({2 * boot * seats}), got {settings['pot_cap']}")
    return settings
