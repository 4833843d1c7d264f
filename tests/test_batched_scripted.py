"""The scripted agents' batched forms (agents/batch_scripted.py) against their per-table
selves: both play the same deals side by side and every decision must agree."""

from __future__ import annotations

import numpy as np
import pytest
from builders.batched import describe, random_rules, random_stacks

from agents import SCRIPTED_AGENTS, make_agent
from agents.arena import run_arena
from agents.batch_scripted import batch_agent
from agents.odds import HandOdds
from teenpatti_env.environment.aec import raw_env
from teenpatti_env.environment.batched import TableBatch
from teenpatti_env.rules import Rules
from training.target_tables import OneSeatBatch


def play_side_by_side(name: str, rules: Rules, tables: int, hands: int, seed: int,
                      stacks: list[int] | None = None) -> int:
    """``hands`` rounds of hands at ``tables`` tables; at every decision the batched form
    and the per-table agent of that table and seat (seeded alike) must choose the same
    action. Returns the number of decisions compared."""
    batch = TableBatch(tables, rules, autoreset=False, stacks=stacks)
    envs = [raw_env(rules=batch.rules, bet_levels=batch.layout.bet_levels)
            for _ in range(tables)]
    seeds = np.random.default_rng(seed).integers(2**31, size=(hands, tables, batch.num_seats))
    compared = 0
    step = batch.reset(seed=seed)
    for h in range(hands):
        if h:
            step = batch.redeal(np.ones(tables, dtype=np.bool_))
        batched = batch_agent(name, batch, seeds[h])
        agents = [[make_agent(name, int(seeds[h, t, s])) for s in range(batch.num_seats)]
                  for t in range(tables)]
        for t, env in enumerate(envs):
            hand = batch.hand(t)
            env.reset(options={"cards": hand.cards, "dealer": hand.dealer,
                               "stacks": batch.hand_stacks[t].tolist(),
                               **hand.table_cards()})
        while (step.to_act >= 0).any():
            rows = np.flatnonzero(step.to_act >= 0)
            actions = np.zeros(tables, dtype=np.int64)
            actions[rows] = batched.act(rows, step.observations[rows], step.action_masks[rows])
            for t in rows.tolist():
                env = envs[t]
                seat_name = env.agent_selection
                seat = env.agent_name_mapping[seat_name]
                assert seat == step.to_act[t]
                # the batched engine's mask equals the env's (tests/test_batched*.py)
                alone = agents[t][seat].act(step.observations[t], step.action_masks[t],
                                            env.view(seat_name))
                assert alone == actions[t], (
                    f"{name}, table {t}, seat {seat}: per table {alone}, batched "
                    f"{actions[t]}; hand so far {describe(batch, t)}")
                env.step(alone)
                compared += 1
            step = batch.step(actions)
        for t, env in enumerate(envs):
            assert env.hand.net == batch.net[t].tolist()
    return compared


@pytest.mark.parametrize("name", sorted(SCRIPTED_AGENTS))
def test_batched_form_decides_as_per_table_over_rule_sets(name: str) -> None:
    rng = np.random.default_rng(sorted(SCRIPTED_AGENTS).index(name))
    compared = play_side_by_side(name, Rules.preset("classic"), 40, 2, seed=1)
    for k in range(6):
        rules = random_rules(rng)
        compared += play_side_by_side(name, rules, 16, 2, seed=10 + k,
                                      stacks=random_stacks(rules, rng))
    assert compared > 1000


@pytest.mark.long
@pytest.mark.parametrize("name", sorted(SCRIPTED_AGENTS))
def test_batched_form_decides_as_per_table_over_50000_decisions(name: str) -> None:
    compared, k = 0, 0
    rng = np.random.default_rng(100 + sorted(SCRIPTED_AGENTS).index(name))
    while compared < 50_000:
        if k % 2:
            rules = random_rules(rng)
            compared += play_side_by_side(name, rules, 100, 4, seed=k,
                                          stacks=random_stacks(rules, rng))
        else:
            compared += play_side_by_side(name, Rules.preset("classic"), 100, 8, seed=k)
        k += 1
    assert compared >= 50_000


def test_percentile_table_is_the_hand_by_hand_percentile() -> None:
    rng = np.random.default_rng(3)
    for best_sequence, lowball in (("AKQ", False), ("A23", True)):
        odds = HandOdds(best_sequence, lowball)
        table = odds.percentiles()
        for _ in range(200):
            a, b, c = (int(x) for x in rng.choice(52, 3, replace=False))
            assert table[a * 2704 + b * 52 + c] == odds.percentile([a, b, c], ())
            assert table[c * 2704 + a * 52 + b] == odds.percentile([a, b, c], ())


@pytest.mark.parametrize(("agents", "table"), [(["random", "easy", "medium"], "field"),
                                              (["hard", "equity"], "2v2"),
                                              (["auto", "equity"], "1vN")])
def test_arena_with_scripted_agents_gives_the_same_report_on_both_engines(
        agents: list[str], table: str) -> None:
    batched = run_arena(agents, hands=160, seed=5, table=table, engine="batched")
    per_table = run_arena(agents, hands=160, seed=5, table=table, engine="per_table")
    assert batched.to_dict() == per_table.to_dict()


def test_one_seat_batch_reports_only_the_learners_hands() -> None:
    tables = OneSeatBatch(32, Rules.preset("classic"), "hard", seed=2)
    step = tables.reset()
    hands, total = 0, 0.0
    for _ in range(200):
        waiting = step.to_act >= 0
        # the learner always packs: it loses exactly what it paid, never wins
        step = tables.step(np.where(waiting, step.action_masks.argmax(axis=1), 0))
        hands += int(step.finished.sum())
        total += float(step.rewards[step.finished, 0].sum())
        assert (step.rewards[step.finished, 0] < 0).all()
        assert (step.rewards[~step.finished] == 0).all()
    assert hands > 100
    seats = tables.learner
    assert len(set(seats.tolist())) == tables.batch.num_seats
