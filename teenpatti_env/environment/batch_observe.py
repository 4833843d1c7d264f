"""The batched engine's observation vectors and action masks, slot for slot those of
:class:`~teenpatti_env.environment.observation.ObservationLayout`."""

from __future__ import annotations

from typing import Any

from teenpatti_env.engine.phase_rules import DISCARD_ONE, SHOPPING
from teenpatti_env.environment.batch_jokers import held_cards, value_without
from teenpatti_env.environment.batch_phase import encode_phase, hides_deal, in_phase, phase_kinds
from teenpatti_env.environment.batch_play import in_session, row_of
from teenpatti_env.environment.batch_rules import *  # noqa: F403
from teenpatti_env.environment.batch_state import *  # noqa: F403
from teenpatti_env.environment.batch_variant import encode_variant

# ----------------------------------------------------------------- observation and mask


@jit
def encode(params: Any, tab: Any, seat: Any, known: Any, t: int, me: int, obs: Any,
           global_at: Any, seat_at: Any, category_at: int, cards_at: Any, categories: Any,
           strengths: Any, values: Any) -> None:
    """Write seat ``me``'s observation vector into the zeroed row ``obs[t]``, slot for
    slot as :meth:`ObservationLayout.encode` builds it (a hand episode's or a session's;
    ``values``: the value lookups, for ``my_discards``)."""
    n = params[P_SEATS]
    private = params[P_PRIVATE]
    phased = params[P_PHASE] != 0
    per_boot = 1.0 / params[P_BOOT]
    running = tab[t, END] == RUNNING
    asker = tab[t, ASKER]
    to_act = tab[t, TO_ACT] if running else NONE  # between hands: the voter, not to act
    dealer = tab[t, DEALER]
    if known[t, me, me] == 1 and not (phased and hides_deal(params, tab, t)):
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
    session = params[P_SESSION] == 1
    if session:
        played = tab[t, HANDS]
        obs[t, global_at[G_PLAYED]] = played
        if params[P_MAX_HANDS] != NONE:
            obs[t, global_at[G_REMAINING]] = max(params[P_MAX_HANDS] - played, 0)
            obs[t, global_at[G_LIMIT]] = 1.0
        if params[P_VOTE_AT] != NONE:
            obs[t, params[P_VOTE_AT]] = (not running) & (tab[t, TO_ACT] == me)
    previous = previous_player(params, seat, t, me, False) if running else NONE
    # previous, to_act and asker are NONE (never a seat) when unset
    for j in range(n):
        other = (me + j) % n
        dealt = seat[t, DEALT, other]
        obs[t, seat_at[j, S_IN_SESSION]] = in_session(params, seat, t, other) if session \
            else dealt
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
        shown = known[t, me, other]  # 1: every private card; 2: the open cards only
        # the own cards again, slot by slot, in my_slots (j == 0: the observer)
        slots_at = params[P_OBS_SLOTS] if j == 0 else NONE
        if shown == 1:
            for c in range(held_cards(params, seat, t, other) if phased else private):
                obs[t, cards_at[j] + seat[t, CARD0 + c, other]] = 1.0
                if slots_at != NONE:
                    obs[t, slots_at + 52 * c + seat[t, CARD0 + c, other]] = 1.0
        elif shown == 2:
            for c in range(params[P_OPEN]):
                obs[t, cards_at[j] + seat[t, CARD0 + c, other]] = 1.0
                if slots_at != NONE:
                    obs[t, slots_at + 52 * c + seat[t, CARD0 + c, other]] = 1.0
    discards_at = params[P_OBS_DISCARDS]
    if (discards_at != NONE and known[t, me, me] == 1
            and (params[P_PHASE] == DISCARD_ONE or params[P_PHASE] == SHOPPING)
            and seat[t, HELD, me] > 3):
        for c in range(seat[t, HELD, me]):
            obs[t, discards_at + c] = strengths[value_without(params, tab, seat, values, t,
                                                              me, c)]
    if params[P_OBS_COMMUNITY] != NONE:
        encode_variant(params, tab, seat, known, t, me, obs)
    if phased:
        encode_phase(params, tab, seat, t, me, obs)


@jit
def observe_tables(params_rows: Any, tab: Any, seat: Any, known: Any, which: Any, seats: Any,
                   obs: Any, mask: Any, kind_of: Any, global_at: Any, seat_at: Any,
                   category_at: int, cards_at: Any, categories_rows: Any,
                   strengths_rows: Any, values_rows: Any, legal: Any) -> None:
    """At every table with ``which[t]``: the observation of ``seats[t]`` (zeros where it
    is ``NONE``) and the action mask of the seat to act (zeros where it is not that
    seat). ``params_rows``, ``categories_rows``, ``strengths_rows``: one row, or under
    dealer's choice one per row, each table reading its hand's row (``row_of``).
    ``legal``: a scratch array of ``KINDS`` flags."""
    rows = params_rows.shape[0]
    params = params_rows[0]  # one row: read once (a row per table costs its slices)
    categories = categories_rows[0]
    strengths = strengths_rows[0]
    values = values_rows[0]
    for t in range(tab.shape[0]):
        if not which[t]:
            continue
        obs[t, :] = 0.0
        mask[t, :] = 0
        me = seats[t]
        if me == NONE:
            continue
        if rows > 1:
            row = row_of(tab, t, rows)
            params = params_rows[row]
            categories = categories_rows[row]
            strengths = strengths_rows[row]
            values = values_rows[row]
        encode(params, tab, seat, known, t, me, obs, global_at, seat_at, category_at,
               cards_at, categories, strengths, values)
        if me == tab[t, TO_ACT]:
            if params[P_PHASE] != 0 and in_phase(params, tab, t):
                phase_kinds(params, tab, seat, t, legal)
            else:
                legal_kinds(params, tab, seat, t, legal)
            for a in range(kind_of.shape[0]):
                if legal[kind_of[a]]:
                    mask[t, a] = 1
