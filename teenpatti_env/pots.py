"""Dividing the pot into side pots (RULES.md section 5)."""

from __future__ import annotations

from collections.abc import Sequence


def divide_pot(
    contributions: Sequence[int],
    contenders: Sequence[int],
    all_in: Sequence[bool],
    values: Sequence[int],
    seat_order: Sequence[int],
) -> list[int]:
    """What each seat receives from the pot at a showdown.

    ``contributions`` are the chips every seat put in this hand (packed seats included),
    ``contenders`` the seats still in the hand, ``values`` their hand values (higher
    wins), ``seat_order`` the seats from the dealer's left (the dealer last), which
    decides who gets the odd chips of a split. Slices are cut at each all-in
    contender's contribution; a slice that no contender may win joins the one below.
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

    payouts = [0] * len(contributions)
    carried = 0
    for amount, eligible in reversed(slices):
        amount += carried
        if not eligible:
            carried = amount
            continue
        carried = 0
        best = max(values[s] for s in eligible)
        winners = [s for s in seat_order if s in eligible and values[s] == best]
        share, odd = divmod(amount, len(winners))
        for rank, seat in enumerate(winners):
            payouts[seat] += share + (1 if rank < odd else 0)
    return payouts
