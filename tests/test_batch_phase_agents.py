"""The scripted agents' batched forms in the variants with a selection phase and in
buy_a_joker (agents/batch_phases.py): they choose every phase and buying action exactly
as the per-table agents seeded alike (agents/phases.py), and so the exploitability
measurement (PPO best responses and the rule search) runs there."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from builders.batched import random_rules, random_stacks
from test_batched_phases import FAMILY
from test_batched_scripted import play_side_by_side, variant_rules

from agents import SCRIPTED_AGENTS, make_agent
from agents.arena import run_arena
from agents.batch_phases import BatchPhases
from agents.batch_scripted import batched_form
from agents.phases import best_kept, kept_value
from agents.rule_strategy import STYLES, RuleAgent
from teenpatti_env.cards import parse_cards
from teenpatti_env.environment import batch_kernels as k
from teenpatti_env.environment.batched import TableBatch
from teenpatti_env.rules import Rules
from teenpatti_env.rules.variant_spec import VariantSpec, WildSource
from training.rule_search import SearchBudget, random_deals, search_rule_response

PHASE_VARIANTS = ("discard_one", "shopping", "passing_cards", "buy_a_joker")
"""The variants where the scripted agents choose cards or buy jokers (agents/phases.py)."""
PHASE_ACTIONS = {
    "discard_one": ("discard_0", "discard_1", "discard_2", "discard_3"),
    "shopping": ("look", "draw", "keep", "discard_3"),
    "passing_cards": ("pass_",),
    "buy_a_joker": ("buy_joker_",),
}
"""Phase actions each variant's differential run must have taken (a prefix counts)."""


SPECIALS = (
    *FAMILY,
    VariantSpec(name="discard_colour", private_cards=4, phase="discard_one",
                wild=(WildSource(kind="chosen_colour", values=()),)),
    VariantSpec(name="buy_galore", buy_a_joker=True, community_cards=1,
                wild=(WildSource(kind="indicator_colour", values=()),)),
)
"""Family specials the batch plays with what the named variants leave out: wild ranks
and colours known during a phase, community cards, lowball, bursts, and a joker bought
where a colour is wild."""


def few_seat_rules(variant: str | VariantSpec, rng: np.random.Generator,
                   most: int = 5) -> Rules:
    """Random rules of ``variant`` at 3 to ``most`` seats."""
    while True:
        if isinstance(variant, str):
            rules = variant_rules(variant, rng)
        else:
            try:
                rules = random_rules(rng).with_variant(variant)
            except ValueError:
                continue
        if rules.num_players <= most:
            return rules


@pytest.mark.parametrize("name", sorted(SCRIPTED_AGENTS))
def test_batched_forms_choose_phase_and_buying_actions_as_per_table(name: str) -> None:
    """Every variant with a selection phase and buy_a_joker at 3-5 seats (random rule
    sets, short and uneven stacks at some tables): every decision and every net equal
    to the per-table agents' (play_side_by_side), and the phase actions taken."""
    rng = np.random.default_rng(500 + sorted(SCRIPTED_AGENTS).index(name))
    for number, variant in enumerate(PHASE_VARIANTS):
        taken: Counter[str] = Counter()
        compared = 0
        for round_ in range(3):
            rules = few_seat_rules(variant, rng)
            stacks = random_stacks(rules, rng) if round_ == 2 else None
            compared += play_side_by_side(name, rules, 12, 2, seed=10 * number + round_,
                                          stacks=stacks, taken=taken)
        assert compared > 100
        if name == "random":
            continue  # uniform: its phase actions are the mask's
        for wanted in PHASE_ACTIONS[variant]:
            assert any(action.startswith(wanted) for action in taken), (variant, taken)
    for number, spec in enumerate(SPECIALS):
        assert play_side_by_side(name, few_seat_rules(spec, rng), 12, 3,
                                 seed=100 + number) > 12


@pytest.mark.long
@pytest.mark.parametrize("name", sorted(SCRIPTED_AGENTS))
def test_batched_forms_choose_as_per_table_over_20000_phase_variant_decisions(
        name: str) -> None:
    """The phase variants and the family specials in turn, at 3 to 7 seats, until at
    least 20,000 decisions."""
    rng = np.random.default_rng(700 + sorted(SCRIPTED_AGENTS).index(name))
    kinds = (*PHASE_VARIANTS, *SPECIALS)
    compared, number = 0, 0
    while compared < 20_000 or number < len(kinds):
        rules = few_seat_rules(kinds[number % len(kinds)], rng, most=7)
        compared += play_side_by_side(name, rules, 16, 3, seed=number,
                                      stacks=random_stacks(rules, rng) if number % 3 else None)
        number += 1


@pytest.mark.parametrize("variant", ["buy_a_joker", "shopping", "passing_cards"])
def test_the_arena_plays_scripted_phase_choices_batched_with_the_per_table_report(
        variant: str) -> None:
    """``engine="auto"`` now takes the batched engine in these variants, and its report
    is the per-table one, number for number (no deck ran out in these hands)."""
    rules = Rules(variant=variant)
    batched = run_arena(["hard", "equity"], hands=120, rules=rules, seed=5,
                        engine="batched")
    per_table = run_arena(["hard", "equity"], hands=120, rules=rules, seed=5,
                          engine="per_table")
    assert batched.to_dict() == per_table.to_dict()
    assert run_arena(["hard", "equity"], hands=120, rules=rules, seed=5).to_dict() == \
        batched.to_dict()


