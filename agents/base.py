"""The interface every agent follows, and the legal moves it is offered.

An agent sees only what its seat may see: the observation vector, the action mask and the
info dict of the environment (``teenpatti_env.env``); it answers with the index of a legal
action. It keeps no global random state: each agent owns a ``numpy`` Generator made from
the seed it was built with.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

if TYPE_CHECKING:
    from teenpatti_env.rules import Rules

Observation = NDArray[np.float32]
Mask = NDArray[Any]
Info = Mapping[str, Any]
BatchPolicy = Callable[[NDArray[np.float32], NDArray[Any]], NDArray[np.int64]]
"""A batched form of an agent: observations and masks of many tables in, actions out."""


class Agent:
    """A Teen Patti player: ``act(observation, mask, info) -> action index``.

    Subclasses override :meth:`act` and, if they keep state within a hand, :meth:`reset`.
    """

    name = "agent"
    selection_choices = False
    """Takes a selection phase's turns by :func:`agents.phases.selection_action` (so that
    its batched policy's form makes the same choices from the batch's state:
    :func:`agents.batch_scripted.policy_form`)."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    def reset(self) -> None:
        """Forget the last hand; called before every hand."""

    def check_rules(self, rules: Rules) -> None:
        """Raise ``ValueError`` if this agent cannot play a table under ``rules`` (a
        scripted agent plays any table; a trained policy only its own layout)."""

    def act(self, observation: Observation, mask: Mask, info: Info) -> int:
        """The index of a legal action (``mask[index] == 1``) for the seat to act."""
        raise NotImplementedError

    def batch_policy(self) -> BatchPolicy | None:
        """The agent as a batched policy, ``policy(observations[M, D], masks[M, A]) ->
        actions[M]``, choosing for every row exactly what :meth:`act` would (so it needs
        no info view and no memory); ``None`` if the agent has no such form."""
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, seed={self.seed!r})"


class LegalMoves:
    """The legal actions of one decision, by name (``info["legal_actions"]``) and index.

    The names come in index order, so they pair up with the set bits of the mask.
    """

    __slots__ = ("by_name",)

    def __init__(self, mask: Mask, info: Info) -> None:
        indices = np.flatnonzero(mask)
        names = info.get("legal_actions")
        if names is None or len(names) != len(indices):
            raise ValueError("info['legal_actions'] does not match the action mask")
        self.by_name: dict[str, int] = dict(zip(names, (int(i) for i in indices), strict=True))

    def __contains__(self, name: object) -> bool:
        return name in self.by_name

    def first(self, *names: str) -> int | None:
        """The index of the first of ``names`` that is legal, or ``None``."""
        for name in names:
            index = self.by_name.get(name)
            if index is not None:
                return index
        return None

    def pick(self, *names: str) -> int:
        """The index of the first of ``names`` that is legal; failing that, ``pack`` if it
        is legal, else the lowest legal index."""
        index = self.first(*names, "pack")
        return min(self.by_name.values()) if index is None else index

    def bets(self) -> list[int]:
        """Indices of the legal bets, smallest first (bet_min, the levels, bet_max)."""
        levels = sorted(
            (int(name.rsplit("_", 1)[1]), index)
            for name, index in self.by_name.items()
            if name.startswith("bet_level_")
        )
        low = self.by_name.get("bet_min")
        high = self.by_name.get("bet_max")
        out = [] if low is None else [low]
        out += [index for _, index in levels]
        if high is not None:
            out.append(high)
        return out

    def any(self, rng: np.random.Generator, without: str | None = None) -> int:
        """A legal index drawn uniformly (other than ``without``, unless it is the only
        legal action)."""
        indices = [i for name, i in self.by_name.items() if name != without]
        if not indices:
            indices = list(self.by_name.values())
        return indices[int(rng.integers(len(indices)))]
