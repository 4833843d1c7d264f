"""Builders for the named-variant tests, read from VARIANTS.md's text and not from
the engine: the specs in the text's terms, an independent brute-force valuation, one worked
hand history per named variant, random legal play."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from teenpatti_env import Hand, Rules, evaluate_hands, parse_card

RANKS = "23456789TJQKA"  # rank index 0..12, the ace high (S1, S3)
SUITS = "shdc"
RED = {"h", "d"}  # VARIANTS: red = hearts and diamonds


def rank(card: str) -> int:
    return RANKS.index(card[0])


def colour(card: str) -> str:
    return "red" if card[1] in RED else "black"


ALL_CARDS = [r + s for r in RANKS for s in SUITS]
assert sorted(parse_card(c) for c in ALL_CARDS) == list(range(52))

# ---------------------------------------------------------------- the specs, from the text

# The table "The named variants" of VARIANTS.md, in this file's own terms. Keys: private,
# community, open, imagined, wild (sources in listed order; ("ranks", "AK47") for fixed
# ranks), burst (a rank letter, "indicator" or None), visibility, lowball.
TEXT_SPECS: dict[str, dict[str, Any]] = {
    "classic": {},
    "muflis": {"lowball": True},
    "imagine_one": {"private": 2, "imagined": True},
    "personal_joker": {"private": 4, "wild": ["personal_lowest"]},
    "all_open": {"visibility": "all_open"},
    "joker_galore": {"wild": ["indicator_colour"]},
    "shared_pair": {"community": 2},
    "ak47": {"wild": [("ranks", "AK47")]},
    "joker": {"wild": ["indicator_rank"]},
    "seven_joker": {"wild": [("ranks", "7")]},
    "one_open_card": {"private": 2, "community": 1},
    "two_burst": {"burst": "2"},
    "seven_joker_two_burst": {"wild": [("ranks", "7")], "burst": "2"},
    "open_joker": {"private": 2, "community": 1, "wild": ["chosen_rank"]},
    "two_cards_open": {"open": 2},
    "middle_jokers": {"wild": ["middle"]},
    "colour_jokers": {"wild": ["chosen_colour"]},
    "four_card": {"private": 4},
}
# Named in VARIANTS.md but part 2 of the variants (phases, buying, changing wild cards).
PHASE_NAMES = (
    "discard_one", "shopping", "passing_cards", "joker_thresholds", "rotating_jokers",
    "buy_a_joker",
)
"""The part-2 variants (checked in test_variants_part2)."""
INDICATORS_PER_SOURCE = {"indicator_rank": 1, "indicator_colour": 1, "middle": 2}
NAMES = list(TEXT_SPECS)


def full(spec: dict[str, Any]) -> dict[str, Any]:
    """A text spec with every key filled in."""
    out = {
        "private": 3,
        "community": 0,
        "open": 0,
        "imagined": False,
        "wild": [],
        "burst": None,
        "visibility": "normal",
        "lowball": False,
    }
    out.update(spec)
    return out


def kinds(spec: dict[str, Any]) -> list[str]:
    return [w if isinstance(w, str) else w[0] for w in full(spec)["wild"]]


def indicator_count(spec: dict[str, Any]) -> int:
    s = full(spec)
    return sum(INDICATORS_PER_SOURCE.get(k, 0) for k in kinds(s)) + (s["burst"] == "indicator")


def engine_spec(spec: dict[str, Any]) -> dict[str, Any]:
    """The same spec as the engine's JSON components (VARIANTS "Components")."""
    s = full(spec)
    wild: list[Any] = [w if isinstance(w, str) else {"ranks": list(w[1])} for w in s["wild"]]
    return {
        "private_cards": s["private"],
        "community_cards": s["community"],
        "open_private_cards": s["open"],
        "imagined_card": s["imagined"],
        "wild": wild,
        "burst_rank": s["burst"],
        "visibility": s["visibility"],
        "lowball": s["lowball"],
    }


# ---------------------------------------------------------------- the brute force


