"""Builders for the environment tests in every named variant: variant lists, observation
slot readers, random and twin table options (deals that differ only in cards a seat may
not see), what the public table knows, random play."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from builders.env import live
from teenpatti_env import Rules, raw_env
from teenpatti_env.cards import RANKS, format_cards, parse_card
from teenpatti_env.rules.variants import COLOURS, VARIANTS, VariantSpec

VARIANT_NAMES = list(VARIANTS)
# Variants whose spec adds machinery to the observation (muflis is lowball only).
BLOCK_VARIANTS = [name for name in VARIANT_NAMES if not VARIANTS[name].is_classic]
EPISODES = ("hand", "session")
# 10,000 hands x 24 variants take 5 to 6 minutes on two cores.
RANDOM_HANDS = int(os.environ.get("TEENPATTI_VARIANT_HANDS", "10000"))
SUITS_OF = {colour: set(suits) for colour, suits in COLOURS.items()}
PHASE_VARIANTS = [name for name in VARIANT_NAMES if VARIANTS[name].phase is not None]
SEEN_FROM_DEAL = ("discard_one", "passing")  # P1: every seat sees its cards from the deal
# The action types each phase is played with (VARIANTS.md Phases, V4).
PHASE_ACTIONS = {"discard_one": {"discard"}, "shopping": {"draw", "keep", "discard"}}
PHASE_ACTIONS["passing"] = {"pass"}
# VARIANTS.md's part-2 names (phases, buying, changing wild cards): their observation
# may add slots after the variant block.
PART_TWO_VARIANTS = (
    "joker_thresholds", "passing_cards", "shopping", "rotating_jokers", "buy_a_joker",
    "discard_one",
)  # fmt: skip

ignore_unknown_options = pytest.mark.filterwarnings(
    # api_test resets with options={"options": 1}; the env warns that it ignores it.
    "ignore:reset\\(\\) ignores unknown options"
)


def slot_map(raw: raw_env) -> dict[str, tuple[int, int]]:
    return {name: (offset, width) for name, offset, width, _ in raw.obs_layout.slots}


def slot(raw: raw_env, vector: np.ndarray, name: str) -> np.ndarray:
    offset, width = slot_map(raw)[name]
    return vector[offset : offset + width]


def ones(raw: raw_env, vector: np.ndarray, name: str) -> list[int]:
    return np.flatnonzero(slot(raw, vector, name)).tolist()


def biased_pick(raw: raw_env, mask: np.ndarray, rng: np.random.Generator) -> int:
    """A random legal action, packing rarely so that hands last and sideshows happen."""
    legal = np.flatnonzero(mask)
    assert legal.size, "an agent to act must have at least one legal action"
    weights = np.where(legal == 0, 0.1, 1.0)
    weights[legal == raw.layout.index("sideshow")] = 3.0
    return int(rng.choice(legal, p=weights / weights.sum()))


def rank(card: str) -> int:
    return RANKS.index(card[0])


def colour(card: str) -> str:
    return next(c for c, suits in SUITS_OF.items() if parse_card(card) & 3 in suits)


def burst_rank_of(spec: VariantSpec, indicators: list[str]) -> int | None:
    if spec.burst_rank == "indicator":
        return rank(indicators[-1])
    return spec.burst_rank if isinstance(spec.burst_rank, int) else None


def public_wilds(
    spec: VariantSpec, indicators: list[str], chosen: Any, revealed: int = 0
) -> tuple[set, set]:
    """The ranks and colours wild for every seat, read from VARIANTS.md (S3, S4, B2; T1:
    the first ``revealed`` threshold indicators)."""
    ranks: set[int] = set(spec.wild_ranks)
    colours: set[str] = set()
    at = 0
    for source in spec.wild:
        if source.kind == "thresholds":
            ranks.update(rank(card) for card in indicators[at : at + revealed])
            at += len(source.values)
            continue
        if source.kind == "indicator_rank":
            ranks.add(rank(indicators[at]))
            at += 1
        elif source.kind == "indicator_colour":
            colours.add(colour(indicators[at]))
            at += 1
        elif source.kind == "middle":
            low, high = sorted(rank(card) for card in indicators[at : at + 2])
            ranks.update(range(low + 1, high))
            at += 2
        elif source.kind == "chosen_rank":
            ranks.add(RANKS.index(chosen["rank"]))
        elif source.kind == "chosen_colour":
            colours.add(chosen["colour"])
    ranks.discard(burst_rank_of(spec, indicators))
    return ranks, colours


def deal_order(n: int, dealer: int, dealt_in: list[bool]) -> list[int]:
    """The seats dealt in, from the dealer's left (the dealer last): the order of the
    deal (D1) and of the phase turns."""
    return [seat for seat in ((dealer + 1 + i) % n for i in range(n)) if dealt_in[seat]]


def random_options(
    rules: Rules,
    rng: np.random.Generator,
    stacks: list[int] | None = None,
    dealer: int = 0,
    with_deck: bool = False,
) -> tuple[dict[str, Any], list[str]]:
    """reset() options for a random deal of ``rules``' variant, dealt as D1 deals a shuffled
    deck from ``dealer``'s left (in passing the first seat dealt in then gets three more,
    six in all), and the rest of the deck, top first. The options carry that rest as
    ``deck`` when the hand can draw (shopping, H2) or ``with_deck`` asks for it."""
    spec = rules.spec
    n = rules.num_players
    stacks = stacks or [rules.starting_stack] * n
    order = deal_order(n, dealer, [chips >= rules.entry_chips for chips in stacks])
    deck = format_cards(rng.permutation(52).tolist())
    private = spec.private_cards * len(order)
    cards: list[list[str] | None] = [None] * n
    for place, seat in enumerate(order):
        cards[seat] = deck[place : private : len(order)]
    del deck[:private]
    if spec.phase == "passing":
        cards[order[0]] += deck[:3]  # type: ignore[operator]
        del deck[:3]
    options: dict[str, Any] = {"cards": cards, "stacks": stacks}
    if spec.community_cards:
        options["community"] = deck[: spec.community_cards]
        del deck[: spec.community_cards]
    if spec.indicator_count:
        options["indicators"] = deck[: spec.indicator_count]
        del deck[: spec.indicator_count]
    if spec.chooses == "rank":
        options["chosen"] = {"rank": RANKS[int(rng.integers(13))]}
    elif spec.chooses == "colour":
        options["chosen"] = {"colour": ("red", "black")[int(rng.integers(2))]}
    if spec.phase == "shopping" or with_deck:
        options["deck"] = list(deck)
    return options, deck


def hidden_slots(
    spec: VariantSpec, cards: list, observer: int, own: bool, seats: list[int] | None = None
) -> list[tuple]:
    """(seat, index) of every dealt card ``observer`` may not see while the hand runs (V1-V3,
    D5, P1) as long as no card reaches it: other seats' face-down cards (none in all_open),
    and with ``own`` its own face-down cards too (in all_open: all of its own, and only
    those). ``seats``: only the cards of these seats."""
    out = []
    for seat, held in enumerate(cards):
        if held is None or (seats is not None and seat not in seats):
            continue
        if spec.visibility == "all_open":
            if own and seat == observer:
                out += [(seat, i) for i in range(len(held))]
        elif seat != observer or own:
            out += [(seat, i) for i in range(spec.open_private_cards, len(held))]
    return out


def twin_options(
    options: dict[str, Any],
    unused: list[str],
    spec: VariantSpec,
    observer: int,
    own: bool,
    rng: np.random.Generator,
    seats: list[int] | None = None,
    indicators: bool = False,
) -> dict[str, Any]:
    """``options`` with the cards ``observer`` may not see at the deal dealt again from
    those cards and the undealt ones (``hidden_slots``; ``seats``: only these seats'
    cards). A card of the burst rank is replaced only by another one and any other card
    only by another non-burst card, so who bursts (public, B3) stays the same. In shopping
    a random number of the deck's top cards stays put and the rest is dealt again (a draw
    below them may show the drawer a different card); a ``deck`` that no draw uses is
    all dealt again. With ``indicators``, the indicators are dealt again too (passing's,
    face down until the passing is over, D2; who bursts then may change, but the twins
    are compared only until then)."""
    cards = [None if held is None else list(held) for held in options["cards"]]
    slots = hidden_slots(spec, cards, observer, own, seats)
    burst = burst_rank_of(spec, options.get("indicators", []))
    keep = int(rng.integers(len(unused) + 1)) if spec.phase == "shopping" else 0
    old_indicators = list(options.get("indicators", [])) if indicators else []
    pool = [cards[s][i] for s, i in slots] + list(unused[keep:]) + old_indicators
    for is_burst in (False, True):
        mine = [(s, i) for s, i in slots if (rank(cards[s][i]) == burst) == is_burst]
        choices = [card for card in pool if (rank(card) == burst) == is_burst]
        picked = rng.choice(len(choices), size=len(mine), replace=False)
        for (s, i), k in zip(mine, picked, strict=True):
            cards[s][i] = choices[int(k)]
        taken = {choices[int(k)] for k in picked}
        pool = [card for card in pool if card not in taken]
    rest = [pool[int(k)] for k in rng.permutation(len(pool))]
    twin = {**options, "cards": cards}
    if indicators:
        twin["indicators"], rest = rest[: len(old_indicators)], rest[len(old_indicators) :]
    if "deck" in options:
        twin["deck"] = list(unused[:keep]) + rest
    return twin


def views_may_differ(a: Any, b: Any, seat: int, own: bool, indicators: bool) -> bool:
    """Whether the twin hands ``a`` and ``b`` may now rightly look different to ``seat``:
    cards were turned up or shown to it, a sideshow was compared (it may have packed other
    seats); its cards differ while it can see them (it looked or drew, or, P1, it sees
    them from the deal; its cards now, a drawn or received card included; called at
    every step, so a card it held before, discarded or passed on since, was compared
    too); in all_open, its own cards differ (``own``) and the hand is over; the twins'
    indicators differ (``indicators``) and the passing is over (D2)."""
    mine = a.dealt_in[seat] and (a.seen[seat] or b.seen[seat])
    if mine and a.rotating_rank(seat) != b.rotating_rank(seat):
        return True  # R2, R3: its wild rank is now another seat's dealt lowest rank
    if a.rules.spec.visibility == "all_open":
        if own and (a.over or b.over):
            return True
    elif mine and a.card_texts(seat) != b.card_texts(seat):
        return True
    if indicators and "passing" not in (a.phase, b.phase):
        return True
    for hand in (a, b):
        for event in hand.events_for(seat):
            kind = event["type"]
            if kind in ("reveal", "sideshow_reveal", "show"):
                return True
            if kind == "sideshow_result" and event["accepted"]:
                return True
    return False


def stacks_for(rules: Rules, rng: np.random.Generator, observer: int) -> list[int]:
    boot = rules.boot
    choices = [3 * boot, 8 * boot, rules.starting_stack, rules.starting_stack]
    stacks = [int(rng.choice(choices)) for _ in range(rules.num_players)]
    if rng.random() < 0.3:  # one seat sits out
        out = int(rng.integers(rules.num_players))
        if out != observer:
            stacks[out] = 0
    return stacks


def agent_seat(raw: raw_env, agent: str) -> int:
    return raw.agent_name_mapping[agent]


def play_random_hand(raw: raw_env, rng: np.random.Generator, check) -> None:
    """Play ``raw``'s hand with biased random actions, calling ``check()`` at every state."""
    first = raw.hand
    for _ in range(500):
        check()
        if first.over or raw.hand is not first or not raw.agents:
            return
        agent = raw.agent_selection
        if not live(raw, agent):
            return
        raw.step(biased_pick(raw, raw.action_mask(agent), rng))
    raise AssertionError("the hand did not end in 500 steps")


