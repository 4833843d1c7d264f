"""AIVAT's stratified dealing (agents/arena/aivat_strata.py, agents/stats.py): the
stratified estimates worked by hand, the strata's shares against their exact values, deals
uniform within their stratum, the weighted mean of a function of the cards equal to its
uniform expectation, and known edges kept when the arena deals by stratum."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from agents.arena import ArenaConfig, aivat, aivat_strata, parse_table, run_arena
from agents.arena.aivat import MIN_PILOT_DEALS, ChanceTable
from agents.arena.aivat_strata import (
    MIN_PER_STRATUM,
    STRATUM_EDGES,
    allocate,
    deal_in_stratum,
    deal_plan,
    estimate_shares,
    strata_of,
    uniform_deals,
)
from agents.arena.run import _play_reports
from agents.arena.seating import draw_deal
from agents.odds import HandOdds
from agents.stats import Interval, Strata, stratified_ratio_interval, uniform_std_error
from teenpatti_env.cards import NUM_CARDS
from teenpatti_env.rules import Rules

CLASSIC = Rules.preset("classic")
PACKER = "rule:0,0,1,0,0,1,0,1,1,0,1,0"
CALLER = "rule:8,0,40,0,0,0,0,1,1,0,0,0"
CALLER_AGAIN = "rule:8.0,0.0,40.0,0.0,0.0,0.0,0.0,1.0,1.0,0.0,0.0,0.0"
STRATA = len(STRATUM_EDGES) + 1


# --------------------------------------------------------------- the statistics --


def test_the_stratified_interval_worked_by_hand() -> None:
    """Strata of shares 3/4 and 1/4, two deals each: totals 1 and 3, then 10 and 14, one
    hand per deal. Mean 3/4 * 2 + 1/4 * 12 = 4.5; residuals -3.5, -1.5 (variance 2) and
    5.5, 9.5 (variance 8); variance of the mean 9/16 * 2/2 + 1/16 * 8/2 = 0.8125."""
    strata = Strata(np.array([0, 0, 1, 1]), np.array([0.75, 0.25]))
    interval = stratified_ratio_interval([1.0, 3.0, 10.0, 14.0], [1, 1, 1, 1], strata)
    assert interval.mean == pytest.approx(4.5)
    assert interval.std_error == pytest.approx(math.sqrt(0.8125))
    assert interval.hands == 4
    assert np.allclose(strata.weights, [1.5, 1.5, 0.5, 0.5])  # share over share drawn
    # shares estimated on 100 draws add sum_k share_k * mean_k(e)**2 / 100: stratum
    # means of the residuals -2.5 and 7.5, so (0.75 * 6.25 + 0.25 * 56.25) / 100
    estimated = Strata(strata.of, strata.shares, 100)
    assert stratified_ratio_interval([1.0, 3.0, 10.0, 14.0], [1, 1, 1, 1],
                                     estimated).std_error == pytest.approx(
        math.sqrt(0.8125 + 0.1875))
    # four uniform deals of that population: its variance sum_k share_k * (var_k + mean_k^2)
    # = 0.75 * (2 + 6.25) + 0.25 * (8 + 56.25) = 22.25, over four deals
    assert uniform_std_error([1.0, 3.0, 10.0, 14.0], [1, 1, 1, 1], strata) == (
        pytest.approx(math.sqrt(22.25 / 4)))


def test_two_hands_per_deal_divide_by_the_hands() -> None:
    strata = Strata(np.array([0, 0, 1, 1]), np.array([0.5, 0.5]))
    one = stratified_ratio_interval([1.0, 3.0, 10.0, 14.0], [1, 1, 1, 1], strata)
    two = stratified_ratio_interval([2.0, 6.0, 20.0, 28.0], [2, 2, 2, 2], strata)
    assert two.mean == pytest.approx(one.mean) and two.hands == 8
    assert two.std_error == pytest.approx(one.std_error)


def test_an_empty_stratum_with_a_share_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one deal"):
        stratified_ratio_interval([1.0, 2.0], [1, 1],
                                  Strata(np.array([0, 0]), np.array([0.5, 0.5])))


def test_the_stratified_interval_is_unbiased_and_covers() -> None:
    """A population of three strata with known means; 400 stratified samples of 60 draws
    (a fixed allocation far from proportional): the estimates average the population
    mean and their 95% intervals cover it about 95% of the time."""
    rng = np.random.default_rng(5)
    shares = np.array([0.7, 0.25, 0.05])
    means, spreads = np.array([0.0, 1.0, 10.0]), np.array([1.0, 3.0, 20.0])
    truth = float(shares @ means)
    of = np.repeat([0, 1, 2], [20, 20, 20])
    estimates = []
    for _ in range(400):
        draws = rng.normal(means[of], spreads[of])
        estimates.append(stratified_ratio_interval(draws, np.ones(60), Strata(of, shares)))
    centre = np.array([e.mean for e in estimates])
    assert abs(centre.mean() - truth) < 4 * centre.std() / math.sqrt(len(centre))
    covered = np.mean([e.low <= truth <= e.high for e in estimates])
    assert 0.90 <= covered <= 0.99


# ------------------------------------------------------------------- the strata --


def _strength(cards: np.ndarray) -> np.ndarray:
    """Share of the deck's hands strictly weaker than each hand (classic ranking)."""
    combos = np.array(list(itertools.combinations(range(NUM_CARDS), 3)))
    every = np.sort(HandOdds.of(CLASSIC).values(combos))
    values = HandOdds.of(CLASSIC).values(cards.reshape(-1, 3)).reshape(cards.shape[:-1])
    return np.searchsorted(every, values, side="left") / len(combos)


