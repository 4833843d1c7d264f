"""The named variants of VARIANTS.md, checked against readings written from its text.

Every expectation here comes from /work/shared/VARIANTS.md, not from the engine's code:

* valuation: an independent brute force (every three usable cards -- private, community,
  the imaginary card -- and every substitution of each wild card) with the wild cards
  derived here from the wild sources (fixed ranks, indicator rank/colour, chosen
  rank/colour, middle, personal lowest; the burst rank never wild: B2; the indicator itself
  out of play: D3), compared with ``Hand.hand_value`` on thousands of dealt hands;
* one full hand history per named variant, worked by hand (end, net, payouts, shown,
  stacks), replayed, played on ``Hand`` directly and saved/restored mid-hand;
* spec and hand-history validation (C2, P10, H1-H3);
* what each seat knows (D5, V1-V3, B3);
* the deal order (D1) and the chosen rank or colour drawn before the deal (S2).
"""

from __future__ import annotations

import itertools
import json
import zlib
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np
import pytest

from teenpatti_env import (
    Hand,
    IllegalActionError,
    Rules,
    Session,
    evaluate_hand,
    evaluate_hands,
    parse_card,
    parse_cards,
    replay,
)
from teenpatti_env.rules.variants import VARIANTS, VariantSpec, WildSource

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


def test_named_variants_are_the_table_of_variants_md() -> None:
    assert set(VARIANTS) == set(TEXT_SPECS) | set(PHASE_NAMES)
    for name, text in TEXT_SPECS.items():
        got = VARIANTS[name].to_dict()
        want = engine_spec(text)
        for key in ("private_cards", "community_cards", "open_private_cards", "imagined_card"):
            assert got[key] == want[key], (name, key)
        for key in ("visibility", "lowball", "burst_rank"):
            assert got[key] == want[key], (name, key)
        assert got["phase"] is None and got["buy_a_joker"] is False
        norm = [w if isinstance(w, str) else {"ranks": sorted(w["ranks"])} for w in got["wild"]]
        assert norm == [
            w if isinstance(w, str) else {"ranks": sorted(w["ranks"])} for w in want["wild"]
        ], name
        # The name is kept as the name (a built-in variant, C2).
        assert Rules(variant=name).variant == name
        assert Rules(variant=name).to_dict()["variant"] == name
        # The same spec as a dict is the built-in variant too... or at least plays the same.
        assert Rules(variant=want).spec.to_dict() == got


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


def test_evaluate_hand_respects_the_lowball_of_a_variant() -> None:
    """W1: muflis ranks lowball through the variant; never reversed twice."""
    low = Rules(lowball=True)
    for rules in (Rules(variant="muflis"), Rules(variant="muflis", lowball=True)):
        for hand in ("5s 3h 2d", "As Ah Ad", "Ks Qs Js", "2s 2h 3d", "As Kh 2d"):
            assert evaluate_hand(hand, rules) == evaluate_hand(hand, low)
        assert evaluate_hand("5s 3h 2d", rules) > evaluate_hand("As Ah Ad", rules)
    rng = np.random.default_rng(1)
    hands = np.array([rng.permutation(52)[:3] for _ in range(500)])
    assert (evaluate_hands(hands, Rules(variant="muflis")) == evaluate_hands(hands, low)).all()


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


def check_deal_values(hand: Hand, spec: dict[str, Any], best_sequence: str = "AKQ") -> int:
    """Compare every dealt seat's engine value with the brute force; seats checked."""
    saved = hand.to_dict()
    community = saved.get("community", [])
    indicators = saved.get("indicators", [])
    chosen = saved.get("chosen")
    s = full(spec)
    assert len(community) == s["community"]
    assert len(indicators) == indicator_count(s)
    assert (chosen is not None) == bool({"chosen_rank", "chosen_colour"} & set(kinds(s)))
    checked = 0
    for seat, private in enumerate(saved["cards"]):
        if private is None:
            continue
        assert len(private) == s["private"]
        want = text_value(
            s, private, community, indicators, chosen, best_sequence, hand.rules.lowball
        )
        got = hand.hand_value(seat)
        assert got == want, (seat, private, community, indicators, chosen)
        checked += 1
    # B1: only a seat's real private cards burst it (open ones included); B4: the end.
    burst = None
    if s["burst"] == "indicator":
        burst = rank(indicators[-1])  # drawn last (D1, S5)
    elif s["burst"] is not None:
        burst = RANKS.index(s["burst"])
    dealt = [seat for seat, cards in enumerate(saved["cards"]) if cards is not None]
    bursts = [
        seat
        for seat in dealt
        if burst is not None and any(rank(c) == burst for c in saved["cards"][seat])
    ]
    result = hand.result()
    assert result["burst"] == [seat in bursts for seat in range(hand.num_seats)]
    left = len(dealt) - len(bursts)
    want_end = "void" if left == 0 else "last_player" if left == 1 else None
    assert result["end"] == want_end
    if want_end == "void":
        assert result["net"] == [0] * hand.num_seats
    return checked


SEATS_PER_VARIANT = 2000


@pytest.mark.parametrize("name", NAMES)
def test_named_variant_values_match_the_brute_force(name: str) -> None:
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    seats = 0
    while seats < SEATS_PER_VARIANT:
        n = int(rng.integers(3, 8))
        stacks = [100] * n
        if n > 3 and rng.random() < 0.2:
            stacks[int(rng.integers(n))] = 0  # a seat that cannot enter is skipped
        rules = Rules(variant=name, num_players=n)
        hand = Hand.deal(rules, stacks, int(rng.integers(n)), rng)
        seats += check_deal_values(hand, TEXT_SPECS[name])


