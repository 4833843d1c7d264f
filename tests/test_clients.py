"""The RL libraries people use, run unmodified on ``teenpatti_env.env()`` and
``gymnasium.make("TeenPatti-v0")``: Tianshou's ``PettingZooEnv`` and ``Collector``,
TorchRL's ``PettingZooWrapper``, Gymnasium's vector environments, and PettingZoo's SB3
action-mask tutorial with MaskablePPO.

Each test checks that every sampled action was legal and that every finished hand's
rewards sum to zero. The libraries come from the ``clients`` extra; a test whose library
is missing is skipped, unless ``TEENPATTI_REQUIRE_CLIENTS=1`` (CI), where it fails.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from builders.env import client

import teenpatti_env

STEPS = 3000


def hands_sum_to_zero(rewards: np.ndarray, done: np.ndarray) -> int:
    """Check that each finished hand's rewards (rows: steps, columns: seats) sum to zero;
    return how many hands finished."""
    total = 0.0
    hands = 0
    for row, finished in zip(rewards, done, strict=True):
        total += float(np.sum(row))
        if finished:
            assert total == pytest.approx(0.0, abs=1e-6), f"hand {hands} sums to {total}"
            total, hands = 0.0, hands + 1
    return hands


# --------------------------------------------------------------------- Tianshou


def test_tianshou_collector_with_masked_random_policies() -> None:
    client("tianshou")
    from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
    from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
    from tianshou.data import Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv, PettingZooEnv

    def make() -> Any:
        return PettingZooEnv(teenpatti_env.env())

    probe = make()
    algorithm = MultiAgentOffPolicyAlgorithm(
        algorithms=[MARLRandomDiscreteMaskedOffPolicyAlgorithm(probe.action_space)
                    for _ in probe.agents],
        env=probe,
    )
    envs = DummyVectorEnv([make, make])
    envs.seed([1, 2])
    buffer = VectorReplayBuffer(2 * STEPS, len(envs))
    collector = Collector(algorithm, envs, buffer)
    collector.reset()
    stats = collector.collect(n_step=STEPS)
    assert stats.n_collected_steps >= STEPS
    hands = 0
    for part in buffer.buffers:
        batch = part[np.arange(len(part))]
        masks = np.asarray(batch.obs.mask, dtype=bool)
        actions = np.asarray(batch.act, dtype=np.int64)
        assert masks[np.arange(len(actions)), actions].all(), "an illegal action was sampled"
        done = np.logical_or(batch.terminated, batch.truncated)
        hands += hands_sum_to_zero(np.asarray(batch.rew), done)
    assert hands >= 100


# --------------------------------------------------------------------- TorchRL


def test_torchrl_pettingzoo_wrapper_checks_specs_and_rolls_out() -> None:
    client("torchrl")
    from torchrl.envs import PettingZooWrapper
    from torchrl.envs.utils import check_env_specs

    env = PettingZooWrapper(env=teenpatti_env.env(), use_mask=True, seed=3)
    check_env_specs(env)
    rollout = env.rollout(STEPS, break_when_any_done=False)
    groups = list(env.group_map)
    acting = np.stack([rollout[group, "mask"].numpy().reshape(-1) for group in groups], 1)
    assert (acting.sum(axis=1) == 1).all(), "exactly one seat acts at every step"
    for k, group in enumerate(groups):
        mine = acting[:, k]
        actions = rollout[group, "action"].numpy().reshape(-1)[mine]
        masks = rollout[group, "action_mask"].numpy().reshape(len(rollout), -1)[mine]
        assert masks[np.arange(len(actions)), actions].all(), f"{group}: an illegal action"
    rewards = np.stack(
        [rollout["next", group, "reward"].numpy().reshape(-1) for group in groups], 1
    )
    done = rollout["next", "done"].numpy().reshape(-1)
    assert hands_sum_to_zero(rewards, done) >= 100


# --------------------------------------------------------------------- Gymnasium vector


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_gymnasium_vector_envs_with_maskable_style_masks(kind: str) -> None:
    """The vector env stacks every info key (fixed keys, fixed types); the learner's
    masks come from ``info["action_mask"]``; a hand's rewards, the learner's and the
    opponents' together, sum to zero."""
    count = 2
    # "module:id" imports the module first: a spawned worker process has not imported it.
    fns = [lambda: gymnasium.make("teenpatti_env:TeenPatti-v0", learner_seat=0)
           for _ in range(count)]
    vector: Any = (gymnasium.vector.SyncVectorEnv(fns) if kind == "sync"
                   else gymnasium.vector.AsyncVectorEnv(fns))
    rng = np.random.default_rng(5)
    try:
        _, infos = vector.reset(seed=11)
        finished = 0
        terminated = np.zeros(count, dtype=bool)
        for _ in range(STEPS // (5 * count)):
            masks = np.asarray(infos["action_mask"], dtype=bool)
            assert masks.shape == (count, vector.single_action_space.n)
            # Gymnasium resets a finished env on its next step (the action is ignored).
            assert (masks.any(axis=1) == ~terminated).all()
            actions = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0
                                for row in masks])
            _, _, terminated, truncated, infos = vector.step(actions)
            assert not truncated.any()
            assert (infos["illegal_action"] == "").all(), infos["illegal_action"]
            finished += int(terminated.sum())
        assert finished >= 20
    finally:
        vector.close()


