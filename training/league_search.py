"""Searched rule exploiters for the self-play league.

With ``exploiter_kinds`` including ``search`` (:class:`training.config.SelfPlayConfig`),
some of the league's exploiters are not copies of the policy trained against it but the
best setting of the rule family (:mod:`agents.rule_strategy`) that a short search
(:func:`training.rule_search.search_rule_response`) finds against the frozen current
policy, played greedily: the kind of best response that found the largest leaks of the
shipped policy (docs/exploitability.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.batch_phases import BatchPhases
from agents.policy import NumpyPolicy, PolicyAgent
from agents.rule_strategy import RuleAgent
from teenpatti_env.environment.batched import TableBatch
from teenpatti_env.rules import Rules
from training.config import LEAGUE_SEARCH_NAMES
from training.rule_search import SearchBudget, search_rule_response

LEAGUE_SEARCH = SearchBudget(population=16, rounds=3, deals=100, finalists=2,
                             final_deals=250, random_rounds=2)
"""The search of one league exploiter: a random round of 32 settings, three rounds of 16,
100 deals each, then two finalists of 250 deals (34,000 hands at four seats)."""


def league_budget(name: str) -> SearchBudget:
    """The searched exploiters' budget by name (``SelfPlayConfig.league_search``): ``short``
    is :data:`LEAGUE_SEARCH`, ``full`` the search of ``teenpatti exploit`` (912,000 hands
    at four seats)."""
    if name not in LEAGUE_SEARCH_NAMES:
        raise ValueError(f"league_search must be one of {', '.join(LEAGUE_SEARCH_NAMES)}, "
                         f"got {name!r}")
    return LEAGUE_SEARCH if name == "short" else SearchBudget()


def search_exploiter(main: NumpyPolicy, rules: Rules, seed: int,
                     budget: SearchBudget | None = None,
                     start: NDArray[np.float64] | None = None,
                     ) -> tuple[NDArray[np.float64], float]:
    """The rule setting found against ``main`` (the export of the current policy, played
    greedily as exports play) at tables under ``rules``, and what it won per hand on the
    search's final deals. ``start``: settings the search tries first (what the run's
    earlier searches found and its rule opponents), so a leak once found is looked for
    again at every later search."""
    target = PolicyAgent(main, name="main")
    found = search_rule_response(target, rules, budget or LEAGUE_SEARCH, seed, start=start)
    return found.params, found.score


class RuleSeat:
    """A rule setting as a pool member: ``seat(observations, masks) -> actions`` decides
    by the setting alone; :meth:`at_tables` (a
    :class:`training.selfplay_network.TableActor`, so the rollout hands it the tables) also
    takes a selection phase's turns as the scripted agents take them
    (:class:`agents.batch_phases.BatchPhases`), as :class:`RuleAgent` does per table: a
    rule strategy's numbers say nothing about which card to discard, pass or draw, and
    alone it would pack there."""

    def __init__(self, params: NDArray[np.float64], rules: Rules) -> None:
        agent = RuleAgent(params)
        agent.check_rules(rules)
        policy = agent.batch_policy()
        assert policy is not None
        self.policy = policy
        self.selects = rules.spec.phase is not None
        self._phases: tuple[Any, BatchPhases] | None = None

    def __call__(self, observations: NDArray[np.float32], masks: NDArray[Any]) -> Any:
        return self.policy(observations, masks)

    def at_tables(self, batch: Any, rows: NDArray[np.int64], observations: NDArray[np.float32],
                  masks: NDArray[Any]) -> Any:
        """The actions at the tables ``rows`` of ``batch``."""
        actions = self.policy(observations, masks)
        if not self.selects or not isinstance(batch, TableBatch):
            return actions
        if self._phases is None or self._phases[0] is not batch:
            self._phases = (batch, BatchPhases(batch))
        return self._phases[1].with_selections(rows, observations, masks.astype(np.int8),
                                               actions)


def rule_actor(params: NDArray[np.float64], rules: Rules) -> RuleSeat:
    """A rule setting as a pool member (:class:`RuleSeat`)."""
    return RuleSeat(params, rules)
