"""Arena table compositions (issue 18, "a held-out evaluation the report cannot be tuned
to"): ``2v2`` and ``1vN`` tables seat exactly the agents they name, in every rotation of a
duplicate deal; two-agent tables are zero-sum; a strong agent beats a weak one with the
interval above zero; the report does not depend on the number of workers nor on the engine
path; it names the composition of every number and adjusts its significance for the number
of pairings (Holm-Bonferroni, checked against a hand-worked example); bad compositions are
a ``ValueError`` in Python and a one-line error with exit status 2 on the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from builders.batched import variant_policy

from agents.arena import (
    FIELD,
    ArenaConfig,
    ArenaReport,
    Composition,
    HeadToHeadReport,
    head_to_head,
    parse_table,
    play_deals,
    run_arena,
)
from agents.stats import Interval, holm_adjusted, two_sided_p_value
from interfaces.cli import main
from teenpatti_env.rules import Rules

ROOT = Path(__file__).resolve().parents[1]


def _reject_constant(constant: str) -> None:
    raise ValueError(f"not JSON: {constant}")


# ------------------------------------------------------------- naming a composition


@pytest.mark.parametrize(
    ("text", "players", "name", "seats"),
    [
        ("2v2", 4, "2v2", (2, 2)),
        ("1vN", 4, "1v3", (1, 3)),
        ("1vn", 4, "1v3", (1, 3)),
        ("1v3", 4, "1v3", (1, 3)),
        ("1vN", 7, "1v6", (1, 6)),
        ("2vN", 5, "2v3", (2, 3)),
        ("2v1", 3, "2v1", (2, 1)),
        ("3v3", 6, "3v3", (3, 3)),
    ],
)
def test_pair_compositions_resolve_their_seats(
    text: str, players: int, name: str, seats: tuple[int, int]
) -> None:
    assert parse_table(text, players) == Composition(name, seats)


def test_the_field_is_the_default_composition() -> None:
    assert parse_table("field", 5) is FIELD and FIELD.seats is None
    assert ArenaConfig(("random",), Rules(), 8, 0).table is FIELD


@pytest.mark.parametrize(
    ("text", "players", "message"),
    [
        ("3v3", 4, "seats 6 players but the table has 4"),
        ("2v2", 5, "seats 4 players but the table has 5"),
        ("1v3", 3, "seats 4 players but the table has 3"),
        ("4vN", 4, "at least one seat for each"),
        ("0v4", 4, "at least one seat for each"),
        ("nope", 4, "unknown table composition"),
        ("2v2v2", 6, "unknown table composition"),
        ("1vN ", 4, "unknown table composition"),
        ("", 4, "unknown table composition"),
    ],
)
def test_bad_compositions_are_value_errors(text: str, players: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_table(text, players)


# ------------------------------------------------------------ who sits where, when


@pytest.mark.parametrize(
    ("text", "players"), [("2v2", 4), ("1vN", 4), ("1vN", 5), ("2v1", 3), ("3v3", 6)]
)
def test_compositions_seat_the_right_agents_in_every_rotation(text: str, players: int) -> None:
    rules = Rules(num_players=players)
    table = parse_table(text, players)
    assert table.seats is not None
    config = ArenaConfig(("random", "auto"), rules, hands=24 * players, seed=2, table=table)
    deals = play_deals(config, 0, 24)
    assert deals.agent.shape == deals.net.shape == (24, players, players)
    seats = np.array(table.seats)
    for deal in range(24):
        for rotation in range(players):  # every hand seats each agent as often as named
            lineup = deals.agent[deal, rotation]
            assert np.array_equal(np.bincount(lineup, minlength=2), seats)
            assert np.array_equal(lineup, np.roll(deals.agent[deal, 0], -rotation))
        for seat in range(players):  # each agent holds every seat's cards as often
            assert np.array_equal(np.bincount(deals.agent[deal, :, seat], minlength=2), seats)
    assert (deals.net.sum(axis=2) == 0).all()
    # the seat order is drawn per deal, not fixed: over the deals both agents open the table
    assert set(deals.agent[:, 0, 0].tolist()) == {0, 1}


def test_two_by_two_tables_see_both_arrangements() -> None:
    """Two seats each: neighbours (AABB up to rotation) and alternating (ABAB) tables."""
    config = ArenaConfig(("random", "auto"), Rules(), 160, 4, table=parse_table("2v2", 4))
    lineups = play_deals(config, 0, 40).agent[:, 0]
    alternating = [bool(lineup[0] == lineup[2]) for lineup in lineups]
    assert any(alternating) and not all(alternating)


def test_every_hand_of_every_rotation_counts_in_the_report() -> None:
    report = run_arena(["random", "auto"], hands=40, seed=1, table="1vN")
    assert isinstance(report, HeadToHeadReport)
    for row in report.rows:
        agents = row.report.agents
        assert row.report.hands == 40  # 10 deals x 4 rotations
        assert agents[row.agent].result.hands == 40  # one seat in every hand
        assert agents[row.opponent].result.hands == 120  # three seats in every hand


# --------------------------------------------------------------- what the rows say


def test_two_agents_at_two_by_two_tables_are_zero_sum() -> None:
    report = run_arena(["hard", "random"], hands=80, seed=3, table="2v2")
    assert isinstance(report, HeadToHeadReport)
    (row,) = report.rows
    assert (row.agent, row.opponent, row.table) == ("hard", "random", "2v2")
    hard, random = row.report.agents["hard"].result, row.report.agents["random"].result
    assert hard.mean == pytest.approx(-random.mean)
    assert hard.hands == random.hands == 160
    assert row.result == hard and (row.mean, row.low, row.high) == (
        hard.mean, hard.low, hard.high)
    assert row.mean != 0.0  # a real contest


def test_one_against_three_is_zero_sum_per_seat() -> None:
    (row,) = head_to_head("hard", ["random"], tables=["1vN"], hands=80, seed=3).rows
    hard, random = row.report.agents["hard"].result, row.report.agents["random"].result
    assert hard.mean == pytest.approx(-3 * random.mean)  # one seat wins what three lose


@pytest.mark.parametrize("seed", [0, 1])
def test_a_strong_agent_beats_a_weak_one_at_both_tables(seed: int) -> None:
    # hard wins about +6 boots per hand per seat at 2v2 and +13 at 1v3 from random,
    # with standard errors near 1 and 2 at this size.
    report = head_to_head("hard", ["random"], hands=400, seed=seed)
    assert [row.table for row in report.rows] == ["2v2", "1v3"]
    for row in report.rows:
        assert row.low > 0, row
        assert row.significant


def test_pairings_cover_every_pair_or_every_ordered_pair() -> None:
    pool = ["random", "auto", "hard"]
    pairs = run_arena(pool, hands=8, seed=0, table="2v2")
    ordered = run_arena(pool, hands=8, seed=0, table="1vN")
    assert isinstance(pairs, HeadToHeadReport) and isinstance(ordered, HeadToHeadReport)
    assert [(r.agent, r.opponent) for r in pairs.rows] == [
        ("random", "auto"), ("random", "hard"), ("auto", "hard")]
    assert [(r.agent, r.opponent) for r in ordered.rows] == [
        ("random", "auto"), ("random", "hard"), ("auto", "random"), ("auto", "hard"),
        ("hard", "random"), ("hard", "auto")]
    assert pairs.comparisons == 3 and ordered.comparisons == 6
    for row in ordered.rows:  # the row's agent holds the one seat
        assert row.report.config.agents == (row.agent, row.opponent)
        assert row.report.agents[row.agent].result.hands * 3 == (
            row.report.agents[row.opponent].result.hands)


def test_head_to_head_rows_follow_tables_then_opponents() -> None:
    report = head_to_head("hard", ["random", "auto"], tables=("1v3", "2v2"), hands=8, seed=0)
    assert [(r.agent, r.opponent, r.table) for r in report.rows] == [
        ("hard", "random", "1v3"), ("hard", "auto", "1v3"),
        ("hard", "random", "2v2"), ("hard", "auto", "2v2")]
    assert report.tables == ["1v3", "2v2"] and report.comparisons == 4


def test_a_field_report_is_unchanged_by_the_composition_option() -> None:
    default = run_arena(["random", "auto", "hard"], hands=40, seed=7)
    named = run_arena(["random", "auto", "hard"], hands=40, seed=7, table="field")
    assert isinstance(named, ArenaReport)
    assert named.to_dict() == default.to_dict()


# ------------------------------------------------- multiple comparisons, by hand


def test_holm_adjustment_matches_a_hand_worked_example() -> None:
    # sorted: 0.005 x 4 = 0.02, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 = 0.04 -> 0.06
    # (an adjusted p-value never falls below the one before it in sorted order)
    assert holm_adjusted([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # at 5% family-wise, only the two smallest hold, where each alone would pass
    assert [p < 0.05 for p in holm_adjusted([0.01, 0.04, 0.03, 0.005])] == [
        True, False, False, True]
    assert holm_adjusted([0.5, 0.6]) == [1.0, 1.0]  # capped at 1
    assert holm_adjusted([0.02]) == [0.02]  # one comparison: nothing to adjust
    assert holm_adjusted([]) == []


def test_p_values_come_from_the_normal_interval() -> None:
    def interval(mean: float, error: float) -> Interval:
        return Interval(mean, error, mean - 1.96 * error, mean + 1.96 * error, 100, 0.95)

    assert two_sided_p_value(interval(1.959964, 1.0)) == pytest.approx(0.05, abs=1e-6)
    assert two_sided_p_value(interval(-1.959964, 1.0)) == pytest.approx(0.05, abs=1e-6)
    assert two_sided_p_value(interval(0.0, 1.0)) == pytest.approx(1.0)
    assert two_sided_p_value(interval(1.0, 0.0)) == 0.0
    assert two_sided_p_value(interval(0.0, 0.0)) == 1.0
    assert two_sided_p_value(Interval(*[float("nan")] * 4, 0, 0.95)) == 1.0


def test_the_report_adjusts_over_all_its_rows() -> None:
    report = head_to_head("hard", ["random", "auto", "easy"], hands=40, seed=2)
    assert report.comparisons == 6
    p_values = [two_sided_p_value(row.result) for row in report.rows]
    assert [row.p_value for row in report.rows] == p_values
    assert [row.adjusted_p_value for row in report.rows] == holm_adjusted(p_values)
    assert [row.significant for row in report.rows] == [
        q < 0.05 for q in holm_adjusted(p_values)]
    assert all(row.adjusted_p_value >= row.p_value for row in report.rows)


# -------------------------------------------------- every path, the same report


def test_the_report_does_not_depend_on_the_number_of_workers() -> None:
    pool = ["random", "easy", "auto"]
    # 240 hands at 4 seats: 60 deals, three tasks of at most 25 deals per pairing
    one = run_arena(pool, hands=240, seed=5, workers=1, table="2v2")
    two = run_arena(pool, hands=240, seed=5, workers=2, table="2v2")
    assert one.to_dict() == two.to_dict()
    other = run_arena(pool, hands=240, seed=6, workers=1, table="2v2")
    assert other.to_dict()["rows"] != one.to_dict()["rows"]


def test_batched_and_per_table_paths_give_the_same_report(tmp_path: Path) -> None:
    other = f"ppo:{variant_policy(tmp_path / 'other.npz')}"
    reports = [head_to_head("pretrained:classic", [other], hands=160, seed=5, engine=engine)
               for engine in ("batched", "per_table", "auto")]
    assert reports[0].to_dict() == reports[1].to_dict() == reports[2].to_dict()
    rates = reports[0].rows[0].report.agents["pretrained:classic"].rates
    assert 0 < rates["pack"] < 1 and rates["look"] > 0  # a real contest


class _FakeRay:
    """Ray's calls the arena makes, played at once in this process: counts connections."""

    class Ref:
        def __init__(self, value: Any) -> None:
            self.value = value

    def __init__(self) -> None:
        self.connections = 0
        self.up = False

    def is_initialized(self) -> bool:
        return self.up

    def init(self, address: str | None = None, log_to_driver: bool = True) -> None:
        self.connections += 1
        self.up = True

    def shutdown(self) -> None:
        self.up = False

    def remote(self, function: Any) -> Any:
        ref = self.Ref
        return type("Remote", (), {"remote": staticmethod(lambda *a: ref(function(*a)))})()

    def wait(self, pending: list[Any]) -> tuple[list[Any], list[Any]]:
        return pending[:1], pending[1:]

    def get(self, ref: Any) -> Any:
        return ref.value


