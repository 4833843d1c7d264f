"""One full hand history per named variant, worked by hand (end, net, payouts, shown,
stacks), replayed, played on ``Hand`` directly and saved/restored mid-hand; bursts (B1-B5)."""

from __future__ import annotations

import json
import zlib
from typing import Any

import numpy as np
import pytest
from builders.variants import (
    BURST_ACTIONS,
    HISTORIES,
    NAMES,
    SHOW_ACTIONS,
    SHOW_WON,
    TEXT_SPECS,
    act,
    hand_of,
    history,
    random_action,
    text_value,
    views,
)

from teenpatti_env import Hand, IllegalActionError, Rules, Session, replay


def test_every_named_variant_has_a_history() -> None:
    assert set(HISTORIES) == set(TEXT_SPECS)


@pytest.mark.parametrize("name", NAMES)
def test_full_hand_history(name: str) -> None:
    cards, extra, actions, winner = HISTORIES[name]
    h = history(name, cards, extra, actions)
    # The hand-worked winner agrees with the valuation of the text (brute force).
    spec = TEXT_SPECS[name]
    values = [
        text_value(
            spec, c.split(), extra.get("community", []), extra.get("indicators", []),
            extra.get("chosen"),
        )
        for c in cards
    ]  # fmt: skip
    loser = 1 - winner
    assert values[winner] > values[loser] or (winner == 0 and values[0] == values[1])
    result = replay(h)
    assert result["end"] == "show"
    assert result["over"] is True
    assert result["payouts"] == SHOW_WON[winner]["payouts"]
    assert result["net"] == SHOW_WON[winner]["net"]
    assert result["stacks"] == SHOW_WON[winner]["stacks"]
    assert result["shown"] == {0: cards[0].split(), 1: cards[1].split()}
    burst = actions is BURST_ACTIONS
    assert result["burst"] == [False, False, burst]
    assert result["packed"] == [False, False, True]
    assert result["pot"] == 0 and result["to_act"] is None and result["legal"] == []
    # The same actions on Hand(...) directly give the same result.
    hand = hand_of(h)
    if burst:  # seat 2 burst before any betting: packed, never to act
        start = hand.result()
        assert start["burst"] == [False, False, True] and start["packed"] == [False, False, True]
        assert start["to_act"] == 1 and hand.legal_actions(2) == []
        assert {"type": "burst", "seats": [2]} in hand.public_events()
    for action in actions:
        hand.apply(action)
    assert hand.result() == result
    assert hand.hand_value(0) == values[0] and hand.hand_value(1) == values[1]


def burst_history(name: str, cards: list[str]) -> dict[str, Any]:
    return history(name, cards, {}, [])


@pytest.mark.parametrize("name", ["two_burst", "seven_joker_two_burst"])
def test_every_seat_bursts_void(name: str) -> None:
    """B4: nobody left after burst: void, every chip back, net all 0."""
    h = burst_history(name, ["2s Ad Kd", "7h 2h 9c", "Qc Jc 2d"])
    h["stacks"] = [50, 100, 7]
    result = replay(h)
    assert result["end"] == "void"
    assert result["net"] == [0, 0, 0]
    assert result["payouts"] == [1, 1, 1]
    assert result["stacks"] == [50, 100, 7]
    assert result["shown"] == {}
    assert result["burst"] == [True, True, True]
    assert result["to_act"] is None and result["legal"] == []
    hand = hand_of(h)
    assert hand.result() == result
    burst_events = [e for e in hand.public_events() if e["type"] == "burst"]
    assert len(burst_events) == 1 and sorted(burst_events[0]["seats"]) == [0, 1, 2]
    with pytest.raises(IllegalActionError):
        replay({**h, "actions": [act(1, "pack")]})


@pytest.mark.parametrize("name", ["two_burst", "seven_joker_two_burst"])
def test_all_but_one_burst_last_player(name: str) -> None:
    """B4: one seat left takes the pot unseen, before any action."""
    h = burst_history(name, ["Ks Ad 4d", "7h 2h 9c", "Qc Jc 2d", "2s 3s 5s"])
    result = replay(h)
    assert result["end"] == "last_player"
    assert result["payouts"] == [4, 0, 0, 0]
    assert result["net"] == [3, -1, -1, -1]
    assert result["stacks"] == [103, 99, 99, 99]
    assert result["shown"] == {}
    assert result["burst"] == [False, True, True, True]
    assert result["seen"] == [False, False, False, False]
    assert result["to_act"] is None
    assert hand_of(h).result() == result
    with pytest.raises(IllegalActionError):
        replay({**h, "actions": [act(0, "look")]})


def test_natural_and_wild_hands_tie_in_a_show() -> None:
    """W7: 7-7-3 (two wilds: a trail of threes) equals the natural 3-3-3; the show asker
    (seat 1) loses the tie."""
    cards = ["7c 7d 3c", "3s 3h 3d", "9c 8h 6d"]
    result = replay(history("seven_joker", cards, {}, SHOW_ACTIONS))
    assert result["end"] == "show"
    assert result["payouts"] == SHOW_WON[0]["payouts"]
    assert result["net"] == SHOW_WON[0]["net"]
    assert result["stacks"] == SHOW_WON[0]["stacks"]


def test_natural_and_wild_hands_split_a_showdown() -> None:
    """W7 and RULES 5: the three boots reach pot_cap 3, a showdown at once; the equal
    trails of threes split 3 chips, the odd chip to seat 1 (first from the dealer's left)."""
    h = history("seven_joker", ["7c 7d 3c", "3s 3h 3d", "9c 8h 6d"], {}, [])
    h["rules"] = {"variant": "seven_joker", "pot_cap": 3}
    result = replay(h)
    assert result["end"] == "showdown"
    assert result["payouts"] == [1, 2, 0]
    assert result["net"] == [0, 1, -1]
    assert result["stacks"] == [100, 101, 99]
    assert result["shown"] == {0: ["7c", "7d", "3c"], 1: ["3s", "3h", "3d"],
                               2: ["9c", "8h", "6d"]}  # fmt: skip


