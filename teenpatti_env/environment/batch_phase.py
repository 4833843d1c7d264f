"""The batched engine's selection phases (VARIANTS.md Phases, P1-P9): discard_one,
shopping and passing, played as decisions of the seat to act like any other.

Who takes the next phase turn, to whom a seat passes, who may draw and who sees its cards
at the start are :mod:`teenpatti_env.engine.phase_rules`'s functions, the very text the
per-table engine calls, compiled here by numba. The state is ``batch_state``'s phase
block: every seat's cards now (``CARD0..``, ``HELD`` of them, in hand order), the cards
it parted with (``PARTED``, a bit per card), ``PHASE_DONE``, ``DRAWS`` and its dealt
cards (``DEAL0..``); the table's ``IN_PHASE``, ``DREW``, and the shopping deck:
``deck[t, DECK_TOP:]`` left to draw, the ``PILE`` discards just below it (P7).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from teenpatti_env.cards import format_card
from teenpatti_env.engine import Hand
from teenpatti_env.engine.phase_rules import (
    DISCARD_ONE,
    NO_PHASE,
    PASSED_CARDS,
    PASSING,
    PHASE_CODES,
    SHOPPING,
)
from teenpatti_env.engine.phase_rules import first_phase_turn as _first_phase_turn
from teenpatti_env.engine.phase_rules import may_draw as _may_draw
from teenpatti_env.engine.phase_rules import next_phase_turn as _next_phase_turn
from teenpatti_env.engine.phase_rules import pass_receiver as _pass_receiver
from teenpatti_env.engine.phase_rules import sees_at_start as _sees_at_start
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.environment.batch_jokers import seat_value
from teenpatti_env.environment.batch_rules import *  # noqa: F403
from teenpatti_env.environment.batch_state import *  # noqa: F403
from teenpatti_env.environment.batch_variant import (
    burst_at_deal,
    table_cards,
    value_seats,
)
from teenpatti_env.rules import Rules

first_phase_turn = jit(_first_phase_turn)
next_phase_turn = jit(_next_phase_turn)
pass_receiver = jit(_pass_receiver)
may_draw = jit(_may_draw)
sees_at_start = jit(_sees_at_start)

NUM_DECK = 52
DRAWN_CARD = 1 << 16
"""A draw's entry in a table's action history: its action index plus ``DRAWN_CARD``
times one more than the card drawn (what a history names after a reshuffle, P7)."""


def phase_params(rules: Rules, params: Any, offsets: dict[str, int]) -> None:
    """Write the phase's ``P_*`` settings into ``params`` (``offsets``: the observation
    layout's slot offsets by name)."""
    params[P_PHASE] = PHASE_CODES[rules.spec.phase]
    for param, name in ((P_OBS_IN_PHASE, "in_phase"), (P_OBS_PARTED, "my_parted"),
                        (P_OBS_PHASE_DONE, "seat0.phase_done"), (P_OBS_DRAWS, "seat0.draws")):
        params[param] = offsets.get(name, NONE)


def dealt_width(rules: Rules) -> int:
    """The most private cards a seat is dealt (passing's dealer's left: three more)."""
    spec = rules.spec
    return spec.private_cards + (PASSED_CARDS if spec.phase == "passing" else 0)


