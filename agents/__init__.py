"""Agents that play Teen Patti through the environment's per-seat view.

>>> agent = make_agent("equity", seed=0)
>>> agent.name
'equity'
"""

from __future__ import annotations

from collections.abc import Callable

from agents.base import Agent, LegalMoves
from agents.scripted import AutoAgent, EquityAgent, LevelAgent, RandomAgent

SCRIPTED_AGENTS: dict[str, Callable[[int | None], Agent]] = {
    "random": lambda seed: RandomAgent(seed),
    "auto": lambda seed: AutoAgent(seed),
    "easy": lambda seed: LevelAgent("easy", seed),
    "medium": lambda seed: LevelAgent("medium", seed),
    "hard": lambda seed: LevelAgent("hard", seed),
    "equity": lambda seed: EquityAgent(seed),
}
"""The scripted agents by name, weakest first."""


def make_agent(name: str, seed: int | None = None) -> Agent:
    """A new agent from its name (see :data:`SCRIPTED_AGENTS`), seeded with ``seed``."""
    factory = SCRIPTED_AGENTS.get(name)
    if factory is None:
        raise ValueError(f"unknown agent {name!r}; known agents: {', '.join(SCRIPTED_AGENTS)}")
    return factory(seed)


__all__ = [
    "SCRIPTED_AGENTS",
    "Agent",
    "AutoAgent",
    "EquityAgent",
    "LegalMoves",
    "LevelAgent",
    "RandomAgent",
    "make_agent",
]
