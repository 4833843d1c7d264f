"""One strength per agent from pairwise duplicate results, in boots per hand.

Each measured gap says "``a`` won ``mean`` boots per hand more than ``b`` at the tables
they shared". The strengths ``s`` are the weighted least-squares fit of ``s[a] - s[b]`` to
every gap (weights: one over the gap's squared standard error), centred on zero. A plain
fit can rank ``b`` above ``a`` although ``a`` beat ``b`` significantly (when ``b`` did much
better against the others than ``a`` did: the results are then not transitive); so wherever
the fit inverts a gap whose 95% interval excludes zero, the two agents are tied (fitted as
one strength) and the fit is made again, until no significant gap is inverted. Ties only
merge, so this ends after at most ``len(names) - 1`` refits, and the strengths never rank an
agent above one that beat it significantly.

>>> gaps = [Gap("a", "b", 2.0, 0.5), Gap("b", "c", 1.0, 0.5), Gap("a", "c", 3.0, 0.5)]
>>> {name: round(value, 6) for name, value in fit_strengths("abc", gaps).items()}
{'a': 1.666667, 'b': -0.333333, 'c': -1.333333}
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

Z_95 = 1.959963984540054
"""The two-sided 95% normal quantile: a gap is significant when ``|mean| > Z_95 * se``."""


class Gap(NamedTuple):
    """``a``'s result minus ``b``'s, per hand they shared, with its standard error."""

    a: str
    b: str
    mean: float
    std_error: float

    @property
    def significant(self) -> bool:
        """Whether the gap's 95% interval excludes zero."""
        return math.isfinite(self.std_error) and abs(self.mean) > Z_95 * self.std_error


def fit_strengths(names: Sequence[str], gaps: Sequence[Gap]) -> dict[str, float]:
    """Every agent's strength (mean zero), fitted on ``gaps`` as the module says; an
    agent in no gap with a finite mean gets NaN."""
    names = list(names)
    index = {name: i for i, name in enumerate(names)}
    usable = [g for g in gaps if math.isfinite(g.mean)]
    for gap in usable:
        if gap.a not in index or gap.b not in index:
            raise ValueError(f"gap {gap.a!r} - {gap.b!r} names an agent not in {names}")
    pairs = np.array([(index[g.a], index[g.b]) for g in usable], dtype=np.int64).reshape(-1, 2)
    values = np.array([g.mean for g in usable], dtype=np.float64)
    root = np.sqrt(_weights(usable))
    group = np.arange(len(names))  # each agent's tie group (its smallest member's index)
    while True:
        strengths = _fit(group, pairs, values, root)
        fitted = strengths[pairs[:, 0]] - strengths[pairs[:, 1]]
        inverted = [row for row, gap in enumerate(usable)
                    if gap.significant and fitted[row] * gap.mean < -1e-12]
        if not inverted:
            break
        for row in inverted:
            low, high = sorted(group[pairs[row]])
            group[group == high] = low
    seen = set(pairs.ravel().tolist())
    return {name: float(strengths[i]) if i in seen else math.nan
            for i, name in enumerate(names)}


def _weights(gaps: Sequence[Gap]) -> NDArray[np.float64]:
    """One over each gap's variance; equal weights when some error is not a positive
    number (a run too short to estimate it)."""
    errors = np.array([g.std_error for g in gaps], dtype=np.float64)
    if not (np.isfinite(errors).all() and (errors > 0).all()):
        return np.ones(len(gaps))
    return np.asarray(1.0 / errors**2, dtype=np.float64)


def _fit(group: NDArray[np.int64], pairs: NDArray[np.int64], values: NDArray[np.float64],
         root: NDArray[np.float64]) -> NDArray[np.float64]:
    """The weighted least-squares strengths with the agents of a group tied: the
    minimum-norm solution (the gaps leave the offset free), centred on the mean of the
    agents in some gap."""
    _, column = np.unique(group, return_inverse=True)
    design = np.zeros((len(pairs), int(column.max()) + 1))
    rows = np.arange(len(pairs))
    np.add.at(design, (rows, column[pairs[:, 0]]), 1.0)
    np.add.at(design, (rows, column[pairs[:, 1]]), -1.0)
    solution = np.linalg.lstsq(design * root[:, None], values * root, rcond=None)[0]
    strengths = np.asarray(solution[column], dtype=np.float64)
    seen = np.unique(pairs)
    if len(seen):
        strengths -= strengths[seen].mean()
    return strengths
