"""What `teenpatti selfplay` tells its user: exploiters numbered as they are trained, none
wasted after the last update, a progress bar that counts the exploiters' decisions, the
evaluation written to the run folder, the commands to use the trained policy, and a notice
when the value loss is far above its usual size."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("numba")

import torch

from agents import make_agent
from agents.policy import PolicyAgent
from interfaces.cli import build_parser, main
from interfaces.cli.training import next_steps
from training.config import SelfPlayConfig
from training.selfplay import (
    exploiter_count,
    exploiters_before,
    new_model,
    train_exploiter,
    train_selfplay,
)
from training.selfplay_loop import CriticWatch


def league(tmp_path: Path, **overrides: object) -> SelfPlayConfig:
    """A tiny league: an exploiter every 1,500 decisions, at most one kept, and 6,000
    decisions, so that the last update crosses the fourth multiple of 1,500."""
    settings: dict[str, object] = {
        "timesteps": 6_000, "tables": 32, "rollout_steps": 32, "minibatch_size": 512,
        "out": str(tmp_path / "run"), "progress": False, "threads": 1,
        "snapshot_every": 1_000, "exploiter_every": 1_500, "exploiter_steps": 500,
        "max_exploiters": 1,
    }
    settings.update(overrides)
    return SelfPlayConfig(**settings)  # type: ignore[arg-type]


def test_exploiter_count_counts_the_multiples_below_the_budget() -> None:
    assert exploiter_count(SelfPlayConfig()) == 11  # 0.5M, 1M, ..., 5.5M of 6M
    assert exploiter_count(SelfPlayConfig(timesteps=6_000_001)) == 12
    assert exploiter_count(SelfPlayConfig(exploiter_every=0)) == 0
    assert exploiters_before(SelfPlayConfig(), 1_200_000) == 2
    assert exploiters_before(SelfPlayConfig(), 6_011_278) == 11


def test_exploiters_are_numbered_as_trained_and_none_follows_the_last_update(
        tmp_path: Path) -> None:
    """With one exploiter kept, the numbers still count up (they used to stick at 2), and
    the multiple of 1,500 that the last update crosses trains no exploiter."""
    said: list[str] = []
    result = train_selfplay(league(tmp_path), say=said.append)
    starts = [line for line in said if "training exploiter" in line]
    assert [line.split("training ")[1].split(" (")[0] for line in starts] == [
        "exploiter 1 of 3", "exploiter 2 of 3", "exploiter 3 of 3"]
    assert result.decisions >= 6_000
    started_at = [int(line.split(" decisions")[0].replace(",", "")) for line in starts]
    assert all(at < 6_000 for at in started_at)  # an update followed each of them


def test_an_exploiter_leaves_the_main_policy_and_torchs_random_state_alone(
        tmp_path: Path) -> None:
    """Why dropping the exploiter after the last update keeps the weights bit for bit:
    training one changes neither the main network nor torch's global random stream."""
    config = league(tmp_path)
    torch.manual_seed(3)
    model = new_model(config, config.rules)
    before = {key: value.clone() for key, value in model.state_dict().items()}
    state = torch.get_rng_state()
    rounds: list[int] = []
    exploiter, _ = train_exploiter(model, config, torch.device("cpu"), 11, rounds.append)
    assert all(torch.equal(before[key], value) for key, value in model.state_dict().items())
    assert torch.equal(state, torch.get_rng_state())
    assert sum(rounds) >= config.exploiter_steps and all(count > 0 for count in rounds)
    assert not torch.equal(exploiter.policy_head.weight, model.policy_head.weight)


