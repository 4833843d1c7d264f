"""Checks of what a hand is given (the table, the dealt cards, a variant's table cards,
a saved hand's reshuffles), each bad input a ``ValueError``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from teenpatti_env.cards import CardLike, check_distinct, parse_card
from teenpatti_env.rules import MAX_TABLE_CHIPS, Rules, variants


def is_seat(value: Any, num_seats: int) -> bool:
    """Whether ``value`` is a seat number of a table of ``num_seats`` (an int, not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < num_seats


def validate_table(
    rules: Rules, stacks: Sequence[int] | None, dealer: int, n: int | None = None
) -> None:
    """Raise ``ValueError`` unless the rules, stacks and dealer fit a table of ``n`` seats
    (by default, one seat per stack; ``stacks=None`` stands for the starting stacks)."""
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a Rules, got {type(rules).__name__}")
    if stacks is None and n is not None:
        stacks = [rules.starting_stack] * n
    if isinstance(stacks, (str, bytes)) or not isinstance(stacks, Sequence):
        raise ValueError(f"stacks must be a list of ints, got {stacks!r}")
    if n is None:
        n = len(stacks)
    if len(stacks) != n:
        raise ValueError(f"got {len(stacks)} stacks for {n} seats of cards")
    if not 2 <= n <= 7:
        raise ValueError(f"a hand has 2..7 seats, got {n}")
    for seat, chips in enumerate(stacks):
        if not isinstance(chips, int) or isinstance(chips, bool) or chips < 0:
            raise ValueError(f"stack of seat {seat} must be an int >= 0, got {chips!r}")
    if sum(stacks) > MAX_TABLE_CHIPS:
        raise ValueError(f"the stacks hold {sum(stacks)} chips in all; a table holds at most "
                         f"{MAX_TABLE_CHIPS}")
    if not is_seat(dealer, n):
        raise ValueError(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")


def _parse_deal(
    cards: Sequence[Sequence[CardLike] | None], dealt_in: Sequence[bool], per_seat: Sequence[int]
) -> list[tuple[int, ...] | None]:
    """Parse every seat's cards; seat ``s`` dealt in needs exactly ``per_seat[s]`` cards."""
    parsed: list[tuple[int, ...] | None] = []
    for seat, seat_cards in enumerate(cards):
        if seat_cards is None:
            if dealt_in[seat]:
                raise ValueError(f"seat {seat} is dealt in but has no cards")
            parsed.append(None)
            continue
        if isinstance(seat_cards, (str, bytes)) or not isinstance(seat_cards, Sequence):
            raise ValueError(f"cards of seat {seat} must be a list, got {seat_cards!r}")
        if len(seat_cards) != per_seat[seat]:
            raise ValueError(
                f"seat {seat} must hold {per_seat[seat]} cards, got {len(seat_cards)}"
            )
        parsed.append(tuple(parse_card(card) for card in seat_cards))
    return parsed  # the callers check all the deal's cards are different


def _parse_reshuffles(
    reshuffles: Sequence[Sequence[CardLike]] | None,
) -> list[tuple[int, ...]]:
    """A saved hand's reshuffled decks (P7), each a list of different cards."""
    if reshuffles is None:
        return []
    if isinstance(reshuffles, (str, bytes)) or not isinstance(reshuffles, Sequence):
        raise ValueError(f"'reshuffles' must be a list of card lists, got {reshuffles!r}")
    parsed = []
    for order in reshuffles:
        if isinstance(order, (str, bytes)) or not isinstance(order, Sequence) or not order:
            raise ValueError(f"a reshuffle is a non-empty list of cards, got {order!r}")
        cards = tuple(parse_card(card) for card in order)
        check_distinct(cards)
        parsed.append(cards)
    return parsed


def _card_of(text: Any) -> int | None:
    """A card int from an action's card text, or ``None`` if it is not a card."""
    try:
        return parse_card(text)
    except (ValueError, TypeError):
        return None


def _cards_per_seat(rules: Rules, dealt_in: Sequence[bool], dealer: int) -> list[int]:
    """Cards each seat is dealt: the variant's private cards, six for the dealer's left
    (the first seat dealt in) in passing."""
    n = len(dealt_in)
    counts = [variants.cards_dealt(rules) if dealt_in[s] else 0 for s in range(n)]
    if rules.spec.phase == "passing":
        first = next(s for s in ((dealer + 1 + i) % n for i in range(n)) if dealt_in[s])
        counts[first] += 3
    return counts


def dealt_cards(
    cards: Sequence[Sequence[int] | None], deal: variants.Deal
) -> list[int]:
    """Every card of a deal in play: the private cards, the community cards, the
    indicators."""
    private = [card for seat_cards in cards if seat_cards is not None for card in seat_cards]
    return private + list(deal.community) + list(deal.indicators)


def _parse_public(
    spec: variants.VariantSpec,
    community: Sequence[CardLike] | None,
    indicators: Sequence[CardLike] | None,
    chosen: Any,
) -> variants.Deal:
    """The variant's public deal from hand-history fields: exactly ``community_cards``
    community cards and as many indicators as the spec draws (H2), ``chosen`` when a
    ``chosen_*`` source needs it (H3)."""
    fields = {"community": (community, spec.community_cards),
              "indicators": (indicators, spec.indicator_count)}
    parsed: dict[str, tuple[int, ...]] = {}
    for name, (given, count) in fields.items():
        if given is None:
            given = []
        if isinstance(given, (str, bytes)) or not isinstance(given, Sequence):
            raise ValueError(f"{name!r} must be a list of cards, got {given!r}")
        if len(given) != count:
            raise ValueError(
                f"the variant needs {count} {name} card{'s' if count != 1 else ''}, "
                f"got {len(given)}"
            )
        parsed[name] = tuple(parse_card(card) for card in given)
    return variants.Deal(
        spec, parsed["community"], parsed["indicators"], variants.parse_chosen(spec, chosen)
    )
