"""The batched engine's variants against the per-table engine, decision by decision.

For every variant the batch plays (all of them: the selection phases, buying a joker,
thresholds and rotating jokers included) and a family special mixing the wild cards that
change during a hand, random rule sets (presets with random overrides, 3-7 seats, short
and uneven stacks), given and random deals (with the variant's community cards,
indicators and chosen rank or colour), random legal actions (buying a joker and the
phase actions among them): at every decision the seat to act, the observation vector
(the variant block included), the mask, the pot, the stake and the stacks agree with
``raw_env`` holding the same deal, and at the end every seat's net, the hands shown and
every final observation (``play_against_twins``, the classic family's machinery).
Coverage is asserted: wild cards in play for every wild source, bursts, void hands where
every seat can burst, every phase action taken, threshold indicators turned up (several
by one payment), wild ranks rotated, jokers bought and shown.

The variants the batch does not play yet are refused naming the variant; chips are
conserved and every hand and session ends (hypothesis; ``test_batched_sessions.py`` holds
the variants' sessions to ``raw_env(episode="session")``).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from builders.batched import check_chips_and_endings, play_random_rule_sets, random_rules
from hypothesis import given, settings
from hypothesis import strategies as st

from teenpatti_env.cards import parse_card
from teenpatti_env.cards.hands import evaluate_hand
from teenpatti_env.engine import Hand
from teenpatti_env.environment import batch_kernels as k
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.environment.batch_variant import unsupported
from teenpatti_env.environment.batched import TableBatch
from teenpatti_env.rules import Rules
from teenpatti_env.rules.variants import VARIANTS

PLAYED = sorted(name for name in VARIANTS
                if name != "classic" and unsupported(Rules(variant=name)) is None)
MIXED_JOKERS = {"name": "mixed_jokers", "private_cards": 2, "community_cards": 1,
                "imagined_card": True, "buy_a_joker": True,
                "wild": ["indicator_rank", "rotating_lowest", {"thresholds": [3, 8]}]}
"""A family special with every wild card that changes during a hand, beside the other
sources (the threshold indicators drawn after another's, S4)."""
REFUSED = sorted(name for name in VARIANTS if name not in PLAYED and name != "classic")
DECISIONS = 20_000
TABLES = 48
HANDS = 4
"""Hands each rule set plays at every table (the twins are made once per rule set)."""


def test_the_batch_plays_every_variant_and_refuses_what_it_does_not() -> None:
    assert len(PLAYED) == 23 and REFUSED == [], REFUSED
    # dealer's choice of them too (test_batched_choice.py)
    assert TableBatch(2, dealers_choice=["classic", *PLAYED]).rules.dealers_choice
    shopping_thresholds = {"name": "shopping_thresholds", "phase": "shopping",
                           "wild": [{"thresholds": [10, 20]}]}
    with pytest.raises(ValueError, match=r"shopping_thresholds.*selection phase together "
                                         r"with buying a joker.*per-table engine"):
        TableBatch(2, variant=shopping_thresholds)


def count_jokers(hand: Hand, seen: Counter[str]) -> None:
    """Count in ``seen`` what the wild cards that change during a hand did in ``hand``:
    threshold indicators turned up (``several``: by one payment), rotations, jokers
    bought, and bought jokers shown."""
    for event in hand.public_events():
        if event["type"] == "indicators_up":
            seen["thresholds"] += 1
            seen["several"] += len(event["cards"]) > 1
        seen["rotated"] += event["type"] == "rotate"
    for seat, card in enumerate(hand.bought):
        seen["bought"] += card is not None
        seen["bought_shown"] += card is not None and seat in hand.shown


@pytest.mark.parametrize("variant", [*PLAYED, MIXED_JOKERS],
                         ids=[*PLAYED, MIXED_JOKERS["name"]])
def test_every_variant_agrees_with_the_engine_at_every_decision(variant: Any) -> None:
    name = Rules(variant=variant).spec.name
    rng = np.random.default_rng(sum(name.encode()))
    spec = Rules(variant=variant).spec
    seen: Counter[str] = Counter()

    def ended(hand: Hand) -> None:
        seen[f"end={hand.end}"] += 1
        events = [event["type"] for event in hand.public_events()]
        if "phase" in events:  # a seat packed on a phase turn (P3)
            over = events.index("phase_over") if "phase_over" in events else len(events)
            seen["phase_pack"] += "pack" in events[:over]
        for seat in range(hand.num_seats):
            if hand.dealt_in[seat] and any(hand.usable_cards(seat)[1]):
                seen["wild"] += 1
            if hand.burst[seat]:
                seen["burst"] += 1
        count_jokers(hand, seen)

    play_random_rule_sets(lambda rng: random_rules(rng).replace(variant=variant), rng,
                          DECISIONS, seen, ended, TABLES, HANDS)
    for action in ("look" if spec.phase in (None, "shopping") else "bet_min", "bet_min",
                   "pack", "show", "sideshow"):
        assert seen[action] > 0, (action, seen)
    # Every phase action taken: each discard and pass slot, draws and keeps (P1-P9).
    phase_actions = [action for action in ActionLayout(Rules(variant=variant)).names
                     if action.split("_")[0] in ("discard", "draw", "keep", "pass")]
    assert bool(phase_actions) == (spec.phase is not None)
    for action in phase_actions:
        assert seen[action] > 0, (action, seen)
    if spec.phase is not None:
        assert seen["phase_pack"] > 0, seen
    if spec.wild:
        assert seen["wild"] > 0, seen
    if spec.burst_rank is not None:
        assert seen["burst"] > 0, seen
        assert seen["end=void"] > 0, seen
    if "thresholds" in spec.wild_kinds:
        assert seen["thresholds"] > 0 and seen["several"] > 0, seen
    if "rotating_lowest" in spec.wild_kinds:
        assert seen["rotated"] > 0, seen
    if spec.buy_a_joker:
        assert seen["bought_shown"] > 0, seen
        assert all(seen[f"buy_joker_{k}"] > 0 for k in range(spec.private_cards)), seen


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(PLAYED), seed=st.integers(0, 2**31), players=st.integers(3, 7),
       short=st.booleans(), session=st.booleans())
