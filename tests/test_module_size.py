"""No module of the library grows past about 400 lines (issues 27 and 31).

Every ``.py`` file under ``teenpatti_env/``, ``agents/`` and ``training/`` is counted in
physical lines (as ``wc -l`` counts a file that ends in a newline). A module that grows
past :data:`MAX_MODULE_LINES` is split by concern, its names re-exported from where they
were (docs/design.md, "Where a change goes").
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("teenpatti_env", "agents", "training")
MAX_MODULE_LINES = 400


def physical_lines(path: Path) -> int:
    """The lines of ``path`` as an editor shows them (a last line without its newline
    counts too)."""
    return len(path.read_text(encoding="utf-8").splitlines())


def oversized(paths: Iterable[Path], root: Path, limit: int) -> list[str]:
    """``"relative/path.py: N lines"`` for every file of ``paths`` over ``limit`` lines."""
    return [
        f"{path.relative_to(root).as_posix()}: {lines} lines"
        for path in sorted(paths)
        if (lines := physical_lines(path)) > limit
    ]


def library_modules() -> list[Path]:
    """Every ``.py`` file of the packages."""
    return [path for package in PACKAGES for path in (ROOT / package).rglob("*.py")]


def test_no_library_module_is_over_400_lines() -> None:
    modules = library_modules()
    assert len(modules) > 100  # the walk found the packages
    offenders = oversized(modules, ROOT, MAX_MODULE_LINES)
    assert not offenders, "split these modules by concern:\n" + "\n".join(offenders)


def test_the_count_flags_a_module_one_line_over(tmp_path: Path) -> None:
    at_limit = tmp_path / "at_limit.py"
    at_limit.write_text("x = 1\n" * 400)
    over = tmp_path / "over.py"
    over.write_text("x = 1\n" * 400 + "y = 2")  # the 401st line has no newline
    assert physical_lines(over) == 401
    assert oversized([over, at_limit], tmp_path, 400) == ["over.py: 401 lines"]
