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
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from teenpatti_env import variants
from teenpatti_env.cards import (
    CardLike,
    check_distinct,
    format_card,
    format_cards,
    parse_card,
    rank_of,
)
from teenpatti_env.errors import IllegalActionError
from teenpatti_env.pots import divide_pot
from teenpatti_env.rules import MAX_TABLE_CHIPS, Rules

ACTION_TYPES = (
    "look", "pack", "bet", "all_in", "show", "sideshow", "accept", "refuse",
    "discard", "draw", "keep", "pass", "buy_joker", "choose_variant",
)  # fmt: skip
"""Every action type: a classic hand's, in the order ``legal_actions`` lists them, then
the selection phases' (VARIANTS.md Phases, H4)."""
PHASE_TYPES = ("discard", "draw", "keep", "pass")
PHASES = ("discard_one", "shopping", "passing")

_AMOUNT_TYPES = ("bet", "sideshow")
RANK_TEXTS = "23456789TJQKA"
TABLE_CARD_FIELDS = ("community", "indicators", "chosen", "deck")
"""A variant's deal fields of a hand history beside ``cards`` (VARIANTS.md H2, H3)."""

Event = dict[str, Any]
_Known = tuple[int, dict[int, list[str]], tuple[int, ...], dict[int, tuple[int, ...]]]
"""A viewer's known cards: log length read, texts by seat, seats in order, ints by seat."""


# Per-seat state lists (copied by Hand.copy; cards hold tuples, so a list copy suffices).
_SEAT_LISTS = (
    "stacks", "dealt_in", "cards", "hands", "contributions", "packed", "seen", "all_in",
    "blind_bets",
    "burst", "_seat_values", "phase_done", "deck", "discards", "draws", "parted", "bought",
)  # fmt: skip


