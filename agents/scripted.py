"""Scripted baseline agents, from weak to strong.

* ``random``: uniform over the legal actions.
* ``auto``: the automatic player of the source app [000]: it looks at once, never stays
  blind, and bets by how strong its hand is under the table's ranking.
* ``easy``, ``medium``, ``hard``: the difficulty levels of [004], which differ in "how
  long a bot stays blind, how much it reads into who has looked, and how often it just
  gets it wrong". Easy looks the moment its cards land and plays three betting moves in
  ten at random; medium stays blind for two turns, half-reads the table and errs one move in ten;
  hard pays for every blind turn the table allows and reads every look.
* ``equity``: exact strength of its hand against the opponents still in (card removal
  included), opponents' ranges narrowed by what they did after looking, pot odds, blind
  while it is cheap, and sideshows and shows only when the odds are on its side.

Every agent reads only its seat's info dict and mask (see :mod:`agents.base`), so it works
under every preset and setting and picks only legal actions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from agents.base import Agent, Info, LegalMoves, Mask, Observation
from agents.odds import HandOdds, beat_in_range, rules_of
from agents.phases import buy_action, phase_action
from teenpatti_env.cards import parse_cards


class RandomAgent(Agent):
    """Uniform over the legal actions."""

    name = "random"

    def act(self, observation: Observation, mask: Mask, info: Info) -> int:
        return LegalMoves(mask, info).any(self.rng)


class Table:
    """What one decision needs to know, read from a seat's info dict."""

    def __init__(self, info: Info) -> None:
        self.info = info
        self.seat: int = info["seat"]
        self.seats: list[dict[str, Any]] = info["seats"]
        self.me = self.seats[self.seat]
        self.opponents = [
            s
            for s in self.seats
            if s["dealt_in"] and not s["packed"] and s["seat"] != self.seat
        ]
        self.pot: int = info["pot"]
        self.stake: int = info["stake"]
        self.boot: int = info["boot"]
        self.seen: bool = info["seen"]
        self.rules: dict[str, Any] = info.get("rules") or {}
        self.classic = rules_of(self.rules).spec.is_classic if self.rules else True
        """Three private cards, nothing wild (muflis included): card-removal odds apply."""

    @property
    def strength(self) -> float:
        """This seat's hand strength (the info's share of hands beaten). When it has not
        seen its hand (all_open), the chance that a random hand beats every opponent
        whose cards it sees."""
        strength = self.info.get("strength")
        if strength is not None:
            return float(strength)
        chance = 1.0
        for opponent in self.opponents:
            theirs = opponent["cards"]
            if theirs is not None and len(theirs) == 3:
                chance *= 1.0 - HandOdds.of(self.rules).strength(parse_cards(theirs))
        return chance

    def cost(self, kind: str) -> int:
        """Chips that the legal action ``kind`` (bet at its minimum, show, sideshow,
        all_in) costs now."""
        if kind == "all_in":
            return int(self.me["stack"])
        for action in self.info["legal"]:
            if action["type"] == kind:
                if "min" in action:
                    return int(action["min"])
                if "amount" in action:
                    return int(action["amount"])
        return self.stake * (2 if self.seen else 1)

    def bet_bounds(self) -> tuple[int, int]:
        """The smallest and largest bet open now (``(0, 0)`` when none is)."""
        for action in self.info["legal"]:
            if action["type"] == "bet":
                return int(action["min"]), int(action["max"])
        return 0, 0

    def can_follow(self, amount: int, turns: int = 1) -> bool:
        """Whether after betting ``amount`` this seat can still bet as much for ``turns``
        more turns. Only ``short_stack="pack"`` makes that matter: a short seat there must
        pack (and a seen seat cannot show a blind one), so it keeps chips in reserve."""
        return (
            self.rules.get("short_stack") != "pack"
            or int(self.me["stack"]) >= (1 + turns) * amount
        )

    def blind_turns_left(self) -> int | None:
        """Blind bets this seat may still make (``None``: no limit)."""
        limit = self.rules.get("max_blind_bets")
        if limit is None:
            return None
        return max(int(limit) - int(self.me["blind_bets"]), 0)


