"""Turn a trained MaskablePPO model into a numpy policy (:class:`agents.policy.NumpyPolicy`).

Only the action side of the network is exported: the observation scaling, the policy
layers of the MLP extractor and the action head. The value network is not needed to act.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from gymnasium import spaces
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from agents.policy import NumpyPolicy, policy_metadata
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.environment.observation import ObservationLayout
from teenpatti_env.rules import Rules

CHIP_SLOTS = frozenset({
    "pot", "stake", "min_bet", "max_bet", "hands_played", "hands_remaining",
    "blind_bets", "stack", "chips_in",
})  # fmt: skip
"""Observation slots that count chips (in boots) or hands: scaled down before the MLP."""
CHIP_SCALE = 0.1


def observation_scale(rules: Rules) -> np.ndarray:
    """The fixed per-slot input scale: :data:`CHIP_SCALE` for counts, 1 for flags."""
    layout = ObservationLayout(rules)
    scale = np.ones(layout.size, dtype=np.float32)
    for name, offset, width, _ in layout.slots:
        if name.split(".")[-1] in CHIP_SLOTS:
            scale[offset:offset + width] = CHIP_SCALE
    return scale


class ScaledObservation(BaseFeaturesExtractor):
    """Multiplies the observation by a fixed scale (folded into the first layer on export)."""

    def __init__(self, observation_space: spaces.Box, scale: list[float]) -> None:
        super().__init__(observation_space, features_dim=int(np.prod(observation_space.shape)))
        self.scale: torch.Tensor
        self.register_buffer("scale", torch.as_tensor(np.asarray(scale, dtype=np.float32)))

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return torch.flatten(observations, start_dim=1) * self.scale


ACTIVATION_NAMES: dict[type[nn.Module], str] = {nn.Tanh: "tanh", nn.ReLU: "relu"}


def export_policy(model: Any, rules: Rules, **extra: Any) -> NumpyPolicy:
    """The numpy form of ``model``'s action network; ``extra`` goes into the metadata."""
    policy = model.policy
    linears = [m for m in policy.mlp_extractor.policy_net if isinstance(m, nn.Linear)]
    linears.append(policy.action_net)
    weights = [m.weight.detach().cpu().numpy().T.astype(np.float32) for m in linears]
    biases = [m.bias.detach().cpu().numpy().astype(np.float32) for m in linears]
    extractor = policy.pi_features_extractor
    scale = getattr(extractor, "scale", None)
    if scale is not None:
        weights[0] = weights[0] * scale.detach().cpu().numpy()[:, None]
    activation = ACTIVATION_NAMES.get(policy.activation_fn)
    if activation is None:
        raise ValueError(f"cannot export activation {policy.activation_fn.__name__}")
    names = ActionLayout(rules).names
    return NumpyPolicy(weights, biases, policy_metadata(rules, names, activation, **extra))
