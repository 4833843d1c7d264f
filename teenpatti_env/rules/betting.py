"""The betting rules of one hand (RULES.md sections 2-5 and 9), written once for both
engines: the stake and bet range, which betting actions a seat may take and why not, the
show and sideshow conditions and prices, and who is the previous player.

Every function here is a plain function over integers, booleans and small indexables, so
that the per-table engine (:mod:`teenpatti_env.engine`) calls it on its lists as it is
and the batched engine compiles it with numba over its arrays (``batch_state.jit``), as
:func:`teenpatti_env.cards.wild.wild_value` is shared. No function here may use a
Python feature numba does not compile (``None``, dicts, generators, ``any``): "none" is
:data:`NONE`, a refusal is a reason code (:data:`OK` when the action is allowed), and
the table's settings are one int vector, :func:`settings_of`.

A check answers with a reason code: the legal list of either engine holds exactly the
actions whose check answers :data:`OK`, and the per-table engine words a refusal with
:func:`reason` from the same code (PokerKit's verify/can/do in one function).

The seats are one argument, ``seats``: ``seats[FIELD][s]`` is seat ``s``'s ``FIELD``
(:data:`STACK` .. :data:`BLIND_BETS`; flags as booleans or 0/1). The per-table engine
passes a tuple of its lists (``HandState._seats``), the batch one table's 2-D slice of
its seat array, whose first fields are these (numba compiles one 2-D slice to nothing,
where a slice per field costs about 4 ns each).
"""

from __future__ import annotations

from typing import Any

NONE = -1
"""No seat, or an unset optional setting (``max_bet``, ``pot_cap``, ``max_blind_bets``)."""
SHORT_STACKS = ("all_in", "pack", "showdown")
SHORT_ALL_IN, SHORT_PACK, SHORT_SHOWDOWN = range(3)
"""``short_stack`` as a code (its index in :data:`SHORT_STACKS`)."""

# The fields of a seat record (``seats[FIELD][s]``); the batch's seat array begins with them.
STACK, CONTRIB, DEALT, PACKED, SEEN, ALL_IN, BLIND_BETS = range(7)
SEAT_RECORD = 7
"""Fields of the seat record."""

# The settings vector: the batched engine's ``params`` begin with it (batch_state).
(P_SEATS, P_BOOT, P_RAISE, P_MAX_BLIND, P_MAX_BET, P_POT_CAP, P_POT_LIMIT, P_SIDESHOW,
 P_TARGET_SEEN, P_ALL_SEEN, P_REVEAL, P_SHORT, P_ENTRY) = range(13)
SETTINGS = 13
"""Entries of the settings vector (:func:`settings_of`)."""

# Reason codes: why an action is refused (OK: it is not).
(OK, NO_FIT, OUT_OF_RANGE, ODD_AMOUNT, BLIND_LIMIT, NO_ALL_IN_RULE, NOT_SHORT, LOOK_PACKED,
 LOOK_ALL_IN, LOOK_SEEN, SHOW_NOT_TWO, SHOW_ALL_IN, SHOW_SEEN_VS_BLIND, SHOW_COST,
 SIDESHOW_OFF, SIDESHOW_BLIND, SIDESHOW_FEW, SIDESHOW_NOT_ALL_SEEN, SIDESHOW_TARGET_BLIND,
 SIDESHOW_NO_CHAAL) = range(20)
REASONS = (
    "",
    "no {what} fits (stack {stack}, stake {stake})",
    "a {what} must be {low}..{high}, got {amount}",
    "a seen {what} must be even, got {amount}",
    "the blind-bet limit is reached: look first",
    "no all-in under short_stack={short!r}",
    "all-in is only for a player who cannot cover the minimum bet",
    "a packed player cannot look",
    "an all-in player cannot look",
    "the seat has already looked",
    "a show needs exactly two players in the hand",
    "no show against an all-in player",
    "a seen player may not show against a blind opponent",
    "a show costs {cost} chips",
    "sideshows are off at this table",
    "a blind player cannot ask for a sideshow",
    "a sideshow needs at least three players in the hand",
    "a sideshow needs every player in the hand to have seen",
    "the sideshow target has not seen",
    "no chaal that leaves a chip behind",
)
"""The words of each reason code; some name the numbers of the refusal (:func:`reason`)."""