class LookReader:
    """Counts, per opponent, the bets it made after looking (a stronger hand than average).

    It compares each seat's chips at this agent's successive decisions: chips added by a
    seat that was already seen at the last decision count as one seen bet; chips added by
    a seat that looked since then count half (it may have bet before it looked). At its
    first decision of a hand, a seen seat whose chips beyond the boot are more than its
    blind bets could have cost counts one seen bet, any other seen seat that paid beyond
    the boot half.
    """

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self._last: dict[int, tuple[int, bool]] = {}
        self.seen_bets: dict[int, float] = {}

    def update(self, table: Table) -> None:
        blind_cost = int(table.rules.get("raise_multiple", 2)) * table.stake
        for seat in table.seats:
            number, chips, seen = seat["seat"], int(seat["chips_in"]), bool(seat["seen"])
            before = self._last.get(number)
            if before is None:
                beyond = chips - table.boot
                if seen and beyond > 0 and number != table.seat:
                    blind = int(seat["blind_bets"]) * blind_cost
                    self.seen_bets[number] = 1.0 if beyond > blind else 0.5
            elif seen and chips > before[0]:
                self.seen_bets[number] = self.seen_bets.get(number, 0.0) + (
                    1.0 if before[1] else 0.5
                )
            self._last[number] = (chips, seen)


