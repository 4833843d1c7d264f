"""The searched best response (training/rule_search.py): against fixed agents whose best
response can be worked out by hand it finds exactly that edge."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from agents.base import Agent, Info, Mask, Observation
from agents.rule_strategy import DEFAULT_PARAMS, PARAMETERS, RuleAgent
from teenpatti_env.cards import parse_cards
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.rules import Rules
from training.rule_search import SearchBudget, random_deals, score_batched, search_rule_response

pytest.importorskip("numba")

SMALL = SearchBudget(population=12, rounds=2, deals=60, finalists=3, final_deals=300)


class FixedOrder(Agent):
    """A fixed agent: at every decision the first legal action of ``order`` (action
    names), read from the mask alone, so its batched form is exact."""

    def __init__(self, name: str, order: tuple[str, ...]) -> None:
        super().__init__(None)
        self.name = name
        self.order = order
        self._columns: dict[int, NDArray[np.int64]] = {}

    def check_rules(self, rules: Rules) -> None:
        names = ActionLayout(rules).names
        self._columns[len(names)] = np.array([names.index(name) for name in self.order
                                              if name in names])

    def act(self, observation: Observation, mask: Mask, info: Info) -> int:
        return int(self._choose(np.asarray(mask)[None])[0])

    def batch_policy(self) -> Any:
        return lambda observations, masks: self._choose(np.asarray(masks))

    def _choose(self, masks: NDArray[Any]) -> NDArray[np.int64]:
        columns = self._columns[masks.shape[1]]
        legal = masks[:, columns] > 0
        assert legal.any(axis=1).all(), "every decision offers one of the fixed actions"
        chosen: NDArray[np.int64] = columns[np.argmax(legal, axis=1)]
        return chosen


def always_pack() -> FixedOrder:
    """Packs at its first decision (refuses a sideshow, should one be asked)."""
    return FixedOrder("always-pack", ("pack", "refuse"))


def always_call() -> FixedOrder:
    """Looks at once, then always calls: the smallest seen bet (all-in when short), a
    show when that is all that is left, never a raise, never a pack."""
    return FixedOrder("always-call", ("look", "bet_min", "all_in", "show", "refuse"))


def test_against_always_pack_seats_the_search_wins_every_boot() -> None:
    """Classic, four seats, boot 1, against three always-pack seats.

    Every seat posts the 1-chip boot (pot 4). Play starts left of the dealer. Whatever
    order the seats act in, each always-pack seat packs at its first turn, and the
    searcher is never asked for more than one decision before it is the only seat left
    (if it sits last, everyone before it has packed and it takes the pot without acting).
    A searcher that never packs takes the pot of 4 plus whatever it bet itself: its net is
    the others' boots, 3 boots, in every hand. Nothing wins more (the others put in only
    their boots), and a strategy that packs some hands wins less. So the best response's
    edge is exactly +3 boots per hand at four seats and, by the same count, +2 at three.
    """
    for players, edge in ((4, 3.0), (3, 2.0)):
        rules = Rules.preset("classic").replace(num_players=players)
        found = search_rule_response(always_pack(), rules, SMALL, seed=5)
        assert found.score == edge
        assert all(best <= edge for _, best in found.curve)
        # the measured setting, played again on fresh deals, wins the same every hand
        again = score_batched(rules, _form(always_pack(), rules), found.params[None], 99, 200)
        assert again.tolist() == [edge]


@pytest.mark.parametrize("variant", ["shared_pair", "joker", "four_card"])
def test_in_a_variant_against_always_pack_seats_the_search_wins_every_boot(
        variant: str) -> None:
    """The hand count above holds in any variant without bursts (the others pack at their
    first turn whatever the cards): +3 boots per hand at four seats, with the variant's
    own deals (community cards, an indicator, four private cards)."""
    rules = Rules.preset("classic", variant=variant).replace(num_players=4)
    found = search_rule_response(always_pack(), rules, SMALL, seed=5)
    assert found.score == 3.0
    again = score_batched(rules, _form(always_pack(), rules), found.params[None], 99, 200)
    assert again.tolist() == [3.0]


def test_the_search_deals_are_the_variants_own() -> None:
    """Each deal comes from the engine's deal: every seat's private cards and the table's
    community cards, all different cards."""
    rules = Rules.preset("classic", variant="shared_pair").replace(num_players=5)
    cards, dealers, table = random_deals(rules, 50, np.random.default_rng(1))
    assert cards.shape == (50, 5, 3) and set(table) == {"community"}
    for deal, community in zip(cards, table["community"], strict=True):
        used = [*deal.ravel().tolist(), *parse_cards(community)]
        assert len(community) == 2 and len(set(used)) == len(used) == 17
    assert set(dealers.tolist()) == set(range(5))


def test_against_always_call_seats_the_search_finds_the_blind_edge() -> None:
    """Classic, three seats, boot 1, a pot cap of 7, against two always-call seats.

    The callers look at once and then call: a seen call is the smallest seen bet, 2S, and
    leaves the stake at S = 1. The pot starts at 3 (three boots); the hand goes to a
    showdown (ties split) as soon as the pot reaches 7. Name the seats p1, p2, p3 in the
    order they act (p3 is the dealer) and let q be the searcher's share of the showdown
    pot: by symmetry of the deal, E[q] = 1/3 when the searcher plays without looking.

    * Searcher at p1: a blind call of 1 (pot 4), p2 calls 2 (6), p3 calls 2 (8 >= 7):
      showdown; the searcher put in 2, so it nets 8q - 2, on average 8/3 - 2 = +2/3.
      Looking instead, it may pack (-1) or call 2 (pot 5, p2 calls 2, 7: showdown, 7q - 3)
      or bet 4 (pot 7: 7q - 5, worse): at best E[max(-1, 7q - 3)] = -1 + E[(7q - 2)+]
      < -1 + E[5q] = 2/3 (as (7q - 2)+ <= 5q for 0 <= q <= 1, equal only at q in {0, 1}).
      A blind raise to 2 (pot 5, p2 calls 4: 9) nets 9/3 - 3 = 0; packing -1.
    * Searcher at p2: p1 calls 2 (pot 5); a blind call of 1 (6), p3 calls 2 (8): showdown,
      8q - 2, on average +2/3; looking and calling 2 (7: showdown) nets 7q - 3, again at
      best less than 2/3; a blind raise to 2 (7: showdown) 7/3 - 3.
    * Searcher at p3: p1 and p2 call 2 each (pot 7): showdown before it acts; it put in
      its boot only and nets 7q - 1, on average 7/3 - 1 = +4/3.

    The best response stays blind and calls: (2/3 + 2/3 + 4/3) / 3 = 8/9 boots per hand,
    every seat in turn (duplicate dealing seats the searcher at each).
    """
    rules = Rules.preset("classic").replace(num_players=3, pot_cap=7)
    budget = SearchBudget(population=16, rounds=3, deals=200, finalists=3, final_deals=600)
    found = search_rule_response(always_call(), rules, budget, seed=3)
    edge = 8 / 9
    assert found.score == pytest.approx(edge, abs=0.15)
    # it never looks: a setting that looks at once (and then plays its cards) wins less
    looks = found.params.copy()
    looks[[name for name, _, _ in PARAMETERS].index("look_after")] = 0.0
    assert score_batched(rules, _form(always_call(), rules), looks[None], 7, 600)[0] < 0.7
    # the same setting on many fresh deals: its mean is the hand calculation's
    fresh = score_batched(rules, _form(always_call(), rules), found.params[None], 7, 6_000)
    assert fresh[0] == pytest.approx(edge, abs=0.06)


def test_the_styled_settings_are_among_the_first_draws() -> None:
    """The search never ends below the plain setting on the same deals: it is one of
    the first round's candidates and the leaders are carried from round to round."""
    rules = Rules.preset("classic").replace(num_players=3)
    found = search_rule_response(always_pack(), rules, SearchBudget(
        population=4, rounds=0, deals=20, finalists=1, final_deals=20), seed=0)
    default = score_batched(rules, _form(always_pack(), rules),
                            np.array([DEFAULT_PARAMS]), 0, 20)
    assert found.curve[0][1] >= default[0] - 1e-9


