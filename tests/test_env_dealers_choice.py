"""Dealer's choice (VARIANTS.md C1, H3) through the environment: the PettingZoo API and
seed tests, 10,000 random hands, twin tables that differ only in cards a seat cannot see,
and a choice that is public for the whole hand."""

from __future__ import annotations

import os
import warnings
from typing import Any

import numpy as np
import pytest
from builders.env import decisions, live, pick, same_view
from pettingzoo.test import api_test, seed_test

import teenpatti_env
from teenpatti_env import Rules, raw_env
from teenpatti_env.cards import DECK, format_cards
from teenpatti_env.rules.variants import VARIANTS

CHOICES = ["ak47", "open_joker", "colour_jokers", "shopping", "buy_a_joker", "muflis",
           "discard_one", "rotating_jokers", "joker_thresholds", "passing_cards", "shared_pair"]
RULES = Rules(dealers_choice=CHOICES)
HANDS = int(os.environ.get("TEENPATTI_VARIANT_HANDS", "10000"))


@pytest.mark.parametrize("episode", ["hand", "session"])
def test_api_and_seed_tests(episode: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(teenpatti_env.env(rules=RULES, episode=episode), num_cycles=500)
        seed_test(lambda: teenpatti_env.env(rules=RULES, episode=episode), num_cycles=200)


def test_random_hands_through_env() -> None:
    """Every hand: the dealer chooses first, the choice is public, play ends with chips
    conserved and every mask exact for the chosen variant."""
    env = teenpatti_env.env(rules=RULES)
    raw = env.unwrapped
    rng = np.random.default_rng(0)
    chosen: set[str] = set()
    for number in range(HANDS):
        env.reset(seed=number)
        hand = raw.hand
        assert hand.choosing and raw.agent_selection == raw.possible_agents[hand.dealer]
        assert hand.pot == 0  # the boots come after the choice
        for agent, observation, _ in decisions(env):
            mask = observation["action_mask"]
            if number % 50 == 0:  # the mask is exact: each index decodes to a legal action
                for index in range(raw.layout.size):
                    action = raw.action_to_engine(agent, index)
                    assert bool(mask[index]) == raw.hand.is_legal(action), (index, action)
            env.step(pick(mask, rng))
        hand = raw.hand
        assert not hand.choosing and hand.over
        chosen.add(hand.rules.spec.name)
        assert sum(hand.net) == 0
        for agent in raw.agents:  # the choice is public
            assert raw.view(agent)["variant"] == hand.rules.spec.name
    assert chosen == set(CHOICES) if HANDS >= 1000 else chosen


def deal_for(name: str, n: int, rng: np.random.Generator) -> dict[str, Any]:
    """A random deal of ``name`` for ``n`` seats (dealer 0), with the rest as ``deck``."""
    spec = VARIANTS[name]
    cards = format_cards([DECK[i] for i in rng.permutation(52)])
    counts = [spec.private_cards] * n
    if spec.phase == "passing":
        counts[1] += 3
    at = 0
    seats = []
    for count in counts:
        seats.append(cards[at : at + count])
        at += count
    community = cards[at : at + spec.community_cards]
    at += spec.community_cards
    indicators = cards[at : at + spec.indicator_count]
    at += spec.indicator_count
    options: dict[str, Any] = {"dealer": 0, "cards": seats, "deck": cards[at:]}
    if community:
        options["community"] = community
    if indicators:
        options["indicators"] = indicators
    return options


@pytest.mark.parametrize("seed", range(40))
def test_twin_tables_look_the_same_to_a_seat(seed: int) -> None:
    """Two tables that differ only in one other seat's private cards (swapped with the
    bottom of the deck) look the same to the observer until cards are compared."""
    rng = np.random.default_rng(seed)
    # Not passing (other seats' cards reach the observer) nor rotating jokers (R2, R3: a
    # seat's wild rank becomes the lowest rank another seat was dealt, and it sees it).
    names = [c for c in CHOICES if c not in ("passing_cards", "rotating_jokers")]
    name = names[seed % len(names)]
    n = 4
    options = deal_for(name, n, rng)
    observer = int(rng.integers(n))
    other = (observer + 1 + int(rng.integers(n - 1))) % n
    twin = {**options, "cards": [list(c) for c in options["cards"]],
            "deck": list(options["deck"])}
    count = len(twin["cards"][other])
    twin["cards"][other], twin["deck"][-count:] = twin["deck"][-count:], twin["cards"][other]
    a, b = raw_env(rules=RULES), raw_env(rules=RULES)
    a.reset(seed=seed, options=options)
    b.reset(seed=seed, options=twin)
    agent = a.possible_agents[observer]
    spec = VARIANTS[name]
    choice = f"choose_{name}" + ("_7" if spec.chooses == "rank" else "_red"
                                 if spec.chooses == "colour" else "")
    compared = 0
    for step in range(200):
        if any(e["type"] in ("sideshow_result", "reveal") for e in a.hand.public_events()):
            break  # cards were compared: the tables may differ from here
        same_view(a, b, agent, f"{name} step {step}")
        compared += 1
        if a.hand.over:
            break
        acting = a.agent_selection
        if not live(a, acting):
            break
        mask = a.action_mask(acting)
        index = a.layout.index(choice) if a.hand.choosing else pick(mask, rng)
        if not b.action_mask(acting)[index]:
            break  # the tables diverged where the acting seat knows its own cards
        a.step(index)
        b.step(index)
    assert compared >= 2


def test_table_talk_tells_part_two_moves_without_secret_cards() -> None:
    """render.describe_event narrates every part-2 move; the secret ones name no card."""
    import re

    from teenpatti_env.environment.render import describe_event

    card = re.compile(r"\b[2-9TJQKA][cdhs]\b")
    rng = np.random.default_rng(3)
    told: set[str] = set()
    for variant in ("passing_cards", "shopping", "buy_a_joker", "joker_thresholds",
                    "rotating_jokers", "discard_one"):
        env = teenpatti_env.env(rules=Rules(variant=variant))
        raw = env.unwrapped
        for number in range(30):
            env.reset(seed=number)
            for _, observation, _ in decisions(env):
                env.step(pick(observation["action_mask"], rng))
            for event in raw.hand.public_events():
                line = describe_event(event)
                if event["type"] in ("discard", "draw", "keep", "pass", "buy_joker", "phase",
                                     "rotate", "indicators_up"):
                    assert line, event
                    told.add(event["type"])
                if event["type"] in ("discard", "draw", "keep", "pass", "buy_joker"):
                    assert not card.search(line), line  # P8, J2: the cards stay secret
    env = teenpatti_env.env(rules=RULES)
    env.reset(seed=0)
    lines = [describe_event(e) for e in env.unwrapped.hand.public_events()]
    assert any(line and "chooses among" in line for line in lines)
    assert told >= {"discard", "draw", "keep", "pass", "buy_joker", "phase", "rotate"}