def test_best_kept_kernel_breaks_ties_as_the_per_table_choice() -> None:
    """Worked by hand: of 7h 2c 7s 2d, keeping 7h 2c 7s and keeping 7h 7s 2d tie (a pair
    of sevens, a two); both the per-table choice and the batch's kernel keep the first
    set in combinations order and throw the 2d (slot 3), not the 2c (slot 1)."""
    info = {"rules": Rules(variant="discard_one").to_dict(), "wild_ranks": [],
            "wild_colours": []}
    cards = ["7h", "2c", "7s", "2d"]
    assert best_kept(cards, 3, info) == (0, 1, 2)  # 7h 2c 7s: the pair of sevens
    batch = TableBatch(1, Rules(variant="discard_one"), autoreset=False)
    others = ("Ac Kc Qc Jc", "3h 4h 5h 6h", "8d 9d Td Jd")
    step = batch.reset(options={"cards": [[parse_cards(" ".join(cards)),
                                           *(parse_cards(hand) for hand in others)]],
                                "dealer": 3})
    assert step.to_act[0] == 0
    phases = BatchPhases(batch)
    action = phases.choices(np.array([0]), step.observations, step.action_masks)
    assert batch.layout.names[int(action[0])] == "discard_3"  # throws the 2d
    assert kept_value(["7h", "2c", "7s"], info) > kept_value(["2c", "7s", "2d"], info)


def test_a_rule_strategy_takes_phase_turns_as_the_scripted_agents_on_both_engines() -> None:
    """A rule strategy cannot tell cards apart from its observation: at a selection
    phase's turn it takes agents/phases.py's choice, per table and batched alike, so the
    batched arena gives the per-table report and the strategy does not pack at every
    phase turn."""
    rules = Rules(variant="shopping")
    spec = "rule:" + ",".join(map(str, STYLES["loose"]))
    agent = make_agent(spec)
    assert isinstance(agent, RuleAgent) and agent.selection_choices
    batched = run_arena([spec, "hard"], hands=200, rules=rules, seed=3, engine="batched")
    per_table = run_arena([spec, "hard"], hands=200, rules=rules, seed=3,
                          engine="per_table")
    assert batched.to_dict() == per_table.to_dict()
    form = batched_form(spec, rules)
    assert form is not None
    batch = TableBatch(64, rules, seed=4)
    step = batch.reset()
    seats = form(batch, None)
    taken: Counter[str] = Counter()
    for _ in range(100):
        rows = np.flatnonzero(step.to_act >= 0)
        actions = np.zeros(64, dtype=np.int64)
        actions[rows] = seats.act(rows, step.observations[rows], step.action_masks[rows])
        phase = rows[batch.arrays.tab[rows, k.IN_PHASE] == 1]
        taken.update(batch.layout.names[a] for a in actions[phase].tolist())
        step = batch.step(actions)
    assert taken["keep"] and taken["draw"] and taken["look"] and taken["discard_0"]
    assert taken["pack"] == 0, taken


def test_random_deals_hold_passing_six_cards() -> None:
    rules = Rules(variant="passing_cards")
    cards, dealers, _ = random_deals(rules, 5, np.random.default_rng(1))
    assert cards.shape == (5, 4, 6)
    for row in range(5):
        six = (dealers[row] + 1) % 4  # the dealer's left
        held = (cards[row] >= 0).sum(axis=1)
        assert held[six] == 6 and (np.delete(held, six) == 3).all()
        dealt = cards[row][cards[row] >= 0]
        assert len(set(dealt.tolist())) == len(dealt)


@pytest.mark.parametrize("variant", ["shopping", "passing_cards"])
def test_rule_search_against_hard_runs_in_a_phase_variant(variant: str) -> None:
    rules = Rules(variant=variant)
    budget = SearchBudget(population=6, rounds=1, deals=12, finalists=2, final_deals=12,
                          random_rounds=1, carried=1)
    found = search_rule_response("hard", rules, budget, seed=2)
    assert np.isfinite(found.score) and found.hands > 0
    assert found.spec.startswith("rule:")


def test_exploit_cli_measures_equity_in_shopping(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from interfaces.cli import main

    code = main(["exploit", "--agent", "equity", "--variant", "shopping",
                 "--budget-steps", "2000", "--search-rounds", "1", "--hands", "200",
                 "--search-population", "6", "--search-deals", "20", "--threads", "1",
                 "--out", str(tmp_path), "--seed", "1"])
    assert code in (0, None)
    report = json.loads((tmp_path / "exploit.json").read_text())
    assert report["variant"] == "shopping"
    assert all(np.isfinite(row["mean"]) for row in report["exploiters"])


def test_a_ppo_best_response_to_a_rule_strategy_in_shopping_meets_its_phase_choices(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Trained against a rule strategy in shopping, the best response meets the
    strategy's batched form (OneSeatBatch), which takes its phase turns as per table,
    as the measurement's arena does; a tiny budget runs."""
    from training import exploit
    from training.exploit import approximate_exploitability

    made: list[str] = []
    one_seat = exploit.OneSeatBatch

    def recorded(num_tables: int, rules: Rules, agent: str, seed: int) -> object:
        made.append(agent)
        return one_seat(num_tables, rules, agent, seed)

    monkeypatch.setattr(exploit, "OneSeatBatch", recorded)
    spec = "rule:" + ",".join(map(str, STYLES["tight"]))
    report = approximate_exploitability(spec, budget_steps=1000, hands=80, seed=3,
                                        tables=16, threads=1, variant="shopping",
                                        save_policy=tmp_path / "br.npz")
    assert report.engine == "batched" and np.isfinite(report.mean)
    assert made == [spec]
