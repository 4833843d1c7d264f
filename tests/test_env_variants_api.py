"""The environment in every named variant: PettingZoo's API and seed tests (both
episode modes, the bare ``raw_env`` for a few), random hands (zero-sum rewards, every
episode ends, the phase played) and Gymnasium's ``check_env`` on the single-agent view.

The random-hands test plays 10,000 hands per variant (about 14 s each on the 2-core
machine, 5 to 6 minutes in all); ``TEENPATTI_VARIANT_HANDS=500`` shortens it for a quick
run."""

from __future__ import annotations

import functools
from collections import Counter

import gymnasium
import numpy as np
import pytest
from builders.env_variants import (
    EPISODES,
    PHASE_ACTIONS,
    RANDOM_HANDS,
    VARIANT_NAMES,
    biased_pick,
    ignore_unknown_options,
    kind_of,
)
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from teenpatti_env import Rules, TeenPattiEnv, env, raw_env
from teenpatti_env.rules.variants import VARIANTS

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
