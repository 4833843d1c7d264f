"""PettingZoo's wrappers for classic games, made cheap to step through.

``env()`` (:mod:`teenpatti_env.environment.aec`) stacks these three over ``raw_env``:
each is PettingZoo's own wrapper class whose attributes read on every step come straight
from the raw environment, and whose ``step``/``observe`` skip the chain of ``super()``
calls where the result is the same.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger


def _direct(wrapper: type[Any], **fast: Any) -> type[Any]:
    """``wrapper`` with the attributes read on every step taken straight from the raw
    environment instead of through each wrapper's ``__getattr__`` (same values, a
    fraction of the cost; behaviour is the PettingZoo wrapper's own). ``fast``: methods
    that do what the wrapper's own do, without its chain of ``super()`` calls."""

    def forward(name: str) -> property:
        return property(
            attrgetter("_raw_env." + name),
            lambda self, value: setattr(self._raw_env, name, value),
        )

    def __init__(self: Any, env: Any, *args: Any, **kwargs: Any) -> None:  # noqa: N807
        self._raw_env = env.unwrapped
        wrapper.__init__(self, env, *args, **kwargs)

    def action_space(self: Any, agent: str) -> Any:  # every wrapper only passes it on
        return self._raw_env.action_space(agent)

    def last(self: Any, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``AECEnv.last``, reading the raw environment's attributes."""
        raw = self._raw_env
        agent = raw.agent_selection
        assert agent is not None
        observation = self.observe(agent) if observe else None
        return (
            observation,
            raw._cumulative_rewards[agent],
            raw.terminations[agent],
            raw.truncations[agent],
            raw.infos[agent],
        )

    names = (
        "agents", "num_agents", "agent_selection", "rewards", "_cumulative_rewards",
        "terminations", "truncations", "infos",
    )  # fmt: skip
    namespace: dict[str, Any] = {name: forward(name) for name in names}
    namespace["__init__"] = __init__
    namespace["action_space"] = action_space
    namespace["last"] = last
    namespace["__doc__"] = wrapper.__doc__
    namespace.update(fast)
    return type(wrapper.__name__, (wrapper,), namespace)


def _terminate_illegal_step(self: Any, action: Any) -> None:
    """PettingZoo's ``TerminateIllegalWrapper.step`` once the agent has observed: a legal
    action, or the step of an agent that is done, forgets the observation and steps;
    anything else (an illegal action, a game ended by one) goes the wrapper's own way."""
    raw = self._raw_env
    agent = raw.agent_selection
    observation = self._prev_obs
    if observation is None or self._terminated or (
            not (raw.terminations[agent] or raw.truncations[agent])
            and not observation["action_mask"][action]):
        wrappers.TerminateIllegalWrapper.step(self, action)
        return
    self._prev_obs = None
    self._prev_info = None
    self.env.step(action)


def _terminate_illegal_observe(self: Any, agent: str) -> Any:
    """PettingZoo's ``TerminateIllegalWrapper.observe``: the agent to act's observation and
    info are kept for the legality check of its step."""
    raw = self._raw_env
    observation = self.env.observe(agent)
    if agent == raw.agent_selection:
        self._prev_obs = observation
        self._prev_info = raw.infos.get(agent, {})
    return observation


def _assert_in_bounds_step(self: Any, action: Any) -> None:
    """PettingZoo's ``AssertOutOfBoundsWrapper.step``."""
    raw = self._raw_env
    agent = raw.agent_selection
    assert (action is None and (raw.terminations[agent] or raw.truncations[agent])) or (
        raw.action_space(agent).contains(action)), "action is not in action space"
    self.env.step(action)


def _order_enforcing_step(self: Any, action: Any) -> None:
    """PettingZoo's ``OrderEnforcingWrapper.step`` once reset, with agents left."""
    if not self._has_reset or not self._raw_env.agents:
        wrappers.OrderEnforcingWrapper.step(self, action)
        return
    self._has_updated = True
    self.env.step(action)


def _order_enforcing_observe(self: Any, agent: str) -> Any:
    """PettingZoo's ``OrderEnforcingWrapper.observe``."""
    if not self._has_reset:
        EnvLogger.error_observe_before_reset()
    return self.env.observe(agent)


TerminateIllegalWrapper = _direct(wrappers.TerminateIllegalWrapper,
                                  step=_terminate_illegal_step,
                                  observe=_terminate_illegal_observe)
AssertOutOfBoundsWrapper = _direct(wrappers.AssertOutOfBoundsWrapper,
                                   step=_assert_in_bounds_step)
OrderEnforcingWrapper = _direct(wrappers.OrderEnforcingWrapper,
                                step=_order_enforcing_step, observe=_order_enforcing_observe)
