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
    n = params[P_SEATS]
    private = params[P_PRIVATE]
    community = params[P_COMMUNITY]
    tab[t, CHOSEN_RANK] = NONE
    tab[t, CHOSEN_COLOUR] = NONE
    if params[P_CHOOSES] == 1:  # S2: drawn before the deal
        tab[t, CHOSEN_RANK] = random_below(rng, t, 13)
    elif params[P_CHOOSES] == 2:
        tab[t, CHOSEN_COLOUR] = random_below(rng, t, 2)
    dealt = private * entering
    needed = dealt + community + params[P_INDICATORS]
    for i in range(needed):  # a partial Fisher-Yates shuffle of the deck
        j = i + random_below(rng, t, 52 - i)
        deck[t, i], deck[t, j] = deck[t, j], deck[t, i]
    place = 0
    dealer = tab[t, DEALER]
    for step in range(1, n + 1):
        s = (dealer + step) % n
        for c in range(MAX_PRIVATE):
            seat[t, CARD0 + c, s] = NONE
        if seat[t, START_STACK, s] >= params[P_ENTRY]:
            for c in range(private):
                seat[t, CARD0 + c, s] = deck[t, place + c * entering]
            place += 1
    for c in range(community):
        tab[t, COMMUNITY + c] = deck[t, dealt + c]
    for c in range(params[P_INDICATORS]):
        tab[t, INDICATOR + c] = deck[t, dealt + community + c]
