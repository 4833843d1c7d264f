"""The best of several exploiters: a lower bound on exploitability that search and learning
share.

One best response is only as good as its method: PPO from scratch can learn to pack every
hand, PPO started from a strong policy keeps that policy's habits, and a rule search finds
only what its family can express. :func:`best_response` therefore tries several exploiters,
each trained or searched on deals of its own:

* ``scratch``: PPO from a fresh network (:func:`training.exploit.train_best_response`);
* ``target``: PPO from the target's own weights, when it is a trained policy;
* ``shipped``: PPO from the strongest shipped policy (:data:`STRONGEST_SHIPPED`), when it
  fits the table and is not the target itself;
* ``search``: the best rule strategy found by :func:`training.rule_search.
  search_rule_response`;
* ``copy``: the target itself, which at a table of copies of the target wins exactly zero in
  expectation (a symmetric zero-sum game), so it is not played: the figure is ``0``.

All of them are measured on the same fresh duplicate deals (one seat against the target in
every other seat), and the report names the one that won. An exploiter that loses is a
*failed* best response: its figure is shown as such and never taken as the exploitability,
which is the best figure, so never below zero. Choosing the best of ``k`` measured figures
favours luck a little; each figure's interval is its own.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents import POLICY_PREFIXES, make_agent
from teenpatti_env.rules import Rules
from training.exploit import exploit_rules, in_variant, measure_response, train_best_response
from training.rule_search import SearchBudget, search_rule_response

STRONGEST_SHIPPED = "pretrained:classic"
"""The shipped policy the ``shipped`` exploiter starts from (first in the shipped field)."""

EXPLOITERS = ("scratch", "target", "shipped", "search", "copy")

DEFAULT_PPO_STEPS = 100_000
"""Decisions each PPO exploiter trains for by default (10 to 80 s each on the busy 2-core
machine; docs/exploitability.md says where the curves still rise)."""

DEFAULT_HANDS = 10_000
"""Duplicate hands of the default measurement, per exploiter."""


@dataclass
class ExploiterResult:
    """What one exploiter won from the target on the measurement's deals."""

    name: str
    """``scratch``, ``target``, ``shipped``, ``search`` or ``copy``."""
    description: str
    spec: str
    """The agent spec that was measured (``ppo:PATH``, ``rule:...``, the target's name)."""
    mean: float
    low: float
    high: float
    budget: str
    """What it trained or searched for, in words."""
    seconds: float
    curve: list[tuple[int, float]] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        """It lost to the target: no best response at all."""
        return self.mean < 0

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["failed"] = self.failed
        data["curve"] = [list(point) for point in self.curve]
        return data


