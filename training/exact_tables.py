"""The small game against a fixed target, compiled into arrays, and tables that play it
at numpy speed for the learned best response (:mod:`training.exact_check`).

The small game's public tree (the actions taken so far, which the cards never change) has
a few hundred decisions per dealer. :class:`CompiledGame` walks it once with the engine
(:mod:`training.exact`'s tree): at every decision, for every thing the seat to act may hold
as far as it knows (nothing while blind, each of its holdings once it looked), it keeps the
observation vector, the mask, the child each action index leads to and the target's
probability of each index (asked exactly as the exact walk asks it, memory included); at
every end of a hand, the seats' nets for each order of the seats' hand values.
:class:`CompiledTables` then deals and plays hands from these arrays alone: one learner seat
per table (drawn each hand), the target in the others. Every number it shows was made by
the engine and the environment's encoders, so a policy sees exactly what it would see at
:class:`~training.small_game.SmallGameEnv`; only the stepping is array lookups.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents import Agent
from teenpatti_env.environment.batched import BatchStep
from training.exact import Memories, Strategy, _Node, _start, _Tree, _walking, strategy_of
from training.small_game import SmallGame


class CompiledGame:
    """The public tree of ``game`` with ``target``'s answers at every decision.

    Decision ``d`` of the acting seat ``to_act[d]`` has rows ``first_row[d] + g`` of
    :attr:`observations` and :attr:`target_probabilities`: ``g = 0`` while the seat is
    blind (``seen[d]`` false), else ``g`` is its holding (:attr:`holding`)."""

    def __init__(self, game: SmallGame, target: Strategy | str | Agent) -> None:
        self.game = game
        strategy = strategy_of(target)
        layout = game.layout
        with _walking(game) as tree:
            self.holding: NDArray[np.int64] = tree.holding.copy()
            """``[seats, deals]``: each seat's holding (an index per seat) in each deal."""
            self.pattern: NDArray[np.int64] = tree.pattern.copy()
            """``[deals]``: the order of the seats' hand values in each deal."""
            self.num_deals = len(tree.deals)
            self.to_act: list[int] = []
            """Per node: the seat to act, -1 at the end of a hand."""
            self.seen: list[bool] = []
            self.first_row: list[int] = []
            self.children: list[NDArray[np.int64]] = []
            self.nets: list[NDArray[np.float64]] = []
            self._observations: list[NDArray[np.float32]] = []
            self._masks: list[NDArray[np.int8]] = []
            self._probabilities: list[NDArray[np.float64]] = []
            self.roots = [self._walk(tree, root, strategy, _start([strategy] * game.num_seats))
                          for root, _ in tree.roots()]
        self.observations = np.stack(self._observations)
        self.masks = np.stack(self._masks)
        self.target_probabilities = np.stack(self._probabilities)
        self.child_of = np.stack(self.children)
        """``[nodes, actions]``: the node each action index leads to (-1: illegal)."""
        self.net = np.stack(self.nets)
        """``[nodes, patterns, seats]``: each seat's net in boots where the hand ends."""
        self.to_act_array = np.asarray(self.to_act, np.int64)
        self.seen_array = np.asarray(self.seen, np.bool_)
        self.first_row_array = np.asarray(self.first_row, np.int64)
        self.dealers = np.asarray(game.dealers(), np.int64)
        self.size = layout.size

    def _walk(self, tree: _Tree, node: _Node, strategy: Strategy, memories: Memories) -> int:
        """Number ``node`` and everything below it; returns its number."""
        number = len(self.to_act)
        hand = node.hand
        self.to_act.append(-1 if hand.over else int(hand.to_act or 0))
        self.seen.append(False)
        self.first_row.append(-1)
        self.children.append(np.full(self.game.layout.size, -1, np.int64))
        self.nets.append(np.zeros((len(tree.pattern_deal), self.game.num_seats)))
        if hand.over:
            reach = np.ones(len(tree.deals))
            per_deal = tree.net(node, reach)
            self.nets[number] = per_deal[tree.pattern_deal]
            return number
        seat = self.to_act[number]
        seen = bool(hand.seen[seat])
        groups = tree.groups(node, seat, np.ones(len(tree.deals)))
        self.seen[number] = seen
        self.first_row[number] = len(self._observations)
        remembered: dict[Any, Any] = {}
        decision = tree.game.decision(hand, seat)
        for group in groups:
            here = decision if group is None else tree.game.decision(
                node.at(tree.first_with[seat][group]), seat)
            memory = memories[seat].get(group, memories[seat].get(None))
            probabilities, remembered[group] = strategy.probabilities(memory, here)
            self._observations.append(here.observation)
            self._masks.append(here.mask)
            self._probabilities.append(probabilities)
        after = (*memories[:seat], remembered, *memories[seat + 1:])
        for action, indices in decision.actions().items():
            child = self._walk(tree, node.child(seat, action), strategy, after)
            self.children[number][indices] = child
        return number

    def row(self, nodes: NDArray[np.int64], deals: NDArray[np.int64]) -> NDArray[np.int64]:
        """The row of the seat to act at each decision node, in each deal."""
        seats = self.to_act_array[nodes]
        group = np.where(self.seen_array[nodes], self.holding[seats, deals], 0)
        return self.first_row_array[nodes] + group


