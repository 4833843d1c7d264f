"""The shipped ``pretrained:classic`` keeps its skill: a regression check of the artefact on
seeds it was neither trained nor selected on (the full measurement, 20,000 hands and the
exploitability, is ``benchmarks/bench_classic_policy.py``)."""

from __future__ import annotations

from agents.arena import head_to_head, run_arena

POLICY = "pretrained:classic"


def test_the_shipped_policy_beats_hard_and_equity_at_2v2_and_1v3() -> None:
    report = head_to_head(POLICY, ["hard", "equity"], tables=("2v2", "1vN"), hands=4_000,
                          seed=4_711, workers=1)
    assert [(row.opponent, row.table) for row in report.rows] == [
        ("hard", "2v2"), ("equity", "2v2"), ("hard", "1v3"), ("equity", "1v3")]
    assert all(row.result.low > 0 for row in report.rows), report.table()
    assert all(row.adjusted_p_value < 0.05 for row in report.rows), report.table()


def test_the_shipped_policy_comes_first_in_the_seven_agent_field() -> None:
    agents = [POLICY, "random", "auto", "easy", "medium", "hard", "equity"]
    report = run_arena(agents, hands=8_000, seed=4_711, workers=1)
    results = {name: agent.result.mean for name, agent in report.agents.items()}
    assert max(results, key=results.__getitem__) == POLICY, report.table()
    assert all(gap.mean > 0 for gap in report.pairwise[POLICY].values()), report.table()


def test_classic_v3_is_the_classic_policy_of_issue_31() -> None:
    """``pretrained:classic-v3`` keeps the ``pretrained:classic`` measured in
    docs/exploitability.md loadable under a name of its own, byte for byte, whichever
    policy takes the name ``classic`` later."""
    import hashlib

    from agents import make_agent
    from agents.policy import pretrained_path

    content = pretrained_path("classic-v3").read_bytes()
    assert hashlib.sha256(content).hexdigest() == (
        "37d260616ff677bc5331e20f2f42fdf087aa1a5ba404c8050bb344b8d1eddced")
    assert make_agent("pretrained:classic-v3").name == "pretrained:classic-v3"
