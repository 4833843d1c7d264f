"""Text for the terminal table (``teenpatti play``): cards with suit symbols, in colour
where the terminal has it, lines wrapped at word boundaries to its width, and the help
and hand rankings a player can ask for at any prompt."""

from __future__ import annotations

import os
import re
import shutil
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from typing import IO

from interfaces.story import CATEGORY_WORDS
from teenpatti_env.rules import Rules
from teenpatti_env.rules.variants import VARIANT_DESCRIPTIONS

SUITS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
"""Each suit letter's symbol."""
RED_SUITS = ("♥", "♦")
_CARD = re.compile(r"(?<![\w'])([2-9TJQKA])([shdc])(?![\w'])")
_SYMBOL_CARD = re.compile(r"(?<![\w'])(10|[2-9JQKA])([♠♥♦♣])")
_RED, _BOLD, _RESET = "\033[31m", "\033[1m", "\033[0m"
RANKING_EXAMPLES = {
    "trail": "A♠ A♥ A♦", "pure_sequence": "Q♥ J♥ 10♥", "sequence": "9♣ 8♦ 7♠",
    "colour": "K♠ 9♠ 4♠", "pair": "8♦ 8♣ K♥", "high_card": "A♣ J♦ 6♠",
}  # fmt: skip


@dataclass(frozen=True)
class Style:
    """How the terminal shows text: ``symbols`` (suit symbols instead of letters),
    ``colour`` (red hearts and diamonds, ANSI) and ``width`` (columns to wrap at)."""

    symbols: bool = True
    colour: bool = False
    width: int = 80

    @staticmethod
    def of(stream: IO[str], environ: Mapping[str, str] = os.environ) -> Style:
        """The style for ``stream``: suit symbols when its encoding has them, colour
        only on a terminal, without ``NO_COLOR`` and not ``TERM=dumb``, wrapped to the
        terminal's width (``COLUMNS``, else 80)."""
        try:
            "".join(SUITS.values()).encode(getattr(stream, "encoding", None) or "ascii")
            symbols = True
        except (UnicodeEncodeError, LookupError):
            symbols = False
        tty = hasattr(stream, "isatty") and stream.isatty()
        colour = tty and "NO_COLOR" not in environ and environ.get("TERM") != "dumb"
        width = shutil.get_terminal_size((80, 24)).columns
        return Style(symbols=symbols, colour=colour, width=max(40, width))

    def cards(self, text: str) -> str:
        """``text`` with every card (``Th``) as its rank and suit symbol (``10♥``)."""
        if not self.symbols:
            return text
        return _CARD.sub(lambda m: ("10" if m[1] == "T" else m[1]) + SUITS[m[2]], text)

    def block(self, text: str) -> str:
        """``text`` as shown: cards with symbols, each line wrapped at word boundaries to
        the width (a wrapped line goes on indented under its start), then coloured."""
        lines = []
        for line in self.cards(text).split("\n"):
            indent = " " * (len(line) - len(line.lstrip(" ")))
            if line.lstrip().startswith("| "):
                indent += "  "
            lines += textwrap.wrap(line, self.width, subsequent_indent=indent + "  ",
                                   break_long_words=False, break_on_hyphens=False,
                                   drop_whitespace=True) or [""]
        shown = "\n".join(lines)
        if self.colour:
            shown = _SYMBOL_CARD.sub(
                lambda m: f"{_RED if m[2] in RED_SUITS else _BOLD}{m[0]}{_RESET}", shown)
        return shown


def rankings_text(rules: Rules) -> str:
    """The hand rankings of ``rules``' table, best first, with an example of each (the
    whole order reversed under a lowball ranking such as muflis)."""
    order = list(CATEGORY_WORDS)  # trail first
    lowball = rules.ranking_lowball
    lines = ["Hand rankings, best first" + (" (lowball: the whole order is reversed, the "
                                            "lowest hand wins)" if lowball else "") + ":"]
    for number, category in enumerate(reversed(order) if lowball else order, 1):
        lines.append(f"  {number}. {CATEGORY_WORDS[category]:<14} {RANKING_EXAMPLES[category]}")
    top = "A-2-3, then A-K-Q" if rules.best_sequence == "A23" else "A-K-Q, then A-2-3"
    if lowball:
        lines.append("  Within a category, the lower cards win: a 5-high beats an 8-high.")
    else:
        lines.append(f"  The best runs: {top}. Within a category, the higher cards win.")
    variant = rules.variant if isinstance(rules.variant, str) else rules.variant.name
    if rules.dealers_choice is not None:
        lines.append("  Dealer's choice: the dealer names each hand's variant.")
    elif variant in VARIANT_DESCRIPTIONS and variant != "classic":
        lines.append(f"  This table plays {variant}: {VARIANT_DESCRIPTIONS[variant]}.")
    return "\n".join(lines)


def help_text(keys: Mapping[str, str]) -> str:
    """What a player can type at any prompt."""
    moves = ", ".join(f"{key} {kind.replace('_', ' ')}" for kind, key in keys.items())
    return "\n".join([
        "Type a move's key or name; a bet or sideshow takes an amount (b 4, chaal 4; no "
        "amount: the smallest). Words work too: chaal, blind, call, raise, fold, see, side.",
        f"Keys: {moves}.",
        "At any prompt: ? or help (this), rankings (the hand rankings), standings (the "
        "chips so far), quit (leave with the standings). Between hands, Enter deals the "
        "next one.",
    ])
