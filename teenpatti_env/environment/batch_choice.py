"""Dealer's choice in the batched engine (VARIANTS.md C1): the dealer's ``choose_variant``
is a decision of the batch like any other, then the hand plays the chosen variant.

How the batch holds it: the kernels read one params vector per call, and a table of a
dealer's choice batch plays the variant its dealer chose. So the batch keeps a *params
table*, one row per variant on the list (each the table's settings with that variant:
``Rules.with_variant``, the per-table engine's own rules of a chosen hand) and a last row,
the neutral hand that waits for the choice (the per-table engine's placeholder: classic
with the table's settings). Each row has its own value lookups, categories and
strengths (a lowball variant ranks hands otherwise). Every table's ``CHOICE`` column
names the row of its hand (``NONE`` while the dealer chooses). The rows are stacked
(:class:`Stacked`: params, value lookups, categories and strengths, one 2-D array each),
and the stepping and observing kernels (``step_tables``, ``observe_tables``, and
``deal_chosen_rows`` for the choice) make one pass over the tables, each table reading
its row (a batch of one variant passes one row, read once); every kernel they call reads
one params vector as before (``P_CHOICE`` only makes a new hand wait for the choice).
The first design called every kernel once per row over that row's tables: 25 passes
over the tables and 25 calls of each kernel a step, and about 1.6 times the step's time.

The choice itself is applied here, in numpy over the tables that choose: their
``CHOICE`` and chosen rank or colour set, then the chosen variant dealt by the kernel
:func:`~teenpatti_env.environment.batch_play.deal_chosen_rows`, each with its row. The
observation of a hand waiting for the choice is the placeholder row's (its bet range
included, as the per-table engine shows it), with the ``choosing`` flag set; every
other observation sets ``variant_chosen``. The mask of the dealer who chooses holds
every choice on the list (a batch deals after the choice, so every variant fits).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from teenpatti_env.cards.hands import value_categories, value_strengths
from teenpatti_env.cards.wild import COLOUR_CODES
from teenpatti_env.engine import RANK_TEXTS, Hand
from teenpatti_env.environment import batch_kernels as k
from teenpatti_env.environment.actions import ActionLayout, choice_actions
from teenpatti_env.environment.batch_phase import phase_params, table_deal
from teenpatti_env.environment.batch_variant import value_lookups, variant_params
from teenpatti_env.rules import Rules
from teenpatti_env.rules.variants import VARIANTS, value_table


class Row(NamedTuple):
    """One row of the params table: what the kernels read for the tables playing it."""

    rules: Rules
    params: NDArray[np.int64]
    values: NDArray[np.int64]
    categories: NDArray[np.int64]
    strengths: NDArray[np.float64]


def row_rules(rules: Rules) -> tuple[Rules, ...]:
    """The rules of every row of ``rules``'s params table: ``rules`` itself, or under
    dealer's choice each listed variant's and, last, the hand waiting for the choice."""
    if rules.dealers_choice is None:
        return (rules,)
    return (*(rules.with_variant(spec) for spec in rules.choice_specs),
            rules.with_variant(VARIANTS["classic"]))


def params_table(rules: Rules, episode: str, bet_levels: int,
                 offsets: dict[str, int]) -> list[Row]:
    """The rows of ``rules``'s params table (:func:`row_rules`) for a batch of
    ``episode``s with ``bet_levels`` bet sizes (``offsets``: the observation layout's slot
    offsets by name)."""
    rows = []
    for hand_rules in row_rules(rules):
        params = np.zeros(k.PARAMS, dtype=np.int64)
        params[: k.SETTINGS] = hand_rules.settings  # the betting rules' (rules.betting)
        params[k.P_SEATS] = hand_rules.num_players
        params[k.P_BET_LEVELS] = bet_levels
        params[k.P_SESSION] = episode == "session"
        params[k.P_MAX_HANDS] = k.NONE if rules.max_hands is None else rules.max_hands
        params[k.P_VOTE] = rules.vote_to_end and episode == "session"
        params[k.P_VOTE_AT] = offsets.get("vote_now", k.NONE)
        params[k.P_CHOICE] = rules.dealers_choice is not None
        params[k.P_OBS_SLOTS] = offsets.get("my_slots", k.NONE)
        params[k.P_OBS_DISCARDS] = offsets.get("my_discards", k.NONE)
        variant_params(hand_rules, params, offsets)
        phase_params(hand_rules, params, offsets)
        rows.append(Row(hand_rules, params,
                        value_lookups(hand_rules, np.asarray(value_table(hand_rules),
                                                             dtype=np.int64)),
                        np.asarray(value_categories(hand_rules), dtype=np.int64),
                        np.asarray(value_strengths(hand_rules), dtype=np.float64)))
    return rows


class Stacked(NamedTuple):
    """The rows of a params table stacked, one 2-D array per field (the categories and
    strengths padded to the longest ranking: a row reads only its own values)."""

    params: NDArray[np.int64]
    values: NDArray[np.int64]
    categories: NDArray[np.int64]
    strengths: NDArray[np.float64]


def stacked(rows: list[Row]) -> Stacked:
    """The rows of a params table as :class:`Stacked` arrays."""
    def padded(arrays: list[NDArray[Any]], dtype: type) -> NDArray[Any]:
        out: NDArray[Any] = np.zeros((len(arrays), max(len(array) for array in arrays)),
                                     dtype=dtype)
        for r, array in enumerate(arrays):
            out[r, : len(array)] = array
        return out

    return Stacked(np.stack([row.params for row in rows]),
                   np.stack([row.values for row in rows]),
                   padded([row.categories for row in rows], np.int64),
                   padded([row.strengths for row in rows], np.float64))


class Choices:
    """The dealer's choices of a batch's action table: for every index, the row it
    chooses, and the rank or colour code it names (``NONE`` elsewhere)."""

    def __init__(self, rules: Rules, layout: ActionLayout, offsets: dict[str, int]) -> None:
        names = [str(spec.name) for spec in rules.choice_specs]
        size = layout.size
        self.row = np.full(size, k.NONE, dtype=np.int64)
        self.rank = np.full(size, k.NONE, dtype=np.int64)
        self.colour = np.full(size, k.NONE, dtype=np.int64)
        self.index: dict[tuple[int, int, int], int] = {}
        """The action index of ``(row, rank code, colour code)``."""
        for name, choice in choice_actions(rules):
            a = layout.index(name)
            self.row[a] = names.index(choice["variant"])
            if "rank" in choice:
                self.rank[a] = RANK_TEXTS.index(choice["rank"])
            if "colour" in choice:
                self.colour[a] = COLOUR_CODES.index(choice["colour"])
            self.index[int(self.row[a]), int(self.rank[a]), int(self.colour[a])] = a
        self.indices = np.flatnonzero(self.row != k.NONE)
        self.choosing_at = offsets["choosing"]
        self.chosen_at = offsets["variant_chosen"]
        self.rows: Stacked | None = None
        """The batch's rows stacked (:func:`stacked`, set by the batch)."""


