"""Best-hand values with wild cards, extra cards and the imaginary card (VARIANTS W1-W7).

A seat may use 2 to 7 cards (its private cards and the community cards), some of them wild
for it, and maybe one imaginary card (W6). Its value is the best value over every choice of
three cards and every value of the wild and imaginary cards, on the same scale as
:mod:`teenpatti_env.cards.hands` for the ranking (``best_sequence``, ``lowball``): higher is
better, lowball included (``hands`` already reverses the values), so a natural hand valued
here equals its :func:`~teenpatti_env.cards.hands.evaluate_hand` value and equal hands tie (W7).

W2: a wild card (or the imaginary card) stands for any of the 52 cards except the other two
cards of the three as played; a wild may repeat a card held elsewhere, even an unplayed card
of the same seat. The imaginary card may also not be any of the seat's own cards (W6).

Precomputation, once per ranking (``functools.cache``, a few milliseconds with numpy), from
the flat ``hands`` table ``nat[a*2704 + b*52 + c]`` (``-1`` when two cards repeat):

* ``one[a*52 + b]``: the best value of ``a``, ``b`` and one wild, ``max_c nat[a, b, c]``;
* ``two[a]``: the best value of ``a`` and two wilds, ``max_b one[a, b]``;
* ``three``: the best value of three wilds, the best hand of the ranking;
* for the imaginary card, which must avoid all of the seat's cards: the completing cards in
  order of value, best first, for a pair (``nat[a, b, x]``), for one card and a wild
  (``one[a, x]``) and for two wilds (``two[x]``). At most seven cards are excluded, so the
  first eight entries always hold an allowed card and only those are kept.

A wild slot is never worse than a natural card or the imaginary card in its place (it may
stand for either), so with ``k`` wild cards only the choices using ``min(k, 3)`` of them
count: three wilds are the best hand at once, two wilds take ``two`` of each natural card
(or of the best allowed imaginary card), one wild takes ``one`` of each pair of natural
cards (or of a natural card and the best allowed imaginary card), and no wild takes every
natural triple (and every pair with the best allowed imaginary card). A valuation is thus a
handful of list lookups. :func:`brute_force_value` enumerates everything literally, for tests.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from teenpatti_env.cards import NUM_CARDS, format_card, parse_card
from teenpatti_env.cards.hands import BEST_SEQUENCES, ranking_tables

__all__ = [
    "COLOUR_CODES",
    "MAX_CARDS",
    "MIN_CARDS",
    "WILD_SOURCES",
    "best_value",
    "best_values",
    "brute_force_value",
    "public_wild",
    "three_card_value",
    "trusted_value",
    "wild_arrays",
    "wild_value",
]

MIN_CARDS = 2
"""Fewest cards a seat may use (then only with the imaginary card)."""
MAX_CARDS = 7
"""Most cards a seat may use."""

_KEEP = MAX_CARDS + 1  # completing cards kept per order: one of them is always allowed


class _WildTables(NamedTuple):
    """The lookups for one ranking (see the module docstring)."""

    nat: list[int]  # nat[a*2704 + b*52 + c]
    one: list[int]  # one[a*52 + b]
    two: list[int]  # two[a]
    three: int
    pair_order: list[list[int]]  # [a*52 + b]: x by nat[a, b, x], best first
    one_order: list[list[int]]  # [a]: x by one[a, x], best first
    two_order: list[int]  # x by two[x], best first


@cache
def _wild_tables(best_sequence: str, lowball: bool) -> _WildTables:
    """Build (once per ranking) the wild and imaginary-card lookups."""
    flat, nat_list = ranking_tables(best_sequence, lowball)
    nat = flat.reshape(NUM_CARDS, NUM_CARDS, NUM_CARDS)
    one = nat.max(axis=2)  # a == b rows are all -1
    two = one.max(axis=1)
    three = int(two.max())
    # Stable sorts of the negated values: best first, ties by card.
    pair_order = np.argsort(-nat.reshape(NUM_CARDS * NUM_CARDS, NUM_CARDS), axis=1, kind="stable")
    one_order = np.argsort(-one, axis=1, kind="stable")
    two_order = np.argsort(-two, kind="stable")
    return _WildTables(
        nat=nat_list,
        one=one.reshape(-1).tolist(),
        two=two.tolist(),
        three=three,
        pair_order=pair_order[:, :_KEEP].tolist(),
        one_order=one_order[:, :_KEEP].tolist(),
        two_order=two_order[:_KEEP].tolist(),
    )


def _check_ranking(best_sequence: str, lowball: bool) -> None:
    if best_sequence not in BEST_SEQUENCES:
        raise ValueError(f"best_sequence must be one of {BEST_SEQUENCES}, got {best_sequence!r}")
    if not isinstance(lowball, (bool, np.bool_)):
        raise ValueError(f"lowball must be a bool, got {lowball!r}")


def _check_cards(
    cards: Sequence[int], wild: Sequence[bool] | None, imagined: bool
) -> tuple[list[int], list[bool]]:
    """The cards as ints and the wild flags, after checking counts and distinctness."""
    count = len(cards)
    if not MIN_CARDS <= count <= MAX_CARDS:
        raise ValueError(f"a seat uses {MIN_CARDS} to {MAX_CARDS} cards, got {count}")
    if count < 3 and not imagined:
        raise ValueError(f"{count} cards make no three-card hand without the imaginary card")
    ints = [c if type(c) is int and 0 <= c < NUM_CARDS else parse_card(c) for c in cards]
    if len(set(ints)) != count:
        repeated = next(c for c in ints if ints.count(c) > 1)
        raise ValueError(f"card {format_card(repeated)} is given twice: cards must be different")
    if wild is None:
        return ints, [False] * count
    if len(wild) != count:
        raise ValueError(f"wild has {len(wild)} flags for {count} cards")
    return ints, [bool(w) for w in wild]


def wild_value(cards: Any, flags: Any, count: int, imagined: bool, nat: Any, one: Any,
               two: Any, three: int, pair_order: Any, one_order: Any, two_order: Any) -> int:
    """The best value of the first ``count`` of ``cards`` (``flags[i]``: ``cards[i]`` is
    wild) and, with ``imagined``, the imaginary card, from one ranking's lookups (see the
    module docstring for why this is exact).

    The one text of the rule for both engines: plain loops over integers and indexables
    (its one helper local, so that numba compiles it along), which the per-table engine
    calls on lists as it is and the batched engine compiles with numba over arrays
    (``pair_order[p][i]``, ``one_order[a][i]``:
    a list of lists or a 2-D array). Input is trusted: different cards, a valid count.
    """
    def best_free(order: Any, table: Any, base: int) -> int:
        """``table[base + x]`` of the first card ``x`` of ``order`` the seat does not
        hold (the imaginary card may be any card but the seat's own, W6)."""
        for j in range(len(order)):
            held = False
            for h in range(count):
                held = held or cards[h] == order[j]
            if not held:
                return int(table[base + order[j]])
        return -1

    wilds = 0
    for i in range(count):
        if flags[i]:
            wilds += 1
    if wilds >= 3:
        return three
    best = -1
    for i in range(count):
        if flags[i]:
            continue
        a = cards[i]
        if wilds == 2:
            best = max(best, two[a])
            continue
        for k in range(i + 1, count):
            if flags[k]:
                continue
            pair = a * 52 + cards[k]
            if wilds == 1:
                best = max(best, one[pair])
                continue
            for m in range(k + 1, count):
                best = max(best, nat[pair * 52 + cards[m]])
            if imagined:  # a natural pair and the imaginary card
                best = max(best, best_free(pair_order[pair], nat, pair * 52))
        if imagined and wilds == 1:  # a natural card, a wild and the imaginary card
            best = max(best, best_free(one_order[a], one, a * 52))
    if imagined and wilds == 2:  # two wilds and the imaginary card
        best = max(best, best_free(two_order, two, 0))
    return best


def _best(tables: _WildTables, cards: list[int], flags: list[bool], imagined: bool) -> int:
    """The best value, on checked input: :func:`wild_value` over the ranking's lookups."""
    return wild_value(cards, flags, len(cards), imagined, tables.nat, tables.one, tables.two,
                      tables.three, tables.pair_order, tables.one_order, tables.two_order)


def wild_arrays(best_sequence: str, lowball: bool) -> tuple[NDArray[np.int64], ...]:
    """The ranking's lookups as int64 arrays, for :func:`wild_value` compiled by numba:
    ``(nat, one, two, pair_order [2704, 8], one_order [52, 8], two_order)`` (``three``
    is ``two.max()``)."""
    tables = _wild_tables(best_sequence, bool(lowball))
    return tuple(np.asarray(part, dtype=np.int64) for part in (
        tables.nat, tables.one, tables.two, tables.pair_order, tables.one_order,
        tables.two_order))


def best_value(
    cards: Sequence[int],
    wild: Sequence[bool] | None = None,
    *,
    imagined: bool = False,
    best_sequence: str = "AKQ",
    lowball: bool = False,
) -> int:
    """The best hand value a seat can make (same scale as ``hands``; higher is better).

    ``cards``: the 2..7 different card ints the seat may use; ``wild[i]``: whether
    ``cards[i]`` is wild for the seat (``None``: none is); ``imagined``: the seat also holds
    the imaginary card (W6), used only when it helps.

    >>> from teenpatti_env.cards import parse_cards
    >>> from teenpatti_env.cards.hands import evaluate_hand
    >>> best_value(parse_cards("As Ks 7d"), [False, False, True]) == evaluate_hand("As Ks Qs")
    True
    """
    _check_ranking(best_sequence, lowball)
    ints, flags = _check_cards(cards, wild, imagined)
    return _best(_wild_tables(best_sequence, bool(lowball)), ints, flags, imagined)


def trusted_value(
    cards: list[int], flags: list[bool], imagined: bool, best_sequence: str, lowball: bool
) -> int:
    """:func:`best_value` without the input checks, for callers (the engine) that pass
    different card ints, one bool flag per card and a valid ranking."""
    return _best(_wild_tables(best_sequence, lowball), cards, flags, imagined)


def three_card_value(
    a: int, b: int, c: int, flags: tuple[bool, bool, bool], best_sequence: str, lowball: bool
) -> int:
    """:func:`trusted_value` of exactly three different cards without the imaginary card:
    one lookup, whatever the number of wild cards."""
    tables = _wild_tables(best_sequence, lowball)
    wild_a, wild_b, wild_c = flags
    wilds = wild_a + wild_b + wild_c
    if not wilds:
        return tables.nat[a * 2704 + b * 52 + c]
    if wilds == 3:
        return tables.three
    naturals = [card for card, wild in ((a, wild_a), (b, wild_b), (c, wild_c)) if not wild]
    if wilds == 2:
        return tables.two[naturals[0]]
    return tables.one[naturals[0] * 52 + naturals[1]]


def best_values(
    hands: Sequence[Sequence[int]],
    wilds: Sequence[Sequence[bool] | None] | None = None,
    *,
    imagined: bool = False,
    best_sequence: str = "AKQ",
    lowball: bool = False,
) -> list[int]:
    """:func:`best_value` of several seats' cards (``wilds[i]`` for ``hands[i]``)."""
    _check_ranking(best_sequence, lowball)
    if wilds is not None and len(wilds) != len(hands):
        raise ValueError(f"wilds has {len(wilds)} entries for {len(hands)} hands")
    tables = _wild_tables(best_sequence, bool(lowball))
    values = []
    for i, cards in enumerate(hands):
        ints, flags = _check_cards(cards, None if wilds is None else wilds[i], imagined)
        values.append(_best(tables, ints, flags, imagined))
    return values


def brute_force_value(
    cards: Sequence[int],
    wild: Sequence[bool] | None = None,
    *,
    imagined: bool = False,
    best_sequence: str = "AKQ",
    lowball: bool = False,
) -> int:
    """Slow reference for :func:`best_value`: every three slots, every substitution.

    Each natural card stands for itself, each wild card for any of the 52 cards and the
    imaginary card for any card not among ``cards``; a choice that repeats a card is
    not a hand (the ``hands`` table holds ``-1`` there, W2). For tests only.
    """
    _check_ranking(best_sequence, lowball)
    ints, flags = _check_cards(cards, wild, imagined)
    nat = ranking_tables(best_sequence, bool(lowball))[0].reshape(NUM_CARDS, NUM_CARDS, NUM_CARDS)
    deck = np.arange(NUM_CARDS)
    slots = [deck if w else np.array([c]) for c, w in zip(ints, flags, strict=True)]
    if imagined:
        slots.append(np.setdiff1d(deck, ints))
    best = -1
    for first, second, third in itertools.combinations(slots, 3):
        best = max(best, int(nat[np.ix_(first, second, third)].max()))
    return best


WILD_SOURCES = (
    "ranks",
    "indicator_rank",
    "chosen_rank",
    "indicator_colour",
    "chosen_colour",
    "middle",
    "personal_lowest",
    "rotating_lowest",
    "thresholds",
)
"""Every wild source of VARIANTS.md (``rules.variants.WILD_KINDS``), in code order."""
(RANKS_SOURCE, INDICATOR_RANK, CHOSEN_RANK, INDICATOR_COLOUR, CHOSEN_COLOUR, MIDDLE,
 PERSONAL_LOWEST, ROTATING_LOWEST, THRESHOLDS) = range(len(WILD_SOURCES))
"""Each wild source's code (its index in :data:`WILD_SOURCES`)."""
COLOUR_CODES = ("red", "black")
"""A chosen colour as an integer (its index here)."""


def public_wild(kinds: Any, counts: Any, fixed: Any, indicators: Any, revealed: int,
                chosen_rank: int, chosen_colour: int, burst: int, ranks: Any,
                suits: Any) -> None:
    """Set ``ranks[r]`` (13) and ``suits[u]`` (4) to 1 where every seat's cards of that
    rank or suit are wild, else 0 (S1-S5, T1; B2: never the burst rank ``burst``).

    ``kinds``, ``counts``, ``fixed``: the sources' codes, the indicators each draws and the
    fixed wild ranks as 13 flags (``VariantSpec.source_codes``); ``indicators``:
    the deal's indicators in draw order; ``revealed``: threshold indicators turned up;
    ``chosen_rank``/``chosen_colour``: the named rank or colour code (``-1``: none).
    The one text of the wild sources for both engines: ``rules.variants.Deal`` calls it
    on lists, the batched engine compiles it with numba over arrays.
    """
    for r in range(13):
        ranks[r] = fixed[r]
    for u in range(4):
        suits[u] = 0
    at = 0
    for k in range(len(kinds)):
        kind = kinds[k]
        if kind == INDICATOR_RANK:
            ranks[indicators[at] >> 2] = 1
        elif kind == THRESHOLDS:
            for i in range(min(revealed, counts[k])):
                ranks[indicators[at + i] >> 2] = 1
        elif kind == MIDDLE:  # ace high, no wrapping (S3)
            first, second = indicators[at] >> 2, indicators[at + 1] >> 2
            for r in range(min(first, second) + 1, max(first, second)):
                ranks[r] = 1
        elif kind == CHOSEN_RANK and chosen_rank >= 0:
            ranks[chosen_rank] = 1
        elif kind == INDICATOR_COLOUR or (kind == CHOSEN_COLOUR and chosen_colour >= 0):
            red = chosen_colour == 0
            if kind == INDICATOR_COLOUR:
                suit = indicators[at] & 3
                red = (suit == 1) | (suit == 2)
            for u in range(4):
                if ((u == 1) | (u == 2)) == red:
                    suits[u] = 1
        at += counts[k]
    if burst >= 0:
        ranks[burst] = 0
