"""What ends the betting and who acts next (RULES.md sections 2, 4 and 9), written once
for both engines.

Plain functions over integers and small indexables, as in :mod:`teenpatti_env.rules.betting`
(whose settings vector and seat record ``seats[FIELD][s]`` they read): the per-table
engine calls them on its lists, the batched engine compiles them with numba over its
arrays. Counting the seats in the hand and the seats that still bet is left to the
caller (each engine counts its own way fastest: list counts, a loop in numba), so
:func:`after_action` takes the counts. The functions call few others: in the per-table
engine every call is a Python call, and these run at every decision.

Each engine acts on the answer itself: the per-table engine records events, the batch
writes its arrays. What the answer is, in which order the conditions are asked, and
which seat bets next, is decided here only.
"""

from __future__ import annotations

from typing import Any

from teenpatti_env.rules.betting import (
    ALL_IN,
    DEALT,
    NONE,
    P_POT_CAP,
    P_SHORT,
    PACKED,
    SEEN,
    SHORT_SHOWDOWN,
    STACK,
    is_short,
)

# What the betting does after an action (:func:`after_action`, :func:`open_betting`).
GOES_ON, LAST_PLAYER_WINS, SHOWDOWN, SHOW, SHORT_TURN = range(5)
"""``SHORT_TURN``: the turn passed to a seat that is short under ``short_stack="showdown"``;
the hand shows once the turn has passed (after a rotation it ended, R1)."""


def cap_reached(settings: Any, pot: int) -> bool:
    """Whether the pot has reached ``pot_cap`` (no cap: never); the hand then shows."""
    cap = settings[P_POT_CAP]
    reached: bool = (cap != NONE) & (pot >= cap)
    return reached


def empty_stack_showdown(settings: Any, seats: Any) -> bool:
    """``short_stack="showdown"``: a payment left a seat in the hand with no chips, so
    the hand shows at once (RULES 9)."""
    if settings[P_SHORT] != SHORT_SHOWDOWN:
        return False
    dealt, packed, stacks = seats[DEALT], seats[PACKED], seats[STACK]
    for s in range(len(dealt)):  # noqa: SIM110 (numba compiles loops, not any())
        if dealt[s] and not packed[s] and stacks[s] == 0:
            return True
    return False


def shows_at_once(settings: Any, seats: Any, pot: int, can_bet_count: int) -> bool:
    """RULES 2: whether the hand goes to the showdown instead of opening the betting:
    the boots reached the pot cap, at most one seat is left to bet (the others all-in),
    or under ``short_stack="showdown"`` a seat in the hand has no chips."""
    return (cap_reached(settings, pot) or can_bet_count <= 1
            or empty_stack_showdown(settings, seats))


def short_shows(settings: Any, stake: int, seen: Any, stack: int) -> bool:
    """``short_stack="showdown"``: a seat about to take a betting turn (or that has just
    looked or bought a joker on its turn) whose stack is below its minimum bet makes the
    hand show at once (RULES 9)."""
    if settings[P_SHORT] != SHORT_SHOWDOWN:
        return False
    return is_short(stake, seen, stack)


def pass_turn(settings: Any, seats: Any, stake: int, origin: int) -> tuple[int, int]:
    """The turn passes left: to the nearest seat to the left of ``origin`` that still
    takes betting turns (in the hand, not all-in; ``origin`` itself last). ``(GOES_ON,
    seat)``, or ``(SHORT_TURN, seat)`` when that seat is short and the hand shows
    (:func:`short_shows`); ``(GOES_ON, NONE)`` if no seat takes turns (never asked so)."""
    dealt, packed, all_in = seats[DEALT], seats[PACKED], seats[ALL_IN]
    n = len(dealt)
    for step in range(1, n + 1):
        s = (origin + step) % n
        if dealt[s] and not packed[s] and not all_in[s]:
            if short_shows(settings, stake, seats[SEEN][s], seats[STACK][s]):
                return SHORT_TURN, s
            return GOES_ON, s
    return GOES_ON, NONE


def open_betting(settings: Any, seats: Any, pot: int, stake: int, can_bet_count: int,
                 dealer: int) -> tuple[int, int]:
    """RULES 2, once the boots are in (and any phase is over): ``(SHOWDOWN, NONE)`` when
    the hand shows at once (:func:`shows_at_once`), else the first betting turn, the
    dealer's left (:func:`pass_turn`)."""
    if shows_at_once(settings, seats, pot, can_bet_count):
        return SHOWDOWN, NONE
    return pass_turn(settings, seats, stake, dealer)


def after_action(settings: Any, seats: Any, pot: int, stake: int, in_hand_count: int,
                 can_bet_count: int, actor: int, show_asker: int) -> tuple[int, int]:
    """RULES 4: what the betting does after ``actor``'s action, asked in this order: one
    seat left in the hand wins (:data:`LAST_PLAYER_WINS`); the pot at the cap shows every
    hand (:data:`SHOWDOWN`); a show asked (``show_asker``, else :data:`NONE`) compares
    the last two (:data:`SHOW`); nobody left to bet against, or an empty stack under
    ``short_stack="showdown"``, shows every hand; each with the seat :data:`NONE`. Else
    the turn passes left from the actor (:func:`pass_turn`)."""
    if in_hand_count == 1:
        return LAST_PLAYER_WINS, NONE
    if cap_reached(settings, pot):
        return SHOWDOWN, NONE
    if show_asker != NONE:
        return SHOW, NONE
    if can_bet_count <= 1 or empty_stack_showdown(settings, seats):
        return SHOWDOWN, NONE
    return pass_turn(settings, seats, stake, actor)
