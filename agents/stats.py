"""Confidence intervals for the arena, with the deal as the unit of sampling.

Under duplicate dealing the hands of one deal (replayed with the agents rotated) are not
independent, so an agent's mean result is a ratio of per-deal totals to per-deal hand
counts, and its standard error is the cluster-robust (delta-method) one over deals:

    mean = sum(x_b) / sum(n_b)
    var  = B / (B - 1) * sum((x_b - mean * n_b) ** 2) / sum(n_b) ** 2

with ``B`` deals, ``x_b`` the agent's total in deal ``b`` and ``n_b`` its hands there.
With one hand per deal it is the textbook ``s / sqrt(N)`` (sample standard deviation
over the square root of the number of hands).

>>> interval = ratio_interval([1.0, 2.0, 3.0, 4.0, 5.0], [1, 1, 1, 1, 1])
>>> interval.mean, round(interval.std_error, 4)
(3.0, 0.7071)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np


@dataclass(frozen=True)
class Interval:
    """A mean with its standard error and a two-sided confidence interval."""

    mean: float
    std_error: float
    low: float
    high: float
    hands: int
    confidence: float

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def to_dict(self) -> dict[str, float | int | None]:
        """JSON form; an undefined figure (no hands, a single deal) is ``None``."""
        return {
            "mean": finite_or_none(self.mean),
            "std_error": finite_or_none(self.std_error),
            "low": finite_or_none(self.low),
            "high": finite_or_none(self.high),
            "hands": self.hands,
        }


def finite_or_none(value: float) -> float | None:
    """``value``, or ``None`` when it is NaN or infinite (strict JSON has neither)."""
    return value if math.isfinite(value) else None


def z_value(confidence: float = 0.95) -> float:
    """The two-sided normal quantile for ``confidence`` (1.96 for 95%)."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def ratio_interval(
    totals: Sequence[float] | np.ndarray,
    counts: Sequence[int] | np.ndarray,
    confidence: float = 0.95,
) -> Interval:
    """The mean per hand of per-deal ``totals`` over per-deal hand ``counts``, with its
    cluster-robust confidence interval (deals with a zero count still count as deals)."""
    x = np.asarray(totals, dtype=np.float64)
    n = np.asarray(counts, dtype=np.float64)
    if x.shape != n.shape or x.ndim != 1:
        raise ValueError("totals and counts must be 1-D and of the same length")
    hands = float(n.sum())
    deals = len(x)
    if hands == 0:
        nan = math.nan
        return Interval(nan, nan, nan, nan, 0, confidence)
    mean = float(x.sum() / hands)
    if deals < 2:
        error = math.inf
    else:
        residual = x - mean * n
        error = math.sqrt(deals / (deals - 1) * float(residual @ residual)) / hands
    half = z_value(confidence) * error
    return Interval(mean, error, mean - half, mean + half, int(hands), confidence)


@dataclass(frozen=True)
class Strata:
    """A stratified draw of deals: deal ``d`` drawn uniformly from stratum ``of[d]`` of a
    population in which stratum ``k`` has share ``shares[k]`` (estimated on
    ``share_deals`` independent draws, or exact when ``share_deals`` is 0)."""

    of: np.ndarray
    shares: np.ndarray
    share_deals: int = 0

    def repeat(self, times: int) -> Strata:
        """The same strata for ``times`` units per deal, unit-major within a deal."""
        return Strata(np.repeat(self.of, times), self.shares, self.share_deals)

    @property
    def weights(self) -> np.ndarray:
        """``[deal]``: the deal's weight, its stratum's share of the population over its
        stratum's share of the draw."""
        drawn = np.bincount(self.of, minlength=len(self.shares)) / len(self.of)
        weights: np.ndarray = np.asarray(self.shares)[self.of] / drawn[self.of]
        return weights


def _stratum_moments(values: np.ndarray, strata: Strata) -> tuple[np.ndarray, np.ndarray,
                                                                    np.ndarray]:
    """Per stratum: the number of units, their mean and sample variance of ``values``."""
    size = len(strata.shares)
    count = np.bincount(strata.of, minlength=size).astype(np.float64)
    total = np.bincount(strata.of, weights=values, minlength=size)
    mean = np.divide(total, count, out=np.zeros(size), where=count > 0)
    squares = np.bincount(strata.of, weights=(values - mean[strata.of]) ** 2, minlength=size)
    with np.errstate(invalid="ignore", divide="ignore"):
        variance = np.where(count > 1, squares / (count - 1), np.inf)
    return count, mean, variance


