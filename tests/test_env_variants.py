"""The environment (``teenpatti_env.env`` / ``raw_env`` / ``TeenPattiEnv``) in every named
variant of ``teenpatti_env.rules.variants.VARIANTS``.

What is checked here, for every named variant: PettingZoo's API test (and its seed test,
both episode modes and the bare ``raw_env`` for a few); that a seat's observation, mask,
info view and event log hold nothing it may not know (twin tables whose deals differ only
in cards that seat may not see, played with the same actions, read the V readings of
VARIANTS.md; with a selection phase, compared until differing cards reach the seat: a
draw, a pass to it, passing's indicators turned up), and the converse, that what a seat
may see is there (all_open, open cards, personal wild rank, public cards for blind
seats, who burst, its own cards, draws, discards and passes in the phases); random hands
per variant (zero-sum rewards, every episode ends, the phase played); masks exactly the
legal phase actions, by card slot; the variant block of the observation against the
info view; the observation size; Gymnasium's ``check_env`` on the single-agent view.

The random-hands test plays 10,000 hands per variant (about 14 s each on the 2-core
machine, 5 to 6 minutes in all); ``TEENPATTI_VARIANT_HANDS=500`` shortens it for a quick
run.
"""

from __future__ import annotations

import functools
import json
import os
from collections import Counter
from collections.abc import Iterator
from typing import Any

import gymnasium
import numpy as np
import pytest
from builders.env import PRESETS, decisions, jsonable, live, same_view
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from teenpatti_env import Hand, Rules, TeenPattiEnv, env, raw_env
from teenpatti_env.cards import RANKS, format_cards, parse_card, parse_cards
from teenpatti_env.environment.observation import VARIANT_SLOTS
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


# --------------------------------------------------------------------- 1. PettingZoo API


@ignore_unknown_options
@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_pettingzoo_api_test(name: str) -> None:
    api_test(env(rules=Rules(variant=name)), num_cycles=200)


API_SESSION = [
    "all_open", "personal_joker", "two_burst", "open_joker", "two_cards_open", "shopping",
    "passing_cards",
]  # fmt: skip


@ignore_unknown_options
@pytest.mark.parametrize("name", API_SESSION)
def test_pettingzoo_api_test_in_session_mode(name: str) -> None:
    api_test(env(rules=Rules(variant=name, num_players=5), episode="session"), num_cycles=300)


@ignore_unknown_options
@pytest.mark.parametrize("episode", EPISODES)
@pytest.mark.parametrize(
    "name", ["shared_pair", "seven_joker_two_burst", "middle_jokers", "discard_one"]
)
def test_pettingzoo_api_test_on_raw_env(name: str, episode: str) -> None:
    api_test(raw_env(rules=Rules(variant=name, num_players=6), episode=episode), num_cycles=200)


@pytest.mark.parametrize("episode", EPISODES)
@pytest.mark.parametrize(
    "name",
    ["open_joker", "colour_jokers", "two_burst", "all_open", "joker", "shopping", "passing_cards"],
)
def test_pettingzoo_seed_test(name: str, episode: str) -> None:
    seed_test(functools.partial(env, rules=Rules(variant=name), episode=episode), num_cycles=200)


# --------------------------------------------------------------------- 2. no leaks


TWIN_RUNS = 150


