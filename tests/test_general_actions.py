"""The general policy's padded action space (``padded/1``): the fixed list of names, a
table's actions placed among a policy's by name, the metadata that names it, and the
ten-action ``/2`` files of earlier runs, which play as before and widen exactly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from agents.arena import run_arena
from agents.padded_actions import PADDED_ACTION_NAMES, ActionMap, missing_actions
from agents.policy import (
    GENERAL_POLICY_FORMAT,
    NumpyPolicy,
    PolicyFileError,
    policy_metadata,
    read_policy,
)
from agents.seat_padding import PADDED_SIZE, pad_observations
from teenpatti_env.environment.actions import ActionLayout, choice_actions
from teenpatti_env.environment.batched import TableBatch
from teenpatti_env.rules import Rules
from teenpatti_env.rules.variants import VARIANTS

torch = pytest.importorskip("torch")

from training.config import SelfPlayConfig  # noqa: E402
from training.general import GENERAL_MIXTURE, export_general, general_model  # noqa: E402
from training.padded_policies import padded_start  # noqa: E402
from training.selfplay import train_selfplay  # noqa: E402


def general_policy(seed: int) -> NumpyPolicy:
    """An untrained general policy, its weights nudged off their start."""
    torch.manual_seed(seed)
    model = general_model(SelfPlayConfig(hidden=(32, 16)))
    with torch.no_grad():
        for parameter in model.parameters():
            parameter.add_(0.1 * torch.randn_like(parameter))
    return export_general(model, GENERAL_MIXTURE)


# --------------------------------------------------------------------------- the list


def test_the_padded_list_holds_every_variants_actions_in_a_fixed_order() -> None:
    """By hand: classic's ten first (as every table numbers them), then buying, discards,
    shopping, passing, then the dealer's choices; every named variant's actions and every
    choice of a dealer's choice of all 24 variants have a place, each name once."""
    names = PADDED_ACTION_NAMES
    assert names[:10] == ActionLayout(Rules.preset("classic")).names
    assert names[10:19] == ("buy_joker_0", "buy_joker_1", "buy_joker_2", "discard_0",
                            "discard_1", "discard_2", "discard_3", "draw", "keep")
    assert names[19] == "pass_0_1_2" and names[38] == "pass_3_4_5"
    assert names[39] == "choose_classic" and names[-1] == "choose_passing_cards"
    assert len(names) == len(set(names)) == 76
    for variant in VARIANTS:
        assert not missing_actions(Rules.preset("classic", variant=variant), names), variant
    every = Rules(dealers_choice=list(VARIANTS))
    assert {name for name, _ in choice_actions(every)} <= set(names)


def test_an_action_map_places_a_tables_actions_by_name() -> None:
    """Shopping by hand: its action 10 (draw) is padded 17, 11 (keep) 18, 12..15
    (discard_0..3) 13..16; a mask widens to those places, a choice maps back."""
    rules = Rules.preset("classic", variant="shopping")
    places = ActionMap(rules, PADDED_ACTION_NAMES)
    assert places.places.tolist() == [*range(10), 17, 18, 13, 14, 15, 16]
    mask = np.zeros(16, np.int8)
    mask[[0, 10, 11]] = 1  # pack, draw, keep
    wide = places.widen(mask)
    assert wide.shape == (76,) and np.flatnonzero(wide).tolist() == [0, 17, 18]
    assert places.narrow(18) == 11 and places.narrow(np.array([17, 0, 16])).tolist() == [10, 0, 15]
    classic = ActionMap(Rules.preset("classic"), ActionLayout(Rules()).names)
    assert classic.identity and classic.widen(mask[:10]) is not None
    with pytest.raises(ValueError, match="draw, keep, discard_0"):
        ActionMap(rules, ActionLayout(Rules()).names)


def test_a_file_naming_an_unknown_or_wrong_action_space_is_refused(tmp_path: Path) -> None:
    policy = general_policy(0)
    for actions, names in (("padded/9", PADDED_ACTION_NAMES),
                           ("padded/1", PADDED_ACTION_NAMES[::-1])):
        metadata = {**policy.metadata, "actions": actions, "action_names": list(names)}
        with pytest.raises(PolicyFileError, match="not a known action space"):
            NumpyPolicy(policy.weights, policy.biases, metadata)
        policy.metadata.update(metadata)  # written as it is, refused when read
        path = policy.save(tmp_path / "bad.npz")
        with pytest.raises(PolicyFileError, match=r"bad.npz.*not a known action space"):
            read_policy(path)


# --------------------------------------------------------------------------- ten-action files


