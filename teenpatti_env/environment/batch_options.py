"""The checks of a :class:`~teenpatti_env.environment.batched.TableBatch`'s stacks and of
the deals ``reset(options=...)`` gives, every table checked by the engine itself."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from teenpatti_env.engine import Hand, validate_table
from teenpatti_env.environment import batch_kernels as k
from teenpatti_env.environment.batch_phase import dealt_width
from teenpatti_env.environment.batch_variant import deal_columns
from teenpatti_env.errors import check_seed
from teenpatti_env.rules import Rules

BATCH_OPTIONS = ("cards", "dealer", "stacks", "community", "indicators", "chosen", "deck",
                 "seeds")
"""What ``reset(options=...)`` reads: the first hand's deal at every table (a variant's
``community``, ``indicators`` and ``chosen``, and shopping's ``deck``: one entry per
table, as ``env.reset`` takes them for one), and ``seeds``, one per table, each table's
random stream restarting from its own."""


def table_seeds(options: Mapping[str, Any], size: int) -> NDArray[np.uint64] | None:
    """Each table's random state from ``options["seeds"]`` (one int >= 0 per table), or
    ``None`` where the option is not given; a malformed entry is a ``ValueError``."""
    seeds = options.get("seeds")
    if seeds is None:
        return None
    if isinstance(seeds, (str, bytes, Mapping)) or not isinstance(seeds, (Sequence, np.ndarray)) \
            or len(seeds) != size:
        raise ValueError(f"reset option 'seeds' must give one int per table ({size})")
    states = np.zeros(size, dtype=np.uint64)
    for t, seed in enumerate(seeds):
        seed = check_seed(seed, f"table {t}'s seed")
        states[t] = np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64)[0]
    return states


TABLE_OPTIONS = ("community", "indicators", "chosen", "deck")


def given_deals(rules: Rules, size: int, options: dict[str, Any],
                stacks: list[int]) -> dict[str, Any]:
    """The stacks ``[N, n]`` and, when given, the cards ``[N, n, private]``, the dealers
    and a variant's table cards (``columns``, see ``batch_variant.deal_columns``) of the
    first hand of ``reset(options=...)`` at ``size`` tables (``stacks``: the batch's own),
    each table checked by the engine itself."""
    n = rules.num_players
    private = dealt_width(rules)
    per_table = per_table_stacks(rules, size, options.get("stacks", stacks))
    cards = options.get("cards")
    dealers = options.get("dealer")
    extras = {key: options[key] for key in TABLE_OPTIONS if options.get(key) is not None}
    if cards is None:
        for key in ("dealer", *extras):
            if options.get(key) is not None:
                raise ValueError(f"reset option {key!r} needs 'cards' (without cards the "
                                 f"{key} is drawn with the deal)")
        return {"stacks": np.array(per_table, dtype=np.int64), "cards": None}
    for key, entries in extras.items():
        if isinstance(entries, (str, bytes, Mapping)) or not isinstance(
                entries, (Sequence, np.ndarray)) or len(entries) != size:
            raise ValueError(f"reset option {key!r} needs one entry per table ({size})")
    if isinstance(cards, np.ndarray):
        if cards.shape != (size, n, private) or not np.issubdtype(cards.dtype, np.integer):
            raise ValueError(f"cards as an array must be ints of shape {(size, n, private)}, "
                             f"got {cards.dtype} {cards.shape}")
        if _plain_dealers(dealers, size) and not extras:
            return _given_array(rules, cards, dealers, per_table)
        cards = [[None if row[0] < 0 else [int(c) for c in row if c >= 0] for row in table]
                 for table in cards]
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence) or len(
            cards) != size:
        raise ValueError(f"reset option 'cards' needs one deal per table ({size})")
    if dealers is None:
        dealers = [None] * size
    elif isinstance(dealers, (int, np.integer)) and not isinstance(dealers, bool):
        dealers = [int(dealers)] * size
    elif isinstance(dealers, (str, bytes)) or not isinstance(
            dealers, (Sequence, np.ndarray)) or len(dealers) != size:
        raise ValueError(f"reset option 'dealer' must be an int or one per table ({size})")
    out = np.full((size, n, private), k.NONE, dtype=np.int64)
    chosen = np.full(size, k.NONE, dtype=np.int64)  # NONE: drawn as the deal starts
    hands = []
    for t in range(size):
        dealer = dealers[t]
        if isinstance(dealer, np.integer):
            dealer = int(dealer)
        table = {key: entries[t] for key, entries in extras.items()}
        hand = check_table(t, lambda t=t, d=dealer, table=table: Hand(
            rules, cards[t], per_table[t], 0 if d is None else d, **table))
        hands.append(hand)
        for s, dealt in enumerate(hand.cards):
            if dealt is not None:
                out[t, s, :len(dealt)] = dealt
        if dealer is not None:
            chosen[t] = dealer
    decks = np.full((size, 52), k.NONE, dtype=np.int64)  # shopping's, top first, at the end
    for t, hand in enumerate(hands):
        if hand.deck_given:
            decks[t, 52 - len(hand.dealt_deck):] = hand.dealt_deck
    return {"stacks": np.array(per_table, dtype=np.int64), "cards": out, "dealer": chosen,
            "columns": deal_columns(hands), "decks": decks}


def _given_array(rules: Rules, cards: NDArray[Any], dealers: Any,
                 stacks: list[list[int]]) -> dict[str, Any]:
    """:func:`given_deals` for cards given as an array: the engine checks each distinct
    table (cards, stacks, dealer) once (a search replays few deals at many tables)."""
    size, n = len(cards), rules.num_players
    chosen = np.full(size, k.NONE if dealers is None else 0, dtype=np.int64)
    if dealers is not None:
        chosen[:] = dealers
    stack_array = np.array(stacks, dtype=np.int64)
    keys = np.concatenate([cards.reshape(size, -1).astype(np.int64), stack_array,
                           chosen[:, None]], axis=1)
    _, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    dealt = np.full((len(first), n, dealt_width(rules)), k.NONE, dtype=np.int64)
    for row in np.argsort(first).tolist():  # tables in order: the first bad one named
        t = int(first[row])
        table = [None if seat[0] < 0 else [int(c) for c in seat if c >= 0] for seat in cards[t]]
        dealer = int(chosen[t])
        hand = check_table(t, lambda t=t, table=table, d=dealer: Hand(
            rules, table, stacks[t], 0 if d == k.NONE else d))
        for s, held in enumerate(hand.cards):
            if held is not None:
                dealt[row, s, :len(held)] = held
    return {"stacks": stack_array, "cards": dealt[inverse.reshape(-1)], "dealer": chosen,
            "columns": deal_columns([None] * size),
            "decks": np.full((size, 52), k.NONE, dtype=np.int64)}


def _plain_dealers(dealers: Any, size: int) -> bool:
    """``dealers`` is ``None``, one seat for every table or an int array of one per table
    (no seat left to be drawn, none negative)."""
    if dealers is None:
        return True
    if isinstance(dealers, (int, np.integer)) and not isinstance(dealers, bool):
        return int(dealers) >= 0
    return (isinstance(dealers, np.ndarray) and dealers.shape == (size,)
            and np.issubdtype(dealers.dtype, np.integer) and bool((dealers >= 0).all()))


def per_table_stacks(rules: Rules, size: int, stacks: Any) -> list[list[int]]:
    """One stack list per table from one list for all or one per table, each checked
    (a list shared by every table once)."""
    n = rules.num_players
    if isinstance(stacks, np.ndarray):
        stacks = stacks.tolist()
    if isinstance(stacks, (str, bytes)) or not isinstance(stacks, Sequence) or not stacks:
        raise ValueError(f"reset option 'stacks' must be a list of {n} ints or one such "
                         f"list per table, got {stacks!r}")
    per_table = all(isinstance(row, (list, tuple)) for row in stacks)
    if per_table and len(stacks) != size:
        raise ValueError(f"reset option 'stacks' lists {len(stacks)} tables, not {size}")
    rows = [list(row) for row in stacks] if per_table else [list(stacks)] * size
    for t, row in enumerate(rows if per_table else rows[:1]):
        check_table(t, lambda row=row: validate_table(rules, row, 0, n))
        check_table(t, lambda row=row: check_entry(rules, row))
    return rows


def check_entry(rules: Rules, stacks: Sequence[int]) -> None:
    """A ``ValueError`` unless two seats or more hold the chips to enter a hand."""
    if sum(chips >= rules.entry_chips for chips in stacks) < 2:
        raise ValueError(f"fewer than two seats hold the {rules.entry_chips} chips needed "
                         "to enter")


def check_table(table: int, check: Any) -> Any:
    """``check()``, its ``ValueError`` prefixed with the table."""
    try:
        return check()
    except ValueError as error:
        raise ValueError(f"table {table}: {error}") from None


def checked_tables(tables: Any, num_tables: int) -> NDArray[np.bool_]:
    """``tables`` as a bool mask of the batch's tables, or a clear ``ValueError``."""
    array = np.asarray(tables)
    if array.shape != (num_tables,) or array.dtype != np.bool_:
        raise ValueError(f"tables must be a bool array of shape ({num_tables},), "
                         f"got {array.dtype} {array.shape}")
    return array


def checked_actions(actions: Any, num_tables: int) -> NDArray[np.int64]:
    """``actions`` as one int per table, or a clear ``ValueError``."""
    array = np.asarray(actions)
    if array.shape != (num_tables,) or not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"actions must be an int array of shape ({num_tables},), "
                         f"got {array.dtype} {array.shape}")
    return array.astype(np.int64, copy=False)


def checked_seats(seats: Any, num_tables: int, num_seats: int) -> NDArray[np.int64]:
    """``seats`` as one seat (or ``-1``) per table, or a clear ``ValueError``."""
    array = np.asarray(seats)
    if array.shape != (num_tables,) or not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"seats must be an int array of shape ({num_tables},)")
    chosen = array.astype(np.int64)
    if ((chosen < k.NONE) | (chosen >= num_seats)).any():
        raise ValueError(f"seats must be -1 or 0..{num_seats - 1}")
    return chosen


def checked_table(table: Any, num_tables: int) -> int:
    """``table`` as a table index of the batch, or a clear ``ValueError``."""
    if isinstance(table, np.integer):
        table = int(table)
    if not isinstance(table, int) or isinstance(table, bool) or not 0 <= table < num_tables:
        raise ValueError(f"no table {table!r}: tables are 0..{num_tables - 1}")
    return table