class ReadingAgent(Agent):
    """Bets by its chance to beat the opponents still in, with each seen opponent's range
    narrowed by the bets it made after looking, and pot odds for calling.

    Subclasses say how strong their own hand is (:meth:`_percentile`) and when to stay
    blind (:meth:`_stay_blind`).
    """

    RANGE_NARROWING = 0.6
    """Share of a seen opponent's range kept per bet it made after looking."""
    ASKER_RANGE = 0.5
    """Share of a sideshow asker's range kept for asking."""
    RAISE_AT = 0.7
    """Chance to win at which it raises to the maximum (at most ``MAX_RAISES`` times)."""
    MAX_RAISES = 3
    SIDESHOW_AT = 0.6
    """Chance to beat the previous player at which it asks for a sideshow."""
    RESERVE_TURNS = 2
    """Under ``short_stack="pack"``, raise only while the stack covers this many more bets
    of the raised size."""
    MULTIWAY_MARGIN = 1.5
    """With two or more opponents more betting is to come: call only with this many
    times the bare pot odds."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.reader = LookReader()
        self.reading = 1.0
        self._raises = 0

    def reset(self) -> None:
        self.reader.reset()
        self._raises = 0

    def act(self, observation: Observation, mask: Mask, info: Info) -> int:
        legal = LegalMoves(mask, info)
        choice = phase_action(legal, info)
        if choice is None:
            choice = buy_action(legal, info)
        if choice is not None:
            return choice
        table = Table(info)
        self.reader.update(table)
        if self._wants_look(table, legal):
            return legal.by_name["look"]
        return self._choose(table, legal)

    def _wants_look(self, table: Table, legal: LegalMoves) -> bool:
        """Whether to look now (free, and not a betting move)."""
        return (
            "look" in legal
            and not table.seen
            and not ("bet_min" in legal and self._stay_blind(table))
        )

    def _choose(self, table: Table, legal: LegalMoves) -> int:
        """The move of a seat that does not look now."""
        if "accept" in legal:
            asker = int(table.info["sideshow"]["asker"])
            chance = self._beat(table, asker, extra=self.ASKER_RANGE)
            return legal.pick("accept" if chance > 0.5 else "refuse")
        if not table.seen:
            return legal.pick("bet_min", "look", "show", "all_in", "pack")
        return self._seen(table, legal)

    def _seen(self, table: Table, legal: LegalMoves) -> int:
        chance = 1.0
        for opponent in table.opponents:
            chance *= self._beat(table, int(opponent["seat"]))
        low, high = table.bet_bounds()
        if "bet_max" in legal and chance >= 0.5 and not table.can_follow(low):
            # short_stack="pack": this seat could not bet again after this turn, so a bet
            # that brings the pot to its cap (an immediate showdown) beats any call.
            cap = table.rules.get("pot_cap")
            if cap is not None and table.pot + high >= cap:
                return legal.by_name["bet_max"]
        if (
            chance >= self.RAISE_AT
            and self._raises < self.MAX_RAISES
            and "bet_max" in legal
            and table.can_follow(high, turns=self.RESERVE_TURNS)
        ):
            self._raises += 1
            return legal.by_name["bet_max"]
        if "show" in legal:
            cost = table.cost("show")
            return legal.pick("show" if chance > cost / (table.pot + cost) else "pack")
        heads_up = len(table.opponents) == 1
        if "sideshow" in legal and not heads_up:
            target = table.info.get("sideshow_target")
            if target is not None and self._beat(table, int(target)) >= self.SIDESHOW_AT:
                return legal.by_name["sideshow"]
        call = legal.first("bet_min", "all_in")
        if call is not None:
            cost = table.cost("bet" if "bet_min" in legal else "all_in")
            needed = cost / (table.pot + cost) * (1.0 if heads_up else self.MULTIWAY_MARGIN)
            if chance >= needed:
                return call
        return legal.pick("pack")

    def _range(self, seat: int) -> float:
        bets = self.reader.seen_bets.get(seat, 0.0)
        return float(self.RANGE_NARROWING ** (bets * self.reading))

    def _beat(self, table: Table, seat: int, extra: float = 1.0) -> float:
        """The chance to beat ``seat``: exact when both hands are known in a classic
        deal, else by the opponent's range."""
        theirs = table.seats[seat]["cards"]
        mine = table.info["cards"]
        if theirs is not None and len(theirs) == 3:
            odds = HandOdds.of(table.rules)
            if mine is None:  # all_open: this seat sees the opponent, not itself
                return 1.0 - odds.strength(parse_cards(theirs))
            if table.classic:
                ours, other = odds.value(parse_cards(mine)), odds.value(parse_cards(theirs))
                return 1.0 if ours > other else 0.5 if ours == other else 0.0
        return beat_in_range(self._percentile(table), self._range(seat) * extra)

    def _percentile(self, table: Table) -> float:
        """The share of an opponent's possible hands that this seat's hand beats."""
        raise NotImplementedError

    def _stay_blind(self, table: Table) -> bool:
        """Whether to bet blind now instead of looking."""
        raise NotImplementedError


@dataclass(frozen=True)
class Style:
    """What sets the difficulty levels apart ([004])."""

    blind_turns: int | None
    """Blind bets before looking (``None``: every blind turn the table allows)."""
    reading: float
    """How much a seen opponent's bets narrow its range (0: not at all, 1: fully)."""
    mistakes: float
    """Share of decisions played at random."""


