"""Who sits where and what is dealt: the table compositions, a run's settings, the lineup
and the cards of every deal (each from its own seed), and the raw results of played deals.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

import numpy as np
from numpy.typing import NDArray

from agents import make_agent
from agents.arena.aivat_strata import deal_in_stratum, deal_plan
from agents.base import Agent
from agents.loop import MISSED_TURNS
from teenpatti_env.engine import Hand
from teenpatti_env.rules import Rules

TRACKED_ACTIONS = ("look", "pack", "show", "sideshow")
"""Actions whose rate per hand the report gives for every agent."""

ENGINES = ("auto", "batched", "per_table")

CONFIDENCE = 0.95
"""Confidence of every interval, and one minus the family-wise level of adjusted claims."""


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
    remote: frozenset[str] = frozenset()
    """The agents of the pool that are remote bots (played per table, in this process,
    their missed turns counted)."""
    aivat: bool = False
    """Whether the results are corrected for the luck of the deal (:mod:`agents.arena.aivat`)."""
    pilot: bool = False
    """Whether these are the deals of an AIVAT pilot (a seed stream of their own)."""

    @property
    def players(self) -> int:
        return self.rules.num_players

    @property
    def variance_reduction(self) -> str:
        """``none`` (independent deals), ``duplicate`` or ``aivat`` (on duplicate)."""
        return "aivat" if self.aivat else "duplicate" if self.duplicate else "none"

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
    missed: NDArray[np.int32] | None = None
    """``[deal, rotation, seat, k]``: the turns the seat missed as ``MISSED_TURNS[k]``
    (``None``: no seat missed any, as with local agents only)."""

    def missed_turns(self) -> NDArray[np.int32]:
        """:attr:`missed`, as zeros where it is ``None``."""
        if self.missed is not None:
            return self.missed
        return np.zeros((*self.net.shape, len(MISSED_TURNS)), dtype=np.int32)

    @staticmethod
    def concat(parts: Sequence[Deals]) -> Deals:
        missed = (None if all(p.missed is None for p in parts)
                  else np.concatenate([p.missed_turns() for p in parts]))
        return Deals(
            np.concatenate([p.agent for p in parts]),
            np.concatenate([p.net for p in parts]),
            np.concatenate([p.actions for p in parts]),
            missed,
        )


class Seats(Protocol):
    """Who plays a run's agents: :class:`LocalSeats` makes every agent in this process; the
    command line passes one that also seats remote bots (``interfaces``), so that the arena
    plays them without importing the layer they live in. Its local agents are the ones
    :func:`agents.make_agent` makes (the batched engine plays their batched forms)."""

    remote: frozenset[str]
    """The specs this seats as remote bots."""

    def make(self, spec: str, seed: int | None) -> Agent:
        """A new player for ``spec``, seeded with ``seed`` (a remote bot ignores it)."""
        ...

    def hand_done(self, hand: Hand) -> None:
        """Called as each hand of the per-table engine ends (a transcript's hook)."""
        ...


class LocalSeats:
    """Every agent made in this process by :func:`agents.make_agent`."""

    remote: frozenset[str] = frozenset()

    def make(self, spec: str, seed: int | None) -> Agent:
        return make_agent(spec, seed)

    def hand_done(self, hand: Hand) -> None:
        """Nothing to record."""


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
    with the same seed draw different deals, and a pilot's deals are others again)."""
    stream = _deal_stream(config, deal)
    return np.random.default_rng([*stream, 1] if config.pilot else stream)


def chance_seed(config: ArenaConfig, deal: int) -> int:
    """The seed of what deal number ``deal``'s given cards leave to chance (the order of
    shopping's reshuffled discards): from its own stream, so that drawing it changes none
    of the deal's other draws."""
    stream = [*_deal_stream(config, deal), 2 + int(config.pilot)]
    return int(np.random.SeedSequence(stream).generate_state(1)[0])


def _deal_stream(config: ArenaConfig, deal: int) -> list[int]:
    """The entropy that names deal number ``deal`` of a run."""
    return [config.seed, deal, int(config.duplicate)]


class Deal(NamedTuple):
    """One deal of a run, drawn the same whatever path plays it."""

    lineup: NDArray[np.int16]
    options: dict[str, Any]
    """``env.reset`` options: the dealer and, unless under dealer's choice, the cards."""
    seed: int
    """``env.reset``'s seed: under dealer's choice the deal's (C1: dealt after the
    choice); otherwise the seed of what the given cards leave to chance (the order of
    shopping's reshuffled discards), the same at every rotation of the deal."""
    rng: np.random.Generator
    """The deal's generator, after the deal (the agents' seeds come next)."""


def draw_deal(config: ArenaConfig, deal: int) -> Deal:
    """Deal number ``deal`` of ``config``, from the deal's own generator."""
    rng = deal_seed(config, deal)
    seats = config.table.seats
    lineup = (draw_lineup(len(config.agents), config.players, rng) if seats is None
              else shuffled_lineup(seats, rng))
    dealer = int(rng.integers(config.players))
    stacks = [config.rules.starting_stack] * config.players
    plan = deal_plan(config)
    if plan is not None:  # AIVAT's stratified dealing: the classic family's one deal
        cards = deal_in_stratum(rng, config.players, int(plan.strata[deal]), config.rules)
        return Deal(lineup, {"cards": [tuple(int(c) for c in hand) for hand in cards],
                             "dealer": dealer}, chance_seed(config, deal), rng)
    if config.rules.dealers_choice is None:
        dealt = Hand.deal(config.rules, stacks, dealer, rng)  # the variant's whole deal
        options = {"cards": dealt.cards, "dealer": dealer, **dealt.table_cards()}
        return Deal(lineup, options, chance_seed(config, deal), rng)
    # C1: dealt after the dealer's choice, from one shuffle per deal
    return Deal(lineup, {"dealer": dealer}, int(rng.integers(2**63)), rng)
