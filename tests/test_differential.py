"""Differential test: the engine's ``replay`` against the independent reference model.

Random hands (seeded) with random presets and overrides, small stacks so that short
stacks, all-ins, side pots and pot caps happen often; actions drawn from the reference
model's legal moves.  Every field of the replay result that the model computes must match,
for the whole history and for a few random prefixes.
"""

from __future__ import annotations

import collections
import json
import random

import pytest

try:
    from tests.reference_model import (
        PRESETS,
        RANKS,
        SUITS,
        RefHand,
        all_hands,
        hand_category,
        make_rules,
        ref_replay,
    )
except ImportError:  # tests/ on sys.path instead of the repository root
    from reference_model import (
        PRESETS,
        RANKS,
        SUITS,
        RefHand,
        all_hands,
        hand_category,
        make_rules,
        ref_replay,
    )

NUM_HANDS = 600
SEED = 20240611


def _random_rules(rng: random.Random) -> dict:
    preset = rng.choice(sorted(PRESETS))
    spec: dict = {"preset": preset}
    base = PRESETS[preset]
    boot = base["boot"]
    if rng.random() < 0.8 or boot > 4:
        boot = rng.randint(1, 4)
        spec["boot"] = boot
    choices = {
        "best_sequence": lambda: rng.choice(["AKQ", "A23"]),
        "raise_multiple": lambda: rng.randint(2, 4),
        "max_blind_bets": lambda: rng.choice([None, 0, 1, 2, 3, 4]),
        "max_bet": lambda: rng.choice([None, 2 * boot, 2 * boot + 1, 4 * boot, rng.randint(2 * boot, 40)]),
        "pot_cap": lambda: rng.choice([None, rng.randint(8, 120)]),
        "pot_limit_betting": lambda: rng.random() < 0.5,
        "sideshow": lambda: rng.random() < 0.8,
        "sideshow_target": lambda: rng.choice(["previous", "previous_seen"]),
        "sideshow_requires_all_seen": lambda: rng.random() < 0.4,
        "sideshow_reveal": lambda: rng.choice(["none", "private"]),
        "look_anytime": lambda: rng.random() < 0.6,
        "short_stack": lambda: rng.choice(["all_in", "pack", "showdown"]),
        "entry_minimum": lambda: rng.choice(["boot", "boot_plus_seen_bet"]),
        "lowball": lambda: rng.random() < 0.25,
    }
    for key, make in choices.items():
        if rng.random() < 0.35:
            spec[key] = make()
    # Keep max_bet compatible with the (possibly overridden) boot.
    if "max_bet" not in spec and base["max_bet"] is not None and base["max_bet"] < 2 * boot:
        spec["max_bet"] = 2 * boot
    return spec


def _random_history(rng: random.Random) -> dict:
    while True:
        spec = _random_rules(rng)
        n = rng.randint(3, 7)
        spec["num_players"] = n
        rules = make_rules(spec)
        boot = rules["boot"]
        if rules["entry_minimum"] == "boot":
            entry = boot
        else:
            entry = boot + (2 * boot if rules["max_bet"] is None else min(2 * boot, rules["max_bet"]))
        stacks = []
        for _ in range(n):
            x = rng.random()
            if x < 0.15:
                stacks.append(0)
            elif x < 0.3:
                stacks.append(rng.randint(entry, entry + 3))  # exactly the entry or just above
            else:
                stacks.append(rng.randint(0, 60))
        dealt = [s >= entry for s in stacks]
        if sum(dealt) >= 2:
            break
    deck = [r + s for r in RANKS for s in SUITS]
    rng.shuffle(deck)
    cards = []
    for s in range(n):
        if dealt[s]:
            cards.append([deck.pop(), deck.pop(), deck.pop()])
        else:
            cards.append(None)
    return {
        "format": "teenpatti-hand/1",
        "rules": spec,
        "stacks": stacks,
        "dealer": rng.randrange(n),
        "cards": cards,
        "actions": [],
    }


def _play(rng: random.Random, history: dict) -> dict:
    """Fill history["actions"] with random legal moves of the reference model."""
    hand = RefHand(history)
    by_type = rng.random() < 0.5  # half the hands: pick the action type first
    while not hand.over:
        moves = hand.moves()
        if by_type:
            groups = collections.defaultdict(list)
            for m in moves:
                groups[(m["type"], m["seat"] == hand.to_act)].append(m)
            move = rng.choice(groups[rng.choice(sorted(groups))])
        else:
            move = rng.choice(moves)
        hand.apply(move)
        history["actions"].append(move)
    return history


def _normalise(result: dict) -> dict:
    legal = sorted((d["type"], d.get("min"), d.get("max")) for d in result["legal"])
    shown = {int(k): sorted(v) for k, v in (result.get("shown") or {}).items()}
    return {
        "stacks": list(result["stacks"]),
        "pot": result["pot"],
        "stake": result["stake"],
        "over": bool(result["over"]),
        "to_act": result["to_act"],
        "legal": legal,
        "net": None if result["net"] is None else list(result["net"]),
        "shown": shown,
    }


def _check(replay, history: dict) -> None:
    expected = _normalise(ref_replay(history))
    try:
        got_raw = replay(json.loads(json.dumps(history)))
    except Exception as exc:  # noqa: BLE001 - report any engine failure with the history
        pytest.fail(
            f"engine raised {exc!r}\nhistory:\n{json.dumps(history)}\nreference:\n{expected}"
        )
    got = _normalise(got_raw)
    if got != expected:
        diff = {k: (got[k], expected[k]) for k in expected if got[k] != expected[k]}
        pytest.fail(
            "engine and reference disagree on "
            + ", ".join(sorted(diff))
            + f"\nhistory:\n{json.dumps(history)}\nengine:\n{got}\nreference:\n{expected}"
        )


def test_reference_hand_counts():
    counts = collections.Counter(hand_category(h) for h in all_hands())
    assert counts == {
        "trail": 52,
        "pure_sequence": 48,
        "sequence": 720,
        "colour": 1096,
        "pair": 3744,
        "high_card": 16440,
    }


def test_differential_random_hands():
    pytest.importorskip("teenpatti_env")
    from teenpatti_env import replay

    rng = random.Random(SEED)
    for _ in range(NUM_HANDS):
        history = _play(rng, _random_history(rng))
        _check(replay, history)
        actions = history["actions"]
        for k in sorted(rng.sample(range(len(actions)), min(3, len(actions)))):
            _check(replay, dict(history, actions=actions[:k]))
