"""The batched engine's state layout, its compile decorators and each table's random stream.

State layout (``N`` tables, ``n`` seats):

* ``tab[N, TAB_FIELDS]`` int64: the table scalars ``POT`` .. ``HANDS``;
* ``seat[N, SEAT_FIELDS, n]`` int64: the per-seat fields ``STACK`` .. ``CARD0+2``;
* ``known[N, n, n]`` uint8: ``known[t, viewer, other]`` is 1 once the viewer has seen that seat's
  cards (its own once it looked, a show or showdown, a private sideshow reveal).
* ``params`` int64: the rule settings, indexed by the ``P_*`` constants.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable
from pathlib import Path
from types import FunctionType, ModuleType, SimpleNamespace
from typing import Any

import numpy as np

# The betting rules' names the kernels share (``X as X``: re-exported to the kernels).
# isort: off
from teenpatti_env.rules.betting import (
    ALL_IN as ALL_IN,
    BLIND_BETS as BLIND_BETS,
    CONTRIB as CONTRIB,
    DEALT as DEALT,
    NONE as NONE,
    P_ALL_SEEN as P_ALL_SEEN,
    P_BOOT as P_BOOT,
    P_ENTRY as P_ENTRY,
    P_MAX_BET as P_MAX_BET,
    P_MAX_BLIND as P_MAX_BLIND,
    P_POT_LIMIT as P_POT_LIMIT,
    P_RAISE as P_RAISE,
    P_REVEAL as P_REVEAL,
    P_SEATS as P_SEATS,
    P_SIDESHOW as P_SIDESHOW,
    P_TARGET_SEEN as P_TARGET_SEEN,
    PACKED as PACKED,
    SEAT_RECORD as SEAT_RECORD,
    SEEN as SEEN,
    SETTINGS as SETTINGS,
    STACK as STACK,
)
# isort: on

try:  # numba is optional: without it the kernels run as plain (slow) Python.
    from numba import njit as _numba_njit

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - exercised only where numba is missing
    HAVE_NUMBA = False


KERNEL_MODULES = ("batch_state", "batch_jokers", "batch_rules", "batch_variant", "batch_deal",
                  "batch_phase", "batch_play", "batch_observe")
"""The kernels' modules, which call one another's functions and read these constants."""
SHARED_SOURCES = tuple(Path(__file__).parents[1] / name for name in (
    "cards/wild.py", "cards/jokers.py", "engine/phase_rules.py", "rules/betting.py",
    "rules/pots.py", "rules/turns.py"))
"""The rule texts the kernels compile in from the lower layers (the valuation, the wild
sources, the jokers, the selection phases, the betting rules, the side pots and the
turns, written once for both engines): a change to them drops the kernels' cache too."""


def drop_stale_cache(folder: Path = Path(__file__).parent) -> bool:
    """Delete the kernels' numba cache in ``folder/__pycache__`` unless it was compiled
    from the kernel modules as they are now; whether it deleted anything.

    numba's ``cache=True`` notices a change in a function's own file only, not in the
    files whose functions and constants it compiled in; the kernels span several files
    (and compile in :data:`SHARED_SOURCES`), so their cached code is dropped together
    whenever any of them changes.
    """
    sources = [folder / f"{name}.py" for name in KERNEL_MODULES] + list(SHARED_SOURCES)
    digest = hashlib.sha256(b"".join(path.read_bytes() for path in sources)).hexdigest()
    cache = folder / "__pycache__"
    stamp = cache / "batch_kernels.sources"
    try:
        if stamp.read_text() == digest:
            return False
    except OSError:
        pass
    stale = [path for name in KERNEL_MODULES for path in cache.glob(f"{name}.*.nb[ic]")]
    try:
        for path in stale:
            path.unlink()
        cache.mkdir(exist_ok=True)
        stamp.write_text(digest)
    except OSError:  # a read-only install: numba caches elsewhere or not at all
        pass
    return bool(stale)


