"""Choices in the variants' selection phases (VARIANTS.md Phases) and buying a joker,
shared by the scripted agents: keep the best three, discard the worst card, shop only
when it pays, buy a joker only when it lifts the hand a lot.

A kept set is valued from what the seat knows (its info view): its cards, the community
cards, the imaginary card, and the wild ranks and colours it has been shown.

>>> best_kept(["2c", "Ah", "7d", "As"], 3, {"rules": {}, "wild_ranks": [], "wild_colours": []})
(1, 2, 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from agents.base import Info, LegalMoves
from agents.odds import rules_of
from teenpatti_env.cards import RANKS, parse_card, rank_of
from teenpatti_env.cards.hands import value_strengths
from teenpatti_env.cards.wild import best_value
from teenpatti_env.rules.variants import colour_of

BUY_GAIN = 0.15
"""Buy a joker when making one card wild lifts the hand's strength by at least this much
(a boot for, say, a high card turned into a pair)."""
SELECTION_PHASES = ("discard_one", "shopping", "passing")
"""The selection phases, as a seat's info view names the phase running."""
SHOP_BELOW = 0.6
"""Draw a card while the hand beats less than this share of all hands (about a king
high): a boot buys a fourth card to choose from, which pays for weak hands."""


def kept_value(cards: Sequence[str], info: Info, also_wild: str | None = None) -> int:
    """The value of keeping ``cards`` (with the community and imaginary cards and the
    wilds the seat knows, and ``also_wild`` made wild), on the engine's scale."""
    rules = rules_of(info.get("rules") or {})
    spec = rules.spec
    wild_ranks = {RANKS.index(rank) for rank in info.get("wild_ranks") or ()}
    colours = set(info.get("wild_colours") or ())
    usable = [parse_card(card) for card in (*cards, *(info.get("community") or ()))]
    extra = None if also_wild is None else parse_card(also_wild)
    flags = [rank_of(card) in wild_ranks or colour_of(card) in colours or card == extra
             for card in usable]
    return best_value(usable, flags, imagined=spec.imagined_card,
                      best_sequence=rules.best_sequence, lowball=rules.ranking_lowball)


def best_kept(cards: Sequence[str], keep: int, info: Info) -> tuple[int, ...]:
    """The slots of the ``keep`` cards worth most together (the first such set)."""
    return max(
        combinations(range(len(cards)), keep),
        key=lambda slots: kept_value([cards[k] for k in slots], info),
    )


def phase_action(legal: LegalMoves, info: Info) -> int | None:
    """The index of a sensible phase choice, or ``None`` outside a selection phase."""
    if "continue" in legal:  # C3: between hands, keep playing
        return legal.by_name["continue"]
    choices = [index for name, index in legal.by_name.items() if name.startswith("choose_")]
    if choices:  # C1: the dealer deals the table's first variant (any rank or colour)
        return choices[0]
    return selection_action(legal, info)


def selection_action(legal: LegalMoves, info: Info) -> int | None:
    """The index of a sensible choice on a selection phase's turn (look when it may, keep
    the best three, discard the worst card, shop only while the hand is weak), or
    ``None`` outside a selection phase."""
    if info.get("phase") not in SELECTION_PHASES:
        return None
    cards: list[str] = list(info.get("cards") or ())
    if "look" in legal:  # shopping: see the hand before deciding (free)
        return legal.by_name["look"]
    if any(name.startswith("discard_") for name in legal.by_name):
        keep = best_kept(cards, len(cards) - 1, info)
        thrown = next(k for k in range(len(cards)) if k not in keep)
        return legal.pick(f"discard_{thrown}")
    if any(name.startswith("pass_") for name in legal.by_name):
        keep = best_kept(cards, 3, info)
        passed = [k for k in range(len(cards)) if k not in keep]
        return legal.pick("pass_" + "_".join(map(str, passed)))
    if "draw" in legal:
        rules = rules_of(info.get("rules") or {})
        strength = value_strengths(rules)[kept_value(cards, info)] if cards else 0.0
        return legal.pick("draw" if strength < SHOP_BELOW else "keep")
    return legal.pick("keep")


def buy_action(legal: LegalMoves, info: Info) -> int | None:
    """The index of buying the joker that lifts the hand most, if it lifts it by at least
    :data:`BUY_GAIN`; otherwise ``None``."""
    slots = [name for name in legal.by_name if name.startswith("buy_joker_")]
    cards: list[str] = list(info.get("cards") or ())
    if not slots or not cards:
        return None
    strengths = value_strengths(rules_of(info.get("rules") or {}))
    now = strengths[kept_value(cards, info)]
    gains = {
        name: strengths[kept_value(cards, info, cards[int(name.rsplit("_", 1)[1])])] - now
        for name in slots
        if int(name.rsplit("_", 1)[1]) < len(cards)
    }
    best = max(gains, key=lambda name: gains[name], default=None)
    if best is None or gains[best] < BUY_GAIN:
        return None
    return legal.by_name[best]
