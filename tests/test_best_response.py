"""The best of several exploiters (training/best_response.py) and ``teenpatti exploit``'s
default method: the winner is named, every exploiter's figure is listed, and a best
response that loses is reported as failed, never as a negative exploitability."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("numba")

from test_selfplay import always_pack_policy

from agents.policy import load_policy
from interfaces.cli import exploit as exploit_cli
from interfaces.cli import main
from teenpatti_env.rules import Rules
from teenpatti_env.rules.variants import VARIANTS
from training import best_response as module
from training.best_response import (
    BestResponseReport,
    ExploiterResult,
    best_response,
    chosen_exploiters,
)
from training.exploit import PerTableBatch
from training.rule_search import SearchBudget

TINY_SEARCH = SearchBudget(population=6, rounds=1, deals=40, finalists=2, final_deals=100)


def result(name: str, mean: float) -> ExploiterResult:
    return ExploiterResult(name, f"{name} exploiter", f"spec-{name}", mean, mean - 0.1,
                           mean + 0.1, "some budget", 1.0)


def test_the_report_names_the_winner_and_marks_failed_exploiters(tmp_path: Path) -> None:
    report = BestResponseReport("target", 4, 1_000, 0, [
        result("scratch", -0.61), result("search", 1.7), result("target", 0.3),
        result("copy", 0.0)], 5.0)
    assert report.best.name == "search" and report.exploitability == 1.7
    assert "search" in report.summary() and "+1.700" in report.summary()
    rows = {line.split(":")[0].strip("| "): line for line in report.markdown().splitlines()
            if line.startswith("| ") and ":" in line}
    assert rows["scratch"].endswith("| failed |") and "-0.610" in rows["scratch"]
    assert rows["search"].endswith("| best |")
    assert rows["target"].endswith("|  |") and rows["copy"].endswith("|  |")
    lines = report.lines()
    assert "failed" in lines[0] and "best" in lines[1] and len(lines) == 4
    data = report.to_dict()
    assert data["best"] == "search" and data["exploitability"] == 1.7
    assert [row["failed"] for row in data["exploiters"]] == [True, False, False, False]
    report.exploiters[1].curve = [(1_000, 0.5), (2_000, 1.2)]
    paths = report.write(tmp_path)
    assert json.loads(paths[0].read_text())["exploiters"][0] == data["exploiters"][0]
    assert paths[1].read_text() == report.markdown()
    assert paths[2].name == "exploit.png" and paths[2].read_bytes()[:4] == b"\x89PNG"


def test_when_every_exploiter_fails_the_exploitability_is_zero_not_negative() -> None:
    report = BestResponseReport("target", 4, 1_000, 0, [
        result("scratch", -1.0), result("search", -0.2), result("copy", 0.0)], 5.0)
    assert report.best.name == "copy" and report.exploitability == 0.0
    assert "every exploiter failed" in report.summary()
    assert sum("failed" in line for line in report.lines()) == 2


def test_the_exploiters_that_apply() -> None:
    four = Rules.preset("classic")
    three = four.replace(num_players=3)
    assert chosen_exploiters("equity", None, four) == ["scratch", "shipped", "search", "copy"]
    assert chosen_exploiters("pretrained:classic", None, four) == [
        "scratch", "target", "search", "copy"]
    assert chosen_exploiters("ppo:x.npz", None, three) == [
        "scratch", "target", "search", "copy"]  # the shipped policy sits at four seats only
    assert chosen_exploiters("hard", ["search"], four) == ["search", "copy"]
    with pytest.raises(ValueError, match="unknown exploiters"):
        chosen_exploiters("hard", ["search", "genius"], four)


def test_best_of_against_an_always_pack_policy(tmp_path: Path) -> None:
    """Against three seats that always pack, never packing wins the three other boots in
    every hand (tests/test_rule_search.py works it out): the search finds exactly that,
    measured on the same duplicate deals as the PPO exploiter, and the report says which
    won."""
    target = f"ppo:{always_pack_policy(tmp_path / 'fixed.npz')}"
    report = best_response(target, players=4, ppo_steps=3_000, search=TINY_SEARCH,
                           hands=300, seed=1, exploiters=["scratch", "search"],
                           out=tmp_path / "out", threads=1)
    names = [row.name for row in report.exploiters]
    assert names == ["scratch", "search", "copy"]
    search = report.exploiters[1]
    assert (search.mean, search.low, search.high) == (3.0, 3.0, 3.0)
    assert search.spec.startswith("rule:") and search.budget.endswith("hands")
    assert report.exploitability == 3.0 == report.best.mean
    assert (tmp_path / "out" / "br_scratch.npz").is_file()
    assert json.loads((tmp_path / "out" / "rule_search.json").read_text())["spec"] == \
        search.spec


def test_the_command_reports_a_failed_best_response(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A PPO best response of 2,000 decisions from scratch barely differs from a random
    policy and loses to ``equity``: the command shows it as failed and reports an
    exploitability of zero (copying ``equity``), not its negative figure."""
    out = tmp_path / "exploit"
    argv = ["exploit", "--agent", "equity", "--players", "3", "--exploiters", "scratch",
            "--budget-steps", "2000", "--hands", "300", "--seed", "2", "--threads", "1",
            "--out", str(out)]
    assert main([*argv, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    scratch = report["exploiters"][0]
    assert scratch["name"] == "scratch" and scratch["mean"] < 0 and scratch["failed"]
    assert report["best"] == "copy" and report["exploitability"] == 0.0
    assert all((out / name).is_file() for name in ("exploit.json", "exploit.md", "exploit.png"))
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "every exploiter failed" in captured.out and "(failed: it loses)" in captured.out
    # progress on stderr: which exploiter, then bars with the time left for each stage
    assert "exploiter 1 of 1: scratch" in captured.err
    assert "2.00k/2.00k" in captured.err and "300/300" in captured.err


def test_the_command_plays_a_variant_on_the_batched_engine(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    """``--variant``: the best-of exploiters (a PPO best response and the rule search)
    and the single PPO best response train and are measured at the variant's table,
    against a scripted target through its batched form, and the report names it."""
    out = tmp_path / "best-of"
    tiny = ["--players", "3", "--budget-steps", "1000", "--hands", "120", "--seed", "1",
            "--threads", "1", "--quiet", "--json"]
    assert main(["exploit", "--agent", "hard", "--variant", "joker", "--exploiters",
                 "scratch,search", "--search-rounds", "1", "--search-population", "4",
                 "--search-deals", "10", "--out", str(out), *tiny]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["variant"] == "joker" and report["players"] == 3
    assert [row["name"] for row in report["exploiters"]] == ["scratch", "search", "copy"]
    assert load_policy(out / "br_scratch.npz").metadata["rules"]["variant"] == "joker"
    out = tmp_path / "ppo"
    assert main(["exploit", "--agent", "equity", "--variant", "four_card", "--method",
                 "ppo", "--out", str(out), *tiny]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["variant"] == "four_card" and report["engine"] == "batched"
    assert load_policy(out / "best_response.npz").metadata["rules"]["variant"] == "four_card"


@pytest.mark.parametrize("argv, message", [
    (["--variant", "nope"], "unknown variant 'nope'"),
    (["--exact", "--variant", "joker"], "--exact plays the small game"),
    (["--exploiters", "scratch,genius"], "unknown exploiters"),
    (["--start-from", "pretrained:classic", "--method", "best-of"], "--method ppo"),
    (["--method", "ppo", "--search-rounds", "2"], "--method best-of"),
])
def test_bad_options_are_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        argv: list[str], message: str) -> None:
    code = main(["exploit", "--agent", "hard", "--out", str(tmp_path), *argv])
    err = capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err


def test_the_commands_defaults_are_the_librarys() -> None:
    from training.exploit import approximate_exploitability

    defaults = approximate_exploitability.__defaults__
    assert defaults is not None
    assert exploit_cli.DEFAULT_PPO_STEPS == module.DEFAULT_PPO_STEPS
    assert exploit_cli.DEFAULT_HANDS == module.DEFAULT_HANDS
    assert defaults[1:3] == (exploit_cli.PPO_STEPS, exploit_cli.PPO_HANDS)
    search = SearchBudget()
    assert (search.rounds, search.population, search.deals) == (
        exploit_cli.SEARCH_ROUNDS, exploit_cli.SEARCH_POPULATION, exploit_cli.SEARCH_DEALS)


def test_per_table_opponents_are_told_the_table_at_dealers_choice() -> None:
    """A target without a batched form (``pretrained:general`` at a dealer's choice
    table) sits in every other seat of the per-table exploiter tables; each copy is told
    the table's rules, so the family plays each hand's variant by its member, where its
    first member (four classic seats, ten actions) could not read the table at all."""
    rules = Rules(num_players=4, dealers_choice=list(VARIANTS))
    tables = PerTableBatch(3, rules, "pretrained:general", seed=1)
    step = tables.reset(seed=1)
    rng = np.random.default_rng(0)
    hands = 0
    for _ in range(60):
        legal = [np.flatnonzero(mask) for mask in step.action_masks]
        step = tables.step(np.array([rng.choice(moves) for moves in legal]))
        hands += int(step.finished.sum())
    assert hands > 3
