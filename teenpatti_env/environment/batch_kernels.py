"""Compiled loops of the batched engine (:mod:`teenpatti_env.environment.batched`).

Every function works on one table ``t`` of a batch held as arrays, or loops over the
batch; the rules are those of :class:`~teenpatti_env.engine.Hand` for the classic family
(RULES.md sections 2-6 and 9), written as plain loops over small integer arrays so that
numba compiles them (``cache=True``: the second start loads the compiled code from disk).
Without numba the same functions run as plain Python: correct, only slow.

State layout (``N`` tables, ``n`` seats):

* ``tab[N, TAB_FIELDS]`` int64: the table scalars ``POT`` .. ``DEALS``;
* ``seat[N, SEAT_FIELDS, n]`` int64: the per-seat fields ``STACK`` .. ``CARD0+2``;
* ``known[N, n, n]`` uint8: ``known[t, viewer, other]`` is 1 once the viewer has seen that seat's
  cards (its own once it looked, a show or showdown, a private sideshow reveal).
* ``params`` int64: the rule settings, indexed by the ``P_*`` constants.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

try:  # numba is optional: without it the kernels run as plain (slow) Python.
    from numba import njit as _numba_njit

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - exercised only where numba is missing
    HAVE_NUMBA = False


def jit(function: Callable[..., Any]) -> Callable[..., Any]:
    """``numba.njit(cache=True)`` when numba is installed, else the function itself."""
    if HAVE_NUMBA:
        return _numba_njit(cache=True, nogil=True, error_model="numpy")(function)
    return function


def inline(function: Callable[..., Any]) -> Callable[..., Any]:
    """:func:`jit`, inlined into its callers (the small rule queries of the hot path:
    a call per query would cost more than the query)."""
    if HAVE_NUMBA:
        return _numba_njit(cache=True, nogil=True, error_model="numpy")(function)
    return function


def wrapping(function: Callable[..., Any]) -> Callable[..., Any]:
    """:func:`inline` for arithmetic meant to wrap around 2**64 (the random streams).

    Compiled, uint64 arithmetic wraps silently; as plain Python it is numpy scalar
    arithmetic, which wraps too but warns of the overflow, so there it runs with
    numpy's overflow warnings off.
    """
    if HAVE_NUMBA:
        return inline(function)
    return np.errstate(over="ignore")(function)


# Table scalars.
POT, STAKE, DEALER, TO_ACT, ASKER, TARGET, END, ACTIONS, DEALS = range(9)
TAB_FIELDS = 9
# END codes.
RUNNING, LAST_PLAYER, SHOW, SHOWDOWN = range(4)
# Per-seat fields.
(STACK, CONTRIB, DEALT, PACKED, SEEN, ALL_IN, BLIND_BETS, PAYOUT, START_STACK, VALUE, SHOWN,
 CARD0) = range(12)
SEAT_FIELDS = CARD0 + 3
# Rule settings.
(P_SEATS, P_BOOT, P_RAISE, P_MAX_BLIND, P_MAX_BET, P_POT_CAP, P_POT_LIMIT, P_SIDESHOW,
 P_TARGET_SEEN, P_ALL_SEEN, P_REVEAL, P_SHORT, P_ENTRY, P_BET_LEVELS) = range(14)
PARAMS = 14
NONE = -1
"""An unset optional setting (``max_bet``, ``pot_cap``, ``max_blind_bets``) or no seat."""
SHORT_ALL_IN, SHORT_PACK, SHORT_SHOWDOWN = range(3)
# Action kinds (the engine's action types the action table's indices stand for).
K_PACK, K_LOOK, K_BET, K_SHOW, K_SIDESHOW, K_ACCEPT, K_REFUSE, K_ALL_IN = range(8)
KINDS = 8
KIND_NAMES = ("pack", "look", "bet", "show", "sideshow", "accept", "refuse", "all_in")
# Observation: index of each global scalar in ``global_at`` and of each seat field in
# the columns of ``seat_at`` (the order of ObservationLayout's GLOBAL_SLOTS/SEAT_SLOTS).
(G_POT, G_STAKE, G_MIN_BET, G_MAX_BET, G_MY_TURN, G_ASKED, G_OVER, G_PLAYED, G_REMAINING,
 G_LIMIT, G_STRENGTH) = range(11)
(S_IN_SESSION, S_DEALT, S_IN_HAND, S_PACKED, S_ALL_IN, S_SEEN, S_BLIND_BETS, S_STACK,
 S_CHIPS_IN, S_DEALER, S_PREVIOUS, S_TO_ACT, S_ASKER) = range(13)


# ----------------------------------------------------------------- random numbers


@wrapping
def next_random(rng: Any, t: int) -> np.uint64:
    """The next 64 bits of table ``t``'s own stream (splitmix64)."""
    state = rng[t] + np.uint64(0x9E3779B97F4A7C15)
    rng[t] = state
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@inline
def random_below(rng: Any, t: int, bound: int) -> int:
    """A number in ``0..bound-1`` (multiply-shift of 32 random bits; bias below 2**-26)."""
    high = next_random(rng, t) >> np.uint64(32)
    return int((high * np.uint64(bound)) >> np.uint64(32))


