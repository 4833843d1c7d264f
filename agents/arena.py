"""Head-to-head arena: agents play each other with duplicate dealing and honest statistics.

Play is organised in *deals*. For each deal a lineup of agents is drawn from the pool
(without repetition when the pool is at least as large as the table, otherwise every agent
the same number of times, give or take one), the cards and the dealer are drawn, and with
duplicate dealing the same deal is replayed once per seat with the lineup rotated one seat
each time, so every agent of the lineup holds every hand of the deal. Card luck then
cancels within the deal, and the deal is the unit of the confidence intervals
(:mod:`agents.stats`). Every deal has its own seed derived from the arena's seed, so the
report does not depend on how many worker processes played it.

The *table composition* says who sits at the tables. The default, the field, draws the
lineup of every deal from the pool as above, so an agent's result depends on who else is in
the pool. The pair compositions measure one agent against one other whatever the field:
``2v2`` seats two copies of each of two agents at a four-seat table, ``1vN`` one seat of
an agent against copies of another in every other seat (``AvB`` in general). Each pairing
is its own duplicate arena, and a report over many pairings adjusts its significance for
the number of comparisons (Holm-Bonferroni, :func:`agents.stats.holm_adjusted`).

>>> report = run_arena(["random", "equity"], hands=16, rules="classic", seed=3)
>>> report.hands, sorted(report.agents)
(16, ['equity', 'random'])
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, NamedTuple, overload

import numpy as np
from numpy.typing import NDArray

from agents import make_agent
from agents.base import Agent
from agents.batch_scripted import BatchForm, batched_form
from agents.stats import (
    Interval,
    finite_or_none,
    holm_adjusted,
    ratio_interval,
    two_sided_p_value,
)
from teenpatti_env.engine import Hand
from teenpatti_env.environment.aec import raw_env
from teenpatti_env.environment.batch_kernels import HAVE_NUMBA
from teenpatti_env.environment.batched import TableBatch, classic_family
from teenpatti_env.rules import Rules

TRACKED_ACTIONS = ("look", "pack", "show", "sideshow")
"""Actions whose rate per hand the report gives for every agent."""

DEALS_PER_TASK = 25
"""Deals one worker plays per task (a progress step)."""

ENGINES = ("auto", "batched", "per_table")

CONFIDENCE = 0.95
"""Confidence of every interval, and one minus the family-wise level of adjusted claims."""

RulesLike = Rules | str | dict[str, Any] | None


@dataclass(frozen=True)
class Composition:
    """Who sits at the tables: the field (``seats`` is ``None``: a lineup drawn from the
    pool for every deal) or ``seats[0]`` seats of one agent against ``seats[1]`` seats of
    another, in an order drawn for every deal."""

    name: str
    seats: tuple[int, int] | None = None

    @property
    def symmetric(self) -> bool:
        """Both agents hold as many seats (``2v2``): a pairing is the same either way."""
        return self.seats is not None and self.seats[0] == self.seats[1]

    def describe(self) -> str:
        if self.seats is None:
            return "field (a lineup drawn from the pool for every deal)"
        one, other = self.seats
        if self.symmetric:
            return f"{self.name} ({one} seats of each agent)"
        return (f"{self.name} ({one} seat{'s' if one > 1 else ''} of the agent against "
                f"{other} cop{'ies' if other > 1 else 'y'} of the opponent)")


FIELD = Composition("field")

TABLE_HELP = "field, 2v2, 1vN or AvB"

_PAIR_TABLE = re.compile(r"([0-9]{1,2})v([0-9]{1,2}|N)", re.IGNORECASE)


def parse_table(text: str, players: int) -> Composition:
    """The composition ``text`` names at a table of ``players`` seats: ``field``, or
    ``AvB``: ``A`` seats of one agent against ``B`` of another, ``A + B = players``, where
    ``B`` may be ``N``, every seat left (``1vN`` at four seats is ``1v3``)."""
    if text == FIELD.name:
        return FIELD
    match = _PAIR_TABLE.fullmatch(text)
    if match is None:
        raise ValueError(f"unknown table composition {text!r}: expected {TABLE_HELP} "
                         "(A seats of one agent against B of another)")
    one = int(match[1])
    other = players - one if match[2].upper() == "N" else int(match[2])
    if one < 1 or other < 1:
        raise ValueError(f"table {text!r} needs at least one seat for each agent, and the "
                         f"table has {players} seats")
    if one + other != players:
        raise ValueError(f"table {text!r} seats {one + other} players but the table has "
                         f"{players} seats")
    return Composition(f"{one}v{other}", (one, other))


@dataclass(frozen=True)
class ArenaConfig:
    """What to play: the pool, the table, how many hands and the seed."""

    agents: tuple[str, ...]
    rules: Rules
    hands: int
    seed: int
    duplicate: bool = True
    table: Composition = FIELD
    """Who sits at the tables; a pair composition has a pool of its two agents."""

    @property
    def players(self) -> int:
        return self.rules.num_players

    @property
    def rotations(self) -> int:
        """Hands per deal: one per seat with duplicate dealing, else one."""
        return self.players if self.duplicate else 1

    @property
    def deals(self) -> int:
        return math.ceil(self.hands / self.rotations)


@dataclass
class Deals:
    """The raw results of a run, one row per deal: ``[deal, rotation, seat]`` arrays."""

    agent: NDArray[np.int16]
    """Pool index of the agent in each seat."""
    net: NDArray[np.int64]
    """Chips won (or lost) by each seat."""
    actions: NDArray[np.bool_]
    """``[deal, rotation, seat, k]``: the seat took ``TRACKED_ACTIONS[k]`` in that hand."""

    @staticmethod
    def concat(parts: Sequence[Deals]) -> Deals:
        return Deals(
            np.concatenate([p.agent for p in parts]),
            np.concatenate([p.net for p in parts]),
            np.concatenate([p.actions for p in parts]),
        )


def draw_lineup(pool_size: int, players: int, rng: np.random.Generator) -> NDArray[np.int16]:
    """Pool indices for the seats of one deal: distinct when the pool is large enough,
    otherwise each agent ``players // pool_size`` times and a random few once more."""
    if pool_size >= players:
        return np.asarray(rng.choice(pool_size, size=players, replace=False), dtype=np.int16)
    copies = np.full(pool_size, players // pool_size)
    copies[rng.choice(pool_size, size=players % pool_size, replace=False)] += 1
    return shuffled_lineup(copies, rng)


def shuffled_lineup(
    copies: Sequence[int] | NDArray[np.int64], rng: np.random.Generator
) -> NDArray[np.int16]:
    """Pool indices for the seats of one deal: agent ``i`` in ``copies[i]`` seats, the
    seats in random order."""
    chosen = rng.permutation(np.repeat(np.arange(len(copies)), copies))
    return np.asarray(chosen, dtype=np.int16)


def deal_seed(config: ArenaConfig, deal: int) -> np.random.Generator:
    """The generator of deal number ``deal`` of a run (duplicate and independent runs
    with the same seed draw different deals)."""
    return np.random.default_rng([config.seed, deal, int(config.duplicate)])


def play_deals(config: ArenaConfig, first: int, count: int) -> Deals:
    """Play deals ``first .. first + count - 1`` of ``config`` (each on its own seed)."""
    env = raw_env(rules=config.rules)
    names = env.layout.names
    tracked = {name: k for k, name in enumerate(TRACKED_ACTIONS)}
    players, rotations = config.players, config.rotations
    agent_ids = np.zeros((count, rotations, players), dtype=np.int16)
    nets = np.zeros((count, rotations, players), dtype=np.int64)
    actions = np.zeros((count, rotations, players, len(TRACKED_ACTIONS)), dtype=np.bool_)
    pool = config.agents
    for row in range(count):
        lineup, deal_options, deal_seed_value, rng = _draw_deal(config, first + row)
        agent_seeds = rng.integers(2**31, size=(rotations, players))
        for rotation in range(rotations):
            seated = [int(lineup[(seat + rotation) % players]) for seat in range(players)]
            agents: dict[str, Agent] = {
                f"player_{seat}": make_agent(pool[a], int(agent_seeds[rotation, seat]))
                for seat, a in enumerate(seated)
            }
            for agent in agents.values():
                agent.reset()
            env.reset(seed=deal_seed_value, options=deal_options)
            took = actions[row, rotation]
            for name in env.agent_iter():
                observation, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                action = agents[name].act(
                    observation["observation"], observation["action_mask"], env.view(name)
                )
                kind = tracked.get(names[action])
                if kind is not None:
                    took[env.agent_name_mapping[name], kind] = True
                env.step(action)
            hand = env.hand
            assert hand is not None and hand.net is not None
            agent_ids[row, rotation] = seated
            nets[row, rotation] = hand.net
    return Deals(agent_ids, nets, actions)


BATCHED_DEALS = 1024
"""Deals the batched engine plays at once (their hands are its tables)."""


def batch_policies(config: ArenaConfig) -> list[BatchForm] | None:
    """Every pool agent's batched form when the batched engine can play the whole run
    (classic family rules, every agent with a batched form: the scripted agents and
    trained policies), else ``None``."""
    try:
        classic_family(config.rules)
    except ValueError:
        return None
    forms = [batched_form(name) for name in config.agents]
    if any(form is None for form in forms):
        return None
    return forms  # type: ignore[return-value]


class _Deal(NamedTuple):
    """One deal of a run, drawn the same whatever path plays it."""

    lineup: NDArray[np.int16]
    options: dict[str, Any]
    """``env.reset`` options: the dealer and, unless under dealer's choice, the cards."""
    seed: int | None
    """``env.reset``'s seed under dealer's choice (C1: dealt after the choice)."""
    rng: np.random.Generator
    """The deal's generator, after the deal (the agents' seeds come next)."""


def _draw_deal(config: ArenaConfig, deal: int) -> _Deal:
    """Deal number ``deal`` of ``config``, from the deal's own generator."""
    rng = deal_seed(config, deal)
    seats = config.table.seats
    lineup = (draw_lineup(len(config.agents), config.players, rng) if seats is None
              else shuffled_lineup(seats, rng))
    dealer = int(rng.integers(config.players))
    stacks = [config.rules.starting_stack] * config.players
    if config.rules.dealers_choice is None:
        dealt = Hand.deal(config.rules, stacks, dealer, rng)  # the variant's whole deal
        options = {"cards": dealt.cards, "dealer": dealer, **dealt.table_cards()}
        return _Deal(lineup, options, None, rng)
    # C1: dealt after the dealer's choice, from one shuffle per deal
    return _Deal(lineup, {"dealer": dealer}, int(rng.integers(2**63)), rng)


def play_deals_batched(
    config: ArenaConfig, first: int, count: int, policies: Sequence[BatchForm]
) -> Deals:
    """:func:`play_deals` on the batched engine: every hand of the deals is a table, and
    each agent's batched form (:mod:`agents.batch_scripted`) acts for all its seats to act
in one call, a scripted one seeded per table and seat as :func:`play_deals` seeds it.
Same deals, same results."""
    players, rotations = config.players, config.rotations
    tables = count * rotations
    seated = np.zeros((count, rotations, players), dtype=np.int16)
    cards = np.zeros((count, rotations, players, 3), dtype=np.int64)
    dealers = np.zeros((count, rotations), dtype=np.int64)
    # each table and seat's agent seed, drawn as play_deals draws it after the deal
    seeds = np.zeros((count, rotations, players), dtype=np.int64)
    for row in range(count):
        lineup, options, _, rng = _draw_deal(config, first + row)
        seeds[row] = rng.integers(2**31, size=(rotations, players))
        for rotation in range(rotations):
            seated[row, rotation] = [lineup[(seat + rotation) % players]
                                     for seat in range(players)]
        cards[row] = options["cards"]
        dealers[row] = options["dealer"]
    batch = TableBatch(tables, config.rules, autoreset=False)
    step = batch.reset(options={"cards": cards.reshape(tables, players, 3),
                                "dealer": dealers.reshape(tables)})
    flat_seats = seated.reshape(tables, players)
    agents = [form(batch, seeds.reshape(tables, players)) for form in policies]
    names = batch.layout.names
    tracked = np.array([TRACKED_ACTIONS.index(name) if name in TRACKED_ACTIONS else -1
                        for name in names])
    actions_taken = np.zeros((tables, players, len(TRACKED_ACTIONS)), dtype=np.bool_)
    rows = np.arange(tables)
    while (step.to_act >= 0).any():
        waiting = step.to_act >= 0
        acting = np.where(waiting, flat_seats[rows, np.maximum(step.to_act, 0)], -1)
        actions = np.zeros(tables, dtype=np.int64)
        for index, agent in enumerate(agents):
            mine = np.flatnonzero(acting == index)
            if len(mine):
                actions[mine] = agent.act(mine, step.observations[mine],
                                          step.action_masks[mine])
        kinds = tracked[actions]
        took = waiting & (kinds >= 0)
        actions_taken[rows[took], step.to_act[took], kinds[took]] = True
        step = batch.step(actions)
    nets = batch.net.reshape(count, rotations, players)
    return Deals(seated, nets, actions_taken.reshape(count, rotations, players, -1))


def _tasks(deals: int) -> Iterator[tuple[int, int]]:
    for first in range(0, deals, DEALS_PER_TASK):
        yield first, min(DEALS_PER_TASK, deals - first)


def play(
    config: ArenaConfig,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    policies: Sequence[BatchForm] | None = None,
    ray_address: str | None = None,
) -> Deals:
    """Play every deal of ``config`` on ``workers`` processes (``None``: every core), as
    Ray tasks when ``ray_address`` is given (see :func:`run_arena`), or on the batched
    engine in this process when ``policies`` (every agent's batched form) are given;
    ``progress(hands)`` is called as hands finish."""
    if policies is not None:
        parts_batched = []
        for first in range(0, config.deals, BATCHED_DEALS):
            count = min(BATCHED_DEALS, config.deals - first)
            parts_batched.append(play_deals_batched(config, first, count, policies))
            if progress:
                progress(count * config.rotations)
        return Deals.concat(parts_batched)
    tasks = list(_tasks(config.deals))
    if ray_address is not None:
        return _play_on_ray(config, tasks, ray_address, progress)
    workers = min(workers or os.cpu_count() or 1, len(tasks))
    parts: dict[int, Deals] = {}
    if workers <= 1:
        for first, count in tasks:
            parts[first] = play_deals(config, first, count)
            if progress:
                progress(count * config.rotations)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = {pool.submit(play_deals, config, first, count): (first, count)
                       for first, count in tasks}
            for future in as_completed(futures):
                first, count = futures[future]
                parts[first] = future.result()
                if progress:
                    progress(count * config.rotations)
    return Deals.concat([parts[first] for first, _ in tasks])


def _play_on_ray(
    config: ArenaConfig,
    tasks: list[tuple[int, int]],
    address: str,
    progress: Callable[[int], None] | None,
) -> Deals:
    """The deals of ``tasks`` as Ray tasks, one per task, on the cluster at ``address``
    (see :func:`_ray_connection`)."""
    with _ray_connection(address) as ray:
        remote = ray.remote(play_deals)
        firsts = {remote.remote(config, first, count): (first, count) for first, count in tasks}
        parts: dict[int, Deals] = {}
        pending = list(firsts)
        while pending:
            done, pending = ray.wait(pending)
            for ref in done:
                first, count = firsts[ref]
                parts[first] = ray.get(ref)
                if progress:
                    progress(count * config.rotations)
    return Deals.concat([parts[first] for first, _ in tasks])


@contextmanager
def _ray_connection(address: str) -> Iterator[Any]:
    """The ``ray`` module, connected to the cluster at ``address`` ("": the one
    ``ray.init()`` finds, else a new local instance) for the ``with`` block. A Ray instance
    that is already connected is used as it is and left running."""
    try:
        import ray
    except ImportError:
        raise ValueError("the arena on Ray needs the ray extra: pip install "
                         "'teenpatti-env[ray]'") from None
    started = not ray.is_initialized()
    if started:
        ray.init(address=address or None, log_to_driver=False)
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


@dataclass
class AgentResult:
    """One agent's line in the report."""

    name: str
    result: Interval
    """Chips won per hand, in boots, with its confidence interval."""
    win_rate: float
    rates: dict[str, float]
    """Share of its hands in which it took each of :data:`TRACKED_ACTIONS`."""
    independent_std_error: float
    """The standard error the same number of hands would have with independent deals."""
    rating: dict[str, float] = field(default_factory=dict)

    @property
    def variance_reduction(self) -> float:
        """How many times smaller the variance of the mean is than with independent deals
        (NaN when either error is undefined or zero)."""
        errors = (self.independent_std_error, self.result.std_error)
        if not all(math.isfinite(e) and e > 0 for e in errors):
            return math.nan
        return float((errors[0] / errors[1]) ** 2)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "boots_per_hand": self.result.to_dict(),
            "win_rate": finite_or_none(self.win_rate),
            "rates": {kind: finite_or_none(rate) for kind, rate in self.rates.items()},
            "independent_std_error": finite_or_none(self.independent_std_error),
            "variance_reduction": finite_or_none(self.variance_reduction),
            "rating": {key: finite_or_none(value) for key, value in self.rating.items()},
        }


