"""The Hand object's contract: legal_actions and apply agree, events, snapshots."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from teenpatti_env import Hand, IllegalActionError, Rules

CARDS = [["As", "Kd", "2c"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"], ["2h", "2d", "Js"]]


def candidate_actions(hand: Hand) -> list[dict]:
    """Every action worth trying now: each type for every seat, amounts around the bounds."""
    amounts = sorted({0, 1, 2, 3, hand.stake, 2 * hand.stake, 4 * hand.stake + 1, *range(1, 12)})
    actions = []
    for seat in range(hand.num_seats):
        for kind in ("look", "pack", "all_in", "show", "accept", "refuse"):
            actions.append({"seat": seat, "type": kind})
        for kind in ("bet", "sideshow"):
            for amount in amounts:
                actions.append({"seat": seat, "type": kind, "amount": amount})
    return actions


def allowed_by_listing(hand: Hand, action: dict) -> bool:
    """Whether ``legal_actions`` of the action's seat admits the action."""
    for legal in hand.legal_actions(action["seat"]):
        if legal["type"] != action["type"]:
            continue
        if "min" not in legal:
            return True
        amount = action["amount"]
        seen = hand.seen[action["seat"]]
        if legal["min"] <= amount <= legal["max"] and not (seen and amount % 2):
            return True
    return False


def random_rules(rng: random.Random) -> Rules:
    return Rules.preset(
        rng.choice(Rules.PRESET_NAMES),
        boot=rng.choice([1, 2, 3]),
        max_blind_bets=rng.choice([None, 0, 1, 4]),
        pot_cap=rng.choice([None, 20, 60]),
        max_bet=rng.choice([None, 8, 12]),
        short_stack=rng.choice(["all_in", "pack", "showdown"]),
        look_anytime=rng.choice([True, False]),
        sideshow_target=rng.choice(["previous", "previous_seen"]),
        pot_limit_betting=rng.choice([True, False]),
    )


def test_legal_listing_and_apply_agree_on_every_candidate() -> None:
    """The mask (legal_actions) and the rule checks (apply) can never drift apart."""
    rng = random.Random(7)
    deck_rng = np.random.default_rng(7)
    for _ in range(150):
        rules = random_rules(rng)
        n = rng.randint(3, 7)
        stacks = [rng.randint(0, 40) for _ in range(n)]
        if sum(chips >= rules.entry_chips for chips in stacks) < 2:
            continue
        hand = Hand.deal(rules.replace(num_players=n), stacks, rng.randrange(n), deck_rng)
        while not hand.over:
            legal_now = []
            for action in candidate_actions(hand):
                listed = allowed_by_listing(hand, action)
                assert hand.is_legal(action) == listed, (action, hand.result())
                if listed:
                    legal_now.append(action)
            before = hand.to_dict()
            illegal = {"seat": hand.to_act, "type": "bet", "amount": 10**6}
            with pytest.raises(IllegalActionError):
                hand.apply(illegal)
            assert hand.to_dict() == before
            hand.apply(rng.choice(legal_now))


def test_every_decision_point_offers_pack_or_an_answer() -> None:
    hand = Hand(Rules(), CARDS, dealer=0)
    assert hand.to_act == 1
    assert {"type": "pack"} in hand.legal_actions()
    assert hand.legal_actions(2) == [{"type": "look"}]


def test_snapshot_round_trips_through_json_mid_hand() -> None:
    hand = Hand(Rules.preset("pagat"), CARDS, dealer=3)
    hand.bet(1)
    hand.look(1)
    snapshot = json.loads(json.dumps(hand.to_dict()))
    restored = Hand.from_dict(snapshot)
    assert restored.to_dict() == hand.to_dict()
    for copy in (hand, restored):
        copy.bet(2)
        copy.pack()
    assert restored.result() == hand.result()
    assert restored.events_for(1) == hand.events_for(1)


def test_cards_are_private_until_shown() -> None:
    hand = Hand(Rules(), CARDS, dealer=0)
    hand.look(2)
    text = json.dumps(hand.public_events())
    assert "7c" not in text
    assert any(e.get("cards") == ["7c", "8c", "9c"] for e in hand.events_for(2))
    assert not any("cards" in e for e in hand.events_for(1))


def test_malformed_saved_hand_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        Hand.from_dict({"version": 1})
    with pytest.raises(ValueError):
        Hand.from_dict({"version": 99})


