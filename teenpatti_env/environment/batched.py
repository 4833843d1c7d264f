"""The batched engine: thousands of tables held as arrays and stepped in lockstep.

:class:`TableBatch` plays ``N`` tables of one rule set, one hand an episode or, with
``episode="session"``, one session an episode (RULES.md section 7): the classic family
(every setting of the rules and the four presets) or a variant it plays
(:func:`batch_rules`: every variant but dealer's choice, the selection phases' actions
and buying a joker being decisions like any other). One
:meth:`TableBatch.step` applies one action per table that waits for a decision and gives,
for every table, the seat to act, its observation vector and action mask (bit for bit
those of ``teenpatti_env.env()`` in the same state, from the same
:class:`~teenpatti_env.environment.observation.ObservationLayout` and
:class:`~teenpatti_env.environment.actions.ActionLayout`), every seat's reward of a hand that just
ended, and which tables finished. This is the self-play interface: every seat is a
policy, and each call shows every table's decision in one array.

The per-table :class:`~teenpatti_env.engine.Hand` stays the reference: a table's hand
can be rebuilt as a ``Hand`` (:meth:`TableBatch.hand`) or written as a
``teenpatti-hand/1`` history (:meth:`TableBatch.history`), and an illegal action is
explained by the ``Hand``'s own reason. ``docs/batched.md`` has the details.

>>> batch = TableBatch(8, "classic", seed=1)
>>> first = batch.reset()
>>> first.observations.shape, first.action_masks.shape
((8, 277), (8, 10))
>>> step = batch.step(first.action_masks.argmax(axis=1))  # everyone packs
>>> int(step.finished.sum()) >= 0
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from teenpatti_env.cards import NUM_CARDS
from teenpatti_env.engine import Hand, validate_table
from teenpatti_env.engine.history import history_of
from teenpatti_env.engine.session import EPISODES
from teenpatti_env.environment import batch_kernels as k
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.environment.batch_choice import Choices, ChoiceTables, params_table
from teenpatti_env.environment.batch_deal import undealt_decks
from teenpatti_env.environment.batch_options import (
    BATCH_OPTIONS,
    check_entry,
    checked_actions,
    checked_seats,
    checked_table,
    checked_tables,
    given_deals,
    table_seeds,
)
from teenpatti_env.environment.batch_phase import history_action, table_deal
from teenpatti_env.environment.batch_variant import (
    DEAL_COLUMNS,
    batch_rules,
)
from teenpatti_env.environment.batch_variant import classic_family as classic_family
from teenpatti_env.environment.batch_views import BatchViews
from teenpatti_env.environment.observation import GLOBAL_SLOTS, SEAT_SLOTS, ObservationLayout
from teenpatti_env.errors import IllegalActionError, check_seed
from teenpatti_env.rules import Rules


class BatchStep(NamedTuple):
    """What :meth:`TableBatch.reset` and :meth:`TableBatch.step` return, one row per table.

    The arrays are the batch's own buffers, overwritten by the next call: copy what you
    keep.
    """

    to_act: NDArray[np.int64]
    """The seat to act, ``-1`` where the table waits for no decision (its hand ended)."""
    observations: NDArray[np.float32]
    """``[N, D]``: the observation vector of the seat to act (zeros where none)."""
    action_masks: NDArray[np.int8]
    """``[N, A]``: the action mask of the seat to act (zeros where none)."""
    rewards: NDArray[np.float64]
    """``[N, n]``: every seat's net result in boots of the hands that ended in this call
    (zeros elsewhere; in a session, the sum over the hands settled in the call)."""
    finished: NDArray[np.bool_]
    """``[N]``: the episode ended at this table in this call (its hand, or in
    ``episode="session"`` its session)."""


class TableBatch(ChoiceTables, BatchViews):
    """``num_tables`` tables of one rule set, stepped together.

    Keyword arguments as :func:`teenpatti_env.env` takes them: ``rules`` (a ``Rules``,
    preset name or dict), ``num_players``, ``episode`` (``"hand"``: one hand an episode;
    ``"session"``: hands until the session ends, stacks carried from hand to hand, the
    deal passing left, busted seats sitting out, ``max_hands``), ``bet_levels``, ``stacks``
    (every seat's chips at the start of every episode; default the starting stack) and
    ``Rules`` overrides.
    ``autoreset`` (default on): a table whose hand ended is dealt a new hand in the same
    call, so every table always waits for a decision unless a deal ends at once.
    ``seed``: the first :meth:`reset`'s seed (tables draw from independent streams
    spawned from it).
    """

    def __init__(
        self,
        num_tables: int,
        rules: Rules | str | dict[str, Any] | None = None,
        *,
        num_players: int | None = None,
        episode: str = "hand",
        bet_levels: int | None = None,
        stacks: Sequence[int] | None = None,
        autoreset: bool = True,
        seed: int | None = None,
        **settings: Any,
    ) -> None:
        if not isinstance(num_tables, int) or isinstance(num_tables, bool) or num_tables < 1:
            raise ValueError(f"num_tables must be an int >= 1, got {num_tables!r}")
        base = Rules.of(rules)
        if num_players is not None:
            settings["num_players"] = num_players
        self.rules = batch_rules(base.replace(**settings) if settings else base)
        if episode not in EPISODES:
            raise ValueError(f"episode must be 'hand' or 'session', got {episode!r}")
        self.episode = episode
        n = self.num_seats = self.rules.num_players
        validate_table(self.rules, stacks, 0, n)
        self.stacks = [self.rules.starting_stack] * n if stacks is None else list(stacks)
        check_entry(self.rules, self.stacks)  # here, not first at reset()
        self.num_tables = num_tables
        self.autoreset = bool(autoreset)
        self.layout = ActionLayout(self.rules, bet_levels)
        self.obs_layout = ObservationLayout(self.rules)
        self.observation_size = self.obs_layout.size
        self.action_size = self.layout.size
        self._seed = seed
        self._setup_tables()

    # ----------------------------------------------------------------- layout

    def _setup_tables(self) -> None:
        rules, n, size = self.rules, self.num_seats, self.num_tables
        # The action table and the observation slots, read from the layouts themselves.
        kinds = self.layout.kinds
        unknown = sorted(set(kinds) - set(k.KIND_NAMES))
        if unknown:  # pragma: no cover - batch_rules admits no such table
            raise ValueError(f"the batched engine has no actions {unknown}")
        self._kind_of = np.array([k.KIND_NAMES.index(kind) for kind in kinds], dtype=np.int64)
        self._level_of = np.array([self.layout.kernel_level(a) for a in range(self.layout.size)],
                                  dtype=np.int64)
        offsets = {name: offset for name, offset, _, _ in self.obs_layout.slots}
        self._global_at = np.array([offsets[name] for name, _, _ in GLOBAL_SLOTS], dtype=np.int64)
        self._seat_at = np.array(
            [[offsets[f"seat{j}.{name}"] for name, _, _ in SEAT_SLOTS] for j in range(n)],
            dtype=np.int64,
        )
        self._category_at = int(offsets["my_category"])
        self._cards_at = np.array([offsets[f"seat{j}.cards"] for j in range(n)], dtype=np.int64)
        # The params table (batch_choice): one row, or a row per variant of a dealer's choice.
        self._rows = params_table(rules, self.episode, self.layout.bet_levels, offsets)
        self._choices = (None if rules.dealers_choice is None
                         else Choices(rules, self.layout, offsets))
        self._params, self._values, self._categories, self._strengths = self._rows[-1][1:]
        # The tables.
        # A variant's columns and seat fields only where a variant is played (batch_state).
        variant = rules.variant != "classic" or self._choices is not None
        self._tab = np.zeros((size, k.TAB_FIELDS if variant else k.CLASSIC_TAB_FIELDS),
                             dtype=np.int64)
        self._tab[:, k.TO_ACT] = k.NONE
        self._tab[:, k.END] = k.LAST_PLAYER  # nothing dealt yet
        self._seat = np.zeros((size, k.SEAT_FIELDS if variant else k.CLASSIC_SEAT_FIELDS, n),
                              dtype=np.int64)
        if variant:
            self._tab[:, [k.CHOSEN_RANK, k.CHOSEN_COLOUR, k.BURST_RANK, k.CHOICE]] = k.NONE
            self._seat[:, [k.OWN_RANK, k.BOUGHT], :] = k.NONE
        self._known = np.zeros((size, n, n), dtype=np.uint8)
        self._deck = np.tile(np.arange(NUM_CARDS, dtype=np.int64), (size, 1))
        self._rng = np.zeros(size, dtype=np.uint64)
        self._history = np.zeros((size, 32), dtype=np.int64)
        self._reported = np.ones(size, dtype=np.bool_)
        """Whether the end of the table's hand has been given (set at its ``finished``)."""
        self._obs = np.zeros((size, self.observation_size), dtype=np.float32)
        self._mask = np.zeros((size, self.action_size), dtype=np.int8)
        self._legal = np.zeros(k.KINDS, dtype=np.bool_)  # the observing kernel's scratch
        self._rewards = np.zeros((size, n), dtype=np.float64)
        self._chips = np.zeros((size, n), dtype=np.int64)
        self._session_start = np.zeros((size, n), dtype=np.int64)
        self._finished = np.zeros(size, dtype=np.bool_)
        self._everyone = np.ones(size, dtype=np.bool_)  # never written
        self._seeded = False

    # ----------------------------------------------------------------- episodes

    def reset(
        self, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> BatchStep:
        """Start a new episode (a hand, or a session) at every table and return the first
        decisions.

        ``seed`` restarts every table's random stream (tables draw from independent
        streams spawned from it); without one, the streams go on (or start from fresh
        entropy on the first reset). ``options`` may give the first hand's deal, as
        ``env.reset(options=...)`` takes it, for every table: ``cards`` (one entry per
        table: per seat three cards or ``None``; or an int array ``[N, n, 3]`` of card
        ints with ``-1`` for a seat that sits out), ``dealer`` (an int or one per table;
        default drawn) and ``stacks`` (one list for every table or one per table); and
        ``seeds``, one int per table, restarts each table's random stream from its own seed
        (what a given deal leaves to chance, such as the order of shopping's reshuffled
        discards, then follows the table's seed, whatever else the batch holds). A bad
        option is a ``ValueError`` naming the table, and changes nothing.
        """
        if options is not None and not isinstance(options, Mapping):
            raise ValueError(f"options must be a dict, got {type(options).__name__}")
        options = dict(options or {})
        unknown = sorted(set(options) - set(BATCH_OPTIONS))
        if unknown:
            raise ValueError(f"unknown reset options {unknown}: it reads "
                             f"{', '.join(BATCH_OPTIONS)}")
        # checked before anything changes
        if self._choices is not None and options.get("cards") is not None:
            raise ValueError("under dealer's choice the batch deals each hand once the dealer "
                             "has chosen: reset option 'cards' is not taken (give 'stacks' "
                             "only, or use the per-table engine, teenpatti_env.env)")
        given = given_deals(self.rules, self.num_tables, options, self.stacks)
        states = table_seeds(options, self.num_tables)
        seed = check_seed(seed, optional=True)
        if seed is None:
            seed = self._seed
            self._seed = None
        if seed is not None or not self._seeded or states is not None:
            self._rng[:] = (np.random.SeedSequence(seed).generate_state(
                self.num_tables, dtype=np.uint64) if states is None else states)
            self._deck[:] = np.arange(NUM_CARDS)  # the shuffle goes on from the last deck
            self._seeded = True
        everyone = self._everyone
        self._start_episodes(everyone, given["stacks"])
        if given["cards"] is None:
            k.deal_tables(self._params, self._tab, self._seat, self._known, self._deck,
                          self._rng, self._values, everyone)
        else:
            width = given["cards"].shape[2]
            if self._params[k.P_PHASE] != 0:  # no card past those dealt
                self._seat[:, k.CARD0:k.CARD0 + k.MAX_PRIVATE, :] = k.NONE
            self._seat[:, k.CARD0:k.CARD0 + width, :] = given["cards"].transpose(0, 2, 1)
            if self._tab.shape[1] > k.CLASSIC_TAB_FIELDS:  # a variant's table cards
                for field, column in DEAL_COLUMNS.items():
                    self._tab[:, column] = given["columns"][field]
            if self.rules.spec.phase == "shopping":  # the given decks, else shuffled
                undealt_decks(self._params, self._tab, self._seat, self._deck, self._rng,
                              everyone)
                decks = given["decks"]
                self._deck[:] = np.where(decks == k.NONE, self._deck, decks)
            self._tab[:, k.DEALER] = given["dealer"]
            k.start_tables(self._params, self._tab, self._seat, self._known, self._rng,
                           self._values, everyone)
        if self.episode == "hand":  # the later hands: the table's stacks
            self._seat[:, k.START_STACK, :] = self.stacks
        self._reported[:] = False
        self._chips[:] = 0
        self._finished[:] = False
        self._observe(everyone)
        return self._result()


    def step(
        self, actions: Any, tables: NDArray[np.bool_] | None = None
    ) -> BatchStep:
        """Apply ``actions[t]`` (an index of the action table) at every table that waits
        for a decision (only those with ``tables[t]``, when given); other entries are
        ignored. Returns the next decisions, the rewards and the finished tables.

        An illegal action raises :class:`IllegalActionError` naming the table, the seat,
        the action and the engine's reason, and leaves every table unchanged.
        """
        size = self.num_tables
        active = self._everyone if tables is None else checked_tables(tables, self.num_tables)
        chosen = checked_actions(actions, self.num_tables)
        bad, longest = k.check_actions(self._tab, self._mask, chosen, active)
        if bad != k.NONE:
            raise IllegalActionError(self._illegal_message(bad, int(chosen[bad])))
        if longest + 1 >= self._history.shape[1]:
            grown = np.zeros((size, 2 * (longest + 1)), dtype=np.int64)
            grown[:, : self._history.shape[1]] = self._history
            self._history = grown
        self._chips[:] = 0
        self._finished[:] = False
        if self._choices is None:
            k.step_tables(self._params[None], self._tab, self._seat, self._known,
                          self._deck, self._rng, self._values[None], self._history, chosen,
                          active, self._kind_of, self._level_of, self._chips,
                          self._finished, self._reported)
        else:
            self._step_choice(chosen, active)
        changed = active if tables is None else active | self._finished
        if self.autoreset and self._finished.any():
            self._redeal(self._finished)
        self._observe(changed)
        return self._result()

    def redeal(self, tables: NDArray[np.bool_]) -> BatchStep:
        """Start a new episode (a hand, or a session) at every table with ``tables[t]``
        (for ``autoreset=False``)."""
        which = checked_tables(tables, self.num_tables)
        self._chips[:] = 0
        self._finished[:] = False
        self._redeal(which)
        self._observe(which)
        return self._result()

    def _redeal(self, which: NDArray[np.bool_]) -> None:
        if self.episode == "session":  # a hand episode's stacks stay set from reset()
            self._start_episodes(which, self.stacks)
        k.deal_tables(self._params, self._tab, self._seat, self._known, self._deck, self._rng,
                      self._values, which)
        self._reported[which] = False

    def _start_episodes(self, which: NDArray[np.bool_], stacks: Any) -> None:
        """Set every seat's chips at the start of the tables ``which``'s episodes: the
        stacks of the next hand, and in a session the session's chips (a seat that
        cannot enter sits out with its chips kept)."""
        seat = self._seat
        chips = np.broadcast_to(np.asarray(stacks, dtype=np.int64), (self.num_tables,
                                                                      self.num_seats))[which]
        if self.episode == "session":
            seat[which, k.CHIPS, :] = chips
            self._session_start[which] = chips
            self._tab[which, k.HANDS] = 0
            chips = np.where(chips >= self.rules.entry_chips, chips, 0)
        seat[which, k.START_STACK, :] = chips

    def _illegal_message(self, t: int, action: int) -> str:
        seat = int(self._tab[t, k.TO_ACT])
        if not 0 <= action < self.action_size:
            return (f"table {t}, seat {seat}: action {action} is not in the action table "
                    f"(0..{self.action_size - 1}); no table was changed")
        if self._tab[t, k.END] != k.RUNNING:  # a vote between a session's hands
            return (f"table {t}, seat {seat} cannot take action {action} "
                    f"({self.layout.names[action]}): between hands only vote_end or "
                    "continue; no table was changed")
        hand = self.hand(t)
        reason = hand.illegal_reason(self.layout.decode(hand, seat, action))
        return (f"table {t}, seat {seat} cannot take action {action} "
                f"({self.layout.names[action]}): {reason}; no table was changed")

    # ----------------------------------------------------------------- views

    def _observe(self, which: NDArray[np.bool_]) -> None:
        """Rebuild the observation and mask of the seat to act at the tables ``which``."""
        self._observe_into(which, self._tab[:, k.TO_ACT], self._obs, self._mask)

    def _observe_into(self, which: NDArray[np.bool_], seats: NDArray[np.int64],
                      obs: NDArray[np.float32], mask: NDArray[np.int8]) -> None:
        if self._choices is not None:
            self._observe_choice(which, seats, obs, mask)
            return
        k.observe_tables(self._params[None], self._tab, self._seat, self._known, which, seats,
                         obs, mask, self._kind_of, self._global_at, self._seat_at,
                         self._category_at, self._cards_at, self._categories[None],
                         self._strengths[None], self._values[None], self._legal)

    def _result(self) -> BatchStep:
        np.divide(self._chips, self.rules.boot, out=self._rewards)
        return BatchStep(self._tab[:, k.TO_ACT], self._obs, self._mask, self._rewards,
                         self._finished)

    def observe(self, seats: Any) -> NDArray[np.float32]:
        """A new ``[N, D]`` array: the observation of ``seats[t]`` at every table (any
        seat, acting or not; ``-1`` for none), as ``env.observe`` gives it."""
        chosen = checked_seats(seats, self.num_tables, self.num_seats)
        obs = np.zeros((self.num_tables, self.observation_size), dtype=np.float32)
        mask = np.zeros((self.num_tables, self.action_size), dtype=np.int8)
        self._observe_into(np.ones(self.num_tables, dtype=np.bool_), chosen, obs, mask)
        return obs

    def hand(self, table: int) -> Hand:
        """Table ``table``'s hand rebuilt as the per-table engine's ``Hand`` (its deal and
        every action so far replayed)."""
        t = checked_table(table, self.num_tables)
        actions = self._history[t, : self._tab[t, k.ACTIONS]].tolist()
        stacks = self.hand_stacks[t].tolist()
        if self._choices is not None:
            hand = self._choice_hand(t, stacks, actions)
        else:
            cards, deal = table_deal(self.rules, self._seat[t], self._tab[t], self._deck[t],
                                     actions)
            hand = Hand(self.rules, cards, stacks, int(self._tab[t, k.DEALER]), **deal)
        for entry in actions:
            assert hand.to_act is not None
            hand.apply(history_action(self.layout, hand, entry))
        return hand

    def history(self, table: int) -> dict[str, Any]:
        """Table ``table``'s hand so far as a ``teenpatti-hand/1`` history (what
        ``teenpatti replay`` reads)."""
        return history_of(self.hand(table))
