"""The package's structure (docs/design.md): the layering contracts hold, no module imports
itself back through others, and the engine's parts stay small."""

from __future__ import annotations

import ast
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
