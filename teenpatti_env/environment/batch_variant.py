"""The batched engine's variants (VARIANTS.md): what a variant's deal makes wild, every
seat's value, who bursts, what each seat sees from the deal, and the observation's
variant block.

The rules themselves are not restated here: the wild sources are
:func:`teenpatti_env.cards.wild.public_wild` and the valuation (best three of the
private and community cards, wild cards, the imaginary card, lowball through the lookups)
is :func:`teenpatti_env.cards.wild.wild_value`, the very functions the per-table engine
calls, compiled by numba for the batch. The Python side, :func:`variant_params`, turns a
rule set into the ``P_*`` settings and refuses what the batch does not play.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from teenpatti_env.cards.wild import COLOUR_CODES, wild_arrays
from teenpatti_env.environment.batch_jokers import (
    encode_jokers,
    held_cards,
    indicator_shown,
    joker_params,
    seat_value,
    set_public_wild,
)
from teenpatti_env.environment.batch_rules import *  # noqa: F403
from teenpatti_env.environment.batch_state import *  # noqa: F403
from teenpatti_env.rules import Rules
from teenpatti_env.rules.variants import rank_text

UNSUPPORTED = (
    "a selection phase with open private cards or a personal wild rank",
    "personal_lowest together with rotating_lowest",
    "a selection phase together with buying a joker, thresholds or rotating jokers",
)


def unsupported(rules: Rules) -> str | None:
    """Why the batched engine does not play ``rules``'s variant yet (``None``: it does)."""
    spec = rules.spec
    if spec.phase is not None and (spec.open_private_cards
                                   or "personal_lowest" in spec.wild_kinds):
        return UNSUPPORTED[0]
    if {"personal_lowest", "rotating_lowest"} <= set(spec.wild_kinds):
        return UNSUPPORTED[1]
    if spec.phase is not None and (spec.buy_a_joker or {"thresholds", "rotating_lowest"}
                                   & set(spec.wild_kinds)):
        return UNSUPPORTED[2]
    if len(spec.wild) > MAX_SOURCES or spec.indicator_count > MAX_INDICATORS:
        return f"more than {MAX_SOURCES} wild sources or {MAX_INDICATORS} indicators"
    return None


def batch_rules(rules: Rules) -> Rules:
    """``rules`` if the batched engine plays them, else a ``ValueError`` naming what it
    does not play yet (the variants with a selection phase together with buying a joker,
    thresholds or rotating jokers, or with open cards or a personal wild rank need the
    per-table engine; under dealer's choice every listed variant is checked)."""
    specs = rules.choice_specs or (rules.spec,)
    for spec in specs:
        reason = unsupported(rules.with_variant(spec))
        if reason is not None:
            where = "dealer's choice lists" if rules.dealers_choice is not None else "plays"
            raise ValueError(f"the batched engine does not play the variant {spec.name!r} "
                             f"yet ({reason}; the rule set {where} it): use the per-table "
                             "engine (teenpatti_env.env)")
    return rules


def given_deal_rules(rules: Rules) -> Rules:
    """:func:`batch_rules` for the paths that give the batch its deals (the batched arena,
    the rule search): ``rules`` if the batch plays them from given cards, else a
    ``ValueError`` (a dealer's choice hand is dealt once chosen and takes no given cards)."""
    if rules.dealers_choice is not None:
        raise ValueError("the batched engine deals a dealer's choice hand once the dealer has "
                         "chosen and takes no given deal: use the per-table engine "
                         "(teenpatti_env.env)")
    return batch_rules(rules)


def classic_family(rules: Rules) -> Rules:
    """``rules`` if they are of the classic family, else a ``ValueError`` naming what is
    not (for the paths whose other parts, such as the scripted agents' batched forms,
    play the classic family only; :class:`TableBatch` itself takes :func:`batch_rules`)."""
    if rules.dealers_choice is not None:
        raise ValueError("the batched scripted agents play the classic family only: dealer's "
                         "choice needs the per-table engine (teenpatti_env.env)")
    if not rules.spec.is_classic or rules.variant != "classic":
        name = rules.spec.name
        raise ValueError(f"the batched scripted agents play the classic family only, not the "
                         f"variant {name!r}: use the per-table engine (teenpatti_env.env)")
    return rules


