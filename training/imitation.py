"""A warm start for PPO: the policy first imitates a scripted agent.

Classic Teen Patti has no bet limit, so a hand can cost a whole stack. A policy that
starts uniform bets at random, loses heavily whenever it stays in, and PPO then settles
on packing every hand before it learns when staying pays (measured: by 30,000 steps the
learner packs over 90% of its hands and never recovers). Starting from a copy of a
strong scripted agent avoids that trap: PPO then improves on the agent instead of
rediscovering the game.

The teacher plays the learner's seat of a :class:`training.pool.PoolEnv` against the same
pool the learner will meet. The policy network is fitted to the teacher's choices
(masked cross-entropy) and the value network to the returns that followed, in the units
the reward normalisation will use.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from numpy.typing import NDArray

from agents import make_agent
from training.pool import PoolEnv


@dataclass
class Demonstrations:
    """The teacher's decisions: observations, masks, actions and the return of each."""

    observations: NDArray[np.float32]
    masks: NDArray[np.bool_]
    actions: NDArray[np.int64]
    returns: NDArray[np.float32]
    """Reward to go after each decision (undiscounted)."""
    cumulative: NDArray[np.float32]
    """Reward so far after each decision: what the reward normalisation tracks."""


def collect(
    env: PoolEnv, teacher: str, decisions: int, seed: int
) -> Demonstrations:
    """Play ``teacher`` in the learner's seat of ``env`` for at least ``decisions`` steps."""
    agent = make_agent(teacher, seed)
    observations: list[NDArray[np.float32]] = []
    masks: list[NDArray[np.bool_]] = []
    actions: list[int] = []
    returns: list[float] = []
    cumulative: list[float] = []
    observation, _ = env.reset(seed=seed)
    while len(actions) < decisions:
        agent.reset()
        start, rewards = len(actions), []
        done = False
        while not done:
            mask = env.action_masks()
            action = agent.act(observation, mask, env.view())
            observations.append(observation)
            masks.append(mask)
            actions.append(action)
            observation, reward, terminated, truncated, _ = env.step(action)
            rewards.append(reward)
            done = terminated or truncated
        # Reward to go (undiscounted) for each decision of the hand.
        returns.extend(np.cumsum(rewards[::-1])[::-1].tolist())
        cumulative.extend(np.cumsum(rewards).tolist())
        assert len(returns) == len(actions) and start < len(actions)
        observation, _ = env.reset()
    return Demonstrations(
        np.asarray(observations, dtype=np.float32),
        np.asarray(masks, dtype=bool),
        np.asarray(actions, dtype=np.int64),
        np.asarray(returns, dtype=np.float32),
        np.asarray(cumulative, dtype=np.float32),
    )


def imitate(
    model: Any,
    demonstrations: Demonstrations,
    epochs: int,
    batch_size: int,
    return_scale: float,
    rng: np.random.Generator,
) -> dict[str, float]:
    """Fit ``model``'s policy to the demonstrations; returns the last epoch's losses and
    how often the policy's most likely action is the teacher's."""
    policy = model.policy
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
    data = demonstrations
    count = len(data.actions)
    observations = torch.as_tensor(data.observations)
    masks = torch.as_tensor(data.masks)
    actions = torch.as_tensor(data.actions)
    targets = torch.as_tensor(data.returns / return_scale)
    losses = {"imitation/policy_loss": 0.0, "imitation/value_loss": 0.0}
    for _ in range(epochs):
        order = torch.as_tensor(rng.permutation(count))
        totals = [0.0, 0.0]
        for first in range(0, count, batch_size):
            batch = order[first:first + batch_size]
            values, log_prob, _ = policy.evaluate_actions(
                observations[batch], actions[batch], action_masks=masks[batch]
            )
            policy_loss = -log_prob.mean()
            value_loss = torch.nn.functional.mse_loss(values.flatten(), targets[batch])
            optimizer.zero_grad()
            (policy_loss + 0.5 * value_loss).backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            totals[0] += policy_loss.item() * len(batch)
            totals[1] += value_loss.item() * len(batch)
        losses = {"imitation/policy_loss": totals[0] / count,
                  "imitation/value_loss": totals[1] / count}
    with torch.no_grad():
        distribution = policy.get_distribution(observations, action_masks=data.masks)
        chosen = distribution.distribution.probs.argmax(dim=1)
    losses["imitation/agreement"] = float((chosen == actions).float().mean())
    return losses
