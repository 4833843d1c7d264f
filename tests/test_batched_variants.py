"""The batched engine's variants against the per-table engine, decision by decision.

For every variant the batch plays (every one without buying a joker, thresholds or
rotating jokers; the selection phases included), random rule sets (presets with random
overrides, 3-7 seats, short and uneven stacks), given and random deals (with the variant's
community cards, indicators and chosen rank or colour), random legal actions: at every
decision the seat to act, the observation vector (the variant block included), the mask,
the pot, the stake and the stacks agree with ``raw_env`` holding the same deal, and at
the end every seat's net, the hands shown and every final observation (``play_against_twins``, the
classic family's machinery). Coverage is asserted: wild cards in play for every wild
source, bursts, void hands where every seat can burst, every phase action taken.

The variants the batch does not play yet are refused naming the variant; chips are
conserved and every hand and session ends (hypothesis; ``test_batched_sessions.py`` holds
the variants' sessions to ``raw_env(episode="session")``).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from builders.batched import check_chips_and_endings, play_random_rule_sets, random_rules
from hypothesis import given, settings
from hypothesis import strategies as st

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
REFUSED = sorted(name for name in VARIANTS if name not in PLAYED and name != "classic")
DECISIONS = 20_000
TABLES = 48
HANDS = 4
"""Hands each rule set plays at every table (the twins are made once per rule set)."""


def test_the_batch_plays_twenty_variants_and_refuses_the_rest() -> None:
    assert len(PLAYED) == 20, PLAYED
    assert {"discard_one", "shopping", "passing_cards"} <= set(PLAYED)
    assert REFUSED == ["buy_a_joker", "joker_thresholds", "rotating_jokers"]


@pytest.mark.parametrize("name", REFUSED)
def test_a_variant_the_batch_does_not_play_is_refused_naming_it(name: str) -> None:
    with pytest.raises(ValueError, match=f"{name}.*per-table engine"):
        TableBatch(2, variant=name)


@pytest.mark.parametrize("name", PLAYED)
def test_every_variant_agrees_with_the_engine_at_every_decision(name: str) -> None:
    rng = np.random.default_rng(sum(name.encode()))
    spec = Rules(variant=name).spec
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

    play_random_rule_sets(lambda rng: random_rules(rng).replace(variant=name), rng,
                          DECISIONS, seen, ended, TABLES, HANDS)
    for action in ("look" if spec.phase in (None, "shopping") else "bet_min", "bet_min",
                   "pack", "show", "sideshow"):
        assert seen[action] > 0, (action, seen)
    # Every phase action taken: each discard and pass slot, draws and keeps (P1-P9).
    phase_actions = [action for action in ActionLayout(Rules(variant=name)).names
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


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(PLAYED), seed=st.integers(0, 2**31), players=st.integers(3, 7),
       short=st.booleans(), session=st.booleans())
def test_chips_are_conserved_and_every_hand_and_session_ends(
        name: str, seed: int, players: int, short: bool, session: bool) -> None:
    check_chips_and_endings(name, seed, players, short, session)


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
    assert main(["selfplay", "--variant", "buy_a_joker", "--out", str(out), "--quiet"]) == 2
    assert "buy_a_joker" in capsys.readouterr().err


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
@pytest.mark.parametrize("name", ["muflis", "joker", "discard_one", "passing_cards"])
def test_the_batched_arena_gives_the_per_table_report_in_a_variant(tmp_path: Path,
                                                                  name: str) -> None:
    from builders.training import random_policy

    from agents.arena import run_arena

    rules = Rules(variant=name)
    agents = [f"ppo:{random_policy(rules, seed=seed).save(tmp_path / f'{seed}.npz')}"
              for seed in (1, 2)]
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
