"""The table's guide for a first-time player: a sentence for each preset, bot and variant,
the bots from weakest to strongest and which tables each can sit at, and "how to play"
under a table's rules (prices, the show, the sideshow, the limits)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from agents import make_agent
from agents.defaults import FALLBACK_AGENT
from teenpatti_env.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from teenpatti_env.rules.variants import VARIANT_DESCRIPTIONS, VARIANTS

PRESET_WORDS = {
    "classic": "A chips-only online table: boot 1, 100 boots each, A-K-Q the best run, at "
               "most four blind bets, sideshow hands kept secret, all-in when short.",
    "pagat": "The widely published rules: A-2-3 the best run, no limit to blind bets, look "
             "only on your turn, a sideshow only once everyone still in has looked, and "
             "the two sideshow hands compared privately.",
    "flash": "The usual Nepali table: boot 2, 50 boots each, bets capped at 32 and the pot "
             "at 256, no all-in (a short stack can only pack), five deals.",
    "tabletop": "A home-game leaflet: boot 10, bets capped at 100, the sideshow goes to the "
                "nearest player who has looked, and everything is shown as soon as someone "
                "runs short.",
}
"""One sentence per preset (docs/rules.md, section 8)."""

BOT_WORDS = {
    "random": "Picks any legal move at random.",
    "auto": "The online table's autoplay: looks at once and bets by its hand's strength; "
            "never asks for a sideshow.",
    "easy": "Looks at once, reads nothing into others' looks, and makes three moves in ten "
            "at random.",
    "medium": "Plays two blind turns, half-reads who has looked, one move in ten at random.",
    "hard": "Stays blind as long as it can, reads every look, never errs.",
    "equity": "Works out its exact odds against every hand others may hold, narrowed by "
              "their bets, and bets by the pot odds: the strongest scripted bot.",
}
"""One sentence per scripted bot (docs/arena.md)."""

STRENGTH_ORDER = ("random", "auto", "easy", "medium", "hard", "equity")
"""The scripted bots from weakest to strongest, as the arena ranks them."""
TRAINED_WORDS = ("A policy trained by self-play; it beats every scripted bot at the table "
                 "it was trained for, and can sit only at such a table.")


@cache
def bot_tables(bot: str) -> tuple[tuple[str, str, int], ...] | None:
    """The tables ``bot`` can sit at, as ``(preset, variant, players)``; ``None``: every
    table (a scripted bot)."""
    agent = make_agent(bot, seed=0)
    fits = []
    for preset in Rules.PRESET_NAMES:
        for variant in VARIANTS:
            for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
                try:
                    agent.check_rules(Rules.preset(preset, variant=variant)
                                      .replace(num_players=players))
                except ValueError:
                    continue
                fits.append((preset, variant, players))
    return None if len(fits) == len(Rules.PRESET_NAMES) * len(VARIANTS) * (
        MAX_PLAYERS - MIN_PLAYERS + 1) else tuple(fits)


def fits_words(tables: Sequence[tuple[str, str, int]]) -> str:
    """Where a bot that fits only ``tables`` can sit, in a player's words ("it plays only
    4-player tables of the classic variant")."""
    players = sorted({p for _, _, p in tables})
    variants = sorted({v for _, v, _ in tables})
    if not tables:
        return "it cannot sit at any table of this server"
    return (f"it plays only {' or '.join(map(str, players))}-player tables of the "
            f"{' or '.join(v.replace('_', ' ') for v in variants)} variant")


