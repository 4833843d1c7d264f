"""The batched engine's dealing, sessions and steps: a new hand at a table, hand after
hand in a session (RULES.md section 7), and one action at every table."""

from __future__ import annotations

from typing import Any

from teenpatti_env.engine.phase_rules import NO_PHASE
from teenpatti_env.environment.batch_deal import deal_private, deal_variant
from teenpatti_env.environment.batch_phase import (
    DRAWN_CARD,
    apply_phase,
    in_phase,
    lay_out_phase,
    start_phase,
)
from teenpatti_env.environment.batch_rules import *  # noqa: F403
from teenpatti_env.environment.batch_state import *  # noqa: F403
from teenpatti_env.environment.batch_variant import burst_at_deal, show_deal, value_seats

# ----------------------------------------------------------------- dealing


@inline
def clear_hand(params: Any, tab: Any, seat: Any, known: Any, t: int) -> None:
    """A new hand's empty pot and open betting at table ``t``: nobody has seen any card,
    every seat holds its starting stack, dealt in if it can enter, nothing paid."""
    n = params[P_SEATS]
    tab[t, POT] = 0
    tab[t, STAKE] = params[P_BOOT]
    tab[t, ASKER] = NONE
    tab[t, TARGET] = NONE
    tab[t, END] = RUNNING
    tab[t, ACTIONS] = 0
    for viewer in range(n):
        for s in range(n):
            known[t, viewer, s] = 0
    for s in range(n):
        seat[t, STACK, s] = seat[t, START_STACK, s]
        seat[t, DEALT, s] = 1 if seat[t, START_STACK, s] >= params[P_ENTRY] else 0
        for field in (CONTRIB, PACKED, SEEN, ALL_IN, BLIND_BETS, PAYOUT, SHOWN):
            seat[t, field, s] = 0
        seat[t, VALUE, s] = NONE


@jit
def start_hand(params: Any, tab: Any, seat: Any, known: Any, values: Any, t: int) -> None:
    """Post the boots of a table whose cards, dealer and stacks are set, and find the
    first seat to act (or end the hand at once, RULES section 2)."""
    n = params[P_SEATS]
    boot = params[P_BOOT]
    variant = params[P_VARIANT] == 1
    clear_hand(params, tab, seat, known, t)
    tab[t, TO_ACT] = NONE
    tab[t, DEALS] += 1
    for s in range(n):
        if seat[t, DEALT, s] == 1:
            if not variant:
                index = (seat[t, CARD0, s] * 2704 + seat[t, CARD0 + 1, s] * 52
                         + seat[t, CARD0 + 2, s])
                seat[t, VALUE, s] = values[index]
            pay(tab, seat, t, s, boot)
            if left_all_in(params, seat, t, s):
                seat[t, ALL_IN, s] = 1
    if variant:  # the variant's values, what its deal shows, then bursts (B5: first)
        phase = params[P_PHASE] != NO_PHASE
        if phase:
            lay_out_phase(params, tab, seat, t)
        value_seats(params, tab, seat, values, t)
        show_deal(params, seat, known, t)
        if phase:  # the burst waits for the phase's end
            start_phase(params, tab, seat, known, t)
            return
        if burst_at_deal(params, tab, seat, known, t):
            return
    start_betting(params, tab, seat, known, values, t)


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
def deal_cards(params: Any, tab: Any, seat: Any, deck: Any, rng: Any, t: int) -> None:
    """Deal three cards to every seat that can enter, from the table's own shuffled deck,
    one at a time from the dealer's left (the dealer is set); a variant's deal is
    :func:`deal_variant`'s."""
    n = params[P_SEATS]
    entering = 0
    for s in range(n):
        if seat[t, START_STACK, s] >= params[P_ENTRY]:
            entering += 1
    if params[P_VARIANT] == 1:
        deal_variant(params, tab, seat, deck, rng, t, entering)
    else:
        deal_private(params, tab, seat, deck, rng, t, entering, 3, 3 * entering)


@jit
def lay_out_choice(params: Any, tab: Any, seat: Any, known: Any, t: int) -> None:
    """Dealer's choice (C1): lay out a hand that waits for the dealer's choice (the dealer
    and stacks are set): no boot, no card, nothing wild; the dealer to act."""
    clear_hand(params, tab, seat, known, t)
    tab[t, TO_ACT] = tab[t, DEALER]
    tab[t, CHOICE] = NONE
    for column in (CHOSEN_RANK, CHOSEN_COLOUR, BURST_RANK):
        tab[t, column] = NONE
    for column in range(WILD_RANK, TAB_FIELDS - 1):  # the wild flags .. ROTATIONS
        tab[t, column] = 0
    for s in range(params[P_SEATS]):
        for field in (BURST, HELD, PARTED, PHASE_DONE, DRAWS):
            seat[t, field, s] = 0
        for field in (OWN_RANK, BOUGHT):
            seat[t, field, s] = NONE


