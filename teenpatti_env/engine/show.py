"""Show and sideshow (RULES.md sections 3.4-3.5): when they may be asked, what they
cost, and the sideshow's answer."""

from __future__ import annotations

from teenpatti_env.cards import format_card
from teenpatti_env.engine.betting import Betting


class Shows(Betting):
    """The show's and sideshow's rules and effects; a show is settled by
    :class:`~teenpatti_env.engine.outcome.Outcome`."""

    def _show_cost(self, seat: int) -> int:
        return self._min_bet(seat)

    def _show_problem(self, seat: int) -> str | None:
        if self._count_in_hand() != 2:
            return "a show needs exactly two players in the hand"
        opponent = self._other_in_hand(seat)
        if self.all_in[seat] or self.all_in[opponent]:
            return "no show against an all-in player"
        if self.seen[seat] and not self.seen[opponent]:
            return "a seen player may not show against a blind opponent"
        if self.stacks[seat] < self._show_cost(seat):
            return f"a show costs {self._show_cost(seat)} chips"
        return None

    def _sideshow_target(self, seat: int) -> int | None:
        return self._previous_player(seat, self.rules.sideshow_target == "previous_seen")

    def _sideshow_problem(self, seat: int) -> str | None:
        rules = self.rules
        if not rules.sideshow:
            return "sideshows are off at this table"
        if not self.seen[seat]:
            return "a blind player cannot ask for a sideshow"
        if self._count_in_hand() < 3:
            return "a sideshow needs at least three players in the hand"
        if rules.sideshow_requires_all_seen and not all(
            self.seen[s] for s in range(self.num_seats) if self._in_hand(s)
        ):
            return "a sideshow needs every player in the hand to have seen"
        target = self._sideshow_target(seat)
        if target is None or not self.seen[target]:
            return "the sideshow target has not seen"
        if self._bet_range(seat, keep=1) is None:
            return "no chaal that leaves a chip behind"
        return None

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
        self.stake = amount // 2
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
        # On a tie the asker packs.
        loser = target if self._hand_value(asker) > self._hand_value(target) else asker
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
