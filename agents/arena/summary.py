"""From raw results to statistics: every agent's result with its interval, its action
rates, its rating, and the pairwise matrix of agents that shared tables."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.arena.aivat_strata import deal_plan
from agents.arena.seating import TRACKED_ACTIONS, ArenaConfig, Deals
from agents.loop import MISSED_TURNS
from agents.ratings import Gap, fit_strengths
from agents.stats import (
    Interval,
    Strata,
    finite_or_none,
    ratio_interval,
    stratified_ratio_interval,
    uniform_std_error,
    z_value,
)


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
    missed: dict[str, int] = field(default_factory=dict)
    """Its turns missed, by kind (:data:`agents.loop.MISSED_TURNS`), over all its seats."""
    uncorrected: Interval | None = None
    """With AIVAT: the same hands' result without the corrections, with the error duplicate
    dealing alone would have on as many uniformly drawn deals."""

    @property
    def variance_reduction(self) -> float:
        """How many times smaller the variance of the mean is than with independent deals
        (the plain per-hand figure on the same hands; NaN when an error is undefined)."""
        return variance_ratio(self.independent_std_error, self.result.std_error)

    @property
    def aivat_gain(self) -> float:
        """With AIVAT: how many times smaller the variance of the mean is than with
        duplicate dealing alone, on the same hands (NaN without AIVAT)."""
        if self.uncorrected is None:
            return math.nan
        return variance_ratio(self.uncorrected.std_error, self.result.std_error)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "boots_per_hand": self.result.to_dict(),
            "win_rate": finite_or_none(self.win_rate),
            "rates": {kind: finite_or_none(rate) for kind, rate in self.rates.items()},
            "independent_std_error": finite_or_none(self.independent_std_error),
            "variance_reduction": finite_or_none(self.variance_reduction),
            "uncorrected": None if self.uncorrected is None else self.uncorrected.to_dict(),
            "aivat_over_duplicate": finite_or_none(self.aivat_gain),
            "rating": {key: finite_or_none(value) for key, value in self.rating.items()},
            "missed_turns": dict(self.missed),
        }


def variance_ratio(plain_error: float, error: float) -> float:
    """``(plain_error / error) ** 2``, NaN when either error is undefined or zero."""
    if not all(math.isfinite(e) and e > 0 for e in (plain_error, error)):
        return math.nan
    return float((plain_error / error) ** 2)


def deal_strata(config: ArenaConfig) -> Strata | None:
    """The strata ``config``'s deals were drawn from (:mod:`agents.arena.aivat_strata`),
    or ``None`` for uniform deals."""
    plan = deal_plan(config)
    return None if plan is None else Strata(plan.strata, plan.shares, plan.share_deals)


def interval_of(totals: NDArray[np.float64], counts: NDArray[np.integer],
                strata: Strata | None) -> Interval:
    """The mean per hand with its interval, deals drawn uniformly or by ``strata``."""
    if strata is None:
        return ratio_interval(totals, counts)
    return stratified_ratio_interval(totals, counts, strata)


def summarize(
    config: ArenaConfig, deals: Deals, corrections: NDArray[np.float64] | None = None,
    correction_error: NDArray[np.float64] | None = None,
) -> tuple[dict[str, AgentResult], dict[str, dict[str, Interval]]]:
    """Per-agent results and the pairwise matrix of a run's raw results; with AIVAT
    ``corrections`` (boots, ``[deal, rotation, seat]``) the means and the matrix are of
    the corrected results (:mod:`agents.arena.aivat`), each agent's interval widened by
    the Monte Carlo standard error of its mean correction (``correction_error``, per pool
    agent), and deals drawn by stratum are weighted by their stratum's share
    (:mod:`agents.arena.aivat_strata`)."""
    pool = config.agents
    strata = deal_strata(config)
    weight = np.ones(len(deals.net)) if strata is None else strata.weights
    raw = deals.net / config.rules.boot  # [deal, rotation, seat]
    result = raw if corrections is None else raw - corrections
    missed = deals.missed_turns()
    agents: dict[str, AgentResult] = {}
    for index, name in enumerate(pool):
        here = deals.agent == index
        totals = np.where(here, result, 0.0).sum(axis=(1, 2))
        counts = here.sum(axis=(1, 2))
        interval = interval_of(totals, counts, strata)
        if correction_error is not None and correction_error[index] > 0:
            interval = _with_error(interval, math.hypot(interval.std_error,
                                                        float(correction_error[index])))
        weighted = float(weight @ counts) or math.nan  # undefined for an agent that never sat
        rates = {
            kind: float(weight @ (deals.actions[..., k] & here).sum(axis=(1, 2)) / weighted)
            for k, kind in enumerate(TRACKED_ACTIONS)
        }
        won = float(weight @ ((raw > 0) & here).sum(axis=(1, 2)) / weighted)
        # Every hand as its own cluster: what the same hands would give if each had been
        # dealt independently (copies of an agent at one table stay one cluster).
        # (the plain per-hand figure: the raw results, uncorrected).
        seats = here.sum(axis=2)
        summed = np.where(here, raw, 0.0).sum(axis=2)
        raw_totals = np.where(here, raw, 0.0).sum(axis=(1, 2))
        if strata is None:
            independent = ratio_interval(summed.ravel(), seats.ravel()).std_error
            uncorrected = (None if corrections is None
                           else ratio_interval(raw_totals, counts))
        else:
            by_hand = strata.repeat(seats.shape[1])
            independent = uniform_std_error(summed.ravel(), seats.ravel(), by_hand)
            uncorrected = _with_error(interval_of(raw_totals, counts, strata),
                                      uniform_std_error(raw_totals, counts, strata))
        agents[name] = AgentResult(
            name=name,
            result=interval,
            win_rate=won,
            rates=rates,
            independent_std_error=independent,
            missed={kind: int(missed[..., k][here].sum())
                    for k, kind in enumerate(MISSED_TURNS)},
            uncorrected=uncorrected,
        )
    pairwise: dict[str, dict[str, Interval]] = {name: {} for name in pool}
    for (a, b), (gaps, counts) in pairwise_sums(config, deals, corrections).items():
        pairwise[a][b] = interval_of(gaps, counts, strata)
    _rate(pool, agents, pairwise)
    return agents, pairwise


def _with_error(interval: Interval, error: float) -> Interval:
    """``interval``'s mean with the standard error ``error``."""
    half = z_value(interval.confidence) * error
    return Interval(interval.mean, error, interval.mean - half, interval.mean + half,
                    interval.hands, interval.confidence)


