"""The Python examples of the README and of docs/ run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]


NOT_RUN = "# A training run, not an example the test suite runs"
"""The first line of a block that the suite leaves alone (a long job, or one that needs
a Ray cluster); the other blocks run as written."""


def python_blocks(page: Path) -> list[str]:
    """The page's fenced ```python blocks, but those marked :data:`NOT_RUN`."""
    blocks = re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.S)
    return [block for block in blocks if not block.startswith(NOT_RUN)]


def test_readme_has_python_examples() -> None:
    assert python_blocks(README)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_python_examples_run(
    page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the examples may write files
    for block in python_blocks(page):
        exec(compile(block, str(page), "exec"), {})
