"""The batched engine's seat valuation and the wild cards that change during a hand:
threshold indicators turning up as chips go in (VARIANTS.md T1-T2), wild ranks rotating
after each full betting round (R1-R3) and a joker bought on a seat's turn (J1-J2).

The rules are not restated here: a seat's value is
:func:`teenpatti_env.cards.wild.wild_value`, the ranks and suits wild for every seat
(the turned-up thresholds included) are :func:`teenpatti_env.cards.wild.public_wild`, and
the thresholds reached, the end of a full betting round, the owner of a rotating rank and
who may buy a joker are :mod:`teenpatti_env.cards.jokers`'s: the functions the per-table
engine calls, compiled by numba. This module sits below
``batch_rules`` so that the betting kernels can call its hooks (a payment turns
thresholds up, a turn passed on may end a round) without an import cycle.
"""

from __future__ import annotations

from typing import Any

from teenpatti_env.cards import jokers
from teenpatti_env.cards.wild import public_wild as _public_wild
from teenpatti_env.cards.wild import wild_value as _wild_value
from teenpatti_env.environment.batch_state import *  # noqa: F403
from teenpatti_env.rules import Rules

wild_value = jit(_wild_value)
public_wild = jit(_public_wild)
thresholds_reached = jit(jokers.thresholds_reached)
round_ended = jit(jokers.round_ended)
rotation_owner = jit(jokers.rotation_owner)
lowest_rank = jit(jokers.lowest_rank)
may_buy_joker = jit(jokers.may_buy_joker)


def joker_params(rules: Rules, params: Any, offsets: dict[str, int]) -> None:
    """Write the ``P_*`` settings of thresholds, rotating jokers and buying a joker into
    ``params`` (``offsets``: the observation layout's slot offsets by name)."""
    spec = rules.spec
    params[P_THRESHOLD_AT] = NONE
    params[P_THRESHOLD_COUNT] = 0
    at = 0
    counts = spec.source_codes[1]
    for source, count in zip(spec.wild, counts, strict=True):
        if source.kind == "thresholds":
            params[P_THRESHOLD_AT] = at
            params[P_THRESHOLD_COUNT] = len(source.values)
            params[P_THRESHOLD:P_THRESHOLD + len(source.values)] = source.values
        at += count
    params[P_ROTATING] = "rotating_lowest" in spec.wild_kinds
    params[P_BUY] = spec.buy_a_joker
    for param, name in ((P_OBS_BEYOND, "beyond_boots"), (P_OBS_ROTATIONS, "rotations"),
                        (P_OBS_MY_BOUGHT, "my_bought"), (P_OBS_BOUGHT, "seat0.bought")):
        params[param] = offsets.get(name, NONE)


# ----------------------------------------------------------------- valuation


@inline
def held_cards(params: Any, seat: Any, t: int, s: int) -> int:
    """How many private cards seat ``s`` holds now (a selection phase changes it)."""
    held: int = params[P_PRIVATE] if params[P_PHASE] == 0 else seat[t, HELD, s]
    return held


@jit
def seat_value(params: Any, tab: Any, seat: Any, values: Any, t: int, s: int) -> int:
    """Seat ``s``'s best value: its private and the community cards, the cards wild for
    it (public, its own lowest or rotating rank, the card it bought) and the imaginary
    card, by :func:`wild_value` (the cards and flags written in ``values``' scratch,
    ``V_SCRATCH``)."""
    return value_without(params, tab, seat, values, t, s, NONE)


@jit
def value_without(params: Any, tab: Any, seat: Any, values: Any, t: int, s: int,
                  skip: int) -> int:
    """:func:`seat_value` of seat ``s`` without the private card in slot ``skip``
    (``NONE``: with every card): what discarding it would leave."""
    cards = values[V_SCRATCH:V_SCRATCH + MAX_PRIVATE + MAX_COMMUNITY]
    flags = values[V_SCRATCH + MAX_PRIVATE + MAX_COMMUNITY:V_SIZE]
    count = 0
    for c in range(held_cards(params, seat, t, s)):
        if c != skip:
            cards[count] = seat[t, CARD0 + c, s]
            count += 1
    for c in range(params[P_COMMUNITY]):
        cards[count] = tab[t, COMMUNITY + c]
        count += 1
    burst, own, bought = tab[t, BURST_RANK], seat[t, OWN_RANK, s], seat[t, BOUGHT, s]
    for i in range(count):
        rank, suit = cards[i] >> 2, cards[i] & 3
        flags[i] = ((rank != burst) & ((tab[t, WILD_RANK + rank] == 1)
                                       | (tab[t, WILD_SUIT + suit] == 1) | (rank == own))
                    | (cards[i] == bought))
    return looked_up_value(params, values, cards, flags, count)


