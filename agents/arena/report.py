"""The field's report (:class:`ArenaReport`): its JSON form, text table and plot, and the
helpers every arena report writes with."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.arena.aivat_net import value_net
from agents.arena.aivat_strata import deal_plan
from agents.arena.aivat_values import linear_model
from agents.arena.seating import CONFIDENCE, TRACKED_ACTIONS, ArenaConfig, Deals
from agents.arena.summary import AgentResult
from agents.loop import MISSED_TURNS
from agents.stats import Interval, holm_adjusted, two_sided_p_value


@dataclass
class ArenaReport:
    """Everything an arena run measured; ``to_dict`` is its JSON form."""

    config: ArenaConfig
    agents: dict[str, AgentResult]
    pairwise: dict[str, dict[str, Interval]]
    """``pairwise[a][b]``: a's result minus b's, per hand they shared, in boots."""
    plain: dict[str, Interval] | None = None
    """Results of the same agents over as many independent deals (``compare_plain``)."""
    deals: Deals | None = field(default=None, repr=False, compare=False)
    """The raw results the report was made from (not part of its JSON)."""
    pilot: ArenaConfig | None = None
    """With AIVAT: the pilot the value function was fitted on (separate deals)."""
    corrections: NDArray[np.float64] | None = field(default=None, repr=False, compare=False)
    """With AIVAT: every ``[deal, rotation, seat]``'s correction in boots (not in the JSON)."""

    @property
    def hands(self) -> int:
        return self.config.deals * self.config.rotations

    def pairwise_adjusted(self) -> dict[str, dict[str, float]]:
        """``[a][b]``: the p-value of "a and b are level" after the Holm-Bonferroni
        adjustment over every pair of agents that shared a table (one comparison per pair,
        :meth:`pairwise_comparisons` of them)."""
        pairs = [(a, b) for i, a in enumerate(self.config.agents)
                 for b in self.config.agents[i + 1:] if b in self.pairwise.get(a, {})]
        adjusted = holm_adjusted([two_sided_p_value(self.pairwise[a][b]) for a, b in pairs])
        out: dict[str, dict[str, float]] = {name: {} for name in self.config.agents}
        for (a, b), q in zip(pairs, adjusted, strict=True):
            out[a][b] = out[b][a] = q
        return out

    def pairwise_comparisons(self) -> int:
        """How many pairs of agents the pairwise matrix compares."""
        return sum(len(row) for row in self.pairwise.values()) // 2

    def ranking(self) -> list[str]:
        """Agent names, best mean result first (agents that played no hand last)."""

        def key(name: str) -> tuple[bool, float]:
            mean = self.agents[name].result.mean
            return (math.isnan(mean), 0.0 if math.isnan(mean) else -mean)

        return sorted(self.agents, key=key)

    def to_dict(self) -> dict[str, Any]:
        config = self.config
        out: dict[str, Any] = {
            "format": "teenpatti-arena/1",
            "table": config.table.name,
            "agents": list(config.agents),
            "remote": [name for name in config.agents if name in config.remote],
            "rules": config.rules.to_dict(),
            "seed": config.seed,
            "duplicate": config.duplicate,
            "variance_reduction": config.variance_reduction,
            "hands": self.hands,
            "deals": config.deals,
            **pilot_dict(self.pilot),
            **value_function_dict(config, self.pilot),
            "confidence": CONFIDENCE,
            "unit": "boots per hand",
            "results": {name: self.agents[name].to_dict() for name in self.ranking()},
            "pairwise": {
                a: {b: interval.to_dict() for b, interval in row.items()}
                for a, row in self.pairwise.items()
            },
            "pairwise_comparisons": self.pairwise_comparisons(),
            "pairwise_holm_p_value": self.pairwise_adjusted(),
        }
        if self.plain is not None:
            out["plain"] = {name: interval.to_dict() for name, interval in self.plain.items()}
        return out

    def to_json(self, path: str | Path) -> None:
        write_json(self.to_dict(), path)

    def table(self) -> str:
        """A readable text report: results, rates, ratings, the pairwise matrix."""
        config = self.config
        width = max(10, *(len(name) for name in config.agents))
        short = {name: short_label(name) for name in config.agents}
        column = max(10, *(len(label) + 1 for label in short.values()))
        lines = [
            f"{self.hands} hands ({config.deals} deals"
            + (f" x {config.rotations} seatings" if config.duplicate else "")
            + f"), {config.players} seats, seed {config.seed}; boots per hand, 95% CI",
            f"table: {config.table.describe()}",
            *estimator_lines(config, self.pilot),
            "",
            f"{'agent':<{width}} {'boots/hand':>10} {'95% CI':>19} {'win':>6} {'look':>6} "
            f"{'pack':>6} {'show':>6} {'side':>6} {'rating':>7} {'var/':>6}"
            + (f" {'dup/':>6}" if config.aivat else ""),
        ]
        for name in self.ranking():
            r = self.agents[name]
            ci = f"[{r.result.low:+.3f}, {r.result.high:+.3f}]"
            rates = " ".join(f"{r.rates[k]:>6.1%}" for k in TRACKED_ACTIONS)
            reduction = f"{r.variance_reduction:>6.1f}" if config.duplicate else f"{'-':>6}"
            gain = f" {r.aivat_gain:>6.1f}" if config.aivat else ""
            lines.append(
                f"{name:<{width}} {r.result.mean:>+10.3f} {ci:>19} {r.win_rate:>6.1%} {rates} "
                f"{r.rating.get('strength', math.nan):>+7.2f} {reduction}{gain}"
            )
        if config.duplicate:
            lines += ["", *factor_notes(config)]
        lines += self._missed_lines(width)
        lines += [
            "",
            "Pairwise: row minus column, boots per hand at the tables they shared "
            "(* = 95% CI excludes 0;",
            "** = and the gap holds after the Holm-Bonferroni adjustment over the "
            f"{self.pairwise_comparisons()} pairs)",
        ]
        order = self.ranking()
        adjusted = self.pairwise_adjusted()
        lines.append((" " * width + "".join(f"{short[n]:>{column - 2}}  " for n in order))
                     .rstrip())
        for a in order:
            cells = []
            for b in order:
                if a == b or b not in self.pairwise.get(a, {}):
                    cells.append(f"{'-':>{column - 2}}  ")
                    continue
                interval = self.pairwise[a][b]
                star = "*" if interval.low > 0 or interval.high < 0 else ""
                if star and adjusted[a][b] < 1 - CONFIDENCE:
                    star = "**"
                cells.append(f"{interval.mean:>+{column - 2}.3f}{star:<2}")
            lines.append((f"{a:<{width}}" + "".join(cells)).rstrip())
        if self.plain is not None:
            lines += ["", "Independent deals, same number of hands (measured):"]
            for name in order:
                plain, dup = self.plain[name], self.agents[name].result
                ratio = (plain.std_error / dup.std_error) ** 2 if dup.std_error else math.nan
                lines.append(
                    f"{name:<{width}} {plain.mean:>+10.3f} +/- {plain.half_width:.3f} "
                    f"(duplicate +/- {dup.half_width:.3f}; variance ratio {ratio:.1f})"
                )
        return "\n".join(lines)

    def _missed_lines(self, width: int) -> list[str]:
        """The remote bots' missed turns by kind (each played as a missed turn is)."""
        remote = [name for name in self.ranking() if name in self.config.remote]
        if not remote:
            return []
        lines = ["", "Remote bots' missed turns (each played as missed: pack, refuse, "
                 "continue):",
                 f"{'agent':<{width}} " + " ".join(f"{kind:>8}" for kind in MISSED_TURNS)]
        for name in remote:
            missed = self.agents[name].missed
            lines.append(f"{name:<{width}} "
                         + " ".join(f"{missed.get(kind, 0):>8}" for kind in MISSED_TURNS))
        return lines

    def plot(self, path: str | Path) -> None:
        """A PNG of every agent's result with its 95% interval."""
        order = self.ranking()[::-1]
        config = self.config
        plot_intervals(
            path, order, [self.agents[name].result for name in order],
            f"Arena ({config.table.name} tables): {setting(config)}, {self.hands} hands",
        )


