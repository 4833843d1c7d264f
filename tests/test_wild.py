"""Best-hand values with wild cards, extra cards and the imaginary card (VARIANTS W1-W7, S1)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from teenpatti_env import Rules, evaluate_hand, hand_category
from teenpatti_env.cards import parse_cards, rank_of, suit_of
from teenpatti_env.cards.hands import CATEGORIES, value_categories, value_table
from teenpatti_env.cards.wild import best_value, best_values, brute_force_value

RANKINGS = [("AKQ", False), ("A23", False), ("AKQ", True), ("A23", True)]
RANK = {r: i for i, r in enumerate("23456789TJQKA")}


def value(text: str, best_sequence: str = "AKQ", lowball: bool = False) -> int:
    """The ``hands`` value of a concrete three-card hand."""
    return evaluate_hand(text, Rules(best_sequence=best_sequence, lowball=lowball))


def wild_flags(text: str, wild_text: str) -> tuple[tuple[int, ...], list[bool]]:
    """The cards in ``text`` and, for each, whether it is also in ``wild_text``."""
    cards = parse_cards(text)
    wild = set(parse_cards(wild_text)) if wild_text else set()
    return cards, [c in wild for c in cards]


def wild_best(
    text: str,
    wild_text: str = "",
    *,
    imagined: bool = False,
    best_sequence: str = "AKQ",
    lowball: bool = False,
) -> int:
    """``best_value`` of the cards in ``text``, those also in ``wild_text`` wild."""
    cards, wild = wild_flags(text, wild_text)
    return best_value(cards, wild, imagined=imagined, best_sequence=best_sequence, lowball=lowball)


# ---------------------------------------------------------------- hand-worked examples

EXAMPLES = [
    # (cards, wild cards, imagined, ranking, the concrete best hand, its category)
    ("7s 7h 7d", "7s 7h 7d", False, ("AKQ", False), "As Ah Ad", "trail"),
    ("7s 7h 7d", "7s 7h 7d", False, ("A23", False), "As Ah Ad", "trail"),
    # W4: three wilds under lowball are 5-3-2 of mixed suits.
    ("7s 7h 7d", "7s 7h 7d", False, ("AKQ", True), "5s 3h 2d", "high_card"),
    ("7s 7h 7d", "7s 7h 7d", False, ("A23", True), "5s 3h 2d", "high_card"),
    # One wild and two ranks: no trail; a run beats a pair.
    ("As Ks 7d", "7d", False, ("AKQ", False), "As Ks Qs", "pure_sequence"),
    ("As Kh 7d", "7d", False, ("AKQ", False), "As Kh Qd", "sequence"),
    ("As Ks 7d", "7d", False, ("A23", False), "As Ks Qs", "pure_sequence"),
    # W3 (seven_joker_two_burst): 7 + A + 3 is the run A-2-3, the wild standing for a 2.
    ("7c As 3h", "7c", False, ("AKQ", False), "As 2d 3h", "sequence"),
    ("7c As 3s", "7c", False, ("AKQ", False), "As 2s 3s", "pure_sequence"),
    ("As 2s 7d", "7d", False, ("A23", False), "As 2s 3s", "pure_sequence"),
    # A pair and a wild is a trail; a card and two wilds is a trail of its rank.
    ("Ks Kh 7d", "7d", False, ("AKQ", False), "Ks Kh Kd", "trail"),
    ("5s 7h 7d", "7h 7d", False, ("AKQ", False), "5s 5h 5d", "trail"),
    # Lowball: the wild goes low and off-suit.
    ("Kh Qh 7d", "7d", False, ("AKQ", True), "Kh Qh 2s", "high_card"),
    ("2s 3h 7d", "7d", False, ("AKQ", True), "2s 3h 5d", "high_card"),
    ("2s 3s 7d", "7d", False, ("AKQ", True), "2s 3s 5h", "high_card"),
    # Lowball: A-K with a wild cannot dodge a pair or run: A-K-2 is the lowest high card.
    ("As Kh 7d", "7d", False, ("AKQ", True), "As Kh 2d", "high_card"),
    # S1 personal lowest of four: the two 2s are wild, so the ace makes a trail.
    ("2s 2h Ah Kh", "2s 2h", False, ("AKQ", False), "As Ah Ad", "trail"),
    ("3s 9h Ah Kh", "3s", False, ("AKQ", False), "Ah Kh Qh", "pure_sequence"),
    # Best three of five (shared_pair), with and without a wild.
    ("Ks 7d 2c Kh Kd", "", False, ("AKQ", False), "Ks Kh Kd", "trail"),
    ("As 7d 2c Ah 9s", "7d", False, ("AKQ", False), "As Ah Ad", "trail"),
    ("4s 9d Jc Th 8s", "", False, ("AKQ", False), "Jc Th 9d", "sequence"),
    # The imaginary card (imagine_one): optional, any card not among the seat's cards.
    ("As Ks", "", True, ("AKQ", False), "As Ks Qs", "pure_sequence"),
    ("2s 7h", "", True, ("AKQ", False), "2s 7h 7d", "pair"),
    ("2s 7h", "", True, ("AKQ", True), "2s 7h 3d", "high_card"),
    ("As Ah Ad", "", True, ("AKQ", False), "As Ah Ad", "trail"),
    ("Qs Ks 2c", "", True, ("AKQ", False), "Qs Ks As", "pure_sequence"),
    # The imaginary card and a wild: a trail of the natural card's rank.
    ("9c 7d", "7d", True, ("AKQ", False), "9c 9d 9h", "trail"),
]


@pytest.mark.parametrize(("cards", "wild", "imagined", "ranking", "made", "category"), EXAMPLES)
def test_hand_worked_examples(
    cards: str, wild: str, imagined: bool, ranking: tuple[str, bool], made: str, category: str
) -> None:
    best_sequence, lowball = ranking
    got = wild_best(cards, wild, imagined=imagined, best_sequence=best_sequence, lowball=lowball)
    assert hand_category(made) == category
    assert got == value(made, best_sequence, lowball)
    rules = Rules(best_sequence=best_sequence, lowball=lowball)
    assert CATEGORIES[value_categories(rules)[got]] == category
    ints, flags = wild_flags(cards, wild)
    assert got == brute_force_value(
        ints, flags, imagined=imagined, best_sequence=best_sequence, lowball=lowball
    )


@pytest.mark.parametrize(("best_sequence", "lowball"), RANKINGS)
def test_three_wilds_are_the_best_hand(best_sequence: str, lowball: bool) -> None:
    best = max(value_table(Rules(best_sequence=best_sequence, lowball=lowball)))
    assert wild_best("2s 3s 4s", "2s 3s 4s", best_sequence=best_sequence, lowball=lowball) == best
    four = wild_best("2s 3s 4s 5s", "2s 3s 4s 5s", best_sequence=best_sequence, lowball=lowball)
    assert four == best


def test_natural_and_wild_hands_tie() -> None:
    """W7: a natural hand and an equal wild hand have equal values."""
    assert wild_best("Ah Kh Qh") == wild_best("Ah Kh 7c", "7c") == value("Ah Kh Qh")
    assert wild_best("9s 9h 9d") == wild_best("9s 9h 2c", "2c") == wild_best("9s 2h 2c", "2h 2c")
    low_wild = wild_best("Ks Qs Js", "Ks Qs Js", lowball=True)
    assert wild_best("5s 3h 2d", lowball=True) == low_wild


def test_wild_may_repeat_a_card_held_elsewhere() -> None:
    """W2: the wild stands for a card outside the three played, even the seat's own."""
    # Best three of four: Qs is held but not played; the wild (7d) stands for Qs.
    assert wild_best("As Ks 7d 2c", "7d") == value("As Ks Qs")
    # The wild may be the card it stands for (7d for itself), making a trail of sevens.
    assert wild_best("7s 7h 7d", "7d") == value("7s 7h 7d")


