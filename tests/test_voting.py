"""Voting to end a session between hands (VARIANTS.md C3) in the environment."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from builders.env import decisions
from pettingzoo.test import api_test

import teenpatti_env
from teenpatti_env import Rules, raw_env


def finish_hand(env: raw_env) -> None:
    """Pack every turn until the hand is over (the environment then asks for votes)."""
    hand = env.hand
    while env.hand is hand and not env.voters and not hand.over:
        env.step(env.layout.index("pack"))


def test_every_seat_still_in_votes_from_the_next_dealers_left() -> None:
    env = raw_env(rules=Rules(vote_to_end=True), episode="session")
    env.reset(seed=1)
    dealer = env.hand.dealer
    finish_hand(env)
    n = env.rules.num_players
    order = [(dealer + 1 + step) % n for step in range(1, n + 1)]
    assert env.voters == order
    for seat in order:
        agent = env.possible_agents[seat]
        assert env.agent_selection == agent
        mask = env.action_mask(agent)
        assert [env.layout.names[i] for i in np.flatnonzero(mask)] == ["vote_end", "continue"]
        assert env.view(agent)["legal_actions"] == ["vote_end", "continue"]
        for other in env.possible_agents:
            if other != agent:
                assert not env.action_mask(other).any()
        assert env.observe(agent)["observation"][env.obs_layout.size - 1] == 1.0  # vote_now
        env.step(env.layout.index("vote_end"))
    assert all(env.terminations.values())  # everyone voted to end: the session is over
    assert env.session.over and env.session.ended_by_vote


def test_one_continue_deals_the_next_hand_and_votes_lapse() -> None:
    env = raw_env(rules=Rules(vote_to_end=True), episode="session")
    env.reset(seed=2)
    first = env.hand
    finish_hand(env)
    voters = list(env.voters)
    for k, _ in enumerate(voters):
        env.step(env.layout.index("vote_end" if k else "continue"))
    assert env.hand is not first and not env.hand.over
    assert not env.voters
    assert env.session.votes == [False] * env.rules.num_players  # lapsed at the deal
    assert not any(env.terminations.values())


def test_a_vote_is_the_only_legal_move_between_hands() -> None:
    env = raw_env(rules=Rules(vote_to_end=True), episode="session")
    env.reset(seed=3)
    finish_hand(env)
    with pytest.raises(teenpatti_env.IllegalActionError, match="vote_end or continue"):
        env.step(env.layout.index("pack"))
    assert env.layout.names[env.timeout_index()] == "continue"  # C4: a missed vote


def test_no_votes_without_the_setting_or_outside_sessions() -> None:
    assert "vote_end" not in raw_env(rules=Rules()).layout.names
    env = raw_env(rules=Rules(vote_to_end=True), episode="hand")
    env.reset(seed=4)
    finish_hand(env)
    assert all(env.terminations.values()) and not env.voters


@pytest.mark.parametrize("variant", ["classic", "shopping", "buy_a_joker"])
def test_api_test_with_votes(variant: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = teenpatti_env.env(rules=Rules(variant=variant, vote_to_end=True, max_hands=8),
                                episode="session")
        api_test(env, num_cycles=400)


def test_scripted_agents_keep_playing() -> None:
    from agents import make_agent

    env = raw_env(rules=Rules(vote_to_end=True, max_hands=4), episode="session")
    env.reset(seed=5)
    agents = {name: make_agent("hard", seed=k) for k, name in enumerate(env.possible_agents)}
    votes = 0
    for name, observation, info in decisions(env):
        action = agents[name].act(observation["observation"], observation["action_mask"], info)
        if env.voters:
            assert env.layout.names[action] == "continue"
            votes += 1
        env.step(action)
    assert votes >= 3 * 3  # three breaks before the fourth hand, every seat asked
    assert env.session.hands_played == 4