@dataclass
class BestResponseReport:
    """Every exploiter's figure against ``agent`` and the best of them."""

    agent: str
    players: int
    hands: int
    seed: int
    exploiters: list[ExploiterResult]
    seconds: float
    variant: str = "classic"
    """The variant played."""

    @property
    def best(self) -> ExploiterResult:
        """The exploiter that won most (the copy, at zero, when every other one failed)."""
        return max(self.exploiters, key=lambda result: result.mean)

    @property
    def exploitability(self) -> float:
        """The best figure, a lower bound on the true exploitability (never below zero)."""
        return max(self.best.mean, 0.0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "agent": self.agent, "players": self.players, "variant": self.variant,
            "hands": self.hands,
            "seed": self.seed, "seconds": self.seconds, "best": self.best.name,
            "exploitability": self.exploitability,
            "exploiters": [result.to_dict() for result in self.exploiters],
        }

    def summary(self) -> str:
        best = self.best
        if best.name == "copy":
            return (f"{self.agent}: every exploiter failed (none won from it); the "
                    f"exploitability's lower bound is 0, what copying it wins "
                    f"({self.hands:,} duplicate hands{in_variant(self.variant)}, one seat "
                    f"against {self.players - 1} copies)")
        return (f"{self.agent}: the best of {len(self.exploiters)} exploiters ({best.name}: "
                f"{best.description}) wins {best.mean:+.3f} boots per hand [{best.low:+.3f}, "
                f"{best.high:+.3f}] (95% interval, {self.hands:,} duplicate "
                f"hands{in_variant(self.variant)}, one seat against {self.players - 1} copies)")

    def markdown(self) -> str:
        """The report as a markdown table, one row per exploiter."""
        lines = [f"# Best response against `{self.agent}`", "",
                 f"One seat against {self.players - 1} copies{in_variant(self.variant)}, "
                 f"{self.hands:,} duplicate hands per exploiter on the same deals (seed "
                 f"{self.seed}), {self.seconds:.0f} s.",
                 "", "| exploiter | boots per hand | 95% interval | budget | seconds | |",
                 "|---|---:|---|---|---:|---|"]
        best = self.best
        for result in self.exploiters:
            status = "best" if result is best else ("failed" if result.failed else "")
            lines.append(f"| {result.name}: {result.description} | {result.mean:+.3f} | "
                         f"[{result.low:+.3f}, {result.high:+.3f}] | {result.budget} | "
                         f"{result.seconds:.0f} | {status} |")
        lines += ["", f"Exploitability (lower bound): **{self.exploitability:+.3f}** boots "
                  f"per hand, found by `{best.name}`.", ""]
        return "\n".join(lines)

    def lines(self) -> list[str]:
        """One line per exploiter, for a terminal."""
        best = self.best
        out = []
        for result in self.exploiters:
            mark = "  <- best" if result is best else ("  (failed: it loses)"
                                                       if result.failed else "")
            out.append(f"  {result.name:8} {result.mean:+7.3f} [{result.low:+.3f}, "
                       f"{result.high:+.3f}]  {result.description}{mark}")
        return out

    def write(self, folder: str | Path) -> list[Path]:
        """``exploit.json``, ``exploit.md`` and the curves, ``exploit.png``, in
        ``folder``."""
        out = Path(folder)
        out.mkdir(parents=True, exist_ok=True)
        paths = [out / "exploit.json", out / "exploit.md", out / "exploit.png"]
        paths[0].write_text(json.dumps(self.to_dict(), indent=2))
        paths[1].write_text(self.markdown())
        self.plot(paths[2])
        return paths

    def plot(self, path: str | Path) -> None:
        """The curves as a PNG: each PPO exploiter's win per hand in each training round
        against its decisions, and the search's best score of each round against the
        hands it played (both on their own training deals)."""
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib import pyplot

        figure, (learned, searched) = pyplot.subplots(1, 2, figsize=(11, 4))
        for result in self.exploiters:
            if result.curve:
                axes = searched if result.name == "search" else learned
                steps, won = zip(*result.curve, strict=True)
                axes.plot(steps, won, label=f"{result.name} (measured {result.mean:+.2f})")
        for axes, label in ((learned, "PPO training decisions"),
                            (searched, "rule search: hands played")):
            axes.axhline(0.0, color="grey", linewidth=0.8)
            axes.set_xlabel(label)
            if axes.lines[1:]:
                axes.legend()
        learned.set_ylabel("boots per hand won on training deals")
        figure.suptitle(f"Best responses against {self.agent}")
        figure.tight_layout()
        figure.savefig(path, dpi=120)
        pyplot.close(figure)


