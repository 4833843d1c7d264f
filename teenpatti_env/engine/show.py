"""Show and sideshow (RULES.md sections 3.4-3.5): when they may be asked, what they
cost, and the sideshow's answer."""

from __future__ import annotations

from teenpatti_env.cards import format_card
from teenpatti_env.engine.betting import Betting
from teenpatti_env.rules.betting import (
    NONE,
    asker_wins,
    bet_stake,
    show_cost,
    sideshow_target,
)


class Shows(Betting):
    """The show's and sideshow's rules and effects; a show is settled by
    :class:`~teenpatti_env.engine.outcome.Outcome`."""

    def _show_cost(self, seat: int) -> int:
        return show_cost(self.stake, self.seen[seat])

    def _sideshow_target(self, seat: int) -> int | None:
        target = sideshow_target(self.rules.settings, seat, self._seats())
        return None if target == NONE else target

    def sideshow_target(self, seat: int) -> int | None:
        """Whom ``seat`` would ask for a sideshow under the ``sideshow_target`` setting."""
        return self._sideshow_target(self._seat(seat))

    def show_cost(self, seat: int) -> int:
        """What a show costs the asker: the minimum bet for its status."""
        return self._show_cost(self._seat(seat))

    def _do_show(self, seat: int, amount: int | None) -> None:
        cost = self._show_cost(seat)
        self._pay(seat, cost)
        self._record(None, {"type": "show", "seat": seat, "amount": cost})
        self._after_action(seat, show_asker=seat)

    def _do_sideshow(self, seat: int, amount: int) -> None:
        target = self._sideshow_target(seat)
        assert target is not None
        self.stake = bet_stake(True, amount)  # a chaal: the asker has seen
        self._pay(seat, amount)
        self._record(
            None,
            {
                "type": "sideshow",
                "seat": seat,
                "target": target,
                "amount": amount,
                "stake": self.stake,
            },
        )
        if self._cap_reached():
            # RULES 3.5: the chaal reached the cap, the request is cancelled.
            self._showdown()
            return
        self.pending_sideshow = (seat, target)
        self.to_act = target

    def _do_accept(self, seat: int, amount: int | None) -> None:
        assert self.pending_sideshow is not None
        asker, target = self.pending_sideshow
        self.pending_sideshow = None
        won = asker_wins(self._hand_value(asker), self._hand_value(target))
        loser = target if won else asker
        self.packed[loser] = True
        if self.rules.sideshow_reveal == "private":
            for viewer, shown in ((asker, target), (target, asker)):
                event = {"type": "sideshow_reveal", "seat": shown,
                         "cards": self._card_texts(shown)}
                if self.bought[shown] is not None:  # J2
                    event["bought"] = format_card(self.bought[shown])  # type: ignore[arg-type]
                self._record((viewer,), event)
        self._record(
            None,
            {
                "type": "sideshow_result",
                "asker": asker,
                "target": target,
                "accepted": True,
                "packed": loser,
            },
        )
        self._after_action(asker)

    def _do_refuse(self, seat: int, amount: int | None) -> None:
        assert self.pending_sideshow is not None
        asker, target = self.pending_sideshow
        self.pending_sideshow = None
        self._record(
            None, {"type": "sideshow_result", "asker": asker, "target": target, "accepted": False}
        )
        self._after_action(asker)
