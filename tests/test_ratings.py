"""The strengths fitted on pairwise results (agents.ratings) and the arena's rating column:
never an agent ranked above one that beat it significantly."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.arena import run_arena
from agents.ratings import Z_95, Gap, fit_strengths


def test_two_agents_are_rated_their_gap_apart() -> None:
    # The case: the policy beat random by +2.9 [+1.8, +4.1]; the rating must agree.
    strengths = fit_strengths(["policy", "random"], [Gap("policy", "random", 2.9, 0.6)])
    assert strengths == pytest.approx({"policy": 1.45, "random": -1.45})


def test_weighted_fit_by_hand() -> None:
    # Gaps a-b = 1 (se 1), b-c = 1 (se 1), a-c = 4 (se 0.5): weights 1, 1, 4. The normal
    # equations with s_a + s_b + s_c = 0 give s_a - s_b = 1.5, s_b - s_c = 1.5 ... solved:
    # minimise (x - 1)^2 + (y - 1)^2 + 4 (x + y - 4)^2 over x = s_a - s_b, y = s_b - s_c:
    # x = y, (x - 1) + 4 (2x - 4) = 0, x = 17 / 9.
    x = 17 / 9
    strengths = fit_strengths("abc", [Gap("a", "b", 1, 1), Gap("b", "c", 1, 1),
                                      Gap("a", "c", 4, 0.5)])
    assert strengths["a"] - strengths["b"] == pytest.approx(x)
    assert strengths["b"] - strengths["c"] == pytest.approx(x)
    assert sum(strengths.values()) == pytest.approx(0.0)


def test_an_inverted_significant_gap_becomes_a_tie() -> None:
    # a beat b (+0.1, se 0.05: significant), but b crushed c while a barely beat it. With
    # x = s_a - s_b and y = s_b - s_c the plain fit minimises 400 (x - 0.1)^2
    # + 100 (y - 10)^2 + 100 (x + y - 1)^2: x = -41 / 45, b above a. The rating ties them.
    gaps = [Gap("a", "b", 0.1, 0.05), Gap("b", "c", 10.0, 0.1), Gap("a", "c", 1.0, 0.1)]
    strengths = fit_strengths("abc", gaps)
    assert strengths["a"] == pytest.approx(strengths["b"])
    assert strengths["c"] < strengths["a"]


def test_agents_in_no_gap_are_not_rated() -> None:
    strengths = fit_strengths("abz", [Gap("a", "b", 1.0, 0.1)])
    assert math.isnan(strengths["z"]) and strengths["a"] == pytest.approx(0.5)
    with pytest.raises(ValueError, match="not in"):
        fit_strengths("ab", [Gap("a", "x", 1.0, 0.1)])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4),
                          st.floats(-5, 5), st.floats(0.01, 3)), min_size=1, max_size=12))
def test_no_significant_gap_is_ever_inverted(rows: list[tuple[int, int, float, float]]) -> None:
    names = "abcde"
    gaps = [Gap(names[i], names[j], mean, se) for i, j, mean, se in rows if i != j]
    strengths = fit_strengths(names, gaps)
    for gap in gaps:
        if abs(gap.mean) > Z_95 * gap.std_error:
            assert (strengths[gap.a] - strengths[gap.b]) * gap.mean >= -1e-9


def test_the_arena_rating_column_follows_significant_results() -> None:
    report = run_arena(["random", "auto", "equity", "hard"], hands=400, seed=11,
                       engine="per_table")
    significant = 0
    for a, row in report.pairwise.items():
        for b, interval in row.items():
            if interval.low > 0:
                significant += 1
                assert (report.agents[a].rating["strength"]
                        >= report.agents[b].rating["strength"] - 1e-9)
    assert significant >= 3  # random loses to the others at 400 hands
    assert "rating" in report.table()