# ----------------------------------------------------------------- rule queries
# Boolean results are combined with ``&``, not ``and``: numba compiles a value-returning
# ``and`` to a slow generic path (measured at about 20 ns a call against 1-3 ns).


@inline
def in_hand(seat: Any, t: int, s: int) -> bool:
    return (seat[t, DEALT, s] == 1) & (seat[t, PACKED, s] == 0)


@inline
def can_bet(seat: Any, t: int, s: int) -> bool:
    return (seat[t, DEALT, s] == 1) & (seat[t, PACKED, s] == 0) & (seat[t, ALL_IN, s] == 0)


@inline
def count_in_hand(seat: Any, t: int, n: int) -> int:
    count = 0
    for s in range(n):
        if in_hand(seat, t, s):
            count += 1
    return count


@inline
def count_can_bet(seat: Any, t: int, n: int) -> int:
    count = 0
    for s in range(n):
        if can_bet(seat, t, s):
            count += 1
    return count


@inline
def cap_reached(params: Any, tab: Any, t: int) -> bool:
    return (params[P_POT_CAP] != NONE) & (tab[t, POT] >= params[P_POT_CAP])


@jit
def empty_stack_showdown(params: Any, seat: Any, t: int) -> bool:
    """``short_stack="showdown"``: a payment left a seat in the hand with no chips."""
    if params[P_SHORT] != SHORT_SHOWDOWN:
        return False
    for s in range(params[P_SEATS]):  # noqa: SIM110 (numba compiles loops, not any())
        if in_hand(seat, t, s) and seat[t, STACK, s] == 0:
            return True
    return False


@inline
def previous_player(params: Any, seat: Any, t: int, s: int, seen_only: bool) -> int:
    """Nearest seat to the right of ``s`` still in the hand and not all-in."""
    n = params[P_SEATS]
    for step in range(1, n):
        other = (s - step) % n
        if can_bet(seat, t, other) and (seat[t, SEEN, other] == 1 or not seen_only):
            return other
    return NONE


@inline
def at_blind_limit(params: Any, seat: Any, t: int, s: int) -> bool:
    limit = params[P_MAX_BLIND]
    return (seat[t, SEEN, s] == 0) & (limit != NONE) & (seat[t, BLIND_BETS, s] >= limit)


@inline
def min_bet(tab: Any, seat: Any, t: int, s: int) -> int:
    return 2 * tab[t, STAKE] if seat[t, SEEN, s] == 1 else tab[t, STAKE]


@inline
def is_short(tab: Any, seat: Any, t: int, s: int) -> bool:
    return seat[t, STACK, s] < min_bet(tab, seat, t, s)