@cache
def value_cube(best_sequence: str, lowball: bool) -> np.ndarray:
    """``cube[a, b, c]``: evaluate_hand of the three different cards, -1 for a repeat."""
    rules = Rules(best_sequence=best_sequence, lowball=lowball)
    combos = np.array(list(itertools.combinations(range(52), 3)), dtype=np.int64)
    values = evaluate_hands(combos, rules)
    cube = np.full((52, 52, 52), -1, dtype=np.int64)
    for order in itertools.permutations(range(3)):
        a, b, c = (combos[:, i] for i in order)
        cube[a, b, c] = values
    cube.flags.writeable = False
    return cube


FULL_DECK = np.arange(52)


def brute_value(
    cube: np.ndarray, usable: Sequence[int], wild: Sequence[bool], imagined: bool
) -> int:
    """Best value over every three slots and every substitution (W2, W6).

    A natural card stands for itself, a wild card for any of the 52 cards and the imaginary
    card for any card not among the seat's own usable cards; a repeated card is no hand.
    """
    slots = [FULL_DECK if w else np.array([c]) for c, w in zip(usable, wild, strict=True)]
    if imagined:
        slots.append(np.setdiff1d(FULL_DECK, np.array(usable)))
    best = -1
    for a, b, c in itertools.combinations(slots, 3):
        best = max(best, int(cube[np.ix_(a, b, c)].max()))
    return best


def wild_flags(
    spec: dict[str, Any],
    private: Sequence[str],
    community: Sequence[str],
    indicators: Sequence[str],
    chosen: dict[str, str] | None,
) -> list[bool]:
    """Which of ``private + community`` are wild for the seat, from the rules text."""
    s = full(spec)
    # Indicators in draw order: each source its own, in listed order; a burst one last (S4).
    at = 0
    by_source: dict[str, list[str]] = {}
    for kind in kinds(s):
        count = INDICATORS_PER_SOURCE.get(kind, 0)
        by_source[kind] = list(indicators[at : at + count])
        at += count
    burst: int | None = None
    if s["burst"] == "indicator":
        burst = rank(indicators[at])
        at += 1
    elif s["burst"] is not None:
        burst = RANKS.index(s["burst"])
    assert at == len(indicators)
    ranks: set[int] = set()
    colours: set[str] = set()
    for source in s["wild"]:
        if not isinstance(source, str):
            ranks.update(RANKS.index(r) for r in source[1])
        elif source == "indicator_rank":
            ranks.add(rank(by_source[source][0]))
        elif source == "indicator_colour":
            colours.add(colour(by_source[source][0]))
        elif source == "chosen_rank":
            assert chosen is not None
            text = chosen["rank"]
            ranks.add(RANKS.index("T" if text == "10" else text))
        elif source == "chosen_colour":
            assert chosen is not None
            colours.add(chosen["colour"])
        elif source == "middle":
            low, high = sorted(rank(c) for c in by_source[source])  # ace high (S3)
            ranks.update(range(low + 1, high))
        elif source == "personal_lowest":
            ranks.add(min(rank(c) for c in private))  # this seat only (S1, W5)
        else:
            raise AssertionError(source)
    return [
        rank(c) != burst and (rank(c) in ranks or colour(c) in colours)
        for c in [*private, *community]
    ]


def text_value(
    spec: dict[str, Any],
    private: Sequence[str],
    community: Sequence[str] = (),
    indicators: Sequence[str] = (),
    chosen: dict[str, str] | None = None,
    best_sequence: str = "AKQ",
    lowball: bool = False,
) -> int:
    """The value of a seat's hand as VARIANTS.md defines it, by brute force."""
    s = full(spec)
    flags = wild_flags(s, private, community, indicators, chosen)
    usable = [parse_card(c) for c in [*private, *community]]
    cube = value_cube(best_sequence, lowball or s["lowball"])
    return brute_value(cube, usable, flags, s["imagined"])


# ---------------------------------------------------------------- hand histories