# Hand-worked values, mostly for cases random deals rarely reach.
WORKED: list[tuple[str | dict[str, Any], str, str, str, dict[str, str] | None, str]] = [
    # (variant, private, community, indicators, chosen, the made hand it is worth)
    ("seven_joker", "7c 3s 3h", "", "", None, "3s 3h 3d"),
    ("seven_joker", "7c 7s 7h", "", "", None, "As Ah Ad"),
    # W3: 7 + A + 3 is the run A-2-3, the wild standing for a (never wild) two.
    ("seven_joker_two_burst", "7c As 3h", "", "", None, "As 2d 3h"),
    ("seven_joker_two_burst", "7c As 3s", "", "", None, "As 2s 3s"),
    ("ak47", "4s 7h 2c", "", "", None, "2s 2h 2c"),
    ("ak47", "As Kd Qh", "", "", None, "Qs Qd Qh"),
    # S1: the seat's lowest rank is wild; a pair of it gives two wilds.
    ("personal_joker", "2s 2h Ad Kc", "", "", None, "As Ah Ad"),
    ("personal_joker", "Qs Qh Qd 3c", "", "", None, "Qs Qh Qd"),
    ("personal_joker", "As Ah Ad Ac", "", "", None, "As Ah Ad"),
    ("personal_joker", "9s Th Jd 8c", "", "", None, "Qs Jd Th"),
    # D3: the indicator is out of play; the other cards of its rank are wild.
    ("joker", "9h 5c 5d", "", "9s", None, "5s 5c 5d"),
    ("joker_galore", "Kh 2d 9s", "", "5h", None, "9s 9h 9d"),
    ("joker_galore", "Kh 2d 9s", "", "5c", None, "Kh Ks 2d"),
    # S3: ace and two make 3..K wild; ace and king make none; adjacent or equal none.
    ("middle_jokers", "4c 5h Jd", "", "3s 6d", None, "Js Jh Jd"),
    ("middle_jokers", "Kc 3h Ah", "", "Ad 2c", None, "As Ah Ad"),
    ("middle_jokers", "Kc 3h 2d", "", "Ad 2c", None, "2s 2h 2d"),
    ("middle_jokers", "Qc 3h 2d", "", "Ad Kc", None, "Qc 3h 2d"),
    ("middle_jokers", "Qc 3h 2d", "", "5d 6c", None, "Qc 3h 2d"),
    ("middle_jokers", "Qc 3h 2d", "", "5d 5c", None, "Qc 3h 2d"),
    ("open_joker", "5s 3h", "Kd", "", {"rank": "5"}, "Ks Kd 3h"),
    ("open_joker", "Qs Js", "5d", "", {"rank": "5"}, "Ks Qs Js"),
    ("open_joker", "Qs Js", "Td", "", {"rank": "10"}, "Ks Qs Js"),
    ("colour_jokers", "Qh Qd 2s", "", "", {"colour": "black"}, "Qh Qd Qs"),
    ("shared_pair", "Kh 2c 7d", "Ks Kd", "", None, "Kh Ks Kd"),
    ("one_open_card", "Qs Kd", "Jc", "", None, "Qs Kd Jc"),
    ("imagine_one", "As Ks", "", "", None, "As Ks Qs"),
    ("imagine_one", "9h 9d", "", "", None, "9h 9d 9s"),
    ("four_card", "As Ks Qs 2d", "", "", None, "As Ks Qs"),
    ("muflis", "2s 3d 5c", "", "", None, "2s 3d 5c"),
    # W4: three wilds under lowball are 5-3-2 of mixed suits.
    ({"lowball": True, "wild": [{"ranks": ["7"]}]}, "7s 7h 7d", "", "", None, "5s 3h 2d"),
    ({"lowball": True, "wild": [{"ranks": ["7"]}]}, "Ks Qs 7d", "", "", None, "Ks Qs 2d"),
    # W5: a community card of the seat's own lowest rank is wild for that seat.
    ({"community_cards": 1, "wild": ["personal_lowest"]}, "4s 9h Jd", "4c", "", None,
     "Js Jh Jd"),
    # B2: a card of the burst rank is never wild, whatever its colour.
    ({"wild": ["indicator_colour"], "burst_rank": "9"}, "Ks 9h 4c", "", "2d", None,
     "Ks 9h 4c"),
    ({"wild": ["indicator_colour"], "burst_rank": "9"}, "Ks 9h 4d", "", "2d", None,
     "Ks 9h Kd"),
    # B1, B2: a community card of the burst rank is an ordinary card, never wild: with
    # the wild 7 it makes the pure run 4-3-2 of clubs.
    ({"community_cards": 1, "burst_rank": "2", "wild": [{"ranks": ["2", "7"]}]},
     "Ks 7h 4c", "2c", "", None, "4c 3c 2c"),
    ({"community_cards": 1, "burst_rank": "2", "wild": [{"ranks": ["2", "7"]}]},
     "Ks 7h 4c", "2d", "", None, "4c 3d 2d"),
    # W6: the imaginary card may not repeat the seat's own cards, but may be an indicator.
    ({"private_cards": 2, "imagined_card": True, "wild": ["indicator_rank"]}, "As Ks", "",
     "Qs", None, "As Ks Qs"),
]  # fmt: skip


def spec_of(variant: str | dict[str, Any]) -> dict[str, Any]:
    """A text spec for a variant name or an engine spec dict (used by the worked cases)."""
    if isinstance(variant, str):
        return full(TEXT_SPECS[variant])
    out = full({})
    keys = {"private_cards": "private", "community_cards": "community",
            "open_private_cards": "open", "imagined_card": "imagined",
            "burst_rank": "burst", "visibility": "visibility", "lowball": "lowball"}  # fmt: skip
    for key, value in variant.items():
        if key == "wild":
            out["wild"] = [
                w if isinstance(w, str) else ("ranks", "".join(w["ranks"])) for w in value
            ]
        else:
            out[keys[key]] = value
    return out


