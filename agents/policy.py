"""Trained policies that run on numpy alone: the exported form of a training run.

An exported policy is one ``.npz`` file. It holds the layers of the policy network
(``layer_0_weight``, ``layer_0_bias``, ... with the action head last) and a JSON
``metadata`` entry: the format, the observation layout version and size, the action
names, the rules the policy was trained for, the activation and how it was trained. A
forward pass is a few matrix products; torch and stable-baselines3 are not needed.

Two formats load. ``teenpatti-policy/1`` takes the observation of the one table it was
trained for (its seat count and variant). ``teenpatti-policy/2`` takes the seat-padded
input of :mod:`agents.seat_padding` (metadata ``input``: ``seat-padded/1``, any
classic-family table of 3 to 7 seats under any preset's settings, ``seat-padded/2``,
those and every variant whose actions are classic's, or ``seat-padded/3``, those and the
selection phases and buying a joker), the table's rules among its inputs;
:meth:`NumpyPolicy.inputs` turns a table's observations into it and
:meth:`NumpyPolicy.unfit_reason` says which tables it cannot sit at. Its metadata
``actions`` may name a padded action space (``padded/1``, :mod:`agents.padded_actions`);
without it the actions are those ``action_names`` lists (classic's ten). Either way a
table's actions map to the policy's by name (:meth:`NumpyPolicy.act_at_table`).

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
from agents.padded_actions import ACTION_SPACES, ActionMap, action_map
from agents.seat_padding import (
    INPUT_VERSIONS,
    PADDED_LAYOUT,
    pad_observations,
    padded_layout,
    seats_of_size,
)
from agents.seat_padding import unfit_reason as padded_unfit_reason
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.environment.observation import OBSERVATION_VERSION, ObservationLayout
from teenpatti_env.rules import Rules

POLICY_FORMAT = "teenpatti-policy/1"
"""The format of a policy for one table (its observation as the input)."""
GENERAL_POLICY_FORMAT = "teenpatti-policy/2"
"""The format of a policy for tables of every seat count (the seat-padded input)."""
POLICY_FORMATS = (POLICY_FORMAT, GENERAL_POLICY_FORMAT)
ACTIVATIONS = ("tanh", "relu")
PRETRAINED_DIR = Path(__file__).parent / "pretrained"


def _input_of_size(size: int) -> str:
    """The padded input of ``size`` numbers (a ``/2`` file that does not name its input),
    else the newest."""
    return next((name for name, version in INPUT_VERSIONS.items() if version.size == size),
                PADDED_LAYOUT)


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
        self.padded = self.metadata.get("format") == GENERAL_POLICY_FORMAT
        """A ``teenpatti-policy/2`` policy: it takes the seat-padded input."""
        self._fits: dict[Rules, str | None] = {}
        self._maps: dict[Rules, ActionMap] = {}
        """Per table's rules: whether it fits, where the table's actions sit."""
        self.input_layout = str(self.metadata.get("input", _input_of_size(self.observation_size)))
        """The padded input a ``/2`` policy takes (:data:`agents.seat_padding.INPUT_VERSIONS`)."""
        self.action_space: str | None = self.metadata.get("actions")
        """The named action space of its output (:data:`agents.padded_actions.ACTION_SPACES`,
        ``padded/1``), or ``None``: the actions ``action_names`` lists."""
        if self.action_space is not None and (
                ACTION_SPACES.get(str(self.action_space)) != tuple(self.action_names)):
            raise PolicyFileError(
                f"its actions {self.action_space!r} are not a known action space with its "
                f"{self.action_size} action_names (known: {', '.join(ACTION_SPACES)})")
        if self.padded:
            version = INPUT_VERSIONS.get(self.input_layout)
            if version is None or self.observation_size != version.size:
                known = ", ".join(f"{name} ({v.size})" for name, v in INPUT_VERSIONS.items())
                raise PolicyFileError(
                    f"a {GENERAL_POLICY_FORMAT} policy takes a padded input ({known}), this "
                    f"one {self.metadata.get('input')!r} of size {self.observation_size}")

    @property
    def rules(self) -> Rules:
        """The rules the policy was trained for (a general policy: the first table kind of
        its mixture)."""
        return Rules.from_dict(self.metadata["rules"])

    def unfit_reason(self, rules: Rules) -> str | None:
        """Why the policy cannot sit at a table under ``rules`` (words that follow the
        agent's name), or ``None`` when it can: a
        ``/1`` policy sits only at tables of its own observation and action sizes, a
        ``/2`` policy at every table its padded input takes, with its actions."""
        if rules in self._fits:
            return self._fits[rules]
        reason = self._unfit_reason(rules)
        self._fits[rules] = reason
        return reason

    def _unfit_reason(self, rules: Rules) -> str | None:
        if self.padded:
            reason = padded_unfit_reason(rules, self.action_names, self.input_layout)
            return None if reason is None else f"is {self.describe_table()}: {reason}"
        sizes = ObservationLayout(rules).size, ActionLayout(rules).size
        if sizes == (self.observation_size, self.action_size):
            return None
        return (f"was trained for {self.describe_table()}; it cannot play {rules.num_players} "
                f"seats of {rules.variant!r} (observations of size {sizes[0]}, {sizes[1]} "
                "actions)")

    def fits(self, rules: Rules) -> bool:
        """Whether the policy can sit at a table under ``rules``."""
        return self.unfit_reason(rules) is None

    def action_map(self, rules: Rules) -> ActionMap:
        """Where each of a table's actions sits among the policy's (by name)."""
        places = self._maps.get(rules)
        if places is None:
            places = self._maps[rules] = action_map(rules, self.action_names)
        return places

    def act_at_table(self, observations: NDArray[Any], masks: NDArray[Any], rules: Rules,
                     rng: np.random.Generator | None = None) -> Any:
        """The table's action index for one observation (1-D: :meth:`act`, with ``rng``
        a sample) or each row of a batch (2-D: :meth:`act_batch`) of a table under
        ``rules``: its input (:meth:`inputs`), the table's masks widened to the policy's
        actions by name, and each choice mapped back to the table's index of its name."""
        places = self.action_map(rules)
        inputs, wide = self.inputs(observations, rules), places.widen(masks)
        if np.ndim(observations) == 1:
            return places.narrow(self.act(inputs, wide, rng))
        return places.narrow(self.act_batch(inputs, wide))

    def inputs(self, observations: NDArray[Any], rules: Rules) -> NDArray[Any]:
        """What the network takes for a table's observations (1-D or ``[M, D]``) under
        ``rules``: the observations themselves (``/1``) or their seat-padded form
        (``/2``)."""
        return (pad_observations(observations, rules, self.input_layout) if self.padded
                else observations)

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
        """The tables the policy was trained for, in words."""
        if self.padded:
            if INPUT_VERSIONS[self.input_layout].phase_rules_at is not None \
                    and self.action_space is not None:
                return "a general policy (3 to 7 seats, every preset, the named variants)"
            if INPUT_VERSIONS[self.input_layout].variants:
                return ("a general policy (3 to 7 seats, every preset, the variants with "
                        "classic's actions)")
            return "a general policy (classic family, 3 to 7 seats, every preset)"
        rules = self.metadata.get("rules", {})
        variant, preset = rules.get("variant", "classic"), self.metadata.get("preset")
        return (f"{rules.get('num_players', '?')} seats"
                + ("" if preset is None else f", preset {preset!r}")
                + ("" if variant == "classic" else f", variant {variant!r}"))

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
    if not isinstance(metadata, dict) or metadata.get("format") not in POLICY_FORMATS:
        raise PolicyFileError(f"{str(path)!r} is not in the {' or '.join(POLICY_FORMATS)} "
                              "format")
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
        known = sorted(p.stem for p in (*PRETRAINED_DIR.glob("*.npz"),
                                        *PRETRAINED_DIR.glob("*.json")))
        raise ValueError(f"no pretrained policy {name!r}; shipped: {', '.join(known) or 'none'}")
    return path