@inline
def bet_range(params: Any, tab: Any, seat: Any, t: int, s: int, keep: int) -> tuple[int, int]:
    """``(low, high)`` of a legal bet leaving ``keep`` chips; ``low > high``: none fits."""
    stake = tab[t, STAKE]
    seen = seat[t, SEEN, s] == 1
    if seen:
        ceiling = 2 * params[P_RAISE] * stake
        if params[P_MAX_BET] != NONE:
            ceiling = min(ceiling, params[P_MAX_BET])
    else:
        ceiling = params[P_RAISE] * stake
        if params[P_MAX_BET] != NONE:
            ceiling = min(ceiling, params[P_MAX_BET] // 2)
    if params[P_POT_LIMIT] == 1:
        ceiling = min(ceiling, tab[t, POT])
    low = 2 * stake if seen else stake
    high = min(ceiling, seat[t, STACK, s] - keep)
    if seen:
        high -= high & 1
    return low, high


@inline
def other_in_hand(params: Any, seat: Any, t: int, s: int) -> int:
    for other in range(params[P_SEATS]):
        if other != s and in_hand(seat, t, other):
            return other
    return NONE


@jit
def show_allowed(params: Any, tab: Any, seat: Any, t: int, s: int, in_hand_count: int) -> bool:
    if in_hand_count != 2:
        return False
    opponent = other_in_hand(params, seat, t, s)
    if seat[t, ALL_IN, s] == 1 or seat[t, ALL_IN, opponent] == 1:
        return False
    if seat[t, SEEN, s] == 1 and seat[t, SEEN, opponent] == 0:
        return False
    return seat[t, STACK, s] >= min_bet(tab, seat, t, s)


@jit
def sideshow_target(params: Any, seat: Any, t: int, s: int) -> int:
    return previous_player(params, seat, t, s, params[P_TARGET_SEEN] == 1)


@jit
def sideshow_allowed(params: Any, tab: Any, seat: Any, t: int, s: int,
                     in_hand_count: int) -> bool:
    n = params[P_SEATS]
    if params[P_SIDESHOW] == 0 or seat[t, SEEN, s] == 0 or in_hand_count < 3:
        return False
    if params[P_ALL_SEEN] == 1:
        for other in range(n):
            if in_hand(seat, t, other) and seat[t, SEEN, other] == 0:
                return False
    target = sideshow_target(params, seat, t, s)
    if target == NONE or seat[t, SEEN, target] == 0:
        return False
    low, high = bet_range(params, tab, seat, t, s, 1)
    return low <= high


@inline
def all_in_allowed(params: Any, tab: Any, seat: Any, t: int, s: int) -> bool:
    if params[P_SHORT] != SHORT_ALL_IN or seat[t, STACK, s] == 0:
        return False
    return is_short(tab, seat, t, s)


@jit
def legal_kinds(params: Any, tab: Any, seat: Any, t: int, out: Any) -> None:
    """``out[kind]``: whether the seat to act may take an action of that kind."""
    out[:] = False
    s = tab[t, TO_ACT]
    if tab[t, END] != RUNNING or s == NONE:
        return
    if tab[t, ASKER] != NONE:
        out[K_ACCEPT] = True
        out[K_REFUSE] = True
        return
    # Only the seat to act takes actions here, so look_anytime (off-turn looks) never
    # matters: a blind seat to act may always look.
    out[K_LOOK] = seat[t, SEEN, s] == 0
    out[K_PACK] = True
    if at_blind_limit(params, seat, t, s):
        return
    low, high = bet_range(params, tab, seat, t, s, 0)
    out[K_BET] = low <= high
    out[K_ALL_IN] = all_in_allowed(params, tab, seat, t, s)
    in_hand_count = count_in_hand(seat, t, params[P_SEATS])
    out[K_SHOW] = show_allowed(params, tab, seat, t, s, in_hand_count)
    out[K_SIDESHOW] = sideshow_allowed(params, tab, seat, t, s, in_hand_count)


@inline
def bet_amount(low: int, high: int, level: int, levels: int, step: int) -> int:
    """Bet ``level`` of ``levels`` in ``low..high`` (multiples of ``step`` above ``low``)."""
    steps = (high - low) // step
    return low + step * (level * steps // (levels - 1))


# ----------------------------------------------------------------- flow


@inline
def pay(tab: Any, seat: Any, t: int, s: int, chips: int) -> None:
    seat[t, STACK, s] -= chips
    seat[t, CONTRIB, s] += chips
    tab[t, POT] += chips


@jit
def reveal(params: Any, seat: Any, known: Any, t: int, s: int) -> None:
    """Turn ``s``'s cards up for the whole table."""
    seat[t, SHOWN, s] = 1
    for viewer in range(params[P_SEATS]):
        known[t, viewer, s] = 1


@jit
def finish(params: Any, tab: Any, seat: Any, t: int, end: int) -> None:
    """Pay ``PAYOUT`` into the stacks and close the hand."""
    for s in range(params[P_SEATS]):
        seat[t, STACK, s] += seat[t, PAYOUT, s]
    tab[t, POT] = 0
    tab[t, END] = end
    tab[t, TO_ACT] = NONE
    tab[t, ASKER] = NONE
    tab[t, TARGET] = NONE


@jit
def win_whole_pot(params: Any, tab: Any, seat: Any, t: int, winner: int, end: int) -> None:
    seat[t, PAYOUT, winner] = tab[t, POT]
    finish(params, tab, seat, t, end)


@jit
def last_player_wins(params: Any, tab: Any, seat: Any, t: int) -> None:
    for s in range(params[P_SEATS]):
        if in_hand(seat, t, s):
            win_whole_pot(params, tab, seat, t, s, LAST_PLAYER)
            return


@jit
def resolve_show(params: Any, tab: Any, seat: Any, known: Any, t: int, asker: int) -> None:
    opponent = other_in_hand(params, seat, t, asker)
    reveal(params, seat, known, t, asker)
    reveal(params, seat, known, t, opponent)
    # The asker loses a tie (RULES 3.4).
    winner = asker if seat[t, VALUE, asker] > seat[t, VALUE, opponent] else opponent
    win_whole_pot(params, tab, seat, t, winner, SHOW)


@jit
def showdown(params: Any, tab: Any, seat: Any, known: Any, t: int) -> None:
    """Every hand still in is shown; the pot is cut into side pots at the all-in
    contributions and each slice goes to its best eligible hands (RULES section 5)."""
    n = params[P_SEATS]
    dealer = tab[t, DEALER]
    # Distinct all-in levels of the contenders, ascending, then the top (no level).
    levels = np.empty(n + 1, dtype=np.int64)
    count = 0
    for s in range(n):
        if in_hand(seat, t, s):
            reveal(params, seat, known, t, s)
            if seat[t, ALL_IN, s] == 1:
                level = seat[t, CONTRIB, s]
                new = True
                for k in range(count):
                    if levels[k] == level:
                        new = False
                if new:
                    levels[count] = level
                    count += 1
        seat[t, PAYOUT, s] = 0
    levels[:count] = np.sort(levels[:count])
    amounts = np.zeros(count + 1, dtype=np.int64)
    floor = 0
    for k in range(count + 1):
        for s in range(n):
            chips = seat[t, CONTRIB, s]
            if k < count:
                chips = min(chips, levels[k])
            if chips > floor:
                amounts[k] += chips - floor
        if k < count:
            floor = levels[k]
    carried = 0
    for k in range(count, -1, -1):
        amount = amounts[k] + carried
        best = NONE
        winners = 0
        for s in range(n):
            if in_hand(seat, t, s) and (
                seat[t, ALL_IN, s] == 0 or (k < count and seat[t, CONTRIB, s] >= levels[k])
            ):
                value = seat[t, VALUE, s]
                if value > best:
                    best, winners = value, 1
                elif value == best:
                    winners += 1
        if winners == 0:
            carried = amount
            continue
        carried = 0
        share = amount // winners
        odd = amount - share * winners
        # Odd chips one at a time to the tied winners from the dealer's left.
        for step in range(1, n + 1):
            s = (dealer + step) % n
            if in_hand(seat, t, s) and seat[t, VALUE, s] == best and (
                seat[t, ALL_IN, s] == 0 or (k < count and seat[t, CONTRIB, s] >= levels[k])
            ):
                seat[t, PAYOUT, s] += share
                if odd > 0:
                    seat[t, PAYOUT, s] += 1
                    odd -= 1
    finish(params, tab, seat, t, SHOWDOWN)


@jit
def pass_turn(params: Any, tab: Any, seat: Any, known: Any, t: int, origin: int) -> None:
    n = params[P_SEATS]
    for step in range(1, n + 1):
        s = (origin + step) % n
        if can_bet(seat, t, s):
            tab[t, TO_ACT] = s
            break
    # short_stack="showdown": a short seat about to take a betting turn shows at once.
    if params[P_SHORT] == SHORT_SHOWDOWN and is_short(tab, seat, t, tab[t, TO_ACT]):
        showdown(params, tab, seat, known, t)


@jit
def after_action(params: Any, tab: Any, seat: Any, known: Any, t: int, actor: int,
                 show_asker: int) -> None:
    """RULES section 4: what ends betting, in order, else the turn passes left."""
    n = params[P_SEATS]
    if count_in_hand(seat, t, n) == 1:
        last_player_wins(params, tab, seat, t)
    elif cap_reached(params, tab, t):
        showdown(params, tab, seat, known, t)
    elif show_asker != NONE:
        resolve_show(params, tab, seat, known, t, show_asker)
    elif count_can_bet(seat, t, n) <= 1 or empty_stack_showdown(params, seat, t):
        showdown(params, tab, seat, known, t)
    else:
        pass_turn(params, tab, seat, known, t, actor)


@jit
def apply_action(params: Any, tab: Any, seat: Any, known: Any, t: int, kind: int,
                 level: int) -> None:
    """Apply a legal action of ``kind`` (bet ``level`` for a bet) for the seat to act."""
    s = tab[t, TO_ACT]
    if kind == K_LOOK:
        seat[t, SEEN, s] = 1
        known[t, s, s] = 1
        if params[P_SHORT] == SHORT_SHOWDOWN and is_short(tab, seat, t, s):
            showdown(params, tab, seat, known, t)
    elif kind == K_PACK:
        seat[t, PACKED, s] = 1
        after_action(params, tab, seat, known, t, s, NONE)
    elif kind == K_BET:
        low, high = bet_range(params, tab, seat, t, s, 0)
        seen = seat[t, SEEN, s] == 1
        amount = bet_amount(low, high, level, params[P_BET_LEVELS], 2 if seen else 1)
        if seen:
            tab[t, STAKE] = amount // 2
        else:
            tab[t, STAKE] = amount
            seat[t, BLIND_BETS, s] += 1
        pay(tab, seat, t, s, amount)
        if seat[t, STACK, s] == 0 and params[P_SHORT] != SHORT_PACK:
            seat[t, ALL_IN, s] = 1
        after_action(params, tab, seat, known, t, s, NONE)
    elif kind == K_ALL_IN:
        pay(tab, seat, t, s, seat[t, STACK, s])
        seat[t, ALL_IN, s] = 1
        after_action(params, tab, seat, known, t, s, NONE)
    elif kind == K_SHOW:
        pay(tab, seat, t, s, min_bet(tab, seat, t, s))
        after_action(params, tab, seat, known, t, s, s)
    elif kind == K_SIDESHOW:
        amount = bet_range(params, tab, seat, t, s, 1)[0]
        target = sideshow_target(params, seat, t, s)
        tab[t, STAKE] = amount // 2
        pay(tab, seat, t, s, amount)
        if cap_reached(params, tab, t):
            showdown(params, tab, seat, known, t)  # RULES 3.5: the request is cancelled
        else:
            tab[t, ASKER] = s
            tab[t, TARGET] = target
            tab[t, TO_ACT] = target
    else:  # accept or refuse
        asker, target = tab[t, ASKER], tab[t, TARGET]
        tab[t, ASKER] = NONE
        tab[t, TARGET] = NONE
        if kind == K_ACCEPT:
            # On a tie the asker packs.
            loser = target if seat[t, VALUE, asker] > seat[t, VALUE, target] else asker
            seat[t, PACKED, loser] = 1
            if params[P_REVEAL] == 1:
                known[t, asker, target] = 1
                known[t, target, asker] = 1
        after_action(params, tab, seat, known, t, asker, NONE)


# ----------------------------------------------------------------- dealing


@jit
def start_hand(params: Any, tab: Any, seat: Any, known: Any, values: Any, t: int) -> None:
    """Post the boots of a table whose cards, dealer and stacks are set, and find the
    first seat to act (or end the hand at once, RULES section 2)."""
    n = params[P_SEATS]
    boot = params[P_BOOT]
    tab[t, POT] = 0
    tab[t, STAKE] = boot
    tab[t, ASKER] = NONE
    tab[t, TARGET] = NONE
    tab[t, END] = RUNNING
    tab[t, TO_ACT] = NONE
    tab[t, ACTIONS] = 0
    tab[t, DEALS] += 1
    for viewer in range(n):
        for s in range(n):
            known[t, viewer, s] = 0
    for s in range(n):
        seat[t, STACK, s] = seat[t, START_STACK, s]
        seat[t, DEALT, s] = 1 if seat[t, START_STACK, s] >= params[P_ENTRY] else 0
        for field in (CONTRIB, PACKED, SEEN, ALL_IN, BLIND_BETS, PAYOUT, SHOWN):
            seat[t, field, s] = 0
        seat[t, VALUE, s] = NONE
        if seat[t, DEALT, s] == 1:
            index = seat[t, CARD0, s] * 2704 + seat[t, CARD0 + 1, s] * 52 + seat[t, CARD0 + 2, s]
            seat[t, VALUE, s] = values[index]
            pay(tab, seat, t, s, boot)
            if seat[t, STACK, s] == 0 and params[P_SHORT] != SHORT_PACK:
                seat[t, ALL_IN, s] = 1
    if (cap_reached(params, tab, t) or count_can_bet(seat, t, n) <= 1
            or empty_stack_showdown(params, seat, t)):
        showdown(params, tab, seat, known, t)
    else:
        pass_turn(params, tab, seat, known, t, tab[t, DEALER])


@jit
def draw_dealer(params: Any, tab: Any, seat: Any, rng: Any, t: int) -> int:
    """Draw the dealer among the seats that can enter; returns how many enter."""
    n = params[P_SEATS]
    entering = 0
    for s in range(n):
        if seat[t, START_STACK, s] >= params[P_ENTRY]:
            entering += 1
    pick = random_below(rng, t, entering)
    for s in range(n):
        if seat[t, START_STACK, s] >= params[P_ENTRY]:
            if pick == 0:
                tab[t, DEALER] = s
                break
            pick -= 1
    return entering


@jit
def deal_random(params: Any, tab: Any, seat: Any, deck: Any, rng: Any, t: int) -> None:
    """Draw the dealer and deal three cards to every seat that can enter, from the
    table's own shuffled deck, one at a time from the dealer's left."""
    n = params[P_SEATS]
    entering = draw_dealer(params, tab, seat, rng, t)
    needed = 3 * entering
    for i in range(needed):  # a partial Fisher-Yates shuffle of the deck
        j = i + random_below(rng, t, 52 - i)
        deck[t, i], deck[t, j] = deck[t, j], deck[t, i]
    place = 0
    dealer = tab[t, DEALER]
    for step in range(1, n + 1):
        s = (dealer + step) % n
        if seat[t, START_STACK, s] >= params[P_ENTRY]:
            for c in range(3):
                seat[t, CARD0 + c, s] = deck[t, place + c * entering]
            place += 1
        else:
            for c in range(3):
                seat[t, CARD0 + c, s] = NONE


@jit
def deal_tables(params: Any, tab: Any, seat: Any, known: Any, deck: Any, rng: Any,
                values: Any, which: Any) -> None:
    """Deal a random hand at every table ``t`` with ``which[t]``."""
    for t in range(tab.shape[0]):
        if which[t]:
            deal_random(params, tab, seat, deck, rng, t)
            start_hand(params, tab, seat, known, values, t)


@jit
def start_tables(params: Any, tab: Any, seat: Any, known: Any, rng: Any, values: Any,
                 which: Any) -> None:
    """Start the hands whose cards were given, at every table with ``which[t]`` (a
    dealer of ``NONE`` is drawn first)."""
    for t in range(tab.shape[0]):
        if which[t]:
            if tab[t, DEALER] == NONE:
                draw_dealer(params, tab, seat, rng, t)
            start_hand(params, tab, seat, known, values, t)


# ----------------------------------------------------------------- observation and mask


@jit
def encode(params: Any, tab: Any, seat: Any, known: Any, t: int, me: int, obs: Any,
           global_at: Any, seat_at: Any, category_at: int, cards_at: Any, categories: Any,
           strengths: Any) -> None:
    """Write seat ``me``'s observation vector into the zeroed row ``obs[t]``, slot for
    slot as :meth:`ObservationLayout.encode` builds it for a hand episode."""
    n = params[P_SEATS]
    per_boot = 1.0 / params[P_BOOT]
    running = tab[t, END] == RUNNING
    asker = tab[t, ASKER]
    to_act = tab[t, TO_ACT]  # NONE once the hand is over
    dealer = tab[t, DEALER]
    if known[t, me, me] == 1:
        value = seat[t, VALUE, me]
        obs[t, global_at[G_STRENGTH]] = strengths[value]
        obs[t, category_at + categories[value]] = 1.0
    if running and asker == NONE and can_bet(seat, t, me) and not at_blind_limit(
            params, seat, t, me):
        low, high = bet_range(params, tab, seat, t, me, 0)
        if low <= high:
            obs[t, global_at[G_MIN_BET]] = low * per_boot
            obs[t, global_at[G_MAX_BET]] = high * per_boot
    my_turn = running & (to_act == me)
    obs[t, global_at[G_POT]] = tab[t, POT] * per_boot
    obs[t, global_at[G_STAKE]] = tab[t, STAKE] * per_boot
    obs[t, global_at[G_MY_TURN]] = my_turn
    obs[t, global_at[G_ASKED]] = my_turn & (asker != NONE)
    obs[t, global_at[G_OVER]] = not running
    previous = previous_player(params, seat, t, me, False) if running else NONE
    # previous, to_act and asker are NONE (never a seat) when unset
    for j in range(n):
        other = (me + j) % n
        dealt = seat[t, DEALT, other]
        obs[t, seat_at[j, S_IN_SESSION]] = dealt
        obs[t, seat_at[j, S_DEALT]] = dealt
        obs[t, seat_at[j, S_IN_HAND]] = dealt * (1 - seat[t, PACKED, other])
        obs[t, seat_at[j, S_PACKED]] = seat[t, PACKED, other]
        obs[t, seat_at[j, S_ALL_IN]] = seat[t, ALL_IN, other]
        obs[t, seat_at[j, S_SEEN]] = seat[t, SEEN, other]
        obs[t, seat_at[j, S_BLIND_BETS]] = seat[t, BLIND_BETS, other]
        obs[t, seat_at[j, S_STACK]] = seat[t, STACK, other] * per_boot
        obs[t, seat_at[j, S_CHIPS_IN]] = seat[t, CONTRIB, other] * per_boot
        obs[t, seat_at[j, S_DEALER]] = other == dealer
        obs[t, seat_at[j, S_PREVIOUS]] = other == previous
        obs[t, seat_at[j, S_TO_ACT]] = other == to_act
        obs[t, seat_at[j, S_ASKER]] = other == asker
        if known[t, me, other] == 1:
            for c in range(3):
                obs[t, cards_at[j] + seat[t, CARD0 + c, other]] = 1.0


@jit
def observe_tables(params: Any, tab: Any, seat: Any, known: Any, which: Any, seats: Any,
                   obs: Any, mask: Any, kind_of: Any, global_at: Any, seat_at: Any,
                   category_at: int, cards_at: Any, categories: Any, strengths: Any) -> None:
    """At every table with ``which[t]``: the observation of ``seats[t]`` (zeros where it
    is ``NONE``) and the action mask of the seat to act (zeros where it is not that
    seat)."""
    legal = np.zeros(KINDS, dtype=np.bool_)
    for t in range(tab.shape[0]):
        if not which[t]:
            continue
        obs[t, :] = 0.0
        mask[t, :] = 0
        me = seats[t]
        if me == NONE:
            continue
        encode(params, tab, seat, known, t, me, obs, global_at, seat_at, category_at,
               cards_at, categories, strengths)
        if me == tab[t, TO_ACT]:
            legal_kinds(params, tab, seat, t, legal)
            for a in range(kind_of.shape[0]):
                if legal[kind_of[a]]:
                    mask[t, a] = 1


@jit
def check_actions(tab: Any, mask: Any, actions: Any, active: Any) -> tuple[int, int]:
    """The first active table that waits for a decision and whose action its mask does
    not allow (``NONE``: none), and the most actions any table's hand holds."""
    size = mask.shape[1]
    longest = 0
    for t in range(tab.shape[0]):
        longest = max(longest, tab[t, ACTIONS])
        if active[t] and tab[t, TO_ACT] != NONE:
            a = actions[t]
            if a < 0 or a >= size or mask[t, a] == 0:
                return t, longest
    return NONE, longest


@jit
def step_tables(params: Any, tab: Any, seat: Any, known: Any, history: Any, actions: Any,
                active: Any, kind_of: Any, level_of: Any, rewards: Any, finished: Any,
                reported: Any) -> None:
    """Apply ``actions[t]`` at every table with ``active[t]`` whose hand waits for a
    decision (the caller checked them against the mask); ``rewards[t]`` gets every seat's
    net chips of a hand that ended, and ``finished[t]`` is set. A hand that ended at the
    deal (not yet ``reported``) gives its result at the table's first step after it."""
    n = params[P_SEATS]
    for t in range(tab.shape[0]):
        if not active[t]:
            continue
        if tab[t, END] == RUNNING:
            a = actions[t]
            history[t, tab[t, ACTIONS]] = a
            tab[t, ACTIONS] += 1
            apply_action(params, tab, seat, known, t, kind_of[a], level_of[a])
        if tab[t, END] != RUNNING and not reported[t]:
            reported[t] = True
            finished[t] = True
            for s in range(n):
                rewards[t, s] = seat[t, PAYOUT, s] - seat[t, CONTRIB, s]