def test_bad_settings_are_refused() -> None:
    rules = Rules.preset("classic")
    with pytest.raises(ValueError, match="engine"):
        search_rule_response("random", rules, SMALL, engine="fast")
    with pytest.raises(ValueError, match="population"):
        SearchBudget(population=0)
    with pytest.raises(ValueError, match="no batched form"):
        search_rule_response(_NoBatch(), rules, SMALL)


class _NoBatch(Agent):
    name = "per-table only"

    def act(self, observation: Observation, mask: Mask, info: Info) -> int:
        return int(np.flatnonzero(mask)[0])


def _form(agent: FixedOrder, rules: Rules) -> Any:
    from agents.batch_scripted import PolicySeats

    agent.check_rules(rules)
    policy = agent.batch_policy()
    return lambda batch, seeds: PolicySeats(agent.name, policy, batch)


def test_a_rule_agent_plays_the_same_per_table_and_batched() -> None:
    """The searched setting as an arena agent decides as its batched form does."""
    from agents.arena import head_to_head

    rules = Rules.preset("classic").replace(num_players=3)
    spec_params = np.array(DEFAULT_PARAMS)
    agent = RuleAgent(spec_params)
    per_table = head_to_head(agent.name, ["hard"], tables=("1vN",), hands=60, rules=rules,
                             seed=4, engine="per_table").rows[0].mean
    batched = head_to_head(agent.name, ["hard"], tables=("1vN",), hands=60, rules=rules,
                           seed=4, engine="batched").rows[0].mean
    assert per_table == pytest.approx(batched)