def act(seat: int, kind: str, amount: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": seat, "type": kind}
    if amount is not None:
        out["amount"] = amount
    return out


# Three seats, dealer 0, boot 1, stacks 100: seat 1 acts first. Every expectation below is
# worked by hand from RULES.md and VARIANTS.md.
#
# SHOW_ACTIONS: seat 1 bets 1 blind, seat 2 packs, seat 0 bets 1 blind, seat 1 (blind, so
# the show costs the stake 1) shows against seat 0. Pot 3 + 1 + 1 + 1 = 6; seat 0 put in
# 2, seat 1 put in 3, seat 2 put in 1. The asker (seat 1) loses a tie.
SHOW_ACTIONS = [act(1, "bet", 1), act(2, "pack"), act(0, "bet", 1), act(1, "show")]
# BURST_ACTIONS: seat 2 burst at the deal (packed); seat 1 bets 1, seat 0 bets 1, seat 1
# shows for 1: the same chips as SHOW_ACTIONS.
BURST_ACTIONS = [act(1, "bet", 1), act(0, "bet", 1), act(1, "show")]
SHOW_WON = {
    0: {"payouts": [6, 0, 0], "net": [4, -3, -1], "stacks": [104, 97, 99]},
    1: {"payouts": [0, 6, 0], "net": [-2, 3, -1], "stacks": [98, 103, 99]},
}

# name: (cards of seats 0, 1, 2; extra history fields; actions; winner)
HISTORIES: dict[str, tuple[list[str], dict[str, Any], list[dict[str, Any]], int]] = {
    # A pair beats a high card.
    "classic": (["2s 3d 5c", "Kh Kd 4s", "9c 8h 6d"], {}, SHOW_ACTIONS, 1),
    # The same cards under muflis: the lowest hand (5-3-2) wins the show.
    "muflis": (["2s 3d 5c", "Kh Kd 4s", "9c 8h 6d"], {}, SHOW_ACTIONS, 0),
    # A-K imagines the Q of spades (pure sequence); 9-9 imagines a third nine (trail).
    "imagine_one": (["As Ks", "9h 9d", "4c 6h"], {}, SHOW_ACTIONS, 1),
    # Seat 0's lowest rank is 2: two wilds and an ace are a trail of aces, above QQQ.
    "personal_joker": (["2s 2h Ad Kc", "Qs Qh Qd 3c", "5c 6h 8d 9s"], {}, SHOW_ACTIONS, 0),
    # Plain values: a pair of jacks beats a pair of tens.
    "all_open": (["Js Jh 4d", "Ts Th Ad", "9c 8h 6d"], {}, SHOW_ACTIONS, 0),
    # Red is wild (5h turned up): Kh and 2d are wild, so 9s makes a trail of nines.
    "joker_galore": (
        ["Kh 2d 9s", "As Ac Ks", "3s 4c 6s"], {"indicators": ["5h"]}, SHOW_ACTIONS, 0
    ),
    # The two community kings make seat 0's king a trail; seat 1 has a pair of aces.
    "shared_pair": (
        ["Kh 2c 7d", "As Ad Qh", "9c 8h 6d"], {"community": ["Ks", "Kd"]}, SHOW_ACTIONS, 0
    ),
    # 4 and 7 are wild: with the 2, a trail of twos beats a pair of queens.
    "ak47": (["4s 7h 2c", "Qs Qh 3d", "9c 8h 6d"], {}, SHOW_ACTIONS, 0),
    # 9s turned up: 9h is wild, 5-5 becomes a trail of fives.
    "joker": (["9h 5c 5d", "As Ah Kd", "Qc Jh 6d"], {"indicators": ["9s"]}, SHOW_ACTIONS, 0),
    # A 7 turns the pair of threes into a trail.
    "seven_joker": (["7c 3s 3h", "As Ah Kd", "9c 8h 6d"], {}, SHOW_ACTIONS, 0),
    # J-2 with the community J is a pair; K-Q with it is the run K-Q-J.
    "one_open_card": (["Jh 2d", "Qs Kd", "9c 8h"], {"community": ["Jc"]}, SHOW_ACTIONS, 1),
    # Seat 2 holds a 2 and bursts before betting; pair of nines beats seat 0's high card.
    "two_burst": (["Ts Jd 4c", "9s 9h 3d", "2c Ad Kd"], {}, BURST_ACTIONS, 1),
    # W3: 7 + A + 3 is the run A-2-3, above a pair of kings; seat 2 bursts on its 2.
    "seven_joker_two_burst": (["7c As 3h", "Ks Kh 9d", "2c Qd Jd"], {}, BURST_ACTIONS, 0),
    # Fives named: 5s is wild, K-K-3 (pair of kings) beats Q-Q-K (pair of queens).
    "open_joker": (
        ["5s 3h", "Qs Qh", "9c 8h"],
        {"community": ["Kd"], "chosen": {"rank": "5"}},
        SHOW_ACTIONS,
        0,
    ),
    # Open cards change nothing in the values: a trail of tens beats A-K-Q pure.
    "two_cards_open": (["Ah Kh Qh", "Ts Th Td", "9c 8h 6d"], {}, SHOW_ACTIONS, 1),
    # 3 and 6 turned up: fours and fives are wild, J + two wilds is a trail of jacks.
    "middle_jokers": (
        ["4c 5h Jd", "As Ad Kc", "9c 8h Td"], {"indicators": ["3s", "6d"]}, SHOW_ACTIONS, 0
    ),
    # Black named: 2s is wild, Q-Q becomes a trail; J-J-9 of hearts and diamonds is a pair.
    "colour_jokers": (
        ["Qh Qd 2s", "Jh Jd 9h", "3h 4d 6h"], {"chosen": {"colour": "black"}}, SHOW_ACTIONS, 0
    ),
    # The best three of four: A-K-Q pure loses to a trail of threes.
    "four_card": (["As Ks Qs 2d", "3h 3d 3c 4s", "9c 8h 6d 5s"], {}, SHOW_ACTIONS, 1),
}  # fmt: skip


def history(name: str, cards: list[str], extra: dict[str, Any], actions: list[Any]) -> dict:
    return {
        "format": "teenpatti-hand/1",
        "rules": {"variant": name},
        "dealer": 0,
        "cards": [c.split() for c in cards],
        **extra,
        "actions": actions,
    }


def hand_of(h: dict[str, Any]) -> Hand:
    """The history's hand built with ``Hand(...)`` directly."""
    rules = Rules(
        variant=h["rules"]["variant"],
        num_players=len(h["cards"]),
        **{k: v for k, v in h["rules"].items() if k != "variant"},
    )
    return Hand(
        rules,
        h["cards"],
        h.get("stacks"),
        h["dealer"],
        community=h.get("community"),
        indicators=h.get("indicators"),
        chosen=h.get("chosen"),
    )


def random_action(hand: Hand, rng: np.random.Generator) -> dict[str, Any]:
    """A random legal action: the seat to act's, or an off-turn look."""
    options: list[dict[str, Any]] = []
    for seat in range(hand.num_seats):
        for action in hand.legal_actions(seat):
            if seat != hand.to_act and action["type"] != "look":
                continue
            option = {"seat": seat, "type": action["type"]}
            if "min" in action:
                option["amount"] = int(rng.choice([action["min"], action["max"]]))
            if option not in options:
                options.append(option)
    # Fewer packs, so that hands run to shows and showdowns.
    weights = np.array([0.3 if o["type"] == "pack" else 1.0 for o in options])
    return options[int(rng.choice(len(options), p=weights / weights.sum()))]


def views(hand: Hand) -> Any:
    seats = range(hand.num_seats)
    return (
        hand.result(),
        hand.public_events(),
        [hand.events_for(s) for s in seats],
        [hand.known_cards(s) for s in [None, *seats]],
        [hand.knows_own_hand(s) for s in seats],
        [hand.hand_value(s) for s in seats if hand.dealt_in[s]],
        hand.to_dict(),
    )
