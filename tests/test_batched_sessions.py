"""Sessions in the batched engine (``TableBatch(episode="session")``) against
``raw_env(episode="session")``, decision by decision, and their invariants; in the
classic family and in every variant the batch plays (void hands of the burst variants
included).

Random rule sets of the classic family with and without ``max_hands`` and
``vote_to_end``, short and uneven stacks so that seats bust and sit out: at every
decision (a vote between hands included) the seat to act, the observation, the mask,
the pot, the stake, the stacks, the dealer and the hands played agree with the per-table
session holding the same deals; every step's rewards are the
nets of the hands the session settled; at the session's end every seat's chips and net,
the last hand's net and cards shown and every seat's final observation agree.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

import numpy as np
import pytest
from builders.batched import (
    describe,
    given_deals,
    random_actions,
    random_rules,
    random_stacks,
    session_twin,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from teenpatti_env.environment.batch_variant import unsupported
from teenpatti_env.environment.batched import TableBatch
from teenpatti_env.errors import IllegalActionError
from teenpatti_env.rules import Rules
from teenpatti_env.rules.variants import VARIANTS

DECISIONS = int(os.environ.get("TEENPATTI_SESSION_DECISIONS", "30000"))
"""Decisions compared (a smaller number for a quick run while developing)."""
TABLES = 16
VARIANT_DECISIONS = 6_000
"""Decisions compared per variant played in sessions."""


def _session_rules(rng: np.random.Generator) -> Rules:
    """Random session rules at which chips can change hands beyond the boots.

    A ``max_bet`` under two boots (a preset's boot of 10 kept beside a drawn ``max_bet`` of
    16) leaves no legal seen bet; with ``max_blind_bets=0`` no blind bet either, so every
    seat looks and packs in turn and the last one takes the boots. Who that is goes round
    the table with the deal, the stacks cycle, and a session without a hand limit never
    ends (seed 863373 found it): a true consequence of such rules, not what this test
    is about."""
    while True:
        rules = random_rules(rng)
        if rules.max_bet is None or rules.max_bet >= 2 * rules.boot:
            break
    limit = None if rng.random() < 0.5 else int(rng.integers(1, 10))
    return rules.replace(max_hands=limit, vote_to_end=bool(rng.random() < 0.3))


def _session_stacks(rules: Rules, rng: np.random.Generator) -> list[int]:
    """Short stacks, so that sessions end by busting within a few dozen hands."""
    while True:
        stacks = random_stacks(rules, rng)
        if max(stacks) <= 12 * rules.boot or rules.max_hands is not None:
            return stacks


def _settled_net(env: Any, reported: list[int], t: int) -> list[int]:
    """The summed net of the hands ``envs[t]``'s session settled since the last call."""
    history = env.session.history
    net = [0] * env.session.num_seats
    for entry in history[reported[t]:]:
        net = [a + b for a, b in zip(net, entry["net"], strict=True)]
    reported[t] = len(history)
    return net


def _skip_departed(env: Any) -> None:
    """Step the agents that left the session (``step(None)``), as PettingZoo asks."""
    while env.agents and env.terminations[env.agent_selection]:
        env.step(None)


def _compare_decision(batch: TableBatch, env: Any, t: int, step: Any) -> None:
    _skip_departed(env)
    hand, session = env.hand, env.session
    agent = env.agent_selection
    assert not env.terminations[agent], describe(batch, t)
    assert env.agent_name_mapping[agent] == step.to_act[t], describe(batch, t)
    if env.voters:  # between hands: the seat asked to vote
        assert env.voters[0] == step.to_act[t] and batch.over[t], describe(batch, t)
    else:
        assert hand.to_act == step.to_act[t] and not batch.over[t], describe(batch, t)
    observed = env.observe(agent)
    assert np.array_equal(observed["observation"], step.observations[t]), describe(batch, t)
    assert np.array_equal(observed["action_mask"], step.action_masks[t]), describe(batch, t)
    assert (hand.pot, hand.stake, hand.dealer) == (
        batch.pot[t], batch.stake[t], batch.dealer[t]), describe(batch, t)
    assert hand.stacks == batch.stack_chips[t].tolist(), describe(batch, t)
    assert session.hands_played == batch.hands_played[t], describe(batch, t)