def seat_cards(rules: Rules, private: list[str], taken: set[str]) -> list[list[str]]:
    """Three seats: the seat under test first, the others from unused cards."""
    free = [c for c in ALL_CARDS if c not in taken and c[0] not in "2"]
    k = rules.spec.private_cards
    return [private, free[:k], free[k : 2 * k]]


@pytest.mark.parametrize(("variant", "private", "community", "indicators", "chosen", "made"),
                         WORKED)  # fmt: skip
def test_worked_values(
    variant: str | dict[str, Any],
    private: str,
    community: str,
    indicators: str,
    chosen: dict[str, str] | None,
    made: str,
) -> None:
    spec = spec_of(variant)
    p, c, i = private.split(), community.split(), indicators.split()
    want = text_value(spec, p, c, i, chosen)
    lowball = spec["lowball"]
    assert want == evaluate_hand(made, Rules(lowball=lowball)), "the hand-worked value"
    rules = Rules(variant=variant, num_players=3)
    cards = seat_cards(rules, p, set(p + c + i))
    hand = Hand(rules, cards, None, 2, community=c or None, indicators=i or None, chosen=chosen)
    assert hand.hand_value(0) == want


def random_spec(rng: np.random.Generator) -> dict[str, Any]:
    """A random family special of the part-one components (VARIANTS "Components")."""
    while True:
        private = int(rng.choice([2, 3, 4]))
        community = int(rng.choice([0, 1, 2]))
        imagined = bool(rng.random() < 0.3)
        if private + community + imagined >= 3:
            break
    sources: list[Any] = []
    pool = ["indicator_rank", "indicator_colour", "middle", "personal_lowest", "ranks",
            rng.choice(["chosen_rank", "chosen_colour"])]  # fmt: skip
    for kind in rng.permutation(pool):
        if rng.random() < 0.3:
            if kind == "ranks":
                picked = rng.choice(list(RANKS), size=int(rng.integers(1, 4)), replace=False)
                sources.append(("ranks", "".join(sorted(picked))))
            else:
                sources.append(str(kind))
    burst = rng.choice([None, None, "indicator", str(rng.choice(list(RANKS)))])
    open_cards = 2 if private > 2 and rng.random() < 0.3 else 0
    visibility = "all_open" if not open_cards and rng.random() < 0.2 else "normal"
    return {
        "private": private,
        "community": community,
        "open": open_cards,
        "imagined": imagined,
        "wild": sources,
        "burst": burst,
        "visibility": visibility,
        "lowball": bool(rng.random() < 0.3),
    }


def test_family_specials_values_match_the_brute_force() -> None:
    """The same brute force on random combinations of the components (W1-W7, S1, B1, B2)."""
    rng = np.random.default_rng(2024)
    seats = 0
    for _ in range(250):
        spec = random_spec(rng)
        n = int(rng.integers(3, 8))
        best_sequence = str(rng.choice(["AKQ", "A23"]))
        rules = Rules(
            variant=engine_spec(spec),
            num_players=n,
            best_sequence=best_sequence,
            lowball=bool(rng.random() < 0.2),
        )
        for _ in range(2):
            hand = Hand.deal(rules, [100] * n, int(rng.integers(n)), rng)
            seats += check_deal_values(hand, spec, best_sequence)
    assert seats > 1000


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


def test_every_named_variant_has_a_history() -> None:
    assert set(HISTORIES) == set(TEXT_SPECS)


@pytest.mark.parametrize("name", NAMES)
def test_full_hand_history(name: str) -> None:
    cards, extra, actions, winner = HISTORIES[name]
    h = history(name, cards, extra, actions)
    # The hand-worked winner agrees with the valuation of the text (brute force).
    spec = TEXT_SPECS[name]
    values = [
        text_value(
            spec, c.split(), extra.get("community", []), extra.get("indicators", []),
            extra.get("chosen"),
        )
        for c in cards
    ]  # fmt: skip
    loser = 1 - winner
    assert values[winner] > values[loser] or (winner == 0 and values[0] == values[1])
    result = replay(h)
    assert result["end"] == "show"
    assert result["over"] is True
    assert result["payouts"] == SHOW_WON[winner]["payouts"]
    assert result["net"] == SHOW_WON[winner]["net"]
    assert result["stacks"] == SHOW_WON[winner]["stacks"]
    assert result["shown"] == {0: cards[0].split(), 1: cards[1].split()}
    burst = actions is BURST_ACTIONS
    assert result["burst"] == [False, False, burst]
    assert result["packed"] == [False, False, True]
    assert result["pot"] == 0 and result["to_act"] is None and result["legal"] == []
    # The same actions on Hand(...) directly give the same result.
    hand = hand_of(h)
    if burst:  # seat 2 burst before any betting: packed, never to act
        start = hand.result()
        assert start["burst"] == [False, False, True] and start["packed"] == [False, False, True]
        assert start["to_act"] == 1 and hand.legal_actions(2) == []
        assert {"type": "burst", "seats": [2]} in hand.public_events()
    for action in actions:
        hand.apply(action)
    assert hand.result() == result
    assert hand.hand_value(0) == values[0] and hand.hand_value(1) == values[1]


def burst_history(name: str, cards: list[str]) -> dict[str, Any]:
    return history(name, cards, {}, [])


@pytest.mark.parametrize("name", ["two_burst", "seven_joker_two_burst"])
def test_every_seat_bursts_void(name: str) -> None:
    """B4: nobody left after burst: void, every chip back, net all 0."""
    h = burst_history(name, ["2s Ad Kd", "7h 2h 9c", "Qc Jc 2d"])
    h["stacks"] = [50, 100, 7]
    result = replay(h)
    assert result["end"] == "void"
    assert result["net"] == [0, 0, 0]
    assert result["payouts"] == [1, 1, 1]
    assert result["stacks"] == [50, 100, 7]
    assert result["shown"] == {}
    assert result["burst"] == [True, True, True]
    assert result["to_act"] is None and result["legal"] == []
    hand = hand_of(h)
    assert hand.result() == result
    burst_events = [e for e in hand.public_events() if e["type"] == "burst"]
    assert len(burst_events) == 1 and sorted(burst_events[0]["seats"]) == [0, 1, 2]
    with pytest.raises(IllegalActionError):
        replay({**h, "actions": [act(1, "pack")]})


