"""Teen Patti on Ray RLlib: a ``MultiAgentEnv``, self-play PPO and export to the arena.

:class:`TeenPattiMultiAgentEnv` plays one hand an episode over :class:`raw_env` with
RLlib's action-masking conventions: each observation is ``{"observations": vector,
"action_mask": float32 0/1 vector}`` (what :class:`~training.rllib_masking.MaskedPPOModule`
reads), and
only the seat to act gets an observation. Every seat's result is delivered, so the
returns of an episode sum to zero: RLlib keeps no reward for an agent that never acted,
so a seat whose hand ended before its first turn (the others packed) gets one *closing*
decision on the final table, where the only legal action is :data:`CLOSING_ACTION`
(ignored). Every seat's result and last observation come in the episode's last step,
after the closing decisions: RLlib's ``MultiAgentEpisode`` ends an episode as soon as
every agent it has seen so far is terminated, and drops an agent whose first observation
comes in that step, so no seat may be terminated while a closing seat is still unseen.

:func:`selfplay_config` builds a PPO configuration for self-play: one shared masked
policy (``"main"``, trained) in half the seats of every hand and a frozen copy of it
(``"frozen"``, copied from it when the algorithm is built and every ``freeze_every``
iterations) in the others; :func:`build_selfplay_algo` builds it after checking that its
env runners fit the cluster's CPUs.
:func:`export_module` turns a trained module into a ``teenpatti-policy/1`` file's policy
that the arena plays as ``ppo:FILE``. ``python -m training.rllib`` trains and exports,
on a local Ray instance or on a cluster (``--address``); ``docs/ray.md`` says how.

Needs the ``ray`` extra (``pip install -e ".[ray]"``).
"""

from __future__ import annotations

import argparse
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.tune.registry import register_env
from torch import nn

from agents.policy import NumpyPolicy, policy_metadata
from agents.ray_support import connect, require_cpus
from teenpatti_env.environment.aec import raw_env
from teenpatti_env.rules import Rules
from training.rllib_masking import MaskedPPOModule

ENV_NAME = "teenpatti_v0"
"""The name :func:`selfplay_config` registers the environment under."""
CLOSING_ACTION = 0
"""The one legal action of a closing decision (its value is ignored)."""
TRAINED, FROZEN = "main", "frozen"
ACTIVATIONS = {nn.Tanh: "tanh", nn.ReLU: "relu"}


