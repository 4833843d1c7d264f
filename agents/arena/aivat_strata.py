"""Stratified dealing for AIVAT: the deals where strong hands meet, dealt more often and
weighted down.

What duplicate dealing leaves sits in a few deals: those where two or more strong hands
meet and the agents bet them differently (on 250,000 deals of ``pretrained:classic``
against ``equity``, the 1% of deals with the largest totals held 64% of that variance).
A value function of the cards explains about half of it. Stratified dealing attacks the
rest from the other side, as survey sampling does: it plans, before any card is dealt,
how many deals come from each *stratum* of the deck's deals, deals each of them
uniformly within its stratum, and weights each stratum by its share of all deals.

* A deal's stratum is the strength of its *second-best* hand (the share of the deck's
  three-card hands strictly weaker than it, under the rules' ranking), cut at
  :data:`STRATUM_EDGES`: how strong the strongest collision at the table is.
* The plan gives stratum ``k`` a number of deals proportional to ``share[k] *
  SPREAD[k]`` (at least :data:`MIN_PER_STRATUM`): a Neyman allocation whose spreads were
  measured offline on separate seeds (``training.aivat_values``; seed 400, never an
  evaluation's) and are the same for every pairing, since the variance sits in the same
  deals whoever plays them.
* The shares are estimated by Monte Carlo over :data:`SHARE_DEALS` fresh uniform deals
  (or :data:`SHARES_PER_DEAL` per evaluated deal, if more) from a seed stream of their
  own, drawn before any evaluated card: independent of every evaluated deal, so the
  stratified mean ``sum_k share[k] * mean_k`` is unbiased; the variance the estimate of
  the shares adds is counted in the reported errors
  (:func:`agents.stats.stratified_ratio_interval`).
* A deal of stratum ``k`` is the first deal in stratum ``k`` of a stream of uniform deals
  from the deal's own generator: uniform within the stratum.

With AIVAT's control variates on top (:mod:`agents.arena.aivat`), each stratum's mean is
of the corrected results, and the correction's expectation over the uniform deal stays
the exact (or Monte Carlo) one, so the estimator stays unbiased: ``sum_k share[k] *
mean_k(result - V) + E[V]`` has mean ``E[result]``.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from agents.odds import HandOdds
from teenpatti_env.cards import NUM_CARDS
from teenpatti_env.rules import Rules


class PlannedRun(Protocol):
    """What a plan reads of a run (an :class:`agents.arena.seating.ArenaConfig`)."""

    @property
    def aivat(self) -> bool: ...
    @property
    def pilot(self) -> bool: ...
    @property
    def seed(self) -> int: ...
    @property
    def duplicate(self) -> bool: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def players(self) -> int: ...
    @property
    def deals(self) -> int: ...

STRATUM_EDGES = (0.5, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99)
"""Where the strata of the second-best hand's strength are cut (11 strata)."""

SPREAD = (1.0, 1.1, 1.6, 2.2, 3.6, 9.3, 13.0, 15.7, 11.6, 11.1, 11.4)
"""Each stratum's relative standard deviation of an agent's duplicate total, measured
offline: the plan deals in proportion to ``share * SPREAD``."""

MIN_STRATIFIED_DEALS = 400
"""An AIVAT run of fewer deals deals uniformly (too few deals per stratum to tell its
spread)."""

MIN_PER_STRATUM = 4
"""The fewest deals a plan gives a stratum."""

SHARE_DEALS = 400_000
"""Fresh uniform deals in the Monte Carlo estimate of the strata's shares, at least."""

SHARES_PER_DEAL = 100
"""Fresh deals per evaluated deal in that estimate, if more than :data:`SHARE_DEALS`."""

CANDIDATES = 64
"""Uniform deals drawn at a time while looking for one in a given stratum."""


@cache
def _weaker_share(best_sequence: str, lowball: bool) -> NDArray[np.float64]:
    """Indexed by a hand's value under the ranking: the share of the deck's three-card
    hands strictly weaker than it."""
    combos = np.array(list(itertools.combinations(range(NUM_CARDS), 3)), dtype=np.int64)
    values = HandOdds.of(Rules(best_sequence=best_sequence, lowball=lowball)).values(combos)
    ordered = np.sort(values)
    top = int(ordered[-1]) + 1
    return np.searchsorted(ordered, np.arange(top), side="left") / len(combos)


def strata_of(cards: NDArray[np.int64], rules: Rules) -> NDArray[np.int64]:
    """The stratum of every deal of ``cards[..., seat, 3]`` under the ranking of ``rules``."""
    cards = np.asarray(cards, dtype=np.int64)
    values = HandOdds.of(rules).values(cards.reshape(-1, 3)).reshape(cards.shape[:-1])
    strength = _weaker_share(rules.best_sequence, rules.ranking_lowball)[values]
    second = np.sort(strength, axis=-1)[..., -2]
    return np.digitize(second, STRATUM_EDGES)


