"""The general trainer's league (training/general.py through training/selfplay.py's run
loop): resume, learned and searched exploiters, and rule exploiters at padded tables."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("numba")

import torch

from agents.padded_actions import PADDED_ACTION_NAMES
from agents.policy import read_policy
from agents.rule_strategy import DEFAULT_PARAMS
from agents.seat_padding import padded_layout
from teenpatti_env.environment.batched import TableBatch
from teenpatti_env.rules import Rules
from training.config import SelfPlayConfig
from training.general import GENERAL_MIXTURE, MixedTables, TableKind
from training.league_search import rule_actor
from training.padded_policies import unpadded_rule_actor
from training.selfplay import train_selfplay


def tiny_general(tmp_path: Path, name: str = "run", **overrides: object) -> SelfPlayConfig:
    settings: dict[str, object] = {
        "table_mix": "general", "timesteps": 4_000, "tables": 32, "rollout_steps": 16,
        "minibatch_size": 256, "hidden": (16,), "out": str(tmp_path / name),
        "progress": False, "threads": 1, "snapshot_every": 1_000, "exploiter_every": 0,
        "checkpoint_every": 1_000, "seed": 5,
    }
    settings.update(overrides)
    return SelfPlayConfig(**settings)  # type: ignore[arg-type]


def rows_of(run: Path) -> list[dict[str, str]]:
    return list(csv.DictReader((run / "progress.csv").open()))


def test_a_resumed_general_run_loads_its_weights_and_continues_its_count(
        tmp_path: Path) -> None:
    first = train_selfplay(tiny_general(tmp_path))
    checkpoint = tmp_path / "run" / "checkpoint.pt"
    assert checkpoint.is_file() and first.policy.padded
    # resumed with the budget it has already met: no round, the checkpoint's weights
    same = train_selfplay(tiny_general(tmp_path, "same", timesteps=first.decisions,
                                       resume=str(checkpoint)))
    assert same.decisions == first.decisions and same.updates == first.updates
    for mine, theirs in zip(first.policy.weights, same.policy.weights, strict=True):
        assert np.array_equal(mine, theirs)
    # resumed with a larger budget: the count goes on from the checkpoint's
    longer = train_selfplay(tiny_general(tmp_path, timesteps=first.decisions + 2_000,
                                         resume=str(checkpoint)))
    assert longer.decisions >= first.decisions + 2_000 and longer.updates > first.updates
    decisions = [int(row["decisions"]) for row in rows_of(tmp_path / "run")]
    assert decisions == sorted(decisions) and decisions[-1] == longer.decisions
    assert len(decisions) == longer.updates  # one row per round, the resumed ones appended
    assert "classic_4.versus_per_hand" in rows_of(tmp_path / "run")[-1]
    assert read_policy(tmp_path / "run" / "policy.npz").metadata["decisions"] == \
        longer.decisions
    # a general checkpoint is no start for a one-table run, and the other way round
    with pytest.raises(ValueError, match="table_mix"):
        train_selfplay(tiny_general(tmp_path, "single", table_mix="single",
                                    resume=str(checkpoint)))
    # a checkpoint of an earlier layout (ten actions): refused, pointing to --init-from
    state = torch.load(checkpoint, weights_only=True)
    for key in ("policy_head.weight", "policy_head.bias"):
        state["model"][key] = state["model"][key][:10]
    earlier = tmp_path / "earlier.pt"
    torch.save(state, earlier)
    with pytest.raises(ValueError, match=r"other input or action sizes.*--init-from"):
        train_selfplay(tiny_general(tmp_path, "earlier", resume=str(earlier)))


def test_general_exploiters_of_both_kinds_join_the_pool_and_survive_a_resume(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A searched rule exploiter, then a learned one, each made at one kind drawn from the
    mixture; both sit at the padded tables (exploiter tables are played), a checkpoint
    keeps them and a resumed run seats them again."""
    from training import league_search
    from training.rule_search import SearchBudget

    monkeypatch.setattr(league_search, "LEAGUE_SEARCH", SearchBudget(
        population=4, rounds=1, deals=10, finalists=2, final_deals=20, random_rounds=1))
    said: list[str] = []
    league: dict[str, Any] = {
        "exploiter_every": 1_000, "exploiter_steps": 500, "exploiter_table_share": 0.4,
        "exploiter_kinds": ("search", "ppo")}
    train_selfplay(tiny_general(tmp_path, timesteps=3_000, **league), said.append)
    assert any("training exploiter 1 of 2 (a rule strategy searched" in line for line in said)
    assert any("training exploiter 2 of 2 (500 decisions" in line for line in said), said
    names = {kind.name for kind in GENERAL_MIXTURE}
    drawn = [line.rsplit(" ", 1)[1] for line in said if line.startswith("the exploiter plays")]
    assert len(drawn) == 2 and set(drawn) <= names, said
    state = torch.load(tmp_path / "run" / "checkpoint.pt", weights_only=True)
    assert ["rule" if "rule_params" in m else "ppo" for m in state["exploiters"]] == \
        ["rule", "ppo"]
    rows = rows_of(tmp_path / "run")
    joined = [k for k, row in enumerate(rows) if not row["seconds"]]  # an exploiter's row
    after = rows[joined[0] + 1:]
    assert any(float(row["exploiter_table_win_per_hand"] or 0) != 0.0 for row in after)
    assert int(rows[-1]["pool_size"]) > int(rows[0]["pool_size"])
    again = tiny_general(tmp_path, "again", timesteps=3_500,
                         resume=str(tmp_path / "run" / "checkpoint.pt"), **league)
    assert train_selfplay(again).decisions >= 3_500


