"""Decisions per second of the batched engine beside the AEC environment and hold'em.

    python benchmarks/bench_batched.py [--seconds 3] [--rounds 3] [--json]
                                       [--variants NAME ... | --no-variants]

The batched engine (:class:`teenpatti_env.environment.batched.TableBatch`, classic
rules, hand episodes, autoreset) plays N = 1, 64, 1,024 and 4,096 tables with a uniform
draw among each table's legal actions (one uniform number per table from a numpy
``Generator``, turned into the index of a legal action by a small compiled loop,
:func:`pick_legal`); every step builds the observation vector and the action mask of every
table's seat to act. The session row plays ``episode="session"`` at
4,096 tables (classic rules, stacks carried from hand to hand, a new session where one
ends). Beside them, in the same run and by the same alternating rounds,
``teenpatti_env.env()`` and PettingZoo's ``texas_holdem_no_limit_v6`` are played one
decision at a time by ``bench_env.py``'s loop. Everything runs on one core (numba
compiles the kernels single-threaded; the first call compiles or loads them from the
cache and is not timed), and every rate is per second of this process's CPU time, as in
``bench_env.py``, so other processes on a shared machine do not count. ``--json`` prints
one JSON object instead of the table. Hold'em needs ``pip install -e ".[bench]"``.

Every variant the batched engine plays (or those ``--variants`` names) is measured at
4,096 tables, hand episodes, next to ``env(variant=...)`` in the same rules, and so is
``dealers_choice`` (``dealers_choice=[...]`` of every variant the batch plays, classic
included: the dealer's choice is one of the decisions counted); ``--json`` adds them as
``variants`` (``{"muflis": decisions/s, ..., "dealers_choice": ...}``) and
``variants_aec_env``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit

sys.path.insert(0, os.path.dirname(__file__))
from bench_env import play

import teenpatti_env
from teenpatti_env.environment.batch_variant import unsupported
from teenpatti_env.environment.batched import TableBatch
from teenpatti_env.rules import Rules
from teenpatti_env.rules.variants import VARIANTS

SIZES = (1, 64, 1024, 4096)


SESSION_TABLES = 4096
VARIANT_TABLES = 4096
CHOICES = tuple(name for name in VARIANTS if unsupported(Rules(variant=name)) is None)
"""The list of the ``dealers_choice`` entry: every variant the batch plays, classic too."""
PLAYED = (*(name for name in CHOICES if name != "classic"), "dealers_choice")
"""The variants the batched engine plays, and dealer's choice of them all."""


def variant_rules(variant: str) -> dict[str, Any]:
    """The rule keywords of a ``--variants`` entry."""
    if variant == "dealers_choice":
        return {"dealers_choice": list(CHOICES)}
    return {"variant": variant}


@njit(cache=True, nogil=True)
def pick_legal(masks: Any, uniforms: Any, actions: Any) -> None:
    """``actions[t]``: the legal action of ``masks[t]`` that ``uniforms[t]`` (in ``[0, 1)``)
    picks, each legal action equally likely (0 where none is legal).

    The same draw as ``(masks + rng.random(masks.shape)).argmax(axis=1)``, from one
    number per table instead of one per action (at 76 actions, dealer's choice, that
    sampling took a fifth of a step).
    """
    for t in range(masks.shape[0]):
        legal = 0
        for a in range(masks.shape[1]):
            legal += masks[t, a] != 0
        pick = min(int(uniforms[t] * legal), legal - 1)
        actions[t] = 0
        for a in range(masks.shape[1]):
            if masks[t, a] != 0:
                if pick == 0:
                    actions[t] = a
                    break
                pick -= 1


def batched(tables: int, seconds: float, seed: int = 0, episode: str = "hand",
            variant: str = "classic") -> float:
    """Decisions per second of random legal play at ``tables`` tables."""
    batch = TableBatch(tables, "classic", seed=seed, episode=episode,
                       **variant_rules(variant))
    rng = np.random.default_rng(seed)
    uniforms = np.empty(tables)
    actions = np.empty(tables, dtype=np.int64)
    step = batch.reset()
    pick_legal(step.action_masks, rng.random(out=uniforms), actions)
    step = batch.step(actions)
    decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(20):
            pick_legal(step.action_masks, rng.random(out=uniforms), actions)
            decisions += int((step.to_act >= 0).sum())
            step = batch.step(actions)
    return decisions / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per timed round")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per entry")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--variants", nargs="+", choices=PLAYED, default=list(PLAYED),
                        help="the variants measured (default: every one the batch plays)")
    parser.add_argument("--no-variants", action="store_true", help="measure no variant")
    args = parser.parse_args()
    variants = [] if args.no_variants else args.variants
    contenders: dict[str, Callable[[], float]] = {
        str(size): lambda size=size: batched(size, args.seconds) for size in SIZES
    }
    contenders["session"] = lambda: batched(SESSION_TABLES, args.seconds, episode="session")
    contenders["aec_env"] = lambda: play(lambda: teenpatti_env.env(), args.seconds)[0]
    try:
        from pettingzoo.classic import texas_holdem_no_limit_v6
    except ImportError:
        if not args.json:
            print("texas_holdem_no_limit_v6 not installed: pip install 'pettingzoo[classic]'")
    else:
        contenders["pettingzoo_holdem"] = lambda: play(texas_holdem_no_limit_v6.env,
                                                       args.seconds)[0]
    for name in variants:
        contenders[f"variant:{name}"] = lambda name=name: batched(
            VARIANT_TABLES, args.seconds, variant=name)
        contenders[f"aec_env:{name}"] = lambda name=name: play(
            lambda: teenpatti_env.env(**variant_rules(name)), args.seconds)[0]
    for size in SIZES:
        batched(size, 0.01)  # compile (or load the cached kernels) before timing
    for name in variants:
        batched(64, 0.01, variant=name)
    batched(SESSION_TABLES, 0.01, episode="session")
    runs: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(args.rounds):
        for name, run in contenders.items():
            runs[name].append(run())
    medians = {name: statistics.median(values) for name, values in runs.items()}
    if args.json:
        out: dict[str, Any] = {
            "decisions_per_second": {str(size): medians[str(size)] for size in SIZES},
            "session_4096": medians["session"],
            "pettingzoo_holdem": medians.get("pettingzoo_holdem"),
            "aec_env": medians["aec_env"],
            "variants": {name: medians[f"variant:{name}"] for name in variants},
            "variants_aec_env": {name: medians[f"aec_env:{name}"] for name in variants},
        }
        print(json.dumps(out))
        return
    holdem = medians.get("pettingzoo_holdem")
    print(f"{'path':<32} {'decisions/s':>14} {'x aec env':>10} {'x holdem':>10}")
    for name, value in medians.items():
        label = f"batched, {name} tables" if name.isdigit() else name
        if name == "session":
            label = f"batched session, {SESSION_TABLES} tables"
        if name.startswith("variant:"):
            label = f"batched {name[8:]}, {VARIANT_TABLES} tables"
            versus_env = value / medians[f"aec_env:{name[8:]}"]
            print(f"{label:<32} {value:>14,.0f} {versus_env:>10.1f} {'(x env in the variant)'}")
            continue
        versus = f"{value / holdem:>10.1f}" if holdem else f"{'-':>10}"
        print(f"{label:<32} {value:>14,.0f} {value / medians['aec_env']:>10.1f} {versus}")


if __name__ == "__main__":
    main()
