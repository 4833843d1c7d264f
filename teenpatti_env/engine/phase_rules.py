"""The selection phases' rules (VARIANTS.md Phases, P1-P9) as plain functions over
integers and indexables: who takes the next phase turn, to whom a seat passes, who may
draw, who sees its cards when the phase starts.

The one text of these rules for both engines: the per-table engine
(:mod:`teenpatti_env.engine.selection`) calls them on its lists as they are, and the
batched engine (``environment/batch_phase.py``) compiles them with numba over its arrays.
They use only loops, integer arithmetic and indexing, so that numba compiles them; seat
flags may be bools or 0/1 ints. ``-1`` stands for no seat.
"""

from __future__ import annotations

from typing import Any

NO_PHASE, DISCARD_ONE, SHOPPING, PASSING = range(4)
"""The phase codes (``VariantSpec.phase``: ``None``, ``"discard_one"``, ``"shopping"``,
``"passing"``)."""
PHASE_CODES = {None: NO_PHASE, "discard_one": DISCARD_ONE, "shopping": SHOPPING,
               "passing": PASSING}
PASSED_CARDS = 3
"""P9: a seat holding six passes three (and the dealer's left is dealt three extra)."""


def sees_at_start(phase: int) -> bool:
    """P1: in discard_one and passing every seat dealt in sees its cards as the phase
    starts (in shopping looking works as in betting)."""
    return (phase == DISCARD_ONE) | (phase == PASSING)


def first_phase_turn(dealt: Any, dealer: int, n: int) -> int:
    """P2: the first phase turn is the first seat dealt in from the dealer's left (all-in
    seats included)."""
    for step in range(1, n + 1):
        seat = (dealer + step) % n
        if dealt[seat]:
            return seat
    return -1


def next_phase_turn(dealt: Any, packed: Any, done: Any, actor: int, n: int) -> int:
    """P2-P4: after ``actor``'s phase turn, the next seat to its left still in the hand
    that has not finished the phase (discard_one: discarded; shopping: kept), ``-1``
    when every seat has (the phase is over)."""
    for step in range(1, n + 1):
        seat = (actor + step) % n
        if dealt[seat] and not packed[seat] and not done[seat]:
            return seat
    return -1


def pass_receiver(dealt: Any, dealer: int, seat: int, n: int) -> int:
    """P9: the seat ``seat`` passes its three to: the next seat dealt in on its left,
    or ``-1`` (out of play) for the last seat dealt in (the dealer, or the seat before a
    dealer who sits out)."""
    last = -1
    for step in range(n):
        other = (dealer - step) % n
        if dealt[other]:
            last = other
            break
    if seat == last:
        return -1
    for step in range(1, n):
        other = (seat + step) % n
        if dealt[other]:
            return other
    return -1


def may_draw(all_in: Any, stack: int, boot: int, cards_left: int) -> bool:
    """P6: a seat may draw with a boot plus a chip behind (never all-in) and a card to
    draw (the deck, or discards to reshuffle)."""
    if all_in:
        return False
    return stack >= boot + 1 and cards_left > 0
