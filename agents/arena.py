"""Head-to-head arena: agents play each other with duplicate dealing and honest statistics.

Play is organised in *deals*. For each deal a lineup of agents is drawn from the pool
(without repetition when the pool is at least as large as the table, otherwise every agent
the same number of times, give or take one), the cards and the dealer are drawn, and with
duplicate dealing the same deal is replayed once per seat with the lineup rotated one seat
each time, so every agent of the lineup holds every hand of the deal. Card luck then
cancels within the deal, and the deal is the unit of the confidence intervals
(:mod:`agents.stats`). Every deal has its own seed derived from the arena's seed, so the
report does not depend on how many worker processes played it.

>>> report = run_arena(["random", "equity"], hands=16, rules="classic", seed=3)
>>> report.hands, sorted(report.agents)
(16, ['equity', 'random'])
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from agents import make_agent
from agents.base import Agent, BatchPolicy
from agents.stats import Interval, finite_or_none, ratio_interval
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


@dataclass(frozen=True)
class ArenaConfig:
    """What to play: the pool, the table, how many hands and the seed."""

    agents: tuple[str, ...]
    rules: Rules
    hands: int
    seed: int
    duplicate: bool = True

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
        chosen = rng.choice(pool_size, size=players, replace=False)
    else:
        copies = np.full(pool_size, players // pool_size)
        copies[rng.choice(pool_size, size=players % pool_size, replace=False)] += 1
        chosen = rng.permutation(np.repeat(np.arange(pool_size), copies))
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


def batch_policies(config: ArenaConfig) -> list[BatchPolicy] | None:
    """Every pool agent's batched form when the batched engine can play the whole run
    (classic family rules, every agent with a batched form), else ``None``."""
    try:
        classic_family(config.rules)
    except ValueError:
        return None
    policies = [make_agent(name).batch_policy() for name in config.agents]
    if any(policy is None for policy in policies):
        return None
    return policies  # type: ignore[return-value]


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
    lineup = draw_lineup(len(config.agents), config.players, rng)
    dealer = int(rng.integers(config.players))
    stacks = [config.rules.starting_stack] * config.players
    if config.rules.dealers_choice is None:
        dealt = Hand.deal(config.rules, stacks, dealer, rng)  # the variant's whole deal
        options = {"cards": dealt.cards, "dealer": dealer, **dealt.table_cards()}
        return _Deal(lineup, options, None, rng)
    # C1: dealt after the dealer's choice, from one shuffle per deal
    return _Deal(lineup, {"dealer": dealer}, int(rng.integers(2**63)), rng)


def play_deals_batched(
    config: ArenaConfig, first: int, count: int, policies: Sequence[BatchPolicy]
) -> Deals:
    """:func:`play_deals` on the batched engine: every hand of the deals is a table, and
    each agent acts for all its seats to act in one call. Same deals, same results."""
    players, rotations = config.players, config.rotations
    tables = count * rotations
    seated = np.zeros((count, rotations, players), dtype=np.int16)
    cards = np.zeros((count, rotations, players, 3), dtype=np.int64)
    dealers = np.zeros((count, rotations), dtype=np.int64)
    for row in range(count):
        lineup, options, _, _ = _draw_deal(config, first + row)
        for rotation in range(rotations):
            seated[row, rotation] = [lineup[(seat + rotation) % players]
                                     for seat in range(players)]
        cards[row] = options["cards"]
        dealers[row] = options["dealer"]
    batch = TableBatch(tables, config.rules, autoreset=False)
    step = batch.reset(options={"cards": cards.reshape(tables, players, 3),
                                "dealer": dealers.reshape(tables)})
    flat_seats = seated.reshape(tables, players)
    names = batch.layout.names
    tracked = np.array([TRACKED_ACTIONS.index(name) if name in TRACKED_ACTIONS else -1
                        for name in names])
    actions_taken = np.zeros((tables, players, len(TRACKED_ACTIONS)), dtype=np.bool_)
    rows = np.arange(tables)
    while (step.to_act >= 0).any():
        waiting = step.to_act >= 0
        acting = np.where(waiting, flat_seats[rows, np.maximum(step.to_act, 0)], -1)
        actions = np.zeros(tables, dtype=np.int64)
        for index, policy in enumerate(policies):
            mine = np.flatnonzero(acting == index)
            if len(mine):
                actions[mine] = policy(step.observations[mine], step.action_masks[mine])
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
    policies: Sequence[BatchPolicy] | None = None,
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
    ("": the one ``ray.init()`` finds, else a new local instance). A Ray instance that is
    already connected is used as it is and left running."""
    try:
        import ray
    except ImportError:
        raise ValueError("the arena on Ray needs the ray extra: pip install "
                         "'teenpatti-env[ray]'") from None
    started = not ray.is_initialized()
    if started:
        ray.init(address=address or None, log_to_driver=False)
    try:
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
    finally:
        if started:
            ray.shutdown()
    return Deals.concat([parts[first] for first, _ in tasks])


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
            "agents": list(config.agents),
            "rules": config.rules.to_dict(),
            "seed": config.seed,
            "duplicate": config.duplicate,
            "hands": self.hands,
            "deals": config.deals,
            "confidence": 0.95,
            "unit": "boots per hand",
            "results": {name: self.agents[name].to_dict() for name in self.ranking()},
            "pairwise": {
                a: {b: interval.to_dict() for b, interval in row.items()}
                for a, row in self.pairwise.items()
            },
        }
        if self.plain is not None:
            out["plain"] = {name: interval.to_dict() for name, interval in self.plain.items()}
        return out

    def to_json(self, path: str | Path) -> None:
        text = json.dumps(self.to_dict(), indent=2, allow_nan=False)
        Path(path).write_text(text + "\n", encoding="utf-8")

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
            "(* = 95% CI excludes 0)",
        ]
        order = self.ranking()
        lines.append(" " * width + "".join(f"{short[n]:>{column}}" for n in order))
        for a in order:
            cells = []
            for b in order:
                if a == b or b not in self.pairwise.get(a, {}):
                    cells.append(f"{'-':>{column}}")
                    continue
                interval = self.pairwise[a][b]
                star = "*" if interval.low > 0 or interval.high < 0 else " "
                cells.append(f"{interval.mean:>+{column - 1}.3f}{star}")
            lines.append(f"{a:<{width}}" + "".join(cells))
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
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        order = self.ranking()[::-1]
        means = [self.agents[n].result.mean for n in order]
        halves = [self.agents[n].result.half_width for n in order]
        figure, axes = plt.subplots(figsize=(7, 0.5 * len(order) + 1.5))
        axes.errorbar(means, range(len(order)), xerr=halves, fmt="o", capsize=4)
        axes.axvline(0.0, color="grey", linewidth=0.8)
        axes.set_yticks(range(len(order)), order)
        axes.set_xlabel("boots per hand (95% CI)")
        preset = self.config.rules.preset_name or "custom rules"
        axes.set_title(
            f"Arena: {preset}, {self.hands} hands, {self.config.players} seats, "
            f"{'duplicate' if self.config.duplicate else 'independent'} deals"
        )
        figure.tight_layout()
        figure.savefig(path, dpi=120)
        plt.close(figure)


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