if HAVE_NUMBA:
    drop_stale_cache()


KERNEL_OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "error_model": "numpy",
                                  "_nrt": False}
"""How numba compiles the kernels: cached on disk, and without numba's runtime (``_nrt``).

With the runtime on, every compiled function takes a reference to each array argument
on entry and drops it on exit, and every slice (``seat[t]``) takes one too: an atomic
increment and decrement each, which also wait for every pending store to reach the
cache. The kernels' helpers take five to ten arrays a call, once or more per table a
step, and these atomics measured about a fifth of a step's time. The kernels never
keep an array beyond the call that received it (the caller's buffers outlive them), so
they need no reference counts; the few that allocate a scratch array compile with the
runtime on (:func:`allocating`)."""


def jit(function: Callable[..., Any]) -> Callable[..., Any]:
    """``numba.njit`` with :data:`KERNEL_OPTIONS` when numba is installed, else the
    function itself."""
    if HAVE_NUMBA:
        return _numba_njit(**KERNEL_OPTIONS)(function)
    return function


def allocating(function: Callable[..., Any]) -> Callable[..., Any]:
    """:func:`jit` with numba's runtime on, for a kernel that allocates an array
    (``np.empty``, ``np.zeros``): off the hot path, or once a call."""
    if HAVE_NUMBA:
        return _numba_njit(**{**KERNEL_OPTIONS, "_nrt": True})(function)
    return function


def inline(function: Callable[..., Any]) -> Callable[..., Any]:
    """:func:`jit`, for the small rule queries of the hot path (LLVM inlines them into
    their callers: a call per query would cost more than the query)."""
    if HAVE_NUMBA:
        return _numba_njit(**KERNEL_OPTIONS)(function)
    return function


def table_body(function: Callable[..., Any]) -> Callable[..., Any]:
    """:func:`jit` for a one-table body that several kernels loop over, inlined into each
    (numba's ``inline="always"``). Off the hot path only (the dealer's choice deal): the
    stepping and observing kernels keep their bodies in their loops, since one-table
    bodies called from them, inlined or not, measured 1.3 to 2 times the loops' time (and,
    without the runtime's reference counts, a step and observation fused into one pass
    over such bodies was no faster either: docs/benchmarks.md)."""
    if HAVE_NUMBA:
        return _numba_njit(**KERNEL_OPTIONS, inline="always")(function)
    return function


def compile_rules(module: ModuleType) -> SimpleNamespace:
    """Every public function of a lower layer's rules module, compiled with :func:`jit`.

    The module's functions are plain Python that the per-table engine calls as they are;
    they call one another by name, which numba can only compile if those names are
    compiled functions too. So each is compiled as a copy whose globals are the module's
    with every function replaced by its compiled copy, a function it imports from
    another rules module by that module's compiled copy; the module itself is left as
    it is. Without numba the copies are plain Python, as the module's are. Each module
    is compiled once (the namespace is kept).
    """
    if module.__name__ in _COMPILED:
        return _COMPILED[module.__name__]
    names = {}
    compiled: dict[str, Any] = {}
    scope = dict(vars(module))
    for name, value in vars(module).items():
        if not isinstance(value, FunctionType):
            continue
        if value.__module__ == module.__name__:
            names[name] = value
        elif value.__module__.startswith(_RULES_PACKAGE):
            scope[name] = getattr(compile_rules(sys.modules[value.__module__]), value.__name__)
    for name, function in names.items():
        copy = FunctionType(function.__code__, scope, name, function.__defaults__,
                            function.__closure__)
        copy.__qualname__ = function.__qualname__
        scope[name] = compiled[name] = (
            _numba_njit(**KERNEL_OPTIONS, inline="always")(copy)
            if HAVE_NUMBA else copy)
    _COMPILED[module.__name__] = SimpleNamespace(**compiled)
    return _COMPILED[module.__name__]