@inline
def looked_up_value(params: Any, values: Any, cards: Any, flags: Any, count: int) -> int:
    """:func:`wild_value` of the first ``count`` of ``cards`` (``flags``: which are wild)
    and the imaginary card where the variant has one, from ``values``' lookups."""
    best: int = wild_value(cards, flags, count, params[P_IMAGINED] == 1, values[:V_ONE],
                           values[V_ONE:V_TWO], values[V_TWO:V_THREE], values[V_THREE],
                           values[V_PAIR_ORDER:V_ONE_ORDER].reshape((52 * 52, 8)),
                           values[V_ONE_ORDER:V_TWO_ORDER].reshape((52, 8)),
                           values[V_TWO_ORDER:V_SCRATCH])
    return best


@jit
def best_kept(params: Any, tab: Any, seat: Any, values: Any, rows: Any, seats: Any,
              keep: Any, ranks: Any, suits: Any, also_wild: Any, kept: Any,
              best: Any) -> None:
    """For each ``i``: the ``keep[i]`` cards of seat ``seats[i]``'s hand at table
    ``rows[i]`` worth most together (with the community cards and the imaginary card),
    the cards wild as the seat knows them (``ranks[i]`` 13 and ``suits[i]`` 4 flags) and
    the card in slot ``also_wild[i]`` (``-1``: none) made wild: ``kept[i]``, the bits of
    their slots (the first such set in the order of ``itertools.combinations``), and
    ``best[i]``, their value. ``keep[i] <= 0``: nothing valued (``kept[i] = 0``,
    ``best[i] = -1``)."""
    size = MAX_PRIVATE + MAX_COMMUNITY
    cards = values[V_SCRATCH:V_SCRATCH + size]
    flags = values[V_SCRATCH + size:V_SIZE]
    for i in range(rows.shape[0]):
        t, s, want = rows[i], seats[i], keep[i]
        held = held_cards(params, seat, t, s)
        kept[i] = 0
        best[i] = -1
        if want <= 0:
            continue
        # Slot c is bit held-1-c of ``order``: counting it down visits the sets of
        # ``want`` slots in the order of itertools.combinations (first slots first).
        for order in range((1 << held) - 1, -1, -1):
            count = 0
            for c in range(held):
                if (order >> (held - 1 - c)) & 1:
                    cards[count] = seat[t, CARD0 + c, s]
                    flags[count] = c == also_wild[i]
                    count += 1
            if count != want:
                continue
            for c in range(params[P_COMMUNITY]):
                cards[count] = tab[t, COMMUNITY + c]
                flags[count] = False
                count += 1
            for c in range(count):
                flags[c] = flags[c] | (ranks[i, cards[c] >> 2] == 1) | (suits[i, cards[c] & 3] == 1)
            value = looked_up_value(params, values, cards, flags, count)
            if value > best[i]:
                best[i] = value
                slots = 0
                for c in range(held):
                    if (order >> (held - 1 - c)) & 1:
                        slots |= 1 << c
                kept[i] = slots


@jit
def set_public_wild(params: Any, tab: Any, t: int) -> None:
    """The ranks and suits wild for every seat now (the threshold indicators turned up
    so far included), by :func:`public_wild`."""
    sources = params[P_SOURCES]
    public_wild(params[P_SOURCE_KIND:P_SOURCE_KIND + sources],
                params[P_SOURCE_COUNT:P_SOURCE_COUNT + sources], params[P_FIXED:P_FIXED + 13],
                tab[t, INDICATOR:INDICATOR + MAX_INDICATORS], tab[t, REVEALED],
                tab[t, CHOSEN_RANK], tab[t, CHOSEN_COLOUR], tab[t, BURST_RANK],
                tab[t, WILD_RANK:WILD_RANK + 13], tab[t, WILD_SUIT:WILD_SUIT + 4])


@jit
def rotating_rank(params: Any, tab: Any, seat: Any, t: int, s: int) -> int:
    """R2: seat ``s``'s rotating wild rank now (``NONE`` for the burst rank, B2)."""
    owner = rotation_owner(seat[t, DEALT], params[P_SEATS], s, tab[t, ROTATIONS])
    rank = lowest_rank(seat[t, CARD0:CARD0 + params[P_PRIVATE], owner], params[P_PRIVATE])
    return NONE if rank == tab[t, BURST_RANK] else rank


