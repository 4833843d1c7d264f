"""The scripted agents' batched forms (agents/batch_scripted.py) against their per-table
selves: both play the same deals side by side and every decision must agree, in the
classic family and in every variant the batched engine plays (wild cards, muflis, four
private cards, community cards, open cards, all_open, bursts), with coverage of what the
per-table agents read differently in a variant asserted."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest
from builders.batched import describe, random_rules, random_stacks

from agents import SCRIPTED_AGENTS, make_agent
from agents.arena import run_arena
from agents.batch_scripted import batch_agent
from agents.odds import HandOdds
from teenpatti_env.environment.aec import raw_env
from teenpatti_env.environment.batch_variant import unsupported
from teenpatti_env.environment.batched import TableBatch
from teenpatti_env.rules import Rules
from teenpatti_env.rules.variants import VARIANTS
from training.target_tables import OneSeatBatch

PLAYED = sorted(name for name in VARIANTS
                if name != "classic" and unsupported(Rules(variant=name)) is None
                and Rules(variant=name).spec.phase is None
                and not Rules(variant=name).spec.buy_a_joker)
"""Every variant the batched engine plays but those with a selection phase or joker
buying (their phase and buying choices: tests/test_batch_phase_agents.py): 19."""
REPRESENTATIVE = ("muflis", "four_card", "seven_joker_two_burst", "shared_pair", "all_open",
                  "two_cards_open", "imagine_one", "joker")
"""One variant of each kind: lowball, four private cards, bursts with wild ranks,
community cards, every other hand open and one's own never, open cards, two private
cards and the imaginary card, an indicator joker (four_card and joker at short and
uneven stacks)."""
SITUATIONS = ("wild", "community", "open", "four", "two", "blind_sees_other",
              "knows_other", "burst", "lowball")
LONG_SITUATIONS = (*SITUATIONS, "knows_other_not_three")


def count_situations(info: dict[str, Any], rules: Rules, seen: Counter[str]) -> None:
    """Count what a decision's info view holds that the agents read differently in a
    variant: wild cards, community cards, an opponent's open cards only, four or two
    private cards, a seat that sees none of its cards but an opponent's (all_open), a
    whole opponent's hand known (and one of four or two cards), a burst seat, a lowball
    ranking."""
    private = rules.spec.private_cards
    others = [s for s in info["seats"] if s["seat"] != info["seat"] and s["cards"]]
    seen["wild"] += bool(info["wild_ranks"] or info["wild_colours"])
    seen["community"] += bool(info["community"])
    seen["open"] += any(len(s["cards"]) < private for s in others)
    seen["four"] += private == 4
    seen["two"] += private == 2
    seen["blind_sees_other"] += info["cards"] is None and bool(others)
    knows_other = any(len(s["cards"]) == private for s in others)
    seen["knows_other"] += knows_other
    # a whole hand seen in a sideshow or show, where it is not three private cards
    seen["knows_other_not_three"] += knows_other and private != 3
    seen["burst"] += any(s["burst"] for s in info["seats"])
    seen["lowball"] += rules.ranking_lowball


def variant_rules(name: str, rng: np.random.Generator) -> Rules:
    """Random rules (any preset and overrides, 3-7 seats) of the variant ``name``."""
    while True:
        try:
            return random_rules(rng).replace(variant=name)
        except ValueError:  # an override the variant does not take
            continue


def play_side_by_side(name: str, rules: Rules, tables: int, hands: int, seed: int,
                      stacks: list[int] | None = None,
                      seen: Counter[str] | None = None,
                      taken: Counter[str] | None = None) -> int:
    """``hands`` rounds of hands at ``tables`` tables; at every decision the batched form
    and the per-table agent of that table and seat (seeded alike) must choose the same
    action. Returns the number of decisions compared; ``seen`` counts the situations
    (:func:`count_situations`), ``taken`` the actions by name."""
    batch = TableBatch(tables, rules, autoreset=False, stacks=stacks)
    envs = [raw_env(rules=batch.rules, bet_levels=batch.layout.bet_levels)
            for _ in range(tables)]
    seeds = np.random.default_rng(seed).integers(2**31, size=(hands, tables, batch.num_seats))
    compared = 0
    step = batch.reset(seed=seed)
    for h in range(hands):
        if h:
            step = batch.redeal(np.ones(tables, dtype=np.bool_))
        batched = batch_agent(name, batch, seeds[h])
        agents = [[make_agent(name, int(seeds[h, t, s])) for s in range(batch.num_seats)]
                  for t in range(tables)]
        for t, env in enumerate(envs):
            hand = batch.hand(t)
            env.reset(options={"cards": hand.cards, "dealer": hand.dealer,
                               "stacks": batch.hand_stacks[t].tolist(),
                               **hand.table_cards()})
        while (step.to_act >= 0).any():
            rows = np.flatnonzero(step.to_act >= 0)
            actions = np.zeros(tables, dtype=np.int64)
            actions[rows] = batched.act(rows, step.observations[rows], step.action_masks[rows])
            for t in rows.tolist():
                env = envs[t]
                seat_name = env.agent_selection
                seat = env.agent_name_mapping[seat_name]
                assert seat == step.to_act[t]
                # the batched engine's mask equals the env's (tests/test_batched*.py)
                info = env.view(seat_name)
                if seen is not None:
                    count_situations(info, batch.rules, seen)
                alone = agents[t][seat].act(step.observations[t], step.action_masks[t],
                                            info)
                assert alone == actions[t], (
                    f"{name}, table {t}, seat {seat}: per table {alone}, batched "
                    f"{actions[t]}; hand so far {describe(batch, t)}")
                env.step(alone)
                compared += 1
                if taken is not None:
                    taken[batch.layout.names[alone]] += 1
            step = batch.step(actions)
        for t, env in enumerate(envs):
            assert env.hand.net == batch.net[t].tolist()
    return compared


@pytest.mark.parametrize("name", sorted(SCRIPTED_AGENTS))
def test_batched_form_decides_as_per_table_over_rule_sets(name: str) -> None:
    rng = np.random.default_rng(sorted(SCRIPTED_AGENTS).index(name))
    compared = play_side_by_side(name, Rules.preset("classic"), 40, 2, seed=1)
    for k in range(6):
        rules = random_rules(rng)
        compared += play_side_by_side(name, rules, 16, 2, seed=10 + k,
                                      stacks=random_stacks(rules, rng))
    assert compared > 1000


@pytest.mark.parametrize("name", sorted(SCRIPTED_AGENTS))
def test_batched_form_decides_as_per_table_in_every_kind_of_variant(name: str) -> None:
    rng = np.random.default_rng(200 + sorted(SCRIPTED_AGENTS).index(name))
    seen: Counter[str] = Counter()
    compared = 0
    for k, variant in enumerate(REPRESENTATIVE):
        rules = variant_rules(variant, rng)
        compared += play_side_by_side(name, rules, 16, 2, seed=k, seen=seen,
                                      stacks=random_stacks(rules, rng) if k % 6 == 1 else None)
    assert compared > 2000
    for situation in SITUATIONS:
        assert seen[situation] > 0, (situation, seen)


@pytest.mark.long
@pytest.mark.parametrize("name", sorted(SCRIPTED_AGENTS))
def test_batched_form_decides_as_per_table_over_50000_decisions_in_the_variants(
        name: str) -> None:
    """Every variant the batch plays, in turn, until at least 50,000 decisions."""
    rng = np.random.default_rng(300 + sorted(SCRIPTED_AGENTS).index(name))
    seen: Counter[str] = Counter()
    situations = SITUATIONS if name == "auto" else LONG_SITUATIONS
    compared, k = 0, 0
    # at least 50,000 decisions and every variant; then on (three rounds at most) until
    # every situation was met
    while (compared < 50_000 or k < len(PLAYED)
           or (k < 3 * len(PLAYED) and not all(seen[s] for s in situations))):
        rules = variant_rules(PLAYED[k % len(PLAYED)], rng)
        # few tables, more hands: making a per-table env costs more than its hands
        compared += play_side_by_side(name, rules, 16, 6, seed=k, seen=seen,
                                      stacks=random_stacks(rules, rng) if k % 2 else None)
        k += 1
    # auto never asks for a sideshow, so at its tables no hand is seen before the end
    for situation in situations:
        assert seen[situation] > 0, (situation, seen)


@pytest.mark.long
@pytest.mark.parametrize("name", sorted(SCRIPTED_AGENTS))
def test_batched_form_decides_as_per_table_over_50000_decisions(name: str) -> None:
    compared, k = 0, 0
    rng = np.random.default_rng(100 + sorted(SCRIPTED_AGENTS).index(name))
    while compared < 50_000:
        if k % 2:
            rules = random_rules(rng)
            compared += play_side_by_side(name, rules, 100, 4, seed=k,
                                          stacks=random_stacks(rules, rng))
        else:
            compared += play_side_by_side(name, Rules.preset("classic"), 100, 8, seed=k)
        k += 1
    assert compared >= 50_000


def test_percentile_table_is_the_hand_by_hand_percentile() -> None:
    rng = np.random.default_rng(3)
    for best_sequence, lowball in (("AKQ", False), ("A23", True)):
        odds = HandOdds(best_sequence, lowball)
        table = odds.percentiles()
        for _ in range(200):
            a, b, c = (int(x) for x in rng.choice(52, 3, replace=False))
            assert table[a * 2704 + b * 52 + c] == odds.percentile([a, b, c], ())
            assert table[c * 2704 + a * 52 + b] == odds.percentile([a, b, c], ())


@pytest.mark.parametrize(("agents", "table", "variant"), [
    (["random", "easy", "medium"], "field", "classic"),
    (["hard", "equity"], "2v2", "classic"),
    (["auto", "equity"], "1vN", "classic"),
    (["random", "hard", "equity"], "field", "muflis"),
    (["hard", "equity"], "2v2", "seven_joker_two_burst"),
    (["auto", "medium"], "1vN", "shared_pair"),
    (["easy", "equity"], "2v2", "four_card"),
])
def test_arena_with_scripted_agents_gives_the_same_report_on_both_engines(
        agents: list[str], table: str, variant: str) -> None:
    rules = Rules(variant=variant)
    batched = run_arena(agents, hands=160, seed=5, table=table, engine="batched", rules=rules)
    per_table = run_arena(agents, hands=160, seed=5, table=table, engine="per_table",
                          rules=rules)
    assert batched.to_dict() == per_table.to_dict()


def test_one_seat_batch_reports_only_the_learners_hands() -> None:
    tables = OneSeatBatch(32, Rules.preset("classic"), "hard", seed=2)
    step = tables.reset()
    hands, total = 0, 0.0
    for _ in range(200):
        waiting = step.to_act >= 0
        # the learner always packs: it loses exactly what it paid, never wins
        step = tables.step(np.where(waiting, step.action_masks.argmax(axis=1), 0))
        hands += int(step.finished.sum())
        total += float(step.rewards[step.finished, 0].sum())
        assert (step.rewards[step.finished, 0] < 0).all()
        assert (step.rewards[~step.finished] == 0).all()
    assert hands > 100
    seats = tables.learner
    assert len(set(seats.tolist())) == tables.batch.num_seats
