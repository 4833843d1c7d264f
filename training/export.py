"""Turn a trained MaskablePPO model into a numpy policy (:class:`agents.policy.NumpyPolicy`).

Only the action side of the network is exported: the observation scaling, the policy
layers of the MLP extractor and the action head. The value network is not needed to act.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from gymnasium import spaces
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from agents.policy import NumpyPolicy, policy_metadata
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.rules import Rules
from training.scaling import CHIP_SCALE, CHIP_SLOTS, observation_scale

__all__ = [
    "CHIP_SCALE", "CHIP_SLOTS", "ScaledObservation", "export_policy", "observation_scale",
    "policy_from_linears",
]

class ScaledObservation(BaseFeaturesExtractor):
    """Multiplies the observation by a fixed scale (folded into the first layer on export)."""

    def __init__(self, observation_space: spaces.Box, scale: list[float]) -> None:
        super().__init__(observation_space, features_dim=int(np.prod(observation_space.shape)))
        self.scale: torch.Tensor
        self.register_buffer("scale", torch.as_tensor(np.asarray(scale, dtype=np.float32)))

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return torch.flatten(observations, start_dim=1) * self.scale


ACTIVATION_NAMES: dict[type[nn.Module], str] = {nn.Tanh: "tanh", nn.ReLU: "relu"}


def policy_from_linears(linears: Sequence[nn.Linear], scale: torch.Tensor | None,
                        activation: type[nn.Module] | str, rules: Rules,
                        action_names: Sequence[str] | None = None,
                        **extra: Any) -> NumpyPolicy:
    """The numpy policy of an MLP given as its linear layers (the action head last), with
    the fixed input ``scale`` folded into the first layer; its actions are
    ``action_names`` (default: those of ``rules``)."""
    weights = [m.weight.detach().cpu().numpy().T.astype(np.float32) for m in linears]
    biases = [m.bias.detach().cpu().numpy().astype(np.float32) for m in linears]
    if scale is not None:
        weights[0] = weights[0] * scale.detach().cpu().numpy()[:, None]
    name = activation if isinstance(activation, str) else ACTIVATION_NAMES.get(activation)
    if name is None:
        raise ValueError(f"cannot export activation {getattr(activation, '__name__', activation)}")
    names = ActionLayout(rules).names if action_names is None else action_names
    return NumpyPolicy(weights, biases, policy_metadata(rules, names, name, **extra))


def export_policy(model: Any, rules: Rules, **extra: Any) -> NumpyPolicy:
    """The numpy form of ``model``'s action network; ``extra`` goes into the metadata."""
    policy = model.policy
    linears = [m for m in policy.mlp_extractor.policy_net if isinstance(m, nn.Linear)]
    linears.append(policy.action_net)
    scale = getattr(policy.pi_features_extractor, "scale", None)
    return policy_from_linears(linears, scale, policy.activation_fn, rules, **extra)
