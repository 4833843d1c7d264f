"""A Teen Patti small enough to solve exactly: the engine's own game on small settings,
dealt from a short deck.

The small game is not a second rules text. Every transition is the rules engine's
(:class:`~teenpatti_env.engine.Hand` built from given cards), every decision is the
environment's (its action table and observation vector), and only the chance events are
restricted: the cards come from a short deck (by default the nine cards of
:data:`SMALL_DECK`), every ordered deal of it equally likely, and the dealer is drawn
uniformly as the environment draws it. Hand values keep the full deck's ranking; on the
short deck it orders trail, pure sequence, sequence and pair exactly as the full game does.

The settings (``docs/exploitability.md`` says why): three seats, 4-boot stacks, one
blind bet before a seat must look, looks only on one's turn, no sideshow. A hand then has
a few dozen betting histories at most, and the 1,680 deals of nine cards times three
dealers keep a whole game-tree walk to seconds.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np
from numpy.typing import NDArray

from teenpatti_env.cards import CardLike, parse_card
from teenpatti_env.engine import Hand
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.environment.aec import raw_env
from teenpatti_env.environment.observation import ObservationLayout, TableFacts
from teenpatti_env.environment.single_agent import TeenPattiEnv
from teenpatti_env.rules import Rules

SMALL_RULES = Rules(
    num_players=3,
    starting_boots=4,
    max_blind_bets=1,
    look_anytime=False,
    sideshow=False,
)
"""The small game's table: classic Teen Patti with three seats, 4-boot stacks, one blind
bet, looks on one's turn and no sideshow."""
SMALL_DECK = ("As", "Ah", "Ks", "Qs", "Jh", "Td", "8s", "5c", "3h")
"""The nine cards the small game deals (every card is dealt): a pair of aces, runs, a
colour and weak high cards."""
CARDS_PER_SEAT = 3

Deal = tuple[tuple[str, ...], ...]
"""Each seat's three cards, seat 0 first."""


@dataclass(frozen=True)
class SmallGame:
    """The engine's game under ``rules``, dealt from ``deck`` (every ordered deal equally
    likely) or from the fixed list ``deals`` (each equally likely), with a uniformly drawn
    dealer (or a fixed ``dealer``)."""

    rules: Rules = SMALL_RULES
    deck: tuple[str, ...] = SMALL_DECK
    fixed_deals: tuple[Deal, ...] | None = None
    dealer: int | None = None
    layout: ActionLayout = field(init=False, repr=False, compare=False)
    observations: ObservationLayout = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.rules.spec.private_cards != CARDS_PER_SEAT or not self.rules.spec.is_classic:
            raise ValueError("the small game plays the classic variant (three private cards)")
        cards = [parse_card(card) for card in self.deck]
        if len(set(cards)) != len(cards):
            raise ValueError(f"the small game's deck names a card twice: {self.deck}")
        needed = CARDS_PER_SEAT * self.rules.num_players
        if len(cards) < needed:
            raise ValueError(f"a deck of {len(cards)} cards cannot deal {needed}")
        if self.fixed_deals is not None and not self.fixed_deals:
            raise ValueError("fixed_deals, when given, lists at least one deal")
        n = self.rules.num_players
        if self.dealer is not None and not 0 <= self.dealer < n:
            raise ValueError(f"dealer must be a seat 0..{n - 1}, got {self.dealer!r}")
        object.__setattr__(self, "layout", ActionLayout(self.rules))
        object.__setattr__(self, "observations", ObservationLayout(self.rules))

    @property
    def num_seats(self) -> int:
        return self.rules.num_players

    def deals(self) -> Iterator[Deal]:
        """Every deal, each as likely as the others."""
        if self.fixed_deals is not None:
            yield from self.fixed_deals
            return
        yield from _deals(self.deck, self.num_seats)

    def dealers(self) -> tuple[int, ...]:
        """The dealers, each as likely as the others."""
        return tuple(range(self.num_seats)) if self.dealer is None else (self.dealer,)

    def hand(self, cards: Deal, dealer: int) -> Hand:
        """A new hand of this game: ``cards`` dealt, ``dealer`` dealing, starting stacks."""
        return Hand(self.rules, [list(seat) for seat in cards], None, dealer)

    def random_deal(self, rng: np.random.Generator) -> dict[str, Any]:
        """Reset options of the environment for one hand of this game drawn by ``rng``."""
        if self.fixed_deals is not None:
            cards = self.fixed_deals[int(rng.integers(len(self.fixed_deals)))]
        else:
            order = rng.permutation(len(self.deck))
            cards = tuple(
                tuple(self.deck[i] for i in order[s * CARDS_PER_SEAT:(s + 1) * CARDS_PER_SEAT])
                for s in range(self.num_seats)
            )
        dealers = self.dealers()
        return {"cards": [list(seat) for seat in cards],
                "dealer": dealers[int(rng.integers(len(dealers)))]}

    def decision(self, hand: Hand, seat: int) -> Decision:
        """What ``seat`` (the seat to act) sees and may do at ``hand``."""
        return Decision(self, hand, seat)


