"""Illegal actions and malformed histories (RULES.md section 10, api.md "Errors")."""

from __future__ import annotations

import copy

import pytest

from teenpatti_env import Hand, IllegalActionError, Rules, replay

CARDS = [["Js", "8h", "4d"], ["Qs", "Qh", "2c"], ["Tc", "6h", "2d"]]


def hist(actions, cards=None, rules=None, stacks=(100, 100, 100), dealer=2):
    h = {
        "format": "teenpatti-hand/1",
        "rules": rules if rules is not None else {"preset": "classic", "num_players": 3},
        "dealer": dealer,
        "cards": copy.deepcopy(cards if cards is not None else CARDS),
        "actions": actions,
    }
    if stacks is not None:
        h["stacks"] = list(stacks)
    return h


def test_illegal_action_error_is_value_error():
    """api.md: IllegalActionError(ValueError)."""
    assert issubclass(IllegalActionError, ValueError)


# dealer 2: seat 0 acts first (RULES 2)
ILLEGAL = [
    # wrong seat: seat 2 bets while seat 1 is to act (index 1)
    ([{"seat": 0, "type": "bet", "amount": 1}, {"seat": 2, "type": "bet", "amount": 1}], 1, 2),
    # wrong amount: blind bet 3 at stake 1 (at most kS = 2)
    ([{"seat": 0, "type": "bet", "amount": 3}], 0, 0),
    # below the stake: blind 1 at stake 2
    ([{"seat": 0, "type": "bet", "amount": 2}, {"seat": 1, "type": "bet", "amount": 1}], 1, 1),
    # odd seen bet (RULES 3.2: even)
    (
        [
            {"seat": 0, "type": "bet", "amount": 1},
            {"seat": 1, "type": "look"},
            {"seat": 1, "type": "bet", "amount": 3},
        ],
        2,
        1,
    ),
    # show with three players in (RULES 3.4)
    (
        [
            {"seat": 0, "type": "bet", "amount": 1},
            {"seat": 1, "type": "bet", "amount": 1},
            {"seat": 2, "type": "show"},
        ],
        2,
        2,
    ),
    # all-in while a legal bet fits (RULES 3.3)
    ([{"seat": 0, "type": "all_in"}], 0, 0),
    # answering a sideshow nobody asked for
    ([{"seat": 0, "type": "accept"}], 0, 0),
    # action after the hand is over: seats 1 and 2 pack, seat 0 has won
    (
        [
            {"seat": 0, "type": "bet", "amount": 1},
            {"seat": 1, "type": "pack"},
            {"seat": 2, "type": "pack"},
            {"seat": 0, "type": "bet", "amount": 1},
        ],
        3,
        0,
    ),
    # seat out of range
    ([{"seat": 5, "type": "pack"}], 0, 5),
]


@pytest.mark.parametrize("actions, index, seat", ILLEGAL)
def test_illegal_action_names_index_and_seat(actions, index, seat):
    """RULES 10: an illegal action raises an error naming the action's index and the seat."""
    with pytest.raises(IllegalActionError) as exc:
        replay(hist(actions))
    msg = str(exc.value)
    assert f"action {index}" in msg
    assert f"seat {seat}" in msg


def test_unknown_action_type():
    """RULES 10: an unknown action type is an error (ValueError)."""
    with pytest.raises(ValueError):
        replay(hist([{"seat": 0, "type": "raise", "amount": 2}]))


def test_prefix_of_illegal_history_is_fine():
    """RULES 10: the error leaves no partial state: the legal prefix still replays."""
    actions = ILLEGAL[0][0]
    r = replay(hist(actions[:1]))
    assert r["to_act"] == 1 and r["pot"] == 4


# ------------------------------------------------------------ malformed histories


def test_bad_card_text():
    """RULES 1/9: bad card text is a ValueError naming the text."""
    cards = copy.deepcopy(CARDS)
    cards[1][2] = "Xx"
    with pytest.raises(ValueError, match="Xx"):
        replay(hist([], cards=cards))
    cards[1][2] = "2C"
    with pytest.raises(ValueError, match="2C"):
        replay(hist([], cards=cards))


def test_ten_as_10_in_history():
    """RULES 1: `10` accepted for `T` on input."""
    cards = copy.deepcopy(CARDS)
    cards[2][0] = "10c"
    r = replay(hist([], cards=cards))
    assert r["pot"] == 3


