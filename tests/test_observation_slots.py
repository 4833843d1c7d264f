"""The own cards slot by slot (``my_slots``) and what each discard leaves
(``my_discards``): observation layout version 2.

Where a variant's actions name a card by its hand slot (``discard_k``, ``pass_a_b_c``,
``buy_joker_k``), the observation says which card each slot holds, so that a network can
tell which card an action throws, and where a discard throws one of four, the strength
each discard would leave; every other layout is unchanged, and a version-1 policy file
still loads and makes the choices it made on the version-1 vector.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agents.policy import NumpyPolicy, read_policy
from agents.policy_files import policy_metadata
from teenpatti_env import Rules, raw_env
from teenpatti_env.cards import NUM_CARDS, parse_cards
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.environment.observation import (
    DISCARDS_NAME,
    OBSERVATION_VERSION,
    SLOTS_NAME,
    ObservationLayout,
    version_1_size,
)
from teenpatti_env.rules.variants import VARIANTS

SLOT_VARIANTS = ("discard_one", "shopping", "passing_cards", "buy_a_joker")


def slots_block(layout: ObservationLayout, block: str = SLOTS_NAME) -> tuple[int, int]:
    """Offset and width of the layout's ``my_slots`` (or another named) block."""
    return next((offset, width) for name, offset, width, _ in layout.slots
                if name == block)


def decisions(raw: Any, seeds: Iterable[int]) -> Iterator[tuple[str, np.random.Generator]]:
    """Every decision of the hands dealt from ``seeds``: the agent to act and the hand's
    generator (the caller steps ``raw``)."""
    for seed in seeds:
        raw.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while raw.agents:
            agent = raw.agent_selection
            if raw.terminations[agent] or raw.truncations[agent]:
                raw.step(None)
                continue
            yield agent, rng


@pytest.mark.parametrize("variant", SLOT_VARIANTS)
def test_my_slots_holds_the_card_each_slot_action_names(variant: str) -> None:
    rules = Rules.preset("classic", variant=variant, num_players=4)
    raw = raw_env(rules=rules)
    at, width = slots_block(raw.obs_layout)
    named = 0
    for agent, rng in decisions(raw, range(12)):
        block = raw.observe(agent)["observation"][at:at + width].reshape(-1, NUM_CARDS)
        own = parse_cards(raw.view(agent)["cards"] or [])
        expected = np.zeros_like(block)
        for slot, card in enumerate(own):
            expected[slot, card] = 1.0
        np.testing.assert_array_equal(block, expected)
        mask = raw.action_mask(agent)
        action = int(rng.choice(np.flatnonzero(mask)))
        kind, *slots = raw.action_meanings[action].split("_")
        if kind in ("discard", "pass", "buy"):
            engine = raw.action_to_engine(agent, action)
            cards = engine.get("cards") or [engine["card"]]
            by_block = [int(np.flatnonzero(block[int(k)])[0])
                        for k in slots if k.isdigit()]
            assert list(parse_cards(cards)) == by_block
            named += 1
        raw.step(action)
    assert named > 0


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_only_layouts_whose_actions_name_slots_changed(variant: str) -> None:
    rules = Rules.preset("classic", variant=variant, num_players=4)
    layout = ObservationLayout(rules)
    names_slots = any(name.startswith(("discard_", "pass_", "buy_joker_"))
                      for name in ActionLayout(rules).names)
    assert (version_1_size(rules) < layout.size) == names_slots
    if names_slots:
        at, width = slots_block(layout)
        assert at == version_1_size(rules)
        discards = ActionLayout(rules).names.count("discard_0") and width // NUM_CARDS
        assert at + width + discards == layout.size
        if discards:
            assert slots_block(layout, DISCARDS_NAME) == (at + width, discards)


@pytest.mark.parametrize("variant", ["discard_one", "shopping"])
def test_my_discards_holds_the_strength_each_discard_leaves(variant: str) -> None:
    rules = Rules.preset("classic", variant=variant, num_players=4)
    raw = raw_env(rules=rules)
    at, width = slots_block(raw.obs_layout, DISCARDS_NAME)
    checked = 0
    for agent, rng in decisions(raw, range(30)):
        left = raw.observe(agent)["observation"][at:at + width]
        view = raw.view(agent)
        holds_four = view["cards"] is not None and len(view["cards"]) == 4
        if holds_four:
            assert view["discard_strengths"] == pytest.approx(left.tolist(), abs=1e-6)
        else:
            assert view["discard_strengths"] is None and not left.any()
        action = int(rng.choice(np.flatnonzero(raw.action_mask(agent))))
        name = raw.action_meanings[action]
        raw.step(action)
        if name.startswith("discard_"):
            # the hand the discard left is worth what the slot said
            after = raw.view(agent)["strength"]
            assert after == pytest.approx(float(left[int(name.split("_")[1])]), abs=1e-6)
            checked += 1
    assert checked > 20
    with pytest.raises(ValueError, match="seat"):
        raw.hand.values_after_discard(rules.num_players)


def test_a_version_1_policy_file_chooses_as_it_did(tmp_path: Path) -> None:
    rules = Rules.preset("classic", variant="shopping", num_players=4)
    names = ActionLayout(rules).names
    rng = np.random.default_rng(5)
    old_size = version_1_size(rules)
    weights = [rng.normal(0, 0.2, (old_size, 16)).astype(np.float32),
                rng.normal(0, 0.2, (16, len(names))).astype(np.float32)]
    biases = [rng.normal(0, 0.1, 16).astype(np.float32),
              rng.normal(0, 0.1, len(names)).astype(np.float32)]
    metadata = {**policy_metadata(rules, names, "tanh"), "observation_version": 1}
    path = NumpyPolicy(weights, biases, metadata).save(tmp_path / "old.npz")

    policy = read_policy(path)
    assert policy.metadata["observation_version"] == OBSERVATION_VERSION
    assert policy.fits(rules)
    raw = raw_env(rules=rules)
    compared = 0
    for seed in range(4):
        raw.reset(seed=seed)
        while raw.agents:
            agent = raw.agent_selection
            if raw.terminations[agent] or raw.truncations[agent]:
                raw.step(None)
                continue
            observation = raw.observe(agent)["observation"]
            head = observation[:old_size].astype(np.float64)
            expected = (np.tanh(head @ weights[0].astype(np.float64) + biases[0])
                        @ weights[1].astype(np.float64) + biases[1])
            np.testing.assert_allclose(policy.logits(observation), expected, rtol=0, atol=1e-9)
            compared += 1
            raw.step(int(np.flatnonzero(raw.action_mask(agent))[0]))
    assert compared > 0
