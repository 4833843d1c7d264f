"""``infos`` stays empty (every RL library can store it) while ``view`` builds the seat's
view of the moment; Hand.copy is independent of its original; Session.new_hand takes a
fixed deal."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from teenpatti_env import Hand, Rules, Session, env, raw_env

CARDS = [["As", "Kd", "2c"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"], ["2h", "2d", "Js"]]


def _fixed(environment: raw_env) -> None:
    environment.reset(seed=0, options={"cards": CARDS, "dealer": 0})


def test_a_view_is_a_plain_dict_of_its_moment() -> None:
    raw = raw_env()
    _fixed(raw)
    view = raw.view("player_1")
    assert type(view) is dict and view["pot"] == 4 and view["my_turn"]
    raw.step(raw.action_meanings.index("bet_max"))  # seat 1 bets 2 blind
    raw.step(raw.action_meanings.index("look"))  # seat 2 looks
    assert view["pot"] == 4 and view["stake"] == 1
    now = raw.view("player_1")
    assert now["pot"] == 6 and now["stake"] == 2 and not now["my_turn"]
    assert now["seats"][2]["seen"] and not view["seats"][2]["seen"]


@pytest.mark.parametrize("episode", ["hand", "session"])
def test_infos_are_empty_dicts_at_every_step(episode: str) -> None:
    wrapped = env(episode=episode, max_hands=3)
    wrapped.reset(seed=4)
    rng = np.random.default_rng(4)
    steps = 0
    for agent in wrapped.agent_iter():
        observation, _, terminated, truncated, info = wrapped.last()
        assert info == {} and type(info) is dict
        assert set(wrapped.infos) == set(wrapped.agents)
        assert all(value == {} for value in wrapped.infos.values())
        if terminated or truncated:
            wrapped.step(None)
            continue
        assert wrapped.unwrapped.view(agent)["legal_actions"]
        wrapped.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        steps += 1
    assert steps > 0


def test_a_copied_environment_plays_on_like_the_original() -> None:
    raw = raw_env()
    _fixed(raw)
    for twin in (copy.deepcopy(raw), pickle.loads(pickle.dumps(raw))):
        assert twin.infos == raw.infos
        for agent in raw.agents:
            assert twin.view(agent) == raw.view(agent)
        twin.step(twin.action_meanings.index("pack"))
        assert twin.view("player_1")["seats"][1]["packed"]
        assert not raw.view("player_1")["seats"][1]["packed"]


def test_hand_copy_is_independent() -> None:
    rules = Rules.preset("pagat")
    hand = Hand.deal(rules, [100] * 4, 0, np.random.default_rng(5))
    hand.apply({"type": "look", "seat": hand.to_act})
    before = hand.to_dict()
    twin = hand.copy()
    assert twin.to_dict() == before
    twin.apply({"type": "pack"})
    twin.apply({"type": "look", "seat": twin.to_act})
    assert hand.to_dict() == before
    assert hand.known_cards(None) == {}
    hand.apply({"type": "bet", "amount": 2})
    assert twin.pot != hand.pot or twin.to_act != hand.to_act


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), preset=st.sampled_from(["classic", "pagat", "flash"]))
def test_a_copy_continues_exactly_like_the_original(seed: int, preset: str) -> None:
    rng = np.random.default_rng(seed)
    hand = Hand.deal(Rules.preset(preset), [60, 80, 100, 120], seed % 4, rng)
    copies = []
    while not hand.over:
        copies.append((hand.copy(), hand.to_dict()))
        legal = hand.legal_actions()
        action = legal[int(rng.integers(len(legal)))]
        move = {"type": action["type"], "seat": hand.to_act}
        if "min" in action:
            move["amount"] = action["min"]
        if action["type"] == "look":
            move["seat"] = hand.to_act
        hand.apply(move)
        for copied, snapshot in copies:
            assert copied.to_dict() == snapshot  # the original's steps leave copies alone
    for copied, snapshot in copies:
        restored = Hand.from_dict(snapshot)
        assert copied.legal_actions() == restored.legal_actions()
        assert copied.known_cards(None) == restored.known_cards(None)


def test_session_new_hand_takes_a_fixed_deal_and_dealer() -> None:
    session = Session("classic", seed=1)
    hand = session.new_hand(cards=CARDS, dealer=2)
    assert hand.dealer == 2 and hand.card_texts(0) == ["As", "Kd", "2c"]
    assert session.dealer == 2
    hand.apply({"type": "pack"})
    hand.apply({"type": "pack"})
    hand.apply({"type": "pack"})
    nxt = session.new_hand()
    assert nxt.dealer == 3  # the deal passes left from the fixed dealer


def test_session_new_hand_rejects_a_bad_deal_and_changes_nothing() -> None:
    session = Session("classic", seed=1)
    with pytest.raises(ValueError, match="twice"):
        session.new_hand(cards=[["As", "Kd", "2c"]] * 4)
    with pytest.raises(ValueError, match="dealer"):
        session.new_hand(dealer=9)
    assert session.hand is None and session.dealer is None
    assert session.new_hand().dealer in range(4)
