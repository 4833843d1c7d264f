"""The batched engine's rules of one hand (RULES.md sections 2-6 and 9): what a seat may
do, what an action does, what ends the betting, side pots and the odd chip.

What a seat may do (the bet range, the blind limit, all-in, look, show, sideshow) and the
division of the pot are the shared rules of :mod:`teenpatti_env.rules.betting` and
:mod:`teenpatti_env.rules.pots`, compiled here; their names below only read the
arguments out of the batch's arrays (docs/design.md, "One rules text")."""

from __future__ import annotations

from typing import Any

import numpy as np

from teenpatti_env.environment.batch_jokers import (
    buy_joker,
    count_rotation,
    may_buy,
    turn_up_thresholds,
)
from teenpatti_env.environment.batch_state import *  # noqa: F403
from teenpatti_env.rules import betting as _rules
from teenpatti_env.rules import pots as _pots
from teenpatti_env.rules import turns as _turns

# The betting rules, written once in rules/betting.py for both engines and compiled here;
# the functions below only read them their arguments out of the batch's arrays.
_compiled = compile_rules(_rules)
_bet_range = _compiled.bet_range
_min_bet = _compiled.min_bet
_blind_limit_reached = _compiled.blind_limit_reached
_all_in_problem = _compiled.all_in_problem
_look_problem = _compiled.look_problem
_previous_player = _compiled.previous_player
_other_in_hand = _compiled.other_in_hand
_show_cost = _compiled.show_cost
_show_problem = _compiled.show_problem
_sideshow_target = _compiled.sideshow_target
_sideshow_problem = _compiled.sideshow_problem
_left_all_in = _compiled.left_all_in
_bet_stake = _compiled.bet_stake
_settle_bet = _compiled.settle_bet
_asker_wins = _compiled.asker_wins
_divide_pot = compile_rules(_pots).divide_pot
_turns_compiled = compile_rules(_turns)
_cap_reached = _turns_compiled.cap_reached
_short_shows = _turns_compiled.short_shows
_open_betting = _turns_compiled.open_betting
_after_action = _turns_compiled.after_action

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
    return _cap_reached(params, tab[t, POT])


@inline
def short_shows(params: Any, tab: Any, seat: Any, t: int, s: int) -> bool:
    """``short_stack="showdown"``: seat ``s``, about to bet, is short (RULES 9)."""
    return _short_shows(params, tab[t, STAKE], seat[t, SEEN, s] == 1, seat[t, STACK, s])


@inline
def previous_player(params: Any, seat: Any, t: int, s: int, seen_only: bool) -> int:
    """Nearest seat to the right of ``s`` still in the hand and not all-in."""
    return _previous_player(s, seen_only, seat[t])


@inline
def at_blind_limit(params: Any, seat: Any, t: int, s: int) -> bool:
    return _blind_limit_reached(params, seat[t, SEEN, s] == 1, seat[t, BLIND_BETS, s])


@inline
def min_bet(tab: Any, seat: Any, t: int, s: int) -> int:
    return _min_bet(tab[t, STAKE], seat[t, SEEN, s] == 1)


@inline
def bet_range(params: Any, tab: Any, seat: Any, t: int, s: int, keep: int) -> tuple[int, int]:
    """``(low, high)`` of a legal bet leaving ``keep`` chips; ``low > high``: none fits."""
    return _bet_range(params, tab[t, STAKE], seat[t, SEEN, s] == 1, seat[t, STACK, s],
                      tab[t, POT], keep)


@inline
def other_in_hand(params: Any, seat: Any, t: int, s: int) -> int:
    return _other_in_hand(s, seat[t])


@jit
def show_allowed(params: Any, tab: Any, seat: Any, t: int, s: int, in_hand_count: int) -> bool:
    return _show_problem(s, in_hand_count, seat[t], tab[t, STAKE]) == _rules.OK


@jit
def sideshow_target(params: Any, seat: Any, t: int, s: int) -> int:
    return _sideshow_target(params, s, seat[t])


@jit
def sideshow_allowed(params: Any, tab: Any, seat: Any, t: int, s: int,
                     in_hand_count: int) -> bool:
    return _sideshow_problem(params, s, in_hand_count, seat[t], tab[t, STAKE],
                             tab[t, POT]) == _rules.OK


@inline
def all_in_allowed(params: Any, tab: Any, seat: Any, t: int, s: int) -> bool:
    return _all_in_problem(params, tab[t, STAKE], seat[t, SEEN, s] == 1,
                           seat[t, STACK, s]) == _rules.OK


