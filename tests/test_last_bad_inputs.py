"""Inputs that could once enter and never be played (issue 30):

* a dealer's-choice deal that fits none of the offered variants is a ``ValueError``
  wherever a deal enters (``Hand``, ``Hand.from_dict``, ``replay``, ``teenpatti replay``,
  ``raw_env.reset(options=...)``); one that fits some offers only those;
* the environment's mask never offers an action that then raises (random walks over
  dealer's-choice tables given decks of every variant, by hypothesis);
* ``TableBatch`` refuses, when it is built, stacks that its ``reset()`` would refuse.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from teenpatti_env import Hand, Rules, raw_env, replay
from teenpatti_env.environment.batched import TableBatch
from teenpatti_env.rules.variants import VARIANTS

ROOT = Path(__file__).resolve().parents[1]
CHOICE = Rules(dealers_choice=["ak47", "muflis", "shopping"])
EMPTY = [[], [], [], []]
THREE = [["As", "Ks", "Qs"], ["2h", "3h", "4h"], ["5d", "6d", "7d"], ["8c", "9c", "Tc"]]
FOUR = [["As", "Ks", "Qs", "Js"], ["2h", "3h", "4h", "5h"], ["5d", "6d", "7d", "8d"],
        ["8c", "9c", "Tc", "Jc"]]
FITS_NONE = "the deal fits none of the variants dealer's choice offers"


def _history(rules: Rules, cards: list[list[str]]) -> dict:
    return {**Hand(rules, THREE).to_dict(), "cards": cards}


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "teenpatti_env", *args], cwd=ROOT,
                          env=environment, capture_output=True, text=True, timeout=120)


def test_a_deal_that_fits_no_offered_variant_is_a_value_error_everywhere(tmp_path):
    history = _history(CHOICE, EMPTY)
    for enter in (lambda: Hand(CHOICE, EMPTY), lambda: Hand.from_dict(history),
                  lambda: replay(history),
                  lambda: raw_env(rules=CHOICE).reset(options={"cards": EMPTY})):
        with pytest.raises(ValueError, match=FITS_NONE) as caught:
            enter()
        # The message says why each variant does not fit.
        assert all(name in str(caught.value) for name in ("ak47", "muflis", "shopping"))
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(history))
    done = _cli("replay", str(path))
    assert done.returncode != 0 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and FITS_NONE in done.stderr


def test_a_deal_that_fits_some_variants_offers_only_those():
    rules = Rules(dealers_choice=["ak47", "discard_one", "muflis"])
    for cards, fits in ((THREE, ["ak47", "muflis"]), (FOUR, ["discard_one"])):
        hand = Hand(rules, cards)
        assert hand.legal_actions() == [{"type": "choose_variant", "variants": fits}]
        for name in ("ak47", "discard_one", "muflis"):
            assert hand.is_legal({"seat": 0, "type": "choose_variant", "variant": name}) == (
                name in fits)
        env = raw_env(rules=rules)
        env.reset(options={"cards": cards})
        offered = {env.layout.names[i] for i in np.flatnonzero(env.observe(
            env.agent_selection)["action_mask"])}
        assert offered == {f"choose_{name}" for name in fits}
        # A missed choice is drawn among the variants that fit.
        env.step(env.timeout_index())
        assert env.hand.rules.spec.name in fits


CHOICES = sorted(name for name in VARIANTS if name != "classic")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(offered=st.lists(st.sampled_from(CHOICES), min_size=1, max_size=4, unique=True),
       dealt=st.sampled_from(CHOICES), seed=st.integers(0, 2**31 - 1))
def test_the_mask_never_offers_an_action_that_raises(offered, dealt, seed):
    """A dealer's-choice table handed the deal of a variant it may or may not offer: at
    every decision every action the mask offers steps a copy of the table, and every
    other action is illegal."""
    rules = Rules(num_players=3, dealers_choice=offered)
    deal = Hand.deal(Rules(num_players=3, variant=dealt), [100] * 3, 0,
                     np.random.default_rng(seed)).to_dict()
    options = {key: deal[key] for key in ("cards", "community", "indicators", "deck")
               if key in deal}
    env = raw_env(rules=rules)
    try:
        env.reset(seed=seed, options=options)
    except ValueError as error:
        assert FITS_NONE in str(error)
        return
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter(max_iter=400):
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        mask = env.observe(agent)["action_mask"]
        assert mask.any()
        for index in range(env.layout.size):
            action = env.action_to_engine(agent, index)
            if mask[index]:
                env.hand.copy().apply(action)  # must not raise
            else:
                assert not env.hand.is_legal(action), (index, action)
        legal = np.flatnonzero(mask)
        env.step(int(legal[rng.integers(legal.size)]))


@pytest.mark.parametrize("stacks", [[0, 0, 0, 0], [100, 0, 0, 0]])
def test_table_batch_checks_its_stacks_when_built(stacks):
    with pytest.raises(ValueError, match="fewer than two seats hold the 1 chips"):
        TableBatch(2, "classic", stacks=stacks)


def test_table_batch_takes_stacks_that_reset_takes():
    batch = TableBatch(2, "classic", stacks=[1, 1, 0, 5])
    batch.reset(seed=0)
    assert batch.stacks == [1, 1, 0, 5]
