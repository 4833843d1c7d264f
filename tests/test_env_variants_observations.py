"""Masks exactly the legal phase actions, by card slot; the observation's size per
variant and its variant block against the info view."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest
from builders.env import PRESETS, decisions, jsonable
from builders.env_variants import (
    BLOCK_VARIANTS,
    PART_TWO_VARIANTS,
    PHASE_ACTIONS,
    PHASE_VARIANTS,
    VARIANT_NAMES,
    agent_seat,
    biased_pick,
    kind_of,
    ones,
    play_random_hand,
    rank,
    slot,
    table_knowledge,
)

from teenpatti_env import Rules, raw_env
from teenpatti_env.cards import RANKS, parse_cards
from teenpatti_env.environment.observation import VARIANT_SLOTS
from teenpatti_env.rules.variants import VARIANTS

# --------------------------------------------------------------------- 3b. phase actions


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