def passing_over(hand: Any) -> bool:
    """Whether the hand's passing has ended (its indicators are face up, D2, P9)."""
    return any(event["type"] == "phase_over" for event in hand.public_events())


def table_knowledge(hand: Any) -> tuple[list[str], set, set, int | None]:
    """The indicators face up now, and the wild ranks, wild colours and burst rank that
    every seat knows from the public cards (D2: passing's indicators are face down, and
    make nothing wild nor burst for anyone to see, until the passing is over)."""
    spec = hand.rules.spec
    deal = hand.variant_deal.to_json()
    if spec.phase == "passing" and not passing_over(hand):
        fixed = None if spec.burst_rank == "indicator" else burst_rank_of(spec, [])
        return [], set(spec.wild_ranks) - {fixed}, set(), fixed
    indicators = deal.get("indicators", [])
    revealed = hand.variant_deal.revealed  # T1: threshold indicators turned up so far
    ranks, colours = public_wilds(spec, indicators, deal.get("chosen"), revealed)
    if "thresholds" in spec.wild_kinds:  # the face-down ones are not in any view (D2)
        at = next(i for i, s in enumerate(spec.wild) if s.kind == "thresholds")
        start = sum(len(s.values) if s.kind == "thresholds" else
                    {"indicator_rank": 1, "indicator_colour": 1, "middle": 2}.get(s.kind, 0)
                    for s in spec.wild[:at])
        hidden = range(start + revealed, start + len(spec.wild[at].values))
        indicators = [card for i, card in enumerate(indicators) if i not in hidden]
    return indicators, ranks, colours, burst_rank_of(spec, deal.get("indicators", []))


def kind_of(meaning: str) -> str:
    """The engine action type of an action index's name (``bet_level_2`` -> ``bet``,
    ``discard_1`` -> ``discard``, ``pass_0_2_5`` -> ``pass``)."""
    if meaning.startswith(("bet_", "discard_", "pass_")):
        return meaning.split("_")[0]
    return meaning
