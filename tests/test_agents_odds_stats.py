"""``HandOdds`` against a brute-force enumeration; ``ratio_interval`` against hand-worked
numbers and a coverage simulation."""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pytest
from builders.reference_model import hand_key
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.odds import HandOdds, beat_in_range
from agents.stats import ratio_interval, z_value
from teenpatti_env import Rules, compare_hands

# -------------------------------------------------------------------------------- 4. odds


def brute_percentile(cards: list[int], dead: list[int], rules: Rules) -> float:
    """Share of the opponent hands avoiding ``cards`` and ``dead`` that ``cards`` beat
    (ties half), by comparing with every one of them."""
    free = [c for c in range(52) if c not in cards and c not in dead]
    score = 0.0
    total = 0
    for other in itertools.combinations(free, 3):
        outcome = compare_hands(cards, list(other), rules)
        score += 1.0 if outcome > 0 else 0.5 if outcome == 0 else 0.0
        total += 1
    return score / total


def as_reference(card: int) -> tuple[int, str]:
    return card // 4 + 2, "shdc"[card % 4]


def reference_percentile(cards: list[int], dead: list[int], rules: dict) -> float:
    """The same share with the independent reference model's hand keys."""
    free = [c for c in range(52) if c not in cards and c not in dead]
    mine = hand_key([as_reference(c) for c in cards], rules)
    score = 0.0
    total = 0
    for other in itertools.combinations(free, 3):
        theirs = hand_key([as_reference(c) for c in other], rules)
        score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        total += 1
    return score / total


def test_percentile_of_a_trail_of_aces() -> None:
    aces = [48, 49, 50]
    odds = HandOdds.of(Rules())
    assert odds.percentile(aces, ()) == 1.0  # nothing ties or beats it
    assert odds.percentile(aces, (51, 0, 1, 2)) == 1.0
    assert brute_percentile(aces, [], Rules()) == 1.0
    # Under lowball it is the worst hand there is.
    assert HandOdds.of(Rules(lowball=True)).percentile(aces, ()) == 0.0


@pytest.mark.parametrize(
    ("rules", "seed"),
    [(Rules(), 0), (Rules(best_sequence="A23"), 1), (Rules(lowball=True), 2)],
    ids=["AKQ", "A23", "lowball"],
)
def test_percentile_matches_brute_force(rules: Rules, seed: int) -> None:
    odds = HandOdds.of(rules)
    assert HandOdds.of(rules.to_dict()) is odds  # cached per ranking, also from a dict
    rng = np.random.default_rng(seed)
    hands: list[tuple[list[int], list[int]]] = [
        ([0, 5, 14], []),  # 5-3-2 of three suits
        ([44, 45, 32], [46, 47]),  # a pair of kings, the other kings dead
        ([48, 0, 4], [49, 1, 5, 50]),  # A-2-3 of spades, Ah 2h 3h Ad dead
    ]
    for _ in range(3):
        deck = rng.permutation(52)
        hands.append((sorted(deck[:3].tolist()), deck[3 : 3 + int(rng.integers(0, 10))].tolist()))
    reference_rules = {"best_sequence": rules.best_sequence, "lowball": rules.lowball}
    for cards, dead in hands:
        expected = brute_percentile(cards, dead, rules)
        assert odds.percentile(cards, dead) == pytest.approx(expected, abs=1e-12)
        assert reference_percentile(cards, dead, reference_rules) == pytest.approx(expected)


def test_percentile_of_the_lowest_hand_and_of_a_pair() -> None:
    """5-3-2 of three suits beats nothing and ties the other 5-3-2 hands that are not a
    colour: 3 * 3 * 3 = 27 suit choices left, less 5c-3c-2c, so 26 ties of 18,424."""
    odds = HandOdds.of(Rules())
    assert odds.percentile([0, 5, 14], ()) == pytest.approx(13 / 18424, abs=1e-15)
    pair = odds.percentile([44, 45, 32], ())
    assert pair == pytest.approx(brute_percentile([44, 45, 32], [], Rules()))