def test_duplicate_cards():
    """RULES 9: a card dealt twice is a ValueError."""
    cards = copy.deepcopy(CARDS)
    cards[2][0] = "Qs"  # also seat 1's
    with pytest.raises(ValueError):
        replay(hist([], cards=cards))
    cards = copy.deepcopy(CARDS)
    cards[2] = ["Tc", "Tc", "2d"]
    with pytest.raises(ValueError):
        replay(hist([], cards=cards))


def test_unknown_rule_setting():
    """RULES 8: an unknown setting in the history's rules is a ValueError naming it."""
    with pytest.raises(ValueError, match="jokers_wild"):
        replay(hist([], rules={"preset": "classic", "num_players": 3, "jokers_wild": True}))
    with pytest.raises(ValueError, match="no_such_preset"):
        replay(hist([], rules={"preset": "no_such_preset"}))
    with pytest.raises(ValueError, match="boot"):
        replay(hist([], rules={"preset": "classic", "num_players": 3, "boot": 0}))


@pytest.mark.parametrize(
    "cards",
    [
        [["Js", "8h"], ["Qs", "Qh", "2c"], ["Tc", "6h", "2d"]],  # two cards
        [["Js", "8h", "4d", "5d"], ["Qs", "Qh", "2c"], ["Tc", "6h", "2d"]],  # four cards
        [["Js", "8h", "4d"], ["Qs", "Qh", "2c"]],  # too few seats for num_players 3
        [["Js", "8h", "4d"], ["Qs", "Qh", "2c"], ["Tc", "6h", "2d"], ["3c", "3d", "9s"]],
        [["Js", "8h", "4d"], None, None],  # fewer than two seats dealt in
    ],
)
def test_wrong_number_of_cards_or_seats(cards):
    """RULES 10 / api.md: malformed input raises ValueError."""
    with pytest.raises(ValueError):
        replay(hist([], cards=cards, stacks=None))


def test_stacks_length_mismatch():
    """api.md: wrong number of seats is a ValueError."""
    with pytest.raises(ValueError):
        replay(hist([], stacks=(100, 100)))


# ------------------------------------------------------------ Hand.apply atomicity


@pytest.mark.parametrize(
    "action",
    [
        {"seat": 2, "type": "bet", "amount": 2},  # wrong seat
        {"seat": 1, "type": "bet", "amount": 100},  # too much
        {"seat": 1, "type": "bet", "amount": 0},  # too little
        {"seat": 1, "type": "show"},  # three in
        {"seat": 1, "type": "all_in"},  # not short
        {"seat": 1, "type": "sideshow", "amount": 2},  # blind asker
        {"seat": 1, "type": "refuse"},
        {"seat": 0, "type": "look"},  # already seen
        {"seat": 1, "type": "bet"},  # no amount
        {"seat": 1, "type": "fold"},  # unknown type
    ],
)
def test_apply_illegal_leaves_hand_unchanged(action):
    """api.md: Hand.apply of an illegal action raises and changes nothing."""
    hand = Hand(Rules(num_players=3), CARDS, [100, 100, 100], dealer=2)
    hand.apply({"seat": 0, "type": "look"})
    hand.apply({"seat": 0, "type": "bet", "amount": 2})
    before = copy.deepcopy(hand.to_dict())
    legal_before = hand.legal_actions()
    with pytest.raises(ValueError):
        hand.apply(action)
    assert hand.to_dict() == before
    assert hand.legal_actions() == legal_before
    assert hand.is_legal(action) is False
    # the hand still works afterwards
    hand.apply({"seat": 1, "type": "bet", "amount": 1})
    assert hand.to_act == 2


def test_apply_illegal_after_over_unchanged():
    """api.md: an action after the hand is over raises and changes nothing."""
    hand = Hand(Rules(num_players=3), CARDS, [100, 100, 100], dealer=2)
    hand.apply({"seat": 0, "type": "pack"})
    hand.apply({"seat": 1, "type": "pack"})
    assert hand.over
    before = copy.deepcopy(hand.to_dict())
    with pytest.raises(IllegalActionError) as exc:
        hand.apply({"seat": 2, "type": "pack"})
    assert "seat 2" in str(exc.value)
    assert hand.to_dict() == before