@dataclass
class ArenaReport:
    """Everything an arena run measured; ``to_dict`` is its JSON form."""

    config: ArenaConfig
    agents: dict[str, AgentResult]
    pairwise: dict[str, dict[str, Interval]]
    """``pairwise[a][b]``: a's result minus b's, per hand they shared, in boots."""
    plain: dict[str, Interval] | None = None
    """Results of the same agents over as many independent deals (``compare_plain``)."""

    @property
    def hands(self) -> int:
        return self.config.deals * self.config.rotations

    def pairwise_adjusted(self) -> dict[str, dict[str, float]]:
        """``[a][b]``: the p-value of "a and b are level" after the Holm-Bonferroni
        adjustment over every pair of agents that shared a table (one comparison per pair,
        :meth:`pairwise_comparisons` of them)."""
        pairs = [(a, b) for i, a in enumerate(self.config.agents)
                 for b in self.config.agents[i + 1:] if b in self.pairwise.get(a, {})]
        adjusted = holm_adjusted([two_sided_p_value(self.pairwise[a][b]) for a, b in pairs])
        out: dict[str, dict[str, float]] = {name: {} for name in self.config.agents}
        for (a, b), q in zip(pairs, adjusted, strict=True):
            out[a][b] = out[b][a] = q
        return out

    def pairwise_comparisons(self) -> int:
        """How many pairs of agents the pairwise matrix compares."""
        return sum(len(row) for row in self.pairwise.values()) // 2

    def ranking(self) -> list[str]:
        """Agent names, best mean result first (agents that played no hand last)."""

        def key(name: str) -> tuple[bool, float]:
            mean = self.agents[name].result.mean
            return (math.isnan(mean), 0.0 if math.isnan(mean) else -mean)

        return sorted(self.agents, key=key)

    def to_dict(self) -> dict[str, Any]:
        config = self.config
        out: dict[str, Any] = {
            "format": "teenpatti-arena/1",
            "table": config.table.name,
            "agents": list(config.agents),
            "rules": config.rules.to_dict(),
            "seed": config.seed,
            "duplicate": config.duplicate,
            "hands": self.hands,
            "deals": config.deals,
            "confidence": CONFIDENCE,
            "unit": "boots per hand",
            "results": {name: self.agents[name].to_dict() for name in self.ranking()},
            "pairwise": {
                a: {b: interval.to_dict() for b, interval in row.items()}
                for a, row in self.pairwise.items()
            },
            "pairwise_comparisons": self.pairwise_comparisons(),
            "pairwise_holm_p_value": self.pairwise_adjusted(),
        }
        if self.plain is not None:
            out["plain"] = {name: interval.to_dict() for name, interval in self.plain.items()}
        return out

    def to_json(self, path: str | Path) -> None:
        _write_json(self.to_dict(), path)

    def table(self) -> str:
        """A readable text report: results, rates, ratings, the pairwise matrix."""
        config = self.config
        width = max(10, *(len(name) for name in config.agents))
        short = {name: _short_label(name) for name in config.agents}
        column = max(10, *(len(label) + 1 for label in short.values()))
        lines = [
            f"{self.hands} hands ({config.deals} deals"
            + (f" x {config.rotations} seatings" if config.duplicate else "")
            + f"), {config.players} seats, seed {config.seed}; boots per hand, 95% CI",
            f"table: {config.table.describe()}",
            "",
            f"{'agent':<{width}} {'boots/hand':>10} {'95% CI':>19} {'win':>6} {'look':>6} "
            f"{'pack':>6} {'show':>6} {'side':>6} {'rating':>7} {'var/':>6}",
        ]
        for name in self.ranking():
            r = self.agents[name]
            ci = f"[{r.result.low:+.3f}, {r.result.high:+.3f}]"
            rates = " ".join(f"{r.rates[k]:>6.1%}" for k in TRACKED_ACTIONS)
            reduction = f"{r.variance_reduction:>6.1f}" if config.duplicate else f"{'-':>6}"
            lines.append(
                f"{name:<{width}} {r.result.mean:>+10.3f} {ci:>19} {r.win_rate:>6.1%} {rates} "
                f"{r.rating.get('ordinal', math.nan):>7.2f} {reduction}"
            )
        if config.duplicate:
            lines += [
                "",
                "var/: variance of the mean with independent deals / with duplicate dealing.",
            ]
        lines += [
            "",
            "Pairwise: row minus column, boots per hand at the tables they shared "
            "(* = 95% CI excludes 0;",
            "** = and the gap holds after the Holm-Bonferroni adjustment over the "
            f"{self.pairwise_comparisons()} pairs)",
        ]
        order = self.ranking()
        adjusted = self.pairwise_adjusted()
        lines.append((" " * width + "".join(f"{short[n]:>{column - 2}}  " for n in order))
                     .rstrip())
        for a in order:
            cells = []
            for b in order:
                if a == b or b not in self.pairwise.get(a, {}):
                    cells.append(f"{'-':>{column - 2}}  ")
                    continue
                interval = self.pairwise[a][b]
                star = "*" if interval.low > 0 or interval.high < 0 else ""
                if star and adjusted[a][b] < 1 - CONFIDENCE:
                    star = "**"
                cells.append(f"{interval.mean:>+{column - 2}.3f}{star:<2}")
            lines.append((f"{a:<{width}}" + "".join(cells)).rstrip())
        if self.plain is not None:
            lines += ["", "Independent deals, same number of hands (measured):"]
            for name in order:
                plain, dup = self.plain[name], self.agents[name].result
                ratio = (plain.std_error / dup.std_error) ** 2 if dup.std_error else math.nan
                lines.append(
                    f"{name:<{width}} {plain.mean:>+10.3f} +/- {plain.half_width:.3f} "
                    f"(duplicate +/- {dup.half_width:.3f}; variance ratio {ratio:.1f})"
                )
        return "\n".join(lines)

    def plot(self, path: str | Path) -> None:
        """A PNG of every agent's result with its 95% interval."""
        order = self.ranking()[::-1]
        config = self.config
        _plot_intervals(
            path, order, [self.agents[name].result for name in order],
            f"Arena ({config.table.name} tables): {_setting(config)}, {self.hands} hands",
        )