def variant_params(rules: Rules, params: Any, offsets: dict[str, int]) -> None:
    """Write the variant's ``P_*`` settings into ``params`` (``offsets``: the observation
    layout's slot offsets by name)."""
    spec = rules.spec
    params[P_VARIANT] = not spec.is_classic
    params[P_PRIVATE] = spec.private_cards
    params[P_COMMUNITY] = spec.community_cards
    params[P_OPEN] = spec.open_private_cards
    params[P_IMAGINED] = spec.imagined_card
    params[P_ALL_OPEN] = spec.visibility == "all_open"
    params[P_CHOOSES] = {None: 0, "rank": 1, "colour": 2}[spec.chooses]
    burst = spec.burst_rank
    params[P_BURST] = BURST_INDICATOR if burst == "indicator" else NONE if burst is None \
        else burst
    params[P_PERSONAL] = "personal_lowest" in spec.wild_kinds
    params[P_INDICATORS] = spec.indicator_count
    kinds, counts, fixed = spec.source_codes
    params[P_SOURCES] = len(kinds)
    params[P_SOURCE_KIND:P_SOURCE_KIND + len(kinds)] = kinds
    params[P_SOURCE_COUNT:P_SOURCE_COUNT + len(counts)] = counts
    params[P_FIXED:P_FIXED + 13] = fixed
    for param, name in ((P_OBS_COMMUNITY, "community"), (P_OBS_INDICATORS, "indicators"),
                        (P_OBS_WILD_RANKS, "wild_ranks"), (P_OBS_WILD_COLOURS, "wild_colours"),
                        (P_OBS_BURST_RANK, "burst_rank"), (P_OBS_BURST, "seat0.burst")):
        params[param] = offsets.get(name, NONE)
    joker_params(rules, params, offsets)


def value_lookups(rules: Rules, classic_table: Any) -> Any:
    """The flat ``values`` array of ``batch_state`` (``V_*``) for ``rules``'s ranking."""
    nat, one, two, pair_order, one_order, two_order = wild_arrays(
        rules.best_sequence, rules.ranking_lowball)
    if not np.array_equal(nat, classic_table):  # pragma: no cover - one ranking, one table
        raise AssertionError("the wild lookups and the classic table disagree")
    return np.concatenate([nat, one, two, [two.max()], pair_order.reshape(-1),
                           one_order.reshape(-1), two_order,
                           np.zeros(V_SIZE - V_SCRATCH)]).astype(np.int64)


def table_cards(rules: Rules, row: Any) -> dict[str, Any]:
    """The ``Hand`` keywords of a variant's deal held in the table row ``row``:
    ``community``, ``indicators`` and ``chosen`` as the variant uses them."""
    spec = rules.spec
    out: dict[str, Any] = {}
    if spec.community_cards:
        out["community"] = [int(c) for c in row[COMMUNITY:COMMUNITY + spec.community_cards]]
    if spec.indicator_count:
        out["indicators"] = [int(c) for c in row[INDICATOR:INDICATOR + spec.indicator_count]]
    if spec.chooses == "rank":
        out["chosen"] = {"rank": rank_text(int(row[CHOSEN_RANK]))}
    elif spec.chooses == "colour":
        out["chosen"] = {"colour": COLOUR_CODES[int(row[CHOSEN_COLOUR])]}
    return out


def deal_columns(hands: list[Any]) -> dict[str, Any]:
    """The table columns of the checked ``Hand`` of every table (``hands[t]``; ``None``:
    a deal with no table cards): the community cards, the indicators and the chosen rank
    and colour codes, ``NONE`` where unused, as ``{"community": [N, 2], "indicators":
    [N, 6], "chosen_rank": [N], "chosen_colour": [N]}``."""
    size = len(hands)
    community = np.full((size, MAX_COMMUNITY), NONE, dtype=np.int64)
    indicators = np.full((size, MAX_INDICATORS), NONE, dtype=np.int64)
    ranks = np.full(size, NONE, dtype=np.int64)
    colours = np.full(size, NONE, dtype=np.int64)
    for t, hand in enumerate(hands):
        if hand is None:
            continue
        deal = hand.variant_deal
        community[t, :len(deal.community)] = deal.community
        indicators[t, :len(deal.indicators)] = deal.indicators
        if isinstance(deal.chosen, int):
            ranks[t] = deal.chosen
        elif isinstance(deal.chosen, str):
            colours[t] = COLOUR_CODES.index(deal.chosen)
    return {"community": community, "indicators": indicators, "chosen_rank": ranks,
            "chosen_colour": colours}


DEAL_COLUMNS: dict[str, Any] = {
    "community": slice(COMMUNITY, COMMUNITY + MAX_COMMUNITY),
    "indicators": slice(INDICATOR, INDICATOR + MAX_INDICATORS),
    "chosen_rank": CHOSEN_RANK, "chosen_colour": CHOSEN_COLOUR}
"""Where each of :func:`deal_columns`'s arrays goes in the table array."""


# ----------------------------------------------------------------- kernels


