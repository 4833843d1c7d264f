"""The batched engine: every hand of many deals is a table of one ``TableBatch``, and each
agent's batched form acts for all its seats to act in one call."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agents import make_agent
from agents.arena.seating import TRACKED_ACTIONS, ArenaConfig, Deals, draw_deal
from agents.base import BatchPolicy
from teenpatti_env.environment.batched import TableBatch, classic_family

BATCHED_DEALS = 1024
"""Deals the batched engine plays at once (their hands are its tables)."""


def batch_policies(config: ArenaConfig) -> list[BatchPolicy] | None:
    """Every pool agent's batched form when the batched engine can play the whole run
    (classic family rules, every agent with a batched form), else ``None``."""
    try:
        classic_family(config.rules)
    except ValueError:
        return None
    policies = [make_agent(name).batch_policy() for name in config.agents]
    if any(policy is None for policy in policies):
        return None
    return policies  # type: ignore[return-value]


def play_deals_batched(
    config: ArenaConfig, first: int, count: int, policies: Sequence[BatchPolicy]
) -> Deals:
    """:func:`play_deals` on the batched engine: every hand of the deals is a table, and
    each agent acts for all its seats to act in one call. Same deals, same results."""
    players, rotations = config.players, config.rotations
    tables = count * rotations
    seated = np.zeros((count, rotations, players), dtype=np.int16)
    cards = np.zeros((count, rotations, players, 3), dtype=np.int64)
    dealers = np.zeros((count, rotations), dtype=np.int64)
    for row in range(count):
        lineup, options, _, _ = draw_deal(config, first + row)
        for rotation in range(rotations):
            seated[row, rotation] = [lineup[(seat + rotation) % players]
                                     for seat in range(players)]
        cards[row] = options["cards"]
        dealers[row] = options["dealer"]
    batch = TableBatch(tables, config.rules, autoreset=False)
    step = batch.reset(options={"cards": cards.reshape(tables, players, 3),
                                "dealer": dealers.reshape(tables)})
    flat_seats = seated.reshape(tables, players)
    names = batch.layout.names
    tracked = np.array([TRACKED_ACTIONS.index(name) if name in TRACKED_ACTIONS else -1
                        for name in names])
    actions_taken = np.zeros((tables, players, len(TRACKED_ACTIONS)), dtype=np.bool_)
    rows = np.arange(tables)
    while (step.to_act >= 0).any():
        waiting = step.to_act >= 0
        acting = np.where(waiting, flat_seats[rows, np.maximum(step.to_act, 0)], -1)
        actions = np.zeros(tables, dtype=np.int64)
        for index, policy in enumerate(policies):
            mine = np.flatnonzero(acting == index)
            if len(mine):
                actions[mine] = policy(step.observations[mine], step.action_masks[mine])
        kinds = tracked[actions]
        took = waiting & (kinds >= 0)
        actions_taken[rows[took], step.to_act[took], kinds[took]] = True
        step = batch.step(actions)
    nets = batch.net.reshape(count, rotations, players)
    return Deals(seated, nets, actions_taken.reshape(count, rotations, players, -1))
