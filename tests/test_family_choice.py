"""A policy family at a dealer's choice table (:mod:`agents.family_choice`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from agents import EquityAgent, PolicyAgent, make_agent
from agents.loop import agent_turns, play_out
from agents.policy import PRETRAINED_DIR, load_policy
from agents.policy_family import FAMILY_FORMAT, FamilyAgent
from teenpatti_env.environment.aec import raw_env
from teenpatti_env.rules import Rules

MEMBERS = ["classic.npz", "general-muflis-4.npz", "general-open_joker-4.npz"]
"""Shipped one-table members at four seats: classic, muflis and open_joker."""


def _family(folder: Path, preference: list[str] | None = None) -> str:
    for name in MEMBERS:
        shutil.copy(PRETRAINED_DIR / name, folder / name)
    manifest: dict = {"format": FAMILY_FORMAT, "members": MEMBERS}
    if preference is not None:
        manifest["dealers_choice"] = preference
    (folder / "family.json").write_text(json.dumps(manifest))
    return f"ppo:{folder / 'family.json'}"


def _seated(spec: str, rules: Rules, seed: int = 0) -> FamilyAgent:
    agent = make_agent(spec, seed=seed)
    assert isinstance(agent, FamilyAgent)
    agent.check_rules(rules)
    return agent


def _cards(seed: int) -> list[list[str]]:
    deck = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
    order = np.random.default_rng(seed).permutation(len(deck))
    return [[deck[order[3 * seat + k]] for k in range(3)] for seat in range(4)]


def _play(env: raw_env, agents: dict) -> list[str]:
    """Play ``env``'s hand out; the names of the actions taken (choices left out)."""
    decide = agent_turns(env, agents)
    taken: list[str] = []

    def turn(name: str) -> int:
        action = decide(name)
        if not env.layout.names[action].startswith("choose_"):
            taken.append(env.layout.names[action])
        return action

    play_out(env, turn)
    return taken


@pytest.mark.parametrize("variant", ["muflis", "classic"])
def test_a_chosen_hand_is_played_as_the_member_plays_at_the_variants_own_table(
        tmp_path: Path, variant: str) -> None:
    """Four family seats at a dealer's choice of one variant make, deal for deal, the
    moves and nets that the variant's member makes at that variant's own table."""
    spec = _family(tmp_path)
    choice = Rules(dealers_choice=[variant])
    own = Rules(variant=variant)
    member = load_policy(tmp_path / MEMBERS[["classic", "muflis"].index(variant)])
    for deal in range(12):
        options = {"cards": _cards(deal), "dealer": deal % 4}
        at_choice = raw_env(rules=choice)
        at_choice.reset(seed=deal, options=options)
        family = {n: _seated(spec, choice, i) for i, n in enumerate(at_choice.possible_agents)}
        at_own = raw_env(rules=own)
        at_own.reset(seed=deal, options=options)
        members = {n: PolicyAgent(member, i) for i, n in enumerate(at_own.possible_agents)}
        assert _play(at_choice, family) == _play(at_own, members)
        assert at_choice.hand.rules.variant == variant
        assert at_choice.hand.net == at_own.hand.net


def test_as_dealer_the_family_chooses_its_first_preferred_variant(tmp_path: Path) -> None:
    rules = Rules(dealers_choice=["classic", "all_open", "muflis", "open_joker"])
    env = raw_env(rules=rules)
    env.reset(seed=2)
    name = env.agent_selection
    observation = env.observe(name)

    def choice(spec: str) -> str:
        agent = _seated(spec, rules)
        index = agent.act(observation["observation"], observation["action_mask"],
                          env.view(name))
        return env.layout.names[index]

    assert choice(_family(tmp_path, ["all_open", "muflis", "classic"])) == "choose_muflis"
    # without a preference, the members' order: classic first
    assert choice(_family(tmp_path)) == "choose_classic"
    # a variant that names a rank: the first rank offered
    assert choice(_family(tmp_path, ["open_joker"])) == "choose_open_joker_2"


def test_a_hand_of_a_variant_without_a_member_is_played_as_equity(tmp_path: Path) -> None:
    rules = Rules(dealers_choice=["all_open", "muflis"])
    spec = _family(tmp_path)
    for deal in range(6):
        env = raw_env(rules=rules)
        env.reset(seed=deal)
        env.step(env.layout.names.index("choose_all_open"))  # another dealer's choice
        family = {n: _seated(spec, rules, i) for i, n in enumerate(env.possible_agents)}
        equity = {n: EquityAgent(i) for i, n in enumerate(env.possible_agents)}
        decide, expected = agent_turns(env, family), agent_turns(env, equity)

        def turn(name: str, decide=decide, expected=expected) -> int:
            action = decide(name)
            assert action == expected(name)
            return action

        play_out(env, turn)
        assert env.hand.rules.variant == "all_open"


def test_a_dealers_choice_with_no_member_is_refused_with_the_members_named(
        tmp_path: Path) -> None:
    agent = make_agent(_family(tmp_path))
    with pytest.raises(ValueError, match="no member for any variant of this dealer's choice"):
        agent.check_rules(Rules(dealers_choice=["all_open", "two_burst"]))


def test_a_malformed_preference_is_a_clear_error(tmp_path: Path) -> None:
    _family(tmp_path)
    manifest = json.loads((tmp_path / "family.json").read_text())
    (tmp_path / "family.json").write_text(json.dumps({**manifest, "dealers_choice": "muflis"}))
    with pytest.raises(ValueError, match="'dealers_choice' must be a list of variants"):
        make_agent(f"ppo:{tmp_path / 'family.json'}")


def test_the_shipped_family_plays_every_variant_of_a_dealers_choice_at_four_seats() -> None:
    """Every decision legal over a few hands of the 24 variants' dealer's choice, with the
    family in two seats and ``equity`` in two."""
    from teenpatti_env import VARIANTS

    rules = Rules(dealers_choice=list(VARIANTS))
    favourite = make_agent("pretrained:general").family.choice_preference[0]
    for deal in range(8):
        env = raw_env(rules=rules)
        env.reset(seed=deal)
        agents = {n: (_seated("pretrained:general", rules, i) if i % 2 == 0
                      else EquityAgent(i)) for i, n in enumerate(env.possible_agents)}
        play_out(env, agent_turns(env, agents))  # an illegal move would raise
        if env.hand.dealer % 2 == 0:
            assert env.hand.rules.variant == favourite
        assert sum(env.hand.net) == 0
