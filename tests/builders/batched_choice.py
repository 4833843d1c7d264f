"""Builders for the dealer's choice tests of the batched engine: a ``raw_env`` twin per
table that follows the batch through the dealer's choice (a hand, or a whole session).

A batch deals a dealer's choice hand once the dealer has chosen, from its own random
streams; the twin's hand waits for the same choice with no deal of its own, and is given
the batch's deal (as a history's deal waiting for the choice, C1) just before the twin
applies the same choice. Everything else is compared as ``play_against_twins`` does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from builders.batched import (
    _compare_finished,
    _compare_running,
    describe,
    follow_reshuffle,
    random_actions,
)
from teenpatti_env.environment import batch_kernels as k
from teenpatti_env.environment.aec import raw_env
from teenpatti_env.environment.batch_phase import table_deal
from teenpatti_env.environment.batched import TableBatch


def choosing(batch: TableBatch) -> Any:
    """Which tables wait for the dealer's choice."""
    tab = batch.arrays.tab
    return (tab[:, k.CHOICE] == k.NONE) & (tab[:, k.TO_ACT] != k.NONE) & (
        tab[:, k.END] == k.RUNNING)


class ShadowChoice:
    """Copies of the tables' random streams and decks taken before a step: they deal the
    variant each table's dealer chooses in that step card for card as the batch does (the
    batch's own dealing kernel on the copy), whatever the step then does with the hand
    (a hand that ends at its deal is settled, and a session's next hand laid out, in the
    same step)."""

    def __init__(self, batch: TableBatch) -> None:
        self.batch = batch
        self.tab, self.seat = batch._tab.copy(), batch._seat.copy()
        self.deck, self.rng = batch._deck.copy(), batch._rng.copy()

    def deal(self, table: int, action: int) -> dict[str, Any]:
        """The deal ``action`` (a choice) makes at ``table``: a history's deal fields."""
        batch, t = self.batch, table
        choices = batch._choices
        assert choices is not None
        row = batch._rows[choices.row[action]]
        tab, seat = self.tab[t:t + 1].copy(), self.seat[t:t + 1].copy()
        deck, rng = self.deck[t:t + 1].copy(), self.rng[t:t + 1].copy()
        tab[0, k.CHOSEN_RANK] = choices.rank[action]
        tab[0, k.CHOSEN_COLOUR] = choices.colour[action]
        known = np.zeros((1, batch.num_seats, batch.num_seats), dtype=np.uint8)
        k.deal_chosen(row.params, tab, seat, known, deck, rng, row.values,
                      np.ones(1, dtype=np.bool_))
        cards, fields = table_deal(row.rules, seat[0], tab[0], deck[0], [])
        fields.pop("chosen", None)  # named by the choice (H3)
        return {"cards": cards, **fields}


def give_deal(env: Any, deal: dict[str, Any]) -> None:
    """Give the twin's hand, waiting for the dealer's choice with no deal of its own, the
    batch's ``deal`` (as a history's deal waiting for the choice)."""
    hand = env.hand
    assert hand.choosing
    hand._pending = {"cards": deal["cards"], "community": deal.get("community"),
                     "indicators": deal.get("indicators"), "deck": deal.get("deck"),
                     "reshuffles": None}


def play_choice_against_twins(batch: TableBatch, rng: np.random.Generator, seed: int,
                              seen: Any, envs: list[Any]) -> int:
    """Play one hand at every table of ``batch`` (dealer's choice, ``autoreset=False``)
    with random legal actions beside the ``raw_env`` twins ``envs`` (one per table),
    comparing at every decision (the dealer's choice first) the seat to act, the
    observation, the mask, the pot, the stake and the stacks, and at the end every seat's
    net, the hands shown and every final observation. ``seen`` counts the actions by
    name and the variants chosen (``variant=<name>``). Returns the decisions played."""
    step = batch.reset(seed=seed)
    for t, env in enumerate(envs):
        env.reset(options={"dealer": int(batch.dealer[t]),
                           "stacks": batch.hand_stacks[t].tolist()})
    played = 0
    names = [str(spec.name) for spec in batch.rules.choice_specs]
    while (step.to_act >= 0).any():
        waiting = step.to_act >= 0
        deciding = choosing(batch)
        for t in np.flatnonzero(waiting):
            _compare_running(batch, envs, t, step)
        actions = random_actions(step, rng)
        shadow = ShadowChoice(batch)
        step = batch.step(actions)
        for t in np.flatnonzero(waiting):
            seen[batch.layout.names[actions[t]]] += 1
            if deciding[t]:
                seen["variant=" + names[batch.arrays.tab[t, k.CHOICE]]] += 1
                deal = shadow.deal(t, actions[t])
                dealt = [None if c is None else list(c) for c in batch.hand(t).cards]
                assert dealt == deal["cards"], describe(batch, t)
                give_deal(envs[t], deal)
            elif batch.layout.names[actions[t]] == "draw":
                follow_reshuffle(batch, envs[t], t)
            envs[t].step(int(actions[t]))
        played += int(waiting.sum())
        if step.finished.any():
            finals = [batch.observe(np.full(batch.num_tables, seat))
                      for seat in range(batch.num_seats)]
            rewards = step.rewards.copy()
            for t in np.flatnonzero(step.finished):
                _compare_finished(batch, envs, t, rewards[t], finals)
                seen[f"end={envs[t].hand.end}"] += 1
    return played