def reason(code: int, **numbers: Any) -> str:
    """The words of a refusal: ``REASONS[code]`` with the numbers it names filled in.

    >>> reason(SHOW_COST, cost=4)
    'a show costs 4 chips'
    """
    return REASONS[code].format(**numbers)


def settings_of(rules: Any) -> tuple[int, ...]:
    """The table settings the rules here read, as :data:`SETTINGS` ints indexed by the
    ``P_*`` constants (an unset limit is :data:`NONE`, a flag 0 or 1). ``rules`` is a
    :class:`~teenpatti_env.rules.Rules` (``Rules.settings`` caches this)."""

    def optional(value: int | None) -> int:
        return NONE if value is None else value

    return (
        rules.num_players, rules.boot, rules.raise_multiple, optional(rules.max_blind_bets),
        optional(rules.max_bet), optional(rules.pot_cap), int(rules.pot_limit_betting),
        int(rules.sideshow), int(rules.sideshow_target == "previous_seen"),
        int(rules.sideshow_requires_all_seen), int(rules.sideshow_reveal == "private"),
        SHORT_STACKS.index(rules.short_stack), rules.entry_chips,
    )  # fmt: skip


# ----------------------------------------------------------------- the stake and bets


def min_bet(stake: int, seen: Any) -> int:
    """The smallest bet for the seat's status: the stake ``S`` blind, ``2S`` seen. A
    show costs the same."""
    return 2 * stake if seen else stake


def bet_range(settings: Any, stake: int, seen: Any, stack: int, pot: int,
              keep: int) -> tuple[int, int]:
    """``(low, high)`` of a bet leaving at least ``keep`` chips: from the minimum bet up to
    ``raise_multiple`` times it, ``max_bet`` (half of it blind), the pot under pot-limit
    betting and the stack; a seen bet is even. ``low > high``: no bet fits."""
    ceiling = settings[P_MAX_BET]
    if seen:
        high = 2 * settings[P_RAISE] * stake
    else:
        high = settings[P_RAISE] * stake
        if ceiling != NONE:
            ceiling = ceiling // 2
    if ceiling != NONE and ceiling < high:
        high = ceiling
    if settings[P_POT_LIMIT] and pot < high:
        high = pot
    if stack - keep < high:
        high = stack - keep
    if seen:
        return 2 * stake, high - (high & 1)
    return stake, high


def amount_problem(low: int, high: int, seen: Any, amount: int) -> int:
    """Why ``amount`` is not a bet of ``low..high`` (:func:`bet_range`), or :data:`OK`."""
    if low > high:
        return NO_FIT
    if amount < low or amount > high:
        return OUT_OF_RANGE
    if seen and amount % 2:
        return ODD_AMOUNT
    return OK


def is_short(stake: int, seen: Any, stack: int) -> bool:
    """Whether the stack is below the smallest bet the seat's status allows."""
    return stack < min_bet(stake, seen)


def blind_limit_reached(settings: Any, seen: Any, blind_bets: int) -> bool:
    """A blind seat that made ``max_blind_bets`` blind bets may only pack or look."""
    limit = settings[P_MAX_BLIND]
    reached: bool = (not seen) & (limit != NONE) & (blind_bets >= limit)
    return reached


def all_in_problem(settings: Any, stake: int, seen: Any, stack: int) -> int:
    """Why the seat may not go all-in, or :data:`OK`: only under ``short_stack="all_in"``,
    only a seat with chips that cannot cover the minimum bet (RULES 9)."""
    if settings[P_SHORT] != SHORT_ALL_IN:
        return NO_ALL_IN_RULE
    if stack == 0 or stack >= min_bet(stake, seen):
        return NOT_SHORT
    return OK


def look_problem(packed: Any, all_in: Any, seen: Any) -> int:
    """Why the seat may not look at its cards, or :data:`OK` (when it may look is the
    engine's turn rule, ``look_anytime``)."""
    if packed:
        return LOOK_PACKED
    if all_in:
        return LOOK_ALL_IN
    if seen:
        return LOOK_SEEN
    return OK


# ----------------------------------------------------------------- what a bet does


def left_all_in(settings: Any, stack: int) -> bool:
    """Whether a seat whose payment (a boot, a bet) left it ``stack`` chips is now
    all-in: with no chips left, except under ``short_stack="pack"`` (RULES 9)."""
    all_in: bool = (stack == 0) & (settings[P_SHORT] != SHORT_PACK)
    return all_in


