"""The report of pair compositions (``2v2``, ``1vN``): one row per pairing, each its own
duplicate arena, with the Holm-Bonferroni adjustment over the rows."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.arena.report import (
    ArenaReport,
    estimator_lines,
    factor_notes,
    p_text,
    pilot_dict,
    plot_intervals,
    setting,
    write_json,
)
from agents.arena.seating import CONFIDENCE, ArenaConfig
from agents.stats import Interval, finite_or_none


@dataclass(frozen=True)
class HeadToHead:
    """One pairing of a table composition, from ``agent``'s side: what it won per hand
    (per seat it held, in boots) against ``opponent`` at ``table``, the p-value of "no
    edge" before and after the report's Holm-Bonferroni adjustment, and the pairing's
    whole arena report."""

    agent: str
    opponent: str
    table: str
    result: Interval
    p_value: float
    adjusted_p_value: float
    report: ArenaReport

    @property
    def mean(self) -> float:
        return self.result.mean

    @property
    def low(self) -> float:
        return self.result.low

    @property
    def high(self) -> float:
        return self.result.high

    @property
    def variance_reduction(self) -> float:
        """Variance of the plain per-hand mean / of the row's, on the same hands."""
        return self.report.agents[self.agent].variance_reduction

    @property
    def aivat_gain(self) -> float:
        """With AIVAT: variance with duplicate dealing alone / with AIVAT, same hands."""
        return self.report.agents[self.agent].aivat_gain

    @property
    def significant(self) -> bool:
        """Whether the edge (either way) holds after the adjustment, at a family-wise 5%."""
        return self.adjusted_p_value < 1 - CONFIDENCE

    def to_dict(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "opponent": self.opponent,
            "table": self.table,
            "boots_per_hand": self.result.to_dict(),
            "variance_reduction": finite_or_none(self.variance_reduction),
            "aivat_over_duplicate": finite_or_none(self.aivat_gain),
            "p_value": self.p_value,
            "holm_p_value": self.adjusted_p_value,
            "significant": self.significant,
            "arena": self.report.to_dict(),
        }


@dataclass
class HeadToHeadReport:
    """The pairings of one or more table compositions, each its own duplicate arena of
    the same number of hands on the same seed; ``rows`` in play order."""

    rows: list[HeadToHead]

    @property
    def comparisons(self) -> int:
        """How many claims the report makes: one per row (the adjustment's ``m``)."""
        return len(self.rows)

    @property
    def config(self) -> ArenaConfig:
        """The first pairing's settings (the rules, hands and seed all pairings share)."""
        return self.rows[0].report.config

    @property
    def hands(self) -> int:
        """Hands each pairing played."""
        return self.rows[0].report.hands

    @property
    def tables(self) -> list[str]:
        """The compositions played, in order."""
        return list(dict.fromkeys(row.table for row in self.rows))

    def to_dict(self) -> dict[str, Any]:
        config = self.config
        return {
            "format": "teenpatti-head-to-head/1",
            "tables": self.tables,
            "rules": config.rules.to_dict(),
            "seed": config.seed,
            "duplicate": config.duplicate,
            "variance_reduction": config.variance_reduction,
            "hands": self.hands,
            "deals": config.deals,
            **pilot_dict(next((row.report.pilot for row in self.rows
                               if row.report.pilot is not None), None)),
            "confidence": CONFIDENCE,
            "unit": "boots per hand won by the agent, per seat it held",
            "comparisons": self.comparisons,
            "adjustment": "holm-bonferroni",
            "rows": [row.to_dict() for row in self.rows],
        }

    def to_json(self, path: str | Path) -> None:
        write_json(self.to_dict(), path)

    def table(self) -> str:
        """A readable text report: one line per pairing and what the adjustment kept."""
        config = self.config
        descriptions = {row.table: row.report.config.table.describe() for row in self.rows}
        width = max(10, *(len(row.agent) for row in self.rows))
        versus = max(10, *(len(row.opponent) for row in self.rows))
        lines = [
            f"{self.hands} hands per pairing ({config.deals} deals"
            + (f" x {config.rotations} seatings" if config.duplicate else "")
            + f"), {config.players} seats, seed {config.seed}; boots per hand won by the "
            "agent, per seat it held, 95% CI",
            *(f"table: {description}" for description in descriptions.values()),
            *dict.fromkeys(line for row in self.rows  # a shipped value network or a pilot
                           for line in estimator_lines(row.report.config, row.report.pilot)),
            "",
            f"{'agent':<{width}} {'opponent':<{versus}} {'table':<6} {'boots/hand':>10} "
            f"{'95% CI':>19} {'var/':>6}" + (f" {'dup/':>6}" if config.aivat else "")
            + f" {'p':>8} {'Holm p':>8}",
        ]
        for row in self.rows:
            ci = f"[{row.low:+.3f}, {row.high:+.3f}]"
            star = " *" if row.significant else ""
            factors = (f"{row.variance_reduction:>6.1f}" if config.duplicate else f"{'-':>6}")
            if config.aivat:
                factors += f" {row.aivat_gain:>6.1f}"
            lines.append(
                f"{row.agent:<{width}} {row.opponent:<{versus}} {row.table:<6} "
                f"{row.mean:>+10.3f} {ci:>19} {factors} {p_text(row.p_value):>8} "
                f"{p_text(row.adjusted_p_value):>8}{star}"
            )
        lines += [
            "",
            *(factor_notes(config) if config.duplicate else []),
            f"{self.comparisons} comparison{'s' if self.comparisons > 1 else ''}; "
            "Holm p: the p-value after the Holm-Bonferroni adjustment over all of them;",
            "* = the edge holds after it (at most a 5% chance of any false claim in the "
            "report).",
        ]
        return "\n".join(lines)

    def plot(self, path: str | Path) -> None:
        """A PNG of every pairing's result (the agent's side) with its 95% interval."""
        rows = self.rows[::-1]
        labels = [f"{row.agent} vs {row.opponent} ({row.table})"
                  + (" *" if row.significant else "") for row in rows]
        plot_intervals(
            path, labels, [row.result for row in rows],
            f"Head to head ({', '.join(self.tables)} tables): {setting(self.config)}, "
            f"{self.hands} hands each\n* significant after Holm-Bonferroni over "
            f"{self.comparisons} comparisons",
        )