_COMPILED: dict[str, SimpleNamespace] = {}
_RULES_PACKAGE = "teenpatti_env.rules."


def wrapping(function: Callable[..., Any]) -> Callable[..., Any]:
    """:func:`inline` for arithmetic meant to wrap around 2**64 (the random streams).

    Compiled, uint64 arithmetic wraps silently; as plain Python it is numpy scalar
    arithmetic, which wraps too but warns of the overflow, so there it runs with
    numpy's overflow warnings off.
    """
    if HAVE_NUMBA:
        return inline(function)
    return np.errstate(over="ignore")(function)


# Table scalars.
# HANDS: hands finished in the table's session (episode="session"); VOTES: votes to end
# cast in this break between hands (vote_to_end). Between hands TO_ACT is the seat asked
# to vote (END is then not RUNNING).
POT, STAKE, DEALER, TO_ACT, ASKER, TARGET, END, ACTIONS, DEALS, HANDS, VOTES = range(11)
# A variant's deal (batch_deal.py, batch_variant.py): the community cards and the
# indicators in deal order, the chosen rank or colour code (NONE: none), the burst rank
# (NONE: none), and the ranks and suits wild for every seat (flags). These columns exist
# only in a batch that plays a variant (CLASSIC_TAB_FIELDS columns otherwise: narrower
# rows keep the classic kernels' memory traffic as it was); only the variant's kernels
# read them.
CLASSIC_TAB_FIELDS = 11
MAX_COMMUNITY = 2
MAX_INDICATORS = 6
COMMUNITY = 11
INDICATOR = COMMUNITY + MAX_COMMUNITY
CHOSEN_RANK = INDICATOR + MAX_INDICATORS
CHOSEN_COLOUR = CHOSEN_RANK + 1
BURST_RANK = CHOSEN_COLOUR + 1
WILD_RANK = BURST_RANK + 1
WILD_SUIT = WILD_RANK + 13
# The selection phase (batch_phase.py): whether it runs, whether the seat to act has drawn
# (shopping, P4), the deck's top and the discards below it: the deck left is
# deck[t, DECK_TOP:], the discards deck[t, DECK_TOP - PILE:DECK_TOP] (P7).
IN_PHASE, DREW, DECK_TOP, PILE = range(WILD_SUIT + 4, WILD_SUIT + 8)
# The wild cards that change during a hand (batch_jokers.py): threshold indicators turned
# up so far (T1) and full betting rounds so far (rotating jokers, R1).
REVEALED = WILD_SUIT + 8
ROTATIONS = REVEALED + 1
# Dealer's choice (batch_choice.py): the row of the chosen variant in the batch's params
# table, NONE while the dealer chooses (C1).
CHOICE = ROTATIONS + 1
TAB_FIELDS = CHOICE + 1
# END codes (VOID: every seat burst, every chip goes back, B4).
RUNNING, LAST_PLAYER, SHOW, SHOWDOWN, VOID = range(5)
# Per-seat fields.
# CHIPS: the seat's chips in the session (busted seats' included), as of the last hand
# settled; in hand episodes unused. CARD0..CARD0+3: the private cards in deal order (NONE
# past the variant's count). BURST: packed at the deal by a burst card (B1); OWN_RANK: the
# seat's personal wild rank (personal_lowest, NONE: none). A batch of the classic family
# holds only the fields up to CARD0+2 (CLASSIC_SEAT_FIELDS).
# STACK .. BLIND_BETS: the betting rules' seat record (rules.betting), then the batch's own.
(PAYOUT, START_STACK, VALUE, SHOWN, CHIPS, CARD0) = range(SEAT_RECORD, SEAT_RECORD + 6)
MAX_PRIVATE = 6
CLASSIC_SEAT_FIELDS = CARD0 + 3
BURST = CARD0 + MAX_PRIVATE
OWN_RANK = BURST + 1
# The selection phase (batch_phase.py): the cards the seat holds now (CARD0.. in hand
# order, VARIANTS.md V4; passing's dealer's left holds six), the cards it discarded or
# passed (a bit per card int), whether it has finished the phase, its shopping draws, and
# its cards as dealt (DEAL0.., for the hand's history).
HELD, PARTED, PHASE_DONE, DRAWS = range(OWN_RANK + 1, OWN_RANK + 5)
DEAL0 = OWN_RANK + 5
BOUGHT = DEAL0 + MAX_PRIVATE
"""The card the seat bought wild this hand (buy_a_joker, J1; NONE: none); under rotating
jokers ``OWN_RANK`` is the seat's current rotating rank."""
SEAT_FIELDS = BOUGHT + 1
# Rule settings: the betting rules' settings vector (rules.betting.settings_of, P_SEATS ..
# P_ENTRY), then the batch's own.
(P_BET_LEVELS, P_SESSION, P_MAX_HANDS, P_VOTE, P_VOTE_AT) = range(SETTINGS, SETTINGS + 5)
# The variant (batch_variant.py): whether its deal and valuation run (not the classic
# lookup), private, community and open cards, the imaginary card, all_open, what is
# chosen (0 nothing, 1 a rank, 2 a colour), the burst rank (a rank, NONE, or
# BURST_INDICATOR), personal_lowest, the indicators drawn, the wild sources (count, then
# MAX_SOURCES codes and indicator counts, then the 13 fixed-rank flags), and the offsets
# of the observation's variant block (P_OBS_COMMUNITY is NONE without one).
(P_VARIANT, P_PRIVATE, P_COMMUNITY, P_OPEN, P_IMAGINED, P_ALL_OPEN, P_CHOOSES, P_BURST,
 P_PERSONAL, P_INDICATORS, P_SOURCES) = range(18, 29)
