"""Policy files: the metadata of an exported policy, reading one, finding a shipped one.

:func:`read_policy` checks a ``.npz`` file (its format, its observation layout version,
its layers) and says what is wrong with a damaged one; :func:`load_policy` caches it per
file while the file is unchanged; :func:`pretrained_path` finds a policy shipped in
``agents/pretrained``. The network itself is :mod:`agents.policy_network`.
"""

from __future__ import annotations

import json
import re
import zipfile
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from agents.policy_network import POLICY_FORMAT, POLICY_FORMATS, NumpyPolicy, PolicyFileError
from teenpatti_env.environment.observation import (
    OBSERVATION_VERSION,
    ObservationLayout,
    version_1_size,
)
from teenpatti_env.rules import Rules

PRETRAINED_DIR = Path(__file__).parent / "pretrained"
READABLE_VERSIONS = (1, OBSERVATION_VERSION)
"""Observation layout versions a policy file may record: a version-1 vector is a
version-2 one without the ``my_slots`` block at its end."""


def policy_metadata(
    rules: Rules, action_names: Sequence[str], activation: str, **extra: Any
) -> dict[str, Any]:
    """The metadata block of a policy trained for ``rules``."""
    return {
        "format": POLICY_FORMAT,
        "observation_version": OBSERVATION_VERSION,
        "rules": rules.to_dict(),
        "preset": rules.preset_name,
        "action_names": list(action_names),
        "activation": activation,
        **extra,
    }


def read_policy(path: str | Path) -> NumpyPolicy:
    """Load a policy file; a damaged file or another layout version is a
    :class:`PolicyFileError` that says which."""
    path = Path(path)
    if not path.is_file():
        raise PolicyFileError(f"no policy file at {str(path)!r}")
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {key: data[key] for key in data.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        raise PolicyFileError(f"{str(path)!r} is not a policy file: {error}") from None
    try:
        metadata = json.loads(str(arrays.pop("metadata")))
    except (KeyError, json.JSONDecodeError):
        raise PolicyFileError(f"{str(path)!r} has no readable metadata") from None
    if not isinstance(metadata, dict) or metadata.get("format") not in POLICY_FORMATS:
        raise PolicyFileError(f"{str(path)!r} is not in the {' or '.join(POLICY_FORMATS)} "
                              "format")
    version = metadata.get("observation_version")
    if version not in READABLE_VERSIONS:
        raise PolicyFileError(
            f"{str(path)!r} was trained on observation layout version {version!r}; this "
            f"package builds version {OBSERVATION_VERSION} and reads "
            f"{', '.join(map(str, READABLE_VERSIONS))}"
        )
    layers = len(arrays) // 2
    try:
        weights = [arrays.pop(f"layer_{k}_weight") for k in range(layers)]
        biases = [arrays.pop(f"layer_{k}_bias") for k in range(layers)]
        rules = Rules.from_dict(metadata["rules"])
    except (KeyError, TypeError, ValueError) as error:
        raise PolicyFileError(f"{str(path)!r} is damaged: {error}") from None
    if version != OBSERVATION_VERSION and metadata["format"] == POLICY_FORMAT:
        weights[0], metadata = _from_version_1(weights[0], metadata, rules)
    if arrays:
        raise PolicyFileError(f"{str(path)!r} holds unknown arrays {sorted(arrays)}")
    try:
        return NumpyPolicy(weights, biases, metadata)
    except PolicyFileError as error:
        raise PolicyFileError(f"{str(path)!r}: {error}") from None


@lru_cache(maxsize=128)
def _cached_policy(path: str, identity: tuple[int, ...]) -> NumpyPolicy:
    return read_policy(path)


def load_policy(path: str | Path) -> NumpyPolicy:
    """:func:`read_policy`, cached per file while the file is unchanged (the arena builds
    an agent per seat and deal)."""
    resolved = Path(path).expanduser().resolve()
    if not resolved.is_file():
        raise PolicyFileError(f"no policy file at {str(path)!r}")
    status = resolved.stat()
    # A copy that keeps the modification time still changes the inode change time.
    identity = (status.st_mtime_ns, status.st_ctime_ns, status.st_size, status.st_ino)
    return _cached_policy(str(resolved), identity)


def pretrained_path(name: str) -> Path:
    """The file of a shipped policy (``pretrained:<name>``)."""
    path = PRETRAINED_DIR / f"{name}.npz"
    if not re.fullmatch(r"[A-Za-z0-9_-]+", name) or not path.is_file():
        known = sorted(p.stem for p in (*PRETRAINED_DIR.glob("*.npz"),
                                        *PRETRAINED_DIR.glob("*.json")))
        raise ValueError(f"no pretrained policy {name!r}; shipped: {', '.join(known) or 'none'}")
    return path


def _from_version_1(first: np.ndarray, metadata: dict[str, Any],
                    rules: Rules) -> tuple[np.ndarray, dict[str, Any]]:
    """A version-1 one-table policy's first layer and metadata for the version-2 vector:
    zero weights for the ``my_slots`` inputs (where its table has them), so it makes the
    very choices it made on the version-1 vector."""
    old, new = version_1_size(rules), ObservationLayout(rules).size
    if first.shape[0] == old and new > old:
        first = np.vstack([first, np.zeros((new - old, first.shape[1]), first.dtype)])
    return first, {**metadata, "observation_version": OBSERVATION_VERSION}
