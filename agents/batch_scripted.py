"""The scripted agents in batched form: one object plays its seats at every table of a
:class:`~teenpatti_env.environment.batched.TableBatch`, deciding for all of them at once
from the batch's state, decision for decision as the per-table agents of
:mod:`agents.scripted` decide from their info views, in every rule set the batch plays
but the selection phases and ``buy_a_joker``, whose choices the scripted agents make per
table only (:func:`per_table_choices`; :class:`~agents.batch_view.Decisions`).

What a per-table agent remembers within a hand (the bets each opponent made after
looking, its own raises) is kept per table and seat in arrays. Randomness is shared the
per-table way: every table and seat has its own ``numpy`` Generator, made from the seed
the per-table agent would be made with, and it draws the same numbers in the same order
(so a batched ``random`` or ``easy`` given the per-table agents' seeds plays exactly
their hands). Only the agents that draw (``random``, ``easy``, ``medium``) make
generators, and only for the seats that draw.

>>> from teenpatti_env.environment.batched import TableBatch
>>> batch = TableBatch(4, "classic", autoreset=False)
>>> step = batch.reset(seed=1)
>>> hard = batch_agent("hard", batch)
>>> rows = np.flatnonzero(step.to_act >= 0)
>>> hard.act(rows, step.observations[rows], step.action_masks[rows]).shape
(4,)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from agents import SCRIPTED_AGENTS, make_agent
from agents.base import BatchPolicy
from agents.batch_view import BatchLegal, Decisions, Flags, Rows
from agents.odds import HandOdds
from agents.scripted import AutoAgent, EquityAgent, LevelAgent, ReadingAgent, Style
from teenpatti_env.environment.batched import TableBatch
from teenpatti_env.rules import Rules

Seeds = NDArray[np.int64] | int | None
"""The per-table agents' seeds: ``[N, n]`` (one per table and seat), one int that
spawns them, or ``None`` (fresh entropy)."""


class BatchAgent:
    """An agent's batched form, bound to one batch: :meth:`act` decides at the tables
    ``rows`` (each waiting for a seat this agent plays), :meth:`reset` forgets the hand at
    some tables (call it whenever a table is dealt a new hand)."""

    name = "agent"
    hands_only = False
    """Plays one hand an episode only: its memory and its phase choices (``continue``
    between a session's hands) are checked against the per-table agent in hands alone."""

    def __init__(self, batch: TableBatch, seeds: Seeds = None) -> None:
        if self.hands_only and batch.episode != "hand":
            raise ValueError(f"the batched form of {self.name!r} plays one hand an episode "
                             "(episode='hand'): play a session per table")
        self.batch = batch
        self.names = batch.layout.names
        shape = (batch.num_tables, batch.num_seats)
        if seeds is None or isinstance(seeds, (int, np.integer)):
            state = np.random.SeedSequence(seeds).generate_state(shape[0] * shape[1],
                                                                   dtype=np.uint32)
            seeds = state.astype(np.int64).reshape(shape)
        self.seeds = np.asarray(seeds, dtype=np.int64)
        if self.seeds.shape != shape:
            raise ValueError(f"seeds must have shape {shape} (tables, seats), "
                             f"got {self.seeds.shape}")
        self._rngs: dict[tuple[int, int], np.random.Generator] = {}

    def act(self, rows: Rows, observations: NDArray[np.float32],
            masks: NDArray[np.int8]) -> Rows:
        """The actions at the tables ``rows`` (their observations and masks given)."""
        return self.decide(Decisions(self.batch, rows), BatchLegal(masks, self.names))

    def decide(self, d: Decisions, legal: BatchLegal) -> Rows:
        raise NotImplementedError

    def reset(self, tables: Flags) -> None:
        """Forget the hand at the tables ``tables`` (the generators go on)."""

    def generators(self, d: Decisions, which: Flags) -> list[np.random.Generator]:
        """The generator of each selected row's table and seat, made on first use."""
        out = []
        for t, s in zip(d.rows[which].tolist(), d.me[which].tolist(), strict=True):
            rng = self._rngs.get((t, s))
            if rng is None:
                rng = self._rngs[t, s] = np.random.default_rng(int(self.seeds[t, s]))
            out.append(rng)
        return out


class BatchRandom(BatchAgent):
    """:class:`~agents.scripted.RandomAgent`: uniform over the legal actions."""

    name = "random"

    def decide(self, d: Decisions, legal: BatchLegal) -> Rows:
        every = np.ones(d.count, dtype=np.bool_)
        return legal.any(self.generators(d, every), every)


class BatchAuto(BatchAgent):
    """:class:`~agents.scripted.AutoAgent`: looks at once, bets by its hand's strength."""

    name = "auto"
    hands_only = True

    def decide(self, d: Decisions, legal: BatchLegal) -> Rows:
        strength = d.strength
        strong, good = strength >= AutoAgent.STRONG, strength >= AutoAgent.GOOD
        out = np.where(strong, legal.pick("bet_max", "show", "bet_min", "all_in", "pack"),
                       np.where(good, legal.pick("show", "bet_min", "all_in", "pack"),
                                np.where(strength >= AutoAgent.HIGH,
                                         legal.pick("bet_min", "show", "all_in", "pack"),
                                         legal.pick("pack"))))
        accept = legal.has("accept")
        out[accept] = np.where(good, legal.pick("accept"), legal.pick("refuse"))[accept]
        look = legal.has("look")
        out[look] = legal.index["look"]
        return out


class BatchReading(BatchAgent):
    """:class:`~agents.scripted.ReadingAgent` for many tables: its look reader and raise
    count are arrays over tables and seats; subclasses give :meth:`_percentile` and
    :meth:`_stay_blind` as the per-table subclasses do."""

    per_table: type[ReadingAgent] = ReadingAgent
    reading = 1.0
    hands_only = True

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


class PolicySeats(BatchAgent):
    """A trained policy's batched form (:meth:`Agent.batch_policy`) as a batch agent: it
    reads only the observations and masks."""

    def __init__(self, name: str, policy: BatchPolicy, batch: TableBatch) -> None:
        super().__init__(batch, 0)
        self.name = name
        self.policy = policy

    def act(self, rows: Rows, observations: NDArray[np.float32],
            masks: NDArray[np.int8]) -> Rows:
        return self.policy(observations, masks)


BATCHED_SCRIPTED: dict[str, Callable[[TableBatch, Seeds], BatchAgent]] = {
    "random": BatchRandom,
    "auto": BatchAuto,
    "easy": lambda batch, seeds: BatchLevel("easy", batch, seeds),
    "medium": lambda batch, seeds: BatchLevel("medium", batch, seeds),
    "hard": lambda batch, seeds: BatchLevel("hard", batch, seeds),
    "equity": BatchEquity,
}
"""The batched form of every scripted agent (:data:`agents.SCRIPTED_AGENTS`), by name."""
assert set(BATCHED_SCRIPTED) == set(SCRIPTED_AGENTS)


BatchForm = Callable[[TableBatch, Seeds], BatchAgent]
"""Makes an agent's batched form at a batch: ``form(batch, seeds) -> BatchAgent``."""


def per_table_choices(rules: Rules) -> str:
    """The choices of ``rules``'s variant that the scripted agents make per table only
    (:mod:`agents.phases`: a selection phase's, buying a joker), or ``""``."""
    spec = rules.spec
    return " and ".join(filter(None, (spec.phase, "buy_a_joker" if spec.buy_a_joker else "")))


def batched_form(name: str, rules: Rules | None = None) -> BatchForm | None:
    """How to make the batched form of the agent ``name`` (a scripted agent, or an agent
    with a batched policy such as a trained policy), or ``None`` if it has none (a
    scripted agent in a variant with a selection phase or joker buying); told the table's
    ``rules`` (its ``check_rules``) where given, as a general policy needs."""
    factory = BATCHED_SCRIPTED.get(name)
    if factory is not None:  # they make no phase or buying choices (agents/phases.py)
        return None if rules is not None and per_table_choices(rules) else factory
    agent = make_agent(name)
    if rules is not None:
        agent.check_rules(rules)
    policy = agent.batch_policy()
    if policy is None:
        return None
    return lambda batch, seeds: PolicySeats(name, policy, batch)


def batch_agent(name: str, batch: TableBatch, seeds: Seeds = None) -> BatchAgent:
    """The batched form of the agent ``name`` at ``batch``: a scripted agent's, whose
    table and seat ``(t, s)`` draws as the per-table agent seeded ``seeds[t, s]`` would,
    or a trained policy's; a ``ValueError`` for an agent without one."""
    form = batched_form(name, batch.rules)
    if form is None:
        choices = per_table_choices(batch.rules)
        why = "" if not choices or name not in BATCHED_SCRIPTED else (
            f" in the variant {batch.rules.spec.name!r} (a scripted agent's {choices} "
            "choices are made per table only)")
        raise ValueError(f"agent {name!r} has no batched form{why}")
    return form(batch, seeds)