def uniform_deals(rng: np.random.Generator, deals: int, players: int) -> NDArray[np.int64]:
    """``deals`` uniform deals of three cards to each of ``players`` seats, ``[deal,
    seat, 3]``."""
    cards = rng.random((deals, NUM_CARDS)).argsort(axis=1)[:, :3 * players]
    return cards.reshape(deals, players, 3).astype(np.int64)


def deal_in_stratum(rng: np.random.Generator, players: int, stratum: int,
                    rules: Rules) -> NDArray[np.int64]:
    """A deal uniform within ``stratum``: the first deal of that stratum in a stream of
    uniform deals from ``rng``, ``[seat, 3]``."""
    while True:
        candidates = uniform_deals(rng, CANDIDATES, players)
        hits = np.flatnonzero(strata_of(candidates, rules) == stratum)
        if len(hits):
            deal: NDArray[np.int64] = candidates[hits[0]]
            return deal


@dataclass(frozen=True)
class DealPlan:
    """Which stratum each deal of a run comes from, and the strata's shares of all deals."""

    strata: NDArray[np.int64]
    """``[deal]``: the deal's stratum."""
    shares: NDArray[np.float64]
    """``[stratum]``: its share of the uniform deals (Monte Carlo)."""
    share_deals: int
    """The fresh deals the shares were estimated on."""

    @property
    def counts(self) -> NDArray[np.int64]:
        """``[stratum]``: the deals planned in it."""
        return np.bincount(self.strata, minlength=len(self.shares))

    def to_dict(self) -> dict[str, object]:
        return {"strata": len(self.shares), "edges": list(STRATUM_EDGES),
                "shares": [float(s) for s in self.shares],
                "deals": [int(c) for c in self.counts], "share_deals": self.share_deals}


def allocate(shares: NDArray[np.float64], deals: int) -> NDArray[np.int64]:
    """Deals per stratum: ``deals`` split in proportion to ``shares * SPREAD`` (largest
    remainders), each stratum at least :data:`MIN_PER_STRATUM`."""
    target = shares * np.asarray(SPREAD)
    target = target / target.sum()
    counts = np.full(len(shares), MIN_PER_STRATUM, dtype=np.int64)
    left = deals - int(counts.sum())
    ideal = target * left
    counts += np.floor(ideal).astype(np.int64)
    short = deals - int(counts.sum())
    counts[np.argsort(-(ideal - np.floor(ideal)), kind="stable")[:short]] += 1
    return counts


def stratified(config: PlannedRun) -> bool:
    """Whether ``config``'s deals are dealt by stratum: an AIVAT run (not its pilot) of at
    least :data:`MIN_STRATIFIED_DEALS` deals."""
    return config.aivat and not config.pilot and config.deals >= MIN_STRATIFIED_DEALS


def deal_plan(config: PlannedRun) -> DealPlan | None:
    """The plan of ``config``'s deals, or ``None`` when they are dealt uniformly."""
    if not stratified(config):
        return None
    return _plan(config.seed, int(config.duplicate), config.players, config.deals,
                 config.rules.best_sequence, config.rules.ranking_lowball)


def estimate_shares(rng: np.random.Generator, players: int, deals: int,
                    rules: Rules) -> NDArray[np.float64]:
    """Each stratum's share of ``deals`` uniform deals to ``players`` seats from ``rng``."""
    counted = np.zeros(len(STRATUM_EDGES) + 1)
    for first in range(0, deals, 50_000):
        part = uniform_deals(rng, min(50_000, deals - first), players)
        counted += np.bincount(strata_of(part, rules), minlength=len(counted))
    return counted / deals


@lru_cache(maxsize=16)
def _plan(seed: int, duplicate: int, players: int, deals: int, best_sequence: str,
          lowball: bool) -> DealPlan:
    rules = Rules(best_sequence=best_sequence, lowball=lowball)  # the ranking alone
    fresh = max(SHARE_DEALS, SHARES_PER_DEAL * deals)
    shares = estimate_shares(np.random.default_rng([seed, duplicate, 1, 1, 2]), players,
                             fresh, rules)  # the shares' own stream
    if (shares == 0).any():
        raise ValueError(f"a stratum drew none of {fresh} fresh deals at {players} seats")
    counts = allocate(shares, deals)
    # spread each stratum's deals over the run (deal i's stratum fixed by i alone)
    order = np.argsort((np.arange(deals) * (math.sqrt(5) - 1) / 2) % 1.0, kind="stable")
    strata = np.empty(deals, dtype=np.int64)
    strata[order] = np.repeat(np.arange(len(counts)), counts)
    return DealPlan(strata, shares, fresh)
