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
