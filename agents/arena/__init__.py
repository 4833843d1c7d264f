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

The package's rooms: :mod:`~agents.arena.seating` (compositions, settings, lineups and
deals), :mod:`~agents.arena.per_table` and :mod:`~agents.arena.batched` (the two engines'
play), :mod:`~agents.arena.workers` (processes, Ray), :mod:`~agents.arena.summary` (results,
intervals, ratings), :mod:`~agents.arena.report` and :mod:`~agents.arena.pairings` (the
reports), :mod:`~agents.arena.run` (the entry points).

>>> report = run_arena(["random", "equity"], hands=16, rules="classic", seed=3)
>>> report.hands, sorted(report.agents)
(16, ['equity', 'random'])
"""

from __future__ import annotations

from agents.arena.batched import BATCHED_DEALS, batch_policies, play_deals_batched
from agents.arena.pairings import HeadToHead, HeadToHeadReport
from agents.arena.per_table import play_deals
from agents.arena.report import ArenaReport
from agents.arena.run import RulesLike, head_to_head, run_arena
from agents.arena.seating import (
    CONFIDENCE,
    ENGINES,
    FIELD,
    TABLE_HELP,
    TRACKED_ACTIONS,
    ArenaConfig,
    Composition,
    Deals,
    LocalSeats,
    Seats,
    deal_seed,
    draw_lineup,
    parse_table,
    shuffled_lineup,
)
from agents.arena.summary import AgentResult, summarize
from agents.arena.workers import DEALS_PER_TASK, play

__all__ = [
    "BATCHED_DEALS",
    "CONFIDENCE",
    "DEALS_PER_TASK",
    "ENGINES",
    "FIELD",
    "TABLE_HELP",
    "TRACKED_ACTIONS",
    "AgentResult",
    "ArenaConfig",
    "ArenaReport",
    "Composition",
    "Deals",
    "HeadToHead",
    "HeadToHeadReport",
    "LocalSeats",
    "RulesLike",
    "Seats",
    "batch_policies",
    "deal_seed",
    "draw_lineup",
    "head_to_head",
    "parse_table",
    "play",
    "play_deals",
    "play_deals_batched",
    "run_arena",
    "shuffled_lineup",
    "summarize",
]
