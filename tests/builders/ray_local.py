"""A local Ray instance for the Ray tests (tests/test_ray.py, tests/test_selfplay_ray.py).

Imported as a plain module: pytest puts tests/ on sys.path.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from builders.env import client

ROOT = Path(__file__).resolve().parents[2]
CPUS = 2
"""The CPUs the instance offers (CI's machine has two cores)."""


def local_ray() -> Iterator[Any]:
    """Start a local Ray instance with :data:`CPUS` CPUs and no dashboard, yield the
    ``ray`` module, and shut it down after; skipped without Ray (failed under
    ``TEENPATTI_REQUIRE_CLIENTS=1``)."""
    ray = client("ray")
    if ray.is_initialized():
        ray.shutdown()
    # Ray's workers import this checkout, whatever is installed elsewhere.
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    ray.init(num_cpus=CPUS, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": {"PYTHONPATH": path}})
    try:
        yield ray
    finally:
        ray.shutdown()