def test_a_setting_that_shows_early_still_asks_for_sideshows_where_no_show_is_legal() -> None:
    """``show_at`` applies only where a show is legal (heads-up): at a decision with three
    players in, a setting that would show at any strength and asks for a sideshow whenever
    it calls asks for the sideshow."""
    from agents.rule_strategy import RuleLayout, decide
    from teenpatti_env.environment.batched import TableBatch

    rules = Rules.preset("classic")
    layout = RuleLayout(rules)
    names = ActionLayout(rules).names
    params = np.array(DEFAULT_PARAMS)
    named = {name: i for i, (name, _, _) in enumerate(PARAMETERS)}
    params[[named["call_at"], named["call_slope"], named["raise_at"], named["show_at"],
            named["sideshow_below"]]] = [0.0, 0.0, 1.0, 0.0, 1.0]
    batch = TableBatch(512, rules, seed=8)
    step = batch.reset()
    rng = np.random.default_rng(0)
    found = 0
    for _ in range(40):
        masks = step.action_masks.astype(bool)
        rows = np.flatnonzero(masks[:, names.index("sideshow")] & ~masks[:, names.index("show")])
        if len(rows):
            chosen = decide(layout, params, step.observations[rows], step.action_masks[rows])
            assert (chosen == names.index("sideshow")).all()
            found += len(rows)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        step = batch.step(actions)
    assert found > 0


def test_the_search_result_file_names_an_agent(tmp_path: Any) -> None:
    """``rule:OUT/rule_search.json`` plays the setting a search wrote (values by name)."""
    from agents import make_agent
    from agents.rule_strategy import parse_spec, spec_of

    rules = Rules.preset("classic").replace(num_players=3)
    found = search_rule_response(always_pack(), rules, SearchBudget(
        population=4, rounds=0, deals=10, finalists=1, final_deals=10, random_rounds=1))
    path = tmp_path / "rule_search.json"
    path.write_text(json.dumps(found.to_dict()))
    assert spec_of(parse_spec(f"rule:{path}")) == found.spec
    assert make_agent(f"rule:{path}").name == f"rule:{path}"
    broken = found.to_dict()
    del broken["params"]["raise_size"]
    path.write_text(json.dumps(broken))
    with pytest.raises(ValueError, match="raise_size"):
        parse_spec(f"rule:{path}")


def test_a_search_plays_the_settings_it_is_started_from() -> None:
    """``start`` joins the random round after the six styled settings (the round grows to
    hold them): against the always-call seats under a pot cap of 7 (worked above: staying
    blind and calling wins 8/9 boots per hand), a one-setting search started from the
    blind caller plays seven settings and ends at that edge, where the same search alone
    plays one."""
    rules = Rules.preset("classic").replace(num_players=3, pot_cap=7)
    one = SearchBudget(population=1, rounds=0, deals=100, finalists=1, final_deals=1_000,
                       random_rounds=1, carried=0)
    blind_caller = np.array([8.0, 0.0, 40.0, *DEFAULT_PARAMS[3:]])
    alone = search_rule_response(always_call(), rules, one, seed=4)
    started = search_rule_response(always_call(), rules, one, seed=4, start=blind_caller[None])
    assert alone.hands == 3 * (1 * 100 + 1_000)
    assert started.hands == 3 * (7 * 100 + 1_000)
    assert started.score == pytest.approx(8 / 9, abs=0.1)
