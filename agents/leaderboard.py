"""One table of who is best: every agent against every other at pair tables, one rating each.

:func:`run_leaderboard` plays every pair of the listed agents at each pair composition
(by default ``2v2``, every unordered pair, and ``1vN``, every ordered pair), each pairing
its own duplicate arena of the same hands on the same seed, so that all pairings share
their deals. Each pairing gives one gap: the agent's result per seat minus the opponent's,
in boots per hand (the arena's pairwise matrix). The ratings are the strengths fitted on
every gap (:func:`agents.ratings.fit_strengths`: weighted least squares, ties where the
fit would invert a significant gap), so a rating never ranks an agent above one that beat
it significantly in some pairing. Their 95% intervals, and those of the ranks, come from
a bootstrap over deals: the same deals are drawn with replacement for every pairing (they
share them), every gap is recomputed on the draw and the strengths are fitted again.

>>> board = run_leaderboard(["random", "hard"], hands=16, seed=0, bootstrap=20)
>>> [row.agent for row in board.rows]
['hard', 'random']
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents import SCRIPTED_AGENTS
from agents.arena import HeadToHeadReport, parse_table
from agents.arena.report import plot_intervals
from agents.arena.run import (
    RulesLike,
    check_pool,
    check_settings,
    play_pairings,
    rules_for_table,
)
from agents.arena.summary import pairwise_sums
from agents.policy import PRETRAINED_DIR
from agents.ratings import Gap, fit_strengths
from agents.stats import Interval

TABLES = ("2v2", "1vN")
"""The pair compositions a leaderboard plays by default."""


def default_agents() -> list[str]:
    """Every scripted agent and every shipped policy (``pretrained:<name>``), a file that
    repeats an earlier one byte for byte (``classic-v3`` is today's ``classic`` under a
    name of its own) seated once, under the earlier name."""
    seen: set[bytes] = set()
    shipped = []
    for path in sorted(PRETRAINED_DIR.glob("*.npz"), key=lambda path: path.stem):
        content = path.read_bytes()
        if content not in seen:
            seen.add(content)
            shipped.append(path.stem)
    return [*SCRIPTED_AGENTS, *(f"pretrained:{name}" for name in shipped)]


@dataclass(frozen=True)
class Standing:
    """One agent's line: its rating (boots per hand, the pool's mean at zero) with a 95%
    bootstrap interval, and the interval of its rank."""

    agent: str
    rating: float
    low: float
    high: float
    rank: int
    best_rank: int
    worst_rank: int
    won: int
    """Pairings in which it beat its opponent significantly (Holm-adjusted)."""
    lost: int

    def to_dict(self) -> dict[str, Any]:
        return {"agent": self.agent, "rating": self.rating, "low": self.low,
                "high": self.high, "rank": self.rank,
                "rank_interval": [self.best_rank, self.worst_rank],
                "significant_wins": self.won, "significant_losses": self.lost}


@dataclass
class Leaderboard:
    """The standings, best first, and the pairings they were fitted on."""

    rows: list[Standing]
    pairings: HeadToHeadReport
    gaps: list[Gap]
    bootstrap: int

    def to_dict(self) -> dict[str, Any]:
        config = self.pairings.config
        return {
            "format": "teenpatti-leaderboard/1",
            "agents": [row.agent for row in self.rows],
            "tables": self.pairings.tables,
            "rules": config.rules.to_dict(),
            "seed": config.seed,
            "hands_per_pairing": self.pairings.hands,
            "unit": "boots per hand (fitted per-seat gap), pool mean 0",
            "bootstrap": self.bootstrap,
            "standings": [row.to_dict() for row in self.rows],
            "gaps": [gap._asdict() for gap in self.gaps],
            "pairings": self.pairings.to_dict(),
        }

    def markdown(self) -> str:
        """The standings as a markdown table."""
        config = self.pairings.config
        lines = [
            f"Leaderboard: {len(self.rows)} agents, {', '.join(self.pairings.tables)} tables, "
            f"{self.pairings.hands} hands per pairing ({self.pairings.comparisons} pairings), "
            f"{config.rules.preset_name or 'custom rules'}, {config.players} seats, seed "
            f"{config.seed}; rating in boots per hand (pool mean 0), 95% bootstrap intervals "
            f"over deals ({self.bootstrap} draws).",
            "",
            "| rank | agent | rating | 95% CI | rank 95% CI | won | lost |",
            "| --- | --- | --- | --- | --- | --- | --- |",
        ]
        for row in self.rows:
            lines.append(
                f"| {row.rank} | `{row.agent}` | {row.rating:+.3f} | "
                f"[{row.low:+.3f}, {row.high:+.3f}] | {row.best_rank}-{row.worst_rank} | "
                f"{row.won} | {row.lost} |")
        lines += ["", "won / lost: pairings with an edge that holds after the "
                  "Holm-Bonferroni adjustment over all of them."]
        return "\n".join(lines)

    def write(self, folder: str | Path) -> list[Path]:
        """``leaderboard.md``, ``leaderboard.json`` and ``leaderboard.png`` in ``folder``."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        paths = [folder / f"leaderboard.{kind}" for kind in ("md", "json", "png")]
        paths[0].write_text(self.markdown() + "\n", encoding="utf-8")
        text = json.dumps(self.to_dict(), indent=2, allow_nan=False)
        paths[1].write_text(text + "\n", encoding="utf-8")
        rows = self.rows[::-1]
        plot_intervals(
            paths[2], [row.agent for row in rows],
            [Interval(row.rating, math.nan, row.low, row.high, 0, 0.95) for row in rows],
            f"Leaderboard ({', '.join(self.pairings.tables)}), {self.pairings.hands} hands "
            "per pairing\nrating: fitted boots per hand, 95% bootstrap interval",
        )
        return paths


