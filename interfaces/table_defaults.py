"""The defaults of a table for people, the web table's and the terminal's alike: a
chaal limit, a pot limit and a turn timer on unless turned off, and the bot that takes
a default seat the chosen bot cannot play.

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
FALLBACK_BOT = "equity"
"""The strongest scripted bot: it takes a default seat that a trained bot cannot play
(another seat count or variant than the one it was trained for)."""


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
            "turn_seconds": TURN_SECONDS, "fallback_bot": FALLBACK_BOT}
