"""The batched engine against the per-table engine, decision by decision.

Random rule sets of the classic family (every preset, random overrides of every setting,
3-7 seats, short and uneven stacks), given and random deals, random legal actions: at
every step the seat to act, the observation vector, the mask, the pot, the stacks and the
stake agree with ``raw_env`` holding the same deal, and at the end every seat's net
chips, the hands shown and every seat's final observation. A disagreement prints the
hand as a history that ``teenpatti replay`` reads.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from builders.batched import describe, given_deals, random_rules, random_stacks, twin_env

from teenpatti_env.environment.batched import TableBatch

DECISIONS = 100_000
TABLES = 32


def _compare_running(batch: TableBatch, envs: list, t: int, step: object) -> None:
    env = envs[t]
    hand = env.hand
    assert hand.to_act == step.to_act[t], describe(batch, t)
    agent = env.possible_agents[hand.to_act]
    observed = env.observe(agent)
    assert np.array_equal(observed["observation"], step.observations[t]), describe(batch, t)
    assert np.array_equal(observed["action_mask"], step.action_masks[t]), describe(batch, t)
    assert hand.pot == batch.pot[t], describe(batch, t)
    assert hand.stake == batch.stake[t], describe(batch, t)
    assert hand.stacks == batch.stack_chips[t].tolist(), describe(batch, t)


def _compare_finished(batch: TableBatch, envs: list, t: int, rewards: np.ndarray,
                      finals: np.ndarray) -> None:
    hand = envs[t].hand
    assert hand.over, describe(batch, t)
    assert (rewards * batch.rules.boot).astype(np.int64).tolist() == hand.net, describe(batch, t)
    assert sorted(hand.shown) == np.flatnonzero(batch.shown[t]).tolist(), describe(batch, t)
    assert hand.stacks == batch.stack_chips[t].tolist(), describe(batch, t)
    for seat in range(batch.num_seats):
        expected = envs[t].observe(envs[t].possible_agents[seat])["observation"]
        assert np.array_equal(expected, finals[seat][t]), describe(batch, t)


def test_batched_engine_agrees_with_the_engine_at_every_decision() -> None:
    rng = np.random.default_rng(20261201)
    decisions = 0
    seen: Counter[str] = Counter()
    while decisions < DECISIONS:
        rules = random_rules(rng)
        batch = TableBatch(TABLES, rules, autoreset=False,
                           stacks=random_stacks(rules, rng) if rng.random() < 0.5 else None)
        given = given_deals(batch, rng) if rng.random() < 0.5 else None
        step = batch.reset(seed=int(rng.integers(2**32)), options=given)
        envs = [twin_env(batch, t) for t in range(TABLES)]
        seen[f"short_stack={rules.short_stack}"] += 1
        finished_at_deal = step.to_act < 0
        while (step.to_act >= 0).any():
            for t in np.flatnonzero(step.to_act >= 0):
                _compare_running(batch, envs, t, step)
            masks = step.action_masks.astype(bool)
            scores = rng.random(masks.shape) + masks
            actions = scores.argmax(axis=1)
            waiting = step.to_act >= 0
            for t in np.flatnonzero(waiting):
                name = batch.layout.names[actions[t]]
                seen[name if name in ("accept", "refuse", "all_in", "show") else "other"] += 1
                envs[t].step(int(actions[t]))
            decisions += int(waiting.sum())
            step = batch.step(actions)
            done = step.finished
            if done.any():
                finals = [batch.observe(np.full(TABLES, seat)) for seat in range(batch.num_seats)]
                rewards = step.rewards.copy()
                for t in np.flatnonzero(done):
                    _compare_finished(batch, envs, t, rewards[t], finals)
                    hand = envs[t].hand
                    if hand.end == "showdown" and rules.pot_cap is not None and (
                            sum(hand.contributions) >= rules.pot_cap):
                        seen["pot_cap_showdown"] += 1
                    if sum(hand.all_in) >= 2:
                        seen["all_in_levels"] += 1
        for t in np.flatnonzero(finished_at_deal):
            finals = [batch.observe(np.full(TABLES, seat)) for seat in range(batch.num_seats)]
            _compare_finished(batch, envs, t, np.asarray(envs[t].hand.net) / rules.boot, finals)
    # The run reached every rule the issue names.
    for name in ("accept", "refuse", "all_in", "show", "pot_cap_showdown", "all_in_levels",
                 "short_stack=all_in", "short_stack=pack", "short_stack=showdown"):
        assert seen[name] > 0, (name, seen)
