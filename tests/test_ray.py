"""Ray: the RLlib environment (every seat's result delivered, masks respected), one
iteration of self-play PPO, export of the trained module to the arena, and the arena's
deals as Ray tasks giving the local report.

One local Ray instance (2 CPUs) serves the module. Needs the ``ray`` extra; skipped
without it unless ``TEENPATTI_REQUIRE_CLIENTS=1``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from builders.env import client
from builders.ray_local import local_ray

from interfaces import cli

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[Any]:
    client("ray.rllib")
    yield from local_ray()


@pytest.fixture(scope="module")
def rllib() -> Any:
    client("ray.rllib")
    from training import rllib

    return rllib


class Recorded:
    """An environment whose steps are recorded as RLlib's env runner records them, in a
    ``MultiAgentEpisode`` (which ends as soon as every agent it has seen so far is
    terminated, and drops an agent it first sees in that step)."""

    def __init__(self, env: Any, **reset: Any) -> None:
        from ray.rllib.env.multi_agent_episode import MultiAgentEpisode

        self.env = env
        self.episode = MultiAgentEpisode(
            observation_space=env.observation_spaces, action_space=env.action_spaces,
            agent_to_module_mapping_fn=lambda agent, episode: "main")
        self.observations, infos = env.reset(**reset)
        self.episode.add_env_reset(observations=self.observations, infos=infos)

    def step(self, actions: dict[str, int]) -> tuple[Any, Any, Any, Any, Any]:
        assert not self.episode.is_done, "RLlib ended the episode before the hand"
        observations, rewards, terminated, truncated, infos = self.env.step(actions)
        self.episode.add_env_step(observations, actions, rewards, infos,
                                  terminateds=terminated, truncateds=truncated)
        self.observations = observations
        return observations, rewards, terminated, truncated, infos


def play_hand(env: Any, rng: np.random.Generator, **reset: Any) -> dict[str, float]:
    """One episode with random masked actions; checks RLlib's step contract (and that
    RLlib's episode keeps every seat's return) and returns each agent's summed
    rewards."""
    recorded = Recorded(env, **reset)
    returns: dict[str, float] = {}
    done = False
    while not done:
        actions = {}
        for agent, observation in recorded.observations.items():
            assert env.observation_spaces[agent].contains(observation)
            legal = np.flatnonzero(observation["action_mask"])
            assert legal.size, f"{agent} observes with no legal action"
            actions[agent] = int(rng.choice(legal))
        observations, rewards, terminated, truncated, infos = recorded.step(actions)
        assert set(infos) == set(observations) and not truncated["__all__"]
        for agent in actions:  # RLlib needs a reward for every agent that acted
            assert agent in rewards
        for agent, reward in rewards.items():
            returns[agent] = returns.get(agent, 0.0) + reward
        done = terminated["__all__"]
        # No seat is terminated before the last step, where all are.
        assert terminated == dict.fromkeys([*observations, "__all__"], True) if done else (
            terminated == {"__all__": False})
    assert recorded.episode.is_done
    assert {agent: single.get_return()
            for agent, single in recorded.episode.agent_episodes.items()} == returns
    return returns


def test_every_seat_gets_its_result_and_returns_sum_to_zero(rllib: Any) -> None:
    env = rllib.TeenPattiMultiAgentEnv({"rules": "classic"})
    rng = np.random.default_rng(0)
    closing = 0
    for seed in range(150):
        returns = play_hand(env, rng, seed=seed)
        hand = env.game.hand
        assert set(returns) == set(env.game.agents)
        assert sum(returns.values()) == pytest.approx(0.0, abs=1e-9)
        for agent, value in returns.items():
            seat = env.game.agent_name_mapping[agent]
            assert value == pytest.approx(hand.net[seat] / env.game.rules.boot)
        closing += len(env.game.agents) - len(env._acted)
    assert closing > 0, "some hands end before a seat's first turn"


def test_a_seat_that_never_acted_gets_a_closing_decision_then_its_result(rllib: Any) -> None:
    env = rllib.TeenPattiMultiAgentEnv({"rules": "classic"})
    cards = [["As", "Kd", "2c"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"], ["2h", "2d", "Js"]]
    recorded = Recorded(env, options={"cards": cards, "dealer": 0})
    pack = env.game.layout.index("pack")
    for _ in range(3):  # seats 1, 2, 3 pack: seat 0 wins without a turn
        (agent,) = recorded.observations
        observations, rewards, terminated, _, _ = recorded.step({agent: pack})
    # The closing seat is to act; nobody is terminated before it has observed.
    assert set(observations) == {"player_0"} and terminated == {"__all__": False}
    assert rewards == {"player_3": 0.0}
    mask = observations["player_0"]["action_mask"]
    assert np.flatnonzero(mask).tolist() == [rllib.CLOSING_ACTION]
    observations, rewards, terminated, _, _ = recorded.step(
        {"player_0": rllib.CLOSING_ACTION})
    # Then every seat observes the final table, gets its result and is terminated.
    assert set(observations) == set(env.game.agents)
    assert rewards == {"player_0": 3.0, "player_1": -1.0, "player_2": -1.0, "player_3": -1.0}
    assert terminated == dict.fromkeys([*env.game.agents, "__all__"], True)
    # RLlib's episode holds every seat, its one decision and its result.
    episode = recorded.episode
    assert episode.is_done and episode.get_return() == 0.0
    assert {agent: (single.get_return(), list(single.get_actions()))
            for agent, single in episode.agent_episodes.items()} == {
        "player_0": (3.0, [rllib.CLOSING_ACTION]), "player_1": (-1.0, [pack]),
        "player_2": (-1.0, [pack]), "player_3": (-1.0, [pack])}


def test_seats_all_in_from_the_boot_all_close_the_hand(rllib: Any) -> None:
    env = rllib.TeenPattiMultiAgentEnv({"rules": "classic", "starting_boots": 1})
    observations, _ = env.reset(seed=3)
    assert set(observations) == set(env.game.agents)
    assert all(np.flatnonzero(observation["action_mask"]).tolist() == [rllib.CLOSING_ACTION]
               for observation in observations.values())
    returns = play_hand(env, np.random.default_rng(0), seed=3)
    assert sorted(returns.values()) == [-1.0, -1.0, -1.0, 3.0]


def test_the_environment_plays_one_hand_an_episode(rllib: Any) -> None:
    env = rllib.TeenPattiMultiAgentEnv({"num_players": 3, "boot": 2})
    assert env.game.rules.num_players == 3 and env.game.rules.boot == 2
    with pytest.raises(ValueError, match="one hand"):
        rllib.TeenPattiMultiAgentEnv({"episode": "session"})


@pytest.fixture(scope="module")
def trained(ray_instance: Any, rllib: Any) -> Iterator[tuple[Any, dict[str, Any]]]:
    """The self-play algorithm after one PPO iteration, and that iteration's result."""
    config = rllib.selfplay_config({"rules": "classic"}, hidden=(32, 32), batch_size=400,
                                   freeze_every=1, seed=1)
    algorithm = rllib.build_selfplay_algo(config)
    try:
        yield algorithm, algorithm.train()
    finally:
        algorithm.stop()