def test_a_deal_s_stratum_is_its_second_best_hand() -> None:
    cards = uniform_deals(np.random.default_rng(1), 500, 4)
    second = np.sort(_strength(cards), axis=1)[:, -2]
    assert np.array_equal(strata_of(cards, CLASSIC), np.digitize(second, STRATUM_EDGES))


def test_the_shares_of_two_seat_strata_are_close_to_the_exact_ones() -> None:
    """At two seats the second-best hand is the weaker one: the chance of each pair of
    strength buckets is exact (:class:`ChanceTable`), so the strata's exact shares are
    sums of it; the plan's Monte Carlo shares agree within four standard errors."""
    combos = np.array(list(itertools.combinations(range(NUM_CARDS), 3)))
    values = HandOdds.of(CLASSIC).values(combos)
    buckets = np.digitize(_strength(combos[:, None, :])[:, 0], STRATUM_EDGES)
    table = ChanceTable.of_hands(buckets, values.astype(np.int64), NUM_CARDS)
    exact = np.zeros(STRATA)
    for a, b in itertools.product(range(STRATA), repeat=2):
        exact[min(a, b)] += table.pair[a, b]
    fresh = 400_000
    shares = estimate_shares(np.random.default_rng(9), 2, fresh, CLASSIC)
    error = np.sqrt(exact * (1 - exact) / fresh)
    assert np.all(np.abs(shares - exact) <= 4 * error + 1e-12)
    assert shares.sum() == pytest.approx(1.0)


def test_deals_are_uniform_within_their_stratum() -> None:
    """Stratum 5's deals drawn one by one against uniform deals filtered to stratum 5: the
    same spread of the best hand's strength (means within four standard errors) and
    each card as often (aces more often than in a uniform deal, in both)."""
    rng = np.random.default_rng(3)
    drawn = np.array([deal_in_stratum(rng, 4, 5, CLASSIC) for _ in range(1500)])
    assert np.all(strata_of(drawn, CLASSIC) == 5)
    pool = uniform_deals(np.random.default_rng(4), 120_000, 4)
    filtered = pool[strata_of(pool, CLASSIC) == 5][:1500]
    best_drawn = _strength(drawn).max(axis=1)
    best_filtered = _strength(filtered).max(axis=1)
    error = math.hypot(best_drawn.std() / math.sqrt(len(best_drawn)),
                       best_filtered.std() / math.sqrt(len(best_filtered)))
    assert abs(best_drawn.mean() - best_filtered.mean()) < 4 * error
    counts = np.bincount(drawn.ravel(), minlength=NUM_CARDS)
    reference = np.bincount(filtered.ravel(), minlength=NUM_CARDS)
    assert np.all(np.abs(counts - reference) < 5 * np.sqrt(counts + reference))


def test_the_allocation_keeps_every_stratum_and_the_total() -> None:
    shares = np.array([0.5, 0.3, 0.15, 0.049, 0.001, 0, 0, 0, 0, 0, 0]) + 1e-4
    shares /= shares.sum()
    counts = allocate(shares, 500)
    assert counts.sum() == 500 and counts.min() >= MIN_PER_STRATUM


