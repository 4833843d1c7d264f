"""Turn-timer outcomes (VARIANTS.md C4): the engine has no clock; whatever runs the table
asks the hand what a missed choice becomes and applies it."""

from __future__ import annotations

import pytest

from teenpatti_env import Hand, IllegalActionError, Rules, raw_env, replay

CARDS = [["As", "Kd", "2c"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"], ["2h", "2d", "Js"]]


def test_a_missed_betting_turn_packs() -> None:
    hand = Hand(Rules(), CARDS, dealer=0)
    assert hand.to_act == 1
    action = hand.timeout_action()
    assert action == {"seat": 1, "type": "pack", "timeout": True}
    twin = hand.copy()
    assert hand.time_out() == action
    twin.pack()
    assert hand.result() == twin.result()
    assert hand.packed[1] and hand.to_act == 2


def test_a_missed_sideshow_answer_is_a_refusal() -> None:
    hand = Hand(Rules(), CARDS, dealer=0)
    for _ in range(4):
        hand.look(hand.to_act)
        hand.bet(hand.min_bet(hand.to_act))
    # every seat has looked and bet once; seat 1 asks seat 0 for a sideshow
    asker = hand.to_act
    low, _ = hand.bet_range(asker, keep=1)
    hand.sideshow(low)
    target = hand.to_act
    assert hand.pending_sideshow == (asker, target)
    assert hand.timeout_action() == {"seat": target, "type": "refuse", "timeout": True}
    hand.time_out()
    assert hand.pending_sideshow is None
    assert not hand.packed[asker] and not hand.packed[target]  # a refusal packs nobody


def test_no_turn_to_time_out_once_the_hand_is_over() -> None:
    hand = Hand(Rules(num_players=3), CARDS[:3], dealer=0)
    hand.pack()
    hand.pack()
    assert hand.over
    with pytest.raises(IllegalActionError, match="over"):
        hand.timeout_action()


def test_replay_ignores_the_timeout_mark() -> None:
    base = {"format": "teenpatti-hand/1", "rules": "classic", "dealer": 0, "cards": CARDS}
    marked = replay({**base, "actions": [{"seat": 1, "type": "pack", "timeout": True},
                                         {"seat": 2, "type": "bet", "amount": 1}]})
    plain = replay({**base, "actions": [{"seat": 1, "type": "pack"},
                                        {"seat": 2, "type": "bet", "amount": 1}]})
    assert marked == plain


def test_the_environment_names_the_timeout_index() -> None:
    env = raw_env(rules="classic")
    env.reset(seed=3)
    agent = env.agent_selection
    index = env.timeout_index()
    assert env.layout.names[index] == "pack"
    assert env.action_mask(agent)[index] == 1
    env.step(index)
    assert env.hand is not None
    assert env.hand.packed[env.agent_name_mapping[agent]]