class PolicyAgent(Agent):
    """A trained policy as an arena agent: the most likely legal action, or a sample
    from the policy (``sample=True``) with the agent's own generator.

    A general (``/2``) policy needs the table's rules for its input: :meth:`check_rules`
    tells it (every frontend and the arena call it); told nothing, it takes the
    ``classic`` preset's settings at the observation's seat count."""

    def __init__(
        self, policy: NumpyPolicy, seed: int | None = None, name: str = "ppo", sample: bool = False
    ) -> None:
        super().__init__(seed)
        self.policy = policy
        self.name = name
        self.sample = sample
        self._tables: dict[int, Rules] = {}
        """The rules of the tables it was told of, by observation size."""

    def _rules(self, size: int) -> Rules:
        """The rules of the table whose observations have ``size`` entries (told by
        :meth:`check_rules`, else classic's at the seat count of that size)."""
        rules = self._tables.get(size)
        if rules is None:
            seats = seats_of_size(size)
            if seats is None:
                raise ValueError(f"{self.name} takes classic-family observations of 3 to 7 "
                                 f"seats, got one of size {size}")
            rules = self._tables[size] = Rules.preset("classic", num_players=seats)
        return rules

    def act(self, observation: Observation, mask: Mask, info: Info) -> int:
        rng = self.rng if self.sample else None
        if not self.policy.padded:
            return self.policy.act(observation, mask, rng)
        return int(self.policy.act_at_table(observation, mask,
                                            self._rules(np.shape(observation)[-1]), rng))

    def batch_policy(self) -> BatchPolicy | None:
        """The greedy policy acts row by row as :meth:`act` does; a sampling one has none
        (its draws follow one seat's generator)."""
        if self.sample:
            return None
        if not self.policy.padded:
            return self.policy.act_batch

        def policy(observations: NDArray[np.float32], masks: NDArray[Any]) -> NDArray[np.int64]:
            rules = self._rules(np.shape(observations)[-1])
            return np.asarray(self.policy.act_at_table(observations, masks, rules),
                              dtype=np.int64)

        return policy

    def check_rules(self, rules: Rules) -> None:
        reason = self.policy.unfit_reason(rules)
        if reason is not None:
            raise ValueError(f"{self.name} {reason}")
        if self.policy.padded:
            self._tables[padded_layout(rules, self.policy.input_layout).source_size] = rules
