"""history_of: a played hand written back as a hand history replays to the same state."""

from __future__ import annotations

import json

import numpy as np
import pytest

from teenpatti_env import Hand, Rules, history_of, replay
from teenpatti_env.rules.variants import VARIANTS

TABLES = [Rules(variant=name) for name in VARIANTS] + [
    Rules.preset(name) for name in ("pagat", "flash", "tabletop")
] + [Rules(dealers_choice=["open_joker", "colour_jokers", "shopping", "buy_a_joker", "muflis"])]


def _play_and_check(rules: Rules, seed: int, hands: int) -> int:
    """Play random hands (short stacks, off-turn looks); after random actions and at the
    end, the exported history (through JSON) must replay to ``hand.result()``."""
    rng = np.random.default_rng(seed)
    checked = 0
    for number in range(hands):
        stacks = [int(x) for x in rng.integers(1, 60, rules.num_players)]
        try:
            hand = Hand.deal(rules, stacks, number % rules.num_players, rng)
        except ValueError:  # fewer than two seats can enter
            continue
        while not hand.over:
            legal = hand.legal_actions()
            choice = legal[int(rng.integers(len(legal)))]
            action = {"seat": hand.to_act, "type": choice["type"]}
            if "min" in choice:
                action["amount"] = choice["min"] if rng.random() < 0.5 else choice["max"]
            if choice["type"] == "choose_variant":  # C1: a variant, and its rank or colour
                name = choice["variants"][int(rng.integers(len(choice["variants"])))]
                action["variant"] = name
                needs = VARIANTS[name].chooses
                if needs == "rank":
                    action["rank"] = "23456789TJQKA"[int(rng.integers(13))]
                elif needs == "colour":
                    action["colour"] = ("red", "black")[int(rng.integers(2))]
            if choice["type"] in ("discard", "buy_joker"):  # these name a card (H4)
                action["card"] = choice["cards"][int(rng.integers(len(choice["cards"])))]
            elif choice["type"] == "pass":
                picked = rng.choice(len(choice["cards"]), size=3, replace=False)
                action["cards"] = [choice["cards"][int(k)] for k in picked]
            hand.apply(action)
            for seat in range(hand.num_seats):
                look = {"seat": seat, "type": "look"}
                if not hand.over and rng.random() < 0.05 and hand.is_legal(look):
                    hand.look(seat)
            if rng.random() < 0.2:
                assert replay(json.loads(json.dumps(history_of(hand)))) == hand.result()
                checked += 1
        assert replay(json.loads(json.dumps(history_of(hand)))) == hand.result()
        checked += 1
    return checked


@pytest.mark.parametrize(
    "rules", TABLES, ids=lambda r: "dealers_choice" if r.dealers_choice else str(r.spec.name)
)
def test_exported_history_replays_to_the_same_state(rules: Rules) -> None:
    assert _play_and_check(rules, seed=len(str(rules)), hands=120) > 100


def test_exported_history_carries_the_variant_fields() -> None:
    rules = Rules(variant={"name": "family", "spec": {"private_cards": 2, "community_cards": 1,
                                                      "wild": ["chosen_rank"]}})
    hand = Hand.deal(rules, [100] * 4, 1, np.random.default_rng(3))
    history = history_of(hand)
    assert len(history["community"]) == 1
    assert set(history["chosen"]) == {"rank"}
    assert history["rules"]["variant"]["name"] == "family"  # C2: the whole spec, not a name
    assert history["rules"]["variant"]["spec"]["community_cards"] == 1
    assert all(len(cards) == 2 for cards in history["cards"])
    assert replay(history) == hand.result()


def test_history_of_a_hand_with_fewer_seats_than_its_rules_replays() -> None:
    """A Hand's seats are its card lists; the history's rules must agree with them."""
    hand = Hand(Rules(), [["Ah", "Kd", "3c"], ["Qs", "Qd", "5h"], ["9c", "8d", "4s"]],
                [100, 100, 100], dealer=2)
    hand.look(0)
    hand.pack()
    hand.pack()
    history = history_of(hand)
    assert history["rules"]["num_players"] == 3
    assert replay(history) == hand.result()