def stratified_ratio_interval(
    totals: Sequence[float] | np.ndarray,
    counts: Sequence[int] | np.ndarray,
    strata: Strata,
    confidence: float = 0.95,
) -> Interval:
    """:func:`ratio_interval` for deals drawn by stratum: the mean per hand is
    ``sum_k share_k * mean_k(totals) / sum_k share_k * mean_k(counts)`` and its variance,
    by the delta method over the residuals ``e = totals - mean * counts``, is
    ``sum_k share_k**2 * var_k(e) / n_k / c**2`` (``c`` the mean hands per deal), plus
    ``sum_k share_k * mean_k(e)**2 / share_deals / c**2`` for shares estimated on
    ``share_deals`` independent draws (multinomial)."""
    x = np.asarray(totals, dtype=np.float64)
    n = np.asarray(counts, dtype=np.float64)
    if x.shape != n.shape or x.shape != strata.of.shape:
        raise ValueError("totals, counts and strata must be 1-D and of the same length")
    shares = np.asarray(strata.shares, dtype=np.float64)
    _, mean_x, _ = _stratum_moments(x, strata)
    units, mean_n, _ = _stratum_moments(n, strata)
    if ((units == 0) & (shares > 0)).any():
        raise ValueError("every stratum with a share needs at least one deal")
    per_deal = float(shares @ mean_n)
    if per_deal == 0:
        nan = math.nan
        return Interval(nan, nan, nan, nan, 0, confidence)
    mean = float(shares @ mean_x) / per_deal
    _, mean_e, var_e = _stratum_moments(x - mean * n, strata)
    drawn = units > 0
    variance = float((shares[drawn] ** 2 * var_e[drawn] / units[drawn]).sum())
    if strata.share_deals:
        variance += float(shares @ mean_e**2) / strata.share_deals
    error = math.sqrt(variance) / per_deal
    half = z_value(confidence) * error
    return Interval(mean, error, mean - half, mean + half, int(n.sum()), confidence)


def uniform_std_error(
    totals: Sequence[float] | np.ndarray,
    counts: Sequence[int] | np.ndarray,
    strata: Strata,
) -> float:
    """The standard error :func:`ratio_interval` would have for as many deals drawn
    uniformly from the population, estimated from a stratified draw: the population
    variance of the residuals ``sum_k share_k * (var_k(e) + mean_k(e)**2)`` over the
    number of deals, over the mean hands per deal squared."""
    x = np.asarray(totals, dtype=np.float64)
    n = np.asarray(counts, dtype=np.float64)
    shares = np.asarray(strata.shares, dtype=np.float64)
    interval = stratified_ratio_interval(x, n, strata)
    if not math.isfinite(interval.mean):
        return math.nan
    _, mean_n, _ = _stratum_moments(n, strata)
    _, mean_e, var_e = _stratum_moments(x - interval.mean * n, strata)
    spread = float(shares @ (var_e + mean_e**2))
    return math.sqrt(spread / len(x)) / float(shares @ mean_n)


def two_sided_p_value(interval: Interval) -> float:
    """The normal two-sided p-value of "the mean is zero" behind ``interval`` (1.0 when
    the interval is undefined: no hands, or a single deal)."""
    if not (math.isfinite(interval.mean) and math.isfinite(interval.std_error)):
        return 1.0
    if interval.std_error == 0.0:
        return 1.0 if interval.mean == 0.0 else 0.0
    return 2.0 * NormalDist().cdf(-abs(interval.mean) / interval.std_error)


def holm_adjusted(p_values: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values, in the order given: the ``k``-th smallest of
    ``m`` is multiplied by ``m - k + 1`` (``k`` from 1), then made non-decreasing in that
    order and capped at 1. Rejecting every hypothesis whose adjusted p-value is below
    ``alpha`` keeps the chance of any false claim among the ``m`` at most ``alpha``."""
    m = len(p_values)
    adjusted = [0.0] * m
    running = 0.0
    for rank, index in enumerate(sorted(range(m), key=lambda i: p_values[i])):
        running = max(running, min(1.0, (m - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted
