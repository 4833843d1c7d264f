"""Valuation: what each seat's hand is worth now, and the chips and rounds that change
it (threshold indicators turn up as the pot grows, T1-T2; wild ranks rotate, R1-R2)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from teenpatti_env.cards import format_cards
from teenpatti_env.cards.jokers import lowest_rank, rotation_owner, round_ended, thresholds_reached
from teenpatti_env.engine.knowledge import Knowledge
from teenpatti_env.rules import variants


class Valuation(Knowledge):
    """Hand values (cached per seat until something changes them), ``_pay`` (every chip
    into the pot goes through it) and the variant's thresholds and rotations."""

    def _set_valuation(self) -> None:
        """How seats are valued: the classic lookup, or the variant's deal."""
        rules = self.rules
        self._thresholds = self.variant_deal.thresholds
        self._rotating = "rotating_lowest" in rules.spec.wild_kinds
        self._boots_total = rules.boot * sum(self.dealt_in)
        self._values = variants.value_table(rules)
        self._classic = rules.spec.is_classic
        self._ranking = (rules.best_sequence, rules.ranking_lowball)

    def _pay(self, seat: int, chips: int) -> None:
        self.stacks[seat] -= chips
        self.contributions[seat] += chips
        self.pot += chips
        if self._thresholds:
            self._turn_up_thresholds()

    @property
    def beyond_boots(self) -> int:
        """Chips paid into the pot beyond the boots (T1)."""
        return max(0, sum(self.contributions) - self._boots_total)

    def _turn_up_thresholds(self) -> None:
        """T1, T2: each threshold indicator turns up when the chips paid beyond the boots
        first reach its threshold (one payment may turn several), before anything the
        payment triggers."""
        deal = self.variant_deal
        beyond = sum(self.contributions) - self._boots_total
        reached = thresholds_reached(self._thresholds, len(self._thresholds), beyond)
        if reached <= deal.revealed:
            return
        positions = sorted(deal.hidden_indicators())
        shown = [deal.indicators[p] for p in positions[: reached - deal.revealed]]
        self.variant_deal = dataclasses.replace(deal, revealed=reached)
        self._forget_values()
        self._record(None, {"type": "indicators_up", "cards": format_cards(shown),
                            "beyond_boots": beyond})

    def _count_rotation(self, origin: int) -> None:
        """R1: a full betting round ends when the turn (passed on by ``origin``) reaches a
        position at or before the last actor's (positions from the dealer's left, the
        dealer last); the wild ranks then rotate."""
        if round_ended(self.to_act, origin, self.dealer, self.num_seats):  # type: ignore[arg-type]
            self.rotations += 1
            self._forget_values()
            self._record(None, {"type": "rotate", "rotations": self.rotations})

    def _forget_value(self, seat: int) -> None:
        """``seat``'s cards changed (a draw, a discard, a pass, a bought joker)."""
        self._seat_values[seat] = None

    def _forget_values(self) -> None:
        """Every value may have changed (wilds turned up or rotated, a phase over)."""
        self._seat_values = [None] * self.num_seats

    def _hand_value(self, seat: int) -> int:
        value = self._seat_values[seat]
        if value is None:
            cards = self.hands[seat]
            assert cards is not None
            value = self._value_of(seat, cards)
            self._seat_values[seat] = value
        return value

    def _value_of(self, seat: int, cards: Sequence[int]) -> int:
        """The value ``seat`` would have holding ``cards`` (its wild cards as now)."""
        if self._classic:
            return variants.seat_value(cards, self._values)
        return self.variant_deal.value(
            cards, *self._ranking, self.rotating_rank(seat), self.bought[seat]
        )

    def values_after_discard(self, seat: int) -> list[int]:
        """The value of ``seat``'s hand without each of its cards in turn, in slot order:
        what each ``discard_k`` would leave it."""
        if self.choosing:
            raise ValueError("no hand has a value before the dealer's choice and the deal")
        cards = self.hands[self._dealt_seat(seat)]
        assert cards is not None
        return [self._value_of(seat, cards[:k] + cards[k + 1:]) for k in range(len(cards))]

    def usable_cards(self, seat: int) -> tuple[list[int], list[bool]]:
        """The cards ``seat``'s hand is valued from (its own and the community cards) and
        which of them are wild for it now."""
        cards = self.hands[seat]
        assert cards is not None
        if self._classic:
            return list(cards), [False] * len(cards)
        return self.variant_deal.usable_cards(cards, self.rotating_rank(seat), self.bought[seat])

    def rotating_rank(self, seat: int) -> int | None:
        """``seat``'s wild rank under rotating jokers now (R2: the starting lowest rank of
        the seat ``rotations`` places to its right in the ring of seats dealt in; S1: of
        the cards it keeps once any phase is over)."""
        if not self._rotating or not self.dealt_in[seat]:
            return None
        owner = rotation_owner(self.dealt_in, self.num_seats, seat, self.rotations)
        cards = self.hands[owner]
        assert cards is not None
        return lowest_rank(cards, len(cards))

    def visible_indicators(self) -> tuple[int, ...]:
        """The indicators face up now (D2: passing's turn up when the passing is over)."""
        if self.selection == "passing":
            return ()
        deal = self.variant_deal
        hidden = deal.hidden_indicators()
        if not hidden:
            return deal.indicators
        return tuple(c for i, c in enumerate(deal.indicators) if i not in hidden)
