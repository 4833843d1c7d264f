"""Hand categories and table-driven hand values (RULES.md section 1).

Every one of the C(52, 3) = 22,100 hands is valued once per ranking (``best_sequence``,
``lowball``): the classic ranking at import, the others the first time they are asked
for. After that a hand's value is one lookup in a flat table indexed by
``a * 2704 + b * 52 + c`` (all six orders of the three cards are filled in, so the
cards need not be sorted).

>>> hand_category("As Ks Qs")
'pure_sequence'
>>> compare_hands("Ah 2c 3d", "Ks Qd Jh")
1
>>> hand_category("Kh Ad 2s")
'high_card'
"""

from __future__ import annotations

import itertools
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol, overload

import numpy as np

from teenpatti_env.cards import NUM_CARDS, CardsLike, parse_cards

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

CATEGORIES = ("high_card", "pair", "colour", "sequence", "pure_sequence", "trail")
"""Category names, worst first (the index is the category's strength)."""

BEST_SEQUENCES = ("AKQ", "A23")


class Ranking(Protocol):
    """The two settings a ranking depends on; :class:`teenpatti_env.rules.Rules` is one.
    (A protocol, so that this layer needs nothing from the rules above it.)"""

    @property
    def best_sequence(self) -> str:
        """``"AKQ"`` or ``"A23"``: which sequence is the best."""

    @property
    def ranking_lowball(self) -> bool:
        """Whether the ranking is inverted (lowball from the rules or the variant)."""

_ACE, _THREE, _TWO = 12, 1, 0
_TABLE_SIZE = NUM_CARDS**3


def _ranks_desc(cards: tuple[int, int, int]) -> tuple[int, int, int]:
    a, b, c = sorted((card >> 2 for card in cards), reverse=True)
    return a, b, c


def _category_index(cards: tuple[int, int, int]) -> int:
    high, mid, low = _ranks_desc(cards)
    same_suit = len({card & 3 for card in cards}) == 1
    if high == low:
        return 5
    if _is_run(high, mid, low):
        return 4 if same_suit else 3
    if same_suit:
        return 2
    if high == mid or mid == low:
        return 1
    return 0


def _is_run(high: int, mid: int, low: int) -> bool:
    # Runs do not wrap (K-A-2 is a high card) but A-2-3 is a run.
    return (high - mid == 1 and mid - low == 1) or (high, mid, low) == (_ACE, _THREE, _TWO)


def _strength_key(cards: tuple[int, int, int], best_sequence: str) -> tuple[int, ...]:
    """A sortable key: category first, then the tie-break inside the category."""
    category = _category_index(cards)
    high, mid, low = _ranks_desc(cards)
    if category in (3, 4):
        if (high, mid, low) == (_ACE, _THREE, _TWO):
            # A-2-3 sits just below A-K-Q ("AKQ") or above it ("A23").
            run = 2 * _ACE + (2 if best_sequence == "A23" else -1)
        else:
            run = 2 * high
        return (category, run)
    if category == 1:
        pair, kicker = (mid, low) if high == mid else (mid, high)
        return (category, pair, kicker)
    return (category, high, mid, low)


@cache
def ranking_tables(best_sequence: str, lowball: bool) -> tuple[NDArray[np.int32], list[int]]:
    """The flat value table for one ranking, as a numpy array and as a Python list."""
    combos = list(itertools.combinations(range(NUM_CARDS), 3))
    keys = [_strength_key(combo, best_sequence) for combo in combos]
    distinct = sorted(set(keys))
    strength = {key: index for index, key in enumerate(distinct)}
    top = len(distinct) - 1
    values = np.array([top - strength[k] if lowball else strength[k] for k in keys], dtype=np.int32)
    table = np.full(_TABLE_SIZE, -1, dtype=np.int32)
    cards = np.array(combos, dtype=np.int64)
    for order in itertools.permutations(range(3)):
        a, b, c = (cards[:, i] for i in order)
        table[a * NUM_CARDS * NUM_CARDS + b * NUM_CARDS + c] = values
    table.flags.writeable = False
    return table, table.tolist()


@cache
def _value_facts(best_sequence: str, lowball: bool) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """Per hand value: its category index and its strength (see :func:`value_strengths`)."""
    combos = list(itertools.combinations(range(NUM_CARDS), 3))
    table = ranking_tables(best_sequence, lowball)[1]
    values = [table[a * 2704 + b * 52 + c] for a, b, c in combos]
    count = np.bincount(values)
    below = np.cumsum(count) - count
    strength = (below + 0.5 * count) / len(combos)
    category = [0] * len(count)
    for combo, value in zip(combos, values, strict=True):
        category[value] = _category_index(combo)
    return tuple(category), tuple(float(x) for x in strength)


