"""Cards and the deck.

A card is an ``int`` in ``0..51``: ``rank_index * 4 + suit_index``. Ranks run
``2 3 4 5 6 7 8 9 T J Q K A`` (index 0..12) and suits ``s h d c`` (index 0..3).
Suits never break a tie; they only matter for colours and pure sequences.

>>> parse_card("As")
48
>>> format_card(parse_card("10h"))
'Th'
>>> format_cards(parse_cards("As Kd 2c"))
['As', 'Kd', '2c']
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Iterable, Sequence

RANKS = "23456789TJQKA"
SUITS = "shdc"
NUM_CARDS = 52
DECK: tuple[int, ...] = tuple(range(NUM_CARDS))

CardLike = int | str
CardsLike = str | Iterable[CardLike]

_TEXT_TO_CARD = {r + s: i * 4 + j for i, r in enumerate(RANKS) for j, s in enumerate(SUITS)}
_TEXT_TO_CARD.update({"10" + s: _TEXT_TO_CARD["T" + s] for s in SUITS})
_CARD_TO_TEXT = [RANKS[c // 4] + SUITS[c % 4] for c in DECK]
_ONE_CARD = re.compile(f"(?:10|[{RANKS}])[{SUITS}]")
_RUN_OF_CARDS = re.compile(f"(?:(?:10|[{RANKS}])[{SUITS}])+")


def rank_of(card: int) -> int:
    """Rank index of a card: 0 for a two up to 12 for an ace."""
    return card >> 2


def suit_of(card: int) -> int:
    """Suit index of a card: 0..3 for ``s h d c``."""
    return card & 3


def parse_card(card: CardLike) -> int:
    """Parse one card (``"As"``, ``"10h"`` or an int ``0..51``) into its int form."""
    if type(card) is int and 0 <= card < NUM_CARDS:  # the common case, first
        return card
    if isinstance(card, str):
        value = _TEXT_TO_CARD.get(card)
        if value is None:
            raise ValueError(
                f"not a card: {card!r} (expected a rank of {RANKS} or 10, "
                f"then a suit of {SUITS}, e.g. 'As', 'Td', '10h')"
            )
        return value
    if isinstance(card, numbers.Integral) and not isinstance(card, bool):
        if 0 <= card < NUM_CARDS:  # numpy integers
            return int(card)
        raise ValueError(f"not a card: {card!r} (card ints are 0..51)")
    raise ValueError(f"not a card: {card!r}")


def parse_cards(cards: CardsLike, distinct: bool = True) -> tuple[int, ...]:
    """Parse cards given as ``"As Kd 2c"``, ``"AsKd2c"`` or a sequence of texts or ints.

    Raises ``ValueError`` for malformed text or, unless ``distinct`` is false (a list of
    cards over time, such as a shopping seat's discards, which may come back after a
    reshuffle), a card given twice.

    >>> format_cards(parse_cards("10h,Jh Qh"))
    ['Th', 'Jh', 'Qh']
    """
    items: Iterable[CardLike] = _split_text(cards) if isinstance(cards, str) else cards
    try:
        parsed = tuple(parse_card(c) for c in items)
    except TypeError as error:
        raise ValueError(f"not a list of cards: {cards!r}") from error
    if distinct:
        check_distinct(parsed)
    return parsed


def _split_text(text: str) -> list[str]:
    """Cards in a text: separated by spaces or commas, or written back to back."""
    tokens: list[str] = []
    for token in text.replace(",", " ").split():
        if token not in _TEXT_TO_CARD and _RUN_OF_CARDS.fullmatch(token):
            tokens.extend(_ONE_CARD.findall(token))
        else:
            tokens.append(token)
    return tokens


def check_distinct(cards: Sequence[int]) -> None:
    """Raise ``ValueError`` naming the first card that appears twice."""
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise ValueError(f"card {format_card(card)} is dealt twice")
        seen.add(card)


def format_card(card: int) -> str:
    """Text form of a card int, e.g. ``'Th'``."""
    return _CARD_TO_TEXT[card]


def format_cards(cards: Iterable[int]) -> list[str]:
    """Text forms of several card ints."""
    return [_CARD_TO_TEXT[c] for c in cards]