class Hand:
    """One hand: boots, betting, show, sideshow, showdown and the payout.

    Seats are ``0..n-1``; seat ``s`` passes to ``s + 1 mod n`` (its left).
    """

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
        """The table's rules (with dealer's choice, ``rules`` are the chosen variant's)."""
        self.choosing = False
        """C1: the dealer has yet to choose the hand's variant."""
        self.num_seats = n
        self.dealer = dealer
        self.stacks = list(stacks)
        self.dealt_in = dealt_in
        self.cards = cards
        self.hands = list(cards)
        """Each seat's private cards now, in hand order (VARIANTS.md V4: deal order, a
        drawn or received card appended, a discarded or passed one removed); ``cards``
        keeps the deal (H1)."""
        self.variant_deal = deal
        self.deck_given = deck is not None
        self.deck: list[int] = [] if deck is None else list(deck)
        """The rest of the deck, top first (shopping draws from it)."""
        self.dealt_deck: tuple[int, ...] = tuple(self.deck)
        self.discards: list[int] = []
        """Cards discarded this hand (shopping reshuffles them when the deck runs out)."""
        self.reshuffles: list[tuple[int, ...]] = []
        """The deck after each reshuffle so far, top first (P7)."""
        self._recorded_reshuffles = []
        """A saved hand's reshuffles not yet replayed, used before ``rng``."""
        self.rng = rng
        self.selection: str | None = None
        """The selection phase running now (``discard_one``, ``shopping``, ``passing``)."""
        self.phase_done = [False] * n
        """Shopping: the seat kept; discard_one: the seat discarded."""
        self.drew = False
        """Shopping: the seat to act drew and must discard."""
        self._drawing_reshuffled = False
        self.draws = [0] * n
        """Shopping draws per seat (public)."""
        self.bought: list[int | None] = [None] * n
        """The card each seat bought wild (buy_a_joker; known only to that seat)."""
        self.rotations = 0
        """Full betting rounds so far under rotating jokers (R1; public)."""
        self.parted: list[tuple[int, ...]] = [()] * n
        """The cards each seat discarded or passed on (known only to that seat)."""
        self.burst = [False] * n
        self.contributions = [0] * n
        self.packed = [False] * n
        self.seen = [False] * n
        self.all_in = [False] * n
        self.blind_bets = [0] * n
        self.pot = 0
        self.stake = rules.boot
        self.to_act: int | None = None
        self.pending_sideshow: tuple[int, int] | None = None
        self.end: str | None = None
        self.payouts: list[int] | None = None
        self.shown: dict[int, list[str]] = {}
        self._log: list[tuple[tuple[int, ...] | None, Event]] = []
        self._known_cache: dict[int | None, _Known] = {}
        self._seat_values: list[int | None] = [None] * n
        self._set_valuation()
        if start:
            self._start()

    def _set_valuation(self) -> None:
        """How seats are valued: the classic lookup, or the variant's deal."""
        rules = self.rules
        self._thresholds = self.variant_deal.thresholds
        self._rotating = "rotating_lowest" in rules.spec.wild_kinds
        self._boots_total = rules.boot * sum(self.dealt_in)
        self._values = variants.value_table(rules)
        self._classic = rules.spec.is_classic
        self._ranking = (rules.best_sequence, rules.ranking_lowball)

    # ----------------------------------------------------------------- construction

    @classmethod
    def deal(
        cls,
        rules: Rules,
        stacks: Sequence[int],
        dealer: int,
        rng: np.random.Generator,
    ) -> Hand:
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
        cls,
        rules: Rules,
        stacks: Sequence[int],
        dealer: int,
        rng: np.random.Generator,
        entering: list[int],
        chosen: int | str | None = None,
    ) -> Hand:
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

    # ----------------------------------------------------------------- dealer's choice

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
        names = [spec.name for spec in rules.choice_specs]
        self._record(None, {"type": "choose_turn", "seat": dealer, "variants": names})

    def _choice_problem(self, seat: int, kind: str, action: dict[str, Any]) -> str | None:
        if kind != "choose_variant":
            return "the dealer chooses the variant first (dealer's choice)"
        if seat != self.dealer:
            return f"only the dealer (seat {self.dealer}) chooses the variant"
        spec = self._choice_spec(action.get("variant"))
        if spec is None:
            names = [s.name for s in self.table_rules.choice_specs]
            return f"choose one of {', '.join(map(str, names))}, got {action.get('variant')!r}"
        needs = spec.chooses
        for key in ("rank", "colour"):
            if key in action and key != needs:
                return f"{spec.name} names no {key}"
        if needs is not None:
            if needs not in action:
                return f"{spec.name} needs a {needs}"
            try:
                variants.parse_chosen(spec, {needs: action[needs]})
            except ValueError as error:
                return str(error)
        if self._pending is None:
            if self.rng is None:
                return "the hand has no deal: neither the history's cards nor an rng"
            return None
        try:  # the history's deal must fit the chosen variant (built without the rng)
            self._chosen_hand(spec, action, None)
        except ValueError as error:
            return f"the history's deal does not fit {spec.name}: {error}"
        return None

    def _choice_spec(self, name: Any) -> variants.VariantSpec | None:
        return next((s for s in self.table_rules.choice_specs if s.name == name), None)

    def _chosen_hand(
        self, spec: variants.VariantSpec, action: dict[str, Any], rng: np.random.Generator | None
    ) -> Hand:
        """The hand the dealer's choice deals: the history's deal, or one from ``rng``."""
        rules = self.table_rules.with_variant(spec)
        chosen = None if spec.chooses is None else {spec.chooses: action[spec.chooses]}
        pending = self._pending
        if pending is None:
            n = self.num_seats
            entering = [(self.dealer + 1 + i) % n for i in range(n)
                        if self.dealt_in[(self.dealer + 1 + i) % n]]
            return Hand._dealt(rules, self.stacks, self.dealer, rng, entering,  # type: ignore[arg-type]
                               variants.parse_chosen(spec, chosen))
        return Hand(rules, pending["cards"], self.stacks, self.dealer,
                    community=pending["community"], indicators=pending["indicators"],
                    chosen=chosen, deck=pending["deck"], reshuffles=pending["reshuffles"],
                    rng=rng)

    def _do_choose_variant(self, seat: int, amount: int | None, action: dict[str, Any]) -> None:
        spec = cast(variants.VariantSpec, self._choice_spec(action["variant"]))  # checked
        table = self.table_rules
        event: dict[str, Any] = {"type": "choose_variant", "seat": seat, "variant": spec.name}
        if spec.chooses is not None:
            event[spec.chooses] = action[spec.chooses]
        log = [*self._log, (None, event)]
        self.__dict__.update(self._chosen_hand(spec, action, self.rng).__dict__)
        self.table_rules = table
        self._log = log + self._log
        self._known_cache = {}

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
                if self.stacks[seat] == 0 and rules.short_stack != "pack":
                    self.all_in[seat] = True
        if not self._classic:
            self._deal_variant()
            if self.end is not None:
                return
            if self.rules.spec.phase is not None:
                self._start_phase()
                return
        self._start_betting()

    def _start_betting(self) -> None:
        # RULES section 2: boots at the cap, or nobody left to bet against, show at once.
        if self._cap_reached() or self._count_can_bet() <= 1 or self._empty_stack_showdown():
            self._showdown()
            return
        self._pass_turn(self.dealer, first=True)

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

    # ----------------------------------------------------------------- selection phases

    def _start_phase(self) -> None:
        """VARIANTS.md Phases: one selection phase before betting, from the dealer's left."""
        kind = self.rules.spec.phase
        assert kind in PHASES
        self.selection = kind
        if kind in ("discard_one", "passing"):  # P1: every seat sees its cards at once
            for seat in range(self.num_seats):
                if self.dealt_in[seat]:
                    self.seen[seat] = True
                    self._tell_cards(seat)
        first = next(s for s in self.seat_order() if self.dealt_in[s])
        self.to_act = first
        self._record(None, {"type": "phase", "phase": kind, "to_act": first})

    def _tell_cards(self, seat: int) -> None:
        self._seat_values[seat] = None
        self._record((seat,), {"type": "cards", "seat": seat, "cards": self._card_texts(seat)})

    def _may_draw(self, seat: int) -> bool:
        """P6: a boot plus a chip behind, and a card to draw."""
        return (
            not self.all_in[seat]
            and self.stacks[seat] >= self.rules.boot + 1
            and bool(self.deck or self.discards)
        )

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
        last = next(s for s in reversed(self.seat_order()) if self.dealt_in[s])
        receiver = None if seat == last else self._next_dealt(seat)
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

    def _next_dealt(self, seat: int) -> int:
        n = self.num_seats
        return next(s for s in ((seat + i) % n for i in range(1, n)) if self.dealt_in[s])

    def _after_phase_action(self, actor: int) -> None:
        """The next phase turn, or the end of the phase (P2-P4, P9)."""
        if self._count_in_hand() == 1:
            self._last_player_wins()
            return
        kind = self.selection
        if kind == "passing":  # a seat holding six packed: the others keep their three
            self._end_phase()
            return
        n = self.num_seats
        # discard_one: one turn each; shopping: rounds until every seat has kept.
        for seat in ((actor + i) % n for i in range(1, n + 1)):
            if self._in_hand(seat) and not self.phase_done[seat]:
                self.to_act = seat
                return
        self._end_phase()

    def _end_phase(self) -> None:
        self.selection = None
        self.drew = False
        self._record(None, {"type": "phase_over"})
        if self.rules.spec.phase == "passing":  # D2: the indicators are turned up now
            indicators = self.variant_deal.to_json().get("indicators")
            if indicators:
                self._record(None, {"type": "table_cards", "indicators": indicators})
        for seat in range(self.num_seats):
            self._seat_values[seat] = None
        self._check_burst()
        if self.end is None:
            self._start_betting()

    # ----------------------------------------------------------------- queries

    def _in_hand(self, seat: int) -> bool:
        return self.dealt_in[seat] and not self.packed[seat]

    def _can_bet(self, seat: int) -> bool:
        return self.dealt_in[seat] and not self.packed[seat] and not self.all_in[seat]

    # Only seats dealt in pack or go all-in, and never both: counting flags is exact.
    def _count_in_hand(self) -> int:
        return self.dealt_in.count(True) - self.packed.count(True)

    def _count_can_bet(self) -> int:
        return self.dealt_in.count(True) - self.packed.count(True) - self.all_in.count(True)

    def _cap_reached(self) -> bool:
        return self.rules.pot_cap is not None and self.pot >= self.rules.pot_cap

    def _empty_stack_showdown(self) -> bool:
        """``short_stack="showdown"``: a payment left a seat in the hand with no chips."""
        return self.rules.short_stack == "showdown" and any(
            self._in_hand(s) and self.stacks[s] == 0 for s in range(self.num_seats)
        )

    @property
    def phase(self) -> str:
        """The selection phase running (``"discard_one"``, ``"shopping"``,
        ``"passing"``), ``"betting"`` or ``"over"``."""
        if self.end is not None:
            return "over"
        return self.selection or "betting"

    def visible_indicators(self) -> tuple[int, ...]:
        """The indicators face up now (D2: passing's turn up when the passing is over)."""
        if self.selection == "passing":
            return ()
        deal = self.variant_deal
        hidden = deal.hidden_indicators()
        if not hidden:
            return deal.indicators
        return tuple(c for i, c in enumerate(deal.indicators) if i not in hidden)

    @property
    def over(self) -> bool:
        """Whether the hand is finished (the pot is paid out)."""
        return self.end is not None

    @property
    def net(self) -> list[int] | None:
        """Chips received minus chips put in, per seat; ``None`` while not over."""
        if self.payouts is None:
            return None
        return [p - c for p, c in zip(self.payouts, self.contributions, strict=True)]

    def seat_order(self) -> list[int]:
        """All seats from the dealer's left, the dealer last."""
        n = self.num_seats
        return [(self.dealer + 1 + i) % n for i in range(n)]

    def _previous_player(self, seat: int, seen_only: bool = False) -> int | None:
        n = self.num_seats
        for step in range(1, n):
            other = (seat - step) % n
            if self._can_bet(other) and (self.seen[other] or not seen_only):
                return other
        return None

    def _sideshow_target(self, seat: int) -> int | None:
        return self._previous_player(seat, self.rules.sideshow_target == "previous_seen")

    def _at_blind_limit(self, seat: int) -> bool:
        limit = self.rules.max_blind_bets
        return not self.seen[seat] and limit is not None and self.blind_bets[seat] >= limit

    def _min_bet(self, seat: int) -> int:
        return 2 * self.stake if self.seen[seat] else self.stake

    def _is_short(self, seat: int) -> bool:
        return self.stacks[seat] < self._min_bet(seat)

    def _bet_ceiling(self, seat: int) -> int:
        """Largest bet before the stack is taken into account."""
        rules = self.rules
        if self.seen[seat]:
            ceiling = 2 * rules.raise_multiple * self.stake
            if rules.max_bet is not None:
                ceiling = min(ceiling, rules.max_bet)
        else:
            ceiling = rules.raise_multiple * self.stake
            if rules.max_bet is not None:
                ceiling = min(ceiling, rules.max_bet // 2)
        if rules.pot_limit_betting:
            ceiling = min(ceiling, self.pot)
        return ceiling

    def _bet_range(self, seat: int, keep: int = 0) -> tuple[int, int] | None:
        low = self._min_bet(seat)
        high = min(self._bet_ceiling(seat), self.stacks[seat] - keep)
        if self.seen[seat]:
            high -= high & 1
        return (low, high) if low <= high else None

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

    def _other_in_hand(self, seat: int) -> int:
        return next(s for s in range(self.num_seats) if s != seat and self._in_hand(s))

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

    def _may_look(self, seat: int) -> bool:
        if self.end is not None or self.choosing or not self._can_bet(seat) or self.seen[seat]:
            return False
        return self.rules.look_anytime or (seat == self.to_act and self.pending_sideshow is None)

    # Public rule queries: the same as the private ones, with the seat checked.

    def _seat(self, seat: int) -> int:
        if type(seat) is int and 0 <= seat < self.num_seats:  # the common case, first
            return seat
        if not is_seat(seat, self.num_seats):
            raise ValueError(f"no seat {seat!r}: seats are 0..{self.num_seats - 1}")
        return seat

    def _dealt_seat(self, seat: int) -> int:
        if not self.dealt_in[self._seat(seat)]:
            raise ValueError(f"seat {seat} is not dealt in this hand")
        return seat

    def previous_player(self, seat: int) -> int | None:
        """Nearest seat to the right of ``seat`` still in the hand and not all-in."""
        return self._previous_player(self._seat(seat))

    def sideshow_target(self, seat: int) -> int | None:
        """Whom ``seat`` would ask for a sideshow under the ``sideshow_target`` setting."""
        return self._sideshow_target(self._seat(seat))

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
        if not self._can_bet(seat) or self._at_blind_limit(seat):
            return None
        return self._bet_range(seat)

    def bet_range(self, seat: int, keep: int = 0) -> tuple[int, int] | None:
        """``(min, max)`` of a legal bet leaving at least ``keep`` chips, or ``None``.

        Seen bets are even, so both ends are even for a seen seat.
        """
        return self._bet_range(self._seat(seat), keep)

    def show_cost(self, seat: int) -> int:
        """What a show costs the asker: the minimum bet for its status."""
        return self._show_cost(self._seat(seat))

    def hand_value(self, seat: int) -> int:
        """The value of ``seat``'s hand under the table's ranking (higher is better)."""
        if self.choosing:
            raise ValueError("no hand has a value before the dealer's choice and the deal")
        return self._hand_value(self._dealt_seat(seat))

    def card_texts(self, seat: int) -> list[str]:
        """The seat's cards as text, in deal order (all knowledge: not a seat's view)."""
        return self._card_texts(self._dealt_seat(seat))

    def legal_actions(self, seat: int | None = None) -> list[dict[str, Any]]:
        """Legal actions of ``seat`` (default: the seat to act) as dicts.

        ``bet`` and ``sideshow`` carry ``min`` and ``max`` (seen amounts are even).
        For a seat that is not to act only ``{"type": "look"}`` can appear.
        """
        if seat is None:
            seat = self.to_act
        if seat is None or self.end is not None:
            return []
        self._seat(seat)
        actions: list[dict[str, Any]] = []
        if self._may_look(seat):
            actions.append({"type": "look"})
        if seat != self.to_act:
            return actions
        if self.choosing:
            names = [spec.name for spec in self.table_rules.choice_specs]
            return [{"type": "choose_variant", "variants": names}]
        if self.selection is not None:
            return actions + self._phase_legal(seat)
        if self.pending_sideshow is not None:
            return [{"type": "accept"}, {"type": "refuse"}]
        actions.append({"type": "pack"})
        if self._at_blind_limit(seat):
            return actions
        bets = self._bet_range(seat)
        if bets is not None:
            actions.append({"type": "bet", "min": bets[0], "max": bets[1]})
        if self._may_buy(seat):
            actions.append({"type": "buy_joker", "cards": self._card_texts(seat)})
        if self._all_in_allowed(seat):
            actions.append({"type": "all_in"})
        if self._show_problem(seat) is None:
            actions.append({"type": "show"})
        if self._sideshow_problem(seat) is None:
            low, high = self._bet_range(seat, keep=1)  # type: ignore[misc]
            actions.append({"type": "sideshow", "min": low, "max": high})
        return actions

    def _may_buy(self, seat: int) -> bool:
        """J1: once a hand, a seen seat on its betting turn with a boot plus a chip."""
        return (
            self.rules.spec.buy_a_joker
            and self.seen[seat]
            and self.bought[seat] is None
            and self.pending_sideshow is None
            and self.stacks[seat] >= self.rules.boot + 1
        )

    def _all_in_allowed(self, seat: int) -> bool:
        # All-in is only for a short seat, and only where short stacks may go all-in.
        return self.rules.short_stack == "all_in" and self.stacks[seat] > 0 and self._is_short(seat)

    def illegal_reason(self, action: dict[str, Any]) -> str | None:
        """Why ``action`` is illegal now, or ``None`` if it is legal."""
        try:
            seat, kind, amount = self._parse_action(action)
        except IllegalActionError as error:
            return str(error)
        return self._problem(seat, kind, amount, action)

    def is_legal(self, action: dict[str, Any]) -> bool:
        """Whether ``action`` may be applied now."""
        return self.illegal_reason(action) is None

    def _problem(
        self, seat: int, kind: str, amount: int | None, action: dict[str, Any] | None = None
    ) -> str | None:
        if self.end is not None:
            return "the hand is over"
        if self.choosing:  # C1: the dealer chooses, also one that sits the hand out
            return self._choice_problem(seat, kind, action or {})
        if not self.dealt_in[seat]:
            return "the seat is not dealt in"
        if kind == "choose_variant":
            return "no variant to choose now (dealer's choice is made before the deal)"
        if self.selection is not None and kind != "look":
            if seat != self.to_act:
                return f"it is seat {self.to_act}'s turn in the {self.selection} phase"
            return self._phase_problem(seat, kind, action or {})
        if kind in PHASE_TYPES:
            return f"no {kind}: there is no selection phase now"
        if kind == "look":
            if self.packed[seat]:
                return "a packed player cannot look"
            if self.all_in[seat]:
                return "an all-in player cannot look"
            if self.seen[seat]:
                return "the seat has already looked"
            if not self._may_look(seat):
                return f"looking only on one's own turn; it is seat {self.to_act}'s turn"
            return None
        if seat != self.to_act:
            return f"it is seat {self.to_act}'s turn"
        if self.pending_sideshow is not None:
            if kind not in ("accept", "refuse"):
                return "a sideshow was asked: only accept or refuse"
            return None
        if kind in ("accept", "refuse"):
            return "no sideshow is pending"
        if kind == "pack":
            return None
        if self._at_blind_limit(seat):
            return "the blind-bet limit is reached: look first"
        if kind == "bet":
            return self._amount_problem(seat, amount, self._bet_range(seat), "bet")
        if kind == "buy_joker":
            if not self.rules.spec.buy_a_joker:
                return "the variant has no buy_a_joker"
            if not self._may_buy(seat):
                return ("a seen seat buys once a hand, on its turn, with a boot plus a chip "
                        "behind")
            card = _card_of((action or {}).get("card"))
            if card is None or card not in (self.hands[seat] or ()):
                return f"a bought card is one of the seat's private cards, got " \
                       f"{(action or {}).get('card')!r}"
            return None
        if kind == "all_in":
            if self.rules.short_stack != "all_in":
                return f"no all-in under short_stack={self.rules.short_stack!r}"
            if not self._all_in_allowed(seat):
                return "all-in is only for a player who cannot cover the minimum bet"
            return None
        if kind == "show":
            return self._show_problem(seat)
        problem = self._sideshow_problem(seat)
        if problem is not None:
            return problem
        return self._amount_problem(seat, amount, self._bet_range(seat, keep=1), "sideshow chaal")

    def _amount_problem(
        self, seat: int, amount: int | None, bounds: tuple[int, int] | None, what: str
    ) -> str | None:
        if bounds is None:
            return f"no {what} fits (stack {self.stacks[seat]}, stake {self.stake})"
        low, high = bounds
        if amount is None or not low <= amount <= high:
            return f"a {what} must be {low}..{high}, got {amount}"
        if self.seen[seat] and amount % 2:
            return f"a seen {what} must be even, got {amount}"
        return None

    # ----------------------------------------------------------------- actions

    def _parse_action(self, action: dict[str, Any]) -> tuple[int, str, int | None]:
        if not isinstance(action, dict):
            raise IllegalActionError(f"an action is a dict, got {action!r}")
        seat, kind = action.get("seat"), action.get("type")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise IllegalActionError(f"action {kind!r} needs an int seat, got {seat!r}")
        if not is_seat(seat, self.num_seats):
            raise IllegalActionError(f"seat {seat} cannot {kind}: no such seat")
        if kind not in ACTION_TYPES:
            raise IllegalActionError(
                f"seat {seat}: unknown action type {kind!r}: allowed {', '.join(ACTION_TYPES)}"
            )
        amount = action.get("amount")
        if kind in _AMOUNT_TYPES and (not isinstance(amount, int) or isinstance(amount, bool)):
            raise IllegalActionError(f"seat {seat}: a {kind} needs an int amount, got {amount!r}")
        return seat, kind, amount

    def apply(self, action: dict[str, Any]) -> None:
        """Apply one action dict (``{"seat": 1, "type": "bet", "amount": 2}``).

        ``seat`` may be left out for the seat to act. Raises ``IllegalActionError``
        and leaves the hand unchanged if the action is not legal now.
        """
        if isinstance(action, dict) and "seat" not in action:
            if self.to_act is None:
                raise IllegalActionError(f"no {action.get('type')!r}: the hand is over")
            action = {**action, "seat": self.to_act}
        seat, kind, amount = self._parse_action(action)
        problem = self._problem(seat, kind, amount, action)
        if problem is not None:
            shown = f" {amount}" if amount is not None else ""
            raise IllegalActionError(f"seat {seat} cannot {kind}{shown}: {problem}")
        self.apply_checked(action)

    def apply_checked(self, action: dict[str, Any]) -> None:
        """Apply ``action`` (with its seat), already known to be legal now, without
        checking it again: what :meth:`apply` does once its checks pass. For a caller
        that took the action from :meth:`legal_actions` of this very state."""
        seat, kind, amount = action["seat"], action["type"], action.get("amount")
        if kind in PHASE_TYPES or kind in ("buy_joker", "choose_variant"):
            getattr(self, "_do_" + kind)(seat, amount, action)
        else:
            getattr(self, "_do_" + kind)(seat, amount)

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

    def timeout_action(self) -> dict[str, Any]:
        """What the seat to act does when its turn timer runs out (VARIANTS.md C4): a
        pending sideshow is refused, any other turn packs. The action carries
        ``"timeout": True``, which :meth:`apply` and replay ignore; the engine has no clock:
        whatever runs the table calls this when its timer fires."""
        if self.to_act is None:
            raise IllegalActionError("the hand is over: no turn can time out")
        if self.choosing:  # C1: a missed choice is drawn by the seeded RNG
            rng = self.rng if self.rng is not None else np.random.default_rng(0)
            specs = self.table_rules.choice_specs
            spec = specs[int(rng.integers(len(specs)))]
            action: dict[str, Any] = {"seat": self.to_act, "type": "choose_variant",
                                      "variant": spec.name, "timeout": True}
            if spec.chooses == "rank":
                action["rank"] = RANK_TEXTS[int(rng.integers(13))]
            elif spec.chooses == "colour":
                action["colour"] = ("red", "black")[int(rng.integers(2))]
            return action
        kind = "refuse" if self.pending_sideshow is not None else "pack"
        return {"seat": self.to_act, "type": kind, "timeout": True}

    def time_out(self) -> dict[str, Any]:
        """Apply :meth:`timeout_action` and return it."""
        action = self.timeout_action()
        self.apply(action)
        return action

    def _do_buy_joker(self, seat: int, amount: int | None, action: dict[str, Any]) -> None:
        card = _card_of(action["card"])
        assert card is not None
        self._pay(seat, self.rules.boot)  # P5: a contribution, not a bet
        self.bought[seat] = card
        self._seat_values[seat] = None
        self._record(None, {"type": "buy_joker", "seat": seat, "amount": self.rules.boot})
        self._record((seat,), {"type": "bought", "seat": seat, "card": format_card(card)})
        # P5: the pot cap is checked after a buy; J1: shortness again, as after a look.
        short = self.rules.short_stack == "showdown" and self._is_short(seat)
        if self._cap_reached() or short:
            self._showdown()

    def _do_look(self, seat: int, amount: int | None) -> None:
        self.seen[seat] = True
        self._record(None, {"type": "look", "seat": seat})
        if self.rules.spec.visibility != "all_open":  # V2: looking changes only the price
            self._record((seat,), {"type": "cards", "seat": seat, "cards": self._card_texts(seat)})
        # short_stack="showdown": the seat about to bet may now be short (RULES 9).
        if (
            seat == self.to_act
            and self.pending_sideshow is None
            and self.rules.short_stack == "showdown"
            and self._is_short(seat)
        ):
            self._showdown()

    def _do_pack(self, seat: int, amount: int | None) -> None:
        self.packed[seat] = True
        # P2, P3: a seat all-in on its boot may pack on its phase turn; packed, it is no
        # longer all-in (as a burst seat), and its boot stays in the pot.
        self.all_in[seat] = False
        self._record(None, {"type": "pack", "seat": seat})
        if self.selection is not None:
            self.drew = False
            self._after_phase_action(seat)
        else:
            self._after_action(seat)

    def _do_bet(self, seat: int, amount: int) -> None:
        if self.seen[seat]:
            self.stake = amount // 2
        else:
            self.stake = amount
            self.blind_bets[seat] += 1
        self._pay(seat, amount)
        if self.stacks[seat] == 0 and self.rules.short_stack != "pack":
            self.all_in[seat] = True
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

    # ----------------------------------------------------------------- flow

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
        reached = sum(1 for t in self._thresholds if beyond >= t)
        if reached <= deal.revealed:
            return
        positions = sorted(deal.hidden_indicators())
        shown = [deal.indicators[p] for p in positions[: reached - deal.revealed]]
        self.variant_deal = dataclasses.replace(deal, revealed=reached)
        self._seat_values = [None] * self.num_seats
        self._record(None, {"type": "indicators_up", "cards": format_cards(shown),
                            "beyond_boots": beyond})

    def _after_action(self, actor: int, show_asker: int | None = None) -> None:
        """RULES section 4: what ends betting, in order, else the turn passes left."""
        if self._count_in_hand() == 1:
            self._last_player_wins()
        elif self._cap_reached():
            self._showdown()
        elif show_asker is not None:
            self._resolve_show(show_asker)
        elif self._count_can_bet() <= 1 or self._empty_stack_showdown():
            self._showdown()
        else:
            self._pass_turn(actor)

    def _last_player_wins(self) -> None:
        """The one seat left in the hand takes the pot unseen."""
        winner = next(s for s in range(self.num_seats) if self._in_hand(s))
        payouts = [0] * self.num_seats
        payouts[winner] = self.pot
        self._finish("last_player", payouts)

    def _pass_turn(self, origin: int, first: bool = False) -> None:
        n = self.num_seats
        for step in range(1, n + 1):
            seat = (origin + step) % n
            if self._can_bet(seat):
                self.to_act = seat
                break
        if self._rotating and not first:
            # R1: a full betting round ends when the turn reaches a position at or before
            # the last actor's (positions from the dealer's left, the dealer last).
            where = (self.to_act - self.dealer - 1) % n  # type: ignore[operator]
            if where <= (origin - self.dealer - 1) % n:
                self.rotations += 1
                self._seat_values = [None] * n
                self._record(None, {"type": "rotate", "rotations": self.rotations})
        # short_stack="showdown": a short seat about to take a betting turn shows at once.
        if self.rules.short_stack == "showdown" and self._is_short(self.to_act):  # type: ignore[arg-type]
            self._showdown()

    def _hand_value(self, seat: int) -> int:
        value = self._seat_values[seat]
        if value is None:
            cards = self.hands[seat]
            assert cards is not None
            if self._classic:
                value = variants.seat_value(cards, self._values)
            else:
                value = self.variant_deal.value(
                    cards, *self._ranking, self.rotating_rank(seat), self.bought[seat]
                )
            self._seat_values[seat] = value
        return value

    def rotating_rank(self, seat: int) -> int | None:
        """``seat``'s wild rank under rotating jokers now (R2: the starting lowest rank of
        the seat ``rotations`` places to its right in the ring of seats dealt in; S1: of
        the cards it keeps once any phase is over)."""
        if not self._rotating or not self.dealt_in[seat]:
            return None
        ring = [s for s in range(self.num_seats) if self.dealt_in[s]]
        owner = ring[(ring.index(seat) - self.rotations) % len(ring)]
        return min(rank_of(card) for card in self.hands[owner] or ())

    def _card_texts(self, seat: int) -> list[str]:
        return format_cards(self.hands[seat] or ())

    def _resolve_show(self, asker: int) -> None:
        opponent = self._other_in_hand(asker)
        self._reveal([asker, opponent])
        # Asker loses a tie (RULES 3.4).
        winner = asker if self._hand_value(asker) > self._hand_value(opponent) else opponent
        payouts = [0] * self.num_seats
        payouts[winner] = self.pot
        self._finish("show", payouts)

    def _showdown(self) -> None:
        contenders = [s for s in self.seat_order() if self._in_hand(s)]
        self._reveal(contenders)
        values = [self._hand_value(s) if self._in_hand(s) else -1 for s in range(self.num_seats)]
        payouts = divide_pot(self.contributions, contenders, self.all_in, values, self.seat_order())
        self._finish("showdown", payouts)

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

    # ----------------------------------------------------------------- views

    def _record(self, audience: tuple[int, ...] | None, event: Event) -> None:
        self._log.append((audience, event))

    def events_for(self, seat: int) -> list[Event]:
        """The log as ``seat`` may know it: public events plus its own private ones.

        The events are copies: changing them changes nothing in the hand.
        """
        self._seat(seat)
        return copy.deepcopy(
            [e for audience, e in self._log if audience is None or seat in audience]
        )

    def table_cards(self) -> dict[str, Any]:
        """The deal's hand-history fields beside ``cards`` (H2, H3): ``community``,
        ``indicators``, ``chosen`` as the variant uses them, and ``deck`` (as dealt, top
        first) when the hand can draw."""
        fields = self.variant_deal.to_json()
        if self.table_rules.dealers_choice is not None:
            fields.pop("chosen", None)  # H3: named in choose_variant
        if self.deck_given:
            fields["deck"] = format_cards(self.dealt_deck)
        return fields

    def all_events(self) -> list[Event]:
        """Every event, private ones included (copies): the omniscient log that hand
        histories are written from. Not a seat's view."""
        return copy.deepcopy([event for _, event in self._log])

    def public_events(self) -> list[Event]:
        """What the whole table knows (copies): no private card ever appears here."""
        return copy.deepcopy([event for audience, event in self._log if audience is None])

    def known_cards(self, viewer: int | None) -> dict[int, list[str]]:
        """Every seat's cards that ``viewer`` has seen (``None``: the public table).

        Read from the log, so it is exactly what :meth:`events_for` tells the viewer:
        its own cards once it looked, a private sideshow reveal, hands turned up.
        """
        if viewer is not None:
            self._seat(viewer)
        return {seat: list(cards) for seat, cards in self._known(viewer).items()}

    def knows_own_hand(self, seat: int) -> bool:
        """Whether ``seat`` has seen every one of its private cards (a seen seat, not in
        all_open until the hand is over)."""
        known = self._known_entry(self._seat(seat))[3].get(seat)
        cards = self.hands[seat]
        return known is not None and cards is not None and len(known) == len(cards)

    def known_seats(self, viewer: int | None) -> tuple[int, ...]:
        """The seats whose cards ``viewer`` has seen, in seat order (see :meth:`known_cards`)."""
        if viewer is not None:
            self._seat(viewer)
        self._known(viewer)  # brings the cache up to date
        return self._known_cache[viewer][2]

    def _known(self, viewer: int | None) -> dict[int, list[str]]:
        """:meth:`known_cards` without the copy. Kept per viewer and brought up to date
        by reading only the events logged since; a dict once returned is never changed."""
        return self._known_entry(viewer)[1]

    def known_card_ints(self, viewer: int | None) -> dict[int, tuple[int, ...]]:
        """:meth:`known_cards` as card ints (shared: do not change it)."""
        return self._known_entry(viewer)[3]

    def _known_entry(self, viewer: int | None) -> _Known:
        cache = self._known_cache
        log = self._log
        length = len(log)
        hit = cache.get(viewer)
        if hit is not None and hit[0] == length:
            return hit
        start, known, seats, ints = (0, {}, (), {}) if hit is None else hit
        fresh = False
        for index in range(start, length):
            audience, event = log[index]
            if audience is not None and viewer not in audience:
                continue
            kind = event["type"]
            if kind == "open_cards":
                if event["seat"] in known:
                    continue
                shown = [(event["seat"], event["cards"])]
            elif kind in ("cards", "sideshow_reveal"):
                shown = [(event["seat"], event["cards"])]
            elif kind == "reveal":
                shown = [(hand["seat"], hand["cards"]) for hand in event["hands"]]
            else:
                continue
            if not fresh:
                known, ints, fresh = dict(known), dict(ints), True
            for seat, cards in shown:
                known[seat] = list(cards)
                ints[seat] = tuple(parse_card(card) for card in cards)
        if fresh:
            seats = tuple(sorted(known))
        entry = cache[viewer] = (length, known, seats, ints)
        return entry

    def result(self) -> dict[str, Any]:
        """The state in the replay format of RULES.md section 10."""
        return {
            "stacks": list(self.stacks),
            "pot": self.pot,
            "stake": self.stake,
            "over": self.over,
            "to_act": self.to_act,
            "legal": self.legal_actions(),
            "net": self.net,
            "payouts": None if self.payouts is None else list(self.payouts),
            "shown": {seat: list(cards) for seat, cards in self.shown.items()},
            "end": self.end,
            "contributions": list(self.contributions),
            "seen": list(self.seen),
            "packed": list(self.packed),
            "all_in": list(self.all_in),
            "dealt_in": list(self.dealt_in),
            "dealer": self.dealer,
            "burst": list(self.burst),
        }

    # ----------------------------------------------------------------- snapshots

    def copy(self) -> Hand:
        """An independent copy of the hand, for looking ahead or keeping a past state.

        Cheap: the per-seat lists and the log are copied; logged events, which are never
        changed once recorded, are shared.
        """
        other = Hand.__new__(Hand)
        other.__dict__.update(self.__dict__)
        for name in _SEAT_LISTS:
            setattr(other, name, list(getattr(self, name)))
        other.payouts = None if self.payouts is None else list(self.payouts)
        other.shown = {seat: list(cards) for seat, cards in self.shown.items()}
        other.reshuffles = list(self.reshuffles)
        other._recorded_reshuffles = list(self._recorded_reshuffles)
        other._log = list(self._log)
        other._known_cache = dict(self._known_cache)
        return other

    def to_dict(self) -> dict[str, Any]:
        """An exact, JSON-able snapshot: the hand's history (a superset of the
        ``teenpatti-hand/1`` format, see :func:`teenpatti_env.history.snapshot`)."""
        from teenpatti_env.history import snapshot  # history builds on the engine

        return snapshot(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Hand:
        """Restore a hand saved with :meth:`to_dict` by replaying its history; a malformed
        or illegal one is a ``ValueError``."""
        from teenpatti_env.history import restore

        return restore(data)


def is_seat(value: Any, num_seats: int) -> bool:
    """Whether ``value`` is a seat number of a table of ``num_seats`` (an int, not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < num_seats


def validate_table(
    rules: Rules, stacks: Sequence[int] | None, dealer: int, n: int | None = None
) -> None:
    """Raise ``ValueError`` unless the rules, stacks and dealer fit a table of ``n`` seats
    (by default, one seat per stack; ``stacks=None`` stands for the starting stacks)."""
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a Rules, got {type(rules).__name__}")
    if stacks is None and n is not None:
        stacks = [rules.starting_stack] * n
    if isinstance(stacks, (str, bytes)) or not isinstance(stacks, Sequence):
        raise ValueError(f"stacks must be a list of ints, got {stacks!r}")
    if n is None:
        n = len(stacks)
    if len(stacks) != n:
        raise ValueError(f"got {len(stacks)} stacks for {n} seats of cards")
    if not 2 <= n <= 7:
        raise ValueError(f"a hand has 2..7 seats, got {n}")
    for seat, chips in enumerate(stacks):
        if not isinstance(chips, int) or isinstance(chips, bool) or chips < 0:
            raise ValueError(f"stack of seat {seat} must be an int >= 0, got {chips!r}")
    if sum(stacks) > MAX_TABLE_CHIPS:
        raise ValueError(f"the stacks hold {sum(stacks)} chips in all; a table holds at most "
                         f"{MAX_TABLE_CHIPS}")
    if not is_seat(dealer, n):
        raise ValueError(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")


def _parse_deal(
    cards: Sequence[Sequence[CardLike] | None], dealt_in: Sequence[bool], per_seat: Sequence[int]
) -> list[tuple[int, ...] | None]:
    """Parse every seat's cards; seat ``s`` dealt in needs exactly ``per_seat[s]`` cards."""
    parsed: list[tuple[int, ...] | None] = []
    for seat, seat_cards in enumerate(cards):
        if seat_cards is None:
            if dealt_in[seat]:
                raise ValueError(f"seat {seat} is dealt in but has no cards")
            parsed.append(None)
            continue
        if isinstance(seat_cards, (str, bytes)) or not isinstance(seat_cards, Sequence):
            raise ValueError(f"cards of seat {seat} must be a list, got {seat_cards!r}")
        if len(seat_cards) != per_seat[seat]:
            raise ValueError(
                f"seat {seat} must hold {per_seat[seat]} cards, got {len(seat_cards)}"
            )
        parsed.append(tuple(parse_card(card) for card in seat_cards))
    return parsed  # the callers check all the deal's cards are different


def _parse_reshuffles(
    reshuffles: Sequence[Sequence[CardLike]] | None,
) -> list[tuple[int, ...]]:
    """A saved hand's reshuffled decks (P7), each a list of different cards."""
    if reshuffles is None:
        return []
    if isinstance(reshuffles, (str, bytes)) or not isinstance(reshuffles, Sequence):
        raise ValueError(f"'reshuffles' must be a list of card lists, got {reshuffles!r}")
    parsed = []
    for order in reshuffles:
        if isinstance(order, (str, bytes)) or not isinstance(order, Sequence) or not order:
            raise ValueError(f"a reshuffle is a non-empty list of cards, got {order!r}")
        cards = tuple(parse_card(card) for card in order)
        check_distinct(cards)
        parsed.append(cards)
    return parsed


def _card_of(text: Any) -> int | None:
    """A card int from an action's card text, or ``None`` if it is not a card."""
    try:
        return parse_card(text)
    except (ValueError, TypeError):
        return None


def _cards_per_seat(rules: Rules, dealt_in: Sequence[bool], dealer: int) -> list[int]:
    """Cards each seat is dealt: the variant's private cards, six for the dealer's left
    (the first seat dealt in) in passing."""
    n = len(dealt_in)
    counts = [variants.cards_dealt(rules) if dealt_in[s] else 0 for s in range(n)]
    if rules.spec.phase == "passing":
        first = next(s for s in ((dealer + 1 + i) % n for i in range(n)) if dealt_in[s])
        counts[first] += 3
    return counts


def dealt_cards(
    cards: Sequence[Sequence[int] | None], deal: variants.Deal
) -> list[int]:
    """Every card of a deal in play: the private cards, the community cards, the
    indicators."""
    private = [card for seat_cards in cards if seat_cards is not None for card in seat_cards]
    return private + list(deal.community) + list(deal.indicators)


def _parse_public(
    spec: variants.VariantSpec,
    community: Sequence[CardLike] | None,
    indicators: Sequence[CardLike] | None,
    chosen: Any,
) -> variants.Deal:
    """The variant's public deal from hand-history fields: exactly ``community_cards``
    community cards and as many indicators as the spec draws (H2), ``chosen`` when a
    ``chosen_*`` source needs it (H3)."""
    fields = {"community": (community, spec.community_cards),
              "indicators": (indicators, spec.indicator_count)}
    parsed: dict[str, tuple[int, ...]] = {}
    for name, (given, count) in fields.items():
        if given is None:
            given = []
        if isinstance(given, (str, bytes)) or not isinstance(given, Sequence):
            raise ValueError(f"{name!r} must be a list of cards, got {given!r}")
        if len(given) != count:
            raise ValueError(
                f"the variant needs {count} {name} card{'s' if count != 1 else ''}, "
                f"got {len(given)}"
            )
        parsed[name] = tuple(parse_card(card) for card in given)
    return variants.Deal(
        spec, parsed["community"], parsed["indicators"], variants.parse_chosen(spec, chosen)
    )
