"""The arena's entry points: :func:`run_arena` and :func:`head_to_head` check their
settings, choose the engine, play every pairing under one progress bar and build the
reports."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from typing import Any, Literal, overload

from agents import make_agent
from agents.arena.aivat import check_supported, pilot_config, resolve
from agents.arena.aivat_values import aivat_corrections, needs_pilot
from agents.arena.batched import batch_policies
from agents.arena.pairings import HeadToHead, HeadToHeadReport
from agents.arena.report import ArenaReport
from agents.arena.seating import (
    ENGINES,
    FIELD,
    ArenaConfig,
    Composition,
    Seats,
    parse_table,
)
from agents.arena.summary import summarize
from agents.arena.workers import play
from agents.batch_scripted import BatchForm, batched_form
from agents.ray_support import ray_connection
from agents.stats import holm_adjusted, two_sided_p_value
from teenpatti_env.environment.batch_kernels import HAVE_NUMBA
from teenpatti_env.environment.batch_variant import given_deal_rules
from teenpatti_env.errors import check_seed
from teenpatti_env.rules import Rules

RulesLike = Rules | str | dict[str, Any] | None


def check_pool(agents: Sequence[str], seats: Seats | None = None) -> tuple[str, ...]:
    """``agents`` as a pool: at least one, distinct, every name known to ``make_agent``
    or a remote bot of ``seats``."""
    pool = tuple(agents)
    if len(pool) < 1:
        raise ValueError("the arena needs at least one agent")
    if len(set(pool)) != len(pool):
        raise ValueError(f"agent names must be distinct, got {list(pool)}")
    for name in pool:  # an unknown name fails here, before any play
        make_agent(name) if seats is None else seats.make(name, None)
    return pool


def check_remote(pool: Sequence[str], seats: Seats | None, workers: int | None,
                 ray_address: str | None) -> frozenset[str]:
    """The remote bots of ``pool``; they play in this process, so more workers or a Ray
    cluster with them is a ``ValueError``."""
    remote = frozenset(name for name in pool if seats is not None and name in seats.remote)
    if not remote:
        return remote
    names = ", ".join(name for name in pool if name in remote)
    if ray_address is not None:
        raise ValueError(f"remote bots ({names}) play in this process, not on a Ray "
                         "cluster: leave out ray_address")
    if workers not in (None, 1):
        raise ValueError(f"remote bots ({names}) play in one process, over one connection "
                         f"each: leave out workers (or give 1), got {workers}")
    return remote


def check_settings(
    hands: int, seed: int, duplicate: bool, compare_plain: bool, engine: str,
    ray_address: str | None, pilot_hands: int | None = None,
) -> None:
    if not isinstance(hands, int) or isinstance(hands, bool) or hands < 1:
        raise ValueError(f"hands must be a positive int, got {hands!r}")
    if pilot_hands is not None and (not isinstance(pilot_hands, int)
                                    or isinstance(pilot_hands, bool) or pilot_hands < 1):
        raise ValueError(f"pilot_hands must be a positive int, got {pilot_hands!r}")
    check_seed(seed)
    if compare_plain and not duplicate:
        raise ValueError("compare_plain compares duplicate dealing with independent deals: "
                         "it needs duplicate=True")
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if engine == "batched" and ray_address is not None:
        raise ValueError("the batched engine plays in this process: ask for a Ray cluster or "
                         "for engine='batched', not both")


def rules_for_table(rules: RulesLike, players: int | None) -> Rules:
    """``rules`` with ``players`` seats (the rules' own number when ``None``)."""
    table_rules = Rules.of(rules)
    return table_rules if players is None else table_rules.replace(num_players=players)


def _engine_policies(
    config: ArenaConfig, engine: str, ray_address: str | None
) -> list[BatchForm] | None:
    """The batched forms ``config`` is played with, or ``None`` for the per-table path."""
    if config.remote and engine == "batched":
        raise ValueError(f"remote bots ({', '.join(sorted(config.remote))}) play on the "
                         "per-table engine, not the batched one: use engine 'per_table' or "
                         "'auto'")
    # Without numba the batched kernels run as plain Python: slower than per table.
    skip = bool(config.remote) or engine == "per_table" or ray_address is not None or (
        engine == "auto" and not HAVE_NUMBA)
    policies = None if skip else batch_policies(config)
    if engine == "batched" and policies is None:
        given_deal_rules(config.rules)  # a ValueError naming what the batch does not play
        lacking = [name for name in config.agents if batched_form(name, config.rules) is None]
        raise ValueError(f"the batched engine plays agents with a batched form (the scripted "
                         f"agents, trained policies), not {', '.join(lacking)}: use "
                         "engine='per_table'")
    return policies


def _play_reports(
    configs: Sequence[ArenaConfig],
    engine: str,
    compare_plain: bool,
    workers: int | None,
    progress: bool,
    ray_address: str | None,
    *,
    seats: Seats | None = None,
    pilot_hands: int | None = None,
) -> list[ArenaReport]:
    """One arena report per config, played in order under one progress bar (every engine
    choice is checked before the first hand); a config with remote bots is played with
    ``seats``; a config with AIVAT plays its pilot first."""
    policies = [_engine_policies(config, engine, ray_address) for config in configs]
    runs = [[config] for config in configs]
    if compare_plain:
        for config, run in zip(configs, runs, strict=True):
            run.append(replace(config, hands=config.deals * config.rotations,
                               duplicate=False, aivat=False))
    pilots = [pilot_config(config, pilot_hands) if needs_pilot(config) else None
              for config in configs]
    total = sum(c.deals * c.rotations for c in [*itertools.chain(*runs), *pilots] if c)
    bar = _progress_bar(total) if progress else None
    update = None if bar is None else bar.update
    reports = []
    # One Ray connection for every pairing, not one started and stopped per pairing.
    connection: AbstractContextManager[Any] = (
        nullcontext() if ray_address is None else ray_connection(ray_address, "the arena on Ray"))
    try:
        with connection:
            for run, batch, pilot in zip(runs, policies, pilots, strict=True):
                pilot_deals = (None if pilot is None
                               else play(pilot, workers, update, batch, ray_address))
                results = [play(config, workers, update, batch, ray_address, seats)
                           for config in run]
                corrections, mc_error = (
                    aivat_corrections(run[0], results[0], pilot_deals, pilot)
                    if run[0].aivat else (None, None))
                agent_results, pairwise = summarize(run[0], results[0], corrections, mc_error)
                plain = None
                if compare_plain:
                    plain = {name: r.result
                             for name, r in summarize(run[1], results[1])[0].items()}
                reports.append(ArenaReport(run[0], agent_results, pairwise, plain,
                                           results[0], pilot, corrections))
    finally:
        if bar is not None:
            bar.close()
    return reports


def play_pairings(
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
    *,
    seats: Seats | None = None,
    aivat: bool = False,
    pilot_hands: int | None = None,
) -> HeadToHeadReport:
    """Play every ``(composition, agent, opponent)`` pairing as its own arena (with AIVAT
    when ``aivat``) and adjust the pairings' p-values for their number."""
    if aivat:
        check_supported(rules)
    remote = frozenset() if seats is None else seats.remote
    configs = [ArenaConfig((agent, opponent), rules, hands, seed, duplicate, composition,
                           remote & {agent, opponent}, aivat=aivat)
               for composition, agent, opponent in pairings]
    reports = _play_reports(configs, engine, compare_plain, workers, progress, ray_address,
                            seats=seats, pilot_hands=pilot_hands)
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
    ray_address: str | None = ..., table: Literal["field"] = ..., seats: Seats | None = ...,
    variance_reduction: str | None = ..., pilot_hands: int | None = ...,
) -> ArenaReport: ...


