"""The named variants' hand values (VARIANTS.md), against an independent brute force
(every three usable cards -- private, community, the imaginary card -- and every
substitution of each wild card) on thousands of dealt hands, and hand-worked values."""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np
import pytest
from builders.variants import (
    ALL_CARDS,
    NAMES,
    PHASE_NAMES,
    RANKS,
    TEXT_SPECS,
    engine_spec,
    full,
    indicator_count,
    kinds,
    rank,
    text_value,
)

from teenpatti_env import Hand, Rules, evaluate_hand, evaluate_hands
from teenpatti_env.rules.variants import VARIANTS


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
