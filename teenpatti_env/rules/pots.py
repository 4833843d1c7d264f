"""Side pots and the odd chip (RULES.md section 5), written once for both engines.

Plain functions over integers and small indexables, as in :mod:`teenpatti_env.rules.betting`
(whose seat record ``seats[FIELD][s]`` they read): the per-table engine calls them on
lists, the batched engine compiles them with numba over its arrays. The pot is cut into
slices at each all-in contender's contribution; slice ``k`` (``0..count-1``, then the
top slice ``count``) holds every seat's chips between the level below it and its own
level, and goes to the best hands among the contenders that may win it; a slice no
contender may win joins the one below.
"""

from __future__ import annotations

from typing import Any

from teenpatti_env.rules.betting import ALL_IN, CONTRIB, DEALT, NONE, PACKED


def pot_levels(seats: Any, levels: Any) -> int:
    """Write the distinct contributions of the all-in contenders into ``levels`` in
    ascending order (``levels`` holds one entry per seat); return how many there are."""
    dealt, packed, all_in, contributions = seats[DEALT], seats[PACKED], seats[ALL_IN], seats[
        CONTRIB]
    count = 0
    for s in range(len(dealt)):
        if dealt[s] and not packed[s] and all_in[s]:
            level = contributions[s]
            new = True
            for k in range(count):
                if levels[k] == level:
                    new = False
            if new:  # insertion into the sorted levels
                k = count
                while k > 0 and levels[k - 1] > level:
                    levels[k] = levels[k - 1]
                    k -= 1
                levels[k] = level
                count += 1
    return count


def slice_chips(seats: Any, levels: Any, count: int, k: int) -> int:
    """The chips of slice ``k`` (the top slice when ``k == count``): every seat's
    contribution between the level below and the slice's own, packed seats' included."""
    contributions = seats[CONTRIB]
    floor = levels[k - 1] if k > 0 else 0
    chips = 0
    for s in range(len(contributions)):
        put = contributions[s]
        if k < count and put > levels[k]:
            put = levels[k]
        if put > floor:
            chips += put - floor
    return chips


def may_win(seats: Any, levels: Any, count: int, k: int, s: int) -> bool:
    """Whether seat ``s`` contends for slice ``k``: still in the hand, and not all-in or
    all-in for at least the slice's level (never the top slice)."""
    if not seats[DEALT][s] or seats[PACKED][s]:
        return False
    return not seats[ALL_IN][s] or (k < count and seats[CONTRIB][s] >= levels[k])


def divide_pot(seats: Any, values: Any, dealer: int, levels: Any, payouts: Any) -> None:
    """Write into ``payouts`` what each seat receives at a showdown: each slice split
    among its best hands (``values``, higher wins), the odd chips one at a time to the
    tied winners from the dealer's left. ``levels``: scratch room, one entry per seat."""
    n = len(payouts)
    count = pot_levels(seats, levels)
    for s in range(n):
        payouts[s] = 0
    carried = 0
    for k in range(count, -1, -1):
        amount = slice_chips(seats, levels, count, k) + carried
        best = NONE
        winners = 0
        for s in range(n):
            if may_win(seats, levels, count, k, s):
                if values[s] > best:
                    best, winners = values[s], 1
                elif values[s] == best:
                    winners += 1
        if winners == 0:
            carried = amount
            continue
        carried = 0
        share = amount // winners
        odd = amount - share * winners
        for step in range(1, n + 1):
            s = (dealer + step) % n
            if may_win(seats, levels, count, k, s) and values[s] == best:
                payouts[s] += share
                if odd > 0:
                    payouts[s] += 1
                    odd -= 1