def test_burst_then_boots_at_the_cap_is_a_showdown() -> None:
    """B5: burst first, then RULES 2's at-once checks: four boots reach pot_cap 4, seat 3
    bursts, the other three are shown; the trail of kings takes the 4 chips."""
    h = history("two_burst", ["As Ah Kd", "Ks Kh Kc", "9c 8h 6d", "2c Qd Jd"], {}, [])
    h["rules"] = {"variant": "two_burst", "pot_cap": 4}
    result = replay(h)
    assert result["end"] == "showdown"
    assert result["payouts"] == [0, 4, 0, 0]
    assert result["net"] == [-1, 3, -1, -1]
    assert result["stacks"] == [99, 103, 99, 99]
    assert result["shown"] == {0: ["As", "Ah", "Kd"], 1: ["Ks", "Kh", "Kc"],
                               2: ["9c", "8h", "6d"]}  # fmt: skip
    assert result["burst"] == [False, False, False, True]
    assert hand_of(h).result() == result


def test_burst_leaves_one_seat_able_to_bet() -> None:
    """B5: seat 0 is all-in from its boot, seat 2 bursts: only seat 1 can bet, so the two
    left are shown at once; seat 0's pair of aces takes the 3 chips (one slice of 1 each)."""
    h = history("two_burst", ["As Ah Kd", "Ks Qh 9c", "2c Qd Jd"], {}, [])
    h["stacks"] = [1, 100, 100]
    result = replay(h)
    assert result["end"] == "showdown"
    assert result["payouts"] == [3, 0, 0]
    assert result["net"] == [2, -1, -1]
    assert result["stacks"] == [3, 99, 99]
    assert result["shown"] == {0: ["As", "Ah", "Kd"], 1: ["Ks", "Qh", "9c"]}
    assert result["burst"] == [False, False, True]
    assert hand_of(h).result() == result


def test_void_hand_refunds_all_in_boots() -> None:
    """B4: seats all-in from their boots that burst get their boot back; none stays
    all-in."""
    h = history("two_burst", ["2s Ad Kd", "7h 2h 9c", "Qc Jc 2d"], {}, [])
    h["stacks"] = [1, 5, 1]
    result = replay(h)
    assert result["end"] == "void"
    assert result["payouts"] == [1, 1, 1]
    assert result["net"] == [0, 0, 0]
    assert result["stacks"] == [1, 5, 1]
    assert result["all_in"] == [False, False, False]


def test_void_hand_counts_and_passes_the_deal() -> None:
    """B4: a void hand counts toward max_hands and passes the deal."""
    session = Session(Rules(variant="two_burst", num_players=3, max_hands=2), seed=1)
    hand = session.new_hand([["2s", "Ad", "Kd"], ["7h", "2h", "9c"], ["Qc", "Jc", "2d"]], dealer=0)
    assert hand.over and hand.end == "void"
    assert session.hands_played == 1
    assert session.stacks == [100, 100, 100]
    assert session.history[0]["end"] == "void"
    assert session.history[0]["net"] == [0, 0, 0]
    assert not session.over
    assert session.new_hand().dealer == 1
    while not session.hand.over:  # type: ignore[union-attr]
        session.hand.pack()  # type: ignore[union-attr]
    assert session.over and session.hands_played == 2


@pytest.mark.parametrize("name", NAMES)
def test_history_saved_mid_hand_continues_identically(name: str) -> None:
    cards, extra, actions, _ = HISTORIES[name]
    h = history(name, cards, extra, actions)
    for cut in range(len(actions) + 1):
        hand = hand_of(h)
        for action in actions[:cut]:
            hand.apply(action)
        restored = Hand.from_dict(json.loads(json.dumps(hand.to_dict())))
        assert views(restored) == views(hand)
        for action in actions[cut:]:
            hand.apply(action)
            restored.apply(action)
        assert views(restored) == views(hand)
        assert restored.result() == replay(h)


@pytest.mark.parametrize("name", NAMES)
def test_random_hands_saved_mid_hand_continue_identically(name: str) -> None:
    rng = np.random.default_rng(zlib.crc32(name.encode()) + 1)
    for _ in range(12):
        n = int(rng.integers(3, 8))
        rules = Rules(variant=name, num_players=n, sideshow_reveal="private")
        stacks = [int(rng.integers(3, 40)) for _ in range(n)]
        hand = Hand.deal(rules, stacks, 0, rng)
        played: list[dict[str, Any]] = []
        snapshots: list[str] = []
        steps = 0
        while not hand.over and steps < 60:
            snapshots.append(json.dumps(hand.to_dict()))
            action = random_action(hand, rng)
            hand.apply(action)
            played.append(action)
            steps += 1
        cut = int(rng.integers(len(snapshots) + 1)) if snapshots else 0
        if cut == len(snapshots):
            restored = Hand.from_dict(json.loads(json.dumps(hand.to_dict())))
        else:
            restored = Hand.from_dict(json.loads(snapshots[cut]))
            for action in played[cut:]:
                restored.apply(action)
        assert views(restored) == views(hand)
        # A replay of the same actions from the dealt hand gives the same result too.
        saved = hand.to_dict()
        h = {
            "rules": {"variant": name, "sideshow_reveal": "private"},
            "dealer": 0,
            "cards": saved["cards"],
            "stacks": stacks,
            **{k: saved[k] for k in ("community", "indicators", "chosen") if k in saved},
            "actions": played,
        }
        assert replay(h) == hand.result()