def twin_run(name: str, seed: int) -> Counter:
    """Two tables whose deals differ only in cards one seat may not see, played with the
    same actions, look the same to that seat until a comparison or a reveal, or until
    cards that differ reach it (P1, P4, P9: a draw, a pass to it; D2: passing's
    indicators turned up)."""
    rng = np.random.default_rng([seed, VARIANT_NAMES.index(name)])
    preset = PRESETS[int(rng.integers(len(PRESETS)))]
    n = int(rng.integers(3, 8))
    rules = Rules.preset(preset, num_players=n, variant=name)
    spec = rules.spec
    episode = EPISODES[seed % 2]
    s = int(rng.integers(n))
    me = f"player_{s}"
    if spec.visibility == "all_open":
        own = True
    elif spec.phase in SEEN_FROM_DEAL:
        own = False  # its own cards are seen from the deal (P1)
    else:
        own = bool(seed // 2 % 2)
    stacks = stacks_for(rules, rng, s)
    dealer = int(rng.integers(n))
    while stacks[dealer] < rules.entry_chips:
        dealer = (dealer + 1) % n
    with_deck = bool(rng.random() < 0.5)  # needed for shopping's draws, optional elsewhere
    options, unused = random_options(rules, rng, stacks, dealer, with_deck)
    seats = None
    indicators = False
    if spec.phase == "passing":
        order = deal_order(n, dealer, [cards is not None for cards in options["cards"]])
        later = order[order.index(s) + 1 :]  # their cards never reach s (P9)
        if later and seed // 2 % 2:
            seats = later  # so the views are compared to the end
        indicators = bool(seed // 4 % 2)
    twin = twin_options(options, unused, spec, s, own, rng, seats, indicators)
    a = raw_env(rules=rules, episode=episode)
    b = raw_env(rules=rules, episode=episode)
    a.reset(seed=seed, options={**options, "dealer": dealer})
    b.reset(seed=seed + 1, options={**twin, "dealer": dealer})
    differ = any(twin.get(key) != options.get(key) for key in ("cards", "deck", "indicators"))
    stats = Counter(runs=1, differ=int(differ))
    if episode == "session" and a.session.hands_played:
        # The hand ended at the deal (burst) and the session dealt the next from its rng.
        if a.session.history[0]["end"] in ("void", "last_player"):
            assert a.session.history == b.session.history
        return stats
    first_a, first_b = a.hand, b.hand
    assert first_a.burst == first_b.burst
    where = (
        f"{name} seed {seed} ({preset}, {n} seats, {episode}, seat {s}, own {own}, "
        f"dealer {dealer}, seats {seats}, indicators {indicators})"
    )
    drew = False
    for step in range(300):
        if views_may_differ(first_a, first_b, s, own, indicators):
            break
        same_view(a, b, me, f"{where}, step {step}")
        stats["compared"] += 1
        if spec.phase is not None:
            phase = first_a.phase
            stats["phase views"] += phase == spec.phase
            stats["betting views after the phase"] += phase == "betting"
            stats["views after the observer drew"] += drew
            stats["views with other indicators in the passing"] += indicators
            # Its turn in the passing, not the first seat: it holds the cards passed to it.
            stats["observer received"] += (
                phase == "passing" and first_a.to_act == s and len(first_a.card_texts(s)) == 6
                and s != deal_order(n, dealer, first_a.dealt_in)[0]
            )  # fmt: skip
        if first_a.over or a.hand is not first_a or not a.agents:
            stats["to the end"] += first_a.over
            break
        agent = a.agent_selection
        assert agent == b.agent_selection, where
        if not live(a, agent):
            break
        mask = a.action_mask(agent)
        np.testing.assert_array_equal(mask, b.action_mask(agent), err_msg=where)
        action = biased_pick(a, mask, rng)
        drew |= agent == me and a.layout.names[action] == "draw"
        a.step(action)
        b.step(action)
        if a.hand is not first_a:
            break  # session mode dealt the next hand
        if not views_may_differ(first_a, first_b, s, own, indicators):
            assert first_a.packed == first_b.packed, where  # nothing was compared
    if first_a.seen[s] and not own:
        stats["observer looked"] += 1
    return stats


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_twin_tables_look_the_same_to_a_seat(name: str) -> None:
    stats: Counter = Counter()
    for seed in range(TWIN_RUNS):
        stats.update(twin_run(name, seed))
    assert stats["runs"] == TWIN_RUNS
    assert stats["differ"] >= TWIN_RUNS - 2, stats
    assert stats["compared"] >= 4 * TWIN_RUNS, stats
    if name != "all_open":
        assert stats["observer looked"] > 0, stats
    phase = VARIANTS[name].phase
    if phase is not None:
        assert stats["phase views"] > TWIN_RUNS, stats
        assert stats["betting views after the phase"] > TWIN_RUNS, stats
    if phase == "shopping":
        assert stats["views after the observer drew"] > 0, stats
    if phase == "passing":
        assert stats["views with other indicators in the passing"] > 0, stats
        assert stats["observer received"] > 0, stats


def test_twin_deals_change_only_hidden_cards() -> None:
    """The deal and twin builders themselves: every card once (D1, H2: the deck is every
    card not dealt, top first); six cards for the first seat dealt in from the dealer's
    left in passing; open cards, public cards and (in all_open) other seats' cards never
    change, nor the cards of seats left out of ``seats``; burst ranks stay burst ranks;
    indicators change only when asked. And the deal is D1's, as Hand.deal deals it."""
    names = ("two_cards_open", "all_open", "seven_joker_two_burst", "shared_pair")
    for name in (*names, *PHASE_VARIANTS):
        rules = Rules(variant=name, num_players=5)
        spec = rules.spec
        twins_differ = tries = 0
        for seed in range(30):
            rng = np.random.default_rng(seed)
            stacks = [rules.starting_stack] * 5
            stacks[(seed + 1) % 5] = 0  # a seat sits out, sometimes the dealer's left
            dealer = seed % 5
            options, unused = random_options(rules, rng, stacks, dealer, bool(seed % 3))
            order = deal_order(5, dealer, [chips > 0 for chips in stacks])
            sizes = [0 if held is None else len(held) for held in options["cards"]]
            want = [spec.private_cards * (chips > 0) for chips in stacks]
            if spec.phase == "passing":
                want[order[0]] += 3
            assert sizes == want, (name, seed)
            assert ("deck" in options) == (spec.phase == "shopping" or bool(seed % 3))
            own = spec.visibility == "all_open" or (
                bool(seed % 2) and spec.phase not in SEEN_FROM_DEAL
            )
            seats = order[2:] if seed % 4 == 1 else None
            indicators = spec.phase == "passing" and seed % 4 == 3
            twin = twin_options(options, unused, spec, 2, own, rng, seats, indicators)
            hidden = set(hidden_slots(spec, options["cards"], 2, own, seats))
            changed = False
            for seat, held in enumerate(options["cards"]):
                assert (held is None) == (twin["cards"][seat] is None)
                for i, card in enumerate(held or ()):
                    changed |= twin["cards"][seat][i] != card
                    if (seat, i) not in hidden:
                        assert twin["cards"][seat][i] == card
                    if seats is not None and seat not in seats:
                        assert (seat, i) not in hidden
            twins_differ += changed
            tries += bool(hidden)
            for key in ("community", "chosen", *(() if indicators else ("indicators",))):
                assert twin.get(key) == options.get(key)
            for table in (options, twin):
                flat = [card for held in table["cards"] if held for card in held]
                flat += table.get("community", []) + table.get("indicators", [])
                if "deck" in table:
                    flat += table["deck"]
                    assert len(flat) == 52
                assert len(set(flat)) == len(flat)
            if "deck" in options:
                assert options["deck"] == unused
            if spec.burst_rank is not None:
                burst = burst_rank_of(spec, options.get("indicators", []))
                for old, new in zip(options["cards"], twin["cards"], strict=True):
                    old_flags = [rank(c) == burst for c in old or ()]
                    assert old_flags == [rank(c) == burst for c in new or ()]
        assert twins_differ >= tries - 2 and tries >= 20, (name, twins_differ, tries)
    # The deal is D1's: the same shuffled deck dealt by Hand.deal gives the same cards.
    for name in PHASE_VARIANTS:
        rules = Rules(variant=name, num_players=4)
        for seed in range(5):
            options, rest = random_options(rules, np.random.default_rng(seed), dealer=seed % 4)
            hand = Hand.deal(rules, [rules.starting_stack] * 4, seed % 4,
                             np.random.default_rng(seed))  # fmt: skip
            assert [hand.card_texts(s) for s in range(4)] == options["cards"], name
            assert hand.table_cards().get("indicators") == options.get("indicators")
            if rules.spec.phase == "shopping":
                assert hand.table_cards()["deck"] == rest


def random_tables(variant: str) -> Iterator[tuple[int, np.random.Generator, int, raw_env, Any]]:
    """60 fresh tables of ``variant`` over the presets, 3-7 seats, random stacks:
    ``(seed, rng, seats, env, hand)`` after a reset."""
    for seed in range(60):
        rng = np.random.default_rng(seed)
        preset = PRESETS[seed % len(PRESETS)]
        n = int(rng.integers(3, 8))
        rules = Rules.preset(preset, num_players=n, variant=variant)
        stacks = stacks_for(rules, rng, -1)
        if sum(chips >= rules.entry_chips for chips in stacks) < 2:
            continue
        raw = raw_env(rules=rules)
        raw.reset(seed=seed, options={"stacks": stacks})
        yield seed, rng, n, raw, raw.hand


def test_all_open_seat_sees_every_other_hand_and_never_its_own() -> None:
    """V1, V2: in all_open every other dealt-in seat's cards, packed ones included, are in
    the info and the vector from the deal on; a seat's own cards, value and category are
    nowhere in its view (nor in its legal actions or events) until the hand is over."""
    checked = Counter()
    for seed, rng, n, raw, hand in random_tables("all_open"):

        def check(raw: raw_env = raw, hand: Any = hand, n: int = n, seed: int = seed) -> None:
            running = not hand.over
            for agent in raw.agents:
                s = agent_seat(raw, agent)
                info = raw.view(agent)
                vector = raw.observe(agent)["observation"]
                own = hand.card_texts(s)
                for other in range(n):
                    k = (other - s) % n
                    shown = info["seats"][other]["cards"]
                    if not hand.dealt_in[other]:
                        assert shown is None and not ones(raw, vector, f"seat{k}.cards")
                    elif other != s:
                        assert shown == hand.card_texts(other), (seed, s, other)
                        got = ones(raw, vector, f"seat{k}.cards")
                        assert got == sorted(parse_cards(shown))
                        checked["packed other seen"] += hand.packed[other]
                if running:
                    assert info["cards"] is None and info["seats"][s]["cards"] is None
                    assert info["category"] is None and info["strength"] is None
                    assert not ones(raw, vector, "seat0.cards")
                    assert not ones(raw, vector, "my_category")
                    assert slot(raw, vector, "my_strength")[0] == 0.0
                    text = json.dumps(info) + json.dumps(raw.events(agent))
                    for card in own:
                        assert f'"{card}"' not in text, (seed, s, card)
                    checked["own hidden"] += 1
                    checked["own hidden after look"] += hand.seen[s]
                else:
                    assert info["cards"] == own and info["seats"][s]["cards"] == own
                    assert ones(raw, vector, "seat0.cards") == sorted(parse_cards(own))
                    checked["own after the end"] += 1

        play_random_hand(raw, rng, check)
    assert min(checked.values()) > 0 and len(checked) == 4, checked


def test_all_open_private_sideshow_shows_nothing_of_ones_own() -> None:
    """V2: never at a private sideshow. Seat 1 looks and chaals, seat 2 looks and asks
    seat 1 for a sideshow (sideshow_reveal="private"), seat 1 accepts and packs; neither
    learns its own hand, and the hand goes on."""
    raw = raw_env(rules=Rules.preset("flash", num_players=4, variant="all_open"))
    cards = [["As", "Kd", "2c"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"], ["2h", "2d", "Js"]]
    raw.reset(options={"cards": cards, "dealer": 0})
    index = raw.layout.index
    for agent, action in [
        ("player_1", "look"),
        ("player_1", "bet_min"),
        ("player_2", "look"),
        ("player_2", "sideshow"),
        ("player_1", "accept"),
    ]:
        assert raw.agent_selection == agent
        assert raw.action_mask(agent)[index(action)] == 1, action
        raw.step(index(action))
    hand = raw.hand
    assert hand.packed == [False, True, False, False] and not hand.over
    for seat in (1, 2):
        agent = f"player_{seat}"
        info = raw.view(agent)
        assert info["cards"] is None and info["seats"][seat]["cards"] is None
        assert not ones(raw, raw.observe(agent)["observation"], "seat0.cards")
        text = json.dumps(info) + json.dumps(raw.events(agent))
        for card in cards[seat]:
            assert f'"{card}"' not in text
        other = 3 - seat
        assert info["seats"][other]["cards"] == cards[other]


def test_two_cards_open_every_seat_sees_the_first_two_cards() -> None:
    """D5, V3: each seat's first two cards are in every seat's info and vector from the
    deal on (its own too while blind, and after it packs); the third only once seen."""
    checked = Counter()
    for seed, rng, n, raw, hand in random_tables("two_cards_open"):

        def check(raw: raw_env = raw, hand: Any = hand, n: int = n, seed: int = seed) -> None:
            for agent in raw.agents:
                s = agent_seat(raw, agent)
                info = raw.view(agent)
                vector = raw.observe(agent)["observation"]
                told = {e["seat"] for e in raw.events(agent) if e["type"] == "sideshow_reveal"}
                for other in range(n):
                    k = (other - s) % n
                    shown = info["seats"][other]["cards"]
                    if not hand.dealt_in[other]:
                        assert shown is None
                        continue
                    full = hand.card_texts(other)
                    assert shown[:2] == full[:2], (seed, s, other)
                    whole = (other == s and hand.seen[s]) or other in hand.shown or other in told
                    assert shown == (full if whole else full[:2]), (seed, s, other)
                    assert ones(raw, vector, f"seat{k}.cards") == sorted(parse_cards(shown))
                    checked["blind own open"] += other == s and not hand.seen[s]
                    checked["packed open"] += hand.packed[other] and other != s
                    checked["third hidden"] += not whole
                if not hand.seen[s] and s not in hand.shown:
                    assert info["category"] is None and not ones(raw, vector, "my_category")

        play_random_hand(raw, rng, check)
    assert len(checked) == 3 and min(checked.values()) > 0, checked


def check_own_view(
    raw: raw_env,
    held: dict[int, list[str]],
    parted: dict[int, list[str]],
    draws: list[int],
    checked: Counter,
) -> None:
    """Every seat's view shows its cards ``held`` in hand order once it has seen them (from
    the deal in discard_one and passing), its discarded and passed cards ``parted``, and
    every seat's ``draws``."""
    hand = raw.hand
    n = hand.num_seats
    layout = slot_map(raw)
    checked[hand.phase] += 1
    for agent in raw.agents:
        s = agent_seat(raw, agent)
        info = raw.view(agent)
        vector = raw.observe(agent)["observation"]
        if raw.rules.spec.phase in SEEN_FROM_DEAL:
            assert hand.seen[s] and info["seen"]
        if hand.seen[s]:
            assert info["cards"] == held[s]  # in hand order
            assert ones(raw, vector, "seat0.cards") == sorted(parse_cards(held[s]))
            checked["own cards"] += 1
        if "my_parted" in layout:
            assert ones(raw, vector, "my_parted") == sorted(parse_cards(parted[s]))
            checked["parted"] += bool(parted[s])
        if "seat0.draws" in layout:
            got = [slot(raw, vector, f"seat{k}.draws")[0] for k in range(n)]
            assert got == [draws[(s + k) % n] for k in range(n)]
            checked["draws"] += any(draws)


@pytest.mark.parametrize("name", PHASE_VARIANTS)
def test_phase_cards_are_in_the_seats_own_view(name: str) -> None:
    """P1, P4, P9, V1, V4: in discard_one and passing every seat sees its cards from the
    deal; a seat sees the cards passed to it and the card it draws (the deck's top card)
    at once, in hand order (a drawn or received card appended, a discarded or passed one
    removed); its own discards and passed cards stay in its view (``my_parted``) and
    every seat's draws are public (``seatK.draws``)."""
    checked: Counter = Counter()
    for seed in range(30):
        rng = np.random.default_rng(seed)
        n = int(rng.integers(3, 8))
        rules = Rules.preset(PRESETS[seed % len(PRESETS)], num_players=n, variant=name)
        dealer = int(rng.integers(n))
        options, deck = random_options(rules, rng, dealer=dealer)
        raw = raw_env(rules=rules)
        raw.reset(seed=seed, options={**options, "dealer": dealer})
        hand = raw.hand
        order = deal_order(n, dealer, hand.dealt_in)
        held = {s: list(cards) for s, cards in enumerate(options["cards"])}
        parted: dict[int, list[str]] = {s: [] for s in range(n)}
        draws = [0] * n
        packed: set[int] = set()
        burst = burst_rank_of(rules.spec, options.get("indicators", []))
        burst_checked = burst is None

        for _ in range(500):
            check_own_view(raw, held, parted, draws, checked)
            if hand.over or not raw.agents or raw.hand is not hand:
                break
            agent = raw.agent_selection
            if not live(raw, agent):
                break
            action = biased_pick(raw, raw.action_mask(agent), rng)
            move = raw.action_to_engine(agent, action)
            s, kind = move["seat"], move["type"]
            raw.step(action)
            if kind == "draw":
                drawn = hand.card_texts(s)[-1]
                if sum(draws) < len(deck):  # P4: the top card (H2: the deck, top first)
                    assert drawn == deck[sum(draws)]
                draws[s] += 1
                held[s].append(drawn)
            elif kind == "discard":
                held[s].remove(move["card"])
                parted[s].append(move["card"])
            elif kind == "pass":
                for card in move["cards"]:
                    held[s].remove(card)
                parted[s] += move["cards"]
                if s != dealer:  # P9: to the next seat dealt in; the dealer's leave play
                    held[order[order.index(s) + 1]] += move["cards"]
            packed |= {s} if kind == "pack" else set()
            for seat in order:
                assert hand.card_texts(seat) == held[seat], (seed, seat)
            if not burst_checked and hand.phase != "passing":
                # P9, B1: after the passing, the seats still in holding the burst rank.
                if kind == "pass" or len(packed) < len(order) - 1:
                    hold = {t for t in order if t not in packed and burst in map(rank, held[t])}
                    assert {t for t in range(n) if hand.burst[t]} == hold, seed
                    checked["burst checked"] += 1
                    checked["someone burst"] += bool(hold)
                burst_checked = True
    assert checked["own cards"] > 100 and checked["betting"] > 20, checked
    if burst is not None:
        assert checked["burst checked"] > 20 and checked["someone burst"] > 0, checked
    if "my_parted" in slot_map(raw):
        assert checked["parted"] > 0, checked
    if VARIANTS[name].phase == "shopping":
        assert checked["draws"] > 0, checked


def test_personal_joker_wild_rank_is_known_only_once_looked() -> None:
    """S1, V1: a seat's own lowest rank is in its wild ranks (info and vector) only once
    it has seen its cards; other seats never see it."""
    raw = raw_env(rules=Rules(variant="personal_joker"))
    cards = [
        ["As", "Kd", "Qc", "Jh"],
        ["5s", "9d", "Kh", "Ac"],
        ["3h", "3d", "8s", "Td"],
        ["4c", "6c", "7h", "Qs"],
    ]
    raw.reset(options={"cards": cards, "dealer": 0})
    index = raw.layout.index

    def wilds(seat: int) -> tuple[list[str], list[int]]:
        agent = f"player_{seat}"
        return raw.view(agent)["wild_ranks"], ones(
            raw, raw.observe(agent)["observation"], "wild_ranks"
        )

    for seat in range(4):
        assert wilds(seat) == ([], [])
    raw.step(index("look"))  # seat 1
    assert wilds(1) == (["5"], [RANKS.index("5")])
    for seat in (0, 2, 3):
        assert wilds(seat) == ([], [])
    raw.step(index("bet_min"))
    raw.step(index("look"))  # seat 2
    assert wilds(2) == (["3"], [RANKS.index("3")])
    assert wilds(1) == (["5"], [RANKS.index("5")])
    assert wilds(0) == ([], []) and wilds(3) == ([], [])


def test_personal_joker_wild_ranks_in_random_play() -> None:
    checked = Counter()
    for seed in range(40):
        rng = np.random.default_rng(seed)
        n = int(rng.integers(3, 8))
        raw = raw_env(
            rules=Rules.preset(PRESETS[seed % 4], num_players=n, variant="personal_joker")
        )
        raw.reset(seed=seed)
        hand = raw.hand

        def check(raw: raw_env = raw, hand: Any = hand) -> None:
            for agent in raw.agents:
                s = agent_seat(raw, agent)
                knows = hand.seen[s] or s in hand.shown
                lowest = RANKS[min(rank(c) for c in hand.card_texts(s))]
                assert raw.view(agent)["wild_ranks"] == ([lowest] if knows else [])
                checked["known" if knows else "unknown"] += 1

        play_random_hand(raw, rng, check)
    assert checked["known"] and checked["unknown"], checked


PUBLIC_CARD_VARIANTS = [
    name
    for name in VARIANT_NAMES
    if VARIANTS[name].community_cards or VARIANTS[name].indicator_count or VARIANTS[name].chooses
]


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


def check_public_cards(raw: raw_env, options: dict[str, Any]) -> None:
    """Every seat's view holds the public cards of ``options`` as far as they are face up
    now (``table_knowledge``), blind or not, and nothing of the face-down ones."""
    spec = raw.rules.spec
    indicators, ranks, colours, burst = table_knowledge(raw.hand)
    hidden = [card for card in options.get("indicators", []) if card not in indicators]
    for agent in raw.agents:
        info = raw.view(agent)
        vector = raw.observe(agent)["observation"]
        # Blind at the deal but in discard_one and passing, seen from the deal (P1).
        assert info["seen"] == (spec.phase in SEEN_FROM_DEAL)
        assert info["community"] == options.get("community", [])
        assert info["indicators"] == indicators
        assert info["chosen"] == options.get("chosen")
        assert info["wild_ranks"] == [RANKS[r] for r in sorted(ranks)]
        assert info["wild_colours"] == [c for c in ("red", "black") if c in colours]
        assert info["burst_rank"] == (None if burst is None else RANKS[burst])
        assert ones(raw, vector, "community") == sorted(parse_cards(info["community"]))
        assert ones(raw, vector, "indicators") == sorted(parse_cards(indicators))
        assert ones(raw, vector, "wild_ranks") == sorted(ranks)
        assert ones(raw, vector, "burst_rank") == ([] if burst is None else [burst])
        table = [e for e in raw.events(agent) if e["type"] == "table_cards"]
        told = {key: value for event in table for key, value in event.items()}
        for key in ("community", "chosen"):
            assert told.get(key) == options.get(key)
        assert told.get("indicators") == (indicators or None)
        public = indicators or options.get("community") or options.get("chosen")
        assert len(table) == (1 if public else 0)  # nothing face up: no table_cards event
        text = json.dumps(info) + json.dumps(raw.events(agent))
        for card in hidden:  # a face-down indicator is nowhere
            assert f'"{card}"' not in text


@pytest.mark.parametrize("name", PUBLIC_CARD_VARIANTS)
def test_public_cards_are_in_every_blind_seats_view(name: str) -> None:
    """V1, V3, D2: community cards, face-up indicators, the chosen rank or colour and the
    wild cards they make are in the view of every seat from the deal on, blind or not.
    Passing's three indicators (D2, P9) are nowhere in any view while the seats pass, nor
    the wild rank, colour and burst rank they make; once the passing is over they are in
    every view."""
    passing = VARIANTS[name].phase == "passing"
    for seed in range(20):
        rng = np.random.default_rng(seed)
        rules = Rules(variant=name, num_players=int(rng.integers(3, 8)))
        options, _ = random_options(rules, rng)
        raw = raw_env(rules=rules)
        raw.reset(seed=seed, options={**options, "dealer": 0})
        check_public_cards(raw, options)
        if not passing:
            continue
        while raw.hand.phase == "passing":  # every seat passes three random cards
            assert not passing_over(raw.hand)
            legal = np.flatnonzero(raw.action_mask(raw.agent_selection))
            names = [raw.action_meanings[i] for i in legal]
            assert names[0] == "pack" and all(n.startswith("pass_") for n in names[1:])
            raw.step(int(rng.choice(legal[1:])))
            check_public_cards(raw, options)
        assert passing_over(raw.hand) and raw.view("player_0")["indicators"]
        check_public_cards(raw, options)


@pytest.mark.parametrize("name", ["two_burst", "seven_joker_two_burst"])
def test_who_burst_is_public_and_nothing_else(name: str) -> None:
    """B3: every seat learns who burst (info, vector, events); a burst hand stays face
    down for every other seat to the end of the hand, a showdown included."""
    cards = [["As", "Kd", "Qc"], ["2s", "9d", "Kh"], ["3h", "3d", "8s"], ["4c", "6c", "Th"]]
    raw = raw_env(rules=Rules(variant=name))
    raw.reset(options={"cards": cards, "dealer": 0})
    hand = raw.hand
    assert hand.burst == [False, True, False, False] and hand.packed[1]
    assert raw.agent_selection == "player_2"
    index = raw.layout.index
    # Seat 2 looks and chaals, seat 3 packs, seat 0 looks and asks for a show.
    actions = iter(["look", "bet_min", "pack", "look", "show"])
    while True:
        for agent in raw.agents:
            s = agent_seat(raw, agent)
            info = raw.view(agent)
            vector = raw.observe(agent)["observation"]
            assert [seat["burst"] for seat in info["seats"]] == [False, True, False, False]
            assert info["burst_rank"] == "2"
            assert ones(raw, vector, "burst_rank") == [0]
            flags = [slot(raw, vector, f"seat{k}.burst")[0] for k in range(4)]
            assert flags == [float((s + k) % 4 == 1) for k in range(4)]
            assert any(e["type"] == "burst" and e["seats"] == [1] for e in raw.events(agent))
            if s != 1:
                assert info["seats"][1]["cards"] is None
                assert not ones(raw, vector, f"seat{(1 - s) % 4}.cards")
                text = json.dumps(info) + json.dumps(raw.events(agent))
                for card in cards[1]:
                    assert f'"{card}"' not in text
        if hand.over:
            break
        raw.step(index(next(actions)))
    assert hand.end == "show" and 1 not in hand.shown


@pytest.mark.parametrize("episode", EPISODES)
def test_burst_at_the_deal_ends_the_episode_void_or_to_the_last_seat(episode: str) -> None:
    """B4 through env(): everyone bursts, the hand is void and every reward is 0; all but
    one burst, the last seat takes the pot unseen."""
    void = [["2s", "Kd", "Qc"], ["2d", "9d", "Kh"], ["2h", "3d", "8s"]]
    last = [["2s", "Kd", "Qc"], ["Ad", "9d", "Kh"], ["2h", "3d", "8s"]]
    for cards, end, net in ((void, "void", [0, 0, 0]), (last, "last_player", [-1, 2, -1])):
        e = env(rules=Rules(variant="two_burst", num_players=3), episode=episode)
        e.reset(seed=0, options={"cards": cards, "dealer": 0})
        raw = e.unwrapped
        want = {f"player_{s}": float(net[s]) for s in range(3)}
        if episode == "hand":
            assert raw.hand.end == end and raw.hand.net == net
            assert all(raw.terminations.values())
            rewards = {}
            for agent in e.agent_iter():
                rewards[agent] = e.last()[1]
                e.step(None)
            assert rewards == want
        else:
            (first,) = raw.session.history
            assert first["end"] == end and first["net"] == net
            assert not raw.hand.over and raw.hand.dealer == 1  # the deal passed (B4)
            assert raw._cumulative_rewards == want


# --------------------------------------------------------------------- 3. random hands


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_random_hands(name: str) -> None:
    e = env(rules=Rules(variant=name))
    raw = e.unwrapped
    rng = np.random.default_rng(2024)
    integers = rng.integers
    steps = 0
    ends: Counter = Counter()
    kinds: Counter = Counter()  # the actions taken, by kind (discard_2 -> discard)
    meanings = [kind_of(meaning) for meaning in raw.action_meanings]
    e.reset(seed=0)
    for _ in range(RANDOM_HANDS):
        hand = raw.hand
        total = sum(raw.rewards.values()) if hand.over else None
        moves = 0
        while raw.agents:
            agent = raw.agent_selection
            if raw.terminations[agent] or raw.truncations[agent]:
                if total is None:
                    total = sum(raw.rewards.values())
                e.step(None)
                continue
            legal = np.flatnonzero(raw.action_mask(agent))
            action = int(legal[integers(legal.size)])
            kinds[meanings[action]] += 1
            e.step(action)
            moves += 1
            assert moves < 1000, "the episode does not end"
        assert hand.over, "an episode ended before its hand did (an illegal move?)"
        assert sum(hand.net) == 0
        assert total == pytest.approx(0.0, abs=1e-9)
        ends[hand.end] += 1
        steps += moves
        e.reset()
    assert steps > 3 * RANDOM_HANDS
    assert ends["showdown"] + ends["show"] > 0
    if VARIANTS[name].burst_rank is not None and RANDOM_HANDS >= 1000:
        assert ends["void"] + ends["last_player"] > 0
    phase = VARIANTS[name].phase
    for kind in PHASE_ACTIONS.get(phase, ()):  # the phase was played
        assert kinds[kind] > RANDOM_HANDS // 10, kinds
    if phase == "shopping":  # P4: a draw, then a discard (or pack) by the same seat
        assert kinds["discard"] <= kinds["draw"], kinds
    if phase is None:
        assert not kinds.keys() & {"discard", "draw", "keep", "pass"}, kinds


@pytest.mark.parametrize("name", ["two_burst", "shared_pair", "all_open", "open_joker"])
def test_random_sessions_are_zero_sum_and_end(name: str) -> None:
    rng = np.random.default_rng(7)
    for seed in range(3):
        e = env(rules=Rules.preset("flash", variant=name, num_players=5), episode="session")
        raw = e.unwrapped
        e.reset(seed=seed)
        start = sum(raw.session.stacks)
        for agent in e.agent_iter(max_iter=100_000):
            terminated, truncated = e.last()[2:4]
            if terminated or truncated:
                e.step(None)
            else:
                e.step(biased_pick(raw, raw.action_mask(agent), rng))
        session = raw.session
        assert session.over and sum(session.stacks) == start
        assert all(sum(h["net"]) == 0 for h in session.history)


# --------------------------------------------------------------------- 3b. phase actions


def kind_of(meaning: str) -> str:
    """The engine action type of an action index's name (``bet_level_2`` -> ``bet``,
    ``discard_1`` -> ``discard``, ``pass_0_2_5`` -> ``pass``)."""
    if meaning.startswith(("bet_", "discard_", "pass_")):
        return meaning.split("_")[0]
    return meaning


def check_phase_mask(raw: raw_env) -> set[str]:
    """The mask of the agent to act is exactly the engine's legal actions (V4), and is the
    phase's (P1-P4, P6); a phase index names the cards in those slots of the seat's hand
    (deal order, a drawn or received card appended, a discarded or passed one removed),
    the order its own view lists them in. Returns the legal action types."""
    hand = raw.hand
    agent = raw.agent_selection
    seat = agent_seat(raw, agent)
    mask = raw.action_mask(agent)
    np.testing.assert_array_equal(raw.observe(agent)["action_mask"], mask)
    meanings = raw.action_meanings
    held = hand.card_texts(seat)
    named: Counter = Counter()
    for i, meaning in enumerate(meanings):
        action = raw.action_to_engine(agent, i)
        assert action["seat"] == seat
        assert hand.is_legal(action) == bool(mask[i]), (
            f"{meaning} -> {action}: mask {mask[i]}, engine says {hand.illegal_reason(action)!r}"
        )
        kind, *slots = meaning.split("_")
        if kind in ("discard", "pass") and mask[i]:
            cards = [held[int(k)] for k in slots]
            if kind == "discard":
                assert action == {"seat": seat, "type": "discard", "card": cards[0]}
            else:
                assert action == {"seat": seat, "type": "pass", "cards": cards}
            assert raw.layout.encode(hand, action) == i
            named[kind] += 1
    legal = hand.legal_actions(seat)
    types = {action["type"] for action in legal}
    info = raw.view(agent)
    assert info["legal"] == jsonable(legal)
    assert info["legal_actions"] == [meanings[i] for i in np.flatnonzero(mask)]
    assert {kind_of(meanings[i]) for i in np.flatnonzero(mask)} == types
    phase = hand.phase
    spec = raw.rules.spec
    if phase in ("discard_one", "passing"):
        kind = "discard" if phase == "discard_one" else "pass"
        assert types == {"pack", kind}  # P1: look is never offered; P3
        assert len(held) == (4 if kind == "discard" else 6)
    elif phase == "shopping":
        public = hand.public_events()
        if public[-1]["type"] == "draw":  # P4: the same seat discards (or packs)
            assert public[-1]["seat"] == seat and types == {"pack", "discard"}
            assert len(held) == spec.private_cards + 1
        else:
            may_draw = not hand.all_in[seat] and hand.stacks[seat] >= raw.rules.boot + 1
            assert types - {"look"} == {"pack", "keep", *(("draw",) if may_draw else ())}
            # P1: looking as in betting (a seat all-in from its boot cannot look).
            assert ("look" in types) == (not hand.seen[seat] and not hand.all_in[seat])
    else:
        assert not types & {"discard", "draw", "keep", "pass"}
    listed = {action["type"]: action.get("cards") for action in legal}
    if "discard" in types:
        assert listed["discard"] == held and named["discard"] == len(held)
    if "pass" in types:
        assert listed["pass"] == held and named["pass"] == 20  # every three of six
    if types & {"discard", "pass"}:
        assert info["cards"] == held  # V4: the slots are its cards as its view lists them
    for other in raw.agents:
        if other != agent:
            assert not raw.action_mask(other).any() and raw.view(other)["legal"] == []
    return types


@pytest.mark.parametrize("name", PHASE_VARIANTS)
def test_phase_masks_are_exactly_the_legal_actions(name: str) -> None:
    """Random hands over the presets, 3-7 seats, short stacks (P6): at every turn the mask
    is exactly the engine's legal actions, phase choices by card slot included."""
    seen: Counter = Counter()
    for seed in range(40):
        rng = np.random.default_rng(seed)
        n = int(rng.integers(3, 8))
        rules = Rules.preset(PRESETS[seed % len(PRESETS)], num_players=n, variant=name)
        boot = rules.boot
        choices = [boot, boot + 1, 2 * boot, 3 * boot, rules.starting_stack]
        stacks = [int(rng.choice(choices)) for _ in range(n)]
        stacks[:2] = [rules.starting_stack] * 2
        raw = raw_env(rules=rules)
        raw.reset(seed=seed, options={"stacks": stacks})
        for agent, _, _ in decisions(raw):
            seen.update(check_phase_mask(raw))
            raw.step(biased_pick(raw, raw.action_mask(agent), rng))
    phase = VARIANTS[name].phase
    for kind in ("pack", "bet", *PHASE_ACTIONS[phase], *(("look",) if phase == "shopping" else ())):
        assert seen[kind] > 0, seen


# --------------------------------------------------------------------- 4. observations


def classic_size(n: int) -> int:
    return 11 + 13 * n + 6 + 52 * n


@pytest.mark.parametrize("n", range(3, 8))
def test_observation_size_per_variant(n: int) -> None:
    """The classic vector, then the variant block in every other variant; a part-2
    variant keeps that layout and may add slots after it (a selection phase must: V1,
    the seats' shopping draws and keeps). The slots tile the vector."""
    block = sum(width for _, width, _ in VARIANT_SLOTS) + n
    assert classic_size(4) == 277
    common = [
        *(slot_name for slot_name, _, _ in VARIANT_SLOTS),
        *(f"seat{k}.burst" for k in range(n)),
    ]
    for name in VARIANT_NAMES:
        raw = raw_env(rules=Rules(variant=name, num_players=n))
        size = raw.obs_layout.size
        slots = raw.obs_layout.slots
        spans = sorted((offset, width) for _, offset, width, _ in slots)
        assert [offset for offset, _ in spans] == [0, *np.cumsum([w for _, w in spans])[:-1]]
        assert sum(width for _, width in spans) == size, name
        want = classic_size(n) if name == "classic" else classic_size(n) + block
        if name not in PART_TWO_VARIANTS:
            assert size == want, name
        elif VARIANTS[name].phase is not None:
            assert size > want, name
        assert size >= want, name
        names = [slot_name for slot_name, offset, *_ in slots if offset < want]
        assert sum(width for _, offset, width, _ in slots if offset < want) == want, name
        assert raw.observation_space("player_0")["observation"].shape == (size,)
        raw.reset(seed=0)
        assert raw.observe("player_0")["observation"].shape == (size,)
        if name in BLOCK_VARIANTS:
            assert names[-len(common) :] == common, name


def test_every_named_variant_but_classic_has_one_observation_size() -> None:
    """One size for every part-1 variant but classic; the part-2 variants may add their
    slots to it (the phase variants do, V1)."""
    sizes = {name: raw_env(rules=Rules(variant=name)).obs_layout.size for name in VARIANT_NAMES}
    assert sizes.pop("classic") == 277
    later = {name: sizes.pop(name) for name in PART_TWO_VARIANTS if name in sizes}
    assert len(set(sizes.values())) == 1, sizes
    assert min(later.values()) >= max(sizes.values()), later
    assert min(later[name] for name in PHASE_VARIANTS) > max(sizes.values()), later


def check_variant_block(raw: raw_env) -> int:
    """Every set slot of the variant block agrees with the info view, and the view with
    the deal as VARIANTS.md reads it (passing's indicators only once the passing is over,
    D2). Returns the number of views checked."""
    hand = raw.hand
    n = raw.rules.num_players
    spec = raw.rules.spec
    deal = hand.variant_deal.to_json()
    indicators, ranks, colours, burst = table_knowledge(hand)  # D2: passing's turn up late
    checked = 0
    for agent in raw.agents:
        s = agent_seat(raw, agent)
        info = raw.view(agent)
        vector = raw.observe(agent)["observation"]
        assert info["community"] == deal.get("community", [])
        assert info["indicators"] == indicators
        assert info["chosen"] == deal.get("chosen")
        mine = set(ranks)
        if "personal_lowest" in spec.wild_kinds and (hand.seen[s] or s in hand.shown):
            mine.add(min(rank(c) for c in hand.card_texts(s)))
        if "rotating_lowest" in spec.wild_kinds and (hand.seen[s] or s in hand.shown):
            # R2: the lowest rank dealt to the seat `rotations` places to its right
            ring = [seat for seat in range(n) if hand.dealt_in[seat]]
            owner = ring[(ring.index(s) - hand.rotations) % len(ring)]
            mine.add(min(rank(c) for c in hand.card_texts(owner)))
        assert info["wild_ranks"] == [RANKS[r] for r in sorted(mine)]
        assert info["wild_colours"] == [c for c in ("red", "black") if c in colours]
        assert info["burst_rank"] == (None if burst is None else RANKS[burst])
        # The vector's block is the info's.
        assert ones(raw, vector, "community") == sorted(parse_cards(info["community"]))
        assert ones(raw, vector, "indicators") == sorted(parse_cards(info["indicators"]))
        assert ones(raw, vector, "wild_ranks") == sorted(RANKS.index(r) for r in info["wild_ranks"])
        assert ones(raw, vector, "wild_colours") == sorted(
            ("red", "black").index(c) for c in info["wild_colours"]
        )
        assert ones(raw, vector, "burst_rank") == (
            [] if info["burst_rank"] is None else [RANKS.index(info["burst_rank"])]
        )
        for k in range(n):
            other = (s + k) % n
            assert info["seats"][other]["burst"] == hand.burst[other]
            assert slot(raw, vector, f"seat{k}.burst")[0] == float(hand.burst[other])
            shown = info["seats"][other]["cards"]
            assert ones(raw, vector, f"seat{k}.cards") == sorted(parse_cards(shown or []))
        checked += 1
    return checked


@pytest.mark.parametrize("name", BLOCK_VARIANTS)
def test_variant_block_matches_the_info(name: str) -> None:
    checked = 0
    bursts = 0
    phases: Counter = Counter()
    for seed in range(20):
        rng = np.random.default_rng(seed)
        n = int(rng.integers(3, 8))
        raw = raw_env(rules=Rules.preset(PRESETS[seed % 4], num_players=n, variant=name))
        raw.reset(seed=seed)
        hand = raw.hand

        def check(raw: raw_env = raw, hand: Any = hand) -> None:
            nonlocal checked
            checked += check_variant_block(raw)
            phases[hand.phase] += 1

        play_random_hand(raw, rng, check)
        bursts += any(hand.burst)  # at the deal, or after the phase (B5)
    assert checked > 100
    if VARIANTS[name].burst_rank is not None:
        assert bursts > 0
    phase = VARIANTS[name].phase
    if phase is not None:  # views in the phase and after it
        assert phases[phase] > 20 and phases["betting"] > 20, phases


# --------------------------------------------------------------------- 5. Gymnasium


@pytest.mark.parametrize(
    ("name", "episode"),
    [
        ("all_open", "hand"),
        ("two_burst", "hand"),
        ("two_burst", "session"),
        ("personal_joker", "hand"),
        ("shared_pair", "session"),
        ("open_joker", "hand"),
        ("two_cards_open", "hand"),
        ("muflis", "hand"),
        ("discard_one", "hand"),
        ("shopping", "session"),
        ("passing_cards", "hand"),
    ],
)
def test_gymnasium_check_env(name: str, episode: str) -> None:
    check_env(TeenPattiEnv(rules=Rules(variant=name), episode=episode))
    check_env(gymnasium.make("TeenPatti-v0", rules=Rules(variant=name), episode=episode).unwrapped)


@pytest.mark.parametrize("name", ["all_open", "two_burst", "middle_jokers", "shopping"])
def test_gymnasium_view_plays_whole_hands(name: str) -> None:
    game = TeenPattiEnv(rules=Rules(variant=name), learner_seat="rotate")
    observation, _ = game.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(200):
        assert observation.shape == game.observation_space.shape
        mask = game.action_masks()
        observation, _, terminated, truncated, _ = game.step(int(rng.choice(np.flatnonzero(mask))))
        assert not truncated
        if terminated:
            observation, _ = game.reset()