def bet_stake(seen: Any, amount: int) -> int:
    """The stake a bet (or a sideshow's chaal) of ``amount`` sets: the amount blind, half
    of it seen (RULES 3.2)."""
    return amount // 2 if seen else amount


def settle_bet(settings: Any, seats: Any, s: int, amount: int) -> int:
    """What a bet of ``amount`` that seat ``s`` has just paid does to its seat: a blind
    bet counts toward the blind-bet limit, a seat left with no chips is all-in
    (:func:`left_all_in`); returns the stake the bet sets (:func:`bet_stake`)."""
    seen = seats[SEEN][s]
    if not seen:
        seats[BLIND_BETS][s] += 1
    if left_all_in(settings, seats[STACK][s]):
        seats[ALL_IN][s] = True
    return bet_stake(seen, amount)


def asker_wins(asker_value: int, other_value: int) -> bool:
    """Whether the asker of a show or a sideshow wins the comparison: only with the
    better hand, it loses a tie (RULES 3.4, 3.5: after a sideshow the loser packs)."""
    return asker_value > other_value


# ----------------------------------------------------------------- seats in turn


def previous_player(s: int, seen_only: Any, seats: Any) -> int:
    """The nearest seat to the right of ``s`` still in the hand and not all-in (with
    ``seen_only``, the nearest such seat that has seen), or :data:`NONE`."""
    dealt, packed, all_in, seen = seats[DEALT], seats[PACKED], seats[ALL_IN], seats[SEEN]
    n = len(dealt)
    for step in range(1, n):
        other = (s - step) % n
        if dealt[other] and not packed[other] and not all_in[other] and (
            seen[other] or not seen_only
        ):
            return other
    return NONE


def other_in_hand(s: int, seats: Any) -> int:
    """The first seat other than ``s`` still in the hand, or :data:`NONE`."""
    dealt, packed = seats[DEALT], seats[PACKED]
    for other in range(len(dealt)):
        if other != s and dealt[other] and not packed[other]:
            return other
    return NONE


# ----------------------------------------------------------------- show and sideshow


def show_cost(stake: int, seen: Any) -> int:
    """What a show costs the asker: the minimum bet for its status (RULES 3.4)."""
    return min_bet(stake, seen)


def show_problem(s: int, in_hand_count: int, seats: Any, stake: int) -> int:
    """Why seat ``s`` may not ask for a show, or :data:`OK`: only two players left,
    neither all-in, a seen asker only against a seen opponent, and the price in hand."""
    if in_hand_count != 2:
        return SHOW_NOT_TWO
    opponent = other_in_hand(s, seats)
    all_in, seen = seats[ALL_IN], seats[SEEN]
    if all_in[s] or all_in[opponent]:
        return SHOW_ALL_IN
    if seen[s] and not seen[opponent]:
        return SHOW_SEEN_VS_BLIND
    if seats[STACK][s] < show_cost(stake, seen[s]):
        return SHOW_COST
    return OK


def sideshow_target(settings: Any, s: int, seats: Any) -> int:
    """Whom seat ``s`` would ask for a sideshow under ``sideshow_target``, or :data:`NONE`."""
    return previous_player(s, settings[P_TARGET_SEEN], seats)


def sideshow_problem(settings: Any, s: int, in_hand_count: int, seats: Any, stake: int,
                     pot: int) -> int:
    """Why seat ``s`` may not ask for a sideshow, or :data:`OK` (RULES 3.5): sideshows on,
    a seen asker, three players or more (all seen where the table asks it), a seen target,
    and a chaal that leaves a chip behind (the chaal's amount is :func:`bet_range` with
    ``keep=1``)."""
    seen = seats[SEEN]
    if not settings[P_SIDESHOW]:
        return SIDESHOW_OFF
    if not seen[s]:
        return SIDESHOW_BLIND
    if in_hand_count < 3:
        return SIDESHOW_FEW
    if settings[P_ALL_SEEN]:
        dealt, packed = seats[DEALT], seats[PACKED]
        for other in range(len(dealt)):
            if dealt[other] and not packed[other] and not seen[other]:
                return SIDESHOW_NOT_ALL_SEEN
    target = sideshow_target(settings, s, seats)
    if target == NONE or not seen[target]:
        return SIDESHOW_TARGET_BLIND
    low, high = bet_range(settings, stake, True, seats[STACK][s], pot, 1)
    if low > high:
        return SIDESHOW_NO_CHAAL
    return OK
