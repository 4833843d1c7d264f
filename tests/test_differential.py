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
from builders.reference_model import (
    PRESETS,
    RANKS,
    SUITS,
    RefHand,
    all_hands,
    hand_category,
    make_rules,
    ref_replay,
)

NUM_HANDS = 1000
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
        "max_bet": lambda: rng.choice(
            [None, 2 * boot, 2 * boot + 1, 4 * boot, rng.randint(2 * boot, 40)]
        ),
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
            entry = boot + (
                2 * boot if rules["max_bet"] is None else min(2 * boot, rules["max_bet"])
            )
        big = rng.random() < 0.1  # sometimes deep stacks, for long blind play
        stacks = []
        for _ in range(n):
            x = rng.random()
            if x < 0.15:
                stacks.append(0)
            elif x < 0.3:
                stacks.append(rng.randint(entry, entry + 3))  # exactly the entry or just above
            else:
                stacks.append(rng.randint(0, 300 if big else 60))
        omit_stacks = rng.random() < 0.05
        if omit_stacks:
            stacks = [boot * rules["starting_boots"]] * n
        dealt = [s >= entry for s in stacks]
        if sum(dealt) >= 2:
            break
    cards = _deal(rng, dealt)
    history = {
        "format": "teenpatti-hand/1",
        "rules": spec,
        "stacks": stacks,
        "dealer": rng.randrange(n),
        "cards": cards,
        "actions": [],
    }
    if omit_stacks:
        del history["stacks"]
    return history


def _deal(rng: random.Random, dealt: list) -> list:
    """Distinct random cards; often with equal-ranked hands so that ties happen."""
    deck = {r + s for r in RANKS for s in SUITS}
    patterns = [rng.sample(RANKS, 3) for _ in range(rng.randint(1, 2))]
    if rng.random() < 0.3:
        r = rng.choice(RANKS)
        patterns.append([r, r, rng.choice(RANKS)])
    tie_mode = rng.random() < 0.3
    cards = []
    for d in dealt:
        if not d:
            cards.append(None)
            continue
        hand = []
        if tie_mode and rng.random() < 0.8:
            for r in rng.choice(patterns):
                free = sorted(c for c in deck if c[0] == r)
                if free:
                    c = rng.choice(free)
                    hand.append(c)
                    deck.discard(c)
        while len(hand) < 3:
            c = rng.choice(sorted(deck))
            hand.append(c)
            deck.discard(c)
        rng.shuffle(hand)
        if rng.random() < 0.1:
            hand = ["10" + c[1] if c[0] == "T" else c for c in hand]
        cards.append(hand)
    return cards


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
    shown = {
        int(k): sorted(c.replace("10", "T") for c in v)
        for k, v in (result.get("shown") or {}).items()
    }
    return {
        "stacks": list(result["stacks"]),
        "pot": result["pot"],
        "stake": result["stake"],
        "over": bool(result["over"]),
        "to_act": result["to_act"],
        "legal": legal,
        "net": None if result["net"] is None else list(result["net"]),
        "shown": shown,
        "end": result["end"],
        "payouts": result["payouts"],
        "contributions": list(result["contributions"]),
    }


def _check(replay, history: dict) -> None:
    expected = _normalise(ref_replay(history))
    try:
        got_raw = replay(json.loads(json.dumps(history)))
    except Exception as exc:
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


_TYPES = ["look", "pack", "bet", "all_in", "show", "sideshow", "accept", "refuse"]


def _accepts(fn, history: dict):
    """(True, None) if fn(history) returns, (False, error) if it raises ValueError."""
    try:
        fn(json.loads(json.dumps(history)))
    except ValueError as exc:
        return False, exc
    return True, None


def _probes(rng: random.Random, history: dict, prefix: list) -> list[dict]:
    """Candidate actions at a prefix: amounts at and just past the legal bounds, odd
    amounts, looks by every seat, and a few random (seat, type, amount) actions."""
    hand = RefHand(history)
    for action in prefix:
        hand.apply(action)
    n = len(history["cards"])
    out = [{"seat": s, "type": "look"} for s in range(n)]
    for d in hand.legal():
        if "min" in d:
            for amount in {d["min"] - 1, d["min"], d["min"] + 1, d["max"] - 1, d["max"] + 1}:
                out.append({"seat": hand.to_act, "type": d["type"], "amount": amount})
    for _ in range(4):
        typ = rng.choice(_TYPES)
        seat = hand.to_act if hand.to_act is not None and rng.random() < 0.5 else rng.randrange(n)
        probe = {"seat": seat, "type": typ}
        if typ in ("bet", "sideshow"):
            probe["amount"] = rng.randint(0, 40)
        out.append(probe)
    return out


def test_differential_legality_probes():
    """Probe actions: the engine must accept exactly what the model accepts, with equal
    results after an accepted one."""
    pytest.importorskip("teenpatti_env")
    from teenpatti_env import replay

    rng = random.Random(SEED + 1)
    for _ in range(NUM_HANDS // 3):
        history = _play(rng, _random_history(rng))
        actions = history["actions"]
        for k in rng.sample(range(len(actions) + 1), min(3, len(actions) + 1)):
            prefix = actions[:k]
            for probe in _probes(rng, history, prefix):
                trial = dict(history, actions=[*prefix, probe])
                ok_ref, err_ref = _accepts(ref_replay, trial)
                ok_eng, err_eng = _accepts(replay, trial)
                if ok_ref != ok_eng:
                    before = dict(history, actions=prefix)
                    pytest.fail(
                        f"legality differs for {probe}: "
                        f"reference {'accepts' if ok_ref else 'rejects'} ({err_ref}), "
                        f"engine {'accepts' if ok_eng else 'rejects'} ({err_eng})"
                        f"\nhistory:\n{json.dumps(trial)}"
                        f"\nengine before it:\n{_normalise(replay(before))}"
                        f"\nreference before it:\n{_normalise(ref_replay(before))}"
                    )
                if ok_ref:
                    _check(replay, trial)