def test_beat_in_range_edges() -> None:
    assert beat_in_range(0.9, 0.5) == pytest.approx(0.8)
    for percentile in (0.0, 0.25, 0.5, 0.99, 1.0):
        assert beat_in_range(percentile, 1.0) == pytest.approx(percentile)
        assert beat_in_range(percentile, 2.0) == pytest.approx(percentile)  # top clamped to 1
    assert beat_in_range(0.5, 0.5) == 0.0  # the bottom of the top half
    assert beat_in_range(0.3, 0.5) == 0.0  # below the range: never beats it
    assert beat_in_range(1.0, 0.1) == pytest.approx(1.0)
    assert beat_in_range(1.0, 0.0) == pytest.approx(1.0)  # an empty range is clamped
    assert beat_in_range(0.999, 0.0) == 0.0
    assert beat_in_range(0.95, -1.0) == 0.0
    values = [beat_in_range(p / 20, 0.3) for p in range(21)]
    assert values == sorted(values) and all(0.0 <= v <= 1.0 for v in values)


# ------------------------------------------------------------------------------ 5. statistics


def test_z_value() -> None:
    assert z_value() == pytest.approx(1.959963984540054, abs=1e-9)
    assert z_value(0.95) == pytest.approx(1.959964, abs=1e-6)
    assert z_value(0.99) == pytest.approx(2.5758293035489, abs=1e-9)
    assert z_value(0.6826894921370859) == pytest.approx(1.0, abs=1e-9)
    for bad in (0.0, 1.0, -0.5, 1.5, math.nan):
        with pytest.raises(ValueError):
            z_value(bad)


def test_ratio_interval_one_hand_per_deal() -> None:
    interval = ratio_interval([1.0, 2.0, 3.0, 4.0, 5.0], [1, 1, 1, 1, 1])
    assert interval.mean == 3.0
    # sample variance 2.5, over 5 hands
    assert interval.std_error == pytest.approx(math.sqrt(2.5 / 5))
    assert interval.std_error == pytest.approx(0.7071067811865476)
    assert interval.half_width == pytest.approx(1.959963984540054 * 0.7071067811865476)
    assert interval.low == pytest.approx(3.0 - 1.3859038243496777)
    assert interval.high == pytest.approx(3.0 + 1.3859038243496777)
    assert interval.hands == 5 and interval.confidence == 0.95
    assert interval.to_dict() == {
        "mean": interval.mean, "std_error": interval.std_error,
        "low": interval.low, "high": interval.high, "hands": 5,
    }


def test_ratio_interval_clustered_by_hand() -> None:
    # totals [2, 0, 4] over counts [2, 1, 1]: mean 6 / 4 = 1.5;
    # residuals x - mean * n: 2 - 3 = -1, 0 - 1.5 = -1.5, 4 - 1.5 = 2.5;
    # squares 1 + 2.25 + 6.25 = 9.5; var = 3 / 2 * 9.5 / 4 ** 2 = 0.890625.
    interval = ratio_interval([2.0, 0.0, 4.0], [2, 1, 1])
    assert interval.mean == 1.5
    assert interval.std_error == pytest.approx(math.sqrt(0.890625))
    assert interval.std_error == pytest.approx(0.9437293044088437)
    assert interval.hands == 4
    assert interval.low == pytest.approx(1.5 - 1.959963984540054 * 0.9437293044088437)
    # 90%: z = 1.6448536269514722
    ninety = ratio_interval(np.array([2.0, 0.0, 4.0]), np.array([2, 1, 1]), confidence=0.9)
    assert ninety.high == pytest.approx(1.5 + 1.6448536269514722 * 0.9437293044088437)
    assert ninety.confidence == 0.9


def test_ratio_interval_counts_empty_deals_as_deals() -> None:
    # totals [3, 1, 0] over [1, 1, 0]: mean 2, residuals 1, -1, 0; B = 3 deals:
    # var = 3 / 2 * 2 / 2 ** 2 = 0.75 (without the empty deal it would be 2 / 1 * 2 / 4 = 1).
    interval = ratio_interval([3.0, 1.0, 0.0], [1, 1, 0])
    assert interval.mean == 2.0
    assert interval.std_error == pytest.approx(math.sqrt(0.75))
    assert interval.hands == 2


