"""The batched engine's variant deals (VARIANTS.md D1, S2): the rank or colour named
before the deal, then one shuffled deck dealt from the top: private cards one at a time
round the table from the dealer's left, the community cards, the indicators in the order
their sources are listed (a burst indicator last)."""

from __future__ import annotations

from typing import Any

import numpy as np

from teenpatti_env.engine.phase_rules import NO_PHASE, PASSED_CARDS, PASSING, SHOPPING
from teenpatti_env.environment.batch_state import *  # noqa: F403


@jit
def deal_variant(params: Any, tab: Any, seat: Any, deck: Any, rng: Any, t: int,
                 entering: int) -> None:
    """Deal a variant's cards at table ``t`` (the dealer is set) to the ``entering``
    seats that can enter, from the table's own stream."""
    private = params[P_PRIVATE]
    community = params[P_COMMUNITY]
    if params[P_CHOICE] == 0:  # under dealer's choice the dealer named them (C1)
        tab[t, CHOSEN_RANK] = NONE
        tab[t, CHOSEN_COLOUR] = NONE
        if params[P_CHOOSES] == 1:  # S2: drawn before the deal
            tab[t, CHOSEN_RANK] = random_below(rng, t, 13)
        elif params[P_CHOOSES] == 2:
            tab[t, CHOSEN_COLOUR] = random_below(rng, t, 2)
    dealt = private * entering
    if params[P_PHASE] != NO_PHASE:  # the selection phases' cards (passing's extra three)
        dealt = deal_phase(params, tab, seat, deck, rng, t, entering)
    else:
        deal_private(params, tab, seat, deck, rng, t, entering, private,
                     dealt + community + params[P_INDICATORS])
    for c in range(community):
        tab[t, COMMUNITY + c] = deck[t, dealt + c]
    for c in range(params[P_INDICATORS]):
        tab[t, INDICATOR + c] = deck[t, dealt + community + c]


@jit
def deal_phase(params: Any, tab: Any, seat: Any, deck: Any, rng: Any, t: int,
               entering: int) -> int:
    """:func:`deal_private` for a variant with a selection phase: in passing the first
    seat from the dealer's left gets three more (D1); in shopping the whole deck is
    shuffled (from the ordered deck: the last hand's discards overwrote its cards), the
    rest of it, top first, what the seats draw from (``DECK_TOP``).
    Returns the private cards dealt."""
    private = params[P_PRIVATE]
    dealt = private * entering
    extra = PASSED_CARDS if params[P_PHASE] == PASSING else 0
    used = dealt + extra + params[P_COMMUNITY] + params[P_INDICATORS]
    if params[P_PHASE] == SHOPPING:  # the last hand's draws and discards moved its cards
        for card in range(52):
            deck[t, card] = card
    deal_private(params, tab, seat, deck, rng, t, entering, private,
                 52 if params[P_PHASE] == SHOPPING else used)
    n = params[P_SEATS]
    for s in range(n):
        for c in range(private, MAX_PRIVATE):
            seat[t, CARD0 + c, s] = NONE
    if extra:
        for step in range(1, n + 1):
            s = (tab[t, DEALER] + step) % n
            if seat[t, START_STACK, s] >= params[P_ENTRY]:
                for c in range(extra):
                    seat[t, CARD0 + private + c, s] = deck[t, dealt + c]
                break
    tab[t, DECK_TOP] = used
    total: int = dealt + extra
    return total


@allocating
def undealt_decks(params: Any, tab: Any, seat: Any, deck: Any, rng: Any, which: Any) -> None:
    """At every table with ``which[t]`` whose cards were given: the deck is every card
    not dealt, shuffled from the table's own stream (shopping draws from it)."""
    for t in range(tab.shape[0]):
        if not which[t]:
            continue
        dealt = np.zeros(52, dtype=np.bool_)
        for s in range(params[P_SEATS]):
            for c in range(MAX_PRIVATE):
                if seat[t, CARD0 + c, s] != NONE:
                    dealt[seat[t, CARD0 + c, s]] = True
        for c in range(params[P_COMMUNITY]):
            dealt[tab[t, COMMUNITY + c]] = True
        for c in range(params[P_INDICATORS]):
            dealt[tab[t, INDICATOR + c]] = True
        used = 0
        for card in range(52):
            if dealt[card]:
                deck[t, used] = card
                used += 1
        place = used
        for card in range(52):
            if not dealt[card]:
                deck[t, place] = card
                place += 1
        for i in range(used, 51):
            j = i + random_below(rng, t, 52 - i)
            deck[t, i], deck[t, j] = deck[t, j], deck[t, i]
        tab[t, DECK_TOP] = used


@jit
def deal_private(params: Any, tab: Any, seat: Any, deck: Any, rng: Any, t: int,
                 entering: int, private: int, needed: int) -> None:
    """Shuffle the first ``needed`` cards of table ``t``'s deck (a partial Fisher-Yates
    shuffle from its own stream) and deal ``private`` cards to each of the ``entering``
    seats one at a time from the dealer's left (``NONE`` for a seat that sits out)."""
    for i in range(needed):
        j = i + random_below(rng, t, 52 - i)
        deck[t, i], deck[t, j] = deck[t, j], deck[t, i]
    n = params[P_SEATS]
    place = 0
    dealer = tab[t, DEALER]
    for step in range(1, n + 1):
        s = (dealer + step) % n
        if seat[t, START_STACK, s] >= params[P_ENTRY]:
            for c in range(private):
                seat[t, CARD0 + c, s] = deck[t, place + c * entering]
            place += 1
        else:
            for c in range(private):
                seat[t, CARD0 + c, s] = NONE
