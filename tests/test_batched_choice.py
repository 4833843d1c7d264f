"""Dealer's choice in the batched engine against the per-table engine, decision by decision.

Random rule sets (presets with random overrides, 3-7 seats, short and uneven stacks)
under dealer's choice over three lists of variants (those with classic's actions; the
wild, open and shared card variants with bursts; the selection phases, thresholds,
rotating jokers, buying a joker and muflis): at every decision, the dealer's choice
first, the seat to act, the observation vector (the union layout over the listed
variants, the ``choosing`` flag and the ``variant_chosen`` block), the mask, the pot, the
stake and the stacks agree with ``raw_env`` holding the same deal, and at the end every
seat's net, the hands shown and every final observation; 8,000 decisions per list, every
listed variant chosen. Sessions with dealer's choice (``max_hands``, ``vote_to_end``,
busted seats) are held to ``raw_env(episode="session")`` the same way, with every step's
rewards and each session's end. Chips are conserved and every hand and session ends
(hypothesis).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from builders.batched import (
    check_chips_and_endings,
    play_random_rule_sets,
    random_rules,
    random_stacks,
)
from builders.batched_choice import play_choice_against_twins, play_choice_sessions
from hypothesis import given, settings
from hypothesis import strategies as st

from teenpatti_env.environment import batch_kernels as k
from teenpatti_env.environment.batched import TableBatch
from teenpatti_env.errors import IllegalActionError
from teenpatti_env.rules import Rules

CLASSIC_ACTIONS = ["classic", "muflis", "joker", "ak47", "four_card"]
"""Variants that share classic's actions."""
WILD_AND_SHARED = ["open_joker", "imagine_one", "personal_joker", "all_open", "joker_galore",
                   "shared_pair", "seven_joker_two_burst", "two_cards_open",
                   "middle_jokers", "colour_jokers", "seven_joker", "one_open_card",
                   "two_burst"]
PHASES = ["discard_one", "shopping", "passing_cards", "buy_a_joker", "joker_thresholds",
          "rotating_jokers", "muflis"]
LISTS = [CLASSIC_ACTIONS, WILD_AND_SHARED, PHASES]
ALL = sorted({*CLASSIC_ACTIONS, *WILD_AND_SHARED, *PHASES})
assert Rules(dealers_choice=ALL).dealers_choice  # every name a variant (fails at once)
DECISIONS = 8_000
"""Decisions compared per list (three lists: 24,000 hand decisions in all)."""
SESSION_DECISIONS = 6_000
TABLES = 48


@pytest.mark.parametrize("choices", LISTS, ids=["classic_actions", "wild_and_shared",
                                                "phases_and_jokers"])
def test_dealers_choice_agrees_with_the_engine_at_every_decision(choices: list[str]) -> None:
    seen: Counter[str] = Counter()
    rng = np.random.default_rng(len(choices))
    play_random_rule_sets(lambda rng: random_rules(rng).replace(dealers_choice=choices), rng,
                          DECISIONS, seen, tables=TABLES, hands=3,
                          play=play_choice_against_twins)
    for name in choices:
        assert seen[f"variant={name}"] > 0, (name, seen)
    for action in ("look", "bet_min", "pack", "show", "sideshow", "end=show",
                   "end=last_player"):
        assert seen[action] > 0, (action, seen)


def test_dealers_choice_sessions_agree_with_the_engine_at_every_decision() -> None:
    rng = np.random.default_rng(27)
    seen: Counter[str] = Counter()
    played = 0
    while played < SESSION_DECISIONS:
        try:
            rules = random_rules(rng).replace(
                dealers_choice=list(rng.choice(ALL, size=4, replace=False)),
                max_hands=None if rng.random() < 0.5 else int(rng.integers(1, 10)),
                vote_to_end=bool(rng.random() < 0.3))
        except ValueError:
            continue
        batch = TableBatch(16, rules, episode="session", autoreset=False)
        starts = [random_stacks(rules, rng) for _ in range(16)]
        starts = [[min(chips, 12 * rules.boot) for chips in row] for row in starts]
        if any(sum(c >= rules.entry_chips for c in row) < 2 for row in starts):
            continue
        played += play_choice_sessions(batch, rng, seen, starts)
    assert sum(seen[f"variant={name}"] > 0 for name in ALL) >= len(ALL) - 2, seen
    for name in ("session_over", "ended_by_vote", "hand_with_busted_seat_out"):
        assert seen[name] > 0, (name, seen)


