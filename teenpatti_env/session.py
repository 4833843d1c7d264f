"""A session: hands one after another (RULES.md section 7).

The first dealer is drawn from the session's seeded generator; the deal then passes
left to the next seat still in the session. Before every deal each seat that cannot
enter leaves for good (its chips stay its own and count in the standings). The session
ends when at most one seat can still enter or after ``max_hands`` hands; the biggest
stack wins and equal biggest stacks share the win.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from teenpatti_env.engine import Hand
from teenpatti_env.rules import Rules

_STATE_VERSION = 1


class Session:
    """A series of hands at one table, with its own seeded random generator."""

    def __init__(
        self,
        rules: Rules | None = None,
        seed: int | None = None,
        stacks: Sequence[int] | None = None,
    ) -> None:
        self.rules = rules if rules is not None else Rules()
        n = self.rules.num_players
        if stacks is None:
            stacks = [self.rules.starting_stack] * n
        if len(stacks) != n:
            raise ValueError(f"got {len(stacks)} stacks for num_players={n}")
        for seat, chips in enumerate(stacks):
            if not isinstance(chips, int) or isinstance(chips, bool) or chips < 0:
                raise ValueError(f"stack of seat {seat} must be an int >= 0, got {chips!r}")
        self.rng = np.random.default_rng(seed)
        self._stacks = list(stacks)
        self.active = [True] * n
        self.dealer: int | None = None
        self.hand: Hand | None = None
        self.hands_played = 0
        self.history: list[dict[str, Any]] = []
        self._settled = True
        self.votes = [False] * n
        self._leave_if_broke()

    @property
    def stacks(self) -> list[int]:
        """Chips of every seat (those that left included), the last finished hand paid."""
        self._settle()
        return list(self._stacks)

    @property
    def num_seats(self) -> int:
        """Seats at the table, including those that have left."""
        return len(self._stacks)

    def _leave_if_broke(self) -> None:
        for seat, chips in enumerate(self._stacks):
            if chips < self.rules.entry_chips:
                self.active[seat] = False

    def _settle(self) -> None:
        """Fold a finished hand's result into the session."""
        hand = self.hand
        if hand is None or not hand.over or self._settled:
            return
        self._settled = True
        for seat in range(self.num_seats):
            if hand.dealt_in[seat]:
                self._stacks[seat] = hand.stacks[seat]
        self.hands_played += 1
        self.history.append(
            {
                "hand": self.hands_played,
                "dealer": hand.dealer,
                "end": hand.end,
                "net": hand.net,
                "shown": [{"seat": seat, "cards": cards} for seat, cards in hand.shown.items()],
            }
        )
        self._leave_if_broke()

    @property
    def over(self) -> bool:
        """Whether no further hand will be dealt."""
        if self.hand is not None and not self.hand.over:
            return False
        self._settle()
        if sum(self.active) <= 1 or self.ended_by_vote:
            return True
        return self.rules.max_hands is not None and self.hands_played >= self.rules.max_hands

    @property
    def ended_by_vote(self) -> bool:
        """Every seat still in the session voted to end in this break between hands."""
        return all(self.votes[s] for s in range(self.num_seats) if self.active[s])

    def vote_end(self, seat: int) -> None:
        """``seat`` votes, between hands, to end the session (RULES section 7).

        When every seat still in the session has voted in the same break, the session
        is over; votes lapse when the next hand is dealt.
        """
        if self.hand is not None and not self.hand.over:
            raise RuntimeError("votes to end are cast between hands")
        self._settle()
        if not (isinstance(seat, int) and 0 <= seat < self.num_seats and self.active[seat]):
            raise ValueError(f"seat {seat!r} is not in the session")
        self.votes[seat] = True

    def new_hand(self) -> Hand:
        """Deal the next hand and return it."""
        if self.hand is not None and not self.hand.over:
            raise RuntimeError("the current hand is not over")
        if self.over:
            raise RuntimeError("the session is over")
        n = self.num_seats
        if self.dealer is None:
            seats = [s for s in range(n) if self.active[s]]
            self.dealer = seats[int(self.rng.integers(len(seats)))]
        else:
            self.dealer = next(
                (self.dealer + step) % n
                for step in range(1, n + 1)
                if self.active[(self.dealer + step) % n]
            )
        stacks = [chips if self.active[seat] else 0 for seat, chips in enumerate(self._stacks)]
        self.hand = Hand.deal(self.rules, stacks, self.dealer, self.rng)
        self._settled = False
        self.votes = [False] * n
        return self.hand

    @property
    def winners(self) -> list[int]:
        """Seats holding the biggest stack (the session's winners once it is over)."""
        self._settle()
        best = max(self._stacks)
        return [seat for seat, chips in enumerate(self._stacks) if chips == best]

    def standings(self) -> list[tuple[int, int]]:
        """``(seat, chips)`` from the biggest stack down (ties in seat order)."""
        self._settle()
        return sorted(enumerate(self._stacks), key=lambda item: (-item[1], item[0]))

    def to_dict(self) -> dict[str, Any]:
        """An exact, JSON-able snapshot (generator state and hand in progress included)."""
        return {
            "version": _STATE_VERSION,
            "rules": self.rules.to_dict(),
            "rng": self.rng.bit_generator.state,
            "stacks": list(self._stacks),
            "active": list(self.active),
            "dealer": self.dealer,
            "hands_played": self.hands_played,
            "history": self.history,
            "hand": None if self.hand is None else self.hand.to_dict(),
            "settled": self._settled,
            "votes": list(self.votes),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Session:
        """Restore a session saved with :meth:`to_dict`."""
        if not isinstance(data, dict) or data.get("version") != _STATE_VERSION:
            raise ValueError(f"not a saved session of version {_STATE_VERSION}")
        try:
            session = cls(Rules.from_dict(data["rules"]), stacks=data["stacks"])
            session.rng.bit_generator.state = data["rng"]
            session.active = list(data["active"])
            session.dealer = data["dealer"]
            session.hands_played = data["hands_played"]
            session.history = [dict(item) for item in data["history"]]
            session.hand = None if data["hand"] is None else Hand.from_dict(data["hand"])
            session._settled = bool(data["settled"])
            session.votes = [bool(vote) for vote in data["votes"]]
        except (KeyError, TypeError) as error:
            raise ValueError(f"malformed saved session: {error}") from error
        return session
