"""Builders for the scripted-agent and arena tests: the agent names, random play through
the environment with a chooser, a scripted stand-in agent."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

import teenpatti_env
from agents import SCRIPTED_AGENTS, LegalMoves, make_agent
from agents.base import Agent

AGENT_NAMES = tuple(SCRIPTED_AGENTS)
Chooser = Callable[[str, np.ndarray, np.ndarray, dict[str, Any]], int]


# --------------------------------------------------------------------------- helpers


def play(env: Any, choose: Chooser, on_new_hand: Callable[[], None] | None = None) -> int:
    """Play the episode ``env`` was just reset to; ``choose(agent, observation, mask,
    info)`` picks every action. Checks that each pick is legal before stepping and that
    the environment never raises. Returns the number of hands played."""
    names = env.action_meanings
    hand = None
    hands = 0
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        info = env.unwrapped.view(agent)
        if terminated or truncated:
            env.step(None)
            continue
        if env.hand is not hand:
            hand = env.hand
            hands += 1
            if on_new_hand is not None:
                on_new_hand()
        mask = observation["action_mask"]
        action = choose(agent, observation["observation"], mask, info)
        assert isinstance(action, (int, np.integer)), action
        assert 0 <= action < len(mask), action
        assert mask[action] == 1, (agent, names[action], info["legal_actions"])
        assert names[action] in info["legal_actions"]
        env.step(action)
    return max(hands, 1)


def lineup_chooser(agents: dict[str, Agent], counts: Counter[str]) -> Chooser:
    def choose(agent: str, observation: np.ndarray, mask: np.ndarray, info: dict) -> int:
        player = agents[agent]
        counts[player.name] += 1
        return player.act(observation, mask, info)

    return choose


def random_lineup(env: Any, rng: np.random.Generator) -> dict[str, Agent]:
    picks = rng.integers(len(AGENT_NAMES), size=len(env.possible_agents))
    names = [AGENT_NAMES[int(i)] for i in picks]
    return {
        agent: make_agent(name, int(rng.integers(2**31)))
        for agent, name in zip(env.possible_agents, names, strict=True)
    }


def sweep(env_kwargs: dict[str, Any], hands: int, seed: int) -> tuple[Counter[str], int]:
    """Play at least ``hands`` hands of ``raw_env(**env_kwargs)`` with random mixed
    lineups; returns decisions per agent name and the hands played."""
    env = teenpatti_env.raw_env(**env_kwargs)
    rng = np.random.default_rng(seed)
    counts: Counter[str] = Counter()
    played = 0
    episode = 0
    while played < hands:
        agents = random_lineup(env, rng)

        def reset_all(agents: dict[str, Agent] = agents) -> None:
            for player in agents.values():
                player.reset()

        env.reset(seed=seed * 100_003 + episode)
        episode += 1
        played += play(env, lineup_chooser(agents, counts), reset_all)
    return counts, played


class Scripted:
    """A fixed plan: the ``k``-th decision takes the first legal of ``plan[k]`` (the last
    entry repeats); failing that ``LegalMoves.pick``'s fallback."""

    def __init__(self, *plan: str | tuple[str, ...]) -> None:
        self.plan = [(step,) if isinstance(step, str) else step for step in plan]
        self.turn = 0

    def __call__(self, observation: np.ndarray, mask: np.ndarray, info: dict) -> int:
        step = self.plan[min(self.turn, len(self.plan) - 1)]
        self.turn += 1
        return LegalMoves(mask, info).pick(*step)


def seat_map(players: dict[str, Any], log: list[tuple[str, str, dict]] | None = None) -> Chooser:
    """A chooser from per-agent policies (Agents or plain callables); ``log`` collects
    ``(agent, action name, info)`` of every decision."""

    def choose(agent: str, observation: np.ndarray, mask: np.ndarray, info: dict) -> int:
        player = players[agent]
        act = player.act if isinstance(player, Agent) else player
        action = int(act(observation, mask, info))
        if log is not None:
            log.append((agent, info["legal_actions"][list(np.flatnonzero(mask)).index(action)],
                        info))
        return action

    return choose
