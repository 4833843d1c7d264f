"""A family of one-table policies as one agent (:mod:`agents.policy_family`)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from agents import make_agent
from agents.policy import NumpyPolicy, PolicyFileError, load_policy, pretrained_path
from agents.policy_family import (
    FAMILY_FORMAT,
    FamilyAgent,
    pretrained_family_path,
    read_family,
)
from teenpatti_env.environment.batched import TableBatch
from teenpatti_env.rules import Rules


def _member(folder: Path, name: str, rules: Rules, shift: float) -> str:
    """``pretrained:classic``'s weights with its last bias moved (so members differ in
    play) and its training rules set to ``rules``."""
    base = load_policy(pretrained_path("classic"))
    biases = [*base.biases[:-1], base.biases[-1] + np.float32(shift) * np.arange(10)]
    metadata = {**base.metadata, "rules": rules.to_dict(), "preset": name}
    NumpyPolicy(base.weights, biases, metadata).save(folder / f"{name}.npz")
    return f"{name}.npz"


def _manifest(folder: Path, members: list[str]) -> Path:
    path = folder / "family.json"
    path.write_text(json.dumps({"format": FAMILY_FORMAT, "members": members}))
    return path


def test_the_family_plays_the_member_trained_at_the_table_else_the_first_that_fits(
        tmp_path: Path) -> None:
    flash = Rules.preset("flash")
    members = [_member(tmp_path, "home", Rules.preset("classic"), 0.0),
               _member(tmp_path, "flash", flash, 5.0)]
    agent = make_agent(f"ppo:{_manifest(tmp_path, members)}")
    assert isinstance(agent, FamilyAgent)
    agent.check_rules(flash)
    assert agent.member.metadata["preset"] == "flash"
    agent.check_rules(Rules.preset("pagat"))  # no member trained there: the first that fits
    assert agent.member.metadata["preset"] == "home"
    agent.check_rules(Rules.preset("classic"))
    assert agent.member.metadata["preset"] == "home"
    # it acts as its member does, one row at a time and in a batch
    step = TableBatch(64, flash, seed=3).reset()
    agent.check_rules(flash)
    policy = agent.batch_policy()
    assert policy is not None
    expected = load_policy(tmp_path / "flash.npz").act_batch(step.observations,
                                                             step.action_masks)
    assert np.array_equal(policy(step.observations, step.action_masks), expected)
    assert [agent.act(o, m, {}) for o, m in zip(step.observations, step.action_masks,
                                                   strict=True)] == expected.tolist()


def test_a_table_no_member_fits_is_refused_with_the_members_named(tmp_path: Path) -> None:
    member = _member(tmp_path, "home", Rules.preset("classic"), 0.0)
    agent = make_agent(f"ppo:{_manifest(tmp_path, [member])}")
    with pytest.raises(ValueError, match=r"has no member for 5 seats of 'classic'.*4 seats"):
        agent.check_rules(Rules(num_players=5))
    with pytest.raises(ValueError, match="has no member for 4 seats of 'muflis'"):
        agent.check_rules(Rules(variant="muflis"))


def test_a_variant_member_plays_only_its_own_variant(tmp_path: Path) -> None:
    """muflis and joker observations have the same size: the family still never seats a
    muflis member at a joker table."""
    base = load_policy(pretrained_path("classic"))
    muflis = Rules(variant="muflis")
    rng = np.random.default_rng(0)
    weights = [rng.normal(size=(413, 8)).astype(np.float32),
               rng.normal(size=(8, 10)).astype(np.float32)]
    biases = [np.zeros(8, np.float32), np.zeros(10, np.float32)]
    NumpyPolicy(weights, biases, {**base.metadata, "rules": muflis.to_dict()}).save(
        tmp_path / "muflis.npz")
    agent = make_agent(f"ppo:{_manifest(tmp_path, ['muflis.npz'])}")
    agent.check_rules(muflis)
    assert load_policy(tmp_path / "muflis.npz").fits(Rules(variant="joker"))  # by size
    with pytest.raises(ValueError, match="has no member for 4 seats of 'joker'"):
        agent.check_rules(Rules(variant="joker"))


@pytest.mark.parametrize(("text", "match"), [
    ("not json", "is not a policy family manifest"),
    (json.dumps({"format": "other", "members": []}), "is not a teenpatti-policy-family/1"),
    (json.dumps({"format": FAMILY_FORMAT, "members": "a.npz"}), "must be a list"),
    (json.dumps({"format": FAMILY_FORMAT, "members": []}), "at least one member"),
    (json.dumps({"format": FAMILY_FORMAT, "members": ["gone.npz"]}), "no policy file"),
])
def test_a_malformed_family_is_a_clear_error(tmp_path: Path, text: str, match: str) -> None:
    path = tmp_path / "family.json"
    path.write_text(text)
    with pytest.raises(PolicyFileError, match=match):
        read_family(path)
    with pytest.raises(PolicyFileError, match="no policy family"):
        read_family(tmp_path / "missing.json")


def test_a_network_starts_from_the_familys_member_for_the_table() -> None:
    """``teenpatti exploit``'s ``target`` exploiter (and ``--init-from``) start from a
    trained policy; for ``pretrained:general`` that is the member that plays the table,
    and a table without a member is refused in words."""
    pytest.importorskip("torch")
    from training.selfplay_network import starting_policy

    family = read_family(pretrained_family_path("general"))
    for rules in (Rules.preset("classic", num_players=3),
                  Rules.preset("classic", variant="muflis", num_players=4)):
        member = starting_policy("pretrained:general", rules)
        assert member.metadata == family.member_for(rules).metadata
    with pytest.raises(ValueError, match="no member"):
        starting_policy("pretrained:general", Rules.preset("classic", variant="discard_one",
                                                           num_players=5))


def test_the_shipped_family_keeps_its_preset_members_to_their_presets() -> None:
    """``pretrained:general`` has members trained under the ``flash`` and ``tabletop``
    presets; each plays its own preset and no other (the four-seat classic member plays
    ``classic`` and ``pagat``)."""
    family = read_family(pretrained_family_path("general"))
    members = {name: family.member_for(Rules.preset(name))
               for name in ("classic", "pagat", "flash", "tabletop")}
    for name in ("flash", "tabletop"):
        member = members[name]
        assert member is not None and member.metadata["preset"] == name
        assert Rules.from_dict(member.metadata["rules"]) == Rules.preset(name)
    assert members["classic"] is members["pagat"]
    assert len({id(member) for member in members.values()}) == 3