@jit
def new_hand(params: Any, tab: Any, seat: Any, known: Any, deck: Any, rng: Any,
             values: Any, t: int) -> None:
    """Deal table ``t``'s hand (the dealer and stacks are set) and post the boots, or
    under dealer's choice lay out the hand waiting for the choice."""
    if params[P_CHOICE] == 1:
        lay_out_choice(params, tab, seat, known, t)
    else:
        deal_cards(params, tab, seat, deck, rng, t)
        start_hand(params, tab, seat, known, values, t)


# ----------------------------------------------------------------- sessions


@inline
def in_session(params: Any, seat: Any, t: int, s: int) -> bool:
    """The seat can still enter a hand of its session (RULES section 7)."""
    return seat[t, CHIPS, s] >= params[P_ENTRY]


@jit
def session_over(params: Any, tab: Any, seat: Any, t: int) -> bool:
    """After a hand: ``max_hands`` hands played, or at most one seat can still enter."""
    if params[P_MAX_HANDS] != NONE and tab[t, HANDS] >= params[P_MAX_HANDS]:
        return True
    entering = 0
    for s in range(params[P_SEATS]):
        if in_session(params, seat, t, s):
            entering += 1
    return entering <= 1


@jit
def next_in_session(params: Any, seat: Any, t: int, s: int) -> int:
    """The nearest seat to the left of ``s`` still in the session."""
    n = params[P_SEATS]
    for step in range(1, n + 1):
        if in_session(params, seat, t, (s + step) % n):
            return (s + step) % n
    return NONE


@jit
def deal_next(params: Any, tab: Any, seat: Any, known: Any, deck: Any, rng: Any,
              values: Any, t: int) -> None:
    """Deal the session's next hand: the deal passes left to the next seat still in the
    session, and busted seats sit out."""
    tab[t, DEALER] = next_in_session(params, seat, t, tab[t, DEALER])
    for s in range(params[P_SEATS]):
        seat[t, START_STACK, s] = seat[t, CHIPS, s] if in_session(params, seat, t, s) else 0
    new_hand(params, tab, seat, known, deck, rng, values, t)


@jit
def settle_session(params: Any, tab: Any, seat: Any, known: Any, deck: Any, rng: Any,
                   values: Any, t: int, chips: Any) -> bool:
    """Fold the ended hand into table ``t``'s session (``chips[t]`` gets every seat's
    net) and deal the next, until a hand waits for a decision or, under ``vote_to_end``,
    the first seat is asked to vote (from the next dealer's left); whether the session
    ended instead."""
    n = params[P_SEATS]
    while tab[t, END] != RUNNING:
        for s in range(n):
            chips[t, s] += seat[t, PAYOUT, s] - seat[t, CONTRIB, s]
            if seat[t, DEALT, s] == 1:
                seat[t, CHIPS, s] = seat[t, STACK, s]
        tab[t, HANDS] += 1
        if session_over(params, tab, seat, t):
            return True
        if params[P_VOTE] == 1:
            tab[t, VOTES] = 0
            following = next_in_session(params, seat, t, tab[t, DEALER])
            tab[t, TO_ACT] = next_in_session(params, seat, t, following)
            return False
        deal_next(params, tab, seat, known, deck, rng, values, t)
    return False


@jit
def vote(params: Any, tab: Any, seat: Any, known: Any, deck: Any, rng: Any, values: Any,
         t: int, kind: int, chips: Any) -> bool:
    """The seat asked between hands votes (C3); after the next dealer, the last to be
    asked, the session ends if every seat voted to end, else the next hand is dealt (the
    votes lapse). Whether the session ended."""
    voter = tab[t, TO_ACT]
    if kind == K_VOTE_END:
        tab[t, VOTES] += 1
    following = next_in_session(params, seat, t, tab[t, DEALER])
    if voter != following:
        tab[t, TO_ACT] = next_in_session(params, seat, t, voter)
        return False
    tab[t, TO_ACT] = NONE
    still_in = 0
    for s in range(params[P_SEATS]):
        if in_session(params, seat, t, s):
            still_in += 1
    if tab[t, VOTES] == still_in:
        return True
    deal_next(params, tab, seat, known, deck, rng, values, t)
    return settle_session(params, tab, seat, known, deck, rng, values, t, chips)


@jit
def deal_tables(params: Any, tab: Any, seat: Any, known: Any, deck: Any, rng: Any,
                values: Any, which: Any) -> None:
    """Deal a random hand at every table ``t`` with ``which[t]``."""
    for t in range(tab.shape[0]):
        if which[t]:
            draw_dealer(params, tab, seat, rng, t)
            new_hand(params, tab, seat, known, deck, rng, values, t)


