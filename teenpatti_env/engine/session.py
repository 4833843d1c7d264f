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
from teenpatti_env.engine import Hand, is_seat, validate_table
from teenpatti_env.engine.history import DEAL_FIELDS, play, play_of, rng_from_state, rng_state
from teenpatti_env.errors import check_seed
from teenpatti_env.rules import Rules

_STATE_VERSION = 2
EPISODES = ("hand", "session")
"""What an environment's episode may be: one hand, or one session of hands."""


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
        seed = check_seed(seed, optional=True)
        if rng is not None and not isinstance(rng, np.random.Generator):
            raise ValueError(f"rng must be a numpy.random.Generator, got {rng!r}")
        self.rng = rng if rng is not None else np.random.default_rng(seed)
        self.dealer: int | None = None
        self.hand: Hand | None = None
        self._start_stacks = list(stacks)
        self._played: list[dict[str, Any]] = []
        """Each finished hand's history, less the fields the session holds."""
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
        self._played.append(play_of(hand))
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
        deal instead of shuffling, with the variant's ``community``, ``indicators``,
        ``chosen``, ``deck`` and ``reshuffles`` as keywords; ``dealer`` names the dealer
        instead of passing the deal on. Both are for setting up a scenario; a bad one is a
        ``ValueError`` and changes nothing.
        """
        unknown = sorted(set(table_cards) - set(DEAL_FIELDS))
        if unknown:
            raise ValueError(f"new_hand() takes {', '.join(DEAL_FIELDS)}; got {unknown}")
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
        """An exact, JSON-able snapshot: the settings, the stacks at the start, the
        generator's state, every hand's history (the one in play last) and this break's
        votes to end."""
        self._settle()
        hands = list(self._played)
        if self.hand is not None and not self.hand.over:
            hands.append(play_of(self.hand))
        return copy.deepcopy(
            {
                "version": _STATE_VERSION,
                "rules": self.rules.to_dict(),
                "stacks": self._start_stacks,
                "rng": rng_state(self.rng),
                "hands": hands,
                "votes": [seat for seat, voted in enumerate(self._votes) if voted],
            }
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Session:
        """Restore a session saved with :meth:`to_dict` by replaying its hands through
        :meth:`new_hand`, :meth:`Hand.apply` and :meth:`vote_end`; anything malformed or
        illegal is a ``ValueError``."""
        try:
            if not isinstance(data, dict) or data.get("version") != _STATE_VERSION:
                raise ValueError(
                    f"not a saved session of version {_STATE_VERSION} (version 1 saved no "
                    "hand histories, so it cannot be replayed)"
                )
            session = cls(Rules.of(data["rules"]), stacks=data["stacks"])
            session.rng = rng_from_state(data["rng"])
            hands = data["hands"]
            if not isinstance(hands, list):
                raise ValueError(f"'hands' must be a list of hand histories, got {hands!r}")
            for number, entry in enumerate(hands, 1):
                if not isinstance(entry, dict):
                    raise ValueError(f"hand {number} is not a hand history")
                cards = entry.get("cards")
                if cards is None and session.rules.dealers_choice is None:
                    raise ValueError(f"hand {number} has no 'cards'")
                deal = {key: entry[key] for key in DEAL_FIELDS if entry.get(key) is not None}
                hand = session.new_hand(cards, entry["dealer"], **deal)
                play(hand, entry.get("actions", []))
            # Replay drew nothing a history holds: back to the saved generator state.
            session.rng.bit_generator.state = rng_from_state(data["rng"]).bit_generator.state
            votes = data.get("votes", [])
            if not isinstance(votes, list):
                raise ValueError(f"'votes' must be a list of seats, got {votes!r}")
            for seat in votes:
                session.vote_end(seat)
        except RecursionError:
            raise ValueError("malformed saved session: nested too deeply") from None
        except (KeyError, RuntimeError, ValueError) as error:
            raise ValueError(f"malformed saved session: {error}") from None
        return session
