"""Match transcripts (interfaces/transcript.py): every request and answer with its time,
every hand's history, and a match cut off part-way resumed to the same result."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from interfaces.match import resume_match, run_match
from interfaces.transcript import read_transcript
from teenpatti_env.engine.history import replay

HARD = f"stdio:{sys.executable} -m teenpatti_env serve --stdio --agent hard"
PLAYERS = ["equity", HARD, "medium", "absent"]


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("match")
    run_match(PLAYERS, hands=8, seed=3, time_limit=5, out=folder)
    return folder


def _lines(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "transcript.jsonl").read_text().splitlines()]


def test_the_transcript_holds_every_request_and_answer_with_its_time(played):
    lines = _lines(played)
    assert lines[0]["event"] == "start" and lines[0]["players"] == PLAYERS
    requests = [e for e in lines if e["event"] == "request"]
    answers = [e for e in lines if e["event"] == "answer"]
    assert requests and len(requests) == len(answers)
    result = json.loads((played / "result.json").read_text())
    assert len(requests) == result["decisions"][1]  # every turn of the stdio bot
    for request, answer in zip(requests, answers, strict=True):
        assert request["turn"] == answer["turn"] and request["seat"] == 1
        assert request["request"]["view"]["seat"] == 1
        assert answer["at"] >= request["at"] and 0 <= answer["seconds"] < 5
        assert "action" in answer


def test_every_hand_history_replays_and_adds_up_to_the_result(played):
    result = json.loads((played / "result.json").read_text())
    files = sorted((played / "hands").glob("hand-*.json"))
    assert len(files) == result["hands_played"] == 8
    net = [0, 0, 0, 0]
    for path in files:
        history = json.loads(path.read_text())
        outcome = replay(history)
        for seat, amount in enumerate(outcome["net"]):
            net[seat] += amount
    assert net == result["net"]
    hand_lines = [e["file"] for e in _lines(played) if e["event"] == "hand"]
    assert hand_lines == [f"hands/{p.name}" for p in files]


@pytest.mark.parametrize("keep", [0.3, 0.6])
def test_a_match_cut_off_and_resumed_ends_as_the_whole_match(played, tmp_path, keep):
    cut = tmp_path / "cut"
    shutil.copytree(played, cut)
    (cut / "result.json").unlink()
    text = (cut / "transcript.jsonl").read_text()
    (cut / "transcript.jsonl").write_text(text[: int(len(text) * keep)])  # mid-line too
    before = read_transcript(cut)
    assert 0 < before.hands < 8
    for path in sorted((cut / "hands").glob("*.json"))[before.hands:]:
        path.unlink()
    result = resume_match(cut)
    assert (cut / "result.json").read_text() == (played / "result.json").read_text()
    assert result.hands_played == 8
    assert [p.read_text() for p in sorted((cut / "hands").glob("*.json"))] == [
        p.read_text() for p in sorted((played / "hands").glob("*.json"))]
    lines = _lines(cut)
    assert sum(e["event"] == "resume" for e in lines) == 1
    assert [e["hand"] for e in lines if e["event"] == "hand"] == list(range(1, 9))


def test_a_transcript_that_is_not_one_is_refused(tmp_path):
    with pytest.raises(ValueError, match="cannot read"):
        read_transcript(tmp_path)
    (tmp_path / "transcript.jsonl").write_text('{"event": "answer"}\n{}\n')
    with pytest.raises(ValueError, match=r"not a transcript line|start line"):
        read_transcript(tmp_path)
    (tmp_path / "transcript.jsonl").write_text('{"event": "start", "players": []}\n')
    with pytest.raises(ValueError, match="lacks"):
        read_transcript(tmp_path)


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "teenpatti_env", *args]


def test_a_match_killed_half_way_and_resumed_on_the_command_line_gives_the_same_result(
        tmp_path):
    options = ["--agents", f"equity,{HARD},absent", "--hands", "30", "--seed", "5",
               "--time-limit", "5"]
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    done = subprocess.run(_cli("match", *options, "--out", str(whole)), capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    process = subprocess.Popen(_cli("match", *options, "--out", str(cut)),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while not (cut / "hands" / "hand-0010.json").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    process.kill()
    process.wait()
    assert not (cut / "result.json").exists()  # cut off before the end
    again = subprocess.run(_cli("match", "--out", str(cut)), capture_output=True, text=True)
    assert again.returncode == 2 and "--resume" in again.stderr
    done = subprocess.run(_cli("match", "--resume", str(cut)), capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert (cut / "result.json").read_text() == (whole / "result.json").read_text()
    for path in sorted((cut / "hands").glob("*.json")):
        assert replay(json.loads(path.read_text()))["net"] is not None