def _setting(config: ArenaConfig) -> str:
    """The rules, seats and dealing of a run, for a plot's title."""
    preset = config.rules.preset_name or "custom rules"
    dealing = "duplicate" if config.duplicate else "independent"
    return f"{preset}, {config.players} seats, {dealing} deals"


def _plot_intervals(
    path: str | Path, labels: Sequence[str], intervals: Sequence[Interval], title: str
) -> None:
    """A PNG of one 95% interval per label, bottom to top."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lines = title.count("\n") + 1
    figure, axes = plt.subplots(figsize=(7, 0.5 * len(labels) + 1.2 + 0.3 * lines))
    axes.errorbar([i.mean for i in intervals], range(len(labels)),
                  xerr=[i.half_width for i in intervals], fmt="o", capsize=4)
    axes.axvline(0.0, color="grey", linewidth=0.8)
    axes.set_yticks(range(len(labels)), labels)
    axes.set_xlabel("boots per hand (95% CI)")
    axes.set_title(title, fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def _write_json(data: dict[str, Any], path: str | Path) -> None:
    text = json.dumps(data, indent=2, allow_nan=False)
    Path(path).write_text(text + "\n", encoding="utf-8")


def _short_label(name: str) -> str:
    """A column label: a policy file's name without its folders."""
    kind, _, where = name.partition(":")
    if kind == "ppo" and where:
        return f"ppo:{Path(where).stem}"
    return name