def test_a_plan_is_the_same_for_every_deal_order_and_weights_the_cards_back() -> None:
    """The plan deals strong collisions far more often than a uniform deal would; a
    function of the cards (seat 0 holds a colour or better) weighted by the plan averages
    its exact chance, while the unweighted mean is far above it."""
    config = ArenaConfig(("hard", "equity"), CLASSIC, 16_000, 11,
                         table=parse_table("2v2", 4), aivat=True)
    plan = deal_plan(config)
    assert plan is not None and len(plan.strata) == 4000
    assert plan.counts.sum() == 4000 and plan.counts.min() >= MIN_PER_STRATUM
    top = plan.counts[5:].sum() / 4000
    assert top > 3 * plan.shares[5:].sum()  # collisions oversampled
    assert draw_deal(config, 17).options == draw_deal(config, 17).options
    cards = np.array([draw_deal(config, d).options["cards"] for d in range(4000)])
    assert np.array_equal(strata_of(cards, CLASSIC), plan.strata)
    combos = np.array(list(itertools.combinations(range(NUM_CARDS), 3)))
    exact = float((_strength(combos[:, None, :])[:, 0] >= 0.9).mean())  # seat 0's chance
    held = (_strength(cards[:, :1])[:, 0] >= 0.9).astype(float)
    strata = Strata(plan.strata, plan.shares, plan.share_deals)
    weighted = stratified_ratio_interval(held, np.ones(4000), strata)
    assert abs(weighted.mean - exact) < 4 * weighted.std_error
    assert held.mean() - exact > 6 * math.sqrt(exact * (1 - exact) / 4000)


def test_small_runs_pilots_and_other_estimators_deal_uniformly() -> None:
    table = parse_table("2v2", 4)
    assert deal_plan(ArenaConfig(("hard", "equity"), CLASSIC, 400, 1, table=table,
                                 aivat=True)) is None  # 100 deals
    assert deal_plan(ArenaConfig(("hard", "equity"), CLASSIC, 16_000, 1, table=table)) is None
    assert deal_plan(ArenaConfig(("hard", "equity"), CLASSIC, 16_000, 1, table=table,
                                 aivat=True, pilot=True)) is None


# ------------------------------------------------------- the arena, by stratum --


@pytest.fixture
def stratified_small(monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs of 200 deals deal by stratum (the default needs 400)."""
    monkeypatch.setattr(aivat_strata, "MIN_STRATIFIED_DEALS", 100)


def _reports(agents: tuple[str, ...], table: str, seeds: range, hands: int) -> list:
    out = []
    for seed in seeds:
        config = ArenaConfig(agents, CLASSIC, hands, seed, table=parse_table(table, 4),
                             aivat=True)
        assert deal_plan(config) is not None
        out.extend(_play_reports([config], "batched", False, 1, False, None,
                                 pilot_hands=4 * MIN_PILOT_DEALS))
    return out


def _agree(estimates: list[Interval], truth: float) -> None:
    means = np.array([e.mean for e in estimates])
    spread = means.std(ddof=1) / math.sqrt(len(means))
    assert abs(means.mean() - truth) <= 3 * spread + 1e-12
    assert sum(e.low <= truth <= e.high for e in estimates) >= 0.7 * len(estimates)


def test_a_packer_against_a_caller_keeps_its_exact_edge(stratified_small: None) -> None:
    for report in _reports((PACKER, CALLER), "2v2", range(2), 800):
        assert report.agents[PACKER].result.mean == pytest.approx(-1.0, abs=1e-9)
        assert report.agents[CALLER].result.mean == pytest.approx(1.0, abs=1e-9)
        assert report.agents[PACKER].uncorrected.mean == pytest.approx(-1.0, abs=1e-9)


def test_an_agent_against_itself_keeps_a_zero_edge(
    stratified_small: None, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(aivat, "_chosen_ridge", lambda squared: 1.0)
    reports = _reports(("medium", "medium"), "2v2", range(6), 800)
    _agree([r.agents["medium"].result for r in reports], 0.0)
    _agree([r.agents["medium"].uncorrected for r in reports], 0.0)


def test_callers_in_a_field_keep_their_edge(stratified_small: None) -> None:
    """The packer and two identical callers (see tests/test_aivat.py): each caller makes
    +0.5 boots per hand, and the weighted means agree with it."""
    reports = _reports((PACKER, CALLER, CALLER_AGAIN), "field", range(6), 800)
    _agree([r.agents[CALLER].result for r in reports], 0.5)
    _agree([r.agents[CALLER].uncorrected for r in reports], 0.5)
    _agree([r.pairwise[CALLER][CALLER_AGAIN] for r in reports], 0.0)


def test_both_engines_deal_the_same_strata(stratified_small: None) -> None:
    kwargs = dict(hands=800, seed=4, table="2v2", variance_reduction="aivat",
                  pilot_hands=4 * MIN_PILOT_DEALS)
    batched = run_arena(["hard", "random"], engine="batched", **kwargs)
    per_table = run_arena(["hard", "random"], engine="per_table", **kwargs)
    assert batched.to_dict() == per_table.to_dict()
    assert batched.to_dict()["rows"][0]["arena"]["strata"]["strata"] == STRATA