def module_weights(algorithm: Any, module: str) -> dict[str, np.ndarray]:
    """A module's weights as numpy arrays, by name."""
    return {key: np.asarray(value) for key, value in
            algorithm.get_module(module).get_state().items()}


def test_the_frozen_opponent_is_a_copy_of_the_policy_from_the_start(
        ray_instance: Any, rllib: Any) -> None:
    """Built with ``freeze_every=5``, the frozen module already holds the trained one's
    weights: a run of fewer than five iterations does not play a separately initialised
    network (the two modules are initialised apart, so a missed copy shows)."""
    config = rllib.selfplay_config({"rules": "classic"}, hidden=(16,), batch_size=200,
                                   freeze_every=5, seed=2)
    algorithm = rllib.build_selfplay_algo(config)
    try:
        from training.rllib_masking import MaskedPPOModule

        assert isinstance(algorithm.get_module(rllib.TRAINED), MaskedPPOModule)
        trained = module_weights(algorithm, rllib.TRAINED)
        frozen = module_weights(algorithm, rllib.FROZEN)
        # What plays: the actor's encoder and the policy head (the value function of a
        # module that is not trained is never used, nor synced to the env runners).
        playing = [key for key in trained if key.startswith(("encoder.", "pi."))]
        assert len(playing) >= 4 and set(playing) <= set(frozen), sorted(trained)
        for key in playing:
            np.testing.assert_array_equal(frozen[key], trained[key], err_msg=key)
    finally:
        algorithm.stop()


def test_more_env_runners_than_free_cpus_is_an_error_not_a_wait(
        ray_instance: Any, rllib: Any) -> None:
    config = rllib.selfplay_config({"rules": "classic"}, env_runners=3)
    with pytest.raises(ValueError, match=r"3 env runners need 3 CPUs but the Ray cluster "
                                         r"has \d free \(2 in all\): ask for at most"):
        rllib.build_selfplay_algo(config)