@jit
def value_seats(params: Any, tab: Any, seat: Any, values: Any, t: int) -> None:
    """At a new deal of a variant: the wild ranks and suits, the burst rank, and every
    dealt seat's own wild rank, burst flag and value."""
    burst = params[P_BURST]
    if burst == BURST_INDICATOR:
        burst = tab[t, INDICATOR + params[P_INDICATORS] - 1] >> 2
    tab[t, BURST_RANK] = burst
    tab[t, REVEALED] = 0  # no threshold turned up, no rotation yet (batch_jokers)
    tab[t, ROTATIONS] = 0
    set_public_wild(params, tab, t)
    personal = (params[P_PERSONAL] == 1) | (params[P_ROTATING] == 1)  # R2: 0 rotations
    for s in range(params[P_SEATS]):
        seat[t, BURST, s] = 0
        seat[t, OWN_RANK, s] = NONE
        seat[t, BOUGHT, s] = NONE
        if seat[t, DEALT, s] == 0:
            continue
        lowest = 13
        for c in range(held_cards(params, seat, t, s)):
            rank = seat[t, CARD0 + c, s] >> 2
            lowest = min(lowest, rank)
            if rank == burst:
                seat[t, BURST, s] = 1
        if personal and lowest != burst:  # S1, B2
            seat[t, OWN_RANK, s] = lowest
        seat[t, VALUE, s] = seat_value(params, tab, seat, values, t, s)


@jit
def show_deal(params: Any, seat: Any, known: Any, t: int) -> None:
    """What the deal shows each seat (V1): every seat's open cards to the whole table
    (``known`` 2: the open cards only), and in all_open every other dealt seat's cards."""
    n = params[P_SEATS]
    for s in range(n):
        if seat[t, DEALT, s] == 0:
            continue
        for viewer in range(n):
            if params[P_ALL_OPEN] == 1 and viewer != s and seat[t, DEALT, viewer] == 1:
                known[t, viewer, s] = 1
            elif params[P_OPEN] > 0:
                known[t, viewer, s] = 2


@jit
def burst_at_deal(params: Any, tab: Any, seat: Any, known: Any, t: int) -> bool:
    """B1-B5 after the boots: seats holding a burst card pack (not all-in); every seat
    burst is a void hand (every chip goes back), one seat left takes the pot. Whether the
    hand ended."""
    n = params[P_SEATS]
    burst = False
    for s in range(n):
        if seat[t, BURST, s] == 1:
            seat[t, PACKED, s] = 1
            seat[t, ALL_IN, s] = 0
            burst = True
    if not burst:
        return False
    left = count_in_hand(seat, t, n)
    if left == 0:
        for s in range(n):
            seat[t, PAYOUT, s] = seat[t, CONTRIB, s]
        finish(params, tab, seat, known, t, VOID)
        return True
    if left == 1:
        last_player_wins(params, tab, seat, known, t)
        return True
    return False


@jit
def encode_variant(params: Any, tab: Any, seat: Any, known: Any, t: int, me: int,
                   obs: Any) -> None:
    """Seat ``me``'s variant block: community cards, indicators, the wild ranks it knows
    (its own once it has seen its cards), the wild colours, the burst rank and who burst."""
    n = params[P_SEATS]
    for c in range(params[P_COMMUNITY]):
        obs[t, params[P_OBS_COMMUNITY] + tab[t, COMMUNITY + c]] = 1.0
    for c in range(params[P_INDICATORS]):
        if indicator_shown(params, tab, t, c):
            obs[t, params[P_OBS_INDICATORS] + tab[t, INDICATOR + c]] = 1.0
    for r in range(13):
        if tab[t, WILD_RANK + r] == 1:
            obs[t, params[P_OBS_WILD_RANKS] + r] = 1.0
    own = seat[t, OWN_RANK, me]
    if own != NONE and known[t, me, me] == 1:
        obs[t, params[P_OBS_WILD_RANKS] + own] = 1.0
    red = (tab[t, WILD_SUIT + 1] == 1) & (tab[t, WILD_SUIT + 2] == 1)
    black = (tab[t, WILD_SUIT] == 1) & (tab[t, WILD_SUIT + 3] == 1)
    obs[t, params[P_OBS_WILD_COLOURS]] = red
    obs[t, params[P_OBS_WILD_COLOURS] + 1] = black
    if tab[t, BURST_RANK] != NONE:
        obs[t, params[P_OBS_BURST_RANK] + tab[t, BURST_RANK]] = 1.0
    for j in range(n):
        obs[t, params[P_OBS_BURST] + j] = seat[t, BURST, (me + j) % n]
    encode_jokers(params, tab, seat, t, me, obs)