def test_every_pairing_shares_one_ray_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    on_ray = run_arena(["random", "auto", "easy"], hands=120, seed=3, table="2v2",
                       ray_address="")
    assert fake.connections == 1 and not fake.up  # started once, and stopped
    local = run_arena(["random", "auto", "easy"], hands=120, seed=3, table="2v2")
    assert on_ray.to_dict() == local.to_dict()


def test_the_batched_engine_is_refused_before_any_pairing_plays() -> None:
    with pytest.raises(ValueError, match="dealer's choice"):
        head_to_head("random", ["hard"], hands=8,
                     rules=Rules(dealers_choice=["classic", "muflis"]), engine="batched")


# ------------------------------------------------- the report names its composition


@pytest.fixture(scope="module")
def report() -> HeadToHeadReport:
    return head_to_head("hard", ["random", "auto"], hands=40, seed=1)


def test_the_text_names_every_composition_and_the_comparisons(report: HeadToHeadReport) -> None:
    text = report.table()
    assert "table: 2v2 (2 seats of each agent)" in text
    assert "table: 1v3 (1 seat of the agent against 3 copies of the opponent)" in text
    assert "4 comparisons" in text and "Holm-Bonferroni" in text
    rows = [line.split() for line in text.splitlines() if line.startswith("hard ")]
    assert [(r[1], r[2]) for r in rows] == [(r.opponent, r.table) for r in report.rows]
    for cells, row in zip(rows, report.rows, strict=True):
        assert float(cells[3]) == pytest.approx(row.mean, abs=5e-4)
        assert (cells[-1] == "*") == row.significant