def pairwise_sums(
    config: ArenaConfig, deals: Deals, corrections: NDArray[np.float64] | None = None
) -> dict[tuple[str, str], tuple[NDArray[np.float64], NDArray[np.int64]]]:
    """For every ordered pair ``(a, b)`` of agents that shared a table: per deal, the sum
    over the hands they shared of a's mean result minus b's (copies of an agent averaged,
    in boots, less any AIVAT ``corrections``) and the number of those hands; the pairwise
    matrix is their ratio."""
    result = deals.net / config.rules.boot
    if corrections is not None:
        result = result - corrections
    means = []
    for index in range(len(config.agents)):
        here = deals.agent == index
        seats = here.sum(axis=2)
        summed = np.where(here, result, 0.0).sum(axis=2)
        # The agent's mean result in each hand it played, NaN elsewhere.
        with np.errstate(invalid="ignore", divide="ignore"):
            means.append(np.where(seats > 0, summed / np.maximum(seats, 1), np.nan))
    out = {}
    for i, a in enumerate(config.agents):
        for j, b in enumerate(config.agents):
            if i == j:
                continue
            both = ~np.isnan(means[i]) & ~np.isnan(means[j])
            if both.any():
                gap = np.where(both, means[i] - means[j], 0.0)
                out[a, b] = (gap.sum(axis=1), both.sum(axis=1))
    return out


def _rate(
    pool: Sequence[str],
    agents: Mapping[str, AgentResult],
    pairwise: Mapping[str, Mapping[str, Interval]],
) -> None:
    """Every agent's rating: its strength in boots per hand fitted on the pairwise matrix
    (:func:`agents.ratings.fit_strengths`), so it never ranks an agent above one that beat
    it significantly; NaN for an agent that never sat."""
    gaps = [Gap(a, b, interval.mean, interval.std_error)
            for i, a in enumerate(pool) for b in pool[i + 1:]
            if (interval := pairwise[a].get(b)) is not None]
    strengths = fit_strengths(pool, gaps)
    for name in pool:
        seated = bool(agents[name].result.hands)
        agents[name].rating = {"strength": strengths[name] if seated else math.nan}
