"""The batch valuation agrees with the single one for every input dtype and shape."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from teenpatti_env import Rules, evaluate_hand, evaluate_hands

ALL_HANDS = np.array(list(itertools.combinations(range(52), 3)))


@pytest.mark.parametrize(
    "dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]
)
@pytest.mark.parametrize("rules", [None, Rules(best_sequence="A23", lowball=True)])
def test_batch_matches_single_for_every_dtype_and_card_order(dtype, rules) -> None:
    single = np.array([evaluate_hand(tuple(int(c) for c in hand), rules) for hand in ALL_HANDS])
    assert (evaluate_hands(ALL_HANDS.astype(dtype), rules) == single).all()
    reordered = ALL_HANDS[:, [2, 0, 1]].astype(dtype)
    assert (evaluate_hands(reordered, rules) == single).all()


def test_batch_keeps_leading_shape() -> None:
    assert evaluate_hands(ALL_HANDS[:24].reshape(2, 4, 3, 3)).shape == (2, 4, 3)


@pytest.mark.parametrize(
    "bad", [[[-1, 2, 3]], [[52, 1, 2]], [[1, 1, 2]], [[1.0, 2.0, 3.0]], [[1, 2]], 5]
)
def test_batch_rejects_what_is_not_a_hand(bad) -> None:
    with pytest.raises(ValueError):
        evaluate_hands(np.array(bad))


def test_evaluate_hand_values_a_two_dimensional_array_as_a_batch() -> None:
    batch = ALL_HANDS[:50]
    assert (evaluate_hand(batch) == evaluate_hands(batch)).all()
    assert evaluate_hand(np.array([51, 46, 0])) == evaluate_hand("As Kd 2c")


def test_card_text_may_be_written_back_to_back_or_with_commas() -> None:
    assert evaluate_hand("AsKd2c") == evaluate_hand(["As", "Kd", "2c"])
    assert evaluate_hand("10h,Jh,Qh") == evaluate_hand("Th Jh Qh")
    for bad in ("AsKd2", "AsAs2c", "as kd 2c"):
        with pytest.raises(ValueError):
            evaluate_hand(bad)
