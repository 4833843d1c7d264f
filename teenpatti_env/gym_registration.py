"""``"TeenPatti-v0"`` in gymnasium's registry however the imports are ordered, without
importing gymnasium.

``import teenpatti_env`` must not import gymnasium (the engine stands without it), yet
``gymnasium.make("TeenPatti-v0")`` should work after ``import teenpatti_env`` whichever of
the two was imported first. So the id is registered at once when gymnasium is already
loaded, and otherwise by a one-shot import hook that registers it as soon as gymnasium
has finished loading. Registering takes only the entry point's text: the environment
itself loads when the id is first made.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

ENV_ID = "TeenPatti-v0"
ENTRY_POINT = "teenpatti_env.environment.single_agent:TeenPattiEnv"


def register(gymnasium: Any) -> None:
    """Register :data:`ENV_ID` with the ``gymnasium`` module given, once."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point=ENTRY_POINT)


class _RegisterAfterImport(MetaPathFinder):
    """Finds gymnasium as the other finders do, and registers the id once it has run."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname != "gymnasium":
            return None
        sys.meta_path.remove(self)  # one shot: also keeps the search below from recursing
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        run_module = spec.loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run_module(module)
            register(module)

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def register_when_imported() -> None:
    """Register the id now if gymnasium is loaded, else as soon as it is imported."""
    gymnasium = sys.modules.get("gymnasium")
    if gymnasium is not None:
        register(gymnasium)
    elif not any(isinstance(finder, _RegisterAfterImport) for finder in sys.meta_path):
        sys.meta_path.insert(0, _RegisterAfterImport())
