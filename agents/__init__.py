"""Agents that play Teen Patti through the environment's per-seat view.

>>> agent = make_agent("equity", seed=0)
>>> agent.name
'equity'
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from agents.base import Agent, LegalMoves
from agents.policy import NumpyPolicy, PolicyAgent, load_policy, pretrained_path
from agents.policy_family import make_family_agent, pretrained_family_path
from agents.rule_strategy import RULE_PREFIX, RuleAgent, parse_spec
from agents.scripted import AutoAgent, EquityAgent, LevelAgent, RandomAgent
from teenpatti_env.rules import Rules

SCRIPTED_AGENTS: dict[str, Callable[[int | None], Agent]] = {
    "random": lambda seed: RandomAgent(seed),
    "auto": lambda seed: AutoAgent(seed),
    "easy": lambda seed: LevelAgent("easy", seed),
    "medium": lambda seed: LevelAgent("medium", seed),
    "hard": lambda seed: LevelAgent("hard", seed),
    "equity": lambda seed: EquityAgent(seed),
}
"""The scripted agents by name, weakest first."""


POLICY_PREFIXES = ("ppo:", "pretrained:")
"""Agent specs naming a trained policy: ``ppo:path/to/policy.npz`` or
``pretrained:<name>`` (a policy shipped in ``agents/pretrained``); a policy family's
manifest (``ppo:path/to/family.json``, ``pretrained:general``) is one too
(:mod:`agents.policy_family`)."""


def make_agent(name: str, seed: int | None = None, rules: Rules | None = None) -> Agent:
    """A new agent from its name (see :data:`SCRIPTED_AGENTS`) or a trained policy's spec
    (``ppo:PATH``, ``pretrained:NAME``) or a rule strategy's setting (``rule:v0,...``,
    ``rule:FILE.json``: :mod:`agents.rule_strategy`), seeded with ``seed``; told the
    table's ``rules`` where given (:meth:`Agent.check_rules`: a policy family picks the
    member for the table, a policy refuses a table it cannot sit at)."""
    agent = _new_agent(name, seed)
    if rules is not None:
        agent.check_rules(rules)
    return agent


def _new_agent(name: str, seed: int | None) -> Agent:
    if isinstance(name, str) and name.startswith(RULE_PREFIX):
        return RuleAgent(parse_spec(name), seed, name=name)
    if isinstance(name, str) and name.startswith(POLICY_PREFIXES):
        kind, _, where = name.partition(":")
        if not where:
            raise ValueError(f"agent {name!r} names no policy: write {kind}:<path or name>")
        family = pretrained_family_path(where) if kind == "pretrained" else Path(where)
        if family.suffix == ".json" and family.is_file():
            return make_family_agent(family, seed, name=name)
        path = pretrained_path(where) if kind == "pretrained" else where
        return PolicyAgent(load_policy(path), seed, name=name)
    factory = SCRIPTED_AGENTS.get(name)
    if factory is None:
        raise ValueError(
            f"unknown agent {name!r}; known agents: {', '.join(SCRIPTED_AGENTS)}, "
            "ppo:<policy.npz>, pretrained:<name>, rule:<parameters>"
        )
    return factory(seed)


__all__ = [
    "SCRIPTED_AGENTS",
    "Agent",
    "AutoAgent",
    "EquityAgent",
    "LegalMoves",
    "LevelAgent",
    "NumpyPolicy",
    "PolicyAgent",
    "RandomAgent",
    "RuleAgent",
    "make_agent",
]
