"""The evaluation that ends a training run: head to head against every scripted agent at
2v2 and 1vN tables, and approximate exploitability next to ``hard``'s and ``equity``'s."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents import SCRIPTED_AGENTS, make_agent
from agents.arena import HeadToHeadReport, head_to_head
from agents.policy import PolicyAgent
from teenpatti_env.rules import Rules
from training.exploit import ExploitReport, approximate_exploitability, plot_curves

EXPLOIT_BASELINES = ("hard", "equity")
"""The scripted agents whose approximate exploitability is shown beside the policy's."""
EVALUATION_SEED = 900_001
"""The seed of the evaluation's deals: far from the seeds training runs use."""


@dataclass
class Evaluation:
    """A trained policy's head-to-head report and the exploitability of it and the
    baselines (the same budget and seed for each)."""

    head_to_head: HeadToHeadReport
    exploitability: list[ExploitReport]

    def text(self) -> str:
        lines = [self.head_to_head.table(), "",
                 "Approximate exploitability (boots per hand a best response wins; lower is "
                 "harder to exploit):"]
        lines += [f"  {report.summary()}" for report in self.exploitability]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """Both reports in one JSON-ready object."""
        return {"format": "teenpatti-evaluation/1",
                "head_to_head": self.head_to_head.to_dict(),
                "exploitability": [report.to_dict() for report in self.exploitability]}

    def markdown(self) -> str:
        """The report as markdown: the head-to-head table, then one row per target of the
        approximate exploitability."""
        lines = ["# Evaluation", "", "## Head to head", "", "```", self.head_to_head.table(),
                 "```", "", "## Approximate exploitability", "",
                 "Boots per hand a best response wins; lower is harder to exploit.", "",
                 "| agent | boots per hand | 95% interval | best response | hands |",
                 "|---|---:|---|---:|---:|"]
        lines += [f"| `{r.agent}` | {r.mean:+.3f} | [{r.low:+.3f}, {r.high:+.3f}] | "
                  f"{r.budget_steps:,} decisions | {r.hands:,} |" for r in self.exploitability]
        return "\n".join(lines) + "\n"

    def write(self, folder: str | Path) -> list[Path]:
        """``evaluation.md`` and ``evaluation.json`` in ``folder``; returns their paths."""
        out = Path(folder)
        out.mkdir(parents=True, exist_ok=True)
        paths = [out / "evaluation.md", out / "evaluation.json"]
        paths[0].write_text(self.markdown(), encoding="utf-8")
        paths[1].write_text(json.dumps(self.to_dict(), indent=2) + "\n", encoding="utf-8")
        return paths


def best_response_start(agent: str) -> str | None:
    """Where the evaluation's best responses start: from ``agent``'s weights when it is a
    one-table policy (``teenpatti-policy/1``); a general policy's padded input does not fit
    a one-table network, so against it (and the baselines) they start fresh."""
    player = make_agent(agent)
    return None if isinstance(player, PolicyAgent) and player.policy.padded else agent


def evaluate_policy(
    agent: str,
    preset: str = "classic",
    players: int | None = None,
    hands: int = 2_000,
    exploit_budget: int = 100_000,
    exploit_hands: int = 2_000,
    seed: int = EVALUATION_SEED,
    opponents: Sequence[str] = tuple(SCRIPTED_AGENTS),
    baselines: Sequence[str] = EXPLOIT_BASELINES,
    device: str = "auto",
    threads: int | None = None,
    workers: int | None = None,
    say: Callable[[str], None] | None = None,
    curve_path: str | None = None,
) -> Evaluation:
    """Measure ``agent`` (a name :func:`agents.make_agent` accepts) at the ``preset``
    table with ``players`` seats, on deals of ``seed`` (the best responses start from
    :func:`best_response_start`)."""
    tell = say or (lambda line: None)
    rules = Rules.preset(preset, **({} if players is None else {"num_players": players}))
    tell(f"evaluating {agent}: {hands:,} duplicate hands against each of "
         f"{', '.join(opponents)} at 2v2 and 1v{rules.num_players - 1} tables")
    report = head_to_head(agent, list(opponents), tables=("2v2", "1vN"), hands=hands,
                          rules=rules, seed=seed, workers=workers)
    start = best_response_start(agent)
    exploits = []
    for target in (agent, *baselines):
        tell(f"approximate exploitability of {target}: a best response trains for "
             f"{exploit_budget:,} decisions")
        exploits.append(approximate_exploitability(
            target, players=players, preset=preset,
            budget_steps=exploit_budget, hands=exploit_hands, seed=seed, device=device,
            threads=threads, workers=workers, start_from=start))
    if curve_path is not None:
        plot_curves(exploits, curve_path)
    return Evaluation(report, exploits)
