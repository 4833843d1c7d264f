"""The selection phases before betting (VARIANTS.md Phases, P1-P9): discard one,
shopping (draw and discard, keep) and passing."""

from __future__ import annotations

from typing import Any

from teenpatti_env.cards import format_card, format_cards, parse_card
from teenpatti_env.engine.phase_rules import (
    PHASE_CODES,
    first_phase_turn,
    may_draw,
    next_phase_turn,
    pass_receiver,
    sees_at_start,
)
from teenpatti_env.engine.state import PHASES
from teenpatti_env.engine.validation import _card_of
from teenpatti_env.engine.variant_deal import VariantDeal


class Selection(VariantDeal):
    """One phase turn at a time from the dealer's left; when the phase is over the
    bursts are checked and the betting starts."""

    def _start_phase(self) -> None:
        """VARIANTS.md Phases: one selection phase before betting, from the dealer's left."""
        kind = self.rules.spec.phase
        assert kind in PHASES
        self.selection = kind
        if sees_at_start(PHASE_CODES[kind]):  # P1: every seat sees its cards at once
            for seat in range(self.num_seats):
                if self.dealt_in[seat]:
                    self.seen[seat] = True
                    self._tell_cards(seat)
        first = first_phase_turn(self.dealt_in, self.dealer, self.num_seats)
        self.to_act = first
        self._record(None, {"type": "phase", "phase": kind, "to_act": first})

    def _tell_cards(self, seat: int) -> None:
        self._forget_value(seat)
        self._record((seat,), {"type": "cards", "seat": seat, "cards": self._card_texts(seat)})

    def _may_draw(self, seat: int) -> bool:
        """P6: a boot plus a chip behind, and a card to draw."""
        return may_draw(self.all_in[seat], self.stacks[seat], self.rules.boot,
                        len(self.deck) + len(self.discards))

    def _phase_legal(self, seat: int) -> list[dict[str, Any]]:
        held = self._card_texts(seat)
        kind = self.selection
        if kind == "discard_one" or (kind == "shopping" and self.drew):
            return [{"type": "pack"}, {"type": "discard", "cards": held}]
        if kind == "passing":
            return [{"type": "pack"}, {"type": "pass", "cards": held, "count": 3}]
        actions: list[dict[str, Any]] = [{"type": "pack"}]
        if self._may_draw(seat):
            actions.append({"type": "draw"})
        actions.append({"type": "keep"})
        return actions

    def _phase_problem(self, seat: int, kind: str, action: dict[str, Any]) -> str | None:
        phase = self.selection
        if kind == "look":
            return None  # checked by the caller's look rules
        if kind == "pack":
            return None
        if kind == "draw" and not self.deck_given and self.rng is None and not self.discards:
            return "the history has no 'deck' to draw from (H2)"
        allowed = {item["type"] for item in self._phase_legal(seat)}
        if kind not in allowed:
            return f"the {phase} phase comes first: only {', '.join(sorted(allowed))}"
        held = self.hands[seat] or ()
        if kind == "discard":
            card = _card_of(action.get("card"))
            if card is None or card not in held:
                return f"a discard names one of the seat's cards, got {action.get('card')!r}"
        elif kind == "pass":
            cards = action.get("cards")
            if not isinstance(cards, list) or len(cards) != 3:
                return f"a pass names three of the seat's cards, got {cards!r}"
            parsed = [_card_of(card) for card in cards]
            if None in parsed or len(set(parsed)) != 3 or not set(parsed) <= set(held):
                return f"a pass names three different cards the seat holds, got {cards!r}"
        elif kind == "draw":
            return self._draw_problem(action)
        return None

    def _draw_problem(self, action: dict[str, Any]) -> str | None:
        """P7: a draw takes the top card; once the deck ran out, of the reshuffled discards."""
        named = "card" in action
        card = _card_of(action.get("card"))
        if named and card is None:
            return f"a draw names a card, got {action.get('card')!r}"
        top = self.deck[0] if self.deck else None
        if top is None and self._recorded_reshuffles:
            order = self._recorded_reshuffles[0]
            if sorted(order) != sorted(self.discards):
                return (f"reshuffle {len(self.reshuffles)} must hold exactly the "
                        f"{len(self.discards)} discards")
            top = order[0]
        if top is not None:
            return "a draw takes the top card of the deck" if named and card != top else None
        if named:
            return None if card in self.discards else (
                f"a draw after the deck ran out names a discard, got {action['card']!r}")
        if self.rng is None:
            return "the deck ran out: a draw from the reshuffled discards names its card (P7)"
        return None

    def _do_discard(self, seat: int, amount: int | None, action: dict[str, Any]) -> None:
        card = _card_of(action["card"])
        assert card is not None
        self.hands[seat] = tuple(c for c in self.hands[seat] or () if c != card)
        self.parted[seat] = (*self.parted[seat], card)
        self.discards.append(card)
        self._record(None, {"type": "discard", "seat": seat})
        self._record((seat,), {"type": "discarded", "seat": seat, "card": format_card(card)})
        self._tell_cards(seat)
        if self.selection == "discard_one":
            self.phase_done[seat] = True
        else:
            self.drew = False
            if self._cap_reached():  # P5: after a completed shopping turn
                self._showdown()
                return
        self._after_phase_action(seat)

    def _do_draw(self, seat: int, amount: int | None, action: dict[str, Any]) -> None:
        if not self.deck:  # P7: only the discards go back, shuffled
            if self._recorded_reshuffles or ("card" not in action and self.rng is not None):
                order = (self._recorded_reshuffles.pop(0) if self._recorded_reshuffles else
                         tuple(self.discards[i] for i in self.rng.permutation(len(self.discards))))  # type: ignore[union-attr]
                self.reshuffles.append(order)
                self.deck = list(order)
                self.discards = []
                self._record(None, {"type": "reshuffle", "cards": len(self.deck)})
            else:  # a history's named card, with no reshuffle order recorded
                card = parse_card(action["card"])
                self.discards.remove(card)
                self.deck = [card]
            self._drawing_reshuffled = True  # from now on a history names each draw
        card = self.deck.pop(0)
        boot = self.rules.boot
        self._pay(seat, boot)  # P5: a contribution, not a bet
        self.seen[seat] = True  # P1: a draw makes the seat seen
        self.hands[seat] = (*(self.hands[seat] or ()), card)
        self.draws[seat] += 1
        self.drew = True
        self._record(None, {"type": "draw", "seat": seat, "amount": boot})
        self._record(
            (seat,),
            {"type": "drawn", "seat": seat, "card": format_card(card),
             "named": self._drawing_reshuffled},
        )
        self._tell_cards(seat)

    def _do_keep(self, seat: int, amount: int | None, action: dict[str, Any]) -> None:
        self.phase_done[seat] = True
        self._record(None, {"type": "keep", "seat": seat})
        self._after_phase_action(seat)

    def _do_pass(self, seat: int, amount: int | None, action: dict[str, Any]) -> None:
        passed = [_card_of(card) for card in action["cards"]]
        self.hands[seat] = tuple(c for c in self.hands[seat] or () if c not in passed)
        self.parted[seat] = (*self.parted[seat], *passed)  # type: ignore[arg-type]
        texts = format_cards(passed)  # type: ignore[arg-type]
        # P9: the last seat dealt in (the dealer, or the seat before a dealer who sits
        # out) discards its extra three out of play.
        to = pass_receiver(self.dealt_in, self.dealer, seat, self.num_seats)
        receiver = None if to < 0 else to
        self._record(None, {"type": "pass", "seat": seat, "to": receiver})
        self._record((seat,), {"type": "passed", "seat": seat, "cards": texts})
        self._tell_cards(seat)
        if receiver is not None:
            self.hands[receiver] = (*(self.hands[receiver] or ()), *passed)  # type: ignore[arg-type]
            self._record((receiver,), {"type": "received", "seat": receiver, "cards": texts})
            self._tell_cards(receiver)
            self.to_act = receiver
        else:
            self._end_phase()

    def _after_phase_action(self, actor: int) -> None:
        """The next phase turn, or the end of the phase (P2-P4, P9)."""
        if self._count_in_hand() == 1:
            self._last_player_wins()
            return
        kind = self.selection
        if kind == "passing":  # a seat holding six packed: the others keep their three
            self._end_phase()
            return
        # discard_one: one turn each; shopping: rounds until every seat has kept.
        following = next_phase_turn(self.dealt_in, self.packed, self.phase_done, actor,
                                    self.num_seats)
        if following >= 0:
            self.to_act = following
            return
        self._end_phase()

    def _do_pack(self, seat: int, amount: int | None) -> None:
        if self.selection is None:
            super()._do_pack(seat, amount)
            return
        self._fold(seat)
        self.drew = False
        self._after_phase_action(seat)

    def _end_phase(self) -> None:
        self.selection = None
        self.drew = False
        self._record(None, {"type": "phase_over"})
        if self.rules.spec.phase == "passing":  # D2: the indicators are turned up now
            indicators = self.variant_deal.to_json().get("indicators")
            if indicators:
                self._record(None, {"type": "table_cards", "indicators": indicators})
        self._forget_values()
        self._check_burst()
        if self.end is None:
            self._start_betting()
