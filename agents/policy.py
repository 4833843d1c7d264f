"""Trained policies that run on numpy alone: the exported form of a training run.

An exported policy is one ``.npz`` file. It holds the layers of the policy network
(``layer_0_weight``, ``layer_0_bias``, ... with the action head last) and a JSON
``metadata`` entry: the format, the observation layout version and size, the action
names, the rules the policy was trained for, the activation and how it was trained. A
forward pass is a few matrix products; torch and stable-baselines3 are not needed.

>>> policy = load_policy(pretrained_path("classic"))
>>> policy.observation_size, policy.action_size
(277, 10)
"""

from __future__ import annotations

import json
import re
import zipfile
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.base import Agent, BatchPolicy, Info, Mask, Observation
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.environment.observation import OBSERVATION_VERSION, ObservationLayout
from teenpatti_env.rules import Rules

POLICY_FORMAT = "teenpatti-policy/1"
ACTIVATIONS = ("tanh", "relu")
PRETRAINED_DIR = Path(__file__).parent / "pretrained"


class PolicyFileError(ValueError):
    """A policy file that is missing, damaged or made for another observation layout."""


class NumpyPolicy:
    """A multilayer perceptron from observation to action logits, masked at the end."""

    def __init__(
        self,
        weights: Sequence[NDArray[np.float32]],
        biases: Sequence[NDArray[np.float32]],
        metadata: Mapping[str, Any],
    ) -> None:
        if not weights or len(weights) != len(biases):
            raise PolicyFileError("a policy needs as many biases as weight matrices, at least one")
        for k, (w, b) in enumerate(zip(weights, biases, strict=True)):
            if w.ndim != 2 or b.shape != (w.shape[1],):
                raise PolicyFileError(f"layer {k}: weight {w.shape} does not fit bias {b.shape}")
            if k and w.shape[0] != weights[k - 1].shape[1]:
                raise PolicyFileError(f"layer {k} takes {w.shape[0]} inputs, "
                                      f"layer {k - 1} gives {weights[k - 1].shape[1]}")
        activation = metadata.get("activation")
        if activation not in ACTIVATIONS:
            raise PolicyFileError(f"activation must be one of {ACTIVATIONS}, got {activation!r}")
        self.weights = [np.ascontiguousarray(w, dtype=np.float32) for w in weights]
        self.biases = [np.ascontiguousarray(b, dtype=np.float32) for b in biases]
        # The arithmetic runs in float64: a row's logits then do not depend on how many
        # rows are evaluated together (BLAS sums a batch in another order than one row,
        # which in float32 can flip a near tie), so the batched arena and the per-table
        # path choose the same actions.
        self._weights64 = [w.astype(np.float64) for w in self.weights]
        self._biases64 = [b.astype(np.float64) for b in self.biases]
        self.metadata = dict(metadata)
        self.activation = str(activation)
        self.observation_size = int(self.weights[0].shape[0])
        self.action_size = int(self.weights[-1].shape[1])
        names = self.metadata.get("action_names")
        if not isinstance(names, list) or len(names) != self.action_size:
            raise PolicyFileError(f"metadata needs {self.action_size} action_names")
        self.action_names: list[str] = [str(n) for n in names]

    @property
    def rules(self) -> Rules:
        """The rules the policy was trained for."""
        return Rules.from_dict(self.metadata["rules"])

    def logits(self, observations: NDArray[Any]) -> NDArray[np.float64]:
        """Unmasked action logits of one observation (1-D) or a batch (2-D)."""
        x = np.asarray(observations, dtype=np.float64)
        if x.shape[-1] != self.observation_size:
            raise ValueError(
                f"the policy takes observations of size {self.observation_size}, got "
                f"{x.shape[-1]} (it was trained for {self.describe_table()})"
            )
        last = len(self.weights) - 1
        for k, (w, b) in enumerate(zip(self._weights64, self._biases64, strict=True)):
            x = x @ w + b
            if k < last:
                x = np.tanh(x) if self.activation == "tanh" else np.maximum(x, 0.0)
        return x

    def masked_logits(self, observations: NDArray[Any], masks: NDArray[Any]) -> NDArray[Any]:
        """Logits with illegal actions at minus infinity."""
        masks = np.asarray(masks)
        if masks.shape[-1] != self.action_size:
            raise ValueError(
                f"the policy has {self.action_size} actions, the mask {masks.shape[-1]} (it "
                f"was trained for {self.describe_table()})"
            )
        if not masks.any(axis=-1).all():
            raise ValueError("an action mask has no legal action")
        return np.where(masks.astype(bool), self.logits(observations), -np.inf)

    def act(
        self,
        observation: NDArray[Any],
        mask: NDArray[Any],
        rng: np.random.Generator | None = None,
    ) -> int:
        """The most likely legal action, or one sampled from the policy with ``rng``."""
        logits = self.masked_logits(observation, mask)
        if rng is None:
            return int(np.argmax(logits))
        shifted = np.exp(logits - logits.max())
        return int(rng.choice(self.action_size, p=shifted / shifted.sum()))

    def act_batch(self, observations: NDArray[Any], masks: NDArray[Any]) -> NDArray[np.int64]:
        """The most likely legal action of every row (``[M, D]``, ``[M, A]``): the same
        action :meth:`act` gives for each row alone."""
        return np.asarray(self.masked_logits(observations, masks).argmax(axis=-1),
                          dtype=np.int64)

    def describe_table(self) -> str:
        rules = self.metadata.get("rules", {})
        return f"{rules.get('num_players', '?')} seats, preset {self.metadata.get('preset')!r}"

    def save(self, path: str | Path) -> Path:
        """Write the policy as an ``.npz`` file (the suffix is added if missing)."""
        path = Path(path)
        if path.suffix != ".npz":
            path = path.with_name(path.name + ".npz")
        arrays: dict[str, NDArray[Any]] = {}
        for k, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"layer_{k}_weight"] = w
            arrays[f"layer_{k}_bias"] = b
        arrays["metadata"] = np.array(json.dumps(self.metadata, sort_keys=True))
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]
        return path


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
    if not isinstance(metadata, dict) or metadata.get("format") != POLICY_FORMAT:
        raise PolicyFileError(f"{str(path)!r} is not in the {POLICY_FORMAT} format")
    version = metadata.get("observation_version")
    if version != OBSERVATION_VERSION:
        raise PolicyFileError(
            f"{str(path)!r} was trained on observation layout version {version!r}; this "
            f"package builds version {OBSERVATION_VERSION}"
        )
    layers = len(arrays) // 2
    try:
        weights = [arrays.pop(f"layer_{k}_weight") for k in range(layers)]
        biases = [arrays.pop(f"layer_{k}_bias") for k in range(layers)]
        Rules.from_dict(metadata["rules"])
    except (KeyError, TypeError, ValueError) as error:
        raise PolicyFileError(f"{str(path)!r} is damaged: {error}") from None
    if arrays:
        raise PolicyFileError(f"{str(path)!r} holds unknown arrays {sorted(arrays)}")
    try:
        return NumpyPolicy(weights, biases, metadata)
    except PolicyFileError as error:
        raise PolicyFileError(f"{str(path)!r}: {error}") from None


