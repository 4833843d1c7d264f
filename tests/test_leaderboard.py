"""``teenpatti leaderboard``: every agent against every other, one rating each, whose order
agrees with the pairwise results it was fitted on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.leaderboard import default_agents, run_leaderboard
from interfaces.cli import main


@pytest.fixture(scope="module")
def board():
    return run_leaderboard(["random", "easy", "hard", "equity"], hands=120, seed=5,
                           bootstrap=50, engine="per_table")


def test_every_pairing_is_played_at_both_tables(board) -> None:
    tables = [row.table for row in board.pairings.rows]
    assert tables.count("2v2") == 6 and tables.count("1v3") == 12  # pairs, ordered pairs
    assert sorted(row.agent for row in board.rows) == ["easy", "equity", "hard", "random"]
    assert [row.rank for row in board.rows] == [1, 2, 3, 4]


def test_ranks_agree_with_the_pairwise_results(board) -> None:
    rating = {row.agent: row.rating for row in board.rows}
    significant = 0
    for gap in board.gaps:
        if gap.significant:
            significant += 1
            winner, loser = (gap.a, gap.b) if gap.mean > 0 else (gap.b, gap.a)
            assert rating[winner] >= rating[loser] - 1e-9
    assert significant >= 4  # random loses to each of the others at both tables
    assert board.rows[-1].agent == "random"
    for row in board.rows:
        assert row.low <= row.rating <= row.high
        assert 1 <= row.best_rank <= row.worst_rank <= 4
    # The 2v2 gap of a pairing is twice the agent's per-seat result (the table is zero-sum).
    first = board.pairings.rows[0]
    assert board.gaps[0].mean == pytest.approx(2 * first.mean)


def test_the_leaderboard_is_reproducible(board) -> None:
    again = run_leaderboard(["random", "easy", "hard", "equity"], hands=120, seed=5,
                            bootstrap=50, engine="per_table")
    assert again.to_dict() == board.to_dict()


def test_write_and_cli(tmp_path: Path, capsys) -> None:
    out = tmp_path / "board"
    assert main(["leaderboard", "--agents", "random,hard", "--hands", "16", "--bootstrap",
                 "10", "--quiet", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "| 1 | `hard` |" in printed
    data = json.loads((out / "leaderboard.json").read_text(encoding="utf-8"))
    assert data["format"] == "teenpatti-leaderboard/1" and data["agents"] == ["hard", "random"]
    markdown = (out / "leaderboard.md").read_text(encoding="utf-8")
    assert markdown.count("\n| ") == 4  # header, rule, two agents
    assert (out / "leaderboard.png").stat().st_size > 1000


@pytest.mark.parametrize("args", [["--agents", "random"], ["--agents", "random,nobody"],
                                  ["--tables", "field"], ["--agents", "random,hard",
                                                          "--tables", "5v5"]])
def test_bad_settings_are_one_line(tmp_path: Path, capsys, args: list[str]) -> None:
    assert main(["leaderboard", *args, "--hands", "8", "--quiet", "--out",
                 str(tmp_path)]) != 0
    err = capsys.readouterr().err.strip()
    assert err and "\n" not in err and "Traceback" not in err


def test_default_agents_are_the_scripted_and_shipped_ones() -> None:
    agents = default_agents()
    assert agents[:6] == ["random", "auto", "easy", "medium", "hard", "equity"]
    assert "pretrained:classic" in agents
    # classic-v3 names today's classic file: one policy, seated once
    assert "pretrained:classic-v3" not in agents
    assert len(agents) == len(set(agents))