def setting(config: ArenaConfig) -> str:
    """The rules, seats and dealing of a run, for a plot's title."""
    preset = config.rules.preset_name or "custom rules"
    dealing = "duplicate" if config.duplicate else "independent"
    return (f"{preset}, {config.players} seats, {dealing} deals"
            + (" + AIVAT" if config.aivat else ""))


def estimator_lines(config: ArenaConfig, pilot: ArenaConfig | None) -> list[str]:
    """The report's line saying how luck was taken out of the figures."""
    if not config.aivat:
        return [f"variance reduction: {config.variance_reduction}"]
    plan = deal_plan(config)
    strata = ("" if plan is None else
              f"; deals drawn from {len(plan.shares)} strata of the second-best hand's "
              "strength, collisions of strong hands more often, each stratum weighted by "
              f"its share of all deals ({plan.share_deals} fresh deals)")
    if pilot is None:
        kinds = " and ".join(kind for kind, shipped in (
            ("a value network shipped", value_net(config)),
            ("linear weights shipped", linear_model(config))) if shipped is not None)
        return [f"variance reduction: aivat on duplicate dealing (the luck of the deal "
                f"subtracted with {kinds} for this pairing, fitted offline on separate "
                f"seeds; a network's expectation by Monte Carlo over fresh deals{strata})"]
    return [f"variance reduction: aivat on duplicate dealing (the luck of the deal "
            f"subtracted with a value function fitted on a pilot of {pilot.hands} hands of "
            f"separate deals{strata})"]


