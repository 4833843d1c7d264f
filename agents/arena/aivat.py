"""Luck taken out of the arena: an AIVAT-style estimator (control variates on the deal).

Every seat's result in a hand is corrected by ``value(deal) - E[value]``: a value function
of the cards dealt, minus its exact expectation over the deal given everything drawn
before it (the lineup, the dealer, the rotation). Whatever the value function, the
correction has mean zero, so the corrected mean is unbiased; the better the value
predicts the result, the less luck is left (Burch et al., "AIVAT", 2018: its chance
terms; every action term is zero here, since the arena's agents are deterministic).

The value of a seat is linear in three kinds of features of the cards:

* its own hand's *bucket* (a hand category, the large ones split by strength), keyed by
  the seat's agent and its position from the dealer's left;
* for every other seat, the pair of buckets (this seat's, that seat's), keyed by the
  seat's agent and the other seat's agent (in a field of more than
  :data:`MAX_KEYED_AGENTS` agents: whether the other seat is held by the same agent).
* for every other seat whose hand falls in the same bucket, which hand is higher (+1, -1,
  0 when equal), keyed as the pair.

A seat's three cards are uniform over the deck's hands and two seats' hands uniform over
the ordered pairs of disjoint hands, so each feature's expectation is an exact table
(:class:`~agents.arena.aivat_chance.ChanceTable`), and zero for the third kind (swapping
two seats' hands is as likely). The weights are fitted by ridge least squares on a
*pilot*: deals of the same arena drawn from a separate seed stream and played before,
and apart from, the evaluated deals, so the value function is fixed before any evaluated
card is seen. With duplicate dealing a value that ignores who holds the cards cancels
over the rotations; these features are keyed by agent for that reason.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from agents.arena.aivat_chance import BUCKET_SHARE as BUCKET_SHARE
from agents.arena.aivat_chance import ChanceTable as ChanceTable
from agents.arena.aivat_chance import DealCards as DealCards
from agents.arena.aivat_chance import deal_cards as deal_cards
from agents.arena.aivat_chance import dealt_cards as dealt_cards
from agents.arena.aivat_chance import hand_buckets as hand_buckets
from agents.arena.seating import ArenaConfig, Deals
from teenpatti_env.rules import Rules

VARIANCE_REDUCTIONS = ("none", "duplicate", "aivat")
"""``none``: independent deals; ``duplicate``: duplicate dealing; ``aivat``: duplicate
dealing and the control variates of this module."""

PILOT_SHARE = 0.25
"""The pilot's hands as a share of the evaluated hands, unless asked otherwise."""

RIDGES = (1.0, 10.0, 100.0, math.inf)
"""The ridge penalties the fit chooses from (per weight, in squared boots)."""

MAX_KEYED_AGENTS = 3
"""Pair features name the other seat's agent in pools of up to this many agents."""

CV_FOLDS = 4
"""Folds of the cross-validation over the pilot's deals that chooses the penalty."""

MIN_PILOT_DEALS = 200
"""A pilot of fewer deals fits nothing (every weight zero: duplicate dealing alone)."""


def resolve(variance_reduction: str | None, duplicate: bool) -> tuple[bool, bool]:
    """``(duplicate, aivat)`` for a :data:`VARIANCE_REDUCTIONS` name (``None``: duplicate
    dealing as ``duplicate`` says, no AIVAT)."""
    if variance_reduction is None:
        return duplicate, False
    if variance_reduction not in VARIANCE_REDUCTIONS:
        raise ValueError(f"variance_reduction must be one of {', '.join(VARIANCE_REDUCTIONS)}, "
                         f"got {variance_reduction!r}")
    if not duplicate and variance_reduction != "none":
        raise ValueError(f"variance reduction {variance_reduction!r} deals in duplicate: it "
                         "cannot be asked for with independent deals (duplicate=False)")
    return variance_reduction != "none", variance_reduction == "aivat"


def supported(rules: Rules) -> bool:
    """Whether AIVAT covers ``rules`` (see :func:`check_supported`)."""
    try:
        check_supported(rules)
    except ValueError:
        return False
    return True


def check_supported(rules: Rules) -> None:
    """A ``ValueError`` unless the arena's deal is one draw of three cards per seat from a
    uniformly shuffled 52-card deck at the start of the hand (the classic family)."""
    if rules.dealers_choice is not None or not rules.spec.is_classic or (
            rules.variant != "classic"):
        raise ValueError("variance reduction 'aivat' covers the classic family (one deal of "
                         "three cards per seat); variants and dealer's choice draw or turn "
                         "up cards later: use 'duplicate'")


