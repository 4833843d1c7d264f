"""The batched engine: every hand of many deals is a table of one ``TableBatch``, and each
agent's batched form acts for all its seats to act in one call."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from agents.arena.seating import TRACKED_ACTIONS, ArenaConfig, Deals, draw_deal
from agents.batch_scripted import BatchForm, batched_form
from teenpatti_env.environment.batch_options import TABLE_OPTIONS
from teenpatti_env.environment.batch_phase import dealt_width
from teenpatti_env.environment.batch_variant import given_deal_rules
from teenpatti_env.environment.batched import TableBatch

BATCHED_DEALS = 1024
"""Deals the batched engine plays at once (their hands are its tables)."""


def batch_policies(config: ArenaConfig) -> list[BatchForm] | None:
    """Every pool agent's batched form when the batched engine can play the whole run
    (rules the batch plays, :func:`given_deal_rules`: the classic family and every variant,
    dealer's choice aside; every agent with a batched form there: the scripted agents
    outside the selection phases and joker buying, trained policies), else ``None``."""
    try:
        given_deal_rules(config.rules)
    except ValueError:
        return None
    forms = [batched_form(name, config.rules) for name in config.agents]
    if any(form is None for form in forms):
        return None
    return forms  # type: ignore[return-value]


def play_deals_batched(
    config: ArenaConfig, first: int, count: int, policies: Sequence[BatchForm]
) -> Deals:
    """:func:`play_deals` on the batched engine: every hand of the deals is a table, and
    each agent's batched form (:mod:`agents.batch_scripted`) acts for all its seats to act
    in one call, a scripted one seeded per table and seat as :func:`play_deals` seeds it.
    Same deals, same results, except after a shopping deck runs out: the tables reshuffle
    the discards from each deal's own seed too, but with the batched engine's generator."""
    players, rotations = config.players, config.rotations
    tables = count * rotations
    seated = np.zeros((count, rotations, players), dtype=np.int16)
    cards = np.full((count, rotations, players, dealt_width(config.rules)), -1,
                    dtype=np.int64)
    table_cards: dict[str, list[Any]] = {}  # a variant's community, indicators, chosen
    dealers = np.zeros((count, rotations), dtype=np.int64)
    # each table and seat's agent seed, drawn as play_deals draws it after the deal
    seeds = np.zeros((count, rotations, players), dtype=np.int64)
    chance = np.zeros((count, rotations), dtype=np.int64)  # each table's own random stream
    for row in range(count):
        lineup, options, chance[row], rng = draw_deal(config, first + row)
        seeds[row] = rng.integers(2**31, size=(rotations, players))
        for rotation in range(rotations):
            seated[row, rotation] = [lineup[(seat + rotation) % players]
                                     for seat in range(players)]
        for seat, held in enumerate(options["cards"]):  # passing: one seat holds six
            cards[row, :, seat, :len(held)] = held
        dealers[row] = options["dealer"]
        for key in TABLE_OPTIONS:
            if key in options:
                table_cards.setdefault(key, []).extend([options[key]] * rotations)
    batch = TableBatch(tables, config.rules, autoreset=False)
    step = batch.reset(options={"cards": cards.reshape(tables, players, -1),
                                "dealer": dealers.reshape(tables), **table_cards,
                                "seeds": chance.reshape(tables)})
    flat_seats = seated.reshape(tables, players)
    agents = [form(batch, seeds.reshape(tables, players)) for form in policies]
    names = batch.layout.names
    tracked = np.array([TRACKED_ACTIONS.index(name) if name in TRACKED_ACTIONS else -1
                        for name in names])
    actions_taken = np.zeros((tables, players, len(TRACKED_ACTIONS)), dtype=np.bool_)
    rows = np.arange(tables)
    while (step.to_act >= 0).any():
        waiting = step.to_act >= 0
        acting = np.where(waiting, flat_seats[rows, np.maximum(step.to_act, 0)], -1)
        actions = np.zeros(tables, dtype=np.int64)
        for index, agent in enumerate(agents):
            mine = np.flatnonzero(acting == index)
            if len(mine):
                actions[mine] = agent.act(mine, step.observations[mine],
                                          step.action_masks[mine])
        kinds = tracked[actions]
        took = waiting & (kinds >= 0)
        actions_taken[rows[took], step.to_act[took], kinds[took]] = True
        step = batch.step(actions)
    nets = batch.net.reshape(count, rotations, players)
    return Deals(seated, nets, actions_taken.reshape(count, rotations, players, -1))