def test_chips_are_conserved_and_every_hand_and_session_ends(
        name: str, seed: int, players: int, short: bool, session: bool) -> None:
    check_chips_and_endings(name, seed, players, short, session)


@settings(max_examples=12, deadline=None)
@given(variant=st.sampled_from(["joker_thresholds", "rotating_jokers", "buy_a_joker",
                                MIXED_JOKERS]),
       seed=st.integers(0, 2**31), players=st.integers(3, 7), short=st.booleans(),
       session=st.booleans())
def test_chips_are_conserved_while_the_wild_cards_change(
        variant: Any, seed: int, players: int, short: bool, session: bool) -> None:
    check_chips_and_endings(variant, seed, players, short, session)


def test_the_vector_environment_takes_a_variant() -> None:
    from teenpatti_env.environment.vector import TeenPattiVectorEnv

    env = TeenPattiVectorEnv(8, variant="four_card")
    observations, _ = env.reset(seed=3)
    assert env.rules.spec.private_cards == 4
    assert observations.shape == (8, env.batch.observation_size)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(50):
        masks = env.action_masks()
        observations, _, terminated, _, _ = env.step((masks + rng.random(masks.shape))
                                                     .argmax(axis=1))
        ended += int(terminated.sum())
    assert ended > 0
    assert observations.shape[1] > 277  # the variant block


def test_selfplay_trains_on_a_variant_from_the_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch")
    from agents.policy import read_policy
    from interfaces.cli import main

    out = tmp_path / "joker"
    code = main(["selfplay", "--variant", "joker", "--timesteps", "1000", "--tables", "16",
                 "--rollout-steps", "32", "--minibatch-size", "256", "--hidden", "16",
                 "--threads", "1", "--out", str(out), "--quiet"])
    assert code == 0
    assert "--variant joker" in capsys.readouterr().out
    policy = read_policy(out / "policy.npz")
    assert policy.rules.spec.name == "joker"
    # a phase variant: other actions (discard_k), the same trainer
    code = main(["selfplay", "--variant", "discard_one", "--timesteps", "1000", "--tables",
                 "16", "--rollout-steps", "32", "--minibatch-size", "256", "--hidden", "16",
                 "--threads", "1", "--out", str(tmp_path / "discard"), "--quiet"])
    assert code == 0
    assert "discard_0" in read_policy(tmp_path / "discard" / "policy.npz").action_names
    assert main(["selfplay", "--variant", "no_such_variant", "--out", str(out),
                 "--quiet"]) == 2
    assert "no_such_variant" in capsys.readouterr().err


