"""The story's sentences in every person (issue 29): each event of every variant, told
with "you" and with a bot's name in each of its seat fields, reads as English: verbs
agree with "you" and with a bot, "your" for you, no name twice in one clause (no
"you deal to you"), names as written (never capitalised as a sentence start); and a
hand's sideshow outcomes are told once each, with how often."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from interfaces.story import hand_summary, sideshow_words, story_line
from teenpatti_env.engine import Hand
from teenpatti_env.environment.aec import raw_env
from teenpatti_env.environment.render import YOU
from teenpatti_env.rules import Rules
from teenpatti_env.rules.variants import VARIANTS

BOTS = ["hard", "equity", "easy", "medium", "auto", "random", "rat"]
SEAT_FIELDS = ("seat", "target", "asker", "dealer", "packed", "to_act")


def played_events(rules: Rules, seed: int) -> Iterator[dict[str, Any]]:
    """Every event (private ones too) of a few hands played at random."""
    env = raw_env(rules=rules, num_players=4)
    rng = np.random.default_rng(seed)
    for hand_number in range(3):
        env.reset(seed=seed * 10 + hand_number)
        hand = env.hand
        for agent in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            hand = env.hand
            mask = env.observe(agent)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
        assert hand is not None
        yield from hand.all_events()


def sample_events() -> dict[str, list[dict[str, Any]]]:
    """Up to three events of each type, from every variant under two presets and from
    dealer's choice."""
    found: dict[str, list[dict[str, Any]]] = {}
    tables = [(Rules.preset(preset, variant=variant), seed) for variant in VARIANTS
              for preset, seed in (("classic", 1), ("pagat", 2))]
    tables.append((Rules(dealers_choice=["classic", "muflis", "ak47"]), 3))
    for rules, seed in tables:
        for event in played_events(rules, seed):
                kept = found.setdefault(event["type"], [])
                if len(kept) < 3:
                    kept.append(event)
    return found


EVENTS = sample_events()


def seats_of(event: dict[str, Any]) -> list[int]:
    """The seats an event names."""
    seats = [event[key] for key in SEAT_FIELDS if isinstance(event.get(key), int)]
    seats += list(event.get("seats") or [])
    seats += [hand["seat"] for hand in event.get("hands") or []]
    seats += [seat for seat, paid in enumerate(event.get("payouts") or []) if paid]
    return sorted(set(seats))


def tellings(event: dict[str, Any]) -> Iterator[str]:
    """The event told with "you" in each seat it names, and with bots alone."""
    for you in [None, *seats_of(event)]:
        names = [YOU if seat == you else BOTS[seat] for seat in range(len(BOTS))]
        line = story_line(event, names)
        if line is not None:
            yield line


def grammar_problems(line: str) -> list[str]:
    """What reads wrong in a line of the story."""
    problems = []
    if re.search(r"\byou's\b", line):
        problems.append("you's")
    for verb in re.findall(r"\byou (\w+)", line):
        if verb.endswith("s") and verb != "pass":
            problems.append(f"you {verb}")
    for verb in re.findall(r"\byou (?!and\b)\w+[^;:,]*? and (\w+)", line):
        if verb.endswith("s") and verb != "pass":
            problems.append(f"you ... and {verb}")
    bots = "|".join(BOTS)
    for name, verb in re.findall(rf"(?:^|[;:,] )({bots}) (\w+)", line):
        if not verb.endswith("s") and verb not in ("and", "first"):
            problems.append(f"{name} {verb}")
    for clause in re.split(r"[;:]", line):
        named = re.findall(rf"\b(you|{bots})\b(?!')", clause)
        if len(named) != len(set(named)):
            problems.append(f"a name twice in {clause!r}")
    if line[:1].isupper():
        problems.append("capitalised")
    return problems


@pytest.mark.parametrize("kind", sorted(EVENTS))
def test_every_event_reads_right_in_every_person(kind: str) -> None:
    told = [line for event in EVENTS[kind] for line in tellings(event)]
    for line in told:
        assert grammar_problems(line) == [], line


def test_the_events_cover_every_action() -> None:
    for kind in ("deal", "look", "bet", "pack", "show", "sideshow", "sideshow_result",
                 "all_in", "reveal", "result", "draw", "pass", "buy_joker", "discard",
                 "choose_variant", "cards"):
        assert kind in EVENTS, kind


@pytest.mark.parametrize(("event", "you", "expected"), [
    ({"type": "sideshow", "seat": 0, "amount": 4, "target": 1}, 0,
     "you pay 4 and ask hard for a sideshow"),
    ({"type": "sideshow", "seat": 1, "amount": 4, "target": 0}, 0,
     "hard pays 4 and asks you for a sideshow"),
    ({"type": "deal", "dealer": 0, "seats": [0, 1, 2], "boot": 1}, 0,
     "you deal; you, hard and equity put in a boot of 1"),
    ({"type": "draw", "seat": 0, "amount": 1}, 0, "you pay 1 and draw a card"),
    ({"type": "buy_joker", "seat": 2, "amount": 2}, 0, "equity pays 2 and buys a joker"),
    ({"type": "sideshow_result", "asker": 1, "target": 0, "accepted": False}, 0,
     "you refuse the sideshow"),
])
def test_the_sentences_the_issue_quotes(event: dict[str, Any], you: int,
                                        expected: str) -> None:
    names = [YOU if seat == you else name for seat, name in enumerate(["ann", "hard", "equity"])]
    assert story_line(event, names) == expected


def test_sideshow_outcomes_in_both_persons() -> None:
    names = [YOU, "hard", "equity"]
    refused = {"type": "sideshow_result", "asker": 0, "target": 2, "accepted": False}
    assert sideshow_words(refused, names) == "equity refused your sideshow"
    assert sideshow_words({**refused, "asker": 1, "target": 0}, names) == \
        "you refused hard's sideshow"
    won = {"type": "sideshow_result", "asker": 0, "target": 1, "accepted": True, "packed": 1}
    assert sideshow_words(won, names) == \
        "you won the sideshow between you and hard; hard packed"


def test_two_alike_sideshows_are_told_once_with_how_often() -> None:
    # seat 1 asks, seat 2 refuses, twice, in one hand (pagat: sideshows from the start)
    rules = Rules.preset("pagat").replace(num_players=4)
    hand = Hand(rules, [["As", "Kd", "2c"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"],
                        ["2h", "2d", "Js"]], dealer=0)
    refusals = 0
    while refusals < 2 and not hand.over:
        seat = hand.to_act
        kinds = {entry["type"]: entry for entry in hand.legal_actions()}
        if "refuse" in kinds:
            hand.apply({"type": "refuse"})
            refusals += 1
        elif not hand.seen[seat]:
            hand.apply({"type": "look"})
        elif seat == 3 and "sideshow" in kinds:
            hand.apply({"type": "sideshow", "amount": kinds["sideshow"]["min"]})
        else:
            hand.apply({"type": "bet", "amount": kinds["bet"]["min"]})
    while not hand.over:
        hand.apply({"type": "pack"})
    sideshows = hand_summary(hand, [YOU, "hard", "equity", "easy"])["sideshows"]
    assert refusals == 2
    assert len(sideshows) == 1 and sideshows[0].endswith("(twice).")