@jit
def revalue(params: Any, tab: Any, seat: Any, values: Any, t: int) -> None:
    """The wild cards changed (thresholds turned up, ranks rotated): the public wilds,
    every dealt seat's rotating rank and value again."""
    set_public_wild(params, tab, t)
    for s in range(params[P_SEATS]):
        if seat[t, DEALT, s] == 1:
            if params[P_ROTATING] == 1:
                seat[t, OWN_RANK, s] = rotating_rank(params, tab, seat, t, s)
            seat[t, VALUE, s] = seat_value(params, tab, seat, values, t, s)


# ----------------------------------------------------------------- hooks of the betting


@jit
def beyond_boots(params: Any, seat: Any, t: int) -> int:
    """T1: the chips paid into the pot beyond the boots."""
    paid = 0
    for s in range(params[P_SEATS]):
        paid += seat[t, CONTRIB, s] - params[P_BOOT] * seat[t, DEALT, s]
    return max(paid, 0)


@jit
def turn_up_thresholds(params: Any, tab: Any, seat: Any, values: Any, t: int) -> None:
    """T1, T2 (after a payment, before anything it triggers): each threshold indicator
    turns up when the chips beyond the boots first reach its threshold (one payment may
    turn several)."""
    count = params[P_THRESHOLD_COUNT]
    if count == 0:
        return
    reached = thresholds_reached(params[P_THRESHOLD:P_THRESHOLD + count], count,
                                 beyond_boots(params, seat, t))
    if reached > tab[t, REVEALED]:
        tab[t, REVEALED] = reached
        revalue(params, tab, seat, values, t)


@jit
def count_rotation(params: Any, tab: Any, seat: Any, values: Any, t: int, origin: int) -> None:
    """R1 (the turn just passed on by ``origin`` to ``TO_ACT``, before any short-stack
    check): a full betting round ended when the new seat's position from the dealer's
    left is at or before ``origin``'s; the wild ranks then rotate."""
    if params[P_ROTATING] == 0:
        return
    if round_ended(tab[t, TO_ACT], origin, tab[t, DEALER], params[P_SEATS]):
        tab[t, ROTATIONS] += 1
        revalue(params, tab, seat, values, t)


@jit
def may_buy(params: Any, tab: Any, seat: Any, t: int, s: int) -> bool:
    """J1: once a hand, a seen seat on its betting turn with a boot plus a chip behind."""
    if params[P_BUY] == 0:  # (a batch without buying holds no BOUGHT field)
        return False
    ok: bool = may_buy_joker(seat[t, SEEN, s] == 1, seat[t, BOUGHT, s] != NONE,
                             tab[t, ASKER] != NONE, seat[t, STACK, s], params[P_BOOT])
    return ok


@jit
def buy_joker(params: Any, tab: Any, seat: Any, values: Any, t: int, s: int, slot: int) -> None:
    """J1 after the boot is paid: the card in ``slot`` of seat ``s``'s hand is wild for
    it from now on (the payment may turn thresholds up, P5)."""
    seat[t, BOUGHT, s] = seat[t, CARD0 + slot, s]
    turn_up_thresholds(params, tab, seat, values, t)
    seat[t, VALUE, s] = seat_value(params, tab, seat, values, t, s)


# ----------------------------------------------------------------- observation


@jit
def indicator_shown(params: Any, tab: Any, t: int, c: int) -> bool:
    """D2: indicator ``c`` is face up (a threshold indicator only once turned up)."""
    at = params[P_THRESHOLD_AT]
    return not ((at != NONE) & (c >= at + tab[t, REVEALED])
                & (c < at + params[P_THRESHOLD_COUNT]))


@jit
def encode_jokers(params: Any, tab: Any, seat: Any, t: int, me: int, obs: Any) -> None:
    """Seat ``me``'s slots of thresholds (chips beyond the boots, in boots), rotating
    jokers (the rotations so far) and buying a joker (the card it bought, who bought)."""
    if params[P_OBS_BEYOND] != NONE:
        obs[t, params[P_OBS_BEYOND]] = beyond_boots(params, seat, t) * (1.0 / params[P_BOOT])
    if params[P_OBS_ROTATIONS] != NONE:
        obs[t, params[P_OBS_ROTATIONS]] = tab[t, ROTATIONS]
    if params[P_OBS_MY_BOUGHT] != NONE:
        if seat[t, BOUGHT, me] != NONE:
            obs[t, params[P_OBS_MY_BOUGHT] + seat[t, BOUGHT, me]] = 1.0
        n = params[P_SEATS]
        for j in range(n):
            obs[t, params[P_OBS_BOUGHT] + j] = seat[t, BOUGHT, (me + j) % n] != NONE