@pytest.mark.parametrize("name", ["two_burst", "seven_joker_two_burst"])
def test_all_but_one_burst_last_player(name: str) -> None:
    """B4: one seat left takes the pot unseen, before any action."""
    h = burst_history(name, ["Ks Ad 4d", "7h 2h 9c", "Qc Jc 2d", "2s 3s 5s"])
    result = replay(h)
    assert result["end"] == "last_player"
    assert result["payouts"] == [4, 0, 0, 0]
    assert result["net"] == [3, -1, -1, -1]
    assert result["stacks"] == [103, 99, 99, 99]
    assert result["shown"] == {}
    assert result["burst"] == [False, True, True, True]
    assert result["seen"] == [False, False, False, False]
    assert result["to_act"] is None
    assert hand_of(h).result() == result
    with pytest.raises(IllegalActionError):
        replay({**h, "actions": [act(0, "look")]})


def test_natural_and_wild_hands_tie_in_a_show() -> None:
    """W7: 7-7-3 (two wilds: a trail of threes) equals the natural 3-3-3; the show asker
    (seat 1) loses the tie."""
    cards = ["7c 7d 3c", "3s 3h 3d", "9c 8h 6d"]
    result = replay(history("seven_joker", cards, {}, SHOW_ACTIONS))
    assert result["end"] == "show"
    assert result["payouts"] == SHOW_WON[0]["payouts"]
    assert result["net"] == SHOW_WON[0]["net"]
    assert result["stacks"] == SHOW_WON[0]["stacks"]


def test_natural_and_wild_hands_split_a_showdown() -> None:
    """W7 and RULES 5: the three boots reach pot_cap 3, a showdown at once; the equal
    trails of threes split 3 chips, the odd chip to seat 1 (first from the dealer's left)."""
    h = history("seven_joker", ["7c 7d 3c", "3s 3h 3d", "9c 8h 6d"], {}, [])
    h["rules"] = {"variant": "seven_joker", "pot_cap": 3}
    result = replay(h)
    assert result["end"] == "showdown"
    assert result["payouts"] == [1, 2, 0]
    assert result["net"] == [0, 1, -1]
    assert result["stacks"] == [100, 101, 99]
    assert result["shown"] == {0: ["7c", "7d", "3c"], 1: ["3s", "3h", "3d"],
                               2: ["9c", "8h", "6d"]}  # fmt: skip


def test_burst_then_boots_at_the_cap_is_a_showdown() -> None:
    """B5: burst first, then RULES 2's at-once checks: four boots reach pot_cap 4, seat 3
    bursts, the other three are shown; the trail of kings takes the 4 chips."""
    h = history("two_burst", ["As Ah Kd", "Ks Kh Kc", "9c 8h 6d", "2c Qd Jd"], {}, [])
    h["rules"] = {"variant": "two_burst", "pot_cap": 4}
    result = replay(h)
    assert result["end"] == "showdown"
    assert result["payouts"] == [0, 4, 0, 0]
    assert result["net"] == [-1, 3, -1, -1]
    assert result["stacks"] == [99, 103, 99, 99]
    assert result["shown"] == {0: ["As", "Ah", "Kd"], 1: ["Ks", "Kh", "Kc"],
                               2: ["9c", "8h", "6d"]}  # fmt: skip
    assert result["burst"] == [False, False, False, True]
    assert hand_of(h).result() == result


def test_burst_leaves_one_seat_able_to_bet() -> None:
    """B5: seat 0 is all-in from its boot, seat 2 bursts: only seat 1 can bet, so the two
    left are shown at once; seat 0's pair of aces takes the 3 chips (one slice of 1 each)."""
    h = history("two_burst", ["As Ah Kd", "Ks Qh 9c", "2c Qd Jd"], {}, [])
    h["stacks"] = [1, 100, 100]
    result = replay(h)
    assert result["end"] == "showdown"
    assert result["payouts"] == [3, 0, 0]
    assert result["net"] == [2, -1, -1]
    assert result["stacks"] == [3, 99, 99]
    assert result["shown"] == {0: ["As", "Ah", "Kd"], 1: ["Ks", "Qh", "9c"]}
    assert result["burst"] == [False, False, True]
    assert hand_of(h).result() == result


def test_void_hand_refunds_all_in_boots() -> None:
    """B4: seats all-in from their boots that burst get their boot back; none stays
    all-in."""
    h = history("two_burst", ["2s Ad Kd", "7h 2h 9c", "Qc Jc 2d"], {}, [])
    h["stacks"] = [1, 5, 1]
    result = replay(h)
    assert result["end"] == "void"
    assert result["payouts"] == [1, 1, 1]
    assert result["net"] == [0, 0, 0]
    assert result["stacks"] == [1, 5, 1]
    assert result["all_in"] == [False, False, False]


def test_void_hand_counts_and_passes_the_deal() -> None:
    """B4: a void hand counts toward max_hands and passes the deal."""
    session = Session(Rules(variant="two_burst", num_players=3, max_hands=2), seed=1)
    hand = session.new_hand([["2s", "Ad", "Kd"], ["7h", "2h", "9c"], ["Qc", "Jc", "2d"]], dealer=0)
    assert hand.over and hand.end == "void"
    assert session.hands_played == 1
    assert session.stacks == [100, 100, 100]
    assert session.history[0]["end"] == "void"
    assert session.history[0]["net"] == [0, 0, 0]
    assert not session.over
    assert session.new_hand().dealer == 1
    while not session.hand.over:  # type: ignore[union-attr]
        session.hand.pack()  # type: ignore[union-attr]
    assert session.over and session.hands_played == 2


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