MAX_SOURCES = 6
P_SOURCE_KIND = 29
P_SOURCE_COUNT = P_SOURCE_KIND + MAX_SOURCES
P_FIXED = P_SOURCE_COUNT + MAX_SOURCES
(P_OBS_COMMUNITY, P_OBS_INDICATORS, P_OBS_WILD_RANKS, P_OBS_WILD_COLOURS, P_OBS_BURST_RANK,
 P_OBS_BURST) = range(P_FIXED + 13, P_FIXED + 19)
# The selection phase (engine.phase_rules codes, 0: none) and its observation slots.
(P_PHASE, P_OBS_IN_PHASE, P_OBS_PARTED, P_OBS_PHASE_DONE, P_OBS_DRAWS) = range(
    P_FIXED + 19, P_FIXED + 24)
# The wild cards that change during a hand (batch_jokers.py): where the threshold
# indicators start among the indicators (NONE: no thresholds source), how many, their chip
# counts; rotating jokers; buy_a_joker; the offsets of their observation slots.
P_THRESHOLD_AT = P_FIXED + 24
P_THRESHOLD_COUNT = P_THRESHOLD_AT + 1
P_THRESHOLD = P_THRESHOLD_COUNT + 1
(P_ROTATING, P_BUY, P_OBS_BEYOND, P_OBS_ROTATIONS, P_OBS_MY_BOUGHT, P_OBS_BOUGHT) = range(
    P_THRESHOLD + MAX_INDICATORS, P_THRESHOLD + MAX_INDICATORS + 6)