def test_single_agent_hands_sum_to_zero_with_every_seat_counted() -> None:
    """What the vector test cannot see from one seat: with the learner's reward and the
    table's result for the others, every hand of ``TeenPatti-v0`` sums to zero."""
    env = gymnasium.make("TeenPatti-v0")
    inner = env.unwrapped
    rng = np.random.default_rng(7)
    for seed in range(60):
        _, info = env.reset(seed=seed)
        done, reward = False, 0.0
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, reward, done, _, info = env.step(action)
        net = inner.game.hand.net
        assert sum(net) == 0
        assert reward == pytest.approx(net[inner.learner] / inner.game.rules.boot)


# --------------------------------------------------------------------- SB3 tutorial


def test_pettingzoo_sb3_action_mask_tutorial_with_maskable_ppo() -> None:
    """PettingZoo's "SB3: Action Masked PPO" tutorial pattern (connect four there),
    with its wrapper as the tutorial writes it, trained for a few hundred steps."""
    client("sb3_contrib")
    import pettingzoo.utils
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from sb3_contrib.common.wrappers import ActionMasker

    class SB3ActionMaskWrapper(pettingzoo.utils.BaseWrapper, gymnasium.Env):  # type: ignore[misc]
        """The tutorial's wrapper: one agent's view of the AEC game for SB3."""

        def reset(self, seed: Any = None, options: Any = None) -> Any:
            super().reset(seed, options)
            self.observation_space = super().observation_space(self.possible_agents[0])[
                "observation"
            ]
            self.action_space = super().action_space(self.possible_agents[0])
            return self.observe(self.agent_selection), {}

        def step(self, action: Any) -> Any:
            current_agent = self.agent_selection
            super().step(action)
            next_agent = self.agent_selection
            return (
                self.observe(next_agent),
                self._cumulative_rewards[current_agent],
                self.terminations[current_agent],
                self.truncations[current_agent],
                self.infos[current_agent],
            )

        def observe(self, agent: Any) -> Any:
            return super().observe(agent)["observation"]

        def action_mask(self) -> Any:
            return super().observe(self.agent_selection)["action_mask"]

    def mask_fn(env: Any) -> Any:
        return env.action_mask()

    game = teenpatti_env.env()
    raw = game.unwrapped
    sampled: list[tuple[np.ndarray, int]] = []
    hand_rewards: list[float] = []
    play = raw.step

    def recording_step(action: Any) -> None:  # the raw env's step, watched
        agent = raw.agent_selection
        running = raw.hand is not None and not raw.hand.over
        if action is not None and not (raw.terminations[agent] or raw.truncations[agent]):
            sampled.append((raw.action_mask(agent), int(action)))
        play(action)
        if running and raw.hand.over:  # the step that ended the hand pays every seat
            assert set(raw.rewards) == set(raw.agents)
            hand_rewards.append(sum(raw.rewards.values()))
        elif running:
            assert not any(raw.rewards.values()), "a reward before the hand ended"

    raw.step = recording_step
    env = SB3ActionMaskWrapper(game)
    env.reset(seed=0)
    env = ActionMasker(env, mask_fn)
    model = MaskablePPO(MaskableActorCriticPolicy, env, n_steps=256, batch_size=64,
                        n_epochs=1, seed=0, verbose=0)
    model.learn(total_timesteps=512)
    assert len(sampled) >= 512
    assert all(mask[action] == 1 for mask, action in sampled), "an illegal action"
    assert len(hand_rewards) >= 20
    assert hand_rewards == pytest.approx([0.0] * len(hand_rewards), abs=1e-6)