@pytest.mark.parametrize(("best_sequence", "lowball"), RANKINGS)
def test_natural_hands_match_the_hands_table(best_sequence: str, lowball: bool) -> None:
    rules = Rules(best_sequence=best_sequence, lowball=lowball)
    for combo in itertools.combinations(range(52), 3):
        got = best_value(combo, best_sequence=best_sequence, lowball=lowball)
        assert got == evaluate_hand(list(combo), rules)


# ---------------------------------------------------------------- random agreement

WildRule = Callable[[Sequence[int], Sequence[int]], list[bool]]
"""Given the private and community cards, the wild flag of each card (private first)."""


def ranks_wild(*ranks: str) -> WildRule:
    wild = {RANK[r] for r in ranks}
    return lambda private, community: [rank_of(c) in wild for c in [*private, *community]]


def red_wild(private: Sequence[int], community: Sequence[int]) -> list[bool]:
    return [suit_of(c) in (1, 2) for c in [*private, *community]]


def personal_lowest(private: Sequence[int], community: Sequence[int]) -> list[bool]:
    """S1: every usable card of the seat's lowest private rank (Ace high) is wild."""
    lowest = min(rank_of(c) for c in private)
    return [rank_of(c) == lowest for c in [*private, *community]]


def no_wild(private: Sequence[int], community: Sequence[int]) -> list[bool]:
    return [False] * (len(private) + len(community))