def test_a_given_deal_carries_the_variants_table_cards() -> None:
    batch = TableBatch(2, variant="open_joker", num_players=3, autoreset=False)
    cards = [[["As", "Kd"], ["7c", "7h"], ["2s", "3s"]]] * 2
    step = batch.reset(options={"cards": cards, "dealer": 0, "community": [["Qh"], ["9d"]],
                                "chosen": [{"rank": "7"}, {"rank": "Q"}]})
    assert (step.to_act == 1).all()
    first, second = batch.history(0), batch.history(1)
    assert first["community"] == ["Qh"] and first["chosen"] == {"rank": "7"}
    assert second["community"] == ["9d"] and second["chosen"] == {"rank": "Q"}
    # Worked by hand. Table 0 (sevens wild, the queen of hearts shared): seat 0 makes
    # A-K-Q, seat 1's two wild sevens and the queen a trail of queens, seat 2 a queen
    # high. Table 1 (queens wild, none dealt; the nine of diamonds shared): seat 0 holds
    # A-K-9, seat 1 a pair of sevens, seat 2 a nine high.
    values = batch.arrays.seat[:, k.VALUE, :].tolist()
    assert values[0] == [evaluate_hand("As Kd Qh"), evaluate_hand("Qs Qd Qc"),
                         evaluate_hand("2s 3s Qh")]
    assert values[1] == [evaluate_hand("As Kd 9d"), evaluate_hand("7c 7h 9d"),
                         evaluate_hand("2s 3s 9d")]


def _act(batch: TableBatch, *names: str) -> Any:
    """Take the named actions one after the other at a batch of one table; the last step."""
    step = None
    for name in names:
        step = batch.step(np.array([batch.layout.index(name)]))
    return step


def test_one_bet_turns_two_thresholds_up_before_anything_else() -> None:
    batch = TableBatch(1, variant="joker_thresholds", num_players=3, raise_multiple=10,
                       autoreset=False)
    batch.reset(options={"cards": [[["As", "Kd", "2c"], ["7h", "7d", "3s"],
                                    ["Qh", "Jh", "4d"]]],
                         "dealer": 0, "indicators": [["7c", "3h", "Kh"]]})
    _act(batch, "look", "bet_max")  # seat 1: a seen bet of 20 chips (stake 1, 2 x 10)
    tab, values = batch.arrays.tab, batch.arrays.seat[0, k.VALUE]
    assert tab[0, k.REVEALED] == 2  # 20 chips beyond the boots reach 10 and 20 at once
    # Sevens and threes wild: seat 1's three wild cards are the best hand; seats 0 and 2
    # hold none of them.
    assert values.tolist() == [evaluate_hand("As Kd 2c"), evaluate_hand("As Ad Ac"),
                               evaluate_hand("Qh Jh 4d")]
    slots = {name: offset for name, offset, _, _ in batch.obs_layout.slots}
    seen = batch.observe(np.array([2]))[0]
    indicators = np.flatnonzero(seen[slots["indicators"]:slots["indicators"] + 52])
    assert indicators.tolist() == [parse_card("3h"), parse_card("7c")]  # the king: face down
    assert seen[slots["beyond_boots"]] == 20.0


def test_the_wild_ranks_rotate_after_a_full_betting_round() -> None:
    batch = TableBatch(1, variant="rotating_jokers", num_players=3, autoreset=False)
    batch.reset(options={"cards": [[["9c", "Kd", "As"], ["5h", "9d", "Qs"],
                                    ["8h", "Tc", "Js"]]], "dealer": 0})
    seat = batch.arrays.seat
    assert seat[0, k.OWN_RANK].tolist() == [7, 3, 6]  # each seat's lowest: 9, 5, 8
    # Seat 1's own five is wild: Q-9 and a wild make a pair of queens, nine high.
    assert seat[0, k.VALUE, 1] == evaluate_hand("Qs Qd 9d")
    _act(batch, "bet_min", "bet_min", "bet_min")  # seats 1, 2, 0; the turn is back at 1
    assert batch.arrays.tab[0, k.ROTATIONS] == 1
    # Each seat now uses the rank of the seat on its right: seat 1 seat 0's nine.
    assert seat[0, k.OWN_RANK].tolist() == [6, 7, 3]
    assert seat[0, k.VALUE, 1] == evaluate_hand("Qs Qd 5h")


