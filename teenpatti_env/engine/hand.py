"""One hand of Teen Patti as a state machine (RULES.md sections 2-6 and 9).

Vocabulary, used the same way everywhere in the package:

* **boot**: the chips every seat posts before the deal; it is also the opening stake.
* **stake** ``S``: the running price. A **blind** seat (has not looked) bets ``S..k*S``
  and its bet becomes the stake; a **seen** seat bets (**chaal**) an even ``2S..2k*S``
  and half of it becomes the stake.
* **pack**: give up the hand. **show**: the last two compare hands, the asker pays.
  **sideshow**: a seen seat pays a chaal and asks its previous player to compare
  privately; the lower hand packs.
* **all-in**: a short seat puts in what it has left and takes no further action.

A ``Hand`` is built from the dealt cards and the stacks, posts the boots, and then
takes one action at a time through :meth:`Hand.apply`. An illegal action raises
:class:`IllegalActionError` and changes nothing. The event log records what each seat
may know (:meth:`Hand.events_for`).

``Hand`` is the top of a stack of parts, one concern per module (``docs/design.md``);
this module adds the one-call shortcuts, copies and snapshots."""

from __future__ import annotations

from typing import Any

from teenpatti_env.engine import records
from teenpatti_env.engine.referee import Referee

# Per-seat state lists (copied by Hand.copy; cards hold tuples, so a list copy suffices).
_SEAT_LISTS = (
    "stacks", "dealt_in", "cards", "hands", "contributions", "packed", "seen", "all_in",
    "blind_bets",
    "burst", "_seat_values", "phase_done", "deck", "discards", "draws", "parted", "bought",
)  # fmt: skip


class Hand(Referee):
    """One hand: boots, betting, show, sideshow, showdown and the payout.

    Seats are ``0..n-1``; seat ``s`` passes to ``s + 1 mod n`` (its left).
    """

    def look(self, seat: int) -> None:
        """``seat`` looks at its cards (on or off its turn, as the rules allow)."""
        self.apply({"seat": seat, "type": "look"})

    def pack(self) -> None:
        """The seat to act packs."""
        self.apply({"seat": self.to_act, "type": "pack"})

    def bet(self, amount: int) -> None:
        """The seat to act bets ``amount`` chips (blind or seen)."""
        self.apply({"seat": self.to_act, "type": "bet", "amount": amount})

    def go_all_in(self) -> None:
        """The (short) seat to act puts in the rest of its stack."""
        self.apply({"seat": self.to_act, "type": "all_in"})

    def show(self) -> None:
        """The seat to act pays for a show."""
        self.apply({"seat": self.to_act, "type": "show"})

    def sideshow(self, amount: int) -> None:
        """The seat to act pays a chaal of ``amount`` and asks for a sideshow."""
        self.apply({"seat": self.to_act, "type": "sideshow", "amount": amount})

    def accept(self) -> None:
        """The sideshow target accepts."""
        self.apply({"seat": self.to_act, "type": "accept"})

    def refuse(self) -> None:
        """The sideshow target refuses."""
        self.apply({"seat": self.to_act, "type": "refuse"})

    def hand_value(self, seat: int) -> int:
        """The value of ``seat``'s hand under the table's ranking (higher is better)."""
        if self.choosing:
            raise ValueError("no hand has a value before the dealer's choice and the deal")
        return self._hand_value(self._dealt_seat(seat))

    def copy(self) -> Hand:
        """An independent copy of the hand, for looking ahead or keeping a past state.

        Cheap: the per-seat lists and the log are copied; logged events, which are never
        changed once recorded, are shared.
        """
        other = Hand.__new__(Hand)
        other.__dict__.update(self.__dict__)
        for name in _SEAT_LISTS:
            setattr(other, name, list(getattr(self, name)))
        other._bind_seats()
        other.payouts = None if self.payouts is None else list(self.payouts)
        other.shown = {seat: list(cards) for seat, cards in self.shown.items()}
        other.reshuffles = list(self.reshuffles)
        other._recorded_reshuffles = list(self._recorded_reshuffles)
        other._log = list(self._log)
        other._card_log = list(self._card_log)
        other._known_cache = dict(self._known_cache)
        return other

    def to_dict(self) -> dict[str, Any]:
        """An exact, JSON-able snapshot: the hand's history (a superset of the
        ``teenpatti-hand/1`` format, see :func:`teenpatti_env.engine.history.snapshot`)."""
        return records.snapshot(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Hand:
        """Restore a hand saved with :meth:`to_dict` by replaying its history; a malformed
        or illegal one is a ``ValueError``."""
        return records.restore(cls, data)