def ten_action_policy(path: Path, hidden: int = 24) -> str:
    """A ``/2`` file as the trainer wrote it before the padded actions: input
    ``seat-padded/2``, classic's ten actions, no ``actions`` in its metadata."""
    from agents.policy import NumpyPolicy

    names = ActionLayout(Rules()).names
    rng = np.random.default_rng(6)
    weights = [rng.normal(size=(682, hidden)).astype(np.float32) * 0.1,
               rng.normal(size=(hidden, len(names))).astype(np.float32)]
    biases = [rng.normal(size=hidden).astype(np.float32), rng.normal(size=10).astype(np.float32)]
    metadata = policy_metadata(Rules(), names, "tanh", format=GENERAL_POLICY_FORMAT,
                               input="seat-padded/2")
    return str(NumpyPolicy(weights, biases, metadata).save(path))


def raw_choices(policy: object, inputs: np.ndarray, masks: np.ndarray) -> list[int]:
    """A plain forward pass's masked argmax (what the file played before)."""
    x = inputs.astype(np.float64)
    weights, biases = policy.weights, policy.biases  # type: ignore[attr-defined]
    for k, (w, b) in enumerate(zip(weights, biases, strict=True)):
        x = x @ w + b
        if k < len(weights) - 1:
            x = np.tanh(x)
    return np.where(masks.astype(bool), x, -np.inf).argmax(axis=1).tolist()


def test_a_ten_action_seat_padded_2_file_plays_as_before_and_widens_exactly(
        tmp_path: Path) -> None:
    """The file loads without ``actions``, sits where it sat (classic, muflis) and not at
    a phase variant, and plays the plain forward pass's moves; ``padded_start`` widens it
    to ``/3`` and ``padded/1`` (new input columns and action rows zero), and the wide
    policy makes the same moves at those tables' decisions."""
    policy = read_policy(ten_action_policy(tmp_path / "ten.npz"))
    assert policy.action_space is None and policy.input_layout == "seat-padded/2"
    del policy.metadata["input"]  # a file that does not name its input: told by its size
    assert NumpyPolicy(policy.weights, policy.biases, policy.metadata).input_layout == \
        "seat-padded/2"
    assert "'shopping' is not in its input layout" in str(
        policy.unfit_reason(Rules.preset("classic", variant="shopping")))
    wide = padded_start(policy)
    assert wide.input_layout == "seat-padded/3" and wide.action_space == "padded/1"
    assert wide.observation_size == PADDED_SIZE
    assert not wide.weights[0][682:].any() and not wide.weights[-1][:, 10:].any()
    for rules in (Rules.preset("pagat", num_players=6), Rules.preset("classic", variant="muflis")):
        tables = TableBatch(128, rules, seed=2)
        step = tables.reset()
        for _ in range(5):
            before = raw_choices(policy, pad_observations(step.observations, rules,
                                                          "seat-padded/2"), step.action_masks)
            assert policy.act_at_table(step.observations, step.action_masks,
                                       rules).tolist() == before
            assert wide.act_at_table(step.observations, step.action_masks,
                                     rules).tolist() == before
            step = tables.step(np.asarray(before))


def test_a_ten_action_file_starts_a_general_run(tmp_path: Path) -> None:
    """``--init-from ppo:ten.npz`` in a general run: the wide network starts from it (its
    logits at classic's actions are the file's) and a short run trains on."""
    path = ten_action_policy(tmp_path / "ten.npz", hidden=16)
    config = SelfPlayConfig(table_mix="general", timesteps=2_000, tables=32, rollout_steps=8,
                            minibatch_size=256, snapshot_every=1_000, exploiter_every=0,
                            threads=1, hidden=(16,), out=str(tmp_path / "run"),
                            progress=False, init_from=f"ppo:{path}")
    model = general_model(config)
    model.load_policy(padded_start(read_policy(path)))
    rules = Rules.preset("classic", num_players=5)
    step = TableBatch(32, rules, seed=1).reset()
    inputs = pad_observations(step.observations, rules)
    wide = np.zeros((32, len(PADDED_ACTION_NAMES)), bool)
    wide[:, :10] = step.action_masks.astype(bool)
    with torch.no_grad():
        logits = model(torch.as_tensor(inputs), torch.as_tensor(wide))[0].numpy()
    assert raw_choices(read_policy(path), inputs[:, :682], step.action_masks) == \
        logits.argmax(axis=1).tolist()
    result = train_selfplay(config)
    assert result.policy.action_names == list(PADDED_ACTION_NAMES)


@pytest.mark.parametrize("variant", ["shopping", "buy_a_joker"])
def test_both_arena_engines_play_a_padded_action_policy_alike(tmp_path: Path,
                                                             variant: str) -> None:
    """Two general policies at a selection-phase (or joker-buying) table: the batched
    arena (masks widened and choices mapped back a batch at a time) and the per-table
    arena (one decision at a time) give the same report."""
    specs = [f"ppo:{general_policy(seed).save(tmp_path / f'g{seed}.npz')}" for seed in (1, 2)]
    rules = Rules.preset("classic", variant=variant)
    results = [run_arena(specs, hands=60, rules=rules, seed=8, engine=engine).agents[specs[0]]
               .result for engine in ("batched", "per_table")]
    assert results[0] == results[1]