def test_constructor_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="dealt twice"):
        Hand(Rules(), [["As", "Kd", "2c"], ["As", "Qs", "3d"], ["7c", "8c", "9c"]])
    with pytest.raises(ValueError, match="stacks"):
        Hand(Rules(), CARDS, stacks=[10, 10])
    with pytest.raises(ValueError, match="fewer than two"):
        Hand(Rules(), CARDS, stacks=[10, 0, 0, 0])
    with pytest.raises(ValueError, match="dealer"):
        Hand(Rules(), CARDS, dealer=9)
    with pytest.raises(ValueError, match="not a card"):
        Hand(Rules(), [["As", "Kd", "2x"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"]])


def test_known_cards_follow_what_each_seat_was_told() -> None:
    """Own cards after a look, the partner's after a private sideshow, all at a show."""
    rules = Rules(num_players=4, sideshow_reveal="private")
    hand = Hand(rules, CARDS, dealer=0)
    for seat in (1, 2, 3):
        hand.look(seat)
    assert hand.known_cards(1) == {1: ["Qh", "Qs", "3d"]}
    hand.bet(2)  # seat 1
    hand.sideshow(2)  # seat 2 asks seat 1
    hand.accept()  # pair of queens loses to the pure sequence: seat 1 packs
    assert hand.known_cards(2) == {2: ["7c", "8c", "9c"], 1: ["Qh", "Qs", "3d"]}
    assert hand.known_cards(1) == {1: ["Qh", "Qs", "3d"], 2: ["7c", "8c", "9c"]}
    assert hand.known_cards(3) == {3: ["2h", "2d", "Js"]}
    assert hand.known_cards(None) == {}
    assert hand.packed == [False, True, False, False]
    assert hand.to_act == 3


@pytest.mark.parametrize("seat", [-1, 4, 9, "1", 1.0, None, True])
def test_seat_queries_reject_what_is_not_a_seat(seat) -> None:
    hand = Hand(Rules(), CARDS, dealer=0)
    queries = (
        hand.previous_player, hand.sideshow_target, hand.at_blind_limit, hand.min_bet,
        hand.is_short, hand.bet_range, hand.show_cost, hand.hand_value, hand.card_texts,
        hand.events_for, hand.known_cards if seat is not None else hand.min_bet,
    )  # fmt: skip
    for query in queries:
        with pytest.raises(ValueError):
            query(seat)
    if seat is not None:
        with pytest.raises(ValueError):
            hand.legal_actions(seat)


def test_a_seat_sitting_out_has_no_hand_to_value() -> None:
    hand = Hand(Rules(), [CARDS[0], None, CARDS[2], CARDS[3]], stacks=[100, 0, 100, 100])
    with pytest.raises(ValueError, match="not dealt in"):
        hand.hand_value(1)


def test_events_and_snapshots_are_copies() -> None:
    """Changing what the hand handed out changes nothing inside the hand."""
    hand = Hand(Rules(), CARDS, dealer=0)
    hand.look(1)
    before = hand.to_dict()
    hand.public_events()[0]["dealer"] = 99
    hand.events_for(2)[0]["seats"].append(42)
    next(e for e in hand.events_for(1) if e["type"] == "cards")["cards"][0] = "Ah"
    snapshot = hand.to_dict()
    snapshot["actions"][0]["seat"] = 3
    snapshot["cards"][0][0] = "Ah"
    assert hand.to_dict() == before
    assert hand.known_cards(1) == {1: ["Qh", "Qs", "3d"]}
    restored = Hand.from_dict(before)
    before["actions"].append({"seat": 1, "type": "pack"})
    before["cards"][1][0] = "Ah"
    assert restored.public_events()[0]["dealer"] == 0
    assert restored.to_dict() == hand.to_dict() and restored.known_cards(1) == hand.known_cards(1)


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.update(dealer=9),
        lambda d: d.update(stacks=[1, 2]),
        lambda d: d.update(stacks=[-1, 100, 100, 100]),
        lambda d: d.update(rules={"num_players": 3}),
        lambda d: d.update(actions=[{"seat": 1, "type": "bet", "amount": 100}]),
        lambda d: d.update(actions={"seat": 1}),
        lambda d: d.update(rng=3),
        lambda d: d["actions"].append({"seat": 1, "type": "sideshow", "amount": 2}),
        lambda d: d["cards"].__setitem__(0, ["As", "As", "2c"]),
        lambda d: d["cards"].__setitem__(0, ["Qh", "Kd", "2c"]),
        lambda d: d.pop("cards"),
    ],
)
def test_damaged_snapshot_is_a_value_error(damage) -> None:
    hand = Hand(Rules(), CARDS, dealer=0)
    hand.bet(1)
    saved = json.loads(json.dumps(hand.to_dict()))
    damage(saved)
    with pytest.raises(ValueError, match="malformed saved hand"):
        Hand.from_dict(saved)


@pytest.mark.parametrize(
    "args",
    [
        (Rules(), ["a", "b", "c"], 0),
        (Rules(), [5, 5, 5], None),
        (Rules(), [5, 5, 5], 3),
        (Rules(), 5, 0),
        ("classic", [5, 5, 5], 0),
    ],
)
def test_deal_rejects_bad_tables(args) -> None:
    with pytest.raises(ValueError):
        Hand.deal(*args, np.random.default_rng(0))


def test_deal_needs_a_generator_and_cards_need_lists() -> None:
    with pytest.raises(ValueError, match="Generator"):
        Hand.deal(Rules(), [5, 5, 5], 0, None)
    with pytest.raises(ValueError):
        Hand(Rules(), [b"\x01\x02\x03", b"\x04\x05\x06", b"\x07\x08\x09"])


def test_unknown_action_type_names_the_seat() -> None:
    hand = Hand(Rules(), CARDS, dealer=0)
    with pytest.raises(IllegalActionError, match=r"seat 1.*fold"):
        hand.apply({"seat": 1, "type": "fold"})
