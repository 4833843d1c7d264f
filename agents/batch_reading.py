"""The batched forms of the reading agents: ``easy``, ``medium``, ``hard`` and ``equity``.

:class:`BatchReading` is :class:`~agents.scripted.ReadingAgent` over many tables: its
look reader (the bets each opponent made after looking) and its raise count are arrays
over tables and seats, and every choice is taken for all the rows at once, in the
per-table agent's order and with its numbers. :class:`BatchLevel` and
:class:`BatchEquity` give the hand percentile and when to stay blind, as
:class:`~agents.scripted.LevelAgent` and :class:`~agents.scripted.EquityAgent` do.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from agents.batch_agent import BatchAgent, Seeds
from agents.batch_view import BatchLegal, Decisions, Flags, Rows
from agents.odds import HandOdds
from agents.scripted import EquityAgent, LevelAgent, ReadingAgent, Style
from teenpatti_env.environment.batched import TableBatch


class BatchReading(BatchAgent):
    """:class:`~agents.scripted.ReadingAgent` for many tables: its look reader and raise
    count are arrays over tables and seats; subclasses give :meth:`_percentile` and
    :meth:`_stay_blind` as the per-table subclasses do."""

    per_table: type[ReadingAgent] = ReadingAgent
    reading = 1.0

    def __init__(self, batch: TableBatch, seeds: Seeds = None) -> None:
        super().__init__(batch, seeds)
        tables, n = batch.num_tables, batch.num_seats
        self.seen_bets = np.zeros((tables, n, n))
        """``LookReader.seen_bets`` of each table's seat (0: none counted)."""
        self.last_chips = np.zeros((tables, n, n), dtype=np.int64)
        self.last_seen = np.zeros((tables, n, n), dtype=np.bool_)
        self.has_last = np.zeros((tables, n), dtype=np.bool_)
        self.raises = np.zeros((tables, n), dtype=np.int64)

    def reset(self, tables: Flags) -> None:
        for state in (self.seen_bets, self.last_chips, self.last_seen, self.has_last,
                      self.raises):
            state[tables] = 0

    def decide(self, d: Decisions, legal: BatchLegal) -> Rows:
        self._cache: dict[float, NDArray[np.float64]] = {}
        self._pct: NDArray[np.float64] | None = None
        self._read(d)
        out = np.full(d.count, -1, dtype=np.int64)
        look = (legal.has("look") & ~d.my_seen
                & ~(legal.has("bet_min") & self._stay_blind(d)))
        out[look] = legal.index.get("look", -1)
        self._choose(d, legal, ~look, out)
        return out

    def _read(self, d: Decisions) -> None:
        """``LookReader.update`` at every row (see its docstring)."""
        rows, me = d.rows, d.me
        first = ~self.has_last[rows, me]
        chips, seen = d.chips_in, d.seen
        bets = self.seen_bets[rows, me]
        blind_cost = self.batch.rules.raise_multiple * d.stake
        beyond = chips - self.batch.rules.boot
        opening = first[:, None] & seen & (beyond > 0) & ~d.is_me
        bets[opening] = np.where(beyond > d.blind_bets * blind_cost[:, None], 1.0, 0.5)[opening]
        later = ~first[:, None] & seen & (chips > self.last_chips[rows, me])
        bets[later] += np.where(self.last_seen[rows, me], 1.0, 0.5)[later]
        self.seen_bets[rows, me] = bets
        self.last_chips[rows, me] = chips
        self.last_seen[rows, me] = seen
        self.has_last[rows, me] = True

    def _choose(self, d: Decisions, legal: BatchLegal, todo: Flags, out: Rows) -> None:
        """``ReadingAgent._choose`` at the rows ``todo``, written into ``out``."""
        accept = todo & legal.has("accept")
        if accept.any():
            chance = self._beat(d, np.maximum(d.asker, 0), self.per_table.ASKER_RANGE)
            out[accept] = np.where(chance > 0.5, legal.pick("accept"),
                                   legal.pick("refuse"))[accept]
        blind = todo & ~accept & ~d.my_seen
        out[blind] = legal.pick("bet_min", "look", "show", "all_in", "pack")[blind]
        self._seen(d, legal, todo & ~accept & d.my_seen, out)

    def _seen(self, d: Decisions, legal: BatchLegal, todo: Flags, out: Rows) -> None:
        if not todo.any():
            return
        agent, rules = self.per_table, self.batch.rules
        chance = np.ones(d.count)
        beats = self._beats(d, 1.0)
        for j in range(self.batch.num_seats):  # in seat order, as the per-table product
            chance = np.where(d.opponents[:, j], chance * beats[:, j], chance)
        bet_max = legal.has("bet_max")
        top = legal.index.get("bet_max", -1)

        def take(hit: Flags, actions: Rows | int) -> None:
            out[hit] = actions if isinstance(actions, int) else actions[hit]
            todo[hit] = False

        if rules.pot_cap is not None:
            take(todo & bet_max & (chance >= 0.5) & ~d.can_follow(d.low)
                 & (d.pot + d.high >= rules.pot_cap), top)
        raising = (todo & (chance >= agent.RAISE_AT) & bet_max
                   & (self.raises[d.rows, d.me] < agent.MAX_RAISES)
                   & d.can_follow(d.high, turns=agent.RESERVE_TURNS))
        self.raises[d.rows[raising], d.me[raising]] += 1
        take(raising, top)
        cost = d.cost("show")
        take(todo & legal.has("show"), np.where(chance > cost / (d.pot + cost),
                                                legal.pick("show"), legal.pick("pack")))
        sideshow = todo & legal.has("sideshow") & ~d.heads_up & (d.target >= 0)
        if sideshow.any():
            beat = self._beat(d, np.maximum(d.target, 0), 1.0)
            take(sideshow & (beat >= agent.SIDESHOW_AT), legal.index["sideshow"])
        call = legal.first("bet_min", "all_in")
        cost = np.where(legal.has("bet_min"), d.cost("bet"), d.cost("all_in"))
        needed = cost / (d.pot + cost) * np.where(d.heads_up, 1.0, agent.MULTIWAY_MARGIN)
        take(todo & (call >= 0) & (chance >= needed), call)
        take(todo, legal.pick("pack"))

    def _beat(self, d: Decisions, seats: Rows, extra: float) -> NDArray[np.float64]:
        """``ReadingAgent._beat`` against ``seats[i]`` at each row."""
        return self._beats(d, extra)[np.arange(d.count), seats]

    def _beats(self, d: Decisions, extra: float) -> NDArray[np.float64]:
        """``ReadingAgent._beat`` against every seat ``[M, n]`` (kept for the decision)."""
        cached = self._cache.get(extra)
        if cached is not None:
            return cached
        if self._pct is None:
            self._pct = self._percentile(d)
        bets = self.seen_bets[d.rows, d.me] * self.reading
        top = _powers(self.per_table.RANGE_NARROWING, bets) * extra
        chance = _beat_in_range(self._pct[:, None], top)
        # ReadingAgent._beat: a three-card hand it knows is beaten exactly (by its plain
        # strength when this seat sees none of its own cards; by value in a classic deal)
        theirs = d.full & (d.cards[:, :, 0] >= 0) & ~d.is_me
        blind = theirs & d.sees_none_own[:, None]
        exact = theirs & ~blind if d.classic else np.zeros_like(theirs)
        if exact.any():
            values = d.odds_values()
            ours = values[np.arange(d.count), d.me][:, None]
            compared = np.where(ours > values, 1.0, np.where(ours == values, 0.5, 0.0))
            chance[exact] = compared[exact]
        if blind.any():
            chance[blind] = 1.0 - d.odds.strengths(d.cards[blind])
        self._cache[extra] = chance
        return chance

    def _percentile(self, d: Decisions) -> NDArray[np.float64]:
        raise NotImplementedError

    def _stay_blind(self, d: Decisions) -> Flags:
        raise NotImplementedError