SETUPS: dict[str, tuple[int, int, bool, WildRule, str, bool]] = {
    # name: (private, community, imagined, wild rule, best_sequence, lowball)
    "seven_joker": (3, 0, False, ranks_wild("7"), "AKQ", False),
    "ak47": (3, 0, False, ranks_wild("A", "K", "4", "7"), "AKQ", False),
    "red_jokers": (3, 0, False, red_wild, "AKQ", False),
    "personal_joker": (4, 0, False, personal_lowest, "AKQ", False),
    "shared_pair": (3, 2, False, no_wild, "AKQ", False),
    "shared_pair_ak47": (3, 2, False, ranks_wild("A", "K", "4", "7"), "AKQ", False),
    "shared_pair_personal": (3, 2, False, personal_lowest, "AKQ", False),
    "one_open_card": (2, 1, False, no_wild, "AKQ", False),
    "open_joker": (2, 1, False, ranks_wild("9"), "AKQ", False),
    "imagine_one": (2, 0, True, no_wild, "AKQ", False),
    "imagine_one_low": (2, 0, True, no_wild, "A23", True),
    "imagine_red": (2, 1, True, red_wild, "AKQ", False),
    "muflis_ak47": (3, 0, False, ranks_wild("A", "K", "4", "7"), "AKQ", True),
    "muflis_red": (3, 0, False, red_wild, "A23", True),
    "a23_ak47": (3, 0, False, ranks_wild("A", "K", "4", "7"), "A23", False),
    "a23_personal": (4, 0, False, personal_lowest, "A23", False),
}


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_agrees_with_brute_force(name: str) -> None:
    private_count, community_count, imagined, wild_rule, best_sequence, lowball = SETUPS[name]
    rng = random.Random(name)
    for _ in range(2000):
        dealt = rng.sample(range(52), private_count + community_count)
        private, community = dealt[:private_count], dealt[private_count:]
        wild = wild_rule(private, community)
        fast = best_value(
            dealt, wild, imagined=imagined, best_sequence=best_sequence, lowball=lowball
        )
        slow = brute_force_value(
            dealt, wild, imagined=imagined, best_sequence=best_sequence, lowball=lowball
        )
        assert fast == slow, (dealt, wild)


@st.composite
def seats(draw: st.DrawFn) -> tuple[list[int], list[bool], bool, str, bool]:
    imagined = draw(st.booleans())
    count = draw(st.integers(2 if imagined else 3, 7))
    cards = draw(st.lists(st.integers(0, 51), min_size=count, max_size=count, unique=True))
    wild = draw(st.lists(st.booleans(), min_size=count, max_size=count))
    best_sequence, lowball = draw(st.sampled_from(RANKINGS))
    return cards, wild, imagined, best_sequence, lowball


SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(seats())
def test_any_mix_agrees_with_brute_force(
    seat: tuple[list[int], list[bool], bool, str, bool],
) -> None:
    cards, wild, imagined, best_sequence, lowball = seat
    fast = best_value(cards, wild, imagined=imagined, best_sequence=best_sequence, lowball=lowball)
    slow = brute_force_value(
        cards, wild, imagined=imagined, best_sequence=best_sequence, lowball=lowball
    )
    assert fast == slow


@SETTINGS
@given(seats(), st.randoms(use_true_random=False))
def test_more_options_never_hurt(
    seat: tuple[list[int], list[bool], bool, str, bool], rng: random.Random
) -> None:
    """Card order is irrelevant; a wild card, the imaginary card or one more card never hurt."""
    cards, wild, imagined, best_sequence, lowball = seat

    def value_of(cards: list[int], wild: list[bool], imagined: bool) -> int:
        return best_value(
            cards, wild, imagined=imagined, best_sequence=best_sequence, lowball=lowball
        )

    base = value_of(cards, wild, imagined)
    order = list(range(len(cards)))
    rng.shuffle(order)
    assert value_of([cards[i] for i in order], [wild[i] for i in order], imagined) == base
    assert value_of(cards, [True, *wild[1:]], imagined) >= base
    assert value_of(cards, wild, True) >= base
    if len(cards) < 7:
        extra = next(c for c in range(52) if c not in cards)
        assert value_of([*cards, extra], [*wild, False], imagined) >= base


def test_best_values_matches_best_value() -> None:
    rng = random.Random(5)
    hands = [rng.sample(range(52), 4) for _ in range(200)]
    wilds = [personal_lowest(h, []) for h in hands]
    expected = [best_value(h, w, lowball=True) for h, w in zip(hands, wilds, strict=True)]
    assert best_values(hands, wilds, lowball=True) == expected
    assert best_values(hands) == [best_value(h) for h in hands]


# ---------------------------------------------------------------- validation


@pytest.mark.parametrize("function", [best_value, brute_force_value])
def test_bad_input_raises(function: Callable[..., int]) -> None:
    with pytest.raises(ValueError, match="given twice"):
        function([0, 1, 0])
    with pytest.raises(ValueError, match="2 to 7 cards"):
        function([0], imagined=True)
    with pytest.raises(ValueError, match="2 to 7 cards"):
        function(list(range(8)))
    with pytest.raises(ValueError, match="imaginary card"):
        function([0, 1])
    with pytest.raises(ValueError, match="3 flags for 4 cards"):
        function([0, 1, 2, 3], [True, False, False])
    with pytest.raises(ValueError, match="not a card"):
        function([0, 1, 52])
    with pytest.raises(ValueError, match="not a card"):
        function([0, 1, -1])
    with pytest.raises(ValueError, match="best_sequence"):
        function([0, 1, 2], best_sequence="KQJ")
    with pytest.raises(ValueError, match="lowball"):
        function([0, 1, 2], lowball="yes")


def test_best_values_bad_input_raises() -> None:
    with pytest.raises(ValueError, match="wilds has 1 entries for 2 hands"):
        best_values([[0, 1, 2], [3, 4, 5]], [None])
    with pytest.raises(ValueError, match="given twice"):
        best_values([[0, 1, 2], [3, 4, 4]])
