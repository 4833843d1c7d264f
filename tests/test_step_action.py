"""``raw_env.step_action``: an engine action instead of an index (what frontends and
remote bots send), with any legal bet amount."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from teenpatti_env import Rules, raw_env
from teenpatti_env.errors import IllegalActionError


def _seen_turn(seed: int = 0):
    """A classic table where the seat to act has looked, with a wide bet range."""
    env = raw_env(max_bet=None)
    env.reset(seed=seed)
    env.step_action({"type": "look"})
    return env


def test_a_bet_between_the_levels_is_taken_as_sent():
    env = raw_env(raise_multiple=4, bet_levels=2)  # blind range S..4S; indices: 1 and 4
    env.reset(seed=1)
    assert {a["amount"] for a in (env.action_to_engine(env.agent_selection, i)
                                  for i in env.layout.bet_indices)} == {1, 4}
    agent = env.agent_selection
    seat = env.agent_name_mapping[agent]
    hand = env.hand
    low, high = hand.bet_range(seat)
    assert (low, high) == (1, 4)
    env.step_action({"type": "bet", "amount": 3})
    assert hand.contributions[seat] == 1 + 3 and hand.stake == 3
    assert env.agent_selection != agent


def test_an_index_and_its_engine_action_do_the_same():
    rng = np.random.default_rng(5)
    for episode in range(30):
        by_index, by_action = raw_env(), raw_env()
        by_index.reset(seed=episode)
        by_action.reset(seed=episode)
        for agent in by_index.agent_iter():
            observation, _, terminated, truncated, _ = by_index.last()
            if terminated or truncated:
                by_index.step(None)
                by_action.step(None)
                continue
            index = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            action = by_index.action_to_engine(agent, index)
            by_index.step(index)
            by_action.step_action({k: v for k, v in action.items() if k != "seat"})
            assert by_action.hand.all_events() == by_index.hand.all_events()
        assert by_action.rewards == by_index.rewards


@pytest.mark.parametrize("action", [
    {"type": "show"},                      # three seats still in
    {"type": "bet", "amount": 3},          # seen bets are even
    {"type": "bet", "amount": 10_000},
    {"type": "bet"},
    {"type": "dance"},
    {"type": "accept"},
    {"type": "pack", "seat": 3},           # another seat
    {"type": "vote_end"},                  # not between hands
    "pack",
])
def test_an_illegal_action_raises_and_changes_nothing(action):
    env = _seen_turn()
    before = copy.deepcopy(env.hand.all_events()), env.agent_selection, env.view(
        env.agent_selection)
    with pytest.raises(IllegalActionError):
        env.step_action(action)
    after = env.hand.all_events(), env.agent_selection, env.view(env.agent_selection)
    assert after == before


def test_votes_between_hands():
    env = raw_env(rules=Rules.preset("classic").replace(vote_to_end=True), episode="session",
                  max_hands=3)
    env.reset(seed=2)
    while not env.voters:
        legal = {a["type"] for a in env.view(env.agent_selection)["legal"]}
        env.step_action({"type": "pack"} if "pack" in legal else {"type": "refuse"})
    with pytest.raises(IllegalActionError, match="between hands"):
        env.step_action({"type": "pack"})
    with pytest.raises(IllegalActionError):
        env.step_action({"type": "vote_end", "amount": 1})
    voters = len(env.voters)
    for _ in range(voters):
        env.step_action({"type": "vote_end"})
    assert env.session.over
    assert all(env.terminations.values())


def test_a_terminated_agent_is_moved_past_with_step_none():
    env = raw_env()
    env.reset(seed=0)
    while not any(env.terminations.values()):
        legal = {a["type"] for a in env.view(env.agent_selection)["legal"]}
        env.step_action({"type": "pack"} if "pack" in legal else {"type": "refuse"})
    with pytest.raises(IllegalActionError, match="step\\(None\\)"):
        env.step_action({"type": "pack"})