def _compare_session_decision(batch: TableBatch, env: Any, t: int, step: Any) -> None:
    while env.agents and env.terminations[env.agent_selection]:
        env.step(None)  # the agents that left the session, as PettingZoo asks
    agent = env.agent_selection
    assert env.agent_name_mapping[agent] == step.to_act[t], describe(batch, t)
    if env.voters:  # between hands: the seat asked to vote
        assert env.voters[0] == step.to_act[t] and batch.over[t], describe(batch, t)
    observed = env.observe(agent)
    assert np.array_equal(observed["observation"], step.observations[t]), describe(batch, t)
    assert np.array_equal(observed["action_mask"], step.action_masks[t]), describe(batch, t)
    hand = env.hand
    assert (hand.pot, hand.stake, hand.dealer) == (
        batch.pot[t], batch.stake[t], batch.dealer[t]), describe(batch, t)
    assert hand.stacks == batch.stack_chips[t].tolist(), describe(batch, t)
    assert env.session.hands_played == batch.hands_played[t], describe(batch, t)


def play_choice_sessions(batch: TableBatch, rng: np.random.Generator, seen: Any,
                         starts: list[list[int]]) -> int:
    """One session at every table of ``batch`` (dealer's choice, ``episode="session"``,
    ``autoreset=False``; ``starts``: its stacks) beside a ``raw_env(episode="session")``
    twin, compared at every decision (the votes between hands included); every step's
    rewards are the nets of the hands the twin's session settled, and at the session's
    end every seat's chips, the last hand's net and cards shown and every final
    observation agree. ``seen`` counts the variants chosen, the sessions' ends and the
    hands with a busted seat out. The decisions played."""
    size, boot = batch.num_tables, batch.rules.boot
    step = batch.reset(seed=int(rng.integers(2**32)), options={"stacks": starts})
    envs = [raw_env(rules=batch.rules, episode="session", bet_levels=batch.layout.bet_levels)
            for _ in range(size)]
    for t, env in enumerate(envs):
        env.reset(options={"dealer": int(batch.dealer[t]), "stacks": starts[t]})
    names = [str(spec.name) for spec in batch.rules.choice_specs]
    settled = [0] * size
    done = np.zeros(size, dtype=np.bool_)
    entered = np.array(starts) >= batch.rules.entry_chips
    decisions = 0
    while not done.all():
        waiting = step.to_act >= 0
        deciding = choosing(batch)
        for t in np.flatnonzero(waiting):
            _compare_session_decision(batch, envs[t], t, step)
        actions = random_actions(step, rng)
        shadow = ShadowChoice(batch)
        step = batch.step(actions)
        decisions += int(waiting.sum())
        for t in np.flatnonzero(waiting):
            if deciding[t]:
                seen["variant=" + names[batch._choices.row[actions[t]]]] += 1
                give_deal(envs[t], shadow.deal(t, actions[t]))
            elif batch.layout.names[actions[t]] == "draw":
                follow_reshuffle(batch, envs[t], t)
            envs[t].step(int(actions[t]))
        for t in np.flatnonzero(~done):
            history = envs[t].session.history
            net = [sum(entry["net"][s] for entry in history[settled[t]:])
                   for s in range(batch.num_seats)]
            settled[t] = len(history)
            assert np.rint(step.rewards[t] * boot).astype(np.int64).tolist() == net, \
                describe(batch, t)
        for t in np.flatnonzero(step.finished):
            env = envs[t]
            assert env.session.over, describe(batch, t)
            assert env.session.stacks == batch.session_stacks[t].tolist(), describe(batch, t)
            assert env.hand.net == batch.net[t].tolist(), describe(batch, t)
            assert sorted(env.hand.shown) == np.flatnonzero(batch.shown[t]).tolist()
            for seat, agent in enumerate(env.possible_agents):
                final = batch.observe(np.full(size, seat))[t]
                assert np.array_equal(env.observe(agent)["observation"], final), \
                    describe(batch, t)
            seen["ended_by_vote" if env.session.ended_by_vote else "session_over"] += 1
        done |= step.finished
        seen["hand_with_busted_seat_out"] += int(
            ((entered & ~batch.dealt_in).any(axis=1) & (batch.to_act >= 0)).sum())
    return decisions
