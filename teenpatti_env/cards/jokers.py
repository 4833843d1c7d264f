"""The rules of the wild cards that change during a hand (VARIANTS.md T1, R1-R2, J1),
one text for both engines.

Plain functions over integers and indexables, as :mod:`teenpatti_env.cards.wild`'s: the
per-table engine (``engine/valuation.py``, ``engine/variant_deal.py``) calls them on lists
and bools as they are, and the batched engine (``environment/batch_jokers.py``) compiles
them with numba over its arrays.
"""

from __future__ import annotations

from typing import Any

__all__ = ["lowest_rank", "may_buy_joker", "rotation_owner", "round_ended", "thresholds_reached"]


def thresholds_reached(thresholds: Any, count: int, beyond: int) -> int:
    """T1: how many of the first ``count`` ``thresholds`` (increasing chip counts) the
    ``beyond`` chips paid into the pot beyond the boots reach; that many threshold
    indicators are face up (and wild).

    >>> thresholds_reached([10, 20, 30], 3, 20)
    2
    """
    reached = 0
    for i in range(count):
        if beyond >= thresholds[i]:
            reached += 1
    return reached


def round_ended(to_act: int, origin: int, dealer: int, seats: int) -> bool:
    """R1: whether passing the turn from ``origin`` (the seat that took the last betting
    turn; after a sideshow, the asker) to ``to_act`` ends a full betting round: ``to_act``
    sits at or before ``origin`` in positions counted from the dealer's left (the dealer
    last).

    >>> round_ended(1, 0, 0, 3), round_ended(2, 1, 0, 3)
    (True, False)
    """
    return (to_act - dealer - 1) % seats <= (origin - dealer - 1) % seats


def rotation_owner(dealt: Any, seats: int, seat: int, rotations: int) -> int:
    """R2: the seat whose starting lowest rank ``seat`` uses after ``rotations``
    rotations: the one ``rotations`` places to its right in the ring of the seats dealt
    in (``dealt[s]`` true), packed and all-in seats included.

    >>> rotation_owner([True, False, True, True], 4, 0, 1)
    3
    """
    ring = 0
    place = 0
    for other in range(seats):
        if dealt[other]:
            if other == seat:
                place = ring
            ring += 1
    target = (place - rotations) % ring
    for other in range(seats):
        if dealt[other]:
            if target == 0:
                return other
            target -= 1
    return -1


def lowest_rank(cards: Any, count: int) -> int:
    """S1, R2: the lowest rank (ace high, ``0`` = two) of the first ``count`` card ints."""
    lowest = 13
    for i in range(count):
        lowest = min(lowest, cards[i] >> 2)
    return lowest


def may_buy_joker(seen: bool, bought: bool, answering: bool, stack: int, boot: int) -> bool:
    """J1: whether the seat to act may buy a joker: it has seen its cards, has not bought
    one this hand, is not answering a sideshow (a betting turn, before its betting
    action) and has a boot plus a chip behind.

    >>> may_buy_joker(True, False, False, 3, 2), may_buy_joker(True, False, False, 2, 2)
    (True, False)
    """
    return bool(seen) & (not bought) & (not answering) & (stack >= boot + 1)
