"""Read-only views of a :class:`~teenpatti_env.environment.batched.TableBatch`'s state:
every table's pot, stake, dealer, stacks, seats and results as arrays."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from teenpatti_env.environment import batch_kernels as k


class BatchArrays(NamedTuple):
    """The engine's own state arrays, laid out as :mod:`batch_kernels` describes: read
    them, never write them."""

    params: NDArray[np.int64]
    tab: NDArray[np.int64]
    seat: NDArray[np.int64]
    known: NDArray[np.uint8]


class BatchViews:
    """The views :class:`~teenpatti_env.environment.batched.TableBatch` offers over its
    arrays (copies, or fresh arrays, never the state itself unless said)."""

    _params: NDArray[np.int64]
    _tab: NDArray[np.int64]
    _seat: NDArray[np.int64]
    _known: NDArray[np.uint8]
    _values: NDArray[np.int64]
    _session_start: NDArray[np.int64]

    @property
    def arrays(self) -> BatchArrays:
        """The live state arrays (no copy), for agents that decide from the whole table
        (the scripted agents' batched forms, ``agents.batch_scripted``)."""
        return BatchArrays(self._params, self._tab, self._seat, self._known)

    @property
    def value_lookups(self) -> NDArray[np.int64]:
        """The ranking's value lookups the kernels value hands with (``batch_state``'s
        ``V_*`` layout; no copy: read them, and pass them only to a kernel such as
        ``batch_jokers.best_kept``)."""
        return self._values

    @property
    def to_act(self) -> NDArray[np.int64]:
        """The seat to act at every table (``-1``: none)."""
        return self._tab[:, k.TO_ACT].copy()

    @property
    def pot(self) -> NDArray[np.int64]:
        """Chips in every table's pot."""
        return self._tab[:, k.POT].copy()

    @property
    def stake(self) -> NDArray[np.int64]:
        """Every table's stake ``S``."""
        return self._tab[:, k.STAKE].copy()

    @property
    def dealer(self) -> NDArray[np.int64]:
        """Every table's dealer."""
        return self._tab[:, k.DEALER].copy()

    @property
    def stack_chips(self) -> NDArray[np.int64]:
        """``[N, n]``: every seat's chips behind."""
        return self._seat[:, k.STACK, :].copy()

    @property
    def dealt_in(self) -> NDArray[np.bool_]:
        """``[N, n]``: the seats dealt into this hand."""
        dealt: NDArray[np.bool_] = self._seat[:, k.DEALT, :] == 1
        return dealt

    @property
    def hand_stacks(self) -> NDArray[np.int64]:
        """``[N, n]``: every seat's chips when this hand was dealt (before the boot)."""
        seat = self._seat
        return seat[:, k.STACK, :] + seat[:, k.CONTRIB, :] - seat[:, k.PAYOUT, :]

    @property
    def contributions(self) -> NDArray[np.int64]:
        """``[N, n]``: chips every seat put into this hand."""
        return self._seat[:, k.CONTRIB, :].copy()

    @property
    def net(self) -> NDArray[np.int64]:
        """``[N, n]``: every seat's chips won or lost in its ended hand (zeros while the
        hand runs)."""
        seat = self._seat
        ended = (self._tab[:, k.END] != k.RUNNING)[:, None]
        net: NDArray[np.int64] = np.where(ended, seat[:, k.PAYOUT, :] - seat[:, k.CONTRIB, :], 0)
        return net

    @property
    def shown(self) -> NDArray[np.bool_]:
        """``[N, n]``: the seats whose hands were turned up for the table (show, showdown)."""
        shown: NDArray[np.bool_] = self._seat[:, k.SHOWN, :] == 1
        return shown

    @property
    def over(self) -> NDArray[np.bool_]:
        """Whether every table's hand has ended."""
        over: NDArray[np.bool_] = self._tab[:, k.END] != k.RUNNING
        return over

    @property
    def session_stacks(self) -> NDArray[np.int64]:
        """``[N, n]`` (``episode="session"``): every seat's chips in its session, busted
        seats' included, as of the last hand settled."""
        return self._seat[:, k.CHIPS, :].copy()

    @property
    def session_net(self) -> NDArray[np.int64]:
        """``[N, n]`` (``episode="session"``): every seat's chips won or lost in its
        session so far (the hands settled)."""
        net: NDArray[np.int64] = self._seat[:, k.CHIPS, :] - self._session_start
        return net

    @property
    def hands_played(self) -> NDArray[np.int64]:
        """Hands finished in every table's session (``episode="session"``)."""
        return self._tab[:, k.HANDS].copy()

    @property
    def hands_dealt(self) -> NDArray[np.int64]:
        """Hands dealt at every table since the batch was made."""
        return self._tab[:, k.DEALS].copy()