def _compare_end(batch: TableBatch, env: Any, t: int, start: list[int]) -> None:
    session, hand = env.session, env.hand
    assert session.over and all(env.terminations.values()), describe(batch, t)
    assert session.stacks == batch.session_stacks[t].tolist(), describe(batch, t)
    assert [a - b for a, b in zip(session.stacks, start, strict=True)] == (
        batch.session_net[t].tolist()), describe(batch, t)
    assert hand.net == batch.net[t].tolist(), describe(batch, t)
    assert sorted(hand.shown) == np.flatnonzero(batch.shown[t]).tolist(), describe(batch, t)
    for seat, agent in enumerate(env.possible_agents):
        final = batch.observe(np.full(batch.num_tables, seat))[t]
        assert np.array_equal(env.observe(agent)["observation"], final), describe(batch, t)


def _count_end(seen: Counter[str], batch: TableBatch, t: int, env: Any) -> None:
    rules = batch.rules
    left = int((batch.session_stacks[t] >= rules.entry_chips).sum())
    if env.session.ended_by_vote and left > 1:
        seen["ended_by_vote"] += 1
    elif left <= 1:
        seen["ended_by_busting"] += 1
    else:
        assert batch.hands_played[t] == rules.max_hands, describe(batch, t)
        seen["ended_by_max_hands"] += 1


def _play_sessions(rules: Rules, rng: np.random.Generator, seen: Counter[str]) -> int:
    """One session at every table of a batch of ``rules`` beside its per-table twin,
    compared at every decision and at every end; the decisions played."""
    decisions = 0
    batch = TableBatch(TABLES, rules, episode="session", autoreset=False,
                       stacks=_session_stacks(rules, rng))
    options = given_deals(batch, rng) if rng.random() < 0.5 else None
    if options is not None and rules.max_hands is None:  # short, as above
        options["stacks"] = [[min(c, 12 * rules.boot) for c in row]
                             for row in options["stacks"]]
    step = batch.reset(seed=int(rng.integers(2**32)), options=options)
    starts = options["stacks"] if options else [list(batch.stacks)] * TABLES
    entered = np.array(starts) >= rules.entry_chips
    envs = [session_twin(batch, t, starts[t]) for t in range(TABLES)]
    reported = [0] * TABLES
    done = np.zeros(TABLES, dtype=np.bool_)
    seen["deal_ended_first_hand"] += int((step.to_act < 0).sum())
    while not done.all():
        waiting = step.to_act >= 0
        seen["vote"] += int((waiting & batch.over).sum())  # between hands
        for t in np.flatnonzero(waiting):
            _compare_decision(batch, envs[t], t, step)
        actions = random_actions(step, rng)
        for t in np.flatnonzero(waiting):
            envs[t].step(int(actions[t]))
        decisions += int(waiting.sum())
        step = batch.step(actions)
        for t in np.flatnonzero(~done):
            net = _settled_net(envs[t], reported, t)
            rewards = np.rint(step.rewards[t] * rules.boot).astype(np.int64)
            assert rewards.tolist() == net, describe(batch, t)
        for t in np.flatnonzero(step.finished):
            _compare_end(batch, envs[t], t, starts[t])
            _count_end(seen, batch, t, envs[t])
            seen["void_hands"] += sum(entry["end"] == "void"
                                      for entry in envs[t].session.history)
        assert not (done & step.finished).any()  # a session ends once
        done |= step.finished
        # A seat that entered the session busted and sits out while it goes on.
        sitting_out = (entered & ~batch.dealt_in).any(axis=1) & (batch.to_act >= 0)
        seen["hand_with_busted_seat_out"] += int(sitting_out.sum())
    return decisions


def test_batched_sessions_agree_with_the_environment_at_every_decision() -> None:
    rng = np.random.default_rng(20261202)
    decisions = 0
    seen: Counter[str] = Counter()
    while decisions < DECISIONS:
        decisions += _play_sessions(_session_rules(rng), rng, seen)
    for name in ("ended_by_busting", "ended_by_max_hands", "ended_by_vote", "vote",
                 "hand_with_busted_seat_out", "deal_ended_first_hand"):
        assert seen[name] > 0, (name, seen)


@pytest.mark.parametrize("name", sorted(
    name for name in VARIANTS if name != "classic" and unsupported(Rules(variant=name)) is None))
def test_variant_sessions_agree_with_the_environment_at_every_decision(name: str) -> None:
    rng = np.random.default_rng(sum(name.encode()))
    decisions = 0
    seen: Counter[str] = Counter()
    while decisions < VARIANT_DECISIONS:
        decisions += _play_sessions(_session_rules(rng).replace(variant=name), rng, seen)
    for ending in ("ended_by_busting", "hand_with_busted_seat_out"):
        assert seen[ending] > 0, (ending, seen)
    if Rules(variant=name).spec.burst_rank is not None:
        assert seen["void_hands"] > 0, seen


