"""The batched engine's variant deals (VARIANTS.md D1, S2): the rank or colour named
before the deal, then one shuffled deck dealt from the top: private cards one at a time
round the table from the dealer's left, the community cards, the indicators in the order
their sources are listed (a burst indicator last)."""

from __future__ import annotations

from typing import Any

from teenpatti_env.environment.batch_state import *  # noqa: F403


@jit
def deal_variant(params: Any, tab: Any, seat: Any, deck: Any, rng: Any, t: int,
                 entering: int) -> None:
    """Deal a variant's cards at table ``t`` (the dealer is set) to the ``entering``
    seats that can enter, from the table's own stream."""
    private = params[P_PRIVATE]
    community = params[P_COMMUNITY]
    tab[t, CHOSEN_RANK] = NONE
    tab[t, CHOSEN_COLOUR] = NONE
    if params[P_CHOOSES] == 1:  # S2: drawn before the deal
        tab[t, CHOSEN_RANK] = random_below(rng, t, 13)
    elif params[P_CHOOSES] == 2:
        tab[t, CHOSEN_COLOUR] = random_below(rng, t, 2)
    dealt = private * entering
    deal_private(params, tab, seat, deck, rng, t, entering, private,
                 dealt + community + params[P_INDICATORS])
    for c in range(community):
        tab[t, COMMUNITY + c] = deck[t, dealt + c]
    for c in range(params[P_INDICATORS]):
        tab[t, INDICATOR + c] = deck[t, dealt + community + c]


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