def value_categories(rules: Ranking | None = None) -> tuple[int, ...]:
    """Category index (into :data:`CATEGORIES`) of every hand value under ``rules``."""
    return _value_facts(*_ranking(rules))[0]


def value_strengths(rules: Ranking | None = None) -> tuple[float, ...]:
    """For every hand value under ``rules``: the share of the 22,100 hands it beats,
    ties counted as half (card removal ignored). The best hand is near 1, the worst near 0.
    """
    return _value_facts(*_ranking(rules))[1]


def _ranking(rules: Ranking | None) -> tuple[str, bool]:
    if rules is None:
        return "AKQ", False
    return rules.best_sequence, rules.ranking_lowball


def value_table(rules: Ranking | None = None) -> list[int]:
    """Flat lookup list for ``rules``: ``table[a*2704 + b*52 + c]`` is the hand's value."""
    return ranking_tables(*_ranking(rules))[1]


def _three_cards(cards: CardsLike) -> tuple[int, int, int]:
    parsed = parse_cards(cards)
    if len(parsed) != 3:
        raise ValueError(f"a hand has exactly three cards, got {len(parsed)}: {cards!r}")
    return parsed[0], parsed[1], parsed[2]


def hand_category(cards: CardsLike) -> str:
    """The category name of a three-card hand: ``"trail"`` ... ``"high_card"``."""
    return CATEGORIES[_category_index(_three_cards(cards))]


@overload
def evaluate_hand(cards: CardsLike, rules: Ranking | None = None) -> int: ...


@overload
def evaluate_hand(cards: NDArray[Any], rules: Ranking | None = None) -> int | NDArray[np.int32]: ...


def evaluate_hand(
    cards: CardsLike | NDArray[Any], rules: Ranking | None = None
) -> int | NDArray[np.int32]:
    """The hand's value under ``rules`` (``None``: classic); higher is better.

    Hands of equal strength (the same ranks and category, any suits) get equal values.
    A numpy array of shape ``(..., 3)`` with more than one dimension is valued as a
    batch (see :func:`evaluate_hands`).
    """
    if isinstance(cards, np.ndarray) and cards.ndim > 1:
        return evaluate_hands(cards, rules)
    a, b, c = _three_cards(cards)
    return value_table(rules)[a * 2704 + b * 52 + c]


def evaluate_hands(hands: ArrayLike, rules: Ranking | None = None) -> NDArray[np.int32]:
    """Value many hands at once: ``hands`` has shape ``(..., 3)`` of card ints.

    The three cards of a row must be different; this is checked only as a value
    error for out-of-range cards (a repeated card would not be a hand).
    """
    array = np.asarray(hands)
    if array.ndim < 1 or array.shape[-1] != 3:
        raise ValueError(f"hands must have shape (..., 3), got {array.shape}")
    if not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"hands must hold card ints 0..51, got dtype {array.dtype}")
    # One pass catches both ends: negative ints read as huge unsigned ones.
    unsigned = array.view(np.dtype(f"u{array.dtype.itemsize}"))
    if array.size and unsigned.max() >= NUM_CARDS:
        raise ValueError("hands must hold card ints 0..51")
    table = ranking_tables(*_ranking(rules))[0]
    if array.dtype == np.int64:
        # Native int64 math beats casting a large array down first.
        index = array[..., 0] * 2704
        index += array[..., 1] * 52
        index += array[..., 2]
    else:
        # int32 index math straight from a narrower (or unsigned) dtype, no widened copy.
        index = np.multiply(array[..., 0], 2704, dtype=np.int32, casting="unsafe")
        index += np.multiply(array[..., 1], 52, dtype=np.int32, casting="unsafe")
        np.add(index, array[..., 2], out=index, dtype=np.int32, casting="unsafe")
    values = np.take(table, index)
    if values.size and values.min() < 0:
        raise ValueError("a hand holds the same card twice")
    return values


def compare_hands(a: CardsLike, b: CardsLike, rules: Ranking | None = None) -> int:
    """``1`` if hand ``a`` beats ``b``, ``-1`` if it loses, ``0`` on a tie."""
    va, vb = evaluate_hand(a, rules), evaluate_hand(b, rules)
    return (va > vb) - (va < vb)


# Value the 22,100 hands for the classic ranking at import; other rankings on first use.
ranking_tables("AKQ", False)
