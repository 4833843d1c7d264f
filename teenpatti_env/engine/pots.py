"""Dividing the pot into side pots (RULES.md section 5)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from teenpatti_env.rules.betting import ALL_IN, CONTRIB, DEALT, PACKED, SEAT_RECORD
from teenpatti_env.rules.pots import divide_pot as divide
from teenpatti_env.rules.pots import may_win, pot_levels, slice_chips


@dataclass(frozen=True)
class SidePot:
    """One slice of the pot: its chips, the seats that may win it and those that do."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]


def _seat_record(
    contributions: Sequence[int], contenders: Sequence[int], all_in: Sequence[bool]
) -> list[list[Any]]:
    """The seat record the shared pot rules read (``rules.betting``'s fields)."""
    n = len(contributions)
    record: list[list[Any]] = [[0] * n for _ in range(SEAT_RECORD)]
    record[CONTRIB] = list(contributions)
    record[DEALT] = [s in contenders for s in range(n)]
    record[PACKED] = [False] * n
    record[ALL_IN] = list(all_in)
    return record


def side_pots(
    contributions: Sequence[int],
    contenders: Sequence[int],
    all_in: Sequence[bool],
    values: Sequence[int],
    seat_order: Sequence[int],
) -> list[SidePot]:
    """The pot as side pots, the main pot first, each with its winners (in
    ``seat_order``, which decides who gets a split's odd chips).

    ``contributions`` are the chips every seat put in this hand (packed seats included),
    ``contenders`` the seats still in the hand, ``values`` their hand values (higher
    wins), ``seat_order`` the seats from the dealer's left (the dealer last). The slices
    are the shared rules' (:mod:`teenpatti_env.rules.pots`): cut at each all-in
    contender's contribution; a slice that no contender may win joins the one below.
    """
    seats = _seat_record(contributions, contenders, all_in)
    levels = [0] * len(contributions)
    count = pot_levels(seats, levels)
    pots: list[SidePot] = []
    carried = 0
    for k in range(count, -1, -1):
        amount = slice_chips(seats, levels, count, k) + carried
        eligible = [s for s in range(len(contributions)) if may_win(seats, levels, count, k, s)]
        if not eligible:
            carried = amount
            continue
        carried = 0
        best = max(values[s] for s in eligible)
        winners = tuple(s for s in seat_order if s in eligible and values[s] == best)
        pots.append(SidePot(amount, tuple(eligible), winners))
    return pots[::-1]


def divide_pot(
    contributions: Sequence[int],
    contenders: Sequence[int],
    all_in: Sequence[bool],
    values: Sequence[int],
    seat_order: Sequence[int],
) -> list[int]:
    """What each seat receives from the pot at a showdown (the arguments of
    :func:`side_pots`): :func:`teenpatti_env.rules.pots.divide_pot`, each side pot split
    among its winners, odd chips to the winners nearest the dealer's left (the dealer is
    the last of ``seat_order``)."""
    payouts = [0] * len(contributions)
    divide(_seat_record(contributions, contenders, all_in), values, seat_order[-1],
           [0] * len(contributions), payouts)
    return payouts