@jit
def deal_chosen(params: Any, tab: Any, seat: Any, known: Any, deck: Any, rng: Any,
                values: Any, which: Any) -> None:
    """Dealer's choice (C1): deal the chosen variant (``params``: its row; its rank or
    colour set) at every table with ``which[t]``, and post the boots
    (:func:`deal_chosen_at`)."""
    for t in range(tab.shape[0]):
        if which[t]:
            deal_chosen_at(params, tab, seat, known, deck, rng, values, t)


@table_body
def deal_chosen_at(params: Any, tab: Any, seat: Any, known: Any, deck: Any, rng: Any,
                   values: Any, t: int) -> None:
    """Deal table ``t``'s chosen variant and post the boots. The deck is put in order
    first: a shopping hand before it left its draws and discards over its cards (a
    shopping deal does the same itself, ``batch_deal.deal_phase``)."""
    for card in range(52):
        deck[t, card] = card
    deal_cards(params, tab, seat, deck, rng, t)
    start_hand(params, tab, seat, known, values, t)


@inline
def row_of(tab: Any, t: int, rows: int) -> int:
    """The params row of table ``t``'s hand under dealer's choice: its ``CHOICE``, or
    the last row (the hand waiting for the choice) while it is ``NONE``."""
    row = tab[t, CHOICE]
    return rows - 1 if row == NONE else row


@jit
def deal_chosen_rows(params_rows: Any, tab: Any, seat: Any, known: Any, deck: Any, rng: Any,
                     values_rows: Any, which: Any) -> None:
    """:func:`deal_chosen` at every table with ``which[t]``, each with its own row of the
    stacked params and value lookups (one pass over the tables for every row)."""
    rows = params_rows.shape[0]
    for t in range(tab.shape[0]):
        if which[t]:
            row = row_of(tab, t, rows)
            deal_chosen_at(params_rows[row], tab, seat, known, deck, rng, values_rows[row], t)


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
def step_tables(params_rows: Any, tab: Any, seat: Any, known: Any, deck: Any, rng: Any,
                values_rows: Any, history: Any, actions: Any, active: Any, kind_of: Any,
                level_of: Any, rewards: Any, finished: Any, reported: Any) -> None:
    """Apply ``actions[t]`` at every table with ``active[t]`` whose hand waits for a
    decision (the caller checked them against the mask); ``rewards[t]`` gets every seat's
    net chips of a hand that ended, and ``finished[t]`` is set when the episode ended (the
    hand, or in a session the session, whose next hands are dealt here). A hand that ended
    at the deal (not yet ``reported``) gives its result at the table's first step after
    it. ``params_rows``, ``values_rows``: the params and value lookups, one row (a batch
    of one variant) or under dealer's choice one per row, each table reading its hand's
    row (:func:`row_of`, as it was before the step)."""
    rows = params_rows.shape[0]
    params = params_rows[0]  # one row: read once (a row per table costs its slices)
    values = values_rows[0]
    for t in range(tab.shape[0]):
        if not active[t]:
            continue
        if rows > 1:
            row = row_of(tab, t, rows)
            params = params_rows[row]
            values = values_rows[row]
        session = params[P_SESSION] == 1
        if tab[t, END] == RUNNING:
            a = actions[t]
            history[t, tab[t, ACTIONS]] = a
            tab[t, ACTIONS] += 1
            if (params[P_PHASE] != NO_PHASE and kind_of[a] != K_LOOK
                    and in_phase(params, tab, t)):
                drawn = apply_phase(params, tab, seat, known, deck, rng, values, t,
                                    kind_of[a], level_of[a])
                if drawn != NONE:  # the history names the card (P7)
                    history[t, tab[t, ACTIONS] - 1] += DRAWN_CARD * (drawn + 1)
            else:
                apply_action(params, tab, seat, known, values, t, kind_of[a], level_of[a])
            if tab[t, END] == RUNNING:
                continue
        elif session and tab[t, TO_ACT] != NONE:  # a vote between hands
            if vote(params, tab, seat, known, deck, rng, values, t, kind_of[actions[t]],
                    rewards):
                reported[t] = True
                finished[t] = True
            continue
        elif reported[t]:
            continue
        # The hand ended (in this step, or at its deal before it).
        if session:
            if not settle_session(params, tab, seat, known, deck, rng, values, t, rewards):
                continue
        else:
            for s in range(params[P_SEATS]):
                rewards[t, s] = seat[t, PAYOUT, s] - seat[t, CONTRIB, s]
        reported[t] = True
        finished[t] = True