@pytest.mark.parametrize("name", NAMES)
def test_history_saved_mid_hand_continues_identically(name: str) -> None:
    cards, extra, actions, _ = HISTORIES[name]
    h = history(name, cards, extra, actions)
    for cut in range(len(actions) + 1):
        hand = hand_of(h)
        for action in actions[:cut]:
            hand.apply(action)
        restored = Hand.from_dict(json.loads(json.dumps(hand.to_dict())))
        assert views(restored) == views(hand)
        for action in actions[cut:]:
            hand.apply(action)
            restored.apply(action)
        assert views(restored) == views(hand)
        assert restored.result() == replay(h)


@pytest.mark.parametrize("name", NAMES)
def test_random_hands_saved_mid_hand_continue_identically(name: str) -> None:
    rng = np.random.default_rng(zlib.crc32(name.encode()) + 1)
    for _ in range(12):
        n = int(rng.integers(3, 8))
        rules = Rules(variant=name, num_players=n, sideshow_reveal="private")
        stacks = [int(rng.integers(3, 40)) for _ in range(n)]
        hand = Hand.deal(rules, stacks, 0, rng)
        played: list[dict[str, Any]] = []
        snapshots: list[str] = []
        steps = 0
        while not hand.over and steps < 60:
            snapshots.append(json.dumps(hand.to_dict()))
            action = random_action(hand, rng)
            hand.apply(action)
            played.append(action)
            steps += 1
        cut = int(rng.integers(len(snapshots) + 1)) if snapshots else 0
        if cut == len(snapshots):
            restored = Hand.from_dict(json.loads(json.dumps(hand.to_dict())))
        else:
            restored = Hand.from_dict(json.loads(snapshots[cut]))
            for action in played[cut:]:
                restored.apply(action)
        assert views(restored) == views(hand)
        # A replay of the same actions from the dealt hand gives the same result too.
        saved = hand.to_dict()
        h = {
            "rules": {"variant": name, "sideshow_reveal": "private"},
            "dealer": 0,
            "cards": saved["cards"],
            "stacks": stacks,
            **{k: saved[k] for k in ("community", "indicators", "chosen") if k in saved},
            "actions": played,
        }
        assert replay(h) == hand.result()


# ---------------------------------------------------------------- validation


@pytest.mark.parametrize(
    "variant",
    [
        # cannot make three cards
        {"private_cards": 2},
        # open_private_cards >= private_cards
        {"private_cards": 2, "community_cards": 1, "open_private_cards": 2},
        # all_open with open cards
        {"visibility": "all_open", "open_private_cards": 2},
        # unknown component, unknown value, unknown wild source
        {"jokers": 2},
        {"private_cards": 5},
        {"community_cards": 3},
        {"open_private_cards": 1},
        {"visibility": "open"},
        {"wild": ["purple"]},
        {"wild": [{"ranks": ["1"]}]},
        {"wild": [{"ranks": []}]},
        {"burst_rank": "11"},
        # thresholds not strictly increasing positive ints
        {"wild": [{"thresholds": [10, 10, 30]}]},
        {"wild": [{"thresholds": [20, 10]}]},
        {"wild": [{"thresholds": [0, 10]}]},
        {"wild": [{"thresholds": [1.5, 10]}]},
        # a wild source listed twice; two chosen sources
        {"wild": ["middle", "middle"]},
        {"wild": ["chosen_rank", "chosen_colour"]},
        # a family special named like a preset or a built-in variant (C2)
        {"name": "pagat", "spec": {"lowball": True}},
        {"name": "flash", "spec": {"private_cards": 4}},
        {"name": "classic", "spec": {"lowball": True}},
        {"name": "muflis", "spec": {"private_cards": 4}},
        {"name": "pagat", "lowball": True},
        {"name": "classic", "lowball": True},
        # a {"name", "spec"} with anything else
        {"name": "mine", "spec": {}, "extra": 1},
        "no_such_variant",
    ],
)
def test_bad_specs_are_rejected(variant: Any) -> None:
    with pytest.raises(ValueError):
        Rules(variant=variant)


@pytest.mark.parametrize(
    "variant",
    [
        {"name": "muflis", "private_cards": 4},
        {"name": "ak47", "lowball": True},
        {"name": 5, "lowball": True},  # a name that is not a string
        {"name": ["x"], "lowball": True},  # today a TypeError, not a ValueError
    ],
)
def test_flat_spec_named_like_a_built_in_variant_is_rejected(variant: dict[str, Any]) -> None:
    # Today Rules(variant=variant) is accepted and Rules.from_dict(rules.to_dict()) then
    # raises "'muflis' is the name of a built-in variant".
    with pytest.raises(ValueError):
        Rules(variant=variant)


def test_cards_needed_against_the_deck() -> None:
    """C2: a spec needing more than 52 cards at num_players is rejected.

    With the part-one components a deal never needs more than 52 cards: 7 seats of 4 cards,
    2 community cards and four indicators (middle two, rank, colour) plus a burst indicator
    is 28 + 2 + 5 = 35; that largest spec plays.
    """
    biggest = {
        "private_cards": 4,
        "community_cards": 2,
        "wild": ["middle", "indicator_rank", "indicator_colour"],
        "burst_rank": "indicator",
    }
    rules = Rules(variant=biggest, num_players=7)
    hand = Hand.deal(rules, [100] * 7, 3, np.random.default_rng(0))
    saved = hand.to_dict()
    dealt = [c for cards in saved["cards"] for c in cards]
    dealt += saved["community"] + saved["indicators"]
    assert len(dealt) == len(set(dealt)) == 35
    assert len(saved["indicators"]) == 5
    # Thresholds add one indicator each: 7 * 4 + 2 + 23 = 53 > 52 is refused (for now part
    # 2 refuses thresholds at all, also a ValueError).
    too_many = {**biggest, "wild": [{"thresholds": list(range(1, 24))}], "burst_rank": None}
    assert 7 * 4 + 2 + 23 > 52
    with pytest.raises(ValueError):
        Rules(variant=too_many, num_players=7)