def table_deal(rules: Rules, seat: Any, tab: Any, deck: Any,
               actions: list[int]) -> tuple[list[list[int] | None], dict[str, Any]]:
    """A table's deal as ``Hand`` takes it, from its rows ``seat`` (``seat[t]``), ``tab``
    and ``deck`` and its action history: every seat's cards as dealt (``None``: sits
    out) and the variant's table cards, with a shopping hand's ``deck`` as dealt, top
    first (the cards drawn so far, then, while the deck has not run out, the rest)."""
    first, width = ((DEAL0, MAX_PRIVATE) if rules.spec.phase is not None
                    else (CARD0, rules.spec.private_cards))
    cards = [None if seat[first, s] == NONE
             else [int(c) for c in seat[first:first + width, s] if c != NONE]
             for s in range(seat.shape[1])]
    deal = table_cards(rules, tab)
    if rules.spec.phase == "shopping":
        dealt = sum(len(held) for held in cards if held) + sum(
            len(deal.get(field, ())) for field in ("community", "indicators"))
        drawn = [entry // DRAWN_CARD - 1 for entry in actions if entry >= DRAWN_CARD]
        rest = [int(card) for card in deck[int(tab[DECK_TOP]):]]
        deal["deck"] = (drawn + rest)[:NUM_DECK - dealt]
    return cards, deal


def history_action(layout: ActionLayout, hand: Hand, entry: int) -> dict[str, Any]:
    """The engine action of a table's action history ``entry`` for the seat to act in
    ``hand`` (a draw names its card, as a history does after the deck ran out: P7)."""
    assert hand.to_act is not None
    action = layout.decode(hand, hand.to_act, entry % DRAWN_CARD)
    if entry >= DRAWN_CARD:
        action["card"] = format_card(entry // DRAWN_CARD - 1)
    return action


# ----------------------------------------------------------------- kernels


@inline
def in_phase(params: Any, tab: Any, t: int) -> bool:
    """A phase turn waits at table ``t`` (the phase runs and the hand goes on)."""
    if params[P_PHASE] == NO_PHASE:
        return False
    running: bool = (tab[t, IN_PHASE] == 1) & (tab[t, END] == RUNNING)
    return running


@inline
def hides_deal(params: Any, tab: Any, t: int) -> bool:
    """D2: passing's indicators (and what they make wild or burst, and so the hands'
    values) stay face down while the passing runs, or the hand ended in it."""
    if params[P_PHASE] != PASSING:
        return False
    hidden: bool = tab[t, IN_PHASE] == 1
    return hidden


@jit
def lay_out_phase(params: Any, tab: Any, seat: Any, t: int) -> None:
    """Before a phase variant's hand is valued: every seat's cards held and as dealt
    (``CARD0..`` set, ``NONE`` past them), nothing parted, drawn or done."""
    tab[t, IN_PHASE] = 1
    tab[t, DREW] = 0
    tab[t, PILE] = 0
    for s in range(params[P_SEATS]):
        held = 0
        for c in range(MAX_PRIVATE):
            card = seat[t, CARD0 + c, s]
            seat[t, DEAL0 + c, s] = card
            if card != NONE:
                held += 1
        seat[t, HELD, s] = held
        seat[t, PARTED, s] = 0
        seat[t, PHASE_DONE, s] = 0
        seat[t, DRAWS, s] = 0


@jit
def start_phase(params: Any, tab: Any, seat: Any, known: Any, t: int) -> None:
    """After the boots (the deal valued): the burst waits for the phase's end (B5), every
    seat sees its cards in discard_one and passing (P1), the first phase turn (P2)."""
    n = params[P_SEATS]
    sees = sees_at_start(params[P_PHASE])
    for s in range(n):
        seat[t, BURST, s] = 0
        if sees and seat[t, DEALT, s] == 1:
            seat[t, SEEN, s] = 1
            known[t, s, s] = 1
    tab[t, TO_ACT] = first_phase_turn(seat[t, DEALT], tab[t, DEALER], n)


@jit
def phase_kinds(params: Any, tab: Any, seat: Any, t: int, out: Any) -> None:
    """``out[kind]``: whether the seat to act may take an action of that kind on its
    phase turn (P3, P4, P6; a blind seat looks as in betting, P1)."""
    out[:] = False
    s = tab[t, TO_ACT]
    out[K_PACK] = True
    out[K_LOOK] = can_bet(seat, t, s) & (seat[t, SEEN, s] == 0)
    phase = params[P_PHASE]
    if phase == PASSING:
        out[K_PASS] = True
    elif phase == DISCARD_ONE or tab[t, DREW] == 1:
        out[K_DISCARD] = True
    else:
        left = NUM_DECK - tab[t, DECK_TOP] + tab[t, PILE]
        out[K_DRAW] = may_draw(seat[t, ALL_IN, s], seat[t, STACK, s], params[P_BOOT], left)
        out[K_KEEP] = True


@jit
def part_cards(params: Any, tab: Any, seat: Any, deck: Any, t: int, s: int, slots: int,
               receiver: int) -> None:
    """Seat ``s`` parts with the cards in the bits ``slots`` of its hand (the rest keep
    their order): to ``receiver``'s hand (appended in slot order), or in shopping onto
    the discards (P7), or out of play."""
    kept = 0
    for c in range(seat[t, HELD, s]):
        card = seat[t, CARD0 + c, s]
        if (slots >> c) & 1:
            seat[t, PARTED, s] |= np.int64(1) << card
            if receiver != NONE:
                seat[t, CARD0 + seat[t, HELD, receiver], receiver] = card
                seat[t, HELD, receiver] += 1
            elif params[P_PHASE] == SHOPPING:
                tab[t, PILE] += 1
                deck[t, tab[t, DECK_TOP] - tab[t, PILE]] = card
        else:
            seat[t, CARD0 + kept, s] = card
            kept += 1
    for c in range(kept, MAX_PRIVATE):
        seat[t, CARD0 + c, s] = NONE
    seat[t, HELD, s] = kept


@jit
def draw(params: Any, tab: Any, seat: Any, deck: Any, rng: Any, t: int, s: int) -> int:
    """Seat ``s`` pays a boot (a contribution, not a bet: P5), takes the top card and is
    seen (P1, P4); an empty deck is first refilled with the discards, shuffled (P7).
    Returns the card."""
    if tab[t, DECK_TOP] == NUM_DECK:
        pile = tab[t, PILE]
        base = NUM_DECK - pile
        for i in range(pile - 1):
            j = i + random_below(rng, t, pile - i)
            deck[t, base + i], deck[t, base + j] = deck[t, base + j], deck[t, base + i]
        tab[t, DECK_TOP] = base
        tab[t, PILE] = 0
    top = tab[t, DECK_TOP]
    card: int = deck[t, top]
    if tab[t, PILE] > 0:  # the discards move up a place
        deck[t, top] = deck[t, top - tab[t, PILE]]
    tab[t, DECK_TOP] = top + 1
    pay(tab, seat, t, s, params[P_BOOT])
    seat[t, SEEN, s] = 1
    seat[t, CARD0 + seat[t, HELD, s], s] = card
    seat[t, HELD, s] += 1
    seat[t, DRAWS, s] += 1
    tab[t, DREW] = 1
    return card


@jit
def end_phase(params: Any, tab: Any, seat: Any, known: Any, values: Any, t: int) -> None:
    """The phase is over: the hands kept are valued (passing's indicators turned up),
    seats still in holding a burst card pack (B1-B5), then the betting starts."""
    tab[t, IN_PHASE] = 0
    tab[t, DREW] = 0
    value_seats(params, tab, seat, values, t)
    for s in range(params[P_SEATS]):
        if seat[t, PACKED, s] == 1:
            seat[t, BURST, s] = 0
    if not burst_at_deal(params, tab, seat, known, t):
        start_betting(params, tab, seat, known, values, t)


@jit
def after_phase_turn(params: Any, tab: Any, seat: Any, known: Any, values: Any, t: int,
                     actor: int) -> None:
    """The next phase turn, or the end of the hand or of the phase (P2-P4, P9)."""
    n = params[P_SEATS]
    if count_in_hand(seat, t, n) == 1:
        last_player_wins(params, tab, seat, known, t)
        return
    following = NONE
    if params[P_PHASE] != PASSING:  # a seat holding six packed: the others keep three
        following = next_phase_turn(seat[t, DEALT], seat[t, PACKED], seat[t, PHASE_DONE],
                                    actor, n)
    if following == NONE:
        end_phase(params, tab, seat, known, values, t)
    else:
        tab[t, TO_ACT] = following


@jit
def apply_phase(params: Any, tab: Any, seat: Any, known: Any, deck: Any, rng: Any,
                values: Any, t: int, kind: int, slots: int) -> int:
    """Apply a legal phase action of ``kind`` (not a look; ``slots``: the bits of the
    cards a discard or pass names) for the seat to act; returns the card drawn
    (``NONE``: none)."""
    s = tab[t, TO_ACT]
    phase = params[P_PHASE]
    if kind == K_PACK:
        seat[t, PACKED, s] = 1
        seat[t, ALL_IN, s] = 0  # P2, P3: its boot stays in the pot
        tab[t, DREW] = 0
    elif kind == K_DRAW:
        card: int = draw(params, tab, seat, deck, rng, t, s)
        known[t, s, s] = 1
        seat[t, VALUE, s] = seat_value(params, tab, seat, values, t, s)
        return card
    elif kind == K_KEEP:
        seat[t, PHASE_DONE, s] = 1
    elif kind == K_PASS:
        receiver = pass_receiver(seat[t, DEALT], tab[t, DEALER], s, params[P_SEATS])
        part_cards(params, tab, seat, deck, t, s, slots, receiver)
        if receiver == NONE:
            end_phase(params, tab, seat, known, values, t)
        else:
            known[t, receiver, receiver] = 1
            tab[t, TO_ACT] = receiver
        return NONE
    else:  # a discard
        part_cards(params, tab, seat, deck, t, s, slots, NONE)
        seat[t, VALUE, s] = seat_value(params, tab, seat, values, t, s)
        if phase == SHOPPING:
            tab[t, DREW] = 0
            if cap_reached(params, tab, t):  # P5: after a completed shopping turn
                showdown(params, tab, seat, known, t)
                return NONE
        else:
            seat[t, PHASE_DONE, s] = 1
    after_phase_turn(params, tab, seat, known, values, t, s)
    return NONE


@jit
def encode_phase(params: Any, tab: Any, seat: Any, t: int, me: int, obs: Any) -> None:
    """Seat ``me``'s phase block (whether the phase runs, the cards it parted with, who
    has finished the phase and the draws), after its variant block; while passing's
    indicators are face down, the variant block shows only what the spec fixes (D2)."""
    n = params[P_SEATS]
    obs[t, params[P_OBS_IN_PHASE]] = in_phase(params, tab, t)
    parted = seat[t, PARTED, me]
    for card in range(NUM_DECK):
        if (parted >> card) & 1:
            obs[t, params[P_OBS_PARTED] + card] = 1.0
    for j in range(n):
        other = (me + j) % n
        obs[t, params[P_OBS_PHASE_DONE] + j] = seat[t, PHASE_DONE, other]
        obs[t, params[P_OBS_DRAWS] + j] = seat[t, DRAWS, other]
    if hides_deal(params, tab, t):
        for c in range(params[P_INDICATORS]):
            obs[t, params[P_OBS_INDICATORS] + tab[t, INDICATOR + c]] = 0.0
        for r in range(13):
            obs[t, params[P_OBS_WILD_RANKS] + r] = params[P_FIXED + r]
        obs[t, params[P_OBS_WILD_COLOURS]] = 0.0
        obs[t, params[P_OBS_WILD_COLOURS] + 1] = 0.0
        if params[P_BURST] == BURST_INDICATOR and tab[t, BURST_RANK] != NONE:
            obs[t, params[P_OBS_BURST_RANK] + tab[t, BURST_RANK]] = 0.0
