"""The per-table engine: every hand of a deal through ``raw_env``, one table at a time, on
the shared play loop (:func:`agents.loop.play_out`)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from agents import make_agent
from agents.arena.seating import TRACKED_ACTIONS, ArenaConfig, Deals, draw_deal
from agents.base import Agent
from agents.loop import agent_turns, play_out
from teenpatti_env.environment.aec import raw_env

_TRACKED = {name: k for k, name in enumerate(TRACKED_ACTIONS)}


def play_deals(config: ArenaConfig, first: int, count: int) -> Deals:
    """Play deals ``first .. first + count - 1`` of ``config`` (each on its own seed)."""
    env = raw_env(rules=config.rules)
    players, rotations = config.players, config.rotations
    agent_ids = np.zeros((count, rotations, players), dtype=np.int16)
    nets = np.zeros((count, rotations, players), dtype=np.int64)
    actions = np.zeros((count, rotations, players, len(TRACKED_ACTIONS)), dtype=np.bool_)
    pool = config.agents
    for row in range(count):
        lineup, deal_options, deal_seed_value, rng = draw_deal(config, first + row)
        agent_seeds = rng.integers(2**31, size=(rotations, players))
        for rotation in range(rotations):
            seated = [int(lineup[(seat + rotation) % players]) for seat in range(players)]
            agents: dict[str, Agent] = {
                f"player_{seat}": make_agent(pool[a], int(agent_seeds[rotation, seat]))
                for seat, a in enumerate(seated)
            }
            for agent in agents.values():
                agent.reset()
            env.reset(seed=deal_seed_value, options=deal_options)
            _play_hand(env, agents, actions[row, rotation])
            hand = env.hand
            assert hand is not None and hand.net is not None
            agent_ids[row, rotation] = seated
            nets[row, rotation] = hand.net
    return Deals(agent_ids, nets, actions)


def _play_hand(env: raw_env, agents: dict[str, Agent], took: NDArray[np.bool_]) -> None:
    """Play the hand ``env`` was reset to; ``took[seat, k]`` is set when the seat takes
    ``TRACKED_ACTIONS[k]``."""
    names = env.layout.names
    decide = agent_turns(env, agents)

    def turn(name: str) -> int:
        action = decide(name)
        kind = _TRACKED.get(names[action])
        if kind is not None:
            took[env.agent_name_mapping[name], kind] = True
        return action

    play_out(env, turn)
