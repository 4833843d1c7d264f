"""The per-table play loop: step the environment, ask the player whose turn it is.

Every path that plays hands one table at a time through the PettingZoo environment (the
arena's per-table engine, ``teenpatti match``, the command line's demo, the benchmarks)
runs this one loop; what differs is how a turn is decided (:data:`Turn`) and what happens
when a new hand starts.

>>> from teenpatti_env.environment.aec import raw_env
>>> from agents import make_agent
>>> env = raw_env()
>>> env.reset(seed=1)
>>> players = {name: make_agent("equity", seed=n) for n, name in enumerate(env.agents)}
>>> steps = play_out(env, agent_turns(env, players))
>>> env.hand.net is not None, sum(env.hand.net), steps > 0
(True, 0, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol

from agents.base import Agent

MISSED_TURNS = ("timeout", "garbage", "illegal", "gone")
"""The ways a player at a table can miss its turn: no answer in time, an answer that is
not one, an action the table does not allow, a player that cannot be reached."""


class MissedTurnError(Exception):
    """A :class:`TablePlayer` missed its turn; ``kind`` is one of :data:`MISSED_TURNS`,
    ``clock`` the clock that ran out for a timeout (``decision``, ``hand``, ``match``)."""

    def __init__(self, kind: str, detail: str, clock: str = "decision") -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail
        self.clock = clock


class TablePlayer(Agent):
    """A player that plays its turn on the environment itself, with any action the rules
    allow (a remote bot, whose bet may be any legal amount): :meth:`play_turn` applies the
    action with ``env.step_action`` and returns it, or raises :class:`MissedTurnError` having
    changed nothing (the table then plays the turn as missed, :func:`play_missed_turn`)."""

    def play_turn(self, env: Any, name: str) -> dict[str, Any]:
        """Play ``name``'s turn on ``env``; returns the engine action applied."""
        raise NotImplementedError

    def act(self, observation: Any, mask: Any, info: Any) -> int:
        raise TypeError(f"{self.name} plays its turns on the table: call play_turn")


def play_missed_turn(env: Any) -> str:
    """Play the selected agent's turn as missed, as VARIANTS.md C4 says (a betting or
    phase turn packs, a sideshow asked of it is refused, a dealer's choice is drawn, a
    vote is ``continue``); returns the name of the action played."""
    index: int = env.timeout_index()
    env.step(index)
    name: str = env.layout.names[index]
    return name


Turn = Callable[[str], "int | None"]
"""Plays the turn of the named agent: returns the index of its action for the loop to
``step``, or ``None`` when the turn applied its action itself (a remote bot's answer through
``step_action``, a missed turn)."""


class TurnTaking(Protocol):
    """What the loop needs of an environment: a PettingZoo AEC environment (``hand`` is read
    only when the loop is asked to report new hands)."""

    @property
    def terminations(self) -> Mapping[str, bool]: ...

    @property
    def truncations(self) -> Mapping[str, bool]: ...

    @property
    def hand(self) -> Any: ...

    def agent_iter(self, max_iter: int = ...) -> Iterable[str]: ...

    def step(self, action: int | None) -> None: ...


def play_out(
    env: TurnTaking, turn: Turn, new_hand: Callable[[], None] | None = None
) -> int:
    """Play ``env``'s episode to its end from where it stands (after ``env.reset``): an
    agent that has left the episode is moved past with ``step(None)``, every other agent
    to act plays through ``turn(name)``. ``new_hand()`` is called before the first turn of
    every hand (``env.hand`` is then the new hand). Returns the number of steps taken."""
    current: Any = None
    steps = 0
    for name in env.agent_iter():
        if new_hand is not None and env.hand is not current:
            current = env.hand
            new_hand()
        steps += 1
        if env.terminations[name] or env.truncations[name]:
            env.step(None)
            continue
        action = turn(name)
        if action is not None:
            env.step(action)
    return steps


class _Env(Protocol):
    def observe(self, agent: str) -> Mapping[str, Any]: ...

    def view(self, agent: str) -> dict[str, Any]: ...


def agent_turns(env: _Env, agents: Mapping[str, Agent]) -> Callable[[str], int]:
    """The turn of local agents: ``agents[name]`` acts on its observation, mask and view."""

    def turn(name: str) -> int:
        observation = env.observe(name)
        return agents[name].act(
            observation["observation"], observation["action_mask"], env.view(name)
        )

    return turn