def check_episodes(rllib: Any, episodes: list[Any]) -> int:
    """Every episode is a whole hand: done, holding every seat dealt in, its returns
    summing to zero, every sampled action legal. Returns how many had a closing seat."""
    seats = set(rllib.TeenPattiMultiAgentEnv({"rules": "classic"}).possible_agents)
    closing = 0
    for episode in episodes:
        assert episode.is_done
        assert set(episode.agent_episodes) == seats, "a seat missing from a hand"
        assert episode.get_return() == pytest.approx(0.0, abs=1e-6)
        firsts = []
        for single in episode.agent_episodes.values():
            masks = np.asarray(single.get_observations()["action_mask"])
            actions = np.asarray(single.get_actions())
            assert masks[np.arange(len(actions)), actions].all(), "an illegal action"
            firsts.append(np.flatnonzero(masks[0]).tolist())
        closing += [rllib.CLOSING_ACTION] in firsts
    return closing


def test_one_selfplay_ppo_iteration_then_export_to_the_arena(
    trained: tuple[Any, dict[str, Any]], rllib: Any, tmp_path: Path
) -> None:
    import torch
    from ray.rllib.core.columns import Columns

    algorithm, result = trained
    runners = result["env_runners"]
    assert runners["num_episodes"] > 0
    # Each episode's return is the sum over its seats: zero in every hand.
    assert runners["episode_return_min"] == pytest.approx(0.0, abs=1e-6)
    assert runners["episode_return_max"] == pytest.approx(0.0, abs=1e-6)
    assert result["frozen_at_iteration"] == 1
    episodes = algorithm.env_runner.sample(num_episodes=20, explore=True, force_reset=True)
    assert len(episodes) == 20
    check_episodes(rllib, episodes)
    module = algorithm.get_module(rllib.TRAINED)
    policy = rllib.export_module(module, "classic")
    path = policy.save(tmp_path / "rllib.npz")
    # The exported numpy policy computes the module's masked logits.
    env = rllib.TeenPattiMultiAgentEnv({"rules": "classic"})
    observations, _ = env.reset(seed=4)
    (observation,) = observations.values()
    batch = {Columns.OBS: {key: torch.as_tensor(value[None])
                           for key, value in observation.items()}}
    with torch.no_grad():
        expected = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS].numpy()[0]
    legal = observation["action_mask"] > 0
    got = policy.masked_logits(observation["observations"], observation["action_mask"])
    np.testing.assert_allclose(np.asarray(got)[legal], expected[legal], rtol=1e-4, atol=1e-4)
    # ... and the arena plays it.
    assert cli.main(["arena", "--agents", f"ppo:{path},random", "--hands", "40",
                     "--quiet", "--workers", "1", "--out", str(tmp_path / "out")]) == 0
    report = json.loads((tmp_path / "out" / "arena.json").read_text())
    assert report["hands"] == 40 and set(report["results"]) == {f"ppo:{path}", "random"}


def test_many_sampled_hands_each_hold_every_seat_and_sum_to_zero(
    trained: tuple[Any, dict[str, Any]], rllib: Any
) -> None:
    # About one hand in sixty has a seat whose only decision is the closing one: in
    # 600 hands (30 calls, each starting afresh) some certainly do.
    algorithm, _ = trained
    closing = 0
    for _ in range(30):
        episodes = algorithm.env_runner.sample(num_episodes=20, explore=True,
                                               force_reset=True)
        closing += check_episodes(rllib, episodes)
    assert closing > 0, "no sampled hand had a closing seat"


def test_arena_on_ray_gives_the_local_report(
    ray_instance: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    common = ["arena", "--agents", "random,easy,hard", "--hands", "300", "--seed", "7",
              "--quiet"]
    assert cli.main([*common, "--workers", "1", "--out", str(tmp_path / "local")]) == 0
    local = capsys.readouterr().out
    assert cli.main([*common, "--ray", "--out", str(tmp_path / "ray")]) == 0
    on_ray = capsys.readouterr().out
    assert ray_instance.is_initialized(), "a connected Ray instance is left running"
    assert local.replace("local", "ray") == on_ray
    reports = [json.loads((tmp_path / kind / "arena.json").read_text())
               for kind in ("local", "ray")]
    assert reports[0] == reports[1]
    assert reports[0]["hands"] == 300 and reports[0]["deals"] == 75  # three Ray tasks


def test_table_compositions_on_ray_give_the_local_report(ray_instance: Any) -> None:
    from agents.arena import run_arena

    # 120 hands at four seats: 30 deals, two Ray tasks for each of the two pairings
    local = run_arena(["random", "hard"], hands=120, seed=3, table="1vN", workers=1)
    on_ray = run_arena(["random", "hard"], hands=120, seed=3, table="1vN", ray_address="")
    assert ray_instance.is_initialized()
    assert local.to_dict() == on_ray.to_dict()
    assert [row.table for row in on_ray.rows] == ["1v3", "1v3"]
