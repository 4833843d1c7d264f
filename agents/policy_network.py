"""The network of an exported policy: :class:`NumpyPolicy`, a forward pass on numpy alone.

A multilayer perceptron from observation to action logits, masked at the end: its
layers, checked against each other and against its metadata; which tables it can sit at
(a ``/1`` policy at its own table's sizes, a ``/2`` one at every table its padded input
takes); how a table's observations and actions map to its inputs and outputs; and the
forward pass, in float64 so that a row's choice does not depend on its batch. Reading
and finding policy files is :mod:`agents.policy_files`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.padded_actions import ACTION_SPACES, ActionMap, action_map
from agents.seat_padding import INPUT_VERSIONS, PADDED_LAYOUT, pad_observations
from agents.seat_padding import unfit_reason as padded_unfit_reason
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.environment.observation import ObservationLayout
from teenpatti_env.rules import Rules

POLICY_FORMAT = "teenpatti-policy/1"
"""The format of a policy for one table (its observation as the input)."""
GENERAL_POLICY_FORMAT = "teenpatti-policy/2"
"""The format of a policy for tables of every seat count (the seat-padded input)."""
POLICY_FORMATS = (POLICY_FORMAT, GENERAL_POLICY_FORMAT)
ACTIVATIONS = ("tanh", "relu")


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