class TeenPattiMultiAgentEnv(MultiAgentEnv):  # type: ignore[misc]
    """One hand of Teen Patti an episode, for RLlib (see the module docstring).

    ``config`` holds :class:`raw_env` keyword arguments (``rules``, ``num_players``,
    ``Rules`` overrides, ...); ``episode`` must be ``"hand"`` if given.
    """

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        settings = dict(config or {})
        if settings.pop("episode", "hand") != "hand":
            raise ValueError("the RLlib environment plays one hand an episode: "
                             "episode must be 'hand'")
        self.game = raw_env(**settings)
        self.possible_agents = list(self.game.possible_agents)
        self.agents: list[str] = []
        size = self.game.layout.size
        vector = self.game.observation_space(self.possible_agents[0])["observation"]  # type: ignore[index]
        space = spaces.Dict({
            "observations": vector,
            "action_mask": spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces: dict[str, spaces.Space[Any]] = {
            agent: spaces.Discrete(size) for agent in self.possible_agents}
        self._acted: set[str] = set()
        self._closing: set[str] = set()
        """Seats in their closing decision (the hand is over, they never acted)."""

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal a hand (``options`` as for :meth:`raw_env.reset`); the seat to act
        observes (every seat, in its closing decision, if all are all-in from the
        boot)."""
        self.game.reset(seed=seed, options=options)
        self.agents = list(self.game.agents)
        self._acted = set()
        self._closing = set(self.agents) if self._hand_over() else set()
        observing = self._closing or {self.game.agent_selection}
        return ({agent: self._observe(agent) for agent in observing},
                {agent: {} for agent in observing})

    def step(self, action_dict: dict[str, Any]) -> tuple[Any, Any, Any, Any, Any]:
        """Apply the action of the seat to act (or of the closing seats); returns
        RLlib's ``(observations, rewards, terminateds, truncateds, infos)``: the next
        seat to act observes (the closing seats, if the hand just ended before their
        first turn), and in the last step every seat observes the final table and gets
        its result."""
        if self._closing:
            self._closing = set()
            return self._final()
        agent = self.game.agent_selection
        if agent not in action_dict:
            raise ValueError(f"{agent} is to act: action_dict has {sorted(action_dict)}")
        self.game.step(int(action_dict[agent]))
        self._acted.add(agent)
        if self._hand_over():
            self._closing = set(self.agents) - self._acted
            if not self._closing:
                return self._final()
        observing = self._closing or {self.game.agent_selection}
        observations = {seat: self._observe(seat) for seat in observing}
        return observations, {agent: 0.0}, {"__all__": False}, {"__all__": False}, {
            seat: {} for seat in observations}

    def _hand_over(self) -> bool:
        hand = self.game.hand
        return hand is not None and hand.over

    def _final(self) -> tuple[Any, Any, Any, Any, Any]:
        """The episode's last step: every seat observes the final table, gets its
        result (the raw game's rewards of the hand's last move) and is terminated."""
        observations = {agent: self._observe(agent) for agent in self.agents}
        rewards = {agent: float(self.game.rewards[agent]) for agent in self.agents}
        done = dict.fromkeys([*self.agents, "__all__"], True)
        return observations, rewards, done, {"__all__": False}, {
            agent: {} for agent in self.agents}

    def _observe(self, agent: str) -> dict[str, NDArray[np.float32]]:
        if agent in self._closing:
            mask = np.zeros(self.game.layout.size, dtype=np.float32)
            mask[CLOSING_ACTION] = 1.0
        else:
            mask = self.game.action_mask(agent).astype(np.float32)
        vector = self.game.observe(agent)["observation"]
        return {"observations": vector, "action_mask": mask}


def seat_module(agent_id: str, episode: Any, **_: Any) -> str:
    """Half the seats of a hand play the trained policy, the other half its frozen copy
    (which half depends on the episode, so both play every seat)."""
    seat = int(agent_id.rsplit("_", 1)[1])
    flip = zlib.crc32(str(episode.id_).encode()) & 1
    return TRAINED if (seat + flip) % 2 == 0 else FROZEN


class FreezeOpponents(RLlibCallback):  # type: ignore[misc]
    """The frozen opponents take the trained policy's weights when the algorithm is built
    (else they would play a separately initialised network until the first copy) and
    every ``freeze_every`` training iterations after."""

    def __init__(self, freeze_every: int = 5) -> None:
        super().__init__()
        self.freeze_every = freeze_every

    def on_algorithm_init(self, *, algorithm: Any, **_: Any) -> None:
        """The copy at the start."""
        _freeze(algorithm)

    def on_train_result(self, *, algorithm: Any, result: dict[str, Any], **_: Any) -> None:
        """The copy every ``freeze_every`` iterations."""
        if algorithm.iteration % self.freeze_every:
            return
        _freeze(algorithm)
        result["frozen_at_iteration"] = algorithm.iteration


def _freeze(algorithm: Any) -> None:
    """Copy the trained module's weights to the frozen one, in the learner and (through
    ``set_state``, which syncs them) in every env runner."""
    weights = algorithm.get_module(TRAINED).get_state()
    algorithm.set_state({"learner_group": {"learner": {"rl_module": {FROZEN: weights}}}})


def selfplay_config(
    env_config: dict[str, Any] | None = None,
    hidden: Sequence[int] = (128, 128),
    freeze_every: int = 5,
    batch_size: int = 4000,
    env_runners: int = 0,
    seed: int | None = None,
) -> PPOConfig:
    """A PPO configuration for masked self-play: :data:`TRAINED` (one policy shared by
    its seats) against :data:`FROZEN`, refreshed every ``freeze_every`` iterations.
    ``batch_size`` env steps an iteration, sampled by ``env_runners`` Ray actors (0:
    in the driver)."""
    register_env(ENV_NAME, TeenPattiMultiAgentEnv)
    module = RLModuleSpec(
        module_class=MaskedPPOModule,
        model_config=DefaultModelConfig(fcnet_hiddens=list(hidden), fcnet_activation="tanh"),
    )
    return (
        PPOConfig()
        # RLlib's env check steps with unmasked random actions, which a masked game
        # rejects as illegal.
        .environment(ENV_NAME, env_config=dict(env_config or {}), disable_env_checking=True)
        .env_runners(num_env_runners=env_runners)
        .multi_agent(
            policies={TRAINED, FROZEN},
            policy_mapping_fn=seat_module,
            policies_to_train=[TRAINED],
        )
        .rl_module(rl_module_spec=MultiRLModuleSpec(
            rl_module_specs={TRAINED: module, FROZEN: module}))
        .training(train_batch_size_per_learner=batch_size,
                  minibatch_size=min(batch_size, 500), num_epochs=4)
        .callbacks(lambda: FreezeOpponents(freeze_every))
        .debugging(seed=seed)
    )


def build_selfplay_algo(config: PPOConfig) -> Any:
    """``config.build_algo()`` on the connected Ray instance (a new local one if none),
    after checking that the env runners fit its free CPUs: one CPU each, and Ray would
    otherwise wait for the missing ones for ever, without a word. Too many is a
    ``ValueError``."""
    import ray

    if not ray.is_initialized():
        ray.init()
    runners = config.num_env_runners
    require_cpus(ray, runners * config.num_cpus_per_env_runner, f"{runners} env runners")
    return config.build_algo()


def export_module(module: RLModule, rules: Rules | str | dict[str, Any] | None = None,
                  **extra: Any) -> NumpyPolicy:
    """The numpy policy (``teenpatti-policy/1``) of a trained
    :class:`~training.rllib_masking.MaskedPPOModule`: its actor encoder's layers and the
    policy head."""
    actor = getattr(module.encoder, "actor_encoder", module.encoder)
    layers = [*actor.modules(), *module.pi.modules()]
    linears = [layer for layer in layers if isinstance(layer, nn.Linear)]
    kinds = {ACTIVATIONS[type(layer)] for layer in actor.modules()
             if type(layer) in ACTIVATIONS}
    if len(kinds) != 1 or any(type(layer) in ACTIVATIONS for layer in module.pi.modules()):
        raise ValueError("export needs one tanh or relu encoder and a linear policy head")
    table_rules = Rules.of(rules)
    names = raw_env(rules=table_rules).layout.names
    weights = [layer.weight.detach().cpu().numpy().T.astype(np.float32) for layer in linears]
    biases = [layer.bias.detach().cpu().numpy().astype(np.float32) for layer in linears]
    metadata = policy_metadata(table_rules, names, kinds.pop(), trainer="rllib-ppo", **extra)
    return NumpyPolicy(weights, biases, metadata)


def main(argv: Sequence[str] | None = None) -> None:
    """Train self-play PPO on Ray and export the trained policy."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--address", default=None,
                        help="Ray cluster address (default: start a local Ray instance)")
    parser.add_argument("--iterations", type=int, default=20, help="training iterations")
    parser.add_argument("--runners", type=int, default=2, help="sampling actors (Ray)")
    parser.add_argument("--rules", default="classic", help="preset name (default classic)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run")
    parser.add_argument("--out", default="rllib-policy.npz", help="exported policy file")
    args = parser.parse_args(argv)
    config = selfplay_config({"rules": args.rules}, env_runners=args.runners, seed=args.seed)
    try:
        ray, _ = connect(args.address or "", "python -m training.rllib")
    except ValueError as error:
        raise SystemExit(f"python -m training.rllib: {error}") from None
    try:
        algorithm = build_selfplay_algo(config)
    except ValueError as error:
        ray.shutdown()
        raise SystemExit(f"python -m training.rllib: {error}") from None
    try:
        for _ in range(args.iterations):
            result = algorithm.train()
            print(f"iteration {algorithm.iteration}: "
                  f"{result['env_runners'].get('num_episodes', 0)} hands")
        policy = export_module(algorithm.get_module(TRAINED), args.rules,
                               iterations=args.iterations, seed=args.seed)
        policy.save(Path(args.out))
        print(f"exported {args.out}; play it with: "
              f"teenpatti arena --agents ppo:{args.out},equity")
    finally:
        algorithm.stop()
        ray.shutdown()


if __name__ == "__main__":
    main()