def test_a_field_report_names_its_composition(tmp_path: Path) -> None:
    field = run_arena(["random", "auto"], hands=8, seed=0)
    assert field.to_dict()["table"] == "field"
    assert "table: field (a lineup drawn from the pool for every deal)" in field.table()


def test_the_json_form(report: HeadToHeadReport, tmp_path: Path) -> None:
    path = tmp_path / "report.json"
    report.to_json(path)
    data = json.loads(path.read_text(encoding="utf-8"), parse_constant=_reject_constant)
    assert data == json.loads(json.dumps(report.to_dict()))
    assert data["format"] == "teenpatti-head-to-head/1"
    assert data["tables"] == ["2v2", "1v3"]
    assert data["comparisons"] == 4 and data["adjustment"] == "holm-bonferroni"
    assert data["hands"] == 40 and data["seed"] == 1 and data["confidence"] == 0.95
    for row, reported in zip(report.rows, data["rows"], strict=True):
        assert reported["agent"] == "hard" and reported["opponent"] == row.opponent
        assert reported["table"] == row.table == reported["arena"]["table"]
        assert reported["boots_per_hand"]["mean"] == pytest.approx(row.mean)
        assert reported["holm_p_value"] == row.adjusted_p_value
        assert reported["significant"] is row.significant
        assert reported["arena"]["agents"] == ["hard", row.opponent]


