"""Side pots (RULES.md section 5), on cases worked by hand.

The replay tests reach side pots through play; these pin ``divide_pot`` directly,
including the case the betting rules make hard to reach: a slice nobody can win.
"""

from __future__ import annotations

from teenpatti_env.engine.pots import divide_pot

ORDER_FROM_SEAT_1 = [1, 2, 3, 0]  # dealer 0: seat order from the dealer's left


def test_no_all_in_means_one_pot_for_the_best_hand() -> None:
    # Contributions 5 + 9 + 2 + 7 = 23, seat 3 (packed chips of seat 2 included) takes all.
    payouts = divide_pot([5, 9, 2, 7], [0, 1, 3], [False] * 4, [10, 20, -1, 30], ORDER_FROM_SEAT_1)
    assert payouts == [0, 0, 0, 23]


def test_slices_cut_at_each_all_in_contribution() -> None:
    # All-in seats 1 (4 in) and 2 (10 in); seat 3 packed with 6; seat 0 in with 20.
    # Slice to 4: 4 from each of four seats = 16 -> best of {0, 1, 2}: seat 1.
    # Slice 4..10: 6 (seat 0) + 6 (seat 2) + 2 (seat 3) = 14 -> best of {0, 2}: seat 2.
    # Top slice: 10 from seat 0 -> only seat 0 may win it.
    payouts = divide_pot(
        [20, 4, 10, 6], [0, 1, 2], [False, True, True, False], [1, 9, 5, -1], ORDER_FROM_SEAT_1
    )
    assert payouts == [10, 16, 14, 0]
    assert sum(payouts) == 40


def test_a_slice_nobody_can_win_joins_the_slice_below() -> None:
    # Both contenders all-in (3 and 8); packed seat 0 put in 12.
    # Slice to 3: 3 x 4 = 12 -> seat 2 (best). Slice 3..8: 5 (seat 0) + 5 (seat 1) = 10.
    # Top slice: 4 from seat 0, nobody eligible -> joins 3..8: 14 -> seat 1.
    payouts = divide_pot(
        [12, 8, 3, 3], [1, 2], [False, True, True, False], [-1, 4, 7, -1], ORDER_FROM_SEAT_1
    )
    assert payouts == [0, 14, 12, 0]


def test_odd_chips_go_one_at_a_time_from_the_dealers_left() -> None:
    # 3 + 3 + 3 + 2 = 11 chips, three tied winners: 3 each and 2 odd chips, to seats 1 then 2
    # (dealer 0, so seat 0 the dealer is last in line).
    payouts = divide_pot([3, 3, 3, 2], [0, 1, 2], [False] * 4, [5, 5, 5, -1], ORDER_FROM_SEAT_1)
    assert payouts == [3, 4, 4, 0]
    # With dealer 1 the order is 2, 3, 0, 1: the odd chips go to seats 2 and 0.
    payouts = divide_pot([3, 3, 3, 2], [0, 1, 2], [False] * 4, [5, 5, 5, -1], [2, 3, 0, 1])
    assert payouts == [4, 3, 4, 0]
