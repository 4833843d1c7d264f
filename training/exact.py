"""Exact best responses and exploitability on the small game (:mod:`training.small_game`),
by walking its whole game tree.

The best responder sees what its seat sees: its information set at a decision is the
hand's event log as that seat may know it (:meth:`Hand.events_for`: the deal, every public
action, its own cards once it looked). Chance (the deal, the dealer) and the other seats'
strategies are fixed. The walk starts from every deal, plays the other seats' decisions
with their probabilities, and gathers the histories that reach a decision of the best
responder by information set. At each information set it tries every action for all the
histories in it together, carries each on to the best responder's next information sets
(solved the same way, deepest first by recursion), and keeps the action with the largest
sum of reach-weighted values. Perfect recall makes this the best response, and the sum over
the root's information sets its expected value.

Values are in boots per hand for the seat, averaged over the deals and dealers.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents import Agent, PolicyAgent, RandomAgent, make_agent
from agents.scripted import AutoAgent, EquityAgent, LevelAgent
from teenpatti_env.engine import Hand
from training.small_game import Decision, SmallGame

Action = tuple[Any, ...]
"""An engine action as sorted ``(field, value)`` items, without its seat."""
InfoSet = str


class Strategy:
    """A fixed strategy of one seat: per decision, the probability of each action index.

    ``start`` gives the strategy's memory at the start of a hand; ``probabilities``
    answers for one decision and gives the memory after it (the walk keeps one memory per
    history, so an agent that remembers the hand is asked exactly as the table asks it).
    """

    def start(self) -> Any:
        return None

    def probabilities(self, memory: Any, decision: Decision) -> tuple[NDArray[np.float64], Any]:
        raise NotImplementedError


class AgentStrategy(Strategy):
    """An agent of :mod:`agents` as a strategy: ``random`` is uniform over the set mask
    indices; a trained policy plays its most likely action (or its softmax when it
    samples); the scripted agents that decide without their generator (``auto``,
    ``hard``, ``equity``) play the action they choose. Agents that draw at random inside a
    decision (``easy``, ``medium``) have no exact form here: a ``ValueError``."""

    def __init__(self, agent: Agent) -> None:
        exact = isinstance(agent, (RandomAgent, PolicyAgent, AutoAgent, EquityAgent)) or (
            isinstance(agent, LevelAgent) and not agent.style.mistakes)
        if not exact:
            raise ValueError(
                f"agent {agent.name!r} draws at random inside its decisions; the exact best "
                "response takes random, auto, hard, equity or a trained policy"
            )
        self.agent = agent
        self.name = agent.name
        # Agents that remember the hand get one copy of their memory per history.
        self.remembers = isinstance(agent, (LevelAgent, EquityAgent))

    def start(self) -> Any:
        agent = copy.deepcopy(self.agent) if self.remembers else self.agent
        agent.reset()
        return agent

    def probabilities(self, memory: Any, decision: Decision) -> tuple[NDArray[np.float64], Any]:
        size = decision.mask.shape[0]
        out = np.zeros(size)
        agent = self.agent
        if isinstance(agent, RandomAgent):
            out[decision.indices] = 1.0 / len(decision.indices)
            return out, memory
        if isinstance(agent, PolicyAgent) and agent.sample:
            logits = agent.policy.masked_logits(decision.observation, decision.mask)
            weights = np.exp(logits - logits.max())
            return weights / weights.sum(), memory
        player = copy.deepcopy(memory) if self.remembers else memory
        out[player.act(decision.observation, decision.mask, decision.info)] = 1.0
        return out, player


class TabularStrategy(Strategy):
    """A pure strategy given as a table: information set -> action (a best response's)."""

    def __init__(self, seat: int, table: dict[InfoSet, Action]) -> None:
        self.seat = seat
        self.table = table

    def probabilities(self, memory: Any, decision: Decision) -> tuple[NDArray[np.float64], Any]:
        wanted = self.table[info_set(decision.hand, self.seat)]
        out = np.zeros(decision.mask.shape[0])
        out[decision.actions()[wanted][0]] = 1.0
        return out, memory


def strategy_of(agent: str | Agent | Strategy, seed: int = 0) -> Strategy:
    """A strategy from an agent name (:func:`agents.make_agent`), an agent or a strategy."""
    if isinstance(agent, Strategy):
        return agent
    return AgentStrategy(make_agent(agent, seed=seed) if isinstance(agent, str) else agent)


def info_set(hand: Hand, seat: int) -> InfoSet:
    """The information set of ``seat`` at ``hand``: everything it may know, in order."""
    return repr(hand.events_for(seat))


@dataclass
class BestResponse:
    """The exact best response of ``seat`` against fixed strategies of the others."""

    seat: int
    value: float
    """Its expected win in boots per hand (over deals and dealers)."""
    policy: dict[InfoSet, Action] = field(default_factory=dict)
    """The action it takes at each information set it reaches."""
    info_sets: int = 0


Memories = tuple[dict[Any, Any], ...]
"""Per seat, the strategy's memory by what the seat holds (``None`` while it is blind)."""
Path = tuple[tuple[int, Action], ...]
Answer = tuple[NDArray[np.float64], Any]
"""A strategy's probabilities at a decision and its memory after it."""


class _Node:
    """A node of the public tree (the actions taken so far, which the cards never
    change): the hand of any deal at it is replayed from its parent when first asked."""

    def __init__(self, tree: _Tree, dealer: int, parent: _Node | None = None,
                 seat: int = -1, action: Action = ()) -> None:
        self.tree, self.dealer, self.parent = tree, dealer, parent
        self.path: Path = () if parent is None else (*parent.path, (seat, action))
        self._action = {"seat": seat, **dict(action)}
        self._hands: dict[int, Hand] = {}
        self.hand = self.at(0)
        """The hand of deal 0 here: its legal actions and turns are every deal's."""

    def at(self, deal: int) -> Hand:
        hand = self._hands.get(deal)
        if hand is None:
            if self.parent is None:
                hand = self.tree.game.hand(self.tree.deals[deal], self.dealer)
            else:
                hand = self.parent.at(deal).copy()
                hand.apply_checked(self._action)
            self._hands[deal] = hand
        return hand

    def child(self, seat: int, action: Action) -> _Node:
        return _Node(self.tree, self.dealer, self, seat, action)


class _Tree:
    """The deals of a small game, indexed: per seat the hand it holds in each deal, and
    per deal the order of the seats' hand values (which settles any showdown)."""

    def __init__(self, game: SmallGame) -> None:
        self.game = game
        self.deals = list(game.deals())
        n = game.num_seats
        holdings: list[dict[tuple[str, ...], int]] = [{} for _ in range(n)]
        self.holding = np.zeros((n, len(self.deals)), np.int64)
        self.first_with: list[list[int]] = [[] for _ in range(n)]
        patterns: dict[tuple[int, ...], int] = {}
        self.pattern = np.zeros(len(self.deals), np.int64)
        self.pattern_deal: list[int] = []
        for d, cards in enumerate(self.deals):
            for s in range(n):
                key = tuple(sorted(cards[s]))
                if key not in holdings[s]:
                    holdings[s][key] = len(holdings[s])
                    self.first_with[s].append(d)
                self.holding[s, d] = holdings[s][key]
            values = [game.hand(cards, 0).hand_value(s) for s in range(n)]
            order = tuple(sorted(set(values)).index(v) for v in values)
            if order not in patterns:
                patterns[order] = len(patterns)
                self.pattern_deal.append(d)
            self.pattern[d] = patterns[order]
        self.cache: dict[tuple[Strategy, int, Path, int | None], Answer] = {}

    def net(self, node: _Node, reach: NDArray[np.float64]) -> NDArray[np.float64]:
        """Every deal's net win per seat, in boots, at a finished node."""
        boot = self.game.rules.boot
        if not node.hand.shown:  # nobody turned cards up: the same result in every deal
            net = node.hand.net
            assert net is not None
            return np.broadcast_to(np.asarray(net, np.float64) / boot,
                                   (len(self.deals), len(net)))
        out = np.zeros((len(self.deals), self.game.num_seats))
        for pattern in np.unique(self.pattern[reach > 0]):
            net = node.at(self.pattern_deal[pattern]).net
            assert net is not None
            out[self.pattern == pattern] = np.asarray(net, np.float64) / boot
        return out

    def groups(self, node: _Node, seat: int, reach: NDArray[np.float64]) -> list[int | None]:
        """What ``seat`` may hold at ``node`` as far as it knows: ``None`` while blind."""
        if not node.hand.seen[seat]:
            return [None]
        return [int(h) for h in np.unique(self.holding[seat][reach > 0])]

    def split(
        self, node: _Node, seat: int, strategy: Strategy, reach: NDArray[np.float64],
        memories: Memories,
    ) -> list[tuple[Action, NDArray[np.float64], Memories]]:
        """The actions of ``seat`` (a fixed strategy) at ``node``: each with the reach of
        every deal after it and the memories it leaves."""
        decision = self.game.decision(node.hand, seat)
        actions = decision.actions()
        groups = self.groups(node, seat, reach)
        chances = np.zeros((len(self.first_with[seat]), len(actions)))
        remembered: dict[Any, Any] = {}
        for group in groups:
            key = (strategy, node.dealer, node.path, group)
            known = self.cache.get(key)
            if known is None:
                here = decision if group is None else self.game.decision(
                    node.at(self.first_with[seat][group]), seat)
                memory = memories[seat].get(group, memories[seat].get(None))
                known = self.cache[key] = strategy.probabilities(memory, here)
            probabilities, remembered[group] = known
            row = [float(probabilities[indices].sum()) for indices in actions.values()]
            if group is None:
                chances[:] = row
            else:
                chances[group] = row
        after = (*memories[:seat], remembered, *memories[seat + 1:])
        out = []
        for a, action in enumerate(actions):
            child_reach = reach * chances[self.holding[seat], a]
            if child_reach.any():
                out.append((action, child_reach, after))
        return out

    def roots(self) -> list[tuple[_Node, NDArray[np.float64]]]:
        dealers = self.game.dealers()
        weight = 1.0 / (len(self.deals) * len(dealers))
        return [(_Node(self, dealer), np.full(len(self.deals), weight)) for dealer in dealers]


def _start(strategies: Sequence[Strategy]) -> Memories:
    return tuple({None: s.start()} for s in strategies)


class _Walk:
    """One best-response walk: ``seat`` against ``strategies`` (one per seat; the
    seat's own entry is unused)."""

    def __init__(self, tree: _Tree, seat: int, strategies: Sequence[Strategy],
                 record: bool) -> None:
        self.tree, self.seat, self.strategies, self.record = tree, seat, strategies, record
        self.policy: dict[InfoSet, Action] = {}
        self.info_sets = 0

    def value(self, node: _Node, reach: NDArray[np.float64],
              memories: Memories) -> NDArray[np.float64]:
        """Every deal's reach-weighted win of the best responder from ``node`` on."""
        hand = node.hand
        if hand.over:
            return reach * self.tree.net(node, reach)[:, self.seat]
        seat = hand.to_act
        assert seat is not None
        if seat != self.seat:
            out = np.zeros_like(reach)
            for action, after, kept in self.tree.split(node, seat, self.strategies[seat],
                                                       reach, memories):
                out += self.value(node.child(seat, action), after, kept)
            return out
        actions = list(self.tree.game.decision(hand, seat).actions())
        values = np.stack([self.value(node.child(seat, a), reach, memories) for a in actions])
        out = np.zeros_like(reach)
        holding = self.tree.holding[seat]
        for group in self.tree.groups(node, seat, reach):
            deals = np.ones_like(reach, bool) if group is None else holding == group
            best = int(np.argmax(values[:, deals].sum(axis=1)))
            out[deals] = values[best, deals]
            self.info_sets += 1
            if self.record:
                where = 0 if group is None else self.tree.first_with[seat][group]
                self.policy[info_set(node.at(where), seat)] = actions[best]
        return out

    def run(self) -> BestResponse:
        total = 0.0
        for root, reach in self.tree.roots():
            total += float(self.value(root, reach, _start(self.strategies)).sum())
        return BestResponse(self.seat, total, self.policy, self.info_sets)


def best_response(
    game: SmallGame,
    seat: int,
    others: Sequence[Strategy | str | Agent] | Strategy | str | Agent,
    record: bool = False,
) -> BestResponse:
    """The exact best response of ``seat`` against ``others`` (one strategy for every other
    seat, or a list with one per seat, the best responder's entry ignored). ``record``: keep
    its action at every information set (:attr:`BestResponse.policy`)."""
    with _walking(game) as tree:
        return _Walk(tree, seat, _per_seat(game, others), record).run()


def expected_values(
    game: SmallGame, strategies: Sequence[Strategy | str | Agent] | Strategy | str | Agent
) -> list[float]:
    """Every seat's expected win, in boots per hand, when each plays its strategy."""
    per_seat = _per_seat(game, strategies)
    with _walking(game) as tree:
        totals = np.zeros(game.num_seats)

        def walk(node: _Node, reach: NDArray[np.float64], memories: Memories) -> None:
            if node.hand.over:
                totals[:] += reach @ tree.net(node, reach)
                return
            seat = node.hand.to_act
            assert seat is not None
            for action, after, kept in tree.split(node, seat, per_seat[seat], reach, memories):
                walk(node.child(seat, action), after, kept)

        for root, reach in tree.roots():
            walk(root, reach, _start(per_seat))
        return [float(v) for v in totals]


def best_response_value(
    game: SmallGame, target: Strategy | str | Agent, seats: Sequence[int] | None = None
) -> float:
    """The exact exploitability figure of ``teenpatti exploit --exact``: what a best
    response wins, in boots per hand, in one seat against ``target`` in every other,
    averaged over the seats (``seats``: the best responder's seats, default every seat)."""
    chosen = list(range(game.num_seats)) if seats is None else list(seats)
    strategy = strategy_of(target)
    with _walking(game):
        return float(np.mean([best_response(game, s, strategy).value for s in chosen]))


def nash_conv(
    game: SmallGame, strategies: Sequence[Strategy | str | Agent] | Strategy | str | Agent
) -> float:
    """NashConv of a profile: the sum over seats of what a best response gains over the
    seat's own strategy (0 exactly at a Nash equilibrium)."""
    per_seat = _per_seat(game, strategies)
    with _walking(game):
        values = expected_values(game, per_seat)
        return float(sum(best_response(game, s, per_seat).value - values[s]
                         for s in range(game.num_seats)))


_TREES: dict[SmallGame, tuple[_Tree, list[int]]] = {}


@contextmanager
def _walking(game: SmallGame) -> Iterator[_Tree]:
    """The indexed deals of ``game``, with one cache of the strategies' answers shared by
    every walk inside the outermost ``with`` (and dropped after it)."""
    tree, depth = _TREES.get(game) or (_Tree(game), [0])
    _TREES[game] = (tree, depth)
    depth[0] += 1
    try:
        yield tree
    finally:
        depth[0] -= 1
        if depth[0] == 0:
            del _TREES[game]


def _per_seat(
    game: SmallGame, strategies: Sequence[Strategy | str | Agent] | Strategy | str | Agent
) -> list[Strategy]:
    if isinstance(strategies, (str, Agent, Strategy)):
        one = strategy_of(strategies)
        return [one] * game.num_seats
    out = [strategy_of(s, seed=i) for i, s in enumerate(strategies)]
    if len(out) != game.num_seats:
        raise ValueError(f"give one strategy, or {game.num_seats} (one per seat)")
    return out


