"""Hands named in words and the three cards a hand is made of (teenpatti_env.cards.names)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from teenpatti_env.cards import format_card, parse_cards
from teenpatti_env.cards.hands import evaluate_hand
from teenpatti_env.cards.names import (
    beats_words,
    cards_name,
    played_cards,
    rank_order,
    value_name,
)
from teenpatti_env.cards.wild import best_value
from teenpatti_env.rules import Rules


@pytest.mark.parametrize(("cards", "name"), [
    ("7h 7s 7d", "trail of sevens"),
    ("6h 6s 6d", "trail of sixes"),
    ("Qh Ah Kh", "pure sequence ace-king-queen"),
    ("3c Ac 2c", "pure sequence ace-two-three"),
    ("Ts 9d 8c", "sequence ten-nine-eight"),
    ("4d Kd 9d", "colour king-nine-four"),
    ("Kd Jh Js", "pair of jacks, king kicker"),
    ("2d 2h Ac", "pair of twos, ace kicker"),
    ("6c Ad 9s", "high card ace-nine-six"),
])
def test_a_hand_is_named_with_its_ranks_and_kicker(cards: str, name: str) -> None:
    assert cards_name(parse_cards(cards)) == name
    assert value_name(evaluate_hand(cards)) == name


def test_the_reason_names_both_hands() -> None:
    jacks, tens = evaluate_hand("Jh Js Kd"), evaluate_hand("Th Ts Ad")
    assert beats_words(jacks, tens) == "pair of jacks, king kicker, beats pair of tens, ace kicker"
    kicker = evaluate_hand("Jd Jc 9s")
    assert beats_words(jacks, kicker) == ("pair of jacks, king kicker, beats pair of jacks, "
                                          "nine kicker")
    assert beats_words(jacks, evaluate_hand("Jd Jc Ks")).split(", ")[2] == "ties with pair of jacks"


def test_muflis_names_the_lower_hand_as_the_winner() -> None:
    muflis = Rules.preset("classic", variant="muflis")
    five, eight = evaluate_hand("5h 3d 2c", muflis), evaluate_hand("8h 3d 2c", muflis)
    assert five > eight
    assert beats_words(five, eight, muflis.best_sequence, muflis.ranking_lowball) == (
        "high card five-three-two, beats high card eight-three-two")


def test_cards_are_ordered_as_they_rank() -> None:
    assert [format_card(c) for c in rank_order(parse_cards("5h Js Jd"))] == ["Js", "Jd", "5h"]
    assert [format_card(c) for c in rank_order(parse_cards("2h Ah 3h"))] == ["3h", "2h", "Ah"]
    assert [format_card(c) for c in rank_order(parse_cards("4d Kd 9d"))] == ["Kd", "9d", "4d"]


def test_wild_cards_say_what_they_became() -> None:
    # AK47: the ace and the king are wild, so the queen makes a trail of queens.
    cards = parse_cards("Ah Qd Kh")
    played = played_cards(cards, [True, False, True])
    assert sorted(p.source for p in played if p.source is not None) == [0, 1, 2]
    assert {p.card >> 2 for p in played} == {10}  # three queens
    assert next(p.card for p in played if p.source == 1) == cards[1]  # the queen stays


def test_the_three_of_five_that_count() -> None:
    cards = parse_cards("Jh Js 2d 5c Kd")  # two private cards + ... any five
    played = played_cards(cards)
    assert [p.source for p in played] == [0, 1, 4]
    assert cards_name([p.card for p in played]) == "pair of jacks, king kicker"


def test_the_imaginary_card_is_marked() -> None:
    played = played_cards(parse_cards("2h 9d"), imagined=True)
    assert None in [p.source for p in played]
    assert cards_name([p.card for p in played]) == "pair of nines, two kicker"


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="three different cards"):
        cards_name([48, 48, 44])
    with pytest.raises(ValueError, match="no hand has value"):
        value_name(10**6)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=3, max_size=5, unique=True),
       st.lists(st.booleans(), min_size=5, max_size=5), st.booleans(), st.booleans())
def test_the_played_cards_make_the_best_value(cards: list[int], wild: list[bool],
                                              imagined: bool, lowball: bool) -> None:
    flags = wild[:len(cards)]
    value = best_value(cards, flags, imagined=imagined, lowball=lowball)
    played = played_cards(cards, flags, imagined=imagined, lowball=lowball)
    assert len(played) == 3
    made = [p.card for p in played]
    assert evaluate_hand(made, Rules(lowball=lowball)) == value
    assert cards_name(made) == value_name(value, lowball=lowball)
    for p in played:
        if p.source is not None and not flags[p.source]:
            assert p.card == cards[p.source]  # a natural card stays itself
    assert made == rank_order(made)