def test_ratio_interval_degenerate_cases() -> None:
    single = ratio_interval([4.0], [2])
    assert single.mean == 2.0 and single.std_error == math.inf
    assert single.low == -math.inf and single.high == math.inf
    empty = ratio_interval([0.0, 0.0], [0, 0])
    assert math.isnan(empty.mean) and empty.hands == 0
    constant = ratio_interval([2.0, 4.0, 6.0], [1, 2, 3])
    assert constant.mean == 2.0 and constant.std_error == 0.0
    assert constant.low == constant.high == 2.0


@pytest.mark.parametrize(
    ("totals", "counts", "confidence"),
    [
        ([1.0, 2.0], [1], 0.95),
        ([1.0], [1, 1], 0.95),
        ([[1.0, 2.0]], [[1, 1]], 0.95),
        (1.0, 1, 0.95),
        ([1.0, 2.0], [1, 1], 0.0),
        ([1.0, 2.0], [1, 1], 1.0),
        ([1.0, 2.0], [1, 1], 95),
    ],
)
def test_ratio_interval_rejects_bad_input(totals: Any, counts: Any, confidence: float) -> None:
    with pytest.raises(ValueError):
        ratio_interval(totals, counts, confidence)


def test_ratio_interval_matches_the_textbook_with_one_hand_per_deal() -> None:
    values = np.random.default_rng(0).normal(0.3, 2.0, size=200)
    interval = ratio_interval(values, np.ones(200, dtype=int))
    assert interval.mean == pytest.approx(values.mean())
    assert interval.std_error == pytest.approx(values.std(ddof=1) / math.sqrt(200))


@settings(max_examples=60, deadline=None)
@given(
    data=st.lists(
        st.tuples(st.floats(-50, 50, allow_nan=False), st.integers(0, 6)), min_size=2,
        max_size=30,
    ).filter(lambda rows: sum(n for _, n in rows) > 0),
    scale=st.floats(-5, 5).filter(lambda s: abs(s) > 1e-3),
    shift=st.floats(-5, 5),
)
def test_ratio_interval_is_equivariant(
    data: list[tuple[float, int]], scale: float, shift: float
) -> None:
    totals = np.array([x for x, _ in data])
    counts = np.array([n for _, n in data])
    base = ratio_interval(totals, counts)
    scaled = ratio_interval(scale * totals + shift * counts, counts)
    assert scaled.mean == pytest.approx(scale * base.mean + shift, abs=1e-6)
    assert scaled.std_error == pytest.approx(abs(scale) * base.std_error, rel=1e-6, abs=1e-6)
    order = np.argsort(-totals, kind="stable")
    permuted = ratio_interval(totals[order], counts[order])
    assert permuted.mean == pytest.approx(base.mean)
    assert permuted.std_error == pytest.approx(base.std_error, abs=1e-9)


def test_ratio_interval_covers_the_true_mean_about_95_percent_of_the_time() -> None:
    """Clusters of 1..6 hands with a shared random effect per cluster (so hands within a
    cluster are correlated, as under duplicate dealing), true mean 0.3."""
    rng = np.random.default_rng(2024)
    covered = 0
    repetitions = 400
    for _ in range(repetitions):
        deals = 60
        counts = rng.integers(1, 7, size=deals)
        effects = rng.normal(0.0, 1.5, size=deals)
        totals = np.array(
            [(0.3 + effects[b] + rng.normal(0.0, 2.0, size=n)).sum() for b, n in enumerate(counts)]
        )
        interval = ratio_interval(totals, counts)
        covered += interval.low <= 0.3 <= interval.high
    assert 0.90 <= covered / repetitions <= 0.99, covered / repetitions


def test_naive_interval_undercovers_clustered_data() -> None:
    """The cluster-robust error is wider than the naive per-hand one when hands within a
    deal are correlated (the reason the arena clusters by deal)."""
    rng = np.random.default_rng(5)
    counts = np.full(100, 4)
    effects = rng.normal(0.0, 2.0, size=100)
    hands = effects[:, None] + rng.normal(0.0, 1.0, size=(100, 4))
    clustered = ratio_interval(hands.sum(axis=1), counts)
    naive = hands.std(ddof=1) / math.sqrt(hands.size)
    assert clustered.std_error > 1.5 * naive
