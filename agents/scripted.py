"""Scripted baseline agents, from weak to strong.

* ``random``: uniform over the legal actions.
* ``auto``: the automatic player of the source app [000]: it looks at once, never stays
  blind, and bets by the category of its hand.
* ``easy``, ``medium``, ``hard``: the difficulty levels of [004], which differ in "how
  long a bot stays blind, how much it reads into who has looked, and how often it just
  gets it wrong". Easy looks the moment its cards land and plays three moves in ten at
  random; medium stays blind for two turns, half-reads the table and errs one move in ten;
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
from agents.odds import HandOdds, beat_in_range
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
    a seat that looked since then count half (it may have bet before it looked).
    """

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self._last: dict[int, tuple[int, bool]] = {}
        self.seen_bets: dict[int, float] = {}

    def update(self, table: Table) -> None:
        for seat in table.seats:
            number, chips, seen = seat["seat"], int(seat["chips_in"]), bool(seat["seen"])
            before = self._last.get(number)
            if before is not None and seen and chips > before[0]:
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
        table = Table(info)
        self.reader.update(table)
        if "accept" in legal:
            asker = int(info["sideshow"]["asker"])
            chance = self._beat(table, asker, extra=self.ASKER_RANGE)
            return legal.pick("accept" if chance > 0.5 else "refuse")
        if not table.seen:
            if "look" in legal and not ("bet_min" in legal and self._stay_blind(table)):
                return legal.by_name["look"]
            return legal.pick("bet_min", "look", "show", "all_in", "pack")
        return self._seen(table, legal)

    def _seen(self, table: Table, legal: LegalMoves) -> int:
        chance = 1.0
        for opponent in table.opponents:
            chance *= self._beat(table, int(opponent["seat"]))
        if chance >= self.RAISE_AT and self._raises < self.MAX_RAISES and "bet_max" in legal:
            self._raises += 1
            return legal.by_name["bet_max"]
        if "show" in legal:
            cost = table.cost("show")
            return legal.pick("show" if chance > cost / (table.pot + cost) else "pack")
        heads_up = len(table.opponents) == 1
        if "sideshow" in legal and not heads_up:
            target = table.info["previous_player"]
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
        """The chance to beat ``seat``: exact when its cards are known, else by range."""
        theirs = table.seats[seat]["cards"]
        if theirs is not None:
            odds = HandOdds.of(table.rules)
            ours = odds.value(parse_cards(table.info["cards"]))
            other = odds.value(parse_cards(theirs))
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

    def act(self, observation: Observation, mask: Mask, info: Info) -> int:
        if self.style.mistakes and self.rng.random() < self.style.mistakes:
            self.reader.update(Table(info))
            return LegalMoves(mask, info).any(self.rng)
        return super().act(observation, mask, info)

    def _percentile(self, table: Table) -> float:
        return float(table.info["strength"])

    def _stay_blind(self, table: Table) -> bool:
        if any(self._range(int(o["seat"])) <= self.RANGE_NARROWING for o in table.opponents):
            return False  # a seen opponent has bet: it reads that as strength and looks
        made = int(table.me["blind_bets"])
        left = table.blind_turns_left()
        wanted = self.style.blind_turns
        if wanted is None:  # every blind turn the table allows
            return made < self.UNLIMITED_BLIND_TURNS if left is None else left > 0
        return made < wanted and (left is None or left > 0)


class AutoAgent(Agent):
    """The automatic player of [000]: looks at once and bets by its hand's category."""

    name = "auto"

    def act(self, observation: Observation, mask: Mask, info: Info) -> int:
        legal = LegalMoves(mask, info)
        if "look" in legal:
            return legal.by_name["look"]
        category = info.get("category")
        strength = float(info.get("strength") or 0.0)
        if "accept" in legal:
            return legal.pick("accept" if category != "high_card" else "refuse")
        if category in ("colour", "sequence", "pure_sequence", "trail"):
            return legal.pick("bet_max", "show", "bet_min", "all_in", "pack")
        if category == "pair":
            return legal.pick("show", "bet_min", "all_in", "pack")
        if strength >= 0.6:  # a strong high card: ace or king high
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
