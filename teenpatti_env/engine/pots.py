"""Dividing the pot into side pots (RULES.md section 5)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SidePot:
    """One slice of the pot: its chips, the seats that may win it and those that do."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]


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
    wins), ``seat_order`` the seats from the dealer's left (the dealer last). Slices are
    cut at each all-in contender's contribution; a slice that no contender may win joins
    the one below.
    """
    levels = sorted({contributions[s] for s in contenders if all_in[s]})
    slices: list[tuple[int, list[int]]] = []
    floor = 0
    for level in [*levels, None]:
        if level is None:
            amount = sum(max(0, c - floor) for c in contributions)
            eligible = [s for s in contenders if not all_in[s]]
        else:
            amount = sum(max(0, min(c, level) - floor) for c in contributions)
            eligible = [s for s in contenders if not all_in[s] or contributions[s] >= level]
            floor = level
        slices.append((amount, eligible))

    pots: list[SidePot] = []
    carried = 0
    for amount, eligible in reversed(slices):
        amount += carried
        if not eligible:
            carried = amount
            continue
        carried = 0
        best = max(values[s] for s in eligible)
        winners = tuple(s for s in seat_order if s in eligible and values[s] == best)
        pots.append(SidePot(amount, tuple(sorted(eligible)), winners))
    return pots[::-1]


def divide_pot(
    contributions: Sequence[int],
    contenders: Sequence[int],
    all_in: Sequence[bool],
    values: Sequence[int],
    seat_order: Sequence[int],
) -> list[int]:
    """What each seat receives from the pot at a showdown (the arguments of
    :func:`side_pots`): each side pot split among its winners, odd chips to the winners
    nearest the dealer's left."""
    payouts = [0] * len(contributions)
    for pot in side_pots(contributions, contenders, all_in, values, seat_order):
        share, odd = divmod(pot.amount, len(pot.winners))
        for rank, seat in enumerate(pot.winners):
            payouts[seat] += share + (1 if rank < odd else 0)
    return payouts