def test_the_plot_is_a_png(report: HeadToHeadReport, tmp_path: Path) -> None:
    path = tmp_path / "tables.png"
    report.plot(path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 1000


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"agents": ["hard"], "table": "2v2"}, "seats two agents"),
        ({"agents": ["hard", "random"], "table": "3v3"}, "has 4 seats"),
        ({"agents": ["hard", "random"], "table": "2v2", "players": 5}, "has 5 seats"),
        ({"agents": ["hard", "random"], "table": "two"}, "unknown table composition"),
        ({"agents": ["hard", "nobody"], "table": "2v2"}, "unknown agent"),
    ],
)
def test_run_arena_rejects_bad_compositions(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run_arena(hands=8, **kwargs)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"opponents": []}, "at least one opponent"),
        ({"opponents": ["hard"]}, "distinct"),
        ({"opponents": ["random", "random"]}, "distinct"),
        ({"opponents": ["random"], "tables": ["field"]}, "pair compositions"),
        ({"opponents": ["random"], "tables": ["1vN", "1v3"]}, "distinct compositions"),
        ({"opponents": ["random"], "tables": "2v2"}, "list of compositions"),
        ({"opponents": ["random"], "tables": []}, "list of compositions"),
        ({"opponents": ["random"], "tables": iter(["1vN", "1v3"])}, r"\['1vN', '1v3'\]"),
        ({"opponents": ["random"], "hands": 0}, "hands"),
        ({"opponents": ["random"], "seed": -1}, "seed"),
        ({"opponents": ["random"], "engine": "gpu"}, "engine"),
    ],
)
def test_head_to_head_rejects_bad_arguments(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        head_to_head("hard", **{"hands": 8, **kwargs})


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--table", "3v3"], "table '3v3' seats 6 players but the table has 4 seats"),
        (["--table", "1v3", "--players", "5"], "table '1v3' seats 4 players"),
        (["--table", "sideways"], "unknown table composition 'sideways'"),
        (["--table", "2v2", "--agents", "hard"], "the 2v2 table seats two agents"),
    ],
)
def test_the_command_line_rejects_bad_compositions_in_one_line(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["arena", "--hands", "8", "--quiet", "--out", str(tmp_path), *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("teenpatti: ") and message in captured.err
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert not (tmp_path / "arena.json").exists()


def test_the_command_line_plays_a_composition(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "teenpatti_env", "arena", "--agents", "hard,random",
         "--table", "1vN", "--hands", "16", "--workers", "1", "--quiet",
         "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "table: 1v3" in done.stdout and "2 comparisons" in done.stdout
    data = json.loads((tmp_path / "arena.json").read_text(encoding="utf-8"))
    assert data["tables"] == ["1v3"]
    assert [(r["agent"], r["opponent"]) for r in data["rows"]] == [
        ("hard", "random"), ("random", "hard")]
    assert (tmp_path / "arena.png").stat().st_size > 1000


def test_the_help_explains_the_compositions(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["arena", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--table COMPOSITION" in text and "(default: field)" in text
    for words in ("2v2", "1vN", "every ordered pair", "Holm-Bonferroni"):
        assert words in text


def test_the_field_matrix_adjusts_over_its_pairs() -> None:
    pool = ["random", "auto", "hard", "equity"]
    field = run_arena(pool, hands=200, seed=11)
    pairs = [(a, b) for i, a in enumerate(pool) for b in pool[i + 1:]]
    assert field.pairwise_comparisons() == len(pairs) == 6
    expected = holm_adjusted([two_sided_p_value(field.pairwise[a][b]) for a, b in pairs])
    adjusted = field.pairwise_adjusted()
    for (a, b), q in zip(pairs, expected, strict=True):
        assert adjusted[a][b] == adjusted[b][a] == q
    data = field.to_dict()
    assert data["pairwise_comparisons"] == 6 and data["pairwise_holm_p_value"] == adjusted
    text = field.table()
    assert "Holm-Bonferroni adjustment over the 6 pairs" in text
    header = text.splitlines().index("** = and the gap holds after the Holm-Bonferroni "
                                     "adjustment over the 6 pairs)")
    order = field.ranking()
    for a, line in zip(order, text.splitlines()[header + 2:header + 2 + len(order)],
                       strict=True):
        cells = line[len(a):].split()
        assert len(cells) == len(order)
        for b, cell in zip(order, cells, strict=True):
            if a == b:
                continue
            interval = field.pairwise[a][b]
            excludes_zero = interval.low > 0 or interval.high < 0
            assert cell.endswith("**") == (excludes_zero and adjusted[a][b] < 0.05), cell
            assert cell.endswith("*") == excludes_zero, cell
    assert "**" in text and any(q >= 0.05 for q in expected)  # both kinds in this run


def test_compare_plain_measures_each_pairing() -> None:
    report = run_arena(["random", "auto"], hands=40, seed=2, table="2v2", compare_plain=True)
    assert isinstance(report, HeadToHeadReport)
    (row,) = report.rows
    plain = row.report.plain
    assert plain is not None and set(plain) == {"random", "auto"}
    assert plain["random"].hands == plain["auto"].hands == 80  # 40 hands, two seats each
    assert row.to_dict()["arena"]["plain"]["auto"]["hands"] == 80
