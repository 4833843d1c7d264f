"""A session: hands one after another (RULES.md section 7).

The first dealer is drawn from the session's seeded generator among the seats that can
enter; the deal then passes left to the next seat still in the session. Before every
deal each seat that cannot enter leaves for good (its chips stay its own and count in the
standings). The session ends when at most one seat can still enter, after ``max_hands``
hands, or when every seat still in the session votes to end in one break between hands;
the biggest stack wins and equal biggest stacks share the win.

A finished hand is folded into the session the first time anything of the session is
read, so ``stacks``, ``active``, ``hands_played`` and ``history`` are always current.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import numpy as np

from teenpatti_env.cards import CardLike
from teenpatti_env.engine import TABLE_CARD_FIELDS, Hand, is_seat, open_snapshot, validate_table
from teenpatti_env.rules import Rules

_STATE_VERSION = 1


class Session:
    """A series of hands at one table, with its own seeded random generator.

    ``seed`` seeds a new generator; ``rng`` instead shares an existing one (an
    environment that owns the generator passes it in).
    """

    def __init__(
        self,
        rules: Rules | str | dict[str, Any] | None = None,
        seed: int | None = None,
        stacks: Sequence[int] | None = None,
        rng: np.random.Generator | None = None,
    ) -> None:
        self.rules = Rules.of(rules)
        n = self.rules.num_players
        validate_table(self.rules, stacks, 0, n)
        if stacks is None:
            stacks = [self.rules.starting_stack] * n
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
            raise ValueError(f"seed must be an int >= 0 or None, got {seed!r}")
        if rng is not None and not isinstance(rng, np.random.Generator):
            raise ValueError(f"rng must be a numpy.random.Generator, got {rng!r}")
        self.rng = rng if rng is not None else np.random.default_rng(seed)
        self.dealer: int | None = None
        self.hand: Hand | None = None
        self._stacks = list(stacks)
        self._active = [True] * n
        self._votes = [False] * n
        self._hands_played = 0
        self._history: list[dict[str, Any]] = []
        self._settled = True
        self._leave_if_broke()

    # ----------------------------------------------------------------- state

    @property
    def num_seats(self) -> int:
        """Seats at the table, including those that have left."""
        return len(self._stacks)

    @property
    def stacks(self) -> list[int]:
        """Chips of every seat (those that left included), the last finished hand paid."""
        self._settle()
        return list(self._stacks)

    @property
    def active(self) -> list[bool]:
        """Whether each seat is still in the session (can still enter a hand)."""
        self._settle()
        return list(self._active)

    @property
    def hands_played(self) -> int:
        """Hands finished so far."""
        self._settle()
        return self._hands_played

    @property
    def history(self) -> list[dict[str, Any]]:
        """One summary per finished hand: number, dealer, how it ended, net, shown hands."""
        self._settle()
        return copy.deepcopy(self._history)

    @property
    def votes(self) -> list[bool]:
        """Votes to end cast in the current break between hands."""
        return list(self._votes)

    def _leave_if_broke(self) -> None:
        for seat, chips in enumerate(self._stacks):
            if chips < self.rules.entry_chips:
                self._active[seat] = False

    def _settle(self) -> None:
        """Fold a finished hand's result into the session, once."""
        hand = self.hand
        if hand is None or not hand.over or self._settled:
            return
        self._settled = True
        for seat in range(self.num_seats):
            if hand.dealt_in[seat]:
                self._stacks[seat] = hand.stacks[seat]
        self._hands_played += 1
        self._history.append(
            {
                "hand": self._hands_played,
                "dealer": hand.dealer,
                "end": hand.end,
                "net": hand.net,
                "shown": [{"seat": seat, "cards": cards} for seat, cards in hand.shown.items()],
            }
        )
        self._leave_if_broke()

    # ----------------------------------------------------------------- flow

    @property
    def over(self) -> bool:
        """Whether no further hand will be dealt."""
        if self.hand is not None and not self.hand.over:
            return False
        self._settle()
        if sum(self._active) <= 1 or self.ended_by_vote:
            return True
        return self.rules.max_hands is not None and self._hands_played >= self.rules.max_hands

    @property
    def ended_by_vote(self) -> bool:
        """Every seat still in the session voted to end in this break between hands."""
        return all(self._votes[s] for s in range(self.num_seats) if self._active[s])

    def vote_end(self, seat: int) -> None:
        """``seat`` votes, between hands, to end the session (RULES section 7).

        When every seat still in the session has voted in the same break, the session
        is over; votes lapse when the next hand is dealt.
        """
        if self.hand is not None and not self.hand.over:
            raise RuntimeError("votes to end are cast between hands")
        self._settle()
        if not (is_seat(seat, self.num_seats) and self._active[seat]):
            raise ValueError(f"seat {seat!r} is not in the session")
        self._votes[seat] = True

    def new_hand(
        self,
        cards: Sequence[Sequence[CardLike] | None] | None = None,
        dealer: int | None = None,
        **table_cards: Any,
    ) -> Hand:
        """Deal the next hand and return it.

        ``cards`` (one list per seat, ``None`` for a seat out of the session) fixes the
        deal instead of shuffling, with the variant's ``community``, ``indicators`` and
        ``chosen`` as keywords; ``dealer`` names the dealer instead of passing the deal
        on. Both are for setting up a scenario; a bad one is a ``ValueError`` and changes
        nothing.
        """
        unknown = sorted(set(table_cards) - set(TABLE_CARD_FIELDS))
        if unknown:
            raise ValueError(
                f"new_hand() takes {', '.join(TABLE_CARD_FIELDS)}; got {unknown}"
            )
        if self.hand is not None and not self.hand.over:
            raise RuntimeError("the current hand is not over")
        if self.over:
            raise RuntimeError("the session is over")
        n = self.num_seats
        stacks = [chips if self._active[seat] else 0 for seat, chips in enumerate(self._stacks)]
        if dealer is not None:
            if not is_seat(dealer, n):
                raise ValueError(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")
        elif self.dealer is None:
            seats = [s for s in range(n) if self._active[s]]
            dealer = seats[int(self.rng.integers(len(seats)))]
        else:
            dealer = next(
                (self.dealer + step) % n
                for step in range(1, n + 1)
                if self._active[(self.dealer + step) % n]
            )
        if cards is None:
            hand = Hand.deal(self.rules, stacks, dealer, self.rng)
        else:
            hand = Hand(self.rules, cards, stacks, dealer, **table_cards, rng=self.rng)
        self.dealer = dealer
        self.hand = hand
        self._settled = False
        self._votes = [False] * n
        return self.hand

    @property
    def winners(self) -> list[int]:
        """Seats holding the biggest stack (the session's winners once it is over)."""
        stacks = self.stacks
        best = max(stacks)
        return [seat for seat, chips in enumerate(stacks) if chips == best]

    def standings(self) -> list[tuple[int, int]]:
        """``(seat, chips)`` from the biggest stack down (ties in seat order)."""
        return sorted(enumerate(self.stacks), key=lambda item: (-item[1], item[0]))

    # ----------------------------------------------------------------- snapshots

    def to_dict(self) -> dict[str, Any]:
        """An exact, JSON-able snapshot (generator state and hand in progress included)."""
        return copy.deepcopy(
            {
                "version": _STATE_VERSION,
                "rules": self.rules.to_dict(),
                "rng": self.rng.bit_generator.state,
                "stacks": self._stacks,
                "active": self._active,
                "votes": self._votes,
                "dealer": self.dealer,
                "hands_played": self._hands_played,
                "history": self._history,
                "settled": self._settled,
                "hand": None if self.hand is None else self.hand.to_dict(),
            }
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Session:
        """Restore a session saved with :meth:`to_dict`; a malformed one is a ``ValueError``."""
        data = open_snapshot(data, "session", _STATE_VERSION)
        try:
            session = cls(Rules.from_dict(data["rules"]), stacks=data["stacks"])
            session.rng.bit_generator.state = data["rng"]
            n = session.num_seats
            session._active = [bool(value) for value in data["active"]]
            session._votes = [bool(value) for value in data["votes"]]
            if len(session._active) != n or len(session._votes) != n:
                raise ValueError(f"active and votes must hold {n} values")
            dealer = data["dealer"]
            if dealer is not None and not (type(dealer) is int and 0 <= dealer < n):
                raise ValueError(f"bad dealer {dealer!r}")
            session.dealer = dealer
            session._hands_played = int(data["hands_played"])
            session._history = list(data["history"])
            session._settled = bool(data["settled"])
            session.hand = None if data["hand"] is None else Hand.from_dict(data["hand"])
        except (KeyError, TypeError, IndexError, ValueError) as error:
            raise ValueError(f"malformed saved session: {error}") from error
        return session
