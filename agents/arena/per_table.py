"""The per-table engine: every hand of a deal through ``raw_env``, one table at a time, on
the shared play loop (:func:`agents.loop.play_out`). Remote bots play here (as
:class:`agents.loop.TablePlayer`), their missed turns played as missed and counted."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from agents.arena.seating import (
    TRACKED_ACTIONS,
    ArenaConfig,
    Deals,
    LocalSeats,
    Seats,
    draw_deal,
)
from agents.base import Agent
from agents.loop import (
    MISSED_TURNS,
    MissedTurnError,
    TablePlayer,
    agent_turns,
    play_missed_turn,
    play_out,
)
from teenpatti_env.environment.aec import raw_env

_TRACKED = {name: k for k, name in enumerate(TRACKED_ACTIONS)}
_MISSED = {name: k for k, name in enumerate(MISSED_TURNS)}


def play_deals(config: ArenaConfig, first: int, count: int,
               seats: Seats | None = None) -> Deals:
    """Play deals ``first .. first + count - 1`` of ``config`` (each on its own seed), with
    the players ``seats`` makes (default: every agent in this process)."""
    seats = LocalSeats() if seats is None else seats
    env = raw_env(rules=config.rules)
    players, rotations = config.players, config.rotations
    agent_ids = np.zeros((count, rotations, players), dtype=np.int16)
    nets = np.zeros((count, rotations, players), dtype=np.int64)
    actions = np.zeros((count, rotations, players, len(TRACKED_ACTIONS)), dtype=np.bool_)
    missed = np.zeros((count, rotations, players, len(MISSED_TURNS)), dtype=np.int32)
    pool = config.agents
    for row in range(count):
        lineup, deal_options, deal_seed_value, rng = draw_deal(config, first + row)
        agent_seeds = rng.integers(2**31, size=(rotations, players))
        for rotation in range(rotations):
            seated = [int(lineup[(seat + rotation) % players]) for seat in range(players)]
            agents: dict[str, Agent] = {
                f"player_{seat}": seats.make(pool[a], int(agent_seeds[rotation, seat]))
                for seat, a in enumerate(seated)
            }
            for agent in agents.values():
                agent.check_rules(config.rules)  # a general policy reads the table's rules
                agent.reset()
            env.reset(seed=deal_seed_value, options=deal_options)
            _play_hand(env, agents, actions[row, rotation], missed[row, rotation])
            hand = env.hand
            assert hand is not None and hand.net is not None
            seats.hand_done(hand)
            agent_ids[row, rotation] = seated
            nets[row, rotation] = hand.net
    return Deals(agent_ids, nets, actions, missed if config.remote else None)


def _play_hand(env: raw_env, agents: dict[str, Agent], took: NDArray[np.bool_],
               missed: NDArray[np.int32]) -> None:
    """Play the hand ``env`` was reset to; ``took[seat, k]`` is set when the seat takes
    ``TRACKED_ACTIONS[k]``, ``missed[seat, k]`` counts its turns missed as
    ``MISSED_TURNS[k]``."""
    names = env.layout.names
    local = {name: agent for name, agent in agents.items()
             if not isinstance(agent, TablePlayer)}
    decide = agent_turns(env, local)

    def track(name: str, action: str) -> None:
        kind = _TRACKED.get(action)
        if kind is not None:
            took[env.agent_name_mapping[name], kind] = True

    def turn(name: str) -> int | None:
        player = agents[name]
        if not isinstance(player, TablePlayer):
            action = decide(name)
            track(name, names[action])
            return action
        try:
            track(name, player.play_turn(env, name)["type"])
        except MissedTurnError as fault:
            missed[env.agent_name_mapping[name], _MISSED[fault.kind]] += 1
            track(name, play_missed_turn(env))
        return None

    play_out(env, turn)