def test_the_progress_bar_counts_the_exploiters_decisions(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bar's total is the main budget plus each exploiter's, corrected by what each
    exploiter actually made; so its estimate of the time left counts them."""
    import training.selfplay_loop as selfplay_loop

    bars: list[Any] = []
    real = selfplay_loop.run_progress_bar

    def keep(config: SelfPlayConfig, decisions: int) -> Any:
        bars.append(real(config, decisions))
        assert bars[-1].total == config.timesteps + 3 * config.exploiter_steps
        return bars[-1]

    real_train = selfplay_loop._train_exploiter_on_bar
    totals: list[int] = []

    def watch(*args: Any) -> Any:
        made = real_train(*args)
        totals.append(bars[0].total)
        return made

    monkeypatch.setattr(selfplay_loop, "run_progress_bar", keep)
    monkeypatch.setattr(selfplay_loop, "_train_exploiter_on_bar", watch)
    result = train_selfplay(league(tmp_path, progress=True))
    bar = bars[0]
    exploiter_decisions = bar.n - result.decisions
    assert exploiter_decisions >= 3 * 500
    # after the last exploiter: the main budget plus what the exploiters really made
    assert len(totals) == 3 and totals[-1] == 6_000 + exploiter_decisions
    assert bar.total == bar.n  # it ends full, though the last update passed 6,000


def test_the_evaluation_is_written_to_the_run_folder_as_markdown_and_json(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli"
    code = main(["selfplay", "--timesteps", "1000", "--tables", "32", "--rollout-steps", "32",
                 "--minibatch-size", "512", "--hidden", "16", "--exploiter-every", "0",
                 "--out", str(out), "--quiet", "--evaluate", "--eval-hands", "8",
                 "--exploit-budget", "100"])
    assert code == 0
    printed = capsys.readouterr().out
    report = json.loads((out / "evaluation.json").read_text())
    assert report["format"] == "teenpatti-evaluation/1"
    rows = report["head_to_head"]["rows"]
    assert len(rows) == 12 and {row["table"] for row in rows} == {"2v2", "1v3"}
    targets = [entry["agent"] for entry in report["exploitability"]]
    assert targets == [f"ppo:{out / 'policy.npz'}", "hard", "equity"]
    markdown = (out / "evaluation.md").read_text()
    for entry in report["exploitability"]:
        assert f"| `{entry['agent']}` | {entry['mean']:+.3f} |" in markdown
    assert f"{rows[0]['boots_per_hand']['mean']:+.3f}" in markdown  # the head-to-head too
    assert str(out / "evaluation.md") in printed and str(out / "evaluation.json") in printed


def test_the_last_lines_are_commands_that_use_the_trained_policy(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each printed command names the run's own policy file and is one the command line
    accepts; the file loads as the agent they name."""
    out = tmp_path / "my run"
    assert main(["selfplay", "--timesteps", "500", "--tables", "32", "--rollout-steps", "16",
                 "--minibatch-size", "256", "--hidden", "16", "--exploiter-every", "0",
                 "--out", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out.splitlines()
    tail = printed[printed.index("next steps with this policy:") + 1:]
    commands = [line.split("teenpatti ", 1)[1].split("   (")[0] for line in tail]
    subcommands = [shlex.split(command)[0] for command in commands]
    assert subcommands == ["arena", "exploit", "serve", "play"]
    agent = f"ppo:{out / 'policy.npz'}"
    parser = build_parser()
    for command in commands:
        argv = shlex.split(command)
        assert agent in " ".join(argv)
        parser.parse_args(argv)
    assert isinstance(make_agent(agent), PolicyAgent)


def test_the_commands_name_the_table_the_policy_was_trained_for() -> None:
    lines = next_steps(Path("runs/x/policy.npz"), "flash", 5)
    play = next(line for line in lines if "play:" in line)
    argv = shlex.split(play.split("play:")[1])
    args = build_parser().parse_args(argv[1:])
    assert args.preset == "flash"
    assert len(args.bots.split(",")) == 4  # five seats: a bot in each of the other four
    for line in lines[1:4]:
        assert "--preset flash --players 5" in line or "serve" in line
    default = next_steps(Path("p.npz"), "classic", None)
    assert not any("--preset" in line or "--players" in line for line in default)
    assert np.all([("ppo:p.npz" in line) for line in default[1:]])


def test_the_critic_watch_speaks_once_when_the_mean_value_loss_passes_the_limit() -> None:
    watch = CriticWatch()
    window, limit = CriticWatch.WINDOW, CriticWatch.LIMIT
    said = [watch.see({"value_loss": limit}) for _ in range(window)]
    assert said == [None] * window  # at the limit, not above it
    said = [watch.see({"value_loss": 3 * limit}) for _ in range(window)]
    told = [notice for notice in said if notice]
    # the mean of the last 20 passes 50 at the first loss of 150 (mean 55): said once only
    assert len(told) == 1 and said[0] == told[0]
    assert "--ent-coef" in told[0] and "55.0" in told[0]
    assert watch.see({"decisions": 5, "exploiter_edge": 1.0}) is None  # an exploiter's row


def test_a_run_whose_value_loss_is_huge_is_told_so(
        tmp_path: Path) -> None:
    """At a reward scale of 10 (a hundred times the default) the value targets are in tens
    of chips and the notice comes; at the default it does not."""
    def run(scale: float, name: str) -> list[str]:
        said: list[str] = []
        config = league(tmp_path, timesteps=4_000, tables=16, rollout_steps=8,
                        minibatch_size=64, exploiter_every=0, reward_scale=scale,
                        out=str(tmp_path / name))
        train_selfplay(config, say=said.append)
        return [line for line in said if "value loss averages" in line]

    assert len(run(10.0, "loud")) == 1
    assert run(0.1, "quiet") == []