def factor_notes(config: ArenaConfig) -> list[str]:
    """What the variance factor columns mean."""
    notes = ["var/: variance of the plain per-hand mean (every hand as if dealt "
             "independently) / of the reported one, on the same hands."]
    if config.aivat:
        notes.append("dup/: variance with duplicate dealing alone (on as many uniformly "
                     "drawn deals, estimated from these hands) / with AIVAT on it.")
    return notes


def pilot_dict(pilot: ArenaConfig | None) -> dict[str, Any]:
    """The JSON fields of an AIVAT pilot."""
    if pilot is None:
        return {}
    return {"pilot": {"hands": pilot.hands, "deals": pilot.deals}}


def value_function_dict(config: ArenaConfig, pilot: ArenaConfig | None) -> dict[str, Any]:
    """The JSON field naming an AIVAT run's value function: ``pilot`` (fitted on the
    run's pilot) or ``shipped`` (value functions fitted offline on separate seeds), and
    with stratified dealing its ``strata`` (:meth:`DealPlan.to_dict`)."""
    if not config.aivat:
        return {}
    plan = deal_plan(config)
    return {"value_function": "pilot" if pilot is not None else "shipped",
            **({} if plan is None else {"strata": plan.to_dict()})}


def plot_intervals(
    path: str | Path, labels: Sequence[str], intervals: Sequence[Interval], title: str
) -> None:
    """A PNG of one 95% interval per label, bottom to top."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lines = title.count("\n") + 1
    figure, axes = plt.subplots(figsize=(7, 0.5 * len(labels) + 1.2 + 0.3 * lines))
    axes.errorbar([i.mean for i in intervals], range(len(labels)),
                  xerr=[i.half_width for i in intervals], fmt="o", capsize=4)
    axes.axvline(0.0, color="grey", linewidth=0.8)
    axes.set_yticks(range(len(labels)), labels)
    axes.set_xlabel("boots per hand (95% CI)")
    axes.set_title(title, fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def write_json(data: dict[str, Any], path: str | Path) -> None:
    text = json.dumps(data, indent=2, allow_nan=False)
    Path(path).write_text(text + "\n", encoding="utf-8")


def short_label(name: str) -> str:
    """A column label: a policy file's name without its folders; a long name (a remote
    bot's command) cut to :data:`LABEL_WIDTH` characters."""
    kind, _, where = name.partition(":")
    if kind == "ppo" and where:
        return f"ppo:{Path(where).stem}"
    return name if len(name) <= LABEL_WIDTH else name[:LABEL_WIDTH - 3] + "..."


LABEL_WIDTH = 24


def p_text(p: float) -> str:
    return "<0.0001" if p < 1e-4 else f"{p:.4f}"
