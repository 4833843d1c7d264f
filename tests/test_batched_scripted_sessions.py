"""The scripted agents' batched forms at session tables (``TableBatch(episode="session")``)
against their per-table selves: every table plays one session beside its per-table twin
(:func:`builders.batched.session_twin`), the per-table agents forget a hand when the
session deals the next (as :func:`agents.loop.play_out` tells them), the batched form
forgets it at the tables dealt a new hand (:func:`agents.batch_agent.new_hands`), and
every decision must agree: the betting, the votes between hands, the selection phases,
at short stacks where seats bust and sit out."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from builders.batched import describe, random_rules, random_stacks, session_twin

from agents import SCRIPTED_AGENTS, make_agent
from agents.batch_agent import new_hands
from agents.batch_scripted import batch_agent
from teenpatti_env.environment.batched import TableBatch
from teenpatti_env.rules import Rules

TABLES = 12
VARIANTS_IN_SESSIONS = ("muflis", "joker", "four_card", "shopping", "passing_cards",
                        "buy_a_joker", "seven_joker_two_burst")
"""A lowball, a wild-card, a four-card, two selection-phase, a joker-buying and a burst
variant (void hands) in sessions."""


def session_rules(rng: np.random.Generator, variant: str = "classic") -> Rules:
    """Random rules of ``variant`` for sessions with a hand limit or a vote, where a bet
    is always legal (``max_bet`` of two boots at least: tests/test_batched_sessions.py)."""
    while True:
        try:
            rules = random_rules(rng).replace(variant=variant)
        except ValueError:  # an override the variant does not take
            continue
        if rules.max_bet is None or rules.max_bet >= 2 * rules.boot:
            break
    return rules.replace(max_hands=int(rng.integers(2, 12)),
                         vote_to_end=bool(rng.random() < 0.4))


def play_sessions_side_by_side(name: str, rules: Rules, seed: int,
                               seen: Counter[str]) -> int:
    """One session at each of ``TABLES`` tables, the batched form of ``name`` in every
    seat beside the per-table agents seeded alike; the decisions compared."""
    rng = np.random.default_rng(seed)
    start = random_stacks(rules, rng) if rng.random() < 0.7 else None
    batch = TableBatch(TABLES, rules, episode="session", autoreset=False, stacks=start)
    seeds = rng.integers(2**31, size=(TABLES, batch.num_seats))
    batched = batch_agent(name, batch, seeds)
    agents = [[make_agent(name, int(seeds[t, s])) for s in range(batch.num_seats)]
              for t in range(TABLES)]
    step = batch.reset(seed=seed)
    starts = [list(batch.stacks)] * TABLES
    entered = np.asarray(starts) >= rules.entry_chips
    envs = [session_twin(batch, t, starts[t]) for t in range(TABLES)]
    hands = [envs[t].hand for t in range(TABLES)]
    compared = 0
    done = np.zeros(TABLES, dtype=np.bool_)
    while not done.all():
        waiting = step.to_act >= 0
        rows = np.flatnonzero(waiting)
        actions = np.zeros(TABLES, dtype=np.int64)
        actions[rows] = batched.act(rows, step.observations[rows], step.action_masks[rows])
        for t in rows.tolist():
            env = envs[t]
            while env.agents and env.terminations[env.agent_selection]:
                env.step(None)  # a seat that left the session
            if env.hand is not hands[t]:  # as play_out tells the per-table agents
                hands[t] = env.hand
                for agent in agents[t]:
                    agent.reset()
            seat_name = env.agent_selection
            seat = env.agent_name_mapping[seat_name]
            assert seat == step.to_act[t], describe(batch, t)
            alone = agents[t][seat].act(step.observations[t], step.action_masks[t],
                                        env.view(seat_name))
            assert alone == actions[t], (
                f"{name}, table {t}, seat {seat}, hand {batch.hands_played[t]}: per table "
                f"{alone}, batched {actions[t]}; hand so far {describe(batch, t)}")
            seen[batch.layout.names[alone]] += 1
            seen["later_hand"] += int(batch.hands_played[t] > 0)
            env.step(alone)
            compared += 1
        before = batch.hands_dealt
        step = batch.step(actions)
        batched.reset(new_hands(batch, before))
        seen["busted_seat_out"] += int(((entered & ~batch.dealt_in).any(axis=1)
                                        & (batch.to_act >= 0)).sum())
        for t in np.flatnonzero(step.finished):
            assert envs[t].session.stacks == batch.session_stacks[t].tolist()
        done |= step.finished
    return compared


@pytest.mark.parametrize("name", sorted(SCRIPTED_AGENTS))
def test_batched_form_decides_as_per_table_in_sessions(name: str) -> None:
    rng = np.random.default_rng(500 + sorted(SCRIPTED_AGENTS).index(name))
    seen: Counter[str] = Counter()
    compared = 0
    for k in range(8):
        compared += play_sessions_side_by_side(name, session_rules(rng), 40 + k, seen)
    for k, variant in enumerate(VARIANTS_IN_SESSIONS):
        compared += play_sessions_side_by_side(name, session_rules(rng, variant), 60 + k,
                                               seen)
    assert compared > 2000
    assert seen["later_hand"] > 1000, seen  # most decisions are after a session's first hand
    assert seen["continue"] > 0, seen  # votes between hands were cast
    assert seen["busted_seat_out"] > 0, seen  # hands played with a busted seat sitting out