@jit
def legal_kinds(params: Any, tab: Any, seat: Any, t: int, out: Any) -> None:
    """``out[kind]``: whether the seat to act may take an action of that kind."""
    out[:] = False
    s = tab[t, TO_ACT]
    if s == NONE:
        return
    if tab[t, END] != RUNNING:  # between a session's hands: the seat asked votes (C3)
        out[K_VOTE_END] = True
        out[K_CONTINUE] = True
        return
    if tab[t, ASKER] != NONE:
        out[K_ACCEPT] = True
        out[K_REFUSE] = True
        return
    # Only the seat to act takes actions here, so look_anytime (off-turn looks) never
    # matters: a blind seat to act may always look.
    out[K_LOOK] = _look_problem(seat[t, PACKED, s], seat[t, ALL_IN, s],
                                seat[t, SEEN, s]) == _rules.OK
    out[K_PACK] = True
    if at_blind_limit(params, seat, t, s):
        return
    low, high = bet_range(params, tab, seat, t, s, 0)
    out[K_BET] = low <= high
    if params[P_BUY] == 1:  # (checked here: no call in the classic family's hot path)
        out[K_BUY] = may_buy(params, tab, seat, t, s)
    out[K_ALL_IN] = all_in_allowed(params, tab, seat, t, s)
    in_hand_count = count_in_hand(seat, t, params[P_SEATS])
    out[K_SHOW] = show_allowed(params, tab, seat, t, s, in_hand_count)
    out[K_SIDESHOW] = sideshow_allowed(params, tab, seat, t, s, in_hand_count)


@inline
def left_all_in(params: Any, seat: Any, t: int, s: int) -> bool:
    """Whether seat ``s``, having paid, is all-in (RULES 9)."""
    return _left_all_in(params, seat[t, STACK, s])


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
def finish(params: Any, tab: Any, seat: Any, known: Any, t: int, end: int) -> None:
    """Pay ``PAYOUT`` into the stacks and close the hand."""
    for s in range(params[P_SEATS]):
        seat[t, STACK, s] += seat[t, PAYOUT, s]
    if params[P_ALL_OPEN] == 1:  # V2: in all_open each seat sees its own cards at the end
        for s in range(params[P_SEATS]):
            if seat[t, DEALT, s] == 1:
                known[t, s, s] = 1
    tab[t, POT] = 0
    tab[t, END] = end
    tab[t, TO_ACT] = NONE
    tab[t, ASKER] = NONE
    tab[t, TARGET] = NONE


@jit
def win_whole_pot(params: Any, tab: Any, seat: Any, known: Any, t: int, winner: int,
                  end: int) -> None:
    seat[t, PAYOUT, winner] = tab[t, POT]
    finish(params, tab, seat, known, t, end)


@jit
def last_player_wins(params: Any, tab: Any, seat: Any, known: Any, t: int) -> None:
    for s in range(params[P_SEATS]):
        if in_hand(seat, t, s):
            win_whole_pot(params, tab, seat, known, t, s, LAST_PLAYER)
            return


@jit
def resolve_show(params: Any, tab: Any, seat: Any, known: Any, t: int, asker: int) -> None:
    opponent = other_in_hand(params, seat, t, asker)
    reveal(params, seat, known, t, asker)
    reveal(params, seat, known, t, opponent)
    won = _asker_wins(seat[t, VALUE, asker], seat[t, VALUE, opponent])
    winner = asker if won else opponent
    win_whole_pot(params, tab, seat, known, t, winner, SHOW)


@allocating
def showdown(params: Any, tab: Any, seat: Any, known: Any, t: int) -> None:
    """Every hand still in is shown; the pot is cut into side pots at the all-in
    contributions and each slice goes to its best eligible hands (RULES section 5,
    :func:`teenpatti_env.rules.pots.divide_pot`)."""
    n = params[P_SEATS]
    for s in range(n):
        if in_hand(seat, t, s):
            reveal(params, seat, known, t, s)
    _divide_pot(seat[t], seat[t, VALUE], tab[t, DEALER], np.empty(n, dtype=np.int64),
                seat[t, PAYOUT])
    finish(params, tab, seat, known, t, SHOWDOWN)


@jit
def turn_to(params: Any, tab: Any, seat: Any, known: Any, values: Any, t: int, s: int,
            origin: int, end: int) -> None:
    """The turn passed from ``origin`` (``NONE``: the first turn) to ``s``; under rotating
    jokers a round may have ended (R1); a short seat (``SHORT_TURN``) shows."""
    tab[t, TO_ACT] = s
    if (params[P_ROTATING] == 1) & (origin != NONE):
        count_rotation(params, tab, seat, values, t, origin)
    if end == _turns.SHORT_TURN:
        showdown(params, tab, seat, known, t)


