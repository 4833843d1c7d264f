"""Who plays the deals: this process, a pool of worker processes, a Ray cluster, or the
batched engine; every way gives the same raw results for the same seed."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed

from agents.arena.batched import BATCHED_DEALS, play_deals_batched
from agents.arena.per_table import play_deals
from agents.arena.seating import ArenaConfig, Deals, Seats
from agents.batch_scripted import BatchForm
from agents.ray_support import ray_connection

DEALS_PER_TASK = 25
"""Deals one worker plays per task (a progress step)."""


def _tasks(deals: int) -> Iterator[tuple[int, int]]:
    for first in range(0, deals, DEALS_PER_TASK):
        yield first, min(DEALS_PER_TASK, deals - first)


def play(
    config: ArenaConfig,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    policies: Sequence[BatchForm] | None = None,
    ray_address: str | None = None,
    seats: Seats | None = None,
) -> Deals:
    """Play every deal of ``config`` on ``workers`` processes (``None``: every core), as
    Ray tasks when ``ray_address`` is given (see :func:`run_arena`), or on the batched
    engine in this process when ``policies`` (every agent's batched form) are given;
    ``progress(hands)`` is called as hands finish. ``seats`` makes the players in this
    process (worker processes make local agents with ``make_agent``); with remote bots in
    ``config``, every deal is played in this process (the bots' connections are here)."""
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
    workers = 1 if config.remote else min(workers or os.cpu_count() or 1, len(tasks))
    parts: dict[int, Deals] = {}
    if workers <= 1:
        for first, count in tasks:
            parts[first] = play_deals(config, first, count, seats)
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
    (see :func:`ray_connection`)."""
    with ray_connection(address, "the arena on Ray") as ray:
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