def test_a_bought_joker_is_paid_for_and_wild_and_the_turn_stays() -> None:
    batch = TableBatch(1, variant="buy_a_joker", num_players=3, autoreset=False)
    step = batch.reset(options={"cards": [[["9c", "Kd", "As"], ["5h", "9d", "Qs"],
                                           ["8h", "Tc", "Js"]]], "dealer": 0})
    buy = batch.layout.index("buy_joker_1")
    assert step.action_masks[0, buy] == 0  # blind: look first
    assert _act(batch, "look").action_masks[0, buy] == 1
    step = _act(batch, "buy_joker_1")  # the nine of diamonds
    seat = batch.arrays.seat
    assert batch.to_act[0] == 1 and batch.pot[0] == 4 and batch.stack_chips[0, 1] == 98
    assert seat[0, k.BOUGHT, 1] == parse_card("9d")
    assert seat[0, k.VALUE, 1] == evaluate_hand("Qs Qd 5h")
    assert not step.action_masks[0, batch.layout.index("buy_joker_0")]  # once a hand
    assert batch.history(0)["actions"][-1] == {"seat": 1, "type": "buy_joker", "card": "9d"}


@pytest.mark.parametrize(("options", "message"), [
    ({"indicators": [["7c"], ["7d"]]}, "'indicators' needs 'cards'"),
    ({"cards": [[["As", "Kd", "Qh"], ["7c", "7h", "2d"], ["2s", "3s", "4s"]]] * 2},
     "table 0: .*indicators"),
    ({"cards": [[["As", "Kd", "Qh"], ["7c", "7h", "2d"], ["2s", "3s", "4s"]]] * 2,
      "indicators": [["9c"]]}, "one entry per table"),
    ({"cards": [[["As", "Kd", "Qh"], ["7c", "7h", "2d"], ["2s", "3s", "4s"]]] * 2,
      "indicators": [["9c"], ["As"]]}, "table 1: .*As"),
])
def test_bad_table_cards_in_options_are_refused_and_change_nothing(options: dict,
                                                                    message: str) -> None:
    batch = TableBatch(2, variant="joker", num_players=3, seed=0)
    before = batch.reset()
    observations = before.observations.copy()
    with pytest.raises(ValueError, match=message):
        batch.reset(options=options)
    assert np.array_equal(batch.observe(batch.to_act), observations)


# Not shopping: once a deck runs out, each engine reshuffles the discards with its own
# generator (P7), so the hands go on differently (test_batched_phases.py holds the two
# engines to each other given the same reshuffle).
@pytest.mark.parametrize("name", ["muflis", "joker", "discard_one", "passing_cards",
                                  "buy_a_joker"])
def test_the_batched_arena_gives_the_per_table_report_in_a_variant(tmp_path: Path,
                                                                  name: str) -> None:
    from builders.training import random_policy

    from agents.arena import run_arena

    rules = Rules(variant=name)
    # Random weights, played by their most likely action: two seeds whose policies do not
    # both always pack (discard_one's layout, grown by my_slots and my_discards, draws
    # other weights from the same seeds).
    seeds = (5, 6) if name == "discard_one" else (1, 2)
    agents = [f"ppo:{random_policy(rules, seed=seed).save(tmp_path / f'{seed}.npz')}"
              for seed in seeds]
    batched = run_arena(agents, hands=300, seed=5, rules=rules, engine="batched")
    per_table = run_arena(agents, hands=300, seed=5, rules=rules, engine="per_table")
    assert batched.to_dict() == per_table.to_dict()
    # Shows happen: the hands' values (the variant's valuation) decide the results.
    assert any(result["rates"]["show"] > 0 for result in batched.to_dict()["results"].values())


def test_arena_cli_plays_a_variant_on_the_batched_engine(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from builders.training import random_policy

    from interfaces.cli import main

    rules = Rules(variant="muflis")
    agents = ",".join(f"ppo:{random_policy(rules, seed=seed).save(tmp_path / f'{seed}.npz')}"
                      for seed in (1, 2))
    code = main(["arena", "--agents", agents, "--variant", "muflis", "--engine", "batched",
                 "--hands", "8", "--quiet", "--out", str(tmp_path / "report")])
    assert code == 0, capsys.readouterr().err
    assert (tmp_path / "report").exists()
