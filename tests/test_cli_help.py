"""The ``teenpatti`` command line as a new user meets it (issue 17, "Command-line
polish"): ``--version``, help texts that show every default and say what ``--seed``
seeds, no reStructuredText markup in ``--help``, an unknown web game answered as "no
such game", and ``teenpatti train`` saying when it moves from one phase to the next."""

from __future__ import annotations

import argparse
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from builders.server import running_server

import teenpatti_env
from interfaces.cli import build_parser, main
from interfaces.server import BotServer

_ABSENT = (None, False, argparse.SUPPRESS)


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    (subparsers,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(subparsers.choices)


def _help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--help"])
    assert stop.value.code == 0
    return capsys.readouterr().out


def test_version_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"teenpatti {teenpatti_env.__version__}"


@pytest.mark.parametrize("command", [None, *_commands()])
def test_help_has_no_restructuredtext_markup(
    command: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _help([] if command is None else [command], capsys)
    assert "`" not in text
    assert ":func:" not in text and ":mod:" not in text


@pytest.mark.parametrize("command", list(_commands()))
def test_every_option_with_a_default_shows_it(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    text = " ".join(_help([command], capsys).split())  # undo argparse's line wrapping
    parser = _commands()[command]
    for action in parser._actions:
        if not action.option_strings or action.default in _ABSENT or action.help is None:
            continue
        assert f"(default: {action.default})" in text, (command, action.dest)


def test_every_train_option_says_its_default() -> None:
    # train's argparse defaults stay None (TrainConfig holds them), so each help names it
    for action in _commands()["train"]._actions:
        if action.option_strings and action.dest not in ("help", "resume", "quiet"):
            assert action.help is not None and "default" in action.help, action.dest


def test_arena_help_shows_twenty_thousand_hands(capsys: pytest.CaptureFixture[str]) -> None:
    text = " ".join(_help(["arena"], capsys).split())
    assert "--hands HANDS hands in total, rounded up to whole deals (default: 20000)" in text


@pytest.mark.parametrize("command", [c for c, p in _commands().items()
                                     if any("--seed" in a.option_strings for a in p._actions)])
def test_seed_help_says_what_it_seeds(command: str) -> None:
    (seed,) = [a for a in _commands()[command]._actions if "--seed" in a.option_strings]
    assert seed.help is not None
    assert "seed" in seed.help.lower() or "same" in seed.help.lower()
    assert len(seed.help.split()) >= 4, seed.help


def test_every_command_has_a_description(capsys: pytest.CaptureFixture[str]) -> None:
    for command, parser in _commands().items():
        assert parser.description, command
        assert parser.description in " ".join(_help([command], capsys).split())


@pytest.fixture()
def server() -> Iterator[BotServer]:
    with running_server("random") as bot_server:
        yield bot_server


@pytest.mark.parametrize(
    ("method", "game"),
    [("GET", "0123456789abcdef"), ("GET", "nope"), ("POST", "nope"), ("GET", "ABCDEF0123456789")],
)
def test_an_unknown_game_is_no_such_game(server: BotServer, method: str, game: str) -> None:
    suffix = "/act" if method == "POST" else ""
    data = json.dumps({"action": {"type": "pack"}}).encode() if method == "POST" else None
    request = urllib.request.Request(f"{server.url}/v1/games/{game}{suffix}", data,
                                     {"Content-Type": "application/json"}, method=method)
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(request, timeout=10)
    assert answer.value.code == 404
    error = json.loads(answer.value.read())["error"]
    assert error["code"] == "not_found"
    assert error["message"].startswith(f"no such game {game!r}")


def test_a_known_game_still_plays(server: BotServer) -> None:
    request = urllib.request.Request(f"{server.url}/v1/games", b"{}",
                                     {"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as answer:
        game = json.load(answer)["game"]
    with urllib.request.urlopen(f"{server.url}/v1/games/{game}", timeout=10) as answer:
        assert json.load(answer)["game"] == game


def test_train_says_when_it_moves_to_the_next_phase(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("sb3_contrib")
    status = main([
        "train", "--timesteps", "128", "--envs", "1", "--n-steps", "64", "--batch-size", "64",
        "--n-epochs", "1", "--net-arch", "8", "--opponents", "random",
        "--eval-every", "0", "--final-eval-hands", "8", "--checkpoint-every", "0",
        "--warm-start", "auto", "--warm-start-decisions", "32", "--out", str(tmp_path / "run"),
        "--quiet",
    ])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    phases = [line for line in captured.err.splitlines() if line.startswith("teenpatti train:")]
    assert len(phases) == 3, captured.err
    warm, ppo, final = phases
    assert "warm start" in warm and "32" in warm and "auto" in warm
    assert "PPO" in ppo and "128" in ppo
    assert "final evaluation" in final and "8 hands" in final


def test_train_without_a_warm_start_skips_that_phase(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("sb3_contrib")
    status = main([
        "train", "--timesteps", "64", "--envs", "1", "--n-steps", "64", "--batch-size", "64",
        "--n-epochs", "1", "--net-arch", "8", "--opponents", "random", "--warm-start", "none",
        "--eval-every", "0", "--final-eval-hands", "0", "--checkpoint-every", "0",
        "--out", str(tmp_path / "run"), "--quiet",
    ])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    phases = [line for line in captured.err.splitlines() if line.startswith("teenpatti train:")]
    assert len(phases) == 1 and "PPO" in phases[0], captured.err