def chosen_exploiters(agent: str, names: Sequence[str] | None,
                      rules: Rules | None = None) -> list[str]:
    """The exploiters that apply to ``agent`` at ``rules``, in :data:`EXPLOITERS` order,
    from ``names`` (default: all). ``copy`` is always among them: it is what keeps the
    figure from going below zero. ``target`` needs a trained policy as the target,
    ``shipped`` a shipped policy that fits the table and is not the target. A name that
    is not an exploiter is a ``ValueError``."""
    asked = list(EXPLOITERS if names is None else names)
    unknown = [name for name in asked if name not in EXPLOITERS]
    if unknown or not asked:
        raise ValueError(f"unknown exploiters {unknown or asked}: choose from "
                         f"{', '.join(EXPLOITERS)}")
    skip = set()
    if not agent.startswith(POLICY_PREFIXES):
        skip.add("target")  # no weights to start from
    if agent == STRONGEST_SHIPPED or (rules is not None and not _fits(STRONGEST_SHIPPED,
                                                                      rules)):
        skip.add("shipped")  # the same start as "target", or it cannot sit at the table
    chosen = {*asked, "copy"} - skip
    return [name for name in EXPLOITERS if name in chosen]


def _fits(agent: str, rules: Rules) -> bool:
    try:
        make_agent(agent, rules=rules)
    except ValueError:
        return False
    return True


def best_response(
    agent: str,
    players: int | None = None,
    preset: str = "classic",
    ppo_steps: int = DEFAULT_PPO_STEPS,
    search: SearchBudget | None = None,
    hands: int = DEFAULT_HANDS,
    seed: int = 0,
    exploiters: Sequence[str] | None = None,
    out: str | Path | None = None,
    device: str = "auto",
    threads: int | None = None,
    workers: int | None = 1,
    progress: bool = False,
    variant: str = "classic",
) -> BestResponseReport:
    """Every applicable exploiter (``exploiters``: a subset of :data:`EXPLOITERS`) against
    ``agent``, each trained on its own seed, then all measured on ``hands`` duplicate hands
    of the same fresh deals. PPO exploiters save ``br_<name>.npz`` and the search its
    ``rule_search.json`` in ``out`` (default: a temporary folder). ``variant``: the
    variant played (one the batched engine plays, :func:`exploit_rules`)."""
    if not isinstance(hands, int) or isinstance(hands, bool) or hands < 1:
        raise ValueError(f"hands must be a positive int, got {hands!r}")
    started = time.perf_counter()
    rules = exploit_rules(preset, players, variant)
    make_agent(agent, rules=rules)
    names = chosen_exploiters(agent, exploiters, rules)
    starts = {"scratch": None, "target": agent, "shipped": STRONGEST_SHIPPED}
    results = []
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(out or temporary)
        folder.mkdir(parents=True, exist_ok=True)
        for number, name in enumerate(names, 1):
            # every exploiter on deals of its own, whichever others run
            own_seed = seed + 101 * (EXPLOITERS.index(name) + 1)
            begun = time.perf_counter()
            if name == "copy":
                results.append(ExploiterResult(
                    "copy", "the target itself (zero by symmetry, not played)", agent,
                    0.0, 0.0, 0.0, "none", 0.0))
                continue
            if progress:
                print(f"exploiter {number} of {len(names) - 1}: {name}", file=sys.stderr,
                      flush=True)
            if name == "search":
                found = search_rule_response(agent, rules, search, own_seed, progress)
                (folder / "rule_search.json").write_text(json.dumps(found.to_dict(), indent=2))
                spec, curve = found.spec, found.curve
                budget, description = f"{found.hands:,} hands", "rule strategy search"
            else:
                start = starts[name]
                trained = train_best_response(
                    agent, folder / f"br_{name}.npz", players, ppo_steps, own_seed, preset,
                    device=device, threads=threads, progress=progress, start_from=start,
                    variant=variant)
                spec, curve = f"ppo:{trained.path}", trained.curve
                budget = f"{trained.decisions:,} decisions"
                description = "PPO from " + ("scratch" if start is None else start)
            row = measure_response(spec, agent, rules, hands, seed, workers, progress)
            results.append(ExploiterResult(
                name, description, spec, row.mean, row.low, row.high, budget,
                time.perf_counter() - begun, curve))
    return BestResponseReport(agent, rules.num_players, hands, seed, results,
                              time.perf_counter() - started, variant)