class CompiledTables:
    """``num_tables`` tables of a :class:`CompiledGame` shown to a
    :class:`~training.selfplay.Learner` as one-seat tables (as
    :class:`~training.exploit.PerTableBatch` shows its environments): each hand deals a
    uniform deal and dealer, seats the learner in a uniformly drawn seat and plays the
    target in the others. A hand that ends before the learner's first decision is dealt
    again, seat included (the single-agent environment keeps the seat), so that every
    decision comes up as often as it weighs in the exact value."""

    num_seats = 1

    def __init__(self, compiled: CompiledGame, num_tables: int, seed: int) -> None:
        self.compiled = compiled
        self.num_tables = num_tables
        self.observation_size = compiled.observations.shape[1]
        self.action_size = compiled.size
        self.rng = np.random.default_rng(seed)
        self.node = np.zeros(num_tables, np.int64)
        self.deal = np.zeros(num_tables, np.int64)
        self.learner = np.zeros(num_tables, np.int64)
        self._to_act = np.zeros(num_tables, np.int64)
        self._rewards = np.zeros((num_tables, 1))
        self._finished = np.zeros(num_tables, np.bool_)

    def reset(self, seed: int | None = None) -> BatchStep:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self._rewards[:] = 0.0
        self._finished[:] = False
        self._deal(np.arange(self.num_tables))
        return self._result()

    def step(self, actions: Any) -> BatchStep:
        compiled = self.compiled
        chosen = np.asarray(actions, np.int64)
        rows = np.arange(self.num_tables)
        if not compiled.masks[compiled.row(self.node, self.deal), chosen].all():
            raise ValueError("an action outside the mask")
        self.node = compiled.child_of[self.node, chosen]
        self._rewards[:] = 0.0
        self._finished[:] = False
        self._play_target(rows)
        ended = np.flatnonzero(compiled.to_act_array[self.node] < 0)
        pattern = compiled.pattern[self.deal[ended]]
        self._rewards[ended, 0] = compiled.net[self.node[ended], pattern, self.learner[ended]]
        self._finished[ended] = True
        self._deal(ended)
        return self._result()

    def _deal(self, tables: NDArray[np.int64]) -> None:
        """New hands at ``tables``, dealt again until the learner has a decision."""
        compiled, rng = self.compiled, self.rng
        while len(tables):
            count = len(tables)
            self.start(tables, rng.integers(compiled.num_deals, size=count),
                       rng.integers(len(compiled.roots), size=count),
                       rng.integers(compiled.game.num_seats, size=count))
            tables = tables[compiled.to_act_array[self.node[tables]] < 0]

    def start(self, tables: NDArray[np.int64], deals: NDArray[np.int64],
              dealers: NDArray[np.int64], learners: NDArray[np.int64]) -> BatchStep:
        """Start hands at ``tables``: deal ``deals`` (indices into the game's deals),
        ``dealers`` (indices into its dealers), the learner in seats ``learners``, and play
        the target up to the learner's first decision or the end."""
        self.deal[tables] = deals
        self.node[tables] = np.asarray(self.compiled.roots, np.int64)[dealers]
        self.learner[tables] = learners
        self._play_target(tables)
        return self._result()

    def _play_target(self, tables: NDArray[np.int64]) -> None:
        """The target's decisions at ``tables`` until the learner's turn or the end."""
        compiled = self.compiled
        while True:
            seats = compiled.to_act_array[self.node[tables]]
            tables = tables[(seats >= 0) & (seats != self.learner[tables])]
            if not len(tables):
                return
            rows = compiled.row(self.node[tables], self.deal[tables])
            cumulative = np.cumsum(compiled.target_probabilities[rows], axis=1)
            draws = self.rng.random(len(tables)) * cumulative[:, -1]
            index = (cumulative <= draws[:, None]).sum(axis=1)
            self.node[tables] = compiled.child_of[self.node[tables], index]

    def _result(self) -> BatchStep:
        rows = self.compiled.row(self.node, self.deal)
        return BatchStep(self._to_act, self.compiled.observations[rows],
                         self.compiled.masks[rows], self._rewards, self._finished)
