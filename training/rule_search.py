"""A best response by search: the best setting of the rule family against a target.

:mod:`agents.rule_strategy` is a family of deterministic strategies with twelve numbers.
:func:`search_rule_response` looks for the setting that wins most from a target at the
measured composition (one seat of the searcher, the target in every other seat) with a
derivative-free optimiser: a random search over the parameter box (among its draws the
differently styled settings of :data:`agents.rule_strategy.STYLES`), then rounds of the
cross-entropy method (a Gaussian over the box, refitted each round to the best quarter of
its draws). The settings with the best mean score over the rounds they played are played
again in every round, and the finalists are the best of them by that mean: a setting's
score in one round is noisy, and the most aggressive settings, often the best, are the
noisiest.

Every candidate of a round plays the same deals (common random numbers, so the round ranks
settings, not luck), each deal replayed once per seat with the searcher in that seat
(duplicate dealing); each round deals fresh cards, and the last few leaders are compared on
deals of their own before the winner is named. Against a target with a batched form (a
trained policy, a scripted agent, a rule strategy: :func:`agents.batch_scripted.
batched_form`) every candidate of a round plays in one :class:`TableBatch`, each row with
its own parameters; against any other agent each candidate is one per-table duplicate
arena of the round's seed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents import make_agent
from agents.arena import head_to_head
from agents.base import Agent
from agents.batch_phases import BatchPhases
from agents.batch_scripted import BatchForm, batched_form, policy_form
from agents.rule_strategy import (
    HIGH,
    LOW,
    PARAMETERS,
    STYLES,
    RuleLayout,
    check_params,
    decide,
    parse_spec,
    spec_of,
)
from teenpatti_env.engine import Hand
from teenpatti_env.environment.batch_phase import dealt_width
from teenpatti_env.environment.batch_variant import given_deal_rules
from teenpatti_env.environment.batched import TableBatch
from teenpatti_env.rules import Rules

MAX_TABLES = 65_536
"""The most tables one batch steps together (a round is split into batches of candidates)."""


@dataclass(frozen=True)
class SearchBudget:
    """How much the search plays: a random round of ``random_rounds * population``
    settings, then ``rounds`` cross-entropy rounds of ``population`` settings, each
    setting on ``deals`` deals (``deals * seats`` hands) a round; then the ``finalists``
    best compared on ``final_deals`` deals."""

    population: int = 48
    rounds: int = 16
    deals: int = 250
    finalists: int = 4
    final_deals: int = 1_000
    elite_share: float = 0.25
    random_rounds: int = 3
    carried: int = 4
    """Settings with the best mean over the rounds they played, carried into each round."""

    def __post_init__(self) -> None:
        for name in ("population", "rounds", "deals", "finalists", "final_deals",
                     "random_rounds", "carried"):
            value = getattr(self, name)
            low = 0 if name in ("rounds", "carried") else 1
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise ValueError(f"{name} must be an int >= {low}, got {value!r}")
        if not 0.0 < self.elite_share <= 1.0:
            raise ValueError(f"elite_share must be in (0, 1], got {self.elite_share!r}")

    def hands(self, seats: int) -> int:
        """Hands the whole search plays at ``seats``-seat tables."""
        searched = self.population * (self.rounds + self.random_rounds) * self.deals
        return seats * (searched + self.finalists * self.final_deals)


@dataclass
class SearchResult:
    """The setting found, its agent spec and what the search saw."""

    params: NDArray[np.float64]
    spec: str
    score: float
    """Boots per hand it won on the finalists' deals (training deals: biased upward)."""
    hands: int
    seconds: float
    curve: list[tuple[int, float]] = field(default_factory=list)
    """(hands played so far, best score of that round)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "params": {name: float(v) for (name, _, _), v in zip(PARAMETERS, self.params,
                                                                   strict=True)},
            "spec": self.spec, "score": self.score, "hands": self.hands,
            "seconds": self.seconds, "curve": [list(point) for point in self.curve],
        }


def random_deals(rules: Rules, deals: int, rng: np.random.Generator) -> tuple[
    NDArray[np.int64], NDArray[np.int64], dict[str, list[Any]]
]:
    """``deals`` deals of ``rules``'s variant, each by the engine's own deal
    (:meth:`Hand.deal`): the private cards ``[deals, seats, private]`` (passing: six,
    ``-1`` past a seat's cards), the dealer of each and the variant's table cards
    (``community``, ``indicators``, ``chosen``, shopping's ``deck``: one entry per deal,
    as ``TableBatch.reset`` takes them; empty for a variant without)."""
    n = rules.num_players
    stacks = [rules.starting_stack] * n
    cards = np.full((deals, n, dealt_width(rules)), -1, dtype=np.int64)
    dealers = rng.integers(n, size=deals)
    table: dict[str, list[Any]] = {}
    for row in range(deals):
        dealt = Hand.deal(rules, stacks, int(dealers[row]), rng)
        for s, held in enumerate(dealt.cards):
            assert held is not None  # every seat dealt in
            cards[row, s, :len(held)] = held
        for key, entry in dealt.table_cards().items():
            table.setdefault(key, []).append(entry)
    return cards, dealers, table


def score_batched(
    rules: Rules, target: BatchForm, params: NDArray[np.float64], seed: int, deals: int,
) -> NDArray[np.float64]:
    """Boots per hand each setting (``params[C, P]``) wins in one seat against the target
    (its batched form ``target``) in the others, on the same ``deals`` deals (drawn from
    ``seed``), each replayed with the setting in every seat."""
    rng = np.random.default_rng([seed, 31])
    cards, dealers, table = random_deals(rules, deals, rng)
    agent_seed = int(rng.integers(2**31))  # a scripted target's draws: the same for all
    n = rules.num_players
    per_candidate = deals * n
    chunk = max(1, MAX_TABLES // per_candidate)
    scores = [_play_chunk(rules, target, params[start:start + chunk], cards, dealers,
                          table, agent_seed)
              for start in range(0, len(params), chunk)]
    return np.concatenate(scores)


def _play_chunk(rules: Rules, target: BatchForm, params: NDArray[np.float64],
                cards: NDArray[np.int64], dealers: NDArray[np.int64],
                table: dict[str, list[Any]], agent_seed: int) -> NDArray[np.float64]:
    n = rules.num_players
    count, deals = len(params), len(cards)
    tables = count * deals * n
    # Table order: candidate, deal, the searcher's seat.
    candidate = np.repeat(np.arange(count), deals * n)
    seat = np.tile(np.arange(n), count * deals)
    batch = TableBatch(tables, rules, autoreset=False)
    step = batch.reset(options={
        "cards": np.tile(np.repeat(cards, n, axis=0), (count, 1, 1)),
        "dealer": np.tile(np.repeat(dealers, n), count),
        **{key: [entry for entry in entries for _ in range(n)] * count
           for key, entries in table.items()},
    })
    layout = RuleLayout(batch.rules)
    # The target's seeds per deal and seat, the same for every candidate and rotation.
    seeds = np.random.SeedSequence(agent_seed).generate_state(deals * n, dtype=np.uint32)
    per_table = np.tile(np.repeat(seeds.astype(np.int64).reshape(deals, n), n, axis=0),
                        (count, 1))
    opponent = target(batch, per_table)
    # a selection phase's turns: the scripted agents' choices, as RuleAgent.act takes them
    phases = BatchPhases(batch) if rules.spec.phase else None
    while (step.to_act >= 0).any():
        actions = np.zeros(tables, dtype=np.int64)
        waiting = step.to_act >= 0
        mine = np.flatnonzero(waiting & (step.to_act == seat))
        theirs = np.flatnonzero(waiting & (step.to_act != seat))
        if len(mine):
            actions[mine] = decide(layout, params[candidate[mine]], step.observations[mine],
                                   step.action_masks[mine])
            if phases is not None:
                actions[mine] = phases.with_selections(mine, step.observations[mine],
                                                       step.action_masks[mine], actions[mine])
        if len(theirs):
            actions[theirs] = opponent.act(theirs, step.observations[theirs],
                                           step.action_masks[theirs])
        step = batch.step(actions)
    won = batch.net[np.arange(tables), seat] / rules.boot
    return np.asarray(won.reshape(count, deals * n).mean(axis=1), dtype=np.float64)


def score_per_table(
    rules: Rules, target: str, params: NDArray[np.float64], seed: int, deals: int,
) -> NDArray[np.float64]:
    """:func:`score_batched` for a target without a batched form: each setting is one
    per-table duplicate arena of ``deals`` deals on ``seed`` (the same deals for all)."""
    hands = deals * rules.num_players
    return np.array([
        head_to_head(spec_of(p), [target], tables=("1vN",), hands=hands, rules=rules,
                     seed=seed).rows[0].mean
        for p in params
    ])


def search_rule_response(
    target: str | Agent,
    rules: Rules,
    budget: SearchBudget | None = None,
    seed: int = 0,
    progress: bool = False,
    engine: str = "auto",
    start: NDArray[np.float64] | None = None,
) -> SearchResult:
    """The best setting of the rule family found against ``target`` (an agent name, or an
    agent with a batched policy); ``engine``: ``"batched"``, ``"per_table"`` or
    ``"auto"`` (batched when the target has a batched form). ``start`` (settings
    ``[K, P]``) joins the random round after the styled settings, as the league's
    searches carry what earlier searches found."""
    if engine not in ("auto", "batched", "per_table"):
        raise ValueError(f"engine must be auto, batched or per_table, got {engine!r}")
    budget = budget or SearchBudget()
    started = time.perf_counter()
    agent = make_agent(target, seed=seed) if isinstance(target, str) else target
    agent.check_rules(rules)
    form = None if engine == "per_table" else _batched_form(target, agent, rules)
    if engine == "batched" and form is None:
        raise ValueError(f"{agent.name} has no batched form: search it with "
                         "engine='per_table'")
    score: Callable[[NDArray[np.float64], int, int], NDArray[np.float64]]
    if form is not None:
        batched = form

        def score(params: NDArray[np.float64], round_seed: int, deals: int) -> Any:
            return score_batched(rules, batched, params, round_seed, deals)
    elif isinstance(target, str):
        name = target

        def score(params: NDArray[np.float64], round_seed: int, deals: int) -> Any:
            return score_per_table(rules, name, params, round_seed, deals)
    else:
        raise ValueError(f"{agent.name} has no batched form: name it by its agent spec "
                         "to search it on per-table arenas")

    rng = np.random.default_rng([seed, 17])
    span = HIGH - LOW
    seats = rules.num_players
    bar = _bar(budget.hands(seats), progress)
    curve: list[tuple[int, float]] = []
    played = 0
    archive = _Archive()
    # The random round: draws over the box, the styled settings among them.
    units = rng.random((budget.random_rounds * budget.population, len(PARAMETERS)))
    styled = (np.array(list(STYLES.values())) - LOW) / span
    if start is not None and len(start):
        given = (check_params(start).reshape(-1, len(PARAMETERS)) - LOW) / span
        styled = np.concatenate([styled, given])
        if len(styled) > len(units):  # every given setting plays: the round grows
            units = np.concatenate([units, rng.random((len(styled) - len(units),
                                                       len(PARAMETERS)))])
    units[: len(styled)] = styled[: len(units)]
    elite_count = max(2, round(budget.elite_share * budget.population))
    for round_index in range(budget.rounds + 1):
        if round_index:
            elite = archive.last_leaders[:elite_count]
            mean, std = elite.mean(axis=0), np.maximum(elite.std(axis=0), 0.03)
            units = np.clip(rng.normal(mean, std, (budget.population, len(PARAMETERS))), 0, 1)
            kept = archive.best(budget.carried)  # played again: their means firm up
            units[: len(kept)] = kept
        round_seed = int(rng.integers(2**31))
        scores = score(LOW + units * span, round_seed, budget.deals)
        archive.add(units, scores)
        played += len(units) * budget.deals * seats
        curve.append((played, float(scores.max())))
        if bar is not None:
            bar.update(len(units) * budget.deals * seats)
            bar.set_postfix(best=f"{scores.max():+.2f}")
    finalists = LOW + archive.best(budget.finalists) * span
    final = score(finalists, int(rng.integers(2**31)), budget.final_deals)
    played += len(finalists) * budget.final_deals * seats
    if bar is not None:
        bar.update(len(finalists) * budget.final_deals * seats)
        bar.close()
    best = int(np.argmax(final))
    spec = spec_of(finalists[best])
    return SearchResult(parse_spec(spec), spec, float(final[best]),
                        played, time.perf_counter() - started, curve)


class _Archive:
    """Every setting played so far (in the unit box) and its mean score over the rounds
    it played: one round's score is noisy, a high-variance setting's most of all."""

    def __init__(self) -> None:
        self.sums: dict[bytes, float] = {}
        self.counts: dict[bytes, int] = {}
        self.units: dict[bytes, NDArray[np.float64]] = {}
        self.last_leaders: NDArray[np.float64] = np.zeros((0, len(PARAMETERS)))

    def add(self, units: NDArray[np.float64], scores: NDArray[np.float64]) -> None:
        for row, value in zip(units, scores, strict=True):
            key = row.tobytes()
            self.units[key] = row.copy()
            self.sums[key] = self.sums.get(key, 0.0) + float(value)
            self.counts[key] = self.counts.get(key, 0) + 1
        self.last_leaders = units[np.argsort(-scores, kind="stable")]

    def best(self, count: int) -> NDArray[np.float64]:
        """The ``count`` settings with the best mean score (first played first on ties)."""
        keys = sorted(self.units, key=lambda key: -self.sums[key] / self.counts[key])
        return np.array([self.units[key] for key in keys[:count]]).reshape(
            -1, len(PARAMETERS))


def _batched_form(target: str | Agent, agent: Agent, rules: Rules) -> BatchForm | None:
    """The target's batched form, if the batched engine can play it at ``rules`` (every
    variant :class:`TableBatch` plays, the scripted agents' batched forms included)."""
    try:
        given_deal_rules(rules)
    except ValueError:
        return None
    if isinstance(target, str):
        return batched_form(target, rules)
    return policy_form(agent)


def _bar(total: int, progress: bool) -> Any:
    if not progress:
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="hand", desc="rule search", smoothing=0.1)
