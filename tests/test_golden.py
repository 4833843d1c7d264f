"""Golden hand histories worked by hand (tests/golden/*.json), replayed exactly.

Each file holds a ``history`` in the RULES.md section 10 format, the ``expected`` replay
result (``shown`` keyed by seat as JSON text) and an ``about`` line with the arithmetic.
The environment's tests replay the same files.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from teenpatti_env import replay

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_history_replays_exactly(path: Path) -> None:
    case = json.loads(path.read_text())
    result = json.loads(json.dumps(replay(case["history"])))
    for key, expected in case["expected"].items():
        assert result[key] == expected, key


def test_there_are_golden_histories() -> None:
    assert len(GOLDEN) >= 3
