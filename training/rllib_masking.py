"""An action-masked PPO module for RLlib, kept in the package (:mod:`training.rllib`).

RLlib ships a masking module only in its examples package, which is not a stable API;
this one is ours. The environment's observation is ``{"observations": vector,
"action_mask": 0/1 vector}``: the network (RLlib's default PPO encoder, policy and value
heads) sees the vector alone, and every illegal action's logit gets the log of 0, clamped
to the most negative float, so it is never sampled and adds nothing to the entropy.

Needs the ``ray`` extra.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import (
    DefaultPPOTorchRLModule,
)
from ray.rllib.core.columns import Columns

VECTOR, MASK = "observations", "action_mask"
"""The keys of the environment's observation dict."""


class MaskedPPOModule(DefaultPPOTorchRLModule):  # type: ignore[misc]
    """RLlib's default PPO module over the ``observations`` vector, its action logits
    masked by ``action_mask`` (see the module docstring)."""

    def __init__(self, *, observation_space: gym.Space[Any] | None = None,
                 **kwargs: Any) -> None:
        if not isinstance(observation_space, gym.spaces.Dict) or set(
                observation_space.spaces) != {VECTOR, MASK}:
            raise ValueError(f"the masked module needs a Dict observation space with "
                             f"{VECTOR!r} and {MASK!r}, got {observation_space}")
        self.masked_space = observation_space
        # The network is built for the vector; the module shows the dict space after.
        super().__init__(observation_space=observation_space[VECTOR], **kwargs)

    def setup(self) -> None:
        """Build the default networks for the vector, then show the dict space."""
        super().setup()
        self.observation_space = self.masked_space

    def _forward_inference(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask = _take_mask(batch)
        return _masked(super()._forward_inference(batch, **kwargs), mask)

    def _forward_exploration(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask = _take_mask(batch)
        return _masked(super()._forward_exploration(batch, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask = _take_mask(batch)
        return _masked(super()._forward_train(batch, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        """The value head over the vector (the mask is kept in the batch for the policy
        pass that follows on the same batch)."""
        _take_mask(batch)
        return super().compute_values(batch, embeddings)


def _take_mask(batch: dict[str, Any]) -> torch.Tensor:
    """The batch's action mask. A batch whose observations are still the dict is split in
    place: the vector becomes the observations, the mask a column of its own (RLlib's
    learner computes the values and then the policy on the same batch)."""
    observations = batch[Columns.OBS]
    if isinstance(observations, dict):
        batch[MASK] = observations[MASK]
        batch[Columns.OBS] = observations[VECTOR]
    mask: torch.Tensor = batch[MASK]
    return mask


def _masked(outputs: dict[str, Any], mask: torch.Tensor) -> dict[str, Any]:
    """``outputs`` with each illegal action's logit at the most negative float."""
    floor = torch.finfo(outputs[Columns.ACTION_DIST_INPUTS].dtype).min
    outputs[Columns.ACTION_DIST_INPUTS] = (outputs[Columns.ACTION_DIST_INPUTS]
                                           + torch.clamp(torch.log(mask), min=floor))
    return outputs
