"""Dealing: a hand from given cards (``Hand(...)``) or from a shuffled deck
(``Hand.deal``), the table laid out, the boots posted and the first phase started."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import numpy as np

from teenpatti_env.cards import CardLike, check_distinct, parse_card
from teenpatti_env.engine.selection import Selection
from teenpatti_env.engine.validation import (
    _cards_per_seat,
    _parse_deal,
    _parse_public,
    _parse_reshuffles,
    dealt_cards,
    validate_table,
)
from teenpatti_env.rules import Rules, variants
from teenpatti_env.rules.betting import left_all_in

_D = TypeVar("_D", bound="Dealing")


class Dealing(Selection):
    """The constructors and the layout of a new hand's state (RULES.md section 2, D1)."""

    def __init__(
        self,
        rules: Rules,
        cards: Sequence[Sequence[CardLike] | None],
        stacks: Sequence[int] | None = None,
        dealer: int = 0,
        *,
        community: Sequence[CardLike] | None = None,
        indicators: Sequence[CardLike] | None = None,
        chosen: dict[str, Any] | None = None,
        deck: Sequence[CardLike] | None = None,
        reshuffles: Sequence[Sequence[CardLike]] | None = None,
        rng: np.random.Generator | None = None,
    ) -> None:
        """``cards[s]`` are seat ``s``'s private cards in deal order (``None`` for a seat
        that sits out; in passing the dealer's left holds six); ``community``,
        ``indicators`` and ``chosen`` are the variant's hand-history fields (VARIANTS.md
        H2, H3), required exactly when it uses them. ``deck`` is the rest of the deck, top
        first, which shopping draws from; when it runs out the discards are reshuffled
        (P7): into the orders ``reshuffles`` lists (a saved hand's, top first), then by
        ``rng`` (without one, a draw from the empty deck names its card)."""
        if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence):
            raise ValueError(f"cards must be a list with one entry per seat, got {cards!r}")
        n = len(cards)
        validate_table(rules, stacks, dealer, n)
        if stacks is None:
            stacks = [rules.starting_stack] * n
        dealt_in = [chips >= rules.entry_chips for chips in stacks]
        if sum(dealt_in) < 2:
            raise ValueError(
                f"fewer than two seats hold the {rules.entry_chips} chips needed to enter"
            )
        if rules.dealers_choice is not None:  # C1: the cards are checked once chosen
            if chosen is not None:
                raise ValueError("under dealer's choice the rank or colour is named in "
                                 "choose_variant, not in 'chosen' (H3)")
            pending = {"cards": cards, "community": community, "indicators": indicators,
                       "deck": deck, "reshuffles": reshuffles}
            self._setup_choice(rules, stacks, dealt_in, dealer, pending, rng)
            return
        cards = _parse_deal(cards, dealt_in, _cards_per_seat(rules, dealt_in, dealer))
        deal = _parse_public(rules.spec, community, indicators, chosen)
        dealt = dealt_cards(cards, deal)
        rest = None
        if deck is not None:
            if isinstance(deck, (str, bytes)) or not isinstance(deck, Sequence):
                raise ValueError(f"'deck' must be a list of cards, got {deck!r}")
            rest = [parse_card(card) for card in deck]
            if len(dealt) + len(rest) != 52:
                raise ValueError(
                    f"'deck' must list every card not dealt ({52 - len(dealt)}), got {len(rest)}"
                )
        check_distinct(dealt + (rest or []))
        recorded = _parse_reshuffles(reshuffles)
        if rng is not None and not isinstance(rng, np.random.Generator):
            raise ValueError(f"rng must be a numpy.random.Generator, got {rng!r}")
        if rest is None and rules.spec.phase == "shopping" and rng is not None:
            # A live table given only the hands: the undealt cards, shuffled, are the deck.
            undealt = sorted(set(range(52)) - set(dealt))
            rest = [undealt[i] for i in rng.permutation(len(undealt))]
        self._setup(rules, cards, stacks, dealt_in, dealer, deal, rest, rng)
        self._recorded_reshuffles = recorded

    def _setup(
        self,
        rules: Rules,
        cards: list[tuple[int, ...] | None],
        stacks: Sequence[int],
        dealt_in: list[bool],
        dealer: int,
        deal: variants.Deal,
        deck: list[int] | None = None,
        rng: np.random.Generator | None = None,
        start: bool = True,
    ) -> None:
        """Lay out a checked table (parsed cards, valid stacks and dealer), post the boots."""
        n = len(cards)
        self.rules = rules
        self.table_rules = rules
        self.choosing = False
        self.num_seats = n
        self.dealer = dealer
        self.stacks = list(stacks)
        self.dealt_in = dealt_in
        self.cards = cards
        self.hands = list(cards)
        self.variant_deal = deal
        self.deck_given = deck is not None
        self.deck = [] if deck is None else list(deck)
        self.dealt_deck = tuple(self.deck)
        self.discards = []
        self.reshuffles = []
        self._recorded_reshuffles = []
        self.rng = rng
        self.selection = None
        self.phase_done = [False] * n
        self.drew = False
        self._drawing_reshuffled = False
        self.draws = [0] * n
        self.bought = [None] * n
        self.rotations = 0
        self.parted = [()] * n
        self.burst = [False] * n
        self.contributions = [0] * n
        self.packed = [False] * n
        self.seen = [False] * n
        self.all_in = [False] * n
        self.blind_bets = [0] * n
        self._bind_seats()
        self.pot = 0
        self.stake = rules.boot
        self.to_act = None
        self.pending_sideshow = None
        self.end = None
        self.payouts = None
        self.shown = {}
        self._log = []
        self._card_log = []
        self._known_cache = {}
        self._seat_values = [None] * n
        self._set_valuation()
        if start:
            self._start()

    @classmethod
    def deal(
        cls: type[_D],
        rules: Rules,
        stacks: Sequence[int],
        dealer: int,
        rng: np.random.Generator,
    ) -> _D:
        """Deal a hand from a deck shuffled by ``rng``, one card at a time from the
        dealer's left, to every seat that can enter."""
        validate_table(rules, stacks, dealer)
        n = len(stacks)
        if not isinstance(rng, np.random.Generator):
            raise ValueError(f"rng must be a numpy.random.Generator, got {rng!r}")
        entering = [
            (dealer + 1 + i) % n
            for i in range(n)
            if stacks[(dealer + 1 + i) % n] >= rules.entry_chips
        ]
        if len(entering) < 2:
            raise ValueError(
                f"fewer than two seats hold the {rules.entry_chips} chips needed to enter"
            )
        if rules.dealers_choice is not None:  # C1: dealt once the dealer has chosen
            hand = cls.__new__(cls)
            dealt_in = [stacks[s] >= rules.entry_chips for s in range(n)]
            hand._setup_choice(rules, stacks, dealt_in, dealer, None, rng)
            return hand
        return cls._dealt(rules, stacks, dealer, rng, entering)

    @classmethod
    def _dealt(
        cls: type[_D],
        rules: Rules,
        stacks: Sequence[int],
        dealer: int,
        rng: np.random.Generator,
        entering: list[int],
        chosen: int | str | None = None,
    ) -> _D:
        n = len(stacks)
        spec = rules.spec
        if chosen is None:
            chosen = variants.draw_chosen(spec, rng.integers)  # before the deal (S2)
        per_seat = spec.private_cards
        private = per_seat * len(entering)
        shuffled = rng.permutation(52).tolist()
        deck = shuffled[: spec.cards_needed(len(entering))]
        # D1: private cards one at a time round the table (in passing the dealer's left then
        # gets its extra three), then community, then indicators.
        hands: dict[int, tuple[int, ...]] = {
            seat: tuple(deck[place:private:len(entering)]) for place, seat in enumerate(entering)
        }
        if spec.phase == "passing":
            hands[entering[0]] += tuple(deck[private : private + 3])
            private += 3
        community = tuple(deck[private : private + spec.community_cards])
        indicators = tuple(deck[private + spec.community_cards :])
        deal = variants.Deal(spec, community, indicators, chosen)
        # The cards are distinct ints from one shuffled deck: no parsing needed.
        hand = cls.__new__(cls)
        dealt_in = [seat in hands for seat in range(n)]
        cards = [hands.get(seat) for seat in range(n)]
        rest = shuffled[len(deck):] if spec.phase == "shopping" else None
        hand._setup(rules, cards, stacks, dealt_in, dealer, deal, rest, rng)
        return hand

    def _setup_choice(
        self,
        rules: Rules,
        stacks: Sequence[int],
        dealt_in: list[bool],
        dealer: int,
        pending: dict[str, Any] | None,
        rng: np.random.Generator | None,
    ) -> None:
        """C1: before the boots and the deal, the dealer chooses the hand's variant. The
        hand waits with neutral state; ``pending`` holds a history's deal (``None``: deal
        from ``rng`` once chosen)."""
        n = len(stacks)
        placeholder = rules.with_variant(variants.VARIANTS["classic"])
        self._setup(placeholder, [None] * n, stacks, dealt_in, dealer,
                    variants.Deal(placeholder.spec), None, rng, start=False)
        self.table_rules = rules
        self.choosing = True
        self._pending = pending
        self.to_act = dealer
        names = [str(spec.name) for spec in rules.choice_specs]
        # The legal choices are those the history's deal fits; the logged turn names the
        # table's variants, as it does for a deal still to come.
        self._choices = tuple(names) if pending is None else (
            self._fitting_choices())  # type: ignore[attr-defined]  # (choice.py, a subclass)
        self._record(None, {"type": "choose_turn", "seat": dealer, "variants": names})

    def _start(self) -> None:
        rules = self.rules
        self._record(
            None,
            {
                "type": "deal",
                "dealer": self.dealer,
                "seats": [s for s in range(self.num_seats) if self.dealt_in[s]],
                "boot": rules.boot,
            },
        )
        for seat in range(self.num_seats):
            if self.dealt_in[seat]:
                self._record((seat,), {"type": "dealt", "seat": seat})
                self._pay(seat, rules.boot)
                if left_all_in(rules.settings, self.stacks[seat]):
                    self.all_in[seat] = True
        if not self._classic:
            self._deal_variant()
            if self.end is not None:
                return
            if self.rules.spec.phase is not None:
                self._start_phase()
                return
        self._start_betting()
