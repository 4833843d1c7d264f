"""Cards and hand ranking (RULES.md section 1), through the public API only."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest

from teenpatti_env import (
    Rules,
    compare_hands,
    evaluate_hand,
    evaluate_hands,
    hand_category,
)
from teenpatti_env.cards import format_card, parse_card, parse_cards

RANKS = "23456789TJQKA"  # api.md: rank index 0..12
SUITS = "shdc"  # api.md: suit index 0..3

CLASSIC = Rules()
A23 = Rules(best_sequence="A23")
LOW = Rules(lowball=True)
LOW_A23 = Rules(lowball=True, best_sequence="A23")


def card_str(c: int) -> str:
    return RANKS[c // 4] + SUITS[c % 4]


# ---------------------------------------------------------------- card text


def test_parse_card_values():
    """RULES 1 / api.md: card int is rank_index*4 + suit_index."""
    assert parse_card("As") == 12 * 4 + 0  # 48
    assert parse_card("2s") == 0
    assert parse_card("2c") == 3
    assert parse_card("Td") == 8 * 4 + 2  # 34
    assert parse_card("Kh") == 11 * 4 + 1  # 45


def test_ten_accepted_as_10():
    """RULES 1: `10` is accepted for `T` on input."""
    assert parse_card("10h") == parse_card("Th") == 8 * 4 + 1
    assert format_card(parse_card("10h")) == "Th"


def test_round_trip_all_cards():
    """RULES 1: text form rank then suit; every card formats and parses back."""
    for c in range(52):
        assert format_card(c) == card_str(c)
        assert parse_card(card_str(c)) == c


@pytest.mark.parametrize("bad", ["1s", "as", "AS", "Zz", "11h", "Ax", "Jo", "A"])
def test_bad_card_text_names_text(bad):
    """RULES 1 / 9: anything else is a clear ValueError naming the bad text."""
    with pytest.raises(ValueError) as exc:
        parse_card(bad)
    assert bad in str(exc.value)


def test_parse_cards_forms_and_duplicates():
    """RULES 9: a card dealt twice is a ValueError."""
    assert parse_cards("As Kd 2c") == (48, 46, 3)
    assert parse_cards(["As", "Kd", "2c"]) == (48, 46, 3)
    with pytest.raises(ValueError):
        parse_cards("As Kd As")
    with pytest.raises(ValueError):
        parse_cards(["10h", "Th", "2c"])


# ------------------------------------------------------------- categories


def test_category_counts_over_all_hands():
    """RULES 1: counts over all 22,100 hands (K-A-2 no sequence, A-2-3 and A-K-Q are)."""
    counts = Counter(hand_category(list(h)) for h in itertools.combinations(range(52), 3))
    assert sum(counts.values()) == 22100
    assert counts == {
        "trail": 52,
        "pure_sequence": 48,
        "sequence": 720,
        "colour": 1096,
        "pair": 3744,
        "high_card": 16440,
    }


@pytest.mark.parametrize(
    "cards, cat",
    [
        ("As Ah Ad", "trail"),
        ("2s 2h 2c", "trail"),
        ("Ah 2h 3h", "pure_sequence"),
        ("Qs Ks As", "pure_sequence"),
        ("4c 3c 2c", "pure_sequence"),
        ("Ah 2d 3h", "sequence"),
        ("Qs Kd Ac", "sequence"),
        ("Ah Kh Jh", "colour"),
        ("Ks Ad 2c", "high_card"),  # RULES 1: sequences do not wrap
        ("Kh Ah 2h", "colour"),  # K-A-2 suited is only a colour
        ("Qs Qh 3d", "pair"),
        ("As Kd 9c", "high_card"),
    ],
)
def test_category_examples(cards, cat):
    """RULES 1: categories; K-A-2 is a high card, A-2-3 is a sequence."""
    assert hand_category(cards) == cat


def test_wrong_number_of_cards():
    """api.md: hand_category takes exactly three cards."""
    with pytest.raises(ValueError):
        hand_category("As Kd")


def test_categories_dominate():
    """RULES 1: any hand of a better category beats any hand of a worse one."""
    all_hands = np.array(list(itertools.combinations(range(52), 3)), dtype=np.int64)
    cats = [hand_category([int(c) for c in h]) for h in all_hands]
    order = ["high_card", "pair", "colour", "sequence", "pure_sequence", "trail"]
    for rules in (CLASSIC, A23):
        vals = evaluate_hands(all_hands, rules)
        lo = {k: min(v for v, c in zip(vals, cats, strict=True) if c == k) for k in order}
        hi = {k: max(v for v, c in zip(vals, cats, strict=True) if c == k) for k in order}
        for worse, better in itertools.pairwise(order):
            assert hi[worse] < lo[better], (worse, better)
    # the worst sequence (4-3-2) beats the best colour (A-K-J suited)
    assert compare_hands("4s 3h 2d", "Ah Kh Jh") == 1
    # the worst trail beats the best pure sequence
    assert compare_hands("2s 2h 2d", "As Ks Qs") == 1


# ------------------------------------------------------------ best_sequence

RUNS_DOWN = ["KQJ", "QJT", "JT9", "T98", "987", "876", "765", "654", "543", "432"]


def _run(ranks: str, suits: str) -> list[str]:
    return [r + s for r, s in zip(ranks, suits, strict=False)]


@pytest.mark.parametrize("suits", ["shd", "hhh"])  # sequence and pure sequence
@pytest.mark.parametrize(
    "rules, top",
    [(CLASSIC, ["AKQ", "A23"]), (A23, ["A23", "AKQ"])],
    ids=["AKQ", "A23"],
)
def test_best_sequence_order(rules, top, suits):
    """RULES 1: AKQ: A-K-Q > A-2-3 > K-Q-J ... > 4-3-2; A23: A-2-3 > A-K-Q > K-Q-J."""
    order = top + RUNS_DOWN
    assert len(order) == 12
    vals = [evaluate_hand(_run(r, suits), rules) for r in order]
    assert all(a > b for a, b in itertools.pairwise(vals)), vals


def test_best_sequence_presets():
    """RULES 8: classic/tabletop AKQ, pagat/flash A23."""
    for name, first in [("classic", 1), ("tabletop", 1), ("pagat", -1), ("flash", -1)]:
        r = Rules.preset(name)
        assert compare_hands("Ah Kd Qc", "As 2d 3c", r) == first


# ------------------------------------------------------------ inside a category


def test_suits_never_break_ties():
    """RULES 1: suits never break a tie."""
    pairs = [
        ("As Kd 9c", "Ah Ks 9d"),
        ("Qs Qh 3d", "Qd Qc 3s"),
        ("Ah Kh Jh", "Ac Kc Jc"),
        ("5s 6s 7s", "5d 6d 7d"),
        ("5s 6h 7s", "5d 6c 7h"),
    ]
    for rules in (CLASSIC, A23, LOW):
        for a, b in pairs:
            assert evaluate_hand(a, rules) == evaluate_hand(b, rules)
            assert compare_hands(a, b, rules) == 0


def test_trail_by_rank():
    """RULES 1: trail by rank; A-A-A best."""
    vals = [evaluate_hand([r + "s", r + "h", r + "d"]) for r in RANKS]
    assert all(a < b for a, b in itertools.pairwise(vals))


@pytest.mark.parametrize(
    "better, worse",
    [
        # colour: highest, then middle, then lowest
        ("Ah 9h 4h", "Ks Qs 9s"),
        ("Kh 9h 5h", "Ks 8s 7s"),
        ("Kh 9h 5h", "Ks 9s 4s"),
        # high card: highest, then middle, then lowest
        ("Ah 9d 4c", "Ks Qh 9d"),
        ("Kh 9d 5c", "Ks 8h 7d"),
        ("Kh 9d 5c", "Ks 9h 4d"),
        # pair: the pair's rank, then the odd card
        ("Qs Qh 2c", "Js Jh Ac"),
        ("Qs Qh 5c", "Qd Qc 4s"),
        ("2s 2h 3c", "Ks Qh 9d"),  # any pair beats any high card
    ],
)
def test_within_category(better, worse):
    """RULES 1: inside a category ordering."""
    for rules in (CLASSIC, A23):
        assert compare_hands(better, worse, rules) == 1
        assert compare_hands(worse, better, rules) == -1
        assert evaluate_hand(better, rules) > evaluate_hand(worse, rules)


# ------------------------------------------------------------------ lowball


def test_lowball_reverses_everything():
    """RULES 1: lowball reverses the whole order, categories included."""
    # worst high card is the best lowball hand; A-A-A is the worst
    assert compare_hands("2s 3h 5d", "As Ah Ad", LOW) == 1
    assert compare_hands("2s 3h 5d", "4s 3h 2d", LOW) == 1  # high card beats sequence
    assert compare_hands("Ks Qh 9d", "2s 2h 3c", LOW) == 1  # high card beats pair
    assert compare_hands("As Ks Qs", "2s 2h 2d", LOW) == 1  # pure seq beats trail
    # best_sequence order reversed too
    assert compare_hands("As 2d 3c", "Ah Kd Qc", LOW) == 1  # AKQ table: A-2-3 is lower
    assert compare_hands("Ah Kd Qc", "As 2d 3c", LOW_A23) == 1


def test_lowball_is_exact_reverse_on_random_pairs():
    """RULES 1: lowball reverses every comparison (ties stay ties)."""
    rnd = random.Random(1234)
    for _ in range(2000):
        cards = rnd.sample(range(52), 6)
        a, b = cards[:3], cards[3:]
        for normal, low in ((CLASSIC, LOW), (A23, LOW_A23)):
            assert compare_hands(a, b, low) == -compare_hands(a, b, normal)


def test_lowball_exhaustive_order_reversed():
    """RULES 1: the sorted order of all hands under lowball is the reverse."""
    all_hands = np.array(list(itertools.combinations(range(52), 3)), dtype=np.int64)
    for normal, low in ((CLASSIC, LOW), (A23, LOW_A23)):
        v = evaluate_hands(all_hands, normal).astype(np.int64)
        w = evaluate_hands(all_hands, low).astype(np.int64)
        # same tie classes, opposite order: v_i < v_j  <=>  w_i > w_j
        idx = np.argsort(v, kind="stable")
        vs, ws = v[idx], w[idx]
        dv, dw = np.diff(vs), np.diff(ws)
        assert np.all((dv == 0) == (dw == 0))
        assert np.all(dw[dv > 0] < 0)


def test_number_of_distinct_values():
    """RULES 1: equal hands (same ranks) get equal values; distinct rank classes differ.

    Classes: 13 trails, 12 pure sequences, 12 sequences, C(13,3)-12 = 274 colours,
    13*12 = 156 pairs, 274 high cards: 741 distinct values.
    """
    all_hands = np.array(list(itertools.combinations(range(52), 3)), dtype=np.int64)
    for rules in (CLASSIC, A23, LOW):
        assert len(np.unique(evaluate_hands(all_hands, rules))) == 13 + 12 + 12 + 274 + 156 + 274


# ------------------------------------------------------------ batch / compare


@pytest.mark.parametrize("rules", [None, CLASSIC, A23, LOW, LOW_A23])
def test_evaluate_hands_matches_evaluate_hand(rules):
    """api.md: evaluate_hands is the batch form of evaluate_hand (int32, shape (N,))."""
    rng = np.random.default_rng(7)
    arr = np.array([rng.choice(52, size=3, replace=False) for _ in range(500)])
    out = evaluate_hands(arr, rules)
    assert isinstance(out, np.ndarray)
    assert out.shape == (500,)
    assert out.dtype == np.int32
    for row, v in zip(arr, out, strict=True):
        assert evaluate_hand([int(c) for c in row], rules) == int(v)


def test_compare_hands_sign():
    """api.md: compare_hands returns exactly 1, -1 or 0."""
    rnd = random.Random(99)
    for _ in range(500):
        cards = rnd.sample(range(52), 6)
        a, b = cards[:3], cards[3:]
        va, vb = evaluate_hand(a), evaluate_hand(b)
        expected = (va > vb) - (va < vb)
        assert compare_hands(a, b) == expected
        assert compare_hands(b, a) == -expected
    assert compare_hands("As Ah Ad", "Ks Kh Kd") == 1
    assert compare_hands("Ks Kh Kd", "As Ah Ad") == -1
    assert compare_hands("Ks Qh 9d", "Kd Qc 9h") == 0


def test_none_rules_is_classic():
    """api.md: rules=None means classic (AKQ, not lowball)."""
    assert compare_hands("Ah Kd Qc", "As 2d 3c") == 1
    assert evaluate_hand("Ah Kd Qc") == evaluate_hand("Ah Kd Qc", CLASSIC)