def test_good_family_special_round_trips() -> None:
    mine = {"name": "my_game", "spec": {"private_cards": 4, "wild": ["middle"]}}
    rules = Rules(variant=mine)
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    assert rules.to_dict()["variant"]["name"] == "my_game"


def base(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    cards, extra, actions, _ = HISTORIES[name]
    return history(name, cards, extra, actions), actions


def with_fields(name: str, **changes: Any) -> dict[str, Any]:
    h, _ = base(name)
    for key, value in changes.items():
        if value is None:
            h.pop(key, None)
        else:
            h[key] = value
    return h


BAD_HISTORIES = [
    # missing or wrong counts of community cards and indicators (H2)
    ("shared_pair", {"community": None}),
    ("shared_pair", {"community": ["Ks"]}),
    ("shared_pair", {"community": ["Ks", "Kd", "Ac"]}),
    ("one_open_card", {"community": None}),
    ("open_joker", {"community": None}),
    ("classic", {"community": ["Ks"]}),
    ("joker", {"indicators": None}),
    ("joker", {"indicators": ["9s", "Td"]}),
    ("joker_galore", {"indicators": None}),
    ("middle_jokers", {"indicators": ["3s"]}),
    ("middle_jokers", {"indicators": None}),
    ("classic", {"indicators": ["9s"]}),
    ("seven_joker", {"indicators": ["9s"]}),
    ("joker", {"indicators": "9s"}),
    # chosen: required exactly when needed, of the right kind (H3)
    ("open_joker", {"chosen": None}),
    ("open_joker", {"chosen": {"colour": "red"}}),
    ("open_joker", {"chosen": {"rank": "1"}}),
    ("open_joker", {"chosen": {"rank": "5", "colour": "red"}}),
    ("colour_jokers", {"chosen": None}),
    ("colour_jokers", {"chosen": {"colour": "green"}}),
    ("colour_jokers", {"chosen": {"rank": "5"}}),
    ("classic", {"chosen": {"rank": "7"}}),
    ("joker", {"chosen": {"colour": "red"}}),
    # a card in two places
    ("shared_pair", {"community": ["Kh", "Kd"]}),
    ("shared_pair", {"community": ["Ks", "Ks"]}),
    ("joker", {"indicators": ["9h"]}),
    ("open_joker", {"community": ["5s"]}),
    ("middle_jokers", {"indicators": ["6d", "6d"]}),
    ("shared_pair", {"cards": [["Kh", "2c", "7d"], ["As", "Ad", "Qh"], ["Ks", "8h", "6d"]]}),
    # wrong private counts (H1)
    ("imagine_one", {"cards": [["As", "Ks", "Qs"], ["9h", "9d"], ["4c", "6h"]]}),
    ("four_card", {"cards": [["As", "Ks", "Qs"], ["3h", "3d", "3c"], ["9c", "8h", "6d"]]}),
    ("classic", {"cards": [["As", "Ks"], ["3h", "3d", "3c"], ["9c", "8h", "6d"]]}),
]


@pytest.mark.parametrize(("name", "changes"), BAD_HISTORIES)
def test_bad_histories_are_value_errors(name: str, changes: dict[str, Any]) -> None:
    h = with_fields(name, **changes)
    with pytest.raises(ValueError):
        replay(h)


def rest_of_deck(h: dict[str, Any]) -> list[str]:
    used = {c for cards in h["cards"] for c in cards}
    used |= set(h.get("community", [])) | set(h.get("indicators", []))
    return [c for c in ALL_CARDS if c not in used]


@pytest.mark.parametrize("name", ["classic", "shared_pair", "joker", "middle_jokers"])
def test_deck_field(name: str) -> None:
    """H2: ``deck`` lists every other card exactly once."""
    h, _ = base(name)
    deck = rest_of_deck(h)
    assert replay({**h, "deck": deck}) == replay(h)
    for bad in (
        deck[:-1],  # a card missing
        [*deck, deck[0]],  # a card repeated
        [*deck[:-1], deck[0]],  # repeated, so one missing
        [*deck[:-1], h["cards"][0][0]],  # a dealt card in the deck
        [*deck, h["cards"][0][0]],
        [*deck[:-1], "Zz"],
        "As",
    ):
        with pytest.raises(ValueError):
            replay({**h, "deck": bad})
    extra = h.get("community", []) + h.get("indicators", [])
    for card in extra:
        with pytest.raises(ValueError):
            replay({**h, "deck": [*deck[:-1], card]})


# ---------------------------------------------------------------- what each seat knows


def public_cards(hand: Hand) -> tuple[list[str], list[str]]:
    table = [e for e in hand.public_events() if e["type"] == "table_cards"]
    if not table:
        return [], []
    assert len(table) == 1
    return table[0].get("community", []), table[0].get("indicators", [])


def check_two_cards_open(hand: Hand, cards: list[list[str]]) -> None:
    """D5: every viewer (blind or not, packed or not) knows each seat's first two cards;
    a seat's third card only to itself once it looked, or to all once shown."""
    seats = range(hand.num_seats)
    seen = hand.result()["seen"]
    for viewer in [None, *seats]:
        known = hand.known_cards(viewer)
        for seat in seats:
            full_view = (seat == viewer and seen[seat]) or seat in hand.shown
            want = cards[seat] if full_view else cards[seat][:2]
            assert known.get(seat) == want, (viewer, seat, known)
    for seat in seats:
        assert hand.knows_own_hand(seat) == (seen[seat] or seat in hand.shown)
        opens = [e for e in hand.events_for(seat) if e["type"] == "open_cards"]
        assert {e["seat"]: e["cards"] for e in opens} == {s: cards[s][:2] for s in seats}


def test_two_cards_open_visibility() -> None:
    """D5, V3 on random hands: looks on and off turn, packs, shows, showdowns."""
    rng = np.random.default_rng(7)
    for _ in range(20):
        n = int(rng.integers(3, 8))
        rules = Rules(variant="two_cards_open", num_players=n, look_anytime=True)
        hand = Hand.deal(rules, [100] * n, int(rng.integers(n)), rng)
        cards = hand.to_dict()["cards"]
        check_two_cards_open(hand, cards)
        while not hand.over:
            for seat in range(n):
                if hand.is_legal({"seat": seat, "type": "look"}) and rng.random() < 0.3:
                    hand.look(seat)
                    check_two_cards_open(hand, cards)
            if not hand.over:
                hand.apply(random_action(hand, rng))
                check_two_cards_open(hand, cards)


def test_two_cards_open_after_a_blind_pack() -> None:
    """D5: a seat that packs blind still shows its two open cards to all (itself too),
    and nobody ever learns its third card."""
    cards = [["Ah", "Kh", "Qh"], ["Ts", "Th", "Td"], ["9c", "8h", "6d"]]
    hand = Hand(Rules(variant="two_cards_open", num_players=3), cards, None, 0)
    hand.apply(act(1, "pack"))  # seat 1, blind
    hand.apply(act(2, "look"))
    hand.apply(act(2, "pack"))  # seat 2, seen
    assert hand.result()["end"] == "last_player" and hand.shown == {}
    for viewer in (None, 0, 1, 2):
        known = hand.known_cards(viewer)
        assert known[1] == ["Ts", "Th"]
        assert known[0] == ["Ah", "Kh"]
        assert known[2] == (cards[2] if viewer == 2 else ["9c", "8h"])
    assert [hand.knows_own_hand(s) for s in range(3)] == [False, False, True]


def check_all_open(hand: Hand, cards: list[list[str] | None]) -> None:
    """V1, V2: every dealt-in seat knows every other dealt-in seat's cards (packed too)
    and its own only once the hand is over; the public only what was shown."""
    dealt = [s for s in range(hand.num_seats) if hand.dealt_in[s]]
    for viewer in dealt:
        want = {s: cards[s] for s in dealt if s != viewer}
        if hand.over:
            want[viewer] = cards[viewer]
        assert hand.known_cards(viewer) == want, viewer
        assert hand.knows_own_hand(viewer) == hand.over
    assert hand.known_cards(None) == {s: cards[s] for s in hand.shown}


def test_all_open_visibility() -> None:
    """V1, V2 on random hands: looking changes only the price, never shows own cards."""
    rng = np.random.default_rng(11)
    for _ in range(25):
        n = int(rng.integers(4, 8))
        stacks = [100] * n
        out = int(rng.integers(n))
        stacks[out] = 0  # not dealt in: nobody sees its (absent) cards
        rules = Rules(variant="all_open", num_players=n, sideshow_reveal="private")
        hand = Hand.deal(rules, stacks, int(rng.integers(n)), rng)
        cards = hand.to_dict()["cards"]
        assert cards[out] is None
        check_all_open(hand, cards)
        while not hand.over:
            for seat in range(n):
                if hand.is_legal({"seat": seat, "type": "look"}) and rng.random() < 0.4:
                    hand.look(seat)
                    check_all_open(hand, cards)
            if not hand.over:
                hand.apply(random_action(hand, rng))
                check_all_open(hand, cards)


def test_all_open_private_sideshow_reveals_nothing_own() -> None:
    """V2: never at a private sideshow."""
    cards = [["2s", "3d", "5c"], ["Kh", "Kd", "4s"], ["9c", "8h", "6d"], ["Ah", "Jd", "7s"]]
    rules = Rules(variant="all_open", num_players=4, sideshow_reveal="private")
    hand = Hand(rules, cards, None, 0)
    for seat in (1, 2):
        hand.look(seat)
    hand.bet(2)  # seat 1, seen
    hand.apply({"seat": 2, "type": "sideshow", "amount": 2})  # asks seat 1
    assert hand.to_act == 1
    hand.accept()
    for viewer in (1, 2):
        assert viewer not in hand.known_cards(viewer)
        assert not hand.knows_own_hand(viewer)
        assert hand.known_cards(viewer) == {s: cards[s] for s in range(4) if s != viewer}


@pytest.mark.parametrize("name", ["two_burst", "seven_joker_two_burst"])
def test_burst_is_public_and_nothing_else(name: str) -> None:
    """B3: every seat learns which seats burst and nothing else."""
    rng = np.random.default_rng(3)
    saw_burst = 0
    for _ in range(60):
        n = int(rng.integers(3, 8))
        hand = Hand.deal(Rules(variant=name, num_players=n), [100] * n, 0, rng)
        cards = hand.to_dict()["cards"]
        burst = [s for s in range(n) if any(c[0] == "2" for c in cards[s])]
        events = [e for e in hand.public_events() if e["type"] == "burst"]
        if not burst:
            assert events == []
            continue
        saw_burst += 1
        assert len(events) == 1
        assert set(events[0]) == {"type", "seats"}
        assert sorted(events[0]["seats"]) == burst
        assert hand.result()["burst"] == [s in burst for s in range(n)]
        for viewer in [None, *range(n)]:
            assert hand.known_cards(viewer) == {}  # nobody looked, nothing shown
            if viewer is not None:
                assert any(e["type"] == "burst" for e in hand.events_for(viewer))
    assert saw_burst > 10


@pytest.mark.parametrize(
    "name", ["shared_pair", "one_open_card", "open_joker", "joker", "joker_galore",
             "middle_jokers", "colour_jokers"]
)  # fmt: skip
def test_public_cards_are_public_and_never_private(name: str) -> None:
    """V1, V3, W8: community cards, indicators and the chosen value are in the public
    events from the deal; no seat's known cards (nor ``shown``) ever include them."""
    rng = np.random.default_rng(5)
    spec = full(TEXT_SPECS[name])
    for _ in range(15):
        n = int(rng.integers(3, 8))
        hand = Hand.deal(Rules(variant=name, num_players=n), [100] * n, 1, rng)
        saved = hand.to_dict()
        community, indicators = public_cards(hand)
        assert community == saved.get("community", [])
        assert indicators == saved.get("indicators", [])
        assert len(community) == spec["community"]
        assert len(indicators) == indicator_count(spec)
        table = next(e for e in hand.public_events() if e["type"] == "table_cards")
        assert table.get("chosen") == saved.get("chosen")
        public = set(community) | set(indicators)
        while not hand.over:
            hand.apply(random_action(hand, rng))
        for viewer in [None, *range(n)]:
            if viewer is not None:
                assert table in hand.events_for(viewer)
            for seat, cards in hand.known_cards(viewer).items():
                assert cards == saved["cards"][seat]
                assert not public & set(cards)
        for seat, cards in hand.shown.items():
            assert cards == saved["cards"][seat]


# ---------------------------------------------------------------- the deal (D1, S2)


@pytest.mark.parametrize("name", NAMES)
def test_deal_order(name: str) -> None:
    spec = full(TEXT_SPECS[name])
    for seed in range(8):
        n = 3 + seed % 5
        dealer = seed % n
        stacks = [100] * n
        if seed % 3 == 1:
            stacks[(dealer + 2) % n] = 0  # sits out: skipped in the deal
        hand = Hand.deal(Rules(variant=name, num_players=n), stacks, dealer,
                         np.random.default_rng(seed))  # fmt: skip
        saved = hand.to_dict()
        # Reproduce: the chosen value first (S2), then one shuffled deck (D1).
        rng = np.random.default_rng(seed)
        chosen = None
        if "chosen_rank" in kinds(spec):
            chosen = {"rank": RANKS[int(rng.integers(13))]}
        elif "chosen_colour" in kinds(spec):
            chosen = {"colour": ("red", "black")[int(rng.integers(2))]}
        deck = [format_int(int(i)) for i in rng.permutation(52)]
        entering = [(dealer + 1 + i) % n for i in range(n) if stacks[(dealer + 1 + i) % n] > 0]
        want: list[list[str] | None] = [None] * n
        for seat in entering:
            want[seat] = []
        top = 0
        for _ in range(spec["private"]):
            for seat in entering:
                want[seat].append(deck[top])  # type: ignore[union-attr]
                top += 1
        community = deck[top : top + spec["community"]]
        top += spec["community"]
        indicators = deck[top : top + indicator_count(spec)]
        assert saved["cards"] == want
        assert saved.get("community", []) == community
        assert saved.get("indicators", []) == indicators
        assert saved.get("chosen") == chosen
        assert hand.dealt_in == [stacks[s] > 0 for s in range(n)]


def format_int(card: int) -> str:
    """Card int to text by the documented encoding: rank * 4 + suit (cards.py)."""
    return RANKS[card // 4] + SUITS[card % 4]


def test_chosen_values_are_drawn_uniformly() -> None:
    """S2: every rank and both colours come up, about evenly."""
    ranks = [
        Hand.deal(Rules(variant="open_joker"), [100] * 4, 0, np.random.default_rng(s)).to_dict()[
            "chosen"
        ]["rank"]
        for s in range(650)
    ]
    counts = {r: ranks.count(r) for r in RANKS}
    assert set(counts) == set(RANKS) and min(counts.values()) > 25
    colours = [
        Hand.deal(Rules(variant="colour_jokers"), [100] * 4, 0, np.random.default_rng(s)).to_dict()[
            "chosen"
        ]["colour"]
        for s in range(400)
    ]
    assert 150 < colours.count("red") < 250


def test_parse_cards_helper_is_consistent() -> None:
    assert [format_int(c) for c in parse_cards("As 2s Td")] == ["As", "2s", "Td"]


# ------------------------------------------------------------ review regressions


def test_a_malformed_chosen_colour_is_a_value_error() -> None:
    history = {
        "rules": {"variant": "colour_jokers"},
        "dealer": 0,
        "cards": [["As", "Kd", "2c"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"], ["2h", "2d", "Js"]],
        "actions": [],
    }
    for chosen in ({"colour": ["red"]}, {"colour": {}}, {"colour": 3}, {"colour": "green"}):
        with pytest.raises(ValueError, match="colour"):
            replay({**history, "chosen": chosen})


@pytest.mark.parametrize("name", PHASE_NAMES)
def test_a_family_special_may_not_take_a_part_two_name(name: str) -> None:
    with pytest.raises(ValueError, match="built-in variant"):
        Rules(variant={"name": name, "spec": {"private_cards": 4}})


@pytest.mark.parametrize(
    "wild",
    [
        ("middle",),
        None,
        (WildSource("jokers_everywhere"),),
        (WildSource("ranks", (99,)),),
        (WildSource("ranks", ("7",)),),
        (WildSource("middle", (3,)),),
    ],
)
def test_a_directly_built_spec_is_checked_like_a_dict(wild: Any) -> None:
    with pytest.raises(ValueError):
        Rules(variant=VariantSpec(name="fam", wild=wild))


def test_a_saved_hand_with_a_damaged_action_is_a_value_error() -> None:
    """A saved hand is its history: a damaged action is an illegal history."""
    hand = Hand.deal(Rules(variant="two_cards_open"), [100] * 4, 0, np.random.default_rng(0))
    for damaged in (
        {"type": "reveal", "hands": 5},
        {"type": "look", "seat": 9},
        {"type": "bet", "seat": 1, "amount": 1000},
        {"type": "buy_joker", "seat": 1, "card": "Zz"},
    ):
        data = hand.to_dict()
        data["actions"].append(damaged)
        with pytest.raises(ValueError):
            Hand.from_dict(data)