def midhand(rules: Rules, seed: int) -> tuple[Any, Any]:
    """Observations and masks of 32 tables a few random legal moves into their hands."""
    batch = TableBatch(32, rules, seed=seed)
    step = batch.reset()
    rng = np.random.default_rng(seed)
    for _ in range(3):
        legal = step.action_masks.astype(np.float64)
        choice = (rng.random(legal.shape) * legal).argmax(axis=1)
        step = batch.step(choice)
    return step.observations, step.action_masks


@pytest.mark.parametrize("rules", [Rules.preset("classic", num_players=3),
                                   Rules.preset("pagat", num_players=6),
                                   Rules.preset("tabletop", num_players=7)])
def test_a_rule_exploiter_plays_a_padded_row_as_it_plays_the_table(rules: Rules) -> None:
    """Unpadding a row gives back the table's own observation: the rule strategy's actions
    at padded rows (of two seat counts in one batch) are its actions at the tables."""
    params = np.array(DEFAULT_PARAMS)
    four = Rules.preset("classic", num_players=4)
    own, own_masks = midhand(rules, 2)
    other, other_masks = midhand(four, 3)
    padded = np.concatenate([padded_layout(rules).pad(own), padded_layout(four).pad(other)])
    masks = np.concatenate([own_masks, other_masks])
    wide = np.pad(masks, ((0, 0), (0, len(PADDED_ACTION_NAMES) - masks.shape[1])))
    actions = unpadded_rule_actor(params)(padded, wide)
    assert np.array_equal(actions[:32], rule_actor(params, rules)(own, own_masks))
    assert np.array_equal(actions[32:], rule_actor(params, four)(other, other_masks))
    assert len(np.unique(actions)) > 1  # the rows are not all one trivial decision


def test_a_rule_exploiter_plays_a_legal_phase_action_and_classic_elsewhere() -> None:
    """At shopping tables (padded masks): a legal move at every decision, a phase action
    (draw, keep, a discard) wherever no bet is legal, classic's ten elsewhere."""
    rules = Rules.preset("classic", variant="shopping")
    tables = MixedTables([TableKind("shopping_4", rules)], 1, 64, seed=5)
    actor = unpadded_rule_actor(np.array(DEFAULT_PARAMS))
    step, phase_moves = tables.reset(), 0
    for _ in range(30):
        actions = actor(step.observations, step.action_masks)
        acting = step.action_masks.any(axis=1)
        assert step.action_masks[acting, actions[acting]].all()
        betting = step.action_masks[:, 2:10].any(axis=1)
        assert (actions[acting & betting] < 10).all()
        phase_moves += int((actions[acting & ~betting] >= 10).sum())
        step = tables.step(actions)
    assert phase_moves > 0


def test_cli_general_run_with_evaluate_writes_the_report_at_the_chosen_table(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--evaluate`` after a general run measures the policy at the ``--preset`` and
    ``--players`` table; its best responses start fresh (the padded input fits no
    one-table network)."""
    import json

    from interfaces.cli import main

    out = tmp_path / "cli"
    code = main(["selfplay", "--table-mix", "general", "--timesteps", "1000", "--tables", "32",
                 "--rollout-steps", "16", "--minibatch-size", "256", "--hidden", "16",
                 "--exploiter-every", "0", "--preset", "flash", "--out", str(out), "--quiet",
                 "--evaluate", "--eval-hands", "8", "--exploit-budget", "100"])
    assert code == 0
    report = json.loads((out / "evaluation.json").read_text())
    assert {row["table"] for row in report["head_to_head"]["rows"]} == {"2v2", "1v3"}
    exploits = report["exploitability"]
    assert [entry["agent"] for entry in exploits] == [f"ppo:{out / 'policy.npz'}", "hard",
                                                      "equity"]
    assert all(entry["players"] == 4 for entry in exploits)
    assert report["head_to_head"]["rules"] == Rules.preset("flash").to_dict()
    assert str(out / "evaluation.md") in capsys.readouterr().out


def test_a_checkpoint_of_another_variant_is_refused_on_resume(tmp_path: Path) -> None:
    muflis = tiny_general(tmp_path, "muflis", table_mix="single", variant="muflis",
                          timesteps=1_000)
    train_selfplay(muflis)
    with pytest.raises(ValueError, match="variant='muflis'"):
        train_selfplay(tiny_general(tmp_path, "classic", table_mix="single",
                                    resume=str(tmp_path / "muflis" / "checkpoint.pt")))