def test_session_autoreset_starts_a_new_session_and_rewards_sum_to_the_net() -> None:
    batch = TableBatch(32, "classic", num_players=3, episode="session", stacks=[4, 4, 4],
                       seed=3)
    step = batch.reset()
    rng = np.random.default_rng(3)
    totals = np.zeros((32, 3))
    ended = 0
    for _ in range(400):
        assert step.action_masks.any(axis=1).all()  # autoreset: every table waits
        step = batch.step(random_actions(step, rng))
        totals += step.rewards
        for t in np.flatnonzero(step.finished):
            assert totals[t].sum() == pytest.approx(0)
            assert (totals[t] >= -4).all() and totals[t].max() > 0
            totals[t] = 0
            ended += 1
            assert batch.hands_played[t] == 0  # a new session at that table
            assert batch.session_stacks[t].tolist() == [4, 4, 4]
    assert ended > 0


def test_hand_episodes_are_unchanged_by_the_session_setting() -> None:
    """``max_hands`` plays no part in hand episodes, and the session slots stay zero."""
    rules = Rules.preset("flash", num_players=3)  # max_hands=5
    batch = TableBatch(8, rules, seed=1)
    step = batch.reset()
    played = batch.obs_layout.slots[7]
    assert played[0] == "hands_played"
    for _ in range(40):
        step = batch.step(step.action_masks.argmax(axis=1))  # everyone packs
        assert not step.observations[:, played[1]:played[1] + 3].any()
    assert (batch.hands_dealt > 5).all()


def test_votes_between_hands_end_the_session_or_deal_the_next_hand() -> None:
    """C3: after each hand every seat still in votes, from the next dealer's left; one
    ``continue`` deals the next hand, all ``vote_end`` end the session."""
    batch = TableBatch(2, "classic", num_players=3, episode="session", vote_to_end=True,
                       autoreset=False)
    layout = batch.layout
    step = batch.reset(seed=0, options={"cards": [[["As", "Ad", "Ah"], ["2c", "3d", "5h"],
                                                   ["7c", "8d", "Ts"]]] * 2, "dealer": 0})
    packs = np.full(2, layout.index("pack"))
    for _ in range(2):  # seats 1 and 2 pack: seat 0 wins the first hand
        step = batch.step(packs)
    assert batch.over.all() and (batch.hands_played == 1).all()
    assert step.rewards[0].tolist() == [2.0, -1.0, -1.0]
    voters = []
    for answer in ("vote_end", "vote_end", "vote_end"):
        voters.append(int(step.to_act[0]))
        allowed = [layout.names[i] for i in np.flatnonzero(step.action_masks[0])]
        assert allowed == ["vote_end", "continue"]
        with pytest.raises(IllegalActionError, match="between hands only vote_end"):
            batch.step(packs)
        choice = np.array([layout.index(answer), layout.index("continue")])
        step = batch.step(choice)
    assert voters == [2, 0, 1]  # the next dealer is seat 1: from its left, seat 1 last
    assert step.finished.tolist() == [True, False]  # everyone voted to end at table 0
    assert batch.hands_played.tolist() == [1, 1] and not batch.over[1]  # table 1 plays on
    assert batch.dealer[1] == 1


def test_a_bad_episode_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="episode must be 'hand' or 'session'"):
        TableBatch(2, episode="tournament")


# ----------------------------------------------------------------- invariants


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_session_chips_are_conserved_and_every_session_ends(seed: int) -> None:
    rng = np.random.default_rng(seed)
    rules = _session_rules(rng)
    stacks = _session_stacks(rules, rng)
    batch = TableBatch(16, rules, episode="session", stacks=stacks, autoreset=False)
    step = batch.reset(seed=seed)
    total = sum(stacks)
    rewards = np.zeros((16, rules.num_players))
    done = np.zeros(16, dtype=np.bool_)
    # Each hand moves at least a boot from a seat that loses it (or ties, which random
    # play rarely repeats): a session of these stacks ends well within this bound.
    for _ in range(20_000):
        sitting_out = np.where(batch.dealt_in, 0, batch.session_stacks).sum(axis=1)
        chips = batch.stack_chips.sum(axis=1) + batch.pot + sitting_out
        assert (chips[~done] == total).all()
        if done.all():
            break
        step = batch.step(random_actions(step, rng))
        rewards += step.rewards
        done |= step.finished
    assert done.all()
    assert (batch.session_stacks.sum(axis=1) == total).all()
    assert np.allclose(rewards * rules.boot, batch.session_net)
    assert (batch.session_net.sum(axis=1) == 0).all()