class BatchLevel(BatchReading):
    """:class:`~agents.scripted.LevelAgent` (``easy``, ``medium``, ``hard``)."""

    per_table = LevelAgent

    def __init__(self, level: str, batch: TableBatch, seeds: Seeds = None) -> None:
        if level not in LevelAgent.STYLES:
            raise ValueError(f"level must be one of {', '.join(LevelAgent.STYLES)}, "
                             f"got {level!r}")
        self.name = level
        super().__init__(batch, seeds)
        self.style: Style = LevelAgent.STYLES[level]
        self.reading = self.style.reading

    def _choose(self, d: Decisions, legal: BatchLegal, todo: Flags, out: Rows) -> None:
        if self.style.mistakes:
            draws = np.array([rng.random() for rng in self.generators(d, todo)])
            mistaken = np.zeros(d.count, dtype=np.bool_)
            mistaken[np.flatnonzero(todo)[draws < self.style.mistakes]] = True
            if mistaken.any():
                out[mistaken] = legal.any(self.generators(d, mistaken), mistaken,
                                          without="look")
            todo = todo & ~mistaken
        super()._choose(d, legal, todo, out)

    def _percentile(self, d: Decisions) -> NDArray[np.float64]:
        return d.strength

    def _stay_blind(self, d: Decisions) -> Flags:
        made = d.my_blind_bets
        limit = self.batch.rules.max_blind_bets
        left = None if limit is None else np.maximum(limit - made, 0)
        wanted = self.style.blind_turns
        if wanted is None:
            stay = made < LevelAgent.UNLIMITED_BLIND_TURNS if left is None else left > 0
        else:
            stay = (made < wanted) & (True if left is None else left > 0)
        if self.reading:
            counted = (self.seen_bets[d.rows, d.me] > 0) & d.opponents
            stay = stay & ~counted.any(axis=1)
        return np.asarray(stay, dtype=np.bool_)