class LevelAgent(ReadingAgent):
    """The easy / medium / hard bots: the reading agent on the info's hand strength (no
    card removal), with the level's blind turns, reading and mistakes."""

    STYLES: ClassVar[dict[str, Style]] = {
        "easy": Style(blind_turns=0, reading=0.0, mistakes=0.3),
        "medium": Style(blind_turns=2, reading=0.5, mistakes=0.1),
        "hard": Style(blind_turns=None, reading=1.0, mistakes=0.0),
    }
    UNLIMITED_BLIND_TURNS = 4
    """Blind bets of ``hard`` at a table without a blind-bet limit."""

    def __init__(self, level: str = "medium", seed: int | None = None) -> None:
        super().__init__(seed)
        if level not in self.STYLES:
            raise ValueError(f"level must be one of {', '.join(self.STYLES)}, got {level!r}")
        self.name = level
        self.style = self.STYLES[level]
        self.reading = self.style.reading

    def _choose(self, table: Table, legal: LegalMoves) -> int:
        # A look is never the mistake: easy turns its cards over the moment they land.
        if self.style.mistakes and self.rng.random() < self.style.mistakes:
            return legal.any(self.rng, without="look")
        return super()._choose(table, legal)

    def _percentile(self, table: Table) -> float:
        return table.strength

    def _stay_blind(self, table: Table) -> bool:
        if self.reading and any(self.reader.seen_bets.get(o["seat"]) for o in table.opponents):
            return False  # a seen opponent has bet: it reads that as strength and looks
        made = int(table.me["blind_bets"])
        left = table.blind_turns_left()
        wanted = self.style.blind_turns
        if wanted is None:  # every blind turn the table allows
            return made < self.UNLIMITED_BLIND_TURNS if left is None else left > 0
        return made < wanted and (left is None or left > 0)


class AutoAgent(Agent):
    """The automatic player of [000]: looks at once and bets by how good its hand is."""

    name = "auto"
    STRONG = 0.913
    """Strength of a colour or better in the classic ranking (the lowest colour beats
    91.3% of hands, the best pair 91.28%)."""
    GOOD = 0.744
    """Strength of a pair or better (the lowest pair 0.7444, the best high card 0.7425)."""
    HIGH = 0.571
    """Strength of an ace-high hand (the lowest, A-4-2, is 0.5715; K-Q-10 is 0.569)."""

    def act(self, observation: Observation, mask: Mask, info: Info) -> int:
        legal = LegalMoves(mask, info)
        choice = phase_action(legal, info)
        if choice is None:
            choice = buy_action(legal, info)
        if choice is not None:
            return choice
        if "look" in legal:
            return legal.by_name["look"]
        # The strength follows the table's ranking and variant (and in all_open, where
        # the seat never sees its hand, how likely a hand beats the ones it sees).
        strength = Table(info).strength
        if "accept" in legal:
            return legal.pick("accept" if strength >= self.GOOD else "refuse")
        if strength >= self.STRONG:
            return legal.pick("bet_max", "show", "bet_min", "all_in", "pack")
        if strength >= self.GOOD:
            return legal.pick("show", "bet_min", "all_in", "pack")
        if strength >= self.HIGH:
            return legal.pick("bet_min", "show", "all_in", "pack")
        return legal.pick("pack")


class EquityAgent(ReadingAgent):
    """The strongest scripted agent: exact odds of its hand given every card it knows,
    ranges read from looks, pot odds; blind only while the whole field is and it is cheap."""

    name = "equity"
    RAISE_AT = 0.8
    MAX_RAISES = 20
    CHEAP_BLIND = 0.25
    """Stay blind (while every opponent is) when a blind bet costs at most this share of
    the pot."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._percentiles: dict[tuple[tuple[int, ...], tuple[int, ...]], float] = {}

    def reset(self) -> None:
        super().reset()
        self._percentiles.clear()

    def _stay_blind(self, table: Table) -> bool:
        # Against a seen opponent a blind seat bets without knowing its odds.
        cheap = table.cost("bet") <= self.CHEAP_BLIND * table.pot
        return cheap and not any(o["seen"] for o in table.opponents)

    def _percentile(self, table: Table) -> float:
        if not table.classic or table.info["cards"] is None:
            return table.strength  # the engine's own valuation of the variant
        mine = parse_cards(table.info["cards"])
        dead = tuple(
            card
            for other in table.seats
            if other["seat"] != table.seat and other["cards"] is not None
            for card in parse_cards(other["cards"])
        )
        key = (mine, dead)
        percentile = self._percentiles.get(key)
        if percentile is None:
            percentile = self._percentiles[key] = HandOdds.of(table.rules).percentile(mine, dead)
        return percentile