def run_arena(
    agents: Sequence[str],
    hands: int = 20_000,
    rules: Rules | str | dict[str, Any] | None = "classic",
    seed: int = 0,
    players: int | None = None,
    duplicate: bool = True,
    compare_plain: bool = False,
    workers: int | None = 1,
    progress: bool = False,
    engine: str = "auto",
    ray_address: str | None = None,
) -> ArenaReport:
    """Play ``agents`` (names from :data:`agents.SCRIPTED_AGENTS`) head to head.

    ``hands`` is the total number of hands, rounded up to whole deals; ``players`` seats
    per table (default: the rules' ``num_players``). ``compare_plain`` also plays as many
    hands on independent deals to measure what duplicate dealing saved. ``workers``
    processes share the deals (``None``: every core); the same seed gives the same report
    whatever the number of workers. With ``ray_address`` the deals are Ray tasks on that
    cluster instead (``""``: the cluster ``ray.init()`` finds, else a new local instance),
    with the same report for the same seed. ``engine``: ``"batched"`` plays on the batched
    engine (classic-family rules, every agent with a batched form, such as trained
    policies), ``"per_table"`` through ``raw_env``, ``"auto"`` the batched engine when it
    can and no Ray cluster is asked for; every path gives the same report for the same seed.
    """
    pool = tuple(agents)
    if len(pool) < 1:
        raise ValueError("the arena needs at least one agent")
    if len(set(pool)) != len(pool):
        raise ValueError(f"agent names must be distinct, got {list(pool)}")
    for name in pool:
        make_agent(name)  # an unknown name fails here, before any play
    if not isinstance(hands, int) or isinstance(hands, bool) or hands < 1:
        raise ValueError(f"hands must be a positive int, got {hands!r}")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be an int >= 0, got {seed!r}")
    if compare_plain and not duplicate:
        raise ValueError("compare_plain compares duplicate dealing with independent deals: "
                         "it needs duplicate=True")
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    table_rules = Rules.of(rules)
    if players is not None:
        table_rules = table_rules.replace(num_players=players)
    config = ArenaConfig(pool, table_rules, hands, seed, duplicate)
    if engine == "batched" and ray_address is not None:
        raise ValueError("the batched engine plays in this process: ask for a Ray cluster or "
                         "for engine='batched', not both")
    # Without numba the batched kernels run as plain Python: slower than per table.
    skip = engine == "per_table" or ray_address is not None or (
        engine == "auto" and not HAVE_NUMBA)
    policies = None if skip else batch_policies(config)
    if engine == "batched" and policies is None:
        raise ValueError("the batched engine plays classic-family rules with agents that "
                         "have a batched form (trained policies); use engine='per_table'")
    runs = [config]
    if compare_plain:
        runs.append(ArenaConfig(pool, table_rules, config.deals * config.rotations, seed, False))
    total = sum(run.deals * run.rotations for run in runs)
    bar = _progress_bar(total) if progress else None
    try:
        results = [
            play(run, workers, None if bar is None else bar.update, policies, ray_address)
            for run in runs
        ]
    finally:
        if bar is not None:
            bar.close()
    agent_results, pairwise = summarize(config, results[0])
    plain = None
    if compare_plain:
        plain = {name: r.result for name, r in summarize(runs[1], results[1])[0].items()}
    return ArenaReport(config, agent_results, pairwise, plain)


def _progress_bar(total: int) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, unit="hand", desc="arena", smoothing=0.1)
