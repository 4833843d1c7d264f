"""A variant's deal at the table: the cards it shows, bursts (B1-B5) and buying a joker
(J1-J2)."""

from __future__ import annotations

from typing import Any

from teenpatti_env.cards import format_card, format_cards
from teenpatti_env.cards.jokers import may_buy_joker
from teenpatti_env.engine.show import Shows
from teenpatti_env.engine.validation import _card_of


class VariantDeal(Shows):
    """What a variant's deal shows and who bursts; buying a joker."""

    def _deal_variant(self) -> None:
        """What a variant shows at the deal (public cards, open cards, and in all_open
        every other hand), then burst (B1-B5)."""
        deal = self.variant_deal
        spec = deal.spec
        public = deal.to_json()
        if spec.phase == "passing":
            public.pop("indicators", None)  # D2: turned up when the passing is over
        elif deal.hidden_indicators():
            hidden = deal.hidden_indicators()
            public["indicators"] = format_cards(
                [c for i, c in enumerate(deal.indicators) if i not in hidden]
            )
            if not public["indicators"]:
                del public["indicators"]
        if public:
            self._record(None, {"type": "table_cards", **public})
        dealt = [s for s in range(self.num_seats) if self.dealt_in[s]]
        if spec.open_private_cards:
            for seat in dealt:
                shown = format_cards(self.cards[seat][: spec.open_private_cards])  # type: ignore[index]
                self._record(None, {"type": "open_cards", "seat": seat, "cards": shown})
        if spec.visibility == "all_open":
            for seat in dealt:
                others = tuple(s for s in dealt if s != seat)
                event = {"type": "cards", "seat": seat, "cards": self._card_texts(seat)}
                self._record(others, event)
        if spec.phase is None:
            self._check_burst()

    def _check_burst(self) -> None:
        """B1-B5: seats holding a private burst card pack; none left is a void hand, one
        left takes the pot."""
        deal = self.variant_deal
        dealt = [s for s in range(self.num_seats) if self.dealt_in[s]]
        burst = [
            s for s in dealt if not self.packed[s] and deal.bursts(self.hands[s])  # type: ignore[arg-type]
        ]
        if not burst:
            return
        for seat in burst:
            self.burst[seat] = True
            self.packed[seat] = True
            self.all_in[seat] = False
        self._record(None, {"type": "burst", "seats": burst})
        left = [s for s in dealt if not self.packed[s]]
        if not left:  # B4: a void hand, every chip goes back
            self._finish("void", list(self.contributions))
        elif len(left) == 1:
            self._last_player_wins()

    def _may_buy(self, seat: int) -> bool:
        """J1: once a hand, a seen seat on its betting turn with a boot plus a chip."""
        return (
            not self._classic  # (a classic spec never buys): the common case, first
            and self.rules.spec.buy_a_joker
            and may_buy_joker(self.seen[seat], self.bought[seat] is not None,
                              self.pending_sideshow is not None, self.stacks[seat],
                              self.rules.boot)
        )

    def _buy_problem(self, seat: int, action: dict[str, Any]) -> str | None:
        if not self.rules.spec.buy_a_joker:
            return "the variant has no buy_a_joker"
        if not self._may_buy(seat):
            return "a seen seat buys once a hand, on its turn, with a boot plus a chip behind"
        card = _card_of(action.get("card"))
        if card is None or card not in (self.hands[seat] or ()):
            return f"a bought card is one of the seat's private cards, got {action.get('card')!r}"
        return None

    def _do_buy_joker(self, seat: int, amount: int | None, action: dict[str, Any]) -> None:
        card = _card_of(action["card"])
        assert card is not None
        self._pay(seat, self.rules.boot)  # P5: a contribution, not a bet
        self.bought[seat] = card
        self._forget_value(seat)
        self._record(None, {"type": "buy_joker", "seat": seat, "amount": self.rules.boot})
        self._record((seat,), {"type": "bought", "seat": seat, "card": format_card(card)})
        # P5: the pot cap is checked after a buy; J1: shortness again, as after a look.
        if self._cap_reached() or self._short_shows(seat):
            self._showdown()
