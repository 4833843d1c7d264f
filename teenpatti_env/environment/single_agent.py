"""A Gymnasium single-agent view (``gymnasium.make("TeenPatti-v0")``) for SB3 and the like.

One seat is the learner; every other seat is played by an opponent policy. A policy is
either an object with ``act(observation, action_mask, view) -> int`` (the agents of
``agents/``) or a callable ``policy(observation, action_mask) -> int``. The default
opponent picks uniformly among its legal actions with the environment's seeded generator.

The learner's reward is its own net result in boots, credited when its hand ends (and
only its own). An episode that ends before the learner's first decision (everyone else
packed in its only hand) holds no decision of the learner's and is dealt again;
``info["redealt"]`` counts those deals and ``info["redealt_reward"]`` sums what they paid
the learner. Within a session, chips of hands that end before the learner's first
decision are added to its first reward.

Every info holds the same keys with the same types, so that vector environments can
stack them: ``action_mask`` (int8), ``redealt`` (int), ``redealt_reward`` (float) and
``illegal_action`` (why an illegal action ended the episode; empty otherwise). The
learner's JSON-able view of the table is ``env.unwrapped.view()``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from numpy.typing import NDArray

from teenpatti_env.engine import Hand
from teenpatti_env.environment.aec import ActionSpace, raw_env
from teenpatti_env.rules import Rules

Policy = Any
"""An opponent: ``act(observation, mask, info) -> int`` or ``f(observation, mask) -> int``."""
LEARNER_SEATS = ("rotate", "random")
MAX_REDEALS = 1000


def opponent_list(
    opponents: Any, others: int, valid: Callable[[Any], bool], what: str
) -> list[Any]:
    """One policy per other seat: ``opponents`` is ``None`` or one policy (``valid``) for
    all of them, or a list of exactly ``others``; an entry neither ``None`` nor ``valid``
    is a ``ValueError`` saying an opponent must be ``what``."""
    if opponents is None or valid(opponents):
        policies = [opponents] * others
    else:
        policies = list(opponents)
        if len(policies) != others:
            raise ValueError(f"give one opponent policy, or {others} (one per other seat)")
    for policy in policies:
        if policy is not None and not valid(policy):
            raise ValueError(f"an opponent must be {what}, got {policy!r}")
    return policies


class TeenPattiEnv(gymnasium.Env[NDArray[np.float32], np.int64]):
    """One learner seat against opponent policies, over :class:`raw_env`.

    ``learner_seat``: ``"rotate"`` (seat 0, 1, 2, ... one episode each), ``"random"``
    (drawn each episode) or a fixed seat. ``opponents``: one policy for every other seat,
    or a list with one policy per other seat, in seat order from the learner's left.
    Other keyword arguments go to :class:`raw_env` (``rules``, ``num_players``,
    ``episode``, ``bet_levels``, ``stacks``, ``Rules`` overrides).
    """

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012 (gymnasium's)

    def __init__(
        self,
        rules: Rules | str | dict[str, Any] | None = None,
        opponents: Policy | Sequence[Policy] | None = None,
        learner_seat: str | int = "rotate",
        render_mode: str | None = None,
        illegal_reward: float = -1.0,
        **kwargs: Any,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        # The game renders text; this view decides when to print it.
        self.game = raw_env(rules=rules, render_mode=render_mode and "ansi", **kwargs)
        self.render_mode = render_mode
        n = self.game.rules.num_players
        if learner_seat not in LEARNER_SEATS and not (
            type(learner_seat) is int and 0 <= learner_seat < n
        ):
            raise ValueError(
                f"learner_seat must be 'rotate', 'random' or a seat 0..{n - 1}, "
                f"got {learner_seat!r}"
            )
        self.learner_seat_mode = learner_seat
        self.illegal_reward = float(illegal_reward)
        self.opponents = opponent_list(
            opponents, n - 1, lambda p: callable(p) or hasattr(p, "act"),
            "callable or have act()",
        )
        space = self.game.observation_space(self.game.possible_agents[0])
        self.observation_space = space["observation"]  # type: ignore[index]
        self.action_space = ActionSpace(self.game.layout.size)
        self.learner = 0
        self._episodes = 0
        self._policy_of: dict[int, Policy | None] = {}
        self._last_hand: Hand | None = None
        self._carry = 0.0
        self._done = True

    @property
    def learner_agent(self) -> str:
        """The learner's agent name (``player_<seat>``)."""
        return self.game.possible_agents[self.learner]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """Deal a new episode and play the opponents up to the learner's first decision.

        ``options`` go to :meth:`raw_env.reset` (``dealer``, ``stacks``, ``cards``).
        """
        super().reset(seed=seed)
        if seed is not None:
            self._episodes = 0  # a seeded reset restarts the rotation: same seed, same episode
        n = self.game.rules.num_players
        mode = self.learner_seat_mode
        if mode == "rotate":
            self.learner = self._episodes % n
        elif mode == "random":
            self.learner = int(self.np_random.integers(n))
        else:
            self.learner = int(mode)
        self._episodes += 1
        self._policy_of = {
            (self.learner + 1 + k) % n: policy for k, policy in enumerate(self.opponents)
        }
        redealt, redealt_reward = 0, 0.0
        # The deal's own generator gets a seed drawn from ours: one seed, two streams
        # (the same seed for both would make a random learner seat the dealer's).
        game_seed = None if seed is None else int(self.np_random.integers(2**63))
        while True:
            self.game.reset(seed=game_seed, options=options)
            game_seed = None
            if self.learner_agent not in self.game.agents:
                raise ValueError(f"the learner's seat {self.learner} is not dealt in")
            self._last_hand = None
            reward, done = self._play_opponents()
            if not done:
                break
            if options is not None and "cards" in options:
                raise ValueError("the fixed deal ends before the learner's first decision")
            redealt += 1
            redealt_reward += reward
            if redealt >= MAX_REDEALS:
                raise ValueError(
                    f"the learner got no decision in {MAX_REDEALS} deals (is it all-in from "
                    "the boot?)"
                )
        self._carry = reward
        self._done = False
        info = self._info(redealt=redealt, redealt_reward=redealt_reward)
        if self.render_mode == "human":
            self.render()
        return self._observation(), info

    def step(
        self, action: Any
    ) -> tuple[NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """The learner acts; the opponents play until its next decision or its end.

        An illegal action (one outside the mask) ends the episode with
        ``illegal_reward``, as PettingZoo's wrappers do; ``info["illegal_action"]`` says why.
        """
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        size = self.game.layout.size
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action[()]  # what model.predict returns for one observation
        if (
            isinstance(action, bool)
            or not isinstance(action, (int, np.integer))
            or not 0 <= int(action) < size
        ):
            raise ValueError(f"action must be an int in 0..{size - 1}, got {action!r}")
        if not self.action_masks()[int(action)]:
            engine_action = self.game.action_to_engine(self.learner_agent, int(action))
            assert self.game.hand is not None
            reason = self.game.hand.illegal_reason(engine_action)
            self._done = True
            info = self._info(illegal_action=(
                f"{self.learner_agent} cannot take action {int(action)} "
                f"({self.game.layout.names[int(action)]}): {reason}"
            ))
            return self._observation(), self.illegal_reward, True, False, info
        self.game.step(int(action))
        reward, done = self._play_opponents()
        reward += self._carry
        self._carry = 0.0
        self._done = done
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, done, False, self._info()

    def action_masks(self) -> NDArray[np.bool_]:
        """The learner's legal actions (for sb3-contrib's ``MaskablePPO``)."""
        return self.game.action_mask(self.learner_agent).astype(bool)

    def _play_opponents(self) -> tuple[float, bool]:
        """Step the other seats until the learner must act or is done.

        Returns the learner's reward since its last action and whether it is done.
        """
        game = self.game
        learner = self.learner_agent
        while True:
            if game.hand is not self._last_hand:
                self._last_hand = game.hand
                for policy in self._policy_of.values():
                    reset = getattr(policy, "reset", None)
                    if reset is not None:
                        reset()
            if learner not in game.agents or game.terminations[learner]:
                return float(game._cumulative_rewards.get(learner, 0.0)), True
            agent = game.agent_selection
            if agent == learner:
                return float(game._cumulative_rewards[learner]), False
            if game.terminations[agent] or game.truncations[agent]:
                game.step(None)
                continue
            game.step(self._opponent_action(agent))

    def _opponent_action(self, agent: str) -> int:
        seat = self.game.agent_name_mapping[agent]
        policy = self._policy_of[seat]
        observation = self.game.observe(agent)
        mask = observation["action_mask"]
        if policy is None:
            return int(self.np_random.choice(np.flatnonzero(mask)))
        if hasattr(policy, "act"):
            return int(policy.act(observation["observation"], mask, self.game.view(agent)))
        return int(policy(observation["observation"], mask))

    def _observation(self) -> NDArray[np.float32]:
        return self.game.observe(self.learner_agent)["observation"]

    def _info(
        self, redealt: int = 0, redealt_reward: float = 0.0, illegal_action: str = ""
    ) -> dict[str, Any]:
        """The info of every step: the same keys of the same types each time, so that
        vector environments can stack them."""
        return {
            "action_mask": self.game.action_mask(self.learner_agent),
            "redealt": int(redealt),
            "redealt_reward": float(redealt_reward),
            "illegal_action": illegal_action,
        }

    def view(self) -> dict[str, Any]:
        """The learner's JSON-able view (see :meth:`raw_env.view`), built now."""
        return self.game.view(self.learner_agent)

    def render(self) -> str | None:  # type: ignore[override, unused-ignore]  # (gymnasium 1.2)
        """The table as text (``"ansi"``) or printed (``"human"``)."""
        if self.render_mode is None:
            return self.game.render()  # warns, as gymnasium expects
        text = self.game.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text