P_CHOICE = P_OBS_BOUGHT + 1
"""Dealer's choice (C1): a new hand waits for the dealer's choice instead of being dealt,
and a ``chosen_*`` variant's rank or colour is the dealer's, not drawn (S2)."""
P_OBS_SLOTS = P_CHOICE + 1
"""The offset of the observation's ``my_slots`` block (``NONE`` without one)."""
P_OBS_DISCARDS = P_OBS_SLOTS + 1
"""The offset of the observation's ``my_discards`` block (``NONE`` without one)."""
PARAMS = P_OBS_DISCARDS + 1
"""``P_VOTE``: votes to end between a session's hands (C3); ``P_VOTE_AT``: the offset of
the observation's ``vote_now`` slot (``NONE`` without one)."""
BURST_INDICATOR = -2
"""``P_BURST``: the rank of the last indicator bursts (S5)."""
# The valuation lookups, one flat int64 array ``values``: the three-card table of the
# ranking (``nat``, what the classic deal reads), then cards.wild's ``one``, ``two``,
# ``three``, ``pair_order`` [2704, 8], ``one_order`` [52, 8] and ``two_order`` [8], then
# seat_value's scratch (V_SCRATCH).
V_ONE = 52 * 52 * 52
V_TWO = V_ONE + 52 * 52
V_THREE = V_TWO + 52
V_PAIR_ORDER = V_THREE + 1
V_ONE_ORDER = V_PAIR_ORDER + 52 * 52 * 8
V_TWO_ORDER = V_ONE_ORDER + 52 * 8
V_SCRATCH = V_TWO_ORDER + 8
"""``batch_jokers.seat_value``'s scratch: the cards it values, then their wild flags
(``MAX_PRIVATE + MAX_COMMUNITY`` each). Kept here, in an array every valuing kernel already
receives, so that no kernel allocates on the hot path (``KERNEL_OPTIONS``)."""
V_SIZE = V_SCRATCH + 2 * (MAX_PRIVATE + MAX_COMMUNITY)
# Action kinds (the engine's action types the action table's indices stand for).
K_PACK, K_LOOK, K_BET, K_SHOW, K_SIDESHOW, K_ACCEPT, K_REFUSE, K_ALL_IN, K_VOTE_END, K_CONTINUE = (
    range(10))
K_BUY = 10
"""``buy_joker``: its level is the slot of the card bought (J1)."""
# The selection phases' (batch_phase.py): a discard's level is the slot of the card, a
# pass's the bits of its three slots.
K_DISCARD, K_DRAW, K_KEEP, K_PASS = range(11, 15)
K_CHOOSE = 15
"""``choose_variant`` (C1): never legal in a hand's mask; the dealer's choice is applied
and masked outside the kernels' hand (``batch_choice``)."""
KINDS = 16
KIND_NAMES = ("pack", "look", "bet", "show", "sideshow", "accept", "refuse", "all_in",
              "vote_end", "continue", "buy_joker", "discard", "draw", "keep", "pass",
              "choose_variant")
# Observation: index of each global scalar in ``global_at`` and of each seat field in
# the columns of ``seat_at`` (the order of ObservationLayout's GLOBAL_SLOTS/SEAT_SLOTS).
(G_POT, G_STAKE, G_MIN_BET, G_MAX_BET, G_MY_TURN, G_ASKED, G_OVER, G_PLAYED, G_REMAINING,
 G_LIMIT, G_STRENGTH) = range(11)
(S_IN_SESSION, S_DEALT, S_IN_HAND, S_PACKED, S_ALL_IN, S_SEEN, S_BLIND_BETS, S_STACK,
 S_CHIPS_IN, S_DEALER, S_PREVIOUS, S_TO_ACT, S_ASKER) = range(13)


# ----------------------------------------------------------------- random numbers


@wrapping
def next_random(rng: Any, t: int) -> np.uint64:
    """The next 64 bits of table ``t``'s own stream (splitmix64)."""
    state = rng[t] + np.uint64(0x9E3779B97F4A7C15)
    rng[t] = state
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@inline
def random_below(rng: Any, t: int, bound: int) -> int:
    """A number in ``0..bound-1`` (multiply-shift of 32 random bits; bias below 2**-26)."""
    high = next_random(rng, t) >> np.uint64(32)
    return int((high * np.uint64(bound)) >> np.uint64(32))