@overload
def run_arena(
    agents: Sequence[str], hands: int = ..., rules: RulesLike = ..., seed: int = ...,
    players: int | None = ..., duplicate: bool = ..., compare_plain: bool = ...,
    workers: int | None = ..., progress: bool = ..., engine: str = ...,
    ray_address: str | None = ..., *, table: str, seats: Seats | None = ...,
    variance_reduction: str | None = ..., pilot_hands: int | None = ...,
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
    seats: Seats | None = None,
    variance_reduction: str | None = None,
    pilot_hands: int | None = None,
) -> ArenaReport | HeadToHeadReport:
    """Play ``agents`` (names :func:`agents.make_agent` accepts) head to head.

    ``hands`` is the total number of hands, rounded up to whole deals; ``players`` seats
    per table (default: the rules' ``num_players``). ``compare_plain`` also plays as many
    hands on independent deals to measure what duplicate dealing saved. ``workers``
    processes share the deals (``None``: every core); the same seed gives the same report
    whatever the number of workers. With ``ray_address`` the deals are Ray tasks on that
    cluster instead (``""``: the cluster ``ray.init()`` finds, else a new local instance),
    with the same report for the same seed. ``engine``: ``"batched"`` plays on the batched
    engine (the rules ``TableBatch`` plays: the classic family and every variant, dealer's
    choice aside; every agent with a batched form there: the scripted agents outside the
    selection phases and joker buying, trained policies),
    ``"per_table"`` through ``raw_env``, ``"auto"`` the batched engine when it can and no
    Ray cluster is asked for; every path gives the same report for the same seed (in
    shopping, while no deck runs out: the engines reshuffle with different generators).

    ``seats`` makes the players (default: :class:`~agents.arena.seating.LocalSeats`, every
    agent in this process); its remote bots (``interfaces.players.ArenaSeats``) play on the
    per-table engine in this one process, their missed turns counted in the report.

    ``variance_reduction``: ``"none"`` (independent deals), ``"duplicate"`` or ``"aivat"``
    (duplicate dealing with the control variates of :mod:`agents.arena.aivat`, fitted on
    ``pilot_hands`` hands of separate deals, by default a quarter of ``hands``); ``None``
    follows ``duplicate``. AIVAT's pilot is not played by remote bots: with them it is a
    ``ValueError``.

    ``table`` is the composition (see :func:`parse_table`). The field (the default) gives
    an :class:`ArenaReport`. A pair composition plays every pairing of two agents of the
    pool as its own arena of ``hands`` hands on ``seed`` and gives a
    :class:`HeadToHeadReport`: for ``2v2`` (equal seats) every unordered pair, with the
    agent listed first as the row's agent; for ``1vN`` (unequal seats) every ordered pair,
    the row's agent holding the ``1`` side.
    """
    pool = check_pool(agents, seats)
    duplicate, aivat = resolve(variance_reduction, duplicate)
    check_settings(hands, seed, duplicate, compare_plain, engine, ray_address, pilot_hands)
    remote = check_remote(pool, seats, workers, ray_address)
    if aivat and remote:
        bots = ", ".join(sorted(remote))
        raise ValueError(f"AIVAT's pilot is not played by remote bots ({bots}): use "
                         "variance_reduction='duplicate'")
    table_rules = rules_for_table(rules, players)
    composition = parse_table(table, table_rules.num_players)
    if composition.seats is None:
        if aivat:
            check_supported(table_rules)
        config = ArenaConfig(pool, table_rules, hands, seed, duplicate, remote=remote,
                             aivat=aivat)
        return _play_reports([config], engine, compare_plain, workers, progress,
                             ray_address, seats=seats, pilot_hands=pilot_hands)[0]
    if len(pool) < 2:
        raise ValueError(f"the {composition.name} table seats two agents: give at least two, "
                         f"got {list(pool)}")
    pairs = (itertools.combinations(pool, 2) if composition.symmetric
             else itertools.permutations(pool, 2))
    return play_pairings([(composition, a, b) for a, b in pairs], table_rules, hands, seed,
                         duplicate, engine, compare_plain, workers, progress, ray_address,
                         seats=seats, aivat=aivat, pilot_hands=pilot_hands)

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
    variance_reduction: str | None = None,
    pilot_hands: int | None = None,
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
    check_pool((agent, *opponents))
    duplicate, aivat = resolve(variance_reduction, duplicate)
    check_settings(hands, seed, duplicate, False, engine, ray_address, pilot_hands)
    table_rules = rules_for_table(rules, players)
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
    return play_pairings(pairings, table_rules, hands, seed, duplicate, engine, False,
                         workers, progress, ray_address, aivat=aivat,
                         pilot_hands=pilot_hands)


def _progress_bar(total: int) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, unit="hand", desc="arena", smoothing=0.1)
