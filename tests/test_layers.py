"""The package's structure (docs/design.md): the layering contracts hold, no module imports
itself back through others, and the engine's parts stay small."""

from __future__ import annotations

import ast
import importlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

grimp = pytest.importorskip("grimp")
importlinter_cli = pytest.importorskip("importlinter.cli")

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("teenpatti_env", "agents", "training", "interfaces")
MAX_ENGINE_MODULE_LINES = 400
MAX_ENGINE_CLASS_LINES = 300


def import_cycles(imports: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (or a module importing
    itself): each is a set of modules that import each other in a circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(start: str) -> None:
        # Tarjan's algorithm, iterative (the graph may be deeper than the recursion limit).
        work = [(start, iter(sorted(imports.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            module, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(imports.get(target, ())))))
                    break
                if target in on_stack:
                    low[module] = min(low[module], index[target])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[module])
                if low[module] == index[module]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == module:
                            break
                    if len(component) > 1 or module in imports.get(module, ()):
                        cycles.append(sorted(component))

    for module in sorted(imports):
        if module not in index:
            visit(module)
    return cycles


def test_cycle_finder_finds_circles_and_only_circles() -> None:
    assert import_cycles({"a": ["b"], "b": ["c"], "c": []}) == []
    assert import_cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]
    assert import_cycles({"a": ["a"]}) == [["a"]]
    assert sorted(import_cycles({"a": ["b"], "b": ["a"], "c": ["d"], "d": ["c"]})) == [
        ["a", "b"],
        ["c", "d"],
    ]


def test_no_import_cycle_in_the_package() -> None:
    """Every import counts: at the top, inside a function, under TYPE_CHECKING."""
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    imports = {
        module: graph.find_modules_directly_imported_by(module) for module in graph.modules
    }
    assert "teenpatti_env.engine.hand" in imports  # the graph is the package's
    assert import_cycles(imports) == []


def test_layering_contracts_hold() -> None:
    """The import-linter contracts of pyproject.toml (also run by CI as ``lint-imports``)."""
    config = str(ROOT / "pyproject.toml")
    assert importlinter_cli.lint_imports(config_filename=config, no_cache=True) == 0


def test_engine_modules_and_classes_stay_small() -> None:
    engine = ROOT / "teenpatti_env" / "engine"
    modules = sorted(engine.glob("*.py"))
    assert len(modules) > 10
    for path in modules:
        source = path.read_text()
        lines = source.count("\n")
        assert lines <= MAX_ENGINE_MODULE_LINES, f"{path.name}: {lines} lines"
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ClassDef):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                assert size <= MAX_ENGINE_CLASS_LINES, f"{path.name}: {node.name} {size} lines"


def test_old_module_paths_are_the_new_modules_names() -> None:
    """Code importing an old path (``teenpatti_env.variants``) gets the same objects."""
    import teenpatti_env.aec
    import teenpatti_env.history
    import teenpatti_env.variants
    from teenpatti_env.engine import history
    from teenpatti_env.environment import aec
    from teenpatti_env.rules import variants

    assert teenpatti_env.variants.VariantSpec is variants.VariantSpec
    assert teenpatti_env.aec.raw_env is aec.raw_env
    assert teenpatti_env.history.replay is history.replay


_MUTATORS = {"append", "pop", "remove", "extend", "insert", "clear", "update"}
_WRITES_EVERYTHING = {"dealing", "choice", "hand"}  # lay out, replace, copy the state


def attributes_written(source: str) -> set[str]:
    """The ``self`` attributes a module's code assigns, augments or changes in place."""
    written: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _MUTATORS
        ):
            targets = [node.func.value]
        for target in targets:
            while isinstance(target, ast.Subscript):
                target = target.value
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
            ):
                written.add(target.attr)
    return written


def test_attributes_written_sees_every_kind_of_write() -> None:
    source = "def f(self):\n self.a = 1\n self.b[0] = 2\n self.c += 3\n self.d.append(4)\n"
    assert attributes_written(source) == {"a", "b", "c", "d"}


def test_each_part_writes_only_the_table_and_its_own_state() -> None:
    from teenpatti_env.engine.state import PART_STATE, TABLE_STATE, HandState

    owned = [name for names in PART_STATE.values() for name in names]
    assert len(owned) == len(set(owned))  # one owner each
    assert set(HandState.__annotations__) == set(TABLE_STATE) | set(owned)
    assert not set(TABLE_STATE) & set(owned)
    engine = ROOT / "teenpatti_env" / "engine"
    parts = [
        path
        for path in sorted(engine.glob("*.py"))
        if any(
            isinstance(value, type) and issubclass(value, HandState)
            for value in vars(importlib.import_module(f"teenpatti_env.engine.{path.stem}")).values()
            if getattr(value, "__module__", None) == f"teenpatti_env.engine.{path.stem}"
        )
    ]
    assert len(parts) == 12  # state and the eleven parts stacked on it
    for path in parts:
        part = path.stem
        written = attributes_written(path.read_text())
        if part in _WRITES_EVERYTHING:
            continue
        allowed = set(TABLE_STATE) | set(PART_STATE.get(part, ()))
        assert written <= allowed, f"{part} writes {sorted(written - allowed)}"


def _lint_copy(tmp_path: Path, extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` over a copy of the package with ``extra`` files added."""
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.npz", "web"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    for name, text in extra.items():
        (tmp_path / name).write_text(text)
    return subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports; "
         "sys.exit(lint_imports(config_filename='pyproject.toml', no_cache=True))"],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True, text=True, timeout=300,
    )


def test_the_contracts_refuse_an_upward_import_from_teenpatti_env(tmp_path: Path) -> None:
    """The contracts pass on the package as it is, and fail once a module of
    ``teenpatti_env`` imports the command line (or any package above it)."""
    assert _lint_copy(tmp_path / "clean", {}).returncode == 0
    upward = {"teenpatti_env/upward.py": "from interfaces.cli import main\n"}
    done = _lint_copy(tmp_path / "upward", upward)
    assert done.returncode != 0
    assert "teenpatti_env stands alone: it imports none of the packages above it BROKEN" in (
        done.stdout)
    assert "teenpatti_env.upward -> interfaces.cli (l.1)" in done.stdout


def test_python_m_teenpatti_env_runs_the_command_line() -> None:
    done = subprocess.run([sys.executable, "-m", "teenpatti_env", "--version"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("teenpatti ")
