"""Policies and the arena on the batched engine: the same actions and the same report as
the per-table path."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from builders.batched import twin_env, variant_policy

from agents.arena import run_arena
from agents.policy import NumpyPolicy, load_policy, policy_metadata, pretrained_path
from teenpatti_env.environment.batched import TableBatch
from teenpatti_env.rules import Rules

ROOT = Path(__file__).resolve().parents[1]


def _plays_alike_in_both_paths(policy: NumpyPolicy, tables: int = 24) -> int:
    """Every seat is ``policy``: the batch's actions (one call for all tables) equal the
    policy's action for each per-table observation, decision after decision. Returns the
    number of decisions checked."""
    batch = TableBatch(tables, policy.rules, autoreset=False)
    step = batch.reset(seed=9)
    envs = [twin_env(batch, t) for t in range(tables)]
    checked = 0
    while (step.to_act >= 0).any():
        waiting = np.flatnonzero(step.to_act >= 0)
        actions = np.zeros(tables, dtype=np.int64)
        actions[waiting] = policy.act_batch(step.observations[waiting],
                                            step.action_masks[waiting])
        for t in waiting:
            agent = envs[t].agent_selection
            seen = envs[t].observe(agent)
            assert policy.act(seen["observation"], seen["action_mask"]) == actions[t]
            envs[t].step(int(actions[t]))
            checked += 1
        step = batch.step(actions)
    for t in range(tables):
        assert envs[t].hand.net == batch.net[t].tolist()
    return checked


def test_the_shipped_policy_acts_the_same_on_both_paths() -> None:
    assert _plays_alike_in_both_paths(load_policy(pretrained_path("classic"))) > 50


def test_a_policy_trained_on_the_batched_path_acts_the_same_on_both_paths(
    tmp_path: Path,
) -> None:
    torch = pytest.importorskip("torch")
    from teenpatti_env.environment.vector import TeenPattiVectorEnv

    torch.manual_seed(0)
    env = TeenPattiVectorEnv(64, "classic")
    size, actions = env.batch.observation_size, env.batch.action_size
    network = torch.nn.Sequential(torch.nn.Linear(size, 32), torch.nn.Tanh(),
                                  torch.nn.Linear(32, actions))
    optimiser = torch.optim.Adam(network.parameters(), lr=1e-2)
    obs, _ = env.reset(seed=0)
    for _ in range(20):  # a few policy-gradient updates, one step of 64 tables each
        masks = torch.as_tensor(env.action_masks())
        logits = network(torch.as_tensor(obs) * 0.1).masked_fill(~masks, -1e9)
        chosen = torch.distributions.Categorical(logits=logits).sample()
        log_prob = torch.log_softmax(logits, dim=1)[torch.arange(64), chosen]
        obs, rewards, _, _, _ = env.step(chosen.numpy())
        loss = -(log_prob * torch.as_tensor(rewards, dtype=torch.float32)).mean()
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
    first, last = network[0], network[2]
    weights = [(first.weight.detach().numpy().T * 0.1).astype(np.float32),
               last.weight.detach().numpy().T.astype(np.float32)]
    biases = [first.bias.detach().numpy(), last.bias.detach().numpy()]
    metadata = policy_metadata(env.rules, env.batch.layout.names, "tanh", trained_on="batched")
    path = NumpyPolicy(weights, biases, metadata).save(tmp_path / "batched.npz")
    assert _plays_alike_in_both_paths(load_policy(path)) > 50


def test_batched_arena_gives_the_per_table_report(tmp_path: Path) -> None:
    other = variant_policy(tmp_path / "other.npz")
    names = ["pretrained:classic", f"ppo:{other}"]
    batched = run_arena(names, hands=800, seed=5, engine="batched")
    per_table = run_arena(names, hands=800, seed=5, engine="per_table")
    assert batched.to_dict() == per_table.to_dict()
    assert run_arena(names, hands=800, seed=5).to_dict() == batched.to_dict()  # auto
    # A real contest, not two agents that always pack.
    rates = batched.to_dict()["results"]["pretrained:classic"]["rates"]
    assert 0 < rates["pack"] < 1 and rates["look"] > 0


def test_batched_arena_refuses_what_it_cannot_play() -> None:
    with pytest.raises(ValueError, match="dealer's choice"):  # the batch cannot play it
        run_arena(["random", "hard"], hands=8,
                  rules=Rules(dealers_choice=["classic", "muflis"]), engine="batched")
    with pytest.raises(ValueError, match="cannot play 4 seats of 'buy_a_joker'"):
        run_arena(["pretrained:classic"], hands=8, rules=Rules(variant="buy_a_joker"),
                  engine="batched")
    with pytest.raises(ValueError, match="engine must be"):
        run_arena(["random"], hands=8, engine="gpu")


def test_arena_cli_engine_option(tmp_path: Path) -> None:
    """Scripted agents play a variant on the batched engine, buying jokers included."""
    def arena(variant: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "teenpatti_env", "arena", "--agents", "random,hard",
             "--variant", variant, "--engine", "batched", "--hands", "8", "--quiet",
             "--out", str(tmp_path)],
            capture_output=True, text=True, timeout=120, cwd=ROOT,
        )

    done = arena("muflis")
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "arena.json").read_text())
    assert report["hands"] == 8 and report["rules"]["variant"] == "muflis"
    done = arena("buy_a_joker")  # the scripted agents' buying choices too (batch_phases)
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "arena.json").read_text())["rules"]["variant"] == \
        "buy_a_joker"
