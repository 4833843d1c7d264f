"""A Gymnasium vector environment over the batched engine: one learner seat per table.

``TeenPattiVectorEnv(num_envs, rules, opponents)`` runs ``num_envs`` classic tables on
:class:`~teenpatti_env.environment.batched.TableBatch`. At every table one seat is the learner (seat
``(table + hand) mod n``: it moves one seat to the left every hand, skipping a seat that
sits the hand out); every other seat is played by a batched opponent policy, a callable
``policy(observations[M, D], masks[M, A]) -> actions[M]`` called once per step for all the
tables where one of its seats is to act (for example a frozen snapshot of a network). The
default opponent draws uniformly among the legal actions with the environment's seeded
generator.

Conventions (Gymnasium's ``VectorEnv``):

* ``reset`` and ``step`` return the learner's observation at every table, ``[N, D]``;
  ``action_masks()`` gives its mask, ``[N, A]`` bool (sb3-contrib's MaskablePPO name).
* The reward is the learner's own net result of its hand in boots, given on the step that
  ends the hand (``terminated``). Hands are re-dealt in the same step
  (``metadata["autoreset_mode"]`` is ``SAME_STEP``): the observation returned is the new
  hand's first learner decision and ``infos["final_obs"]`` holds the learner's last
  observation of the hand that ended (rows valid where ``infos["_final_obs"]``).
* A hand that ends before the learner's first decision (everyone else packed, or it ended
  at the deal) gives no step: it is dealt again, ``infos["redealt"]`` counts such deals
  and ``infos["redealt_reward"]`` sums what they paid the learner (as ``TeenPatti-v0``).
* ``infos`` always holds the same keys with the same dtypes and shapes.

With ``episode="session"`` an episode is a session (as ``TeenPatti-v0`` plays one): the
learner keeps its seat, ``(table + session) mod n``, for the whole session; each hand's
net is its reward on the step whose call ends the hand (hands that end before the
learner's first decision of the session are added to its first reward); the episode
terminates when the session ends or when the learner can no longer enter a hand, and the
table starts a new session in the same step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from teenpatti_env.environment.batched import BatchStep, TableBatch
from teenpatti_env.environment.single_agent import opponent_list
from teenpatti_env.rules import Rules

BatchedPolicy = Callable[[NDArray[np.float32], NDArray[np.int8]], Any]
"""An opponent: ``policy(observations[M, D], masks[M, A]) -> actions[M]``."""
MAX_REDEALS = 1000


class TeenPattiVectorEnv(VectorEnv[NDArray[np.float32], NDArray[np.int64], NDArray[Any]]):
    """``num_envs`` tables, a learner seat at each, batched opponents in the others.

    ``opponents``: one batched policy for every other seat, or a list of ``n - 1``, one
    per seat counted to the learner's left. Other keyword arguments go to
    :class:`~teenpatti_env.environment.batched.TableBatch` (``num_players``, ``bet_levels``,
    ``stacks``, ``Rules`` overrides).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (gymnasium's)

    def __init__(
        self,
        num_envs: int,
        rules: Rules | str | dict[str, Any] | None = None,
        opponents: BatchedPolicy | Sequence[BatchedPolicy] | None = None,
        **kwargs: Any,
    ) -> None:
        self.batch = TableBatch(num_envs, rules, autoreset=False, **kwargs)
        n = self.batch.num_seats
        policies: list[BatchedPolicy | None] = opponent_list(opponents, n - 1, callable,
                                                             "callable")
        self.opponents = policies
        self._shared = len({id(policy) for policy in policies}) == 1
        self.num_envs = num_envs
        self.rules = self.batch.rules
        layout = self.batch.obs_layout
        self.single_observation_space = spaces.Box(layout.low, layout.high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.batch.action_size)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.learner = np.zeros(num_envs, dtype=np.int64)
        self._acted = np.zeros(num_envs, dtype=np.bool_)
        self._sessions = self.batch.episode == "session"
        self._episodes = np.zeros(num_envs, dtype=np.int64)
        self._pending = np.zeros(num_envs)  # the learner's chips not yet given as a reward
        self._step: BatchStep | None = None
        self._rows = np.arange(num_envs)

    # ----------------------------------------------------------------- API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """Deal at every table and play the opponents up to each learner's decision.
        ``options`` go to :meth:`TableBatch.reset` (the first hand's deals)."""
        super().reset(seed=seed)
        self._step = self.batch.reset(seed=seed, options=options)
        self._episodes[:] = 0
        self._pending[:] = 0.0
        self._choose_learners(np.ones(self.num_envs, dtype=np.bool_))
        infos = self._new_infos()
        self._advance(np.zeros(self.num_envs), np.zeros(self.num_envs, dtype=np.bool_), infos)
        return self._step.observations.copy(), infos

    def step(
        self, actions: Any
    ) -> tuple[NDArray[np.float32], NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_],
               dict[str, Any]]:
        """Apply the learners' actions, play the opponents to the learners' next decisions
        (re-dealing finished hands) and return what the learners see."""
        if self._step is None:
            raise RuntimeError("call reset() before step()")
        self._step = self.batch.step(np.asarray(actions).reshape(self.num_envs))
        self._acted[:] = True
        rewards = np.zeros(self.num_envs)
        terminated = np.zeros(self.num_envs, dtype=np.bool_)
        infos = self._new_infos()
        self._advance(rewards, terminated, infos)
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        return self._step.observations.copy(), rewards, terminated, truncated, infos

    def action_masks(self) -> NDArray[np.bool_]:
        """The learners' action masks, ``[N, A]`` bool."""
        if self._step is None:
            raise RuntimeError("call reset() before action_masks()")
        return self._step.action_masks.astype(np.bool_)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""

    # ----------------------------------------------------------------- play

    def _new_infos(self) -> dict[str, Any]:
        size = self.num_envs
        return {
            "final_obs": np.zeros((size, self.batch.observation_size), dtype=np.float32),
            "_final_obs": np.zeros(size, dtype=np.bool_),
            "learner_seat": np.zeros(size, dtype=np.int64),
            "redealt": np.zeros(size, dtype=np.int64),
            "redealt_reward": np.zeros(size, dtype=np.float64),
        }

    def _choose_learners(self, which: NDArray[np.bool_]) -> None:
        """The learner seat of each new episode: ``(table + episode) mod n`` (an episode
        is a hand, or a session), moved left past seats that sit it out."""
        n = self.batch.num_seats
        episodes = self._episodes if self._sessions else self.batch.hands_dealt
        seats = (self._rows + episodes) % n
        self._episodes[which] += 1
        dealt = self.batch.dealt_in
        for _ in range(n):
            out = ~dealt[self._rows, seats]
            if not out.any():
                break
            seats = np.where(out, (seats + 1) % n, seats)
        self.learner[which] = seats[which]
        self._acted[which] = False

    def _advance(self, rewards: NDArray[np.float64], terminated: NDArray[np.bool_],
                 infos: dict[str, Any]) -> None:
        """Until every table waits for its learner: pay finished hands, re-deal them, and
        let the opponents act."""
        step = self._step
        assert step is not None
        batch = self.batch
        for _ in range(MAX_REDEALS * 50):
            self._pending += step.rewards[self._rows, self.learner]
            done = step.finished | self._learner_out()
            if done.any():
                ended = done & self._acted
                rewards[ended] += self._pending[ended]
                terminated |= ended
                if ended.any():
                    final = batch.observe(np.where(ended, self.learner, -1))
                    infos["final_obs"][ended] = final[ended]
                    infos["_final_obs"] |= ended
                early = done & ~self._acted
                infos["redealt"][early] += 1
                infos["redealt_reward"][early] += self._pending[early]
                self._pending[done] = 0.0
                if (infos["redealt"] >= MAX_REDEALS).any():
                    raise RuntimeError(f"a learner got no decision in {MAX_REDEALS} deals (is "
                                       "it all-in or sitting out at every deal?)")
                step = batch.redeal(done)
                self._choose_learners(done)
            others = (step.to_act >= 0) & (step.to_act != self.learner)
            unreported = step.to_act < 0  # ended at the deal: its next step tells
            if not others.any() and not unreported.any():
                break
            actions = np.zeros(self.num_envs, dtype=np.int64)
            if others.any():
                self._opponent_actions(step, others, actions)
            step = batch.step(actions, tables=others | unreported)
        else:  # pragma: no cover - every hand ends within its chips
            raise RuntimeError("opponents did not reach the learners' turns")
        self._step = step
        # Within a session, hands the learner played are paid as they end; chips of hands
        # before its first decision wait for that decision's reward.
        playing = self._acted & ~terminated
        rewards[playing] += self._pending[playing]
        self._pending[playing] = 0.0
        infos["learner_seat"][:] = self.learner

    def _learner_out(self) -> NDArray[np.bool_]:
        """Tables whose learner can no longer enter a hand of its session."""
        if not self._sessions:
            return np.zeros(self.num_envs, dtype=np.bool_)
        chips = self.batch.session_stacks[self._rows, self.learner]
        out: NDArray[np.bool_] = chips < self.batch.rules.entry_chips
        return out

    def _opponent_actions(self, step: BatchStep, others: NDArray[np.bool_],
                          actions: NDArray[np.int64]) -> None:
        """Each opponent policy's actions at the tables where one of its seats acts."""
        if self._shared:
            groups = [(self.opponents[0], np.flatnonzero(others))]
        else:
            position = (step.to_act - self.learner) % self.batch.num_seats
            groups = [(policy, np.flatnonzero(others & (position == k)))
                      for k, policy in enumerate(self.opponents, start=1)]
        for policy, rows in groups:
            if len(rows) == 0:
                continue
            observations, masks = step.observations[rows], step.action_masks[rows]
            if policy is None:
                chosen = (masks + self.np_random.random(masks.shape)).argmax(axis=1)
            else:
                chosen = np.asarray(policy(observations, masks))
                if chosen.shape not in ((len(rows),), (len(rows), 1)) or not np.issubdtype(
                        chosen.dtype, np.integer):
                    raise ValueError(f"an opponent policy must return {len(rows)} int "
                                     f"actions, got {chosen.dtype} {chosen.shape}")
            actions[rows] = chosen.reshape(len(rows))
