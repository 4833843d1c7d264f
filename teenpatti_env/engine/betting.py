"""Betting (RULES.md sections 2-4 and 9): the stake, bet ranges, the blind-bet limit,
all-in, looking and packing, and the turn passing left until something ends the betting."""

from __future__ import annotations

from teenpatti_env.engine.outcome import Outcome
from teenpatti_env.rules.betting import (
    NONE,
    OK,
    amount_problem,
    bet_range,
    blind_limit_reached,
    is_short,
    look_problem,
    min_bet,
    reason,
    settle_bet,
)
from teenpatti_env.rules.turns import (
    GOES_ON,
    LAST_PLAYER_WINS,
    SHORT_TURN,
    SHOW,
    SHOWDOWN,
    after_action,
    cap_reached,
    open_betting,
    short_shows,
)


class Betting(Outcome):
    """Bet ranges and their queries, the effects of look, pack, bet and all-in, and what
    ends the betting after each action (:meth:`_after_action`)."""

    def _cap_reached(self) -> bool:
        return cap_reached(self.rules.settings, self.pot)

    def _short_shows(self, seat: int) -> bool:
        """``short_stack="showdown"``: ``seat``, about to bet, is short (RULES 9)."""
        return short_shows(self.rules.settings, self.stake, self.seen[seat], self.stacks[seat])

    def _at_blind_limit(self, seat: int) -> bool:
        return blind_limit_reached(self.rules.settings, self.seen[seat], self.blind_bets[seat])

    def _min_bet(self, seat: int) -> int:
        return min_bet(self.stake, self.seen[seat])

    def _is_short(self, seat: int) -> bool:
        return is_short(self.stake, self.seen[seat], self.stacks[seat])

    def _bet_range(self, seat: int, keep: int = 0) -> tuple[int, int] | None:
        low, high = bet_range(
            self.rules.settings, self.stake, self.seen[seat], self.stacks[seat], self.pot, keep
        )
        return (low, high) if low <= high else None

    def _may_look(self, seat: int) -> bool:
        if self.end is not None or self.choosing or not self.dealt_in[seat]:
            return False
        if look_problem(self.packed[seat], self.all_in[seat], self.seen[seat]) != OK:
            return False
        return self.rules.look_anytime or (seat == self.to_act and self.pending_sideshow is None)

    def _amount_problem(
        self, seat: int, amount: int, keep: int, what: str
    ) -> str | None:
        stake, stack = self.stake, self.stacks[seat]
        low, high = bet_range(self.rules.settings, stake, self.seen[seat], stack, self.pot, keep)
        code = amount_problem(low, high, self.seen[seat], amount)
        if code == OK:
            return None
        return reason(code, what=what, stack=stack, stake=stake, low=low, high=high,
                      amount=amount)

    def previous_player(self, seat: int) -> int | None:
        """Nearest seat to the right of ``seat`` still in the hand and not all-in."""
        return self._previous_player(self._seat(seat))

    def can_bet(self, seat: int) -> bool:
        """Whether ``seat`` is in the hand and not all-in (it takes betting turns)."""
        return self._can_bet(self._seat(seat))

    def at_blind_limit(self, seat: int) -> bool:
        """A blind seat that has used every blind bet may only pack or look."""
        return self._at_blind_limit(self._seat(seat))

    def min_bet(self, seat: int) -> int:
        """Smallest bet for the seat's status: ``S`` blind, ``2S`` seen."""
        return self._min_bet(self._seat(seat))

    def is_short(self, seat: int) -> bool:
        """Whether the seat's stack is below the smallest bet its status allows."""
        return self._is_short(self._seat(seat))

    def open_bet_range(self, seat: int) -> tuple[int, int] | None:
        """:meth:`bet_range` of a seat that takes betting turns and is not held at the
        blind-bet limit, else ``None``."""
        self._seat(seat)
        # _can_bet(seat), inline: this runs for every observation
        if not self.dealt_in[seat] or self.packed[seat] or self.all_in[seat]:
            return None
        return None if self._at_blind_limit(seat) else self._bet_range(seat)

    def bet_range(self, seat: int, keep: int = 0) -> tuple[int, int] | None:
        """``(min, max)`` of a legal bet leaving at least ``keep`` chips, or ``None``.

        Seen bets are even, so both ends are even for a seen seat.
        """
        return self._bet_range(self._seat(seat), keep)

    def _do_look(self, seat: int, amount: int | None) -> None:
        self.seen[seat] = True
        self._record(None, {"type": "look", "seat": seat})
        if self.rules.spec.visibility != "all_open":  # V2: looking changes only the price
            self._record((seat,), {"type": "cards", "seat": seat, "cards": self._card_texts(seat)})
        # short_stack="showdown": the seat about to bet may now be short (RULES 9).
        if seat == self.to_act and self.pending_sideshow is None and self._short_shows(seat):
            self._showdown()

    def _do_pack(self, seat: int, amount: int | None) -> None:
        self._fold(seat)
        self._after_action(seat)

    def _fold(self, seat: int) -> None:
        """``seat`` packs: out of the hand, its chips stay in the pot."""
        self.packed[seat] = True
        # P2, P3: a seat all-in on its boot may pack on its phase turn; packed, it is no
        # longer all-in (as a burst seat), and its boot stays in the pot.
        self.all_in[seat] = False
        self._record(None, {"type": "pack", "seat": seat})

    def _do_bet(self, seat: int, amount: int) -> None:
        self._pay(seat, amount)
        self.stake = settle_bet(self.rules.settings, self._seat_record, seat, amount)
        self._record(
            None,
            {
                "type": "bet",
                "seat": seat,
                "amount": amount,
                "blind": not self.seen[seat],
                "stake": self.stake,
            },
        )
        self._after_action(seat)

    def _do_all_in(self, seat: int, amount: int | None) -> None:
        chips = self.stacks[seat]
        self._pay(seat, chips)
        self.all_in[seat] = True
        self._record(None, {"type": "all_in", "seat": seat, "amount": chips})
        self._after_action(seat)

    def _after_action(self, actor: int, show_asker: int | None = None) -> None:
        """RULES section 4: what ends betting, in order, else the turn passes left
        (:func:`~teenpatti_env.rules.turns.after_action`)."""
        dealt_in = self.dealt_in.count(True)  # _count_in_hand, _count_can_bet, inline
        packed = self.packed.count(True)
        end, seat = after_action(
            self.rules.settings, self._seat_record, self.pot, self.stake, dealt_in - packed,
            dealt_in - packed - self.all_in.count(True), actor,
            NONE if show_asker is None else show_asker)
        if end in (GOES_ON, SHORT_TURN):
            self._turn_to(seat, actor, end)
        elif end == SHOWDOWN:
            self._showdown()
        elif end == LAST_PLAYER_WINS:
            self._last_player_wins()
        else:
            assert end == SHOW and show_asker is not None
            self._resolve_show(show_asker)

    def _turn_to(self, seat: int, origin: int, end: int) -> None:
        """The turn passed from ``origin`` (``NONE``: the first turn) to ``seat``; under
        rotating jokers a round may have ended; a short seat (``SHORT_TURN``) shows."""
        self.to_act = seat
        if self._rotating and origin != NONE:
            self._count_rotation(origin)
        if end == SHORT_TURN:
            self._showdown()

    def _start_betting(self) -> None:
        # RULES section 2: boots at the cap, or nobody left to bet against, show at once.
        end, seat = open_betting(self.rules.settings, self._seats(), self.pot, self.stake,
                                 self._count_can_bet(), self.dealer)
        if end == SHOWDOWN:
            self._showdown()
        else:
            self._turn_to(seat, NONE, end)