class BatchEquity(BatchReading):
    """:class:`~agents.scripted.EquityAgent`: exact odds with card removal."""

    name = "equity"
    per_table = EquityAgent

    def _stay_blind(self, d: Decisions) -> Flags:
        cheap = d.cost("bet") <= EquityAgent.CHEAP_BLIND * d.pot
        return cheap & ~(d.opponents & d.seen).any(axis=1)

    def _percentile(self, d: Decisions) -> NDArray[np.float64]:
        percentile = d.strength.copy()
        if not d.classic:  # EquityAgent: the engine's own valuation of the variant
            return percentile
        others = d.known & ~d.is_me
        dead = others.any(axis=1)
        plain = d.knows_own & ~dead
        mine = d.my_cards
        flat = mine[plain, 0] * 2704 + mine[plain, 1] * 52 + mine[plain, 2]
        percentile[plain] = d.odds.percentiles()[flat]
        rules = self.batch.rules
        for i in np.flatnonzero(d.knows_own & dead).tolist():
            cards = tuple(sorted(d.cards[i][others[i]].ravel().tolist()))
            percentile[i] = _percentile(rules.best_sequence, rules.ranking_lowball,
                                        tuple(sorted(mine[i].tolist())), cards)
        return percentile


@lru_cache(maxsize=65536)
def _percentile(best_sequence: str, lowball: bool, mine: tuple[int, ...],
                dead: tuple[int, ...]) -> float:
    return HandOdds.of({"best_sequence": best_sequence, "lowball": lowball}).percentile(
        mine, dead)


def _powers(base: float, exponents: NDArray[np.float64]) -> NDArray[np.float64]:
    """``base ** exponents`` by Python's own float power (numpy's may differ in the last
    bit), once per distinct exponent."""
    distinct, where = np.unique(exponents, return_inverse=True)
    powers: NDArray[np.float64] = np.array([float(base ** x) for x in distinct.tolist()])
    return powers[where.reshape(exponents.shape)]


def _beat_in_range(percentile: NDArray[np.float64], top: NDArray[np.float64]
                   ) -> NDArray[np.float64]:
    """:func:`agents.odds.beat_in_range` of many rows."""
    top = np.minimum(np.maximum(top, 1e-9), 1.0)
    chance: NDArray[np.float64] = np.minimum(np.maximum((percentile - (1.0 - top)) / top, 0.0),
                                             1.0)
    return chance
