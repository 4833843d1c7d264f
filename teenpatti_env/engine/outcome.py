"""The end of a hand: a show between the last two, the showdown with side pots
(RULES.md sections 4-6), the last player left, and the payout."""

from __future__ import annotations

from typing import Any

from teenpatti_env.cards import format_card
from teenpatti_env.engine.valuation import Valuation
from teenpatti_env.rules.betting import asker_wins
from teenpatti_env.rules.pots import divide_pot


class Outcome(Valuation):
    """Reveals hands, divides the pot (:func:`~teenpatti_env.rules.pots.divide_pot`) and
    finishes the hand; nothing here runs after :meth:`_finish`."""

    def _reveal(self, seats: list[int]) -> None:
        for seat in sorted(seats):
            self.shown[seat] = self._card_texts(seat)
        hands: list[dict[str, Any]] = [{"seat": s, "cards": self.shown[s]} for s in sorted(seats)]
        for entry in hands:  # J2: a shown hand names the card its seat bought
            bought = self.bought[entry["seat"]]
            if bought is not None:
                entry["bought"] = format_card(bought)
        self._record(None, {"type": "reveal", "hands": hands})

    def _finish(self, end: str, payouts: list[int]) -> None:
        for seat, chips in enumerate(payouts):
            self.stacks[seat] += chips
        self.pot = 0
        self.payouts = payouts
        self.end = end
        self.to_act = None
        self.pending_sideshow = None
        if self.rules.spec.visibility == "all_open":  # V2: each seat sees its own at the end
            for seat in range(self.num_seats):
                if self.dealt_in[seat] and seat not in self.shown:
                    self._record(
                        (seat,), {"type": "cards", "seat": seat, "cards": self._card_texts(seat)}
                    )
        self._record(None, {"type": "result", "end": end, "payouts": list(payouts)})

    def _last_player_wins(self) -> None:
        """The one seat left in the hand takes the pot unseen."""
        winner = next(s for s in range(self.num_seats) if self._in_hand(s))
        payouts = [0] * self.num_seats
        payouts[winner] = self.pot
        self._finish("last_player", payouts)

    def _resolve_show(self, asker: int) -> None:
        opponent = self._other_in_hand(asker)
        self._reveal([asker, opponent])
        won = asker_wins(self._hand_value(asker), self._hand_value(opponent))
        winner = asker if won else opponent
        payouts = [0] * self.num_seats
        payouts[winner] = self.pot
        self._finish("show", payouts)

    def _showdown(self) -> None:
        contenders = [s for s in self.seat_order() if self._in_hand(s)]
        self._reveal(contenders)
        values = [self._hand_value(s) if self._in_hand(s) else -1 for s in range(self.num_seats)]
        payouts = [0] * self.num_seats
        divide_pot(self._seats(), values, self.dealer, [0] * self.num_seats, payouts)
        self._finish("showdown", payouts)