def summarize(config: ArenaConfig, deals: Deals) -> tuple[
    dict[str, AgentResult], dict[str, dict[str, Interval]]
]:
    """Per-agent results and the pairwise matrix of a run's raw results."""
    boot = config.rules.boot
    pool = config.agents
    result = deals.net / boot  # [deal, rotation, seat]
    agents: dict[str, AgentResult] = {}
    per_hand_means: list[NDArray[np.float64]] = []
    for index, name in enumerate(pool):
        here = deals.agent == index
        totals = np.where(here, result, 0.0).sum(axis=(1, 2))
        counts = here.sum(axis=(1, 2))
        interval = ratio_interval(totals, counts)
        hands = int(counts.sum())
        mine = result[here]
        played = hands or math.nan  # rates of an agent that never sat are undefined
        rates = {
            kind: float(deals.actions[..., k][here].sum() / played)
            for k, kind in enumerate(TRACKED_ACTIONS)
        }
        # Every hand as its own cluster: what the same hands would give if each had been
        # dealt independently (copies of an agent at one table stay one cluster).
        seats = here.sum(axis=2)
        summed = np.where(here, result, 0.0).sum(axis=2)
        independent = ratio_interval(summed.ravel(), seats.ravel()).std_error
        agents[name] = AgentResult(
            name=name,
            result=interval,
            win_rate=float((mine > 0).sum() / played),
            rates=rates,
            independent_std_error=independent,
        )
        # The agent's mean result in each hand it played (copies averaged), NaN elsewhere.
        with np.errstate(invalid="ignore", divide="ignore"):
            per_hand_means.append(np.where(seats > 0, summed / np.maximum(seats, 1), np.nan))
    pairwise: dict[str, dict[str, Interval]] = {name: {} for name in pool}
    for i, a in enumerate(pool):
        for j, b in enumerate(pool):
            if i == j:
                continue
            both = ~np.isnan(per_hand_means[i]) & ~np.isnan(per_hand_means[j])
            if not both.any():
                continue
            gap = np.where(both, per_hand_means[i] - per_hand_means[j], 0.0)
            pairwise[a][b] = ratio_interval(gap.sum(axis=1), both.sum(axis=1))
    _rate(config, result, deals, agents)
    return agents, pairwise