def run_leaderboard(
    agents: Sequence[str] | None = None,
    hands: int = 2_000,
    tables: Sequence[str] = TABLES,
    rules: RulesLike = "classic",
    seed: int = 0,
    players: int | None = None,
    bootstrap: int = 200,
    workers: int | None = 1,
    progress: bool = False,
    engine: str = "auto",
) -> Leaderboard:
    """Play every pairing of ``agents`` (default :func:`default_agents`) at each of
    ``tables`` and fit the leaderboard, as the module says; ``hands`` per pairing, the
    other arguments are :func:`agents.arena.run_arena`'s."""
    pool = check_pool(default_agents() if agents is None else agents)
    if len(pool) < 2:
        raise ValueError(f"a leaderboard needs at least two agents, got {list(pool)}")
    if not isinstance(bootstrap, int) or isinstance(bootstrap, bool) or bootstrap < 1:
        raise ValueError(f"bootstrap must be a positive int, got {bootstrap!r}")
    check_settings(hands, seed, True, False, engine, None)
    settings = rules_for_table(rules, players)
    if isinstance(tables, str) or not tables:
        raise ValueError(f"tables must be a non-empty list of pair compositions, got {tables!r}")
    pairings = []
    for text in dict.fromkeys(tables):
        composition = parse_table(text, settings.num_players)
        if composition.seats is None:
            raise ValueError("a leaderboard plays pair compositions such as 2v2 and 1vN")
        pairings += [(composition, a, b) for i, a in enumerate(pool) for b in pool
                     if a != b and (not composition.symmetric or pool.index(b) > i)]
    report = play_pairings(pairings, settings, hands, seed, True, engine, False, workers,
                           progress, None)
    return fit_leaderboard(pool, report, bootstrap, seed)


def fit_leaderboard(pool: Sequence[str], report: HeadToHeadReport, bootstrap: int = 200,
                    seed: int = 0) -> Leaderboard:
    """The leaderboard of ``pool`` fitted on ``report``'s pairings (see the module)."""
    sums = []
    gaps = []
    for row in report.rows:
        arena = row.report
        assert arena.deals is not None
        numerators, counts = pairwise_sums(arena.config, arena.deals)[row.agent, row.opponent]
        sums.append((numerators, counts))
        interval = arena.pairwise[row.agent][row.opponent]
        gaps.append(Gap(row.agent, row.opponent, interval.mean, interval.std_error))
    strengths = fit_strengths(pool, gaps)
    draws = np.full((bootstrap, len(pool)), np.nan)
    rng = np.random.default_rng([seed, 31])
    deals = len(sums[0][0])
    for draw in range(bootstrap):
        chosen = rng.integers(deals, size=deals)
        resampled = []
        for gap, (numerators, counts) in zip(gaps, sums, strict=True):
            hands = counts[chosen].sum()
            mean = numerators[chosen].sum() / hands if hands else math.nan
            resampled.append(gap._replace(mean=float(mean)))
        fitted = fit_strengths(pool, resampled)
        draws[draw] = [fitted[name] for name in pool]
    ranks = _ranks(draws)
    order = sorted(range(len(pool)), key=lambda i: -strengths[pool[i]])
    won = dict.fromkeys(pool, 0)
    lost = dict.fromkeys(pool, 0)
    for row in report.rows:
        if row.significant:
            winner, loser = ((row.agent, row.opponent) if row.mean > 0
                             else (row.opponent, row.agent))
            won[winner] += 1
            lost[loser] += 1
    rows = []
    for rank, i in enumerate(order, start=1):
        name = pool[i]
        low, high = np.nanpercentile(draws[:, i], [2.5, 97.5])
        best, worst = np.percentile(ranks[:, i], [2.5, 97.5])
        rows.append(Standing(name, strengths[name], float(low), float(high), rank,
                             math.floor(best), math.ceil(worst), won[name],
                             lost[name]))
    return Leaderboard(rows, report, gaps, bootstrap)


def _ranks(draws: np.ndarray) -> np.ndarray:
    """Each agent's rank (1 = best) in each bootstrap draw, ties sharing the best rank."""
    ahead = (draws[:, None, :] > draws[:, :, None] + 1e-12).sum(axis=2)
    return np.asarray(ahead + 1)
