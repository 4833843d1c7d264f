"""A bound on how deeply input data may nest.

Rules, hand histories and protocol messages nest a few levels at most (a history's rules
hold a dealer's-choice list of variant specs, each with a list of wild sources). Data
nested far deeper than that is refused up front with a ``ValueError``, before any code
that walks it recursively (or prints it in an error message) hits Python's recursion
limit.

>>> check_nesting({"rules": {"variant": "classic"}}, "a hand history")
>>> check_nesting([[[[1]]]], "a list", limit=3)
Traceback (most recent call last):
...
ValueError: a list: nested more than 3 levels deep
"""

from __future__ import annotations

from typing import Any

MAX_NESTING = 32
"""The deepest nesting of dicts, lists and tuples that input data may have."""


def check_nesting(value: Any, what: str, limit: int = MAX_NESTING) -> None:
    """Raise ``ValueError`` if ``value`` nests dicts, lists or tuples more than ``limit``
    levels deep (a container that holds itself counts as nested without end)."""
    level = [value]
    for depth in range(limit + 1):
        containers = [item for item in level if isinstance(item, (dict, list, tuple))]
        if not containers:
            return
        if depth == limit:
            raise ValueError(f"{what}: nested more than {limit} levels deep")
        level = []
        for container in containers:
            if isinstance(container, dict):
                level.extend(container.keys())
                level.extend(container.values())
            else:
                level.extend(container)
