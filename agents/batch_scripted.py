"""The scripted agents in batched form: one object plays its seats at every table of a
:class:`~teenpatti_env.environment.batched.TableBatch`, deciding for all of them at once
from the batch's state, decision for decision as the per-table agents of
:mod:`agents.scripted` decide from their info views, in every rule set the batch plays
(:class:`~agents.batch_view.Decisions`), the selection phases' and buying a joker's
choices included (:class:`~agents.batch_phases.BatchPhases`).

What a per-table agent remembers within a hand (the bets each opponent made after
looking, its own raises) is kept per table and seat in arrays. Randomness is shared the
per-table way: every table and seat has its own ``numpy`` Generator, made from the seed
the per-table agent would be made with, and it draws the same numbers in the same order
(so a batched ``random`` or ``easy`` given the per-table agents' seeds plays exactly
their hands). Only the agents that draw (``random``, ``easy``, ``medium``) make
generators, and only for the seats that draw.

The base class is :mod:`agents.batch_agent`, the reading agents' forms (``easy``,
``medium``, ``hard``, ``equity``) :mod:`agents.batch_reading`; this module holds the
other forms, the registry and the factories, and re-exports every name.

>>> from teenpatti_env.environment.batched import TableBatch
>>> batch = TableBatch(4, "classic", autoreset=False)
>>> step = batch.reset(seed=1)
>>> hard = batch_agent("hard", batch)
>>> rows = np.flatnonzero(step.to_act >= 0)
>>> hard.act(rows, step.observations[rows], step.action_masks[rows]).shape
(4,)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from agents import SCRIPTED_AGENTS, make_agent
from agents.base import Agent, BatchPolicy
from agents.batch_agent import BatchAgent as BatchAgent
from agents.batch_agent import Seeds as Seeds
from agents.batch_phases import BatchPhases
from agents.batch_reading import BatchEquity as BatchEquity
from agents.batch_reading import BatchLevel as BatchLevel
from agents.batch_reading import BatchReading as BatchReading
from agents.batch_view import BatchLegal, Decisions, Rows
from agents.scripted import AutoAgent
from teenpatti_env.environment.batched import TableBatch
from teenpatti_env.rules import Rules


class BatchRandom(BatchAgent):
    """:class:`~agents.scripted.RandomAgent`: uniform over the legal actions."""

    name = "random"
    phase_choices = False  # uniform at a phase turn too

    def decide(self, d: Decisions, legal: BatchLegal) -> Rows:
        every = np.ones(d.count, dtype=np.bool_)
        return legal.any(self.generators(d, every), every)


class BatchAuto(BatchAgent):
    """:class:`~agents.scripted.AutoAgent`: looks at once, bets by its hand's strength."""

    name = "auto"

    def decide(self, d: Decisions, legal: BatchLegal) -> Rows:
        strength = d.strength
        strong, good = strength >= AutoAgent.STRONG, strength >= AutoAgent.GOOD
        out = np.where(strong, legal.pick("bet_max", "show", "bet_min", "all_in", "pack"),
                       np.where(good, legal.pick("show", "bet_min", "all_in", "pack"),
                                np.where(strength >= AutoAgent.HIGH,
                                         legal.pick("bet_min", "show", "all_in", "pack"),
                                         legal.pick("pack"))))
        accept = legal.has("accept")
        out[accept] = np.where(good, legal.pick("accept"), legal.pick("refuse"))[accept]
        look = legal.has("look")
        out[look] = legal.index["look"]
        return out


class PolicySeats(BatchAgent):
    """A trained policy's batched form (:meth:`Agent.batch_policy`) as a batch agent: it
    reads only the observations and masks; with ``selections`` (an agent whose
    ``selection_choices`` is set, a rule strategy) a selection phase's turns are
    :mod:`agents.phases`'s choices, read from the batch."""

    phase_choices = False

    def __init__(self, name: str, policy: BatchPolicy, batch: TableBatch,
                 selections: bool = False) -> None:
        super().__init__(batch, 0)
        self.name = name
        self.policy = policy
        self.selections = (BatchPhases(batch) if selections and batch.rules.spec.phase
                           else None)

    def act(self, rows: Rows, observations: NDArray[np.float32],
            masks: NDArray[np.int8]) -> Rows:
        actions = self.policy(observations, masks)
        if self.selections is None:
            return actions
        return self.selections.with_selections(rows, observations, masks, actions)


BATCHED_SCRIPTED: dict[str, Callable[[TableBatch, Seeds], BatchAgent]] = {
    "random": BatchRandom,
    "auto": BatchAuto,
    "easy": lambda batch, seeds: BatchLevel("easy", batch, seeds),
    "medium": lambda batch, seeds: BatchLevel("medium", batch, seeds),
    "hard": lambda batch, seeds: BatchLevel("hard", batch, seeds),
    "equity": BatchEquity,
}
"""The batched form of every scripted agent (:data:`agents.SCRIPTED_AGENTS`), by name."""
assert set(BATCHED_SCRIPTED) == set(SCRIPTED_AGENTS)


BatchForm = Callable[[TableBatch, Seeds], BatchAgent]
"""Makes an agent's batched form at a batch: ``form(batch, seeds) -> BatchAgent``."""


def batched_form(name: str, rules: Rules | None = None) -> BatchForm | None:
    """How to make the batched form of the agent ``name`` (a scripted agent, or an agent
    with a batched policy such as a trained policy or a rule strategy), or ``None`` if it
    has none; told the table's ``rules`` (its ``check_rules``) where given, as a general
    policy needs."""
    factory = BATCHED_SCRIPTED.get(name)
    if factory is not None:
        return factory
    agent = make_agent(name)
    if rules is not None:
        agent.check_rules(rules)
    return policy_form(agent)


def policy_form(agent: Agent) -> BatchForm | None:
    """The batched form of ``agent``'s batched policy (``None``: it has none), making the
    selection phases' choices of :mod:`agents.phases` where the agent does
    (``selection_choices``)."""
    policy = agent.batch_policy()
    if policy is None:
        return None
    name, selections = agent.name, agent.selection_choices
    return lambda batch, seeds: PolicySeats(name, policy, batch, selections)


def batch_agent(name: str, batch: TableBatch, seeds: Seeds = None) -> BatchAgent:
    """The batched form of the agent ``name`` at ``batch``: a scripted agent's, whose
    table and seat ``(t, s)`` draws as the per-table agent seeded ``seeds[t, s]`` would,
    or a trained policy's; a ``ValueError`` for an agent without one."""
    form = batched_form(name, batch.rules)
    if form is None:
        raise ValueError(f"agent {name!r} has no batched form")
    return form(batch, seeds)