def bot_guide(bots: Sequence[str]) -> dict[str, Any]:
    """For the page (``GET /v1``): each bot's sentence and the tables it fits (``null``:
    all), the bots weakest first, the bot a default seat falls back to, a sentence per
    preset and variant, and each preset's how to play."""
    order = [b for b in STRENGTH_ORDER if b in bots]
    order += [b for b in bots if b not in order]  # trained bots: strongest at their table
    guide = {}
    for bot in bots:
        tables = bot_tables(bot)
        words = BOT_WORDS.get(bot, TRAINED_WORDS)
        where = None if tables is None else fits_words(tables)
        guide[bot] = {"words": words if where is None else f"{words} Here {where}.",
                      "fits": where,
                      "tables": None if tables is None else [list(t) for t in tables]}
    return {"bot_guide": guide, "bot_order": order, "fallback_bot": FALLBACK_AGENT,
            "preset_words": PRESET_WORDS, "variant_words": dict(VARIANT_DESCRIPTIONS),
            "variants": list(VARIANTS),
            "how_to_play": {name: how_to_play(Rules.preset(name)) for name in PRESET_WORDS}}


def how_to_play(rules: Rules) -> list[str]:
    """The table's rules in a few lines: prices, the blind limit, the show, the sideshow,
    the caps and what happens to a short stack."""
    k = rules.raise_multiple
    lines = [
        f"Everyone pays the boot ({rules.boot}) to enter a hand; the stake starts at the "
        "boot. On your turn you bet, or pack and lose what you put in.",
        f"Blind (before you look): bet from the stake to {k} times it; your bet becomes the "
        "stake. Looking is free.",
        f"Seen (after you look): bet (chaal) an even amount from twice the stake to {2 * k} "
        "times it; the stake becomes half your bet.",
    ]
    if rules.max_blind_bets is None:
        lines.append("There is no limit to blind bets.")
    elif rules.max_blind_bets == 0:
        lines.append("You must look before your first bet.")
    else:
        lines.append(f"At most {rules.max_blind_bets} blind bets each: then look to bet on.")
    if rules.max_bet is not None:
        lines.append(f"A seen bet is at most {rules.max_bet}, a blind bet at most "
                     f"{rules.max_bet // 2}.")
    if rules.pot_limit_betting:
        lines.append("No bet may be bigger than the pot.")
    if rules.pot_cap is not None:
        lines.append(f"When the pot reaches {rules.pot_cap}, every hand still in is shown "
                     "and the best one wins.")
    lines.append("Show: only when two players are left. It costs the smallest bet (the stake "
                 "blind, twice the stake seen); a seen player cannot show a blind one; both "
                 "hands are turned up and on a tie the one who asked loses.")
    if rules.sideshow:
        target = ("the player before you" if rules.sideshow_target == "previous" else
                  "the nearest player before you who has looked")
        everyone = " and everyone still in has looked" if rules.sideshow_requires_all_seen \
            else ""
        shown = ("the two of you see each other's hands" if rules.sideshow_reveal == "private"
                 else "nobody is shown either hand, only who packed")
        lines.append(f"Sideshow: once you have looked, with three or more players in"
                     f"{everyone}, pay a chaal and ask {target} (who has looked) to compare "
                     f"hands. They accept or refuse; on accepting the lower hand packs, and "
                     f"on a tie the one who asked packs; {shown}.")
    else:
        lines.append("There are no sideshows at this table.")
    short = {"all_in": "A player who cannot pay the smallest bet may go all-in; side pots "
                       "are made for the others.",
             "pack": "A player who cannot pay the smallest bet can only pack.",
             "showdown": "As soon as someone runs short, every hand still in is shown."}
    lines.append(short[rules.short_stack])
    if rules.ranking_lowball:
        lines.append("Lowball: the ranking is upside down and the weakest hand wins.")
    lines.append("A-K-Q is the best run, then A-2-3." if rules.best_sequence == "AKQ" else
                 "A-2-3 is the best run, then A-K-Q.")
    return lines


def table_guide(rules: Rules) -> dict[str, Any]:
    """The guide of one table: ``how_to_play`` and the variant's rules in words."""
    variant = rules.variant if isinstance(rules.variant, str) else None
    words = VARIANT_DESCRIPTIONS.get(variant or "", "a variant of its own")
    return {"how_to_play": how_to_play(rules),
            "variant_name": (variant or "custom").replace("_", " "),
            "variant_words": words[0].upper() + words[1:] + "."}