class ChoiceTables:
    """The dealer's choice side of :class:`~teenpatti_env.environment.batched.TableBatch`
    (mixed in): stepping, observing and rebuilding the tables row by row."""

    rules: Rules
    layout: ActionLayout
    num_tables: int
    _rows: list[Row]
    _choices: Choices | None
    _tab: NDArray[np.int64]
    _seat: NDArray[np.int64]
    _known: NDArray[np.uint8]
    _deck: NDArray[np.int64]
    _rng: NDArray[np.uint64]
    _history: NDArray[np.int64]
    _kind_of: NDArray[np.int64]
    _level_of: NDArray[np.int64]
    _chips: NDArray[np.int64]
    _finished: NDArray[np.bool_]
    _reported: NDArray[np.bool_]
    _global_at: NDArray[np.int64]
    _seat_at: NDArray[np.int64]
    _category_at: int
    _cards_at: NDArray[np.int64]
    _legal: NDArray[np.bool_]

    def _stacked_rows(self) -> Stacked:
        choices = self._choices
        assert choices is not None
        if choices.rows is None:
            choices.rows = stacked(self._rows)
        return choices.rows

    def _step_choice(self, actions: NDArray[np.int64], active: NDArray[np.bool_]) -> None:
        """:meth:`TableBatch.step`'s kernels under dealer's choice: the choices made, the
        chosen variants dealt, then every other table's action, each with its row."""
        choices = self._choices
        assert choices is not None
        rows = self._stacked_rows()
        tab = self._tab
        choosing = (active & (tab[:, k.CHOICE] == k.NONE) & (tab[:, k.END] == k.RUNNING)
                    & (tab[:, k.TO_ACT] != k.NONE))
        playing = active & ~choosing
        if choosing.any():
            picked = actions[choosing]
            tab[choosing, k.CHOICE] = choices.row[picked]
            tab[choosing, k.CHOSEN_RANK] = choices.rank[picked]
            tab[choosing, k.CHOSEN_COLOUR] = choices.colour[picked]
            k.deal_chosen_rows(rows.params, tab, self._seat, self._known, self._deck,
                               self._rng, rows.values, choosing)
            # A hand that ended at its deal (bursts) is settled by step_tables below.
            playing |= choosing & (tab[:, k.END] != k.RUNNING)
        k.step_tables(rows.params, tab, self._seat, self._known, self._deck, self._rng,
                    rows.values, self._history, actions, playing, self._kind_of,
                    self._level_of, self._chips, self._finished, self._reported)

    def _observe_choice(self, which: NDArray[np.bool_], seats: NDArray[np.int64],
                        obs: NDArray[np.float32], mask: NDArray[np.int8]) -> None:
        """:meth:`TableBatch._observe_into` under dealer's choice: each table with its
        row, then the choice's own slots and mask."""
        choices = self._choices
        assert choices is not None
        rows = self._stacked_rows()
        k.observe_tables(rows.params, self._tab, self._seat, self._known, which, seats, obs,
                       mask, self._kind_of, self._global_at, self._seat_at,
                       self._category_at, self._cards_at, rows.categories, rows.strengths,
                       rows.values, self._legal)
        tab = self._tab
        seen = which & (seats != k.NONE)
        waiting = seen & (tab[:, k.CHOICE] == k.NONE)
        chosen = np.flatnonzero(seen & ~waiting)
        obs[chosen, choices.chosen_at + tab[chosen, k.CHOICE]] = 1.0
        if waiting.any():
            obs[waiting, choices.choosing_at] = 1.0
            mask[waiting] = 0
            dealer = waiting & (seats == tab[:, k.TO_ACT])
            mask[np.ix_(dealer, choices.indices)] = 1

    def _choice_hand(self, t: int, stacks: list[int], actions: list[int]) -> Hand:
        """Table ``t``'s hand under dealer's choice as a ``Hand`` of the table's rules:
        waiting for the choice (no deal yet, so no random generator: the batch deals once
        chosen), or the choice made and ``actions`` replayed by the caller."""
        choices = self._choices
        assert choices is not None
        row = int(self._tab[t, k.CHOICE])
        dealer = int(self._tab[t, k.DEALER])
        if row == k.NONE:
            hand = Hand.deal(self.rules, stacks, dealer, np.random.default_rng(0))
            hand.rng = None  # as a saved hand waiting for the choice (VARIANTS.md)
            return hand
        chosen = self._rows[row].rules
        cards, deal = table_deal(chosen, self._seat[t], self._tab[t], self._deck[t], actions)
        deal.pop("chosen", None)  # named by the choice (H3)
        hand = Hand(self.rules, cards, stacks, dealer, **deal)
        index = choices.index[row, int(self._tab[t, k.CHOSEN_RANK]),
                              int(self._tab[t, k.CHOSEN_COLOUR])]
        hand.apply({"seat": dealer, **self.layout.decode(hand, dealer, index)})
        return hand