def test_the_choice_is_the_dealers_decision_and_deals_the_chosen_variant() -> None:
    batch = TableBatch(2, dealers_choice=["classic", "four_card", "open_joker"],
                       num_players=3, seed=5, autoreset=False)
    step = batch.reset()
    names = batch.layout.names
    dealer = batch.dealer
    assert (step.to_act == dealer).all() and (batch.pot == 0).all()
    choose = [i for i, name in enumerate(names) if name.startswith("choose_")]
    assert [names[i] for i in np.flatnonzero(step.action_masks[0])] == [names[i] for i in choose]
    slots = {name: offset for name, offset, _, _ in batch.obs_layout.slots}
    assert (step.observations[:, slots["choosing"]] == 1).all()
    with pytest.raises(IllegalActionError, match="chooses the variant first"):
        batch.step(np.array([names.index("look")] * 2))
    step = batch.step(np.array([names.index("choose_four_card"),
                                names.index("choose_open_joker_7")]))
    # Table 0 plays four cards: every seat holds four, the boots are in.
    first, second = batch.hand(0), batch.hand(1)
    assert first.rules.spec.name == "four_card" and all(len(c) == 4 for c in first.cards)
    assert batch.pot.tolist() == [3, 3]
    # Table 1 plays open joker with sevens wild, one card of each seat open.
    assert second.rules.spec.name == "open_joker" and second.variant_deal.chosen == 5
    assert batch.arrays.tab[1, k.WILD_RANK + 5] == 1
    width = len(batch.rules.dealers_choice)
    chosen = step.observations[:, slots["variant_chosen"]:slots["variant_chosen"] + width]
    assert chosen.tolist() == [[0, 1, 0], [0, 0, 1]]
    assert (step.observations[:, slots["choosing"]] == 0).all()
    history = batch.history(1)
    assert history["actions"][0] == {"seat": int(dealer[1]), "type": "choose_variant",
                                     "variant": "open_joker", "rank": "7"}
    assert "chosen" not in history  # H3: named in the choice
    # Everyone packs to the end; redeal starts the next hands with a choice again.
    pack = names.index("pack")
    while (step.to_act >= 0).any():
        step = batch.step(np.full(2, pack))
    assert batch.over.all()
    step = batch.redeal(np.array([True, False]))
    assert step.to_act[0] == batch.dealer[0] and step.to_act[1] == -1
    assert step.observations[0, slots["choosing"]] == 1
    assert step.action_masks[0, choose].all()


def test_a_dealers_choice_batch_refuses_what_it_cannot_play_by_name() -> None:
    shopping_thresholds = {"name": "shopping_thresholds", "phase": "shopping",
                           "wild": [{"thresholds": [10, 20]}]}
    with pytest.raises(ValueError, match=r"shopping_thresholds.*dealer's choice lists"):
        TableBatch(2, dealers_choice=["classic", shopping_thresholds])
    batch = TableBatch(2, dealers_choice=["classic", "muflis"], num_players=3)
    with pytest.raises(ValueError, match=r"dealer's choice.*'cards' is not taken"):
        batch.reset(options={"cards": [[["As", "Kd", "Qh"], ["7c", "7h", "2d"],
                                        ["2s", "3s", "4s"]]] * 2})
    step = batch.reset(options={"stacks": [[1, 50, 50], [50, 50, 50]]})
    assert batch.hand_stacks[0].tolist() == [1, 50, 50] and (step.to_act >= 0).all()


@settings(max_examples=20, deadline=None)
@given(choices=st.lists(st.sampled_from(ALL), min_size=1, max_size=5, unique=True),
       seed=st.integers(0, 2**31), players=st.integers(3, 7), short=st.booleans(),
       session=st.booleans())
def test_chips_are_conserved_and_every_hand_and_session_ends_under_dealers_choice(
        choices: list[str], seed: int, players: int, short: bool, session: bool) -> None:
    check_chips_and_endings("classic", seed, players, short, session, choices)


def test_the_vector_environment_plays_dealers_choice() -> None:
    from teenpatti_env.environment.vector import TeenPattiVectorEnv

    env = TeenPattiVectorEnv(8, dealers_choice=["classic", "muflis", "discard_one"])
    env.reset(seed=3)
    choose = [i for i, name in enumerate(env.batch.layout.names) if name.startswith("choose_")]
    rng = np.random.default_rng(0)
    ended = chose = 0
    for _ in range(100):
        masks = env.action_masks()
        chose += int(masks[:, choose].any(axis=1).sum())  # the learner deals and chooses
        _, _, terminated, _, _ = env.step((masks + rng.random(masks.shape)).argmax(axis=1))
        ended += int(terminated.sum())
    assert ended > 0 and chose > 0