@jit
def start_betting(params: Any, tab: Any, seat: Any, known: Any, values: Any, t: int) -> None:
    """RULES section 2: the pot at the cap, or nobody left to bet against, shows at once;
    else the first betting turn is the dealer's left (never the end of a round)
    (:func:`teenpatti_env.rules.turns.open_betting`)."""
    end, s = _open_betting(params, seat[t], tab[t, POT], tab[t, STAKE],
                           count_can_bet(seat, t, params[P_SEATS]), tab[t, DEALER])
    if end == _turns.SHOWDOWN:
        showdown(params, tab, seat, known, t)
    else:
        turn_to(params, tab, seat, known, values, t, s, NONE, end)


@jit
def after_action(params: Any, tab: Any, seat: Any, known: Any, values: Any, t: int, actor: int,
                 show_asker: int) -> None:
    """RULES section 4: what ends betting, in order, else the turn passes left
    (:func:`teenpatti_env.rules.turns.after_action`; T2: after the thresholds the action's
    payment turned up)."""
    n = params[P_SEATS]
    if params[P_THRESHOLD_COUNT] > 0:
        turn_up_thresholds(params, tab, seat, values, t)
    end, s = _after_action(params, seat[t], tab[t, POT], tab[t, STAKE],
                           count_in_hand(seat, t, n), count_can_bet(seat, t, n), actor,
                           show_asker)
    if (end == _turns.GOES_ON) | (end == _turns.SHORT_TURN):
        turn_to(params, tab, seat, known, values, t, s, actor, end)
    elif end == _turns.SHOWDOWN:
        showdown(params, tab, seat, known, t)
    elif end == _turns.LAST_PLAYER_WINS:
        last_player_wins(params, tab, seat, known, t)
    else:
        resolve_show(params, tab, seat, known, t, show_asker)


@jit
def apply_action(params: Any, tab: Any, seat: Any, known: Any, values: Any, t: int, kind: int,
                 level: int) -> None:
    """Apply a legal action of ``kind`` (bet ``level`` for a bet, the card's slot for a
    bought joker) for the seat to act."""
    s = tab[t, TO_ACT]
    if kind == K_LOOK:
        seat[t, SEEN, s] = 1
        if params[P_ALL_OPEN] == 0:  # V2: in all_open looking changes only the price
            known[t, s, s] = 1
        if short_shows(params, tab, seat, t, s):
            showdown(params, tab, seat, known, t)
    elif kind == K_PACK:
        seat[t, PACKED, s] = 1
        after_action(params, tab, seat, known, values, t, s, NONE)
    elif kind == K_BET:
        low, high = bet_range(params, tab, seat, t, s, 0)
        seen = seat[t, SEEN, s] == 1
        amount = bet_amount(low, high, level, params[P_BET_LEVELS], 2 if seen else 1)
        pay(tab, seat, t, s, amount)
        tab[t, STAKE] = _settle_bet(params, seat[t], s, amount)
        after_action(params, tab, seat, known, values, t, s, NONE)
    elif kind == K_ALL_IN:
        pay(tab, seat, t, s, seat[t, STACK, s])
        seat[t, ALL_IN, s] = 1
        after_action(params, tab, seat, known, values, t, s, NONE)
    elif kind == K_SHOW:
        pay(tab, seat, t, s, _show_cost(tab[t, STAKE], seat[t, SEEN, s] == 1))
        after_action(params, tab, seat, known, values, t, s, s)
    elif kind == K_SIDESHOW:
        amount = bet_range(params, tab, seat, t, s, 1)[0]
        target = sideshow_target(params, seat, t, s)
        tab[t, STAKE] = _bet_stake(True, amount)  # a chaal: the asker has seen
        pay(tab, seat, t, s, amount)
        if params[P_THRESHOLD_COUNT] > 0:  # T2: before the comparison
            turn_up_thresholds(params, tab, seat, values, t)
        if cap_reached(params, tab, t):
            showdown(params, tab, seat, known, t)  # RULES 3.5: the request is cancelled
        else:
            tab[t, ASKER] = s
            tab[t, TARGET] = target
            tab[t, TO_ACT] = target
    elif kind == K_BUY:  # J1: not a betting action, the turn stays (P5: not a bet)
        pay(tab, seat, t, s, params[P_BOOT])
        buy_joker(params, tab, seat, values, t, s, level)
        if cap_reached(params, tab, t) or short_shows(params, tab, seat, t, s):
            showdown(params, tab, seat, known, t)
    else:  # accept or refuse
        asker, target = tab[t, ASKER], tab[t, TARGET]
        tab[t, ASKER] = NONE
        tab[t, TARGET] = NONE
        if kind == K_ACCEPT:
            won = _asker_wins(seat[t, VALUE, asker], seat[t, VALUE, target])
            loser = target if won else asker
            seat[t, PACKED, loser] = 1
            if params[P_REVEAL] == 1:
                known[t, asker, target] = 1
                known[t, target, asker] = 1
        after_action(params, tab, seat, known, values, t, asker, NONE)