def _rate(
    config: ArenaConfig,
    result: NDArray[np.float64],
    deals: Deals,
    agents: Mapping[str, AgentResult],
) -> None:
    """A multiplayer rating (openskill's Plackett-Luce): each deal ranks the agents of its
    lineup by their total result in it, and the deals update the ratings in order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    pool = config.agents
    ratings = [model.rating(name=name) for name in pool]
    for row in range(len(result)):
        present = np.unique(deals.agent[row])
        if len(present) < 2:
            continue
        totals = [float(result[row][deals.agent[row] == a].sum()) for a in present]
        # openskill ranks: lower is better, equal totals share a rank.
        ranks = [-total for total in totals]
        teams = [[ratings[a]] for a in present]
        updated = model.rate(teams, ranks=ranks)
        for a, team in zip(present, updated, strict=True):
            ratings[a] = team[0]
    for index, name in enumerate(pool):
        rating = ratings[index]
        if not agents[name].result.hands:  # never seated: no rating
            agents[name].rating = dict.fromkeys(("mu", "sigma", "ordinal"), math.nan)
            continue
        agents[name].rating = {
            "mu": float(rating.mu),
            "sigma": float(rating.sigma),
            "ordinal": float(rating.mu - 3 * rating.sigma),
        }


@dataclass(frozen=True)
class HeadToHead:
    """One pairing of a table composition, from ``agent``'s side: what it won per hand
    (per seat it held, in boots) against ``opponent`` at ``table``, the p-value of "no
    edge" before and after the report's Holm-Bonferroni adjustment, and the pairing's
    whole arena report."""

    agent: str
    opponent: str
    table: str
    result: Interval
    p_value: float
    adjusted_p_value: float
    report: ArenaReport

    @property
    def mean(self) -> float:
        return self.result.mean

    @property
    def low(self) -> float:
        return self.result.low

    @property
    def high(self) -> float:
        return self.result.high

    @property
    def significant(self) -> bool:
        """Whether the edge (either way) holds after the adjustment, at a family-wise 5%."""
        return self.adjusted_p_value < 1 - CONFIDENCE

    def to_dict(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "opponent": self.opponent,
            "table": self.table,
            "boots_per_hand": self.result.to_dict(),
            "p_value": self.p_value,
            "holm_p_value": self.adjusted_p_value,
            "significant": self.significant,
            "arena": self.report.to_dict(),
        }


@dataclass
class HeadToHeadReport:
    """The pairings of one or more table compositions, each its own duplicate arena of
    the same number of hands on the same seed; ``rows`` in play order."""

    rows: list[HeadToHead]

    @property
    def comparisons(self) -> int:
        """How many claims the report makes: one per row (the adjustment's ``m``)."""
        return len(self.rows)

    @property
    def config(self) -> ArenaConfig:
        """The first pairing's settings (the rules, hands and seed all pairings share)."""
        return self.rows[0].report.config

    @property
    def hands(self) -> int:
        """Hands each pairing played."""
        return self.rows[0].report.hands

    @property
    def tables(self) -> list[str]:
        """The compositions played, in order."""
        return list(dict.fromkeys(row.table for row in self.rows))

    def to_dict(self) -> dict[str, Any]:
        config = self.config
        return {
            "format": "teenpatti-head-to-head/1",
            "tables": self.tables,
            "rules": config.rules.to_dict(),
            "seed": config.seed,
            "duplicate": config.duplicate,
            "hands": self.hands,
            "deals": config.deals,
            "confidence": CONFIDENCE,
            "unit": "boots per hand won by the agent, per seat it held",
            "comparisons": self.comparisons,
            "adjustment": "holm-bonferroni",
            "rows": [row.to_dict() for row in self.rows],
        }

    def to_json(self, path: str | Path) -> None:
        _write_json(self.to_dict(), path)

    def table(self) -> str:
        """A readable text report: one line per pairing and what the adjustment kept."""
        config = self.config
        descriptions = {row.table: row.report.config.table.describe() for row in self.rows}
        width = max(10, *(len(row.agent) for row in self.rows))
        versus = max(10, *(len(row.opponent) for row in self.rows))
        lines = [
            f"{self.hands} hands per pairing ({config.deals} deals"
            + (f" x {config.rotations} seatings" if config.duplicate else "")
            + f"), {config.players} seats, seed {config.seed}; boots per hand won by the "
            "agent, per seat it held, 95% CI",
            *(f"table: {description}" for description in descriptions.values()),
            "",
            f"{'agent':<{width}} {'opponent':<{versus}} {'table':<6} {'boots/hand':>10} "
            f"{'95% CI':>19} {'p':>8} {'Holm p':>8}",
        ]
        for row in self.rows:
            ci = f"[{row.low:+.3f}, {row.high:+.3f}]"
            star = " *" if row.significant else ""
            lines.append(
                f"{row.agent:<{width}} {row.opponent:<{versus}} {row.table:<6} "
                f"{row.mean:>+10.3f} {ci:>19} {_p_text(row.p_value):>8} "
                f"{_p_text(row.adjusted_p_value):>8}{star}"
            )
        lines += [
            "",
            f"{self.comparisons} comparison{'s' if self.comparisons > 1 else ''}; "
            "Holm p: the p-value after the Holm-Bonferroni adjustment over all of them;",
            "* = the edge holds after it (at most a 5% chance of any false claim in the "
            "report).",
        ]
        return "\n".join(lines)

    def plot(self, path: str | Path) -> None:
        """A PNG of every pairing's result (the agent's side) with its 95% interval."""
        rows = self.rows[::-1]
        labels = [f"{row.agent} vs {row.opponent} ({row.table})"
                  + (" *" if row.significant else "") for row in rows]
        _plot_intervals(
            path, labels, [row.result for row in rows],
            f"Head to head ({', '.join(self.tables)} tables): {_setting(self.config)}, "
            f"{self.hands} hands each\n* significant after Holm-Bonferroni over "
            f"{self.comparisons} comparisons",
        )


def _p_text(p: float) -> str:
    return "<0.0001" if p < 1e-4 else f"{p:.4f}"


def _checked_pool(agents: Sequence[str]) -> tuple[str, ...]:
    """``agents`` as a pool: at least one, distinct, every name known to ``make_agent``."""
    pool = tuple(agents)
    if len(pool) < 1:
        raise ValueError("the arena needs at least one agent")
    if len(set(pool)) != len(pool):
        raise ValueError(f"agent names must be distinct, got {list(pool)}")
    for name in pool:
        make_agent(name)  # an unknown name fails here, before any play
    return pool


def _check_settings(
    hands: int, seed: int, duplicate: bool, compare_plain: bool, engine: str,
    ray_address: str | None,
) -> None:
    if not isinstance(hands, int) or isinstance(hands, bool) or hands < 1:
        raise ValueError(f"hands must be a positive int, got {hands!r}")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be an int >= 0, got {seed!r}")
    if compare_plain and not duplicate:
        raise ValueError("compare_plain compares duplicate dealing with independent deals: "
                         "it needs duplicate=True")
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if engine == "batched" and ray_address is not None:
        raise ValueError("the batched engine plays in this process: ask for a Ray cluster or "
                         "for engine='batched', not both")


def _table_rules(rules: RulesLike, players: int | None) -> Rules:
    table_rules = Rules.of(rules)
    return table_rules if players is None else table_rules.replace(num_players=players)


def _engine_policies(
    config: ArenaConfig, engine: str, ray_address: str | None
) -> list[BatchForm] | None:
    """The batched forms ``config`` is played with, or ``None`` for the per-table path."""
    # Without numba the batched kernels run as plain Python: slower than per table.
    skip = engine == "per_table" or ray_address is not None or (
        engine == "auto" and not HAVE_NUMBA)
    policies = None if skip else batch_policies(config)
    if engine == "batched" and policies is None:
        raise ValueError("the batched engine plays classic-family rules with agents that "
                         "have a batched form (the scripted agents, trained policies); use "
                         "engine='per_table'")
    return policies


def _play_reports(
    configs: Sequence[ArenaConfig],
    engine: str,
    compare_plain: bool,
    workers: int | None,
    progress: bool,
    ray_address: str | None,
) -> list[ArenaReport]:
    """One arena report per config, played in order under one progress bar (every engine
    choice is checked before the first hand)."""
    policies = [_engine_policies(config, engine, ray_address) for config in configs]
    runs = [[config] for config in configs]
    if compare_plain:
        for config, run in zip(configs, runs, strict=True):
            run.append(replace(config, hands=config.deals * config.rotations,
                               duplicate=False))
    total = sum(c.deals * c.rotations for run in runs for c in run)
    bar = _progress_bar(total) if progress else None
    update = None if bar is None else bar.update
    reports = []
    # One Ray connection for every pairing, not one started and stopped per pairing.
    connection: AbstractContextManager[Any] = (
        nullcontext() if ray_address is None else _ray_connection(ray_address))
    try:
        with connection:
            for run, batch in zip(runs, policies, strict=True):
                results = [play(config, workers, update, batch, ray_address) for config in run]
                agent_results, pairwise = summarize(run[0], results[0])
                plain = None
                if compare_plain:
                    plain = {name: r.result
                             for name, r in summarize(run[1], results[1])[0].items()}
                reports.append(ArenaReport(run[0], agent_results, pairwise, plain))
    finally:
        if bar is not None:
            bar.close()
    return reports


def _head_to_head(
    pairings: Sequence[tuple[Composition, str, str]],
    rules: Rules,
    hands: int,
    seed: int,
    duplicate: bool,
    engine: str,
    compare_plain: bool,
    workers: int | None,
    progress: bool,
    ray_address: str | None,
) -> HeadToHeadReport:
    """Play every ``(composition, agent, opponent)`` pairing as its own arena and adjust
    the pairings' p-values for their number."""
    configs = [ArenaConfig((agent, opponent), rules, hands, seed, duplicate, composition)
               for composition, agent, opponent in pairings]
    reports = _play_reports(configs, engine, compare_plain, workers, progress, ray_address)
    results = [report.agents[agent].result
               for report, (_, agent, _) in zip(reports, pairings, strict=True)]
    p_values = [two_sided_p_value(result) for result in results]
    adjusted = holm_adjusted(p_values)
    return HeadToHeadReport([
        HeadToHead(agent, opponent, composition.name, result, p, q, report)
        for (composition, agent, opponent), result, p, q, report
        in zip(pairings, results, p_values, adjusted, reports, strict=True)
    ])


@overload
def run_arena(
    agents: Sequence[str], hands: int = ..., rules: RulesLike = ..., seed: int = ...,
    players: int | None = ..., duplicate: bool = ..., compare_plain: bool = ...,
    workers: int | None = ..., progress: bool = ..., engine: str = ...,
    ray_address: str | None = ..., table: Literal["field"] = ...,
) -> ArenaReport: ...


@overload
def run_arena(
    agents: Sequence[str], hands: int = ..., rules: RulesLike = ..., seed: int = ...,
    players: int | None = ..., duplicate: bool = ..., compare_plain: bool = ...,
    workers: int | None = ..., progress: bool = ..., engine: str = ...,
    ray_address: str | None = ..., *, table: str,
) -> ArenaReport | HeadToHeadReport: ...


def run_arena(
    agents: Sequence[str],
    hands: int = 20_000,
    rules: RulesLike = "classic",
    seed: int = 0,
    players: int | None = None,
    duplicate: bool = True,
    compare_plain: bool = False,
    workers: int | None = 1,
    progress: bool = False,
    engine: str = "auto",
    ray_address: str | None = None,
    table: str = "field",
) -> ArenaReport | HeadToHeadReport:
    """Play ``agents`` (names :func:`agents.make_agent` accepts) head to head.

    ``hands`` is the total number of hands, rounded up to whole deals; ``players`` seats
    per table (default: the rules' ``num_players``). ``compare_plain`` also plays as many
    hands on independent deals to measure what duplicate dealing saved. ``workers``
    processes share the deals (``None``: every core); the same seed gives the same report
    whatever the number of workers. With ``ray_address`` the deals are Ray tasks on that
    cluster instead (``""``: the cluster ``ray.init()`` finds, else a new local instance),
    with the same report for the same seed. ``engine``: ``"batched"`` plays on the batched
    engine (classic-family rules, every agent with a batched form: the scripted agents
    and trained policies), ``"per_table"`` through ``raw_env``, ``"auto"`` the batched
    engine when it can and no Ray cluster is asked for; every path gives the same report
    for the same seed.

    ``table`` is the composition (see :func:`parse_table`). The field (the default) gives
    an :class:`ArenaReport`. A pair composition plays every pairing of two agents of the
    pool as its own arena of ``hands`` hands on ``seed`` and gives a
    :class:`HeadToHeadReport`: for ``2v2`` (equal seats) every unordered pair, with the
    agent listed first as the row's agent; for ``1vN`` (unequal seats) every ordered pair,
    the row's agent holding the ``1`` side.
    """
    pool = _checked_pool(agents)
    _check_settings(hands, seed, duplicate, compare_plain, engine, ray_address)
    table_rules = _table_rules(rules, players)
    composition = parse_table(table, table_rules.num_players)
    if composition.seats is None:
        config = ArenaConfig(pool, table_rules, hands, seed, duplicate)
        return _play_reports([config], engine, compare_plain, workers, progress,
                             ray_address)[0]
    if len(pool) < 2:
        raise ValueError(f"the {composition.name} table seats two agents: give at least two, "
                         f"got {list(pool)}")
    pairs = (itertools.combinations(pool, 2) if composition.symmetric
             else itertools.permutations(pool, 2))
    return _head_to_head([(composition, a, b) for a, b in pairs], table_rules, hands, seed,
                         duplicate, engine, compare_plain, workers, progress, ray_address)


def head_to_head(
    agent: str,
    opponents: Sequence[str],
    tables: Sequence[str] = ("2v2", "1vN"),
    hands: int = 20_000,
    rules: RulesLike = "classic",
    seed: int = 0,
    players: int | None = None,
    duplicate: bool = True,
    workers: int | None = 1,
    progress: bool = False,
    engine: str = "auto",
    ray_address: str | None = None,
) -> HeadToHeadReport:
    """``agent`` against each of ``opponents`` at each of ``tables`` (pair compositions:
    ``2v2``, ``1vN``, ``AvB``; ``agent`` holds the ``A`` side), every pairing its own
    duplicate arena of ``hands`` hands on ``seed``; the rows give ``agent``'s result, in
    ``tables`` then ``opponents`` order, with the Holm-Bonferroni adjustment over all of
    them. The other arguments are :func:`run_arena`'s.

    >>> report = head_to_head("hard", ["random"], hands=8, seed=1)
    >>> [(row.agent, row.opponent, row.table) for row in report.rows]
    [('hard', 'random', '2v2'), ('hard', 'random', '1v3')]
    """
    opponents = tuple(opponents)
    if not opponents:
        raise ValueError("head_to_head needs at least one opponent")
    _checked_pool((agent, *opponents))
    _check_settings(hands, seed, duplicate, False, engine, ray_address)
    table_rules = _table_rules(rules, players)
    if isinstance(tables, str):
        raise ValueError(f"tables must be a list of compositions, got {tables!r}")
    tables = tuple(tables)
    if not tables:
        raise ValueError("tables must be a non-empty list of compositions")
    compositions = [parse_table(text, table_rules.num_players) for text in tables]
    names = [composition.name for composition in compositions]
    if FIELD.name in names:
        raise ValueError("head_to_head plays pair compositions such as 2v2 and 1vN; the "
                         "field is run_arena's")
    if len(set(names)) != len(names):
        raise ValueError(f"tables must be distinct compositions, got {list(tables)} "
                         f"({', '.join(names)})")
    pairings = [(composition, agent, opponent)
                for composition in compositions for opponent in opponents]
    return _head_to_head(pairings, table_rules, hands, seed, duplicate, engine, False,
                         workers, progress, ray_address)


def _progress_bar(total: int) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, unit="hand", desc="arena", smoothing=0.1)