class Decision:
    """One decision of the small game as the environment shows it to the seat to act:
    the observation vector, the mask, the JSON view (built when asked) and the distinct
    engine actions the set indices stand for."""

    def __init__(self, game: SmallGame, hand: Hand, seat: int) -> None:
        self.game, self.hand, self.seat = game, hand, seat
        self.legal = hand.legal_actions(seat)
        mask, allowed = game.layout.shared_entry(self.legal)
        self.mask: NDArray[np.int8] = mask
        self.indices = sorted(allowed)
        self._observation: NDArray[np.float32] | None = None
        self._info: dict[str, Any] | None = None

    @property
    def facts(self) -> TableFacts:
        return TableFacts(in_session=tuple(self.hand.dealt_in))

    @property
    def observation(self) -> NDArray[np.float32]:
        if self._observation is None:
            self._observation = self.game.observations.encode(self.hand, self.seat, self.facts)
        return self._observation

    @property
    def info(self) -> dict[str, Any]:
        if self._info is None:
            layout = self.game.layout
            self._info = self.game.observations.view(
                self.hand, self.seat, self.facts, [dict(a) for a in self.legal],
                layout.legal_names(self.legal),
                [f"player_{s}" for s in range(self.game.num_seats)],
            )
        return self._info

    def actions(self) -> dict[tuple[Any, ...], list[int]]:
        """The distinct engine actions (as sorted item tuples, without the seat) and the
        indices that stand for each (two bet levels can name the same amount)."""
        out: dict[tuple[Any, ...], list[int]] = {}
        seen = bool(self.hand.seen[self.seat])
        for index in self.indices:
            action = self.game.layout.decode_allowed(index, self.legal, seen)
            out.setdefault(tuple(sorted(action.items())), []).append(index)
        return out

    def child(self, action: tuple[Any, ...]) -> Hand:
        """A copy of the hand after this seat takes ``action`` (a key of :meth:`actions`)."""
        after = self.hand.copy()
        after.apply_checked({"seat": self.seat, **dict(action)})
        return after


def _deals(deck: Sequence[str], seats: int) -> Iterator[Deal]:
    if seats == 0:
        yield ()
        return
    for mine in combinations(range(len(deck)), CARDS_PER_SEAT):
        rest = [card for i, card in enumerate(deck) if i not in mine]
        for others in _deals(rest, seats - 1):
            yield (tuple(deck[i] for i in mine), *others)


class SmallGameEnv(raw_env):
    """The environment (:class:`raw_env`, one hand an episode) dealing the small game:
    a hand not given its cards draws them, and its dealer, as :meth:`SmallGame.random_deal`
    does, from the environment's own generator."""

    def __init__(self, game: SmallGame, **kwargs: Any) -> None:
        super().__init__(rules=game.rules, **kwargs)
        self.small_game = game

    def _deal_one(
        self,
        rng: np.random.Generator,
        stacks: Sequence[int] | None,
        cards: Sequence[Sequence[CardLike] | None] | None,
        dealer: int | None,
        table_cards: dict[str, Any],
    ) -> Hand:
        if cards is None:
            deal = self.small_game.random_deal(rng)
            cards, dealer = deal["cards"], deal["dealer"]
        return super()._deal_one(rng, stacks, cards, dealer, table_cards)


def small_game_env(game: SmallGame, opponents: Any,
                   learner_seat: str | int = "rotate") -> TeenPattiEnv:
    """A single-agent table of the small game: the learner in ``learner_seat`` (it rotates
    by default), ``opponents`` (one policy per other seat) in the rest."""
    env = TeenPattiEnv(game.rules, opponents=opponents, learner_seat=learner_seat)
    env.game = SmallGameEnv(game)
    return env
