"""From raw results to statistics: every agent's result with its interval, its action
rates, its rating, and the pairwise matrix of agents that shared tables."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.arena.seating import TRACKED_ACTIONS, ArenaConfig, Deals
from agents.stats import Interval, finite_or_none, ratio_interval


@dataclass
class AgentResult:
    """One agent's line in the report."""

    name: str
    result: Interval
    """Chips won per hand, in boots, with its confidence interval."""
    win_rate: float
    rates: dict[str, float]
    """Share of its hands in which it took each of :data:`TRACKED_ACTIONS`."""
    independent_std_error: float
    """The standard error the same number of hands would have with independent deals."""
    rating: dict[str, float] = field(default_factory=dict)

    @property
    def variance_reduction(self) -> float:
        """How many times smaller the variance of the mean is than with independent deals
        (NaN when either error is undefined or zero)."""
        errors = (self.independent_std_error, self.result.std_error)
        if not all(math.isfinite(e) and e > 0 for e in errors):
            return math.nan
        return float((errors[0] / errors[1]) ** 2)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "boots_per_hand": self.result.to_dict(),
            "win_rate": finite_or_none(self.win_rate),
            "rates": {kind: finite_or_none(rate) for kind, rate in self.rates.items()},
            "independent_std_error": finite_or_none(self.independent_std_error),
            "variance_reduction": finite_or_none(self.variance_reduction),
            "rating": {key: finite_or_none(value) for key, value in self.rating.items()},
        }


def summarize(config: ArenaConfig, deals: Deals) -> tuple[
    dict[str, AgentResult], dict[str, dict[str, Interval]]
]:
    """Per-agent results and the pairwise matrix of a run's raw results."""
    boot = config.rules.boot
    pool = config.agents
    result = deals.net / boot  # [deal, rotation, seat]
    agents: dict[str, AgentResult] = {}
    per_hand_means: list[NDArray[np.float64]] = []
    for index, name in enumerate(pool):
        here = deals.agent == index
        totals = np.where(here, result, 0.0).sum(axis=(1, 2))
        counts = here.sum(axis=(1, 2))
        interval = ratio_interval(totals, counts)
        hands = int(counts.sum())
        mine = result[here]
        played = hands or math.nan  # rates of an agent that never sat are undefined
        rates = {
            kind: float(deals.actions[..., k][here].sum() / played)
            for k, kind in enumerate(TRACKED_ACTIONS)
        }
        # Every hand as its own cluster: what the same hands would give if each had been
        # dealt independently (copies of an agent at one table stay one cluster).
        seats = here.sum(axis=2)
        summed = np.where(here, result, 0.0).sum(axis=2)
        independent = ratio_interval(summed.ravel(), seats.ravel()).std_error
        agents[name] = AgentResult(
            name=name,
            result=interval,
            win_rate=float((mine > 0).sum() / played),
            rates=rates,
            independent_std_error=independent,
        )
        # The agent's mean result in each hand it played (copies averaged), NaN elsewhere.
        with np.errstate(invalid="ignore", divide="ignore"):
            per_hand_means.append(np.where(seats > 0, summed / np.maximum(seats, 1), np.nan))
    pairwise: dict[str, dict[str, Interval]] = {name: {} for name in pool}
    for i, a in enumerate(pool):
        for j, b in enumerate(pool):
            if i == j:
                continue
            both = ~np.isnan(per_hand_means[i]) & ~np.isnan(per_hand_means[j])
            if not both.any():
                continue
            gap = np.where(both, per_hand_means[i] - per_hand_means[j], 0.0)
            pairwise[a][b] = ratio_interval(gap.sum(axis=1), both.sum(axis=1))
    _rate(config, result, deals, agents)
    return agents, pairwise


def _rate(
    config: ArenaConfig,
    result: NDArray[np.float64],
    deals: Deals,
    agents: Mapping[str, AgentResult],
) -> None:
    """A multiplayer rating (openskill's Plackett-Luce): each deal ranks the agents of its
    lineup by their total result in it, and the deals update the ratings in order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    pool = config.agents
    ratings = [model.rating(name=name) for name in pool]
    for row in range(len(result)):
        present = np.unique(deals.agent[row])
        if len(present) < 2:
            continue
        totals = [float(result[row][deals.agent[row] == a].sum()) for a in present]
        # openskill ranks: lower is better, equal totals share a rank.
        ranks = [-total for total in totals]
        teams = [[ratings[a]] for a in present]
        updated = model.rate(teams, ranks=ranks)
        for a, team in zip(present, updated, strict=True):
            ratings[a] = team[0]
    for index, name in enumerate(pool):
        rating = ratings[index]
        if not agents[name].result.hands:  # never seated: no rating
            agents[name].rating = dict.fromkeys(("mu", "sigma", "ordinal"), math.nan)
            continue
        agents[name].rating = {
            "mu": float(rating.mu),
            "sigma": float(rating.sigma),
            "ordinal": float(rating.mu - 3 * rating.sigma),
        }