@dataclass(frozen=True)
class SeatFeatures:
    """Every ``[deal, rotation, seat]``'s features, as flat indices into the weights: its
    own (``own``, in the block ``own_block`` of its agent and position) and, for each other
    seat ``[..., t]``, the pair of buckets (``pair``, in the block ``pair_block`` of the
    two agents) and, when both hands share a bucket, which is higher (``tie``, with
    ``tie_sign`` +1, -1, or 0 for equal hands or other buckets). The expectation of a
    ``tie`` feature is zero: the two seats' hands are exchangeable."""

    own: NDArray[np.int64]
    own_block: NDArray[np.int64]
    pair: NDArray[np.int64]
    pair_block: NDArray[np.int64]
    tie: NDArray[np.int64]
    tie_sign: NDArray[np.int64]


class ValueModel:
    """The weights of the value function over a pool of ``agents`` agents at ``players``
    seats: ``own[agent, position, bucket]``, ``pair[agent, other, bucket, bucket]`` and
    ``tie[agent, other, bucket]``, ``other`` the other seat's agent (or, past
    :data:`MAX_KEYED_AGENTS` agents, 1 when it is the same agent and 0 when not)."""

    def __init__(self, table: ChanceTable, agents: int, players: int) -> None:
        self.table, self.agents, self.players = table, agents, players
        k = table.buckets
        self.own = np.zeros((agents, players, k))
        self.others = agents if agents <= MAX_KEYED_AGENTS else 2
        self.pair = np.zeros((agents, self.others, k, k))
        self.tie = np.zeros((agents, self.others, k))

    @property
    def size(self) -> int:
        return self.own.size + self.pair.size + self.tie.size

    def _seat_features(self, cards: DealCards, seated: NDArray[np.int16]) -> SeatFeatures:
        """Every ``[deal, rotation, seat]``'s features (see :class:`SeatFeatures`)."""
        k, n = self.table.buckets, self.players
        a = seated.astype(np.int64)
        b = np.broadcast_to(cards.buckets[:, None, :], a.shape)
        v = np.broadcast_to(cards.values[:, None, :], a.shape)
        position = np.broadcast_to(cards.position[:, None, :], a.shape)
        own_block = a * n + position
        others = [(np.arange(n) + shift) % n for shift in range(1, n)]
        partner = np.stack([a[..., other] for other in others], axis=-1)
        if self.others != self.agents:
            partner = (partner == a[..., None]).astype(np.int64)
        pair_block = a[..., None] * self.others + partner
        their_b = np.stack([b[..., o] for o in others], -1)
        their_v = np.stack([v[..., o] for o in others], -1)
        return SeatFeatures(
            own=own_block * k + b, own_block=own_block,
            pair=(pair_block * k + b[..., None]) * k + their_b, pair_block=pair_block,
            tie=pair_block * k + b[..., None],
            tie_sign=np.where(their_b == b[..., None], np.sign(v[..., None] - their_v), 0),
        )

    def corrections(self, cards: DealCards, seated: NDArray[np.int16]) -> NDArray[np.float64]:
        """``value - E[value]`` of every ``[deal, rotation, seat]``, in boots."""
        f = self._seat_features(cards, seated)
        k = self.table.buckets
        own_mean = self.own.reshape(-1, k) @ self.table.single
        pair_mean = self.pair.reshape(-1, k * k) @ self.table.pair.ravel()
        value = (self.own.ravel()[f.own] + self.pair.ravel()[f.pair].sum(axis=-1)
                 + (self.tie.ravel()[f.tie] * f.tie_sign).sum(axis=-1))
        expected = own_mean[f.own_block] + pair_mean[f.pair_block].sum(axis=-1)
        out: NDArray[np.float64] = value - expected
        return out

    def fit(self, cards: DealCards, deals: Deals, boot: int,
            weights: NDArray[np.float64] | None = None) -> float:
        """Fit the weights on a pilot's deals and return the ridge penalty chosen.

        Ridge least squares of every agent's total per deal (in boots) on its seats'
        centred features summed over the deal, with one free mean per agent (not
        penalised): the weights that best predict what each agent's total owes to its
        cards. The penalty is the one of :data:`RIDGES` (``inf``: every weight zero, no
        correction) with the least squared error in a cross-validation over the pilot's
        deals, so a pilot too small to fit anything leaves plain duplicate dealing. With
        ``weights`` (per deal) each deal's squared error counts that many times."""
        if len(deals.agent) < MIN_PILOT_DEALS:
            return math.inf
        design, target, deal_of = self._design(cards, deals, boot)
        if weights is not None:  # weighted least squares: each deal's rows scaled
            root = np.sqrt(weights[deal_of])
            design, target = design * root[:, None], target * root
        folds = deal_of % CV_FOLDS
        squared = np.zeros((len(RIDGES), len(target)))  # out-of-fold squared errors
        for fold in range(CV_FOLDS):
            train, test = folds != fold, folds == fold
            for index, ridge in enumerate(RIDGES):
                weights = self._solve(design[train], target[train], ridge)
                squared[index, test] = (target[test] - design[test] @ weights) ** 2
        ridge = _chosen_ridge(squared)
        weights = self._solve(design, target, ridge)[self.agents:]
        own_end, pair_end = self.own.size, self.own.size + self.pair.size
        self.own = weights[:own_end].reshape(self.own.shape)
        self.pair = weights[own_end:pair_end].reshape(self.pair.shape)
        self.tie = weights[pair_end:].reshape(self.tie.shape)
        return ridge

    def _solve(self, design: NDArray[np.float64], target: NDArray[np.float64],
               ridge: float) -> NDArray[np.float64]:
        """Ridge weights (the agents' means first, never penalised; ``inf``: the means
        alone, every other weight zero)."""
        weights = np.zeros(design.shape[1])
        if math.isinf(ridge):
            means = design[:, :self.agents]
            weights[:self.agents] = np.linalg.lstsq(means, target, rcond=None)[0]
            return weights
        penalty = np.full(design.shape[1], ridge)
        penalty[:self.agents] = 1e-9  # keeps an agent that never sat solvable
        return np.asarray(np.linalg.solve(design.T @ design + np.diag(penalty),
                                          design.T @ target), dtype=np.float64)

    def _design(self, cards: DealCards, deals: Deals, boot: int) -> tuple[
        NDArray[np.float64], NDArray[np.float64], NDArray[np.int64]
    ]:
        """One row per deal and agent that sat in it: the agent's hands (one column per
        agent) and its seats' centred features summed over the deal; its total result in
        boots; the deal's number."""
        f = self._seat_features(cards, deals.agent)
        count, k = len(deals.agent), self.table.buckets
        rows = np.arange(count)[:, None, None] * self.agents + deals.agent
        own_end, pair_end = self.own.size, self.own.size + self.pair.size
        features = np.zeros((count * self.agents, self.size))
        np.add.at(features, (rows, f.own), 1.0)
        np.add.at(features, (rows[..., None], own_end + f.pair), 1.0)
        np.add.at(features, (rows[..., None], pair_end + f.tie), f.tie_sign)
        blocks = np.zeros((count * self.agents, self.own.size // k))
        np.add.at(blocks, (rows, f.own_block), 1.0)
        pairs = np.zeros((count * self.agents, self.pair.size // (k * k)))
        np.add.at(pairs, (rows[..., None], f.pair_block), 1.0)
        features[:, :own_end] -= (blocks[:, :, None] * self.table.single).reshape(
            len(blocks), -1)
        features[:, own_end:pair_end] -= (pairs[:, :, None] * self.table.pair.ravel()
                                          ).reshape(len(pairs), -1)
        hands = np.zeros((count * self.agents, self.agents))
        np.add.at(hands, (rows, deals.agent.astype(np.int64)), 1.0)
        target = np.zeros(count * self.agents)
        np.add.at(target, rows, deals.net / boot)
        seated = hands.sum(axis=1) > 0
        deal_of = np.repeat(np.arange(count), self.agents)
        return (np.concatenate([hands, features], axis=1)[seated], target[seated],
                deal_of[seated])


def _chosen_ridge(squared: NDArray[np.float64]) -> float:
    """The penalty of :data:`RIDGES` with the least out-of-fold squared error
    (``squared[ridge, row]``) among those that beat no correction (the last, ``inf``) by
    more than two standard errors of the rows' differences; ``inf`` if none does."""
    best, best_error = RIDGES[-1], float(squared[-1].sum())
    for ridge, errors in zip(RIDGES[:-1], squared[:-1], strict=True):
        gain = squared[-1] - errors
        margin = 2.0 * float(gain.std()) * math.sqrt(len(gain))
        if gain.sum() > margin and errors.sum() < best_error:
            best, best_error = ridge, float(errors.sum())
    return best


def pilot_config(config: ArenaConfig, pilot_hands: int | None) -> ArenaConfig:
    """The pilot of ``config``: the same arena on deals of a separate seed stream,
    ``pilot_hands`` hands (default :data:`PILOT_SHARE` of the run's, at least two deals)."""
    hands = (pilot_hands if pilot_hands is not None
             else math.ceil(config.deals * config.rotations * PILOT_SHARE))
    hands = max(hands, 2 * config.rotations)
    return replace(config, hands=hands, pilot=True)