@lru_cache(maxsize=32)
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
        known = sorted(p.stem for p in PRETRAINED_DIR.glob("*.npz"))
        raise ValueError(f"no pretrained policy {name!r}; shipped: {', '.join(known) or 'none'}")
    return path


class PolicyAgent(Agent):
    """A trained policy as an arena agent: the most likely legal action, or a sample
    from the policy (``sample=True``) with the agent's own generator."""

    def __init__(
        self, policy: NumpyPolicy, seed: int | None = None, name: str = "ppo", sample: bool = False
    ) -> None:
        super().__init__(seed)
        self.policy = policy
        self.name = name
        self.sample = sample

    def act(self, observation: Observation, mask: Mask, info: Info) -> int:
        return self.policy.act(observation, mask, self.rng if self.sample else None)

    def batch_policy(self) -> BatchPolicy | None:
        """The greedy policy acts row by row as :meth:`act` does; a sampling one has none
        (its draws follow one seat's generator)."""
        return None if self.sample else self.policy.act_batch

    def check_rules(self, rules: Rules) -> None:
        sizes = ObservationLayout(rules).size, ActionLayout(rules).size
        if sizes != (self.policy.observation_size, self.policy.action_size):
            raise ValueError(
                f"{self.name} was trained for {self.policy.describe_table()}; it cannot play "
                f"{rules.num_players} seats of {rules.variant!r} (observations of size "
                f"{sizes[0]}, {sizes[1]} actions)"
            )
