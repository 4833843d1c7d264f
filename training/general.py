"""Self-play at every table but dealer's choice: ``teenpatti selfplay --table-mix general``.

One network (the seat-padded input of :mod:`agents.seat_padding`, the table's rules among
its inputs; the padded actions of :mod:`agents.padded_actions`) learns at a mixture of
table kinds. The run's tables are split into ``GROUPS`` groups; before every PPO round
each group draws its table kind from the mixture (:data:`GENERAL_MIXTURE`: every seat
count 3..7 under each of the four presets, the ``classic`` preset with other limit and
sideshow settings, and every named variant the batched engine plays, the selection
phases and buying a joker among them), so every rollout holds several kinds. Each
group's masks are widened to the padded actions by name and the network's choices
mapped back to its tables' own actions. The rollouts of all groups go through the
network in one batch and one merged PPO update (:class:`training.selfplay_learner.Learner`
plays :class:`MixedTables` as it plays one :class:`TableBatch`). The run loop is
:func:`training.selfplay_loop.run_loop`'s (snapshots, exploiters, checkpoints,
``resume``), its rounds and table hooks given by :class:`GeneralRounds`. The league is
shared by every kind: the frozen snapshots, the uniform random policy and the exploiters
sit at any table. Each exploiter is made at one kind drawn from the mixture: a learned
one is a copy of the network trained there, a searched one a rule setting found there,
which reads each padded row unpadded (:func:`training.padded_policies.unpadded_rule_actor`).

``progress.csv`` has, besides the usual columns, two per kind:
``<kind>.versus_per_hand`` (the learner's boots per hand at tables of that kind where it
holds one seat against snapshots) and ``<kind>.uniform_per_hand`` (against the uniform
policy); a kind no group drew in a round leaves them empty.

The export is a ``teenpatti-policy/2`` file (``input: seat-padded/3``, ``actions:
padded/1``) whose metadata lists the mixture; each snapshot is also written as one,
``snapshots/step_N.npz``. ``--init-from`` takes a one-table policy of the classic family
or an earlier general policy (``seat-padded/1`` or ``/2``, classic's ten actions) and
widens it (:func:`training.padded_policies.padded_start`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import torch
from numpy.typing import NDArray

from agents.padded_actions import PADDED_ACTION_NAMES, PADDED_ACTIONS, action_map
from agents.policy import GENERAL_POLICY_FORMAT, NumpyPolicy
from agents.seat_padding import (
    MAX_SEATS,
    PADDED_LAYOUT,
    PADDED_SIZE,
    padded_layout,
)
from teenpatti_env.environment.batched import BatchStep, TableBatch
from training.config import SelfPlayConfig
from training.league_search import league_budget, search_exploiter
from training.mixture import GENERAL_MIXTURE as GENERAL_MIXTURE
from training.mixture import SHORT_STACKS as SHORT_STACKS
from training.mixture import VARIANT_SEATS as VARIANT_SEATS
from training.mixture import TableKind as TableKind
from training.mixture import batch_variants as batch_variants
from training.mixture import mixture_names as mixture_names
from training.padded_policies import unpadded_rule_actor
from training.scaling import padded_observation_scale
from training.selfplay_learner import Learner, train_exploiter
from training.selfplay_loop import LocalRounds
from training.selfplay_network import (
    ActorCritic,
    PoolMember,
)
from training.selfplay_rollout import RolloutStats, SeatPlan

GROUPS = 8
"""Groups of tables, each drawing its own table kind before every round."""


class MixedTables:
    """Groups of :class:`TableBatch` of different kinds as one batch of seven-seat
    tables with the padded input and the padded actions (:data:`PADDED_ACTION_NAMES`):
    what a :class:`~training.selfplay_learner.Learner` plays at.

    Seats beyond a table's own count never act; their rewards are zero. A group's masks
    are widened to the padded actions by name, and the actions it is given (padded
    indices) mapped back to its tables' own. :meth:`redraw` gives every group a new kind
    (and fresh tables) from the mixture."""

    def __init__(self, mixture: Sequence[TableKind], groups: int, tables_per_group: int,
                 seed: int) -> None:
        if not mixture:
            raise ValueError("a table mixture needs at least one kind")
        self.mixture = list(mixture)
        self.action_names = PADDED_ACTION_NAMES
        self.action_maps = [action_map(kind.rules, PADDED_ACTION_NAMES)
                            for kind in self.mixture]
        """Per kind: where its tables' actions sit among the padded ones."""
        self.groups = groups
        self.per_group = tables_per_group
        self.num_tables = groups * tables_per_group
        self.num_seats = MAX_SEATS
        self.observation_size = PADDED_SIZE
        self.action_size = len(self.action_names)
        weights = np.array([kind.weight for kind in self.mixture], dtype=np.float64)
        self.weights = weights / weights.sum()
        self.rng = np.random.default_rng([seed, 11])
        self.seed = seed
        self.draws = 0
        self.kinds = np.zeros(groups, np.int64)
        """The kind (index into the mixture) of each group."""
        self.seat_counts = np.zeros(self.num_tables, np.int64)
        self.batches: list[TableBatch] = []
        self.roles: NDArray[np.int64] | None = None
        """The seat plan's roles (set by the trainer): the per-kind results read them."""
        self.uniform_role = 0
        self.results = np.zeros((len(self.mixture), 4))
        """Per kind: versus hands, the learner's versus sum, uniform hands, uniform sum."""
        self._draw_kinds()

    def _draw_kinds(self) -> None:
        self.kinds = self.rng.choice(len(self.mixture), self.groups, p=self.weights)
        self.batches = [
            TableBatch(self.per_group, self.mixture[k].rules,
                       stacks=self._stacks(self.mixture[k]),
                       seed=int(np.random.SeedSequence([self.seed, self.draws, g])
                                .generate_state(1)[0]))
            for g, k in enumerate(self.kinds)]
        self.draws += 1
        for g, k in enumerate(self.kinds):
            self.seat_counts[self._rows(g)] = self.mixture[k].rules.num_players

    def _stacks(self, kind: TableKind) -> list[int] | None:
        """A short-stack kind's stacks for every hand of a group's round, drawn per seat
        log-uniformly in boots from the mixture's generator (``None``: the rules')."""
        if kind.short_stacks is None:
            return None
        low, high = np.log(kind.short_stacks)
        boots = np.rint(np.exp(self.rng.uniform(low, high, kind.rules.num_players)))
        return [int(b) * kind.rules.boot for b in boots]

    def _rows(self, group: int) -> slice:
        return slice(group * self.per_group, (group + 1) * self.per_group)

    def _merge(self, steps: Sequence[BatchStep]) -> BatchStep:
        observations = np.zeros((self.num_tables, PADDED_SIZE), np.float32)
        masks = np.zeros((self.num_tables, self.action_size), np.int8)
        rewards = np.zeros((self.num_tables, MAX_SEATS))
        for g, (k, step) in enumerate(zip(self.kinds, steps, strict=True)):
            rows = self._rows(g)
            observations[rows] = padded_layout(self.mixture[k].rules).pad(step.observations)
            masks[rows] = self.action_maps[k].widen(step.action_masks)
            rewards[rows, :step.rewards.shape[1]] = step.rewards
        return BatchStep(
            to_act=np.concatenate([s.to_act for s in steps]),
            observations=observations,
            action_masks=masks,
            rewards=rewards,
            finished=np.concatenate([s.finished for s in steps]),
        )

    def reset(self, seed: int | None = None) -> BatchStep:
        """Start every group's tables (each group's seed comes from the run's)."""
        return self._merge([batch.reset() for batch in self.batches])

    def redraw(self) -> BatchStep:
        """Give every group a new kind from the mixture and start its tables."""
        self._draw_kinds()
        return self.reset()

    def step(self, actions: Any) -> BatchStep:
        """One padded action per table (ignored where the table waits for none)."""
        actions = np.asarray(actions, np.int64)
        merged = self._merge([batch.step(self.action_maps[k].back[actions[self._rows(g)]])
                              for g, (k, batch) in enumerate(zip(self.kinds, self.batches,
                                                                 strict=True))])
        self._count(merged)
        return merged

    def _count(self, step: BatchStep) -> None:
        """Add the finished hands' per-kind results (before the plan seats them again)."""
        if self.roles is None:
            return
        finished = np.flatnonzero(step.finished)
        if len(finished) == 0:
            return
        seats = self.seat_counts[finished]
        present = np.arange(MAX_SEATS)[None, :] < seats[:, None]
        roles = self.roles[finished]
        learner = (roles == 0) & present
        lone = learner.sum(axis=1) == 1
        uniform = lone & ((roles == self.uniform_role) & present).any(axis=1) \
            if self.uniform_role else np.zeros(len(finished), np.bool_)
        versus = lone & ~uniform
        won = (step.rewards[finished] * learner).sum(axis=1)
        kinds = self.kinds[finished // self.per_group]
        for column, which in ((0, versus), (2, uniform)):
            np.add.at(self.results[:, column], kinds[which], 1.0)
            np.add.at(self.results[:, column + 1], kinds[which], won[which])

    def take_results(self) -> dict[str, float]:
        """The per-kind columns of the rounds since the last call (empty: not played)."""
        row: dict[str, float] = {}
        for k, kind in enumerate(self.mixture):
            versus_hands, versus_sum, uniform_hands, uniform_sum = self.results[k]
            row[f"{kind.name}.versus_per_hand"] = (versus_sum / versus_hands if versus_hands
                                                   else float("nan"))
            row[f"{kind.name}.uniform_per_hand"] = (uniform_sum / uniform_hands
                                                    if uniform_hands else float("nan"))
        self.results[:] = 0.0
        return row


class SizedSeatPlan(SeatPlan):
    """A :class:`SeatPlan` at tables of different seat counts: the one seat that differs
    from the others (the learner at a versus table) is always a seat the table has."""

    def __init__(self, plan: SeatPlan, seat_counts: NDArray[np.int64]) -> None:
        super().__init__(len(plan.roles), plan.roles.shape[1], plan.self_play_share, plan.rng,
                         plan.exploiter_table_share, plan.uniform_table_share)
        self.seat_counts = seat_counts

    def draw(self, tables: NDArray[np.int64], pool_size: int,
             exploiters: Sequence[int] = (), uniform: int = 0) -> None:
        super().draw(tables, pool_size, exploiters, uniform)
        if len(tables) == 0:
            return
        roles = self.roles[tables]
        zeros = (roles == 0).sum(axis=1)
        odd = np.where(zeros == 1, (roles == 0).argmax(axis=1),
                       np.where(zeros == roles.shape[1] - 1, (roles != 0).argmax(axis=1), -1))
        seats = self.seat_counts[tables]
        move = np.flatnonzero(odd >= seats)
        if len(move):
            target = (self.rng.random(len(move)) * seats[move]).astype(np.int64)
            source = odd[move]
            odd_role = roles[move, source].copy()
            roles[move, source] = roles[move, target]
            roles[move, target] = odd_role
        self.roles[tables] = roles


def general_model(config: SelfPlayConfig) -> ActorCritic:
    """A freshly initialised network over the padded input, with the padded actions."""
    return ActorCritic(PADDED_SIZE, len(PADDED_ACTION_NAMES), config.hidden,
                       config.activation, padded_observation_scale())


def export_general(model: ActorCritic, mixture: Sequence[TableKind],
                   **extra: Any) -> NumpyPolicy:
    """The torch-free ``teenpatti-policy/2`` form of ``model`` (input
    :data:`~agents.seat_padding.PADDED_LAYOUT`, actions ``padded/1``)."""
    return model.to_numpy_policy(
        mixture[0].rules, PADDED_ACTION_NAMES, format=GENERAL_POLICY_FORMAT,
        input=PADDED_LAYOUT, actions=PADDED_ACTIONS,
        table_mix=[{"name": kind.name, "weight": kind.weight, "rules": kind.rules.to_dict()}
                   for kind in mixture], **extra)


def sized_learner(learner: Learner, tables: MixedTables) -> None:
    """Give ``learner`` (playing at ``tables``) the seat plan of tables of different seat
    counts and seat every table again with it."""
    learner.plan = SizedSeatPlan(learner.plan, tables.seat_counts)
    learner.replan(np.arange(tables.num_tables))


class GeneralRounds(LocalRounds):
    """The rounds of a general run (:class:`~training.selfplay_loop.LocalRounds` at
    :class:`MixedTables`, each group drawing its kind again before every round but the
    first) and its :class:`~training.selfplay_loop.TableHooks`: the padded
    ``teenpatti-policy/2`` export, the per-kind log columns, and exploiters each made at
    one kind drawn from the mixture."""

    rule_seat = staticmethod(unpadded_rule_actor)

    def __init__(self, model: ActorCritic, config: SelfPlayConfig, device: torch.device,
                 mixture: Sequence[TableKind], tell: Callable[[str], None]) -> None:
        self.mixture = list(mixture)
        self.tell = tell
        groups = min(GROUPS, config.tables)
        self.tables = MixedTables(mixture, groups, max(1, config.tables // groups), config.seed)
        super().__init__(model, config, device, self.tables)
        sized_learner(self.learner, self.tables)
        self.tables.roles = self.learner.plan.roles
        self.played = 0

    def play(self, learning_rate: float) -> tuple[int, RolloutStats, dict[str, float]]:
        """Every group draws a kind again (not before the first round), then the round."""
        if self.played:
            self.learner.step = self.tables.redraw()
            self.learner.replan(np.arange(self.tables.num_tables))
        self.played += 1
        return super().play(learning_rate)

    def set_pool(self, members: Sequence[tuple[str, PoolMember]], updates: int) -> None:
        """The pool's snapshots and exploiters from now on; every table is seated again."""
        super().set_pool(members, updates)
        self.tables.uniform_role = len(self.learner.pool) if self.uniform else 0
        self.learner.replan(np.arange(self.tables.num_tables))

    def new_member(self) -> ActorCritic:
        """A fresh network over the padded input."""
        return general_model(self.config)

    def export(self, model: ActorCritic, **metadata: Any) -> NumpyPolicy:
        """The ``teenpatti-policy/2`` form of ``model``."""
        return export_general(model, self.mixture, trained_by=TRAINED_BY, **metadata)

    def exploiter_kind(self, seed: int, classic_only: bool = False) -> TableKind:
        """The kind an exploiter seeded ``seed`` is made at: drawn from the mixture (from
        its classic-family kinds only if ``classic_only``)."""
        weights = self.tables.weights.copy()
        if classic_only:
            weights *= [kind.rules.variant == "classic" for kind in self.mixture]
        kind = self.mixture[int(np.random.default_rng([seed, 13]).choice(
            len(self.mixture), p=weights / weights.sum()))]
        self.tell(f"the exploiter plays at {kind.name}")
        return kind

    def train_exploiter(self, model: ActorCritic, seed: int,
                        on_round: Callable[[int], None]) -> tuple[ActorCritic, float]:
        """A learned best response to ``model`` at one kind drawn from the mixture."""
        tables = MixedTables([self.exploiter_kind(seed)], 1, self.config.tables, seed)
        return train_exploiter(model, self.config, self.device, seed, on_round, tables,
                               lambda learner: sized_learner(learner, tables))

    def search_exploiter(self, model: ActorCritic, seed: int,
                         start: NDArray[np.float64] | None = None,
                         ) -> tuple[NDArray[np.float64], float]:
        """A rule setting searched against ``model`` at one classic-family kind drawn from
        the mixture (the rule strategies read classic observations)."""
        kind = self.exploiter_kind(seed, classic_only=True)
        return search_exploiter(self.export(model), kind.rules, seed,
                                league_budget(self.config.league_search), start)

    def log_columns(self) -> dict[str, float]:
        """The per-kind columns of the rounds since the last call."""
        return self.tables.take_results()

    def summary(self) -> dict[str, Any]:
        """The mixture's kinds."""
        return {"table_mix": mixture_names(self.mixture)}


TRAINED_BY = "teenpatti selfplay --table-mix general"

