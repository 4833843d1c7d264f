"""The training environment credits the learner with its own net chips and nothing else,
at every seat (the classic pitfall of turn-based wrappers); the opponent pool's checks,
draws and cap."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest
from builders.training import CLASSIC, random_policy, trainlib

from agents import SCRIPTED_AGENTS
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.rules import Rules
from training.config import TrainConfig
from training.pool import OpponentPool, PoolEnv, PoolSeat

pytestmark = pytest.mark.filterwarnings("ignore:Path .* does not exist:UserWarning")

# --------------------------------------------------------------------------- 2. reward credit


def pack_or_random(mask: np.ndarray, first: bool, rng: np.random.Generator) -> int:
    """Pack at the first decision a third of the time (then the others play the hand
    out), otherwise a random legal action."""
    pack = ActionLayout(CLASSIC).names.index("pack")
    if first and mask[pack] and rng.random() < 1 / 3:
        return pack
    return int(rng.choice(np.flatnonzero(mask)))


def check_credit(
    hand: Any, learner: int, total: float, rewards: list[float], rules: Rules
) -> tuple[int, ...]:
    """The episode's rewards are the learner's own net result in boots, credited at the
    end; returns the seats whose net differs from the learner's."""
    net = hand.net
    assert net is not None and sum(net) == 0
    own = net[learner] / rules.boot
    assert hand.stacks[learner] - rules.starting_stack == net[learner]
    assert total == pytest.approx(own, abs=1e-5), (learner, net, rewards)
    assert all(r == 0 for r in rewards[:-1]), rewards  # credited when the hand ends
    others = tuple(s for s in range(len(net)) if s != learner and net[s] != net[learner])
    for seat in others:
        assert total != pytest.approx(net[seat] / rules.boot, abs=1e-5)
    return others


@pytest.mark.parametrize("players", [4, 6])
def test_pool_env_reward_is_the_learners_own_net(players: int) -> None:
    rules = Rules.preset("classic", num_players=players)
    pool = OpponentPool(self_play_share=0.3)
    pool.add_snapshot(random_policy(rules, seed=1))
    env = PoolEnv(rules, pool, seed=4)
    rng = np.random.default_rng(players)
    seats: Counter[int] = Counter()
    packed_big: Counter[int] = Counter()
    episodes = 60 * players
    env.reset(seed=9)
    for episode in range(episodes):
        if episode:
            env.reset()
        learner, hand = env.learner, env.game.hand
        assert learner == episode % players  # the seat rotates
        rewards: list[float] = []
        first, packed = True, False
        while True:
            mask = env.action_masks()
            action = pack_or_random(mask, first, rng)
            packed = packed or (first and env.game.layout.names[action] == "pack")
            first = False
            _, reward, terminated, truncated, _ = env.step(action)
            assert env.game.hand is hand  # one hand per episode
            rewards.append(reward)
            if terminated or truncated:
                break
        assert not truncated
        others = check_credit(hand, learner, sum(rewards), rewards, rules)
        seats[learner] += 1
        if packed and others and max(abs(hand.net[s]) for s in others) >= 4 * rules.boot:
            packed_big[learner] += 1
    assert set(seats) == set(range(players))
    # the learner packed early while the others fought over a pot: at every seat
    assert set(packed_big) == set(range(players)), packed_big


@pytest.mark.parametrize("normalize", [False, True])
def test_vec_env_reward_is_the_learners_own_net(normalize: bool) -> None:
    """Through the training's vectorised environment (with reward scaling, the raw
    reward under it and the episode statistics)."""
    make_vec_env = trainlib().make_vec_env
    config = TrainConfig(envs=2, seed=3, self_play_share=0.3, progress=False, out="unused",
                         normalize_reward=normalize)
    vec = make_vec_env(config)
    try:
        base = vec.unwrapped.envs
        assert all(isinstance(env, PoolEnv) for env in base)
        for env in base:
            env.add_snapshot(random_policy(CLASSIC, seed=2))
        vec.reset()
        rng = np.random.default_rng(0)
        hands = [env.game.hand for env in base]
        learners = [env.learner for env in base]
        rewards: list[list[float]] = [[] for _ in base]
        first = [True] * len(base)
        packed = [False] * len(base)
        seats: Counter[int] = Counter()
        packed_big: Counter[int] = Counter()
        episodes = 0
        while episodes < 240:
            masks = np.stack(vec.env_method("action_masks"))
            actions = [pack_or_random(m, f, rng) for m, f in zip(masks, first, strict=True)]
            for i, action in enumerate(actions):
                packed[i] = packed[i] or (first[i] and action == 0)
            _, step_rewards, dones, infos = vec.step(np.array(actions))
            original = getattr(vec, "get_original_reward", None)  # under VecNormalize
            if original is not None:
                step_rewards = original()
            for i, env in enumerate(base):
                rewards[i].append(float(step_rewards[i]))
                first[i] = False
                if not dones[i]:
                    assert env.game.hand is hands[i]
                    continue
                total = sum(rewards[i])
                others = check_credit(hands[i], learners[i], total, rewards[i], CLASSIC)
                assert infos[i]["episode"]["r"] == pytest.approx(total, abs=1e-4)
                assert infos[i]["episode"]["l"] == len(rewards[i])
                assert "terminal_observation" in infos[i]
                seats[learners[i]] += 1
                net = hands[i].net
                if packed[i] and others and max(abs(net[s]) for s in others) >= 4:
                    packed_big[learners[i]] += 1
                episodes += 1
                # the environment was reset: the next episode, the next seat
                assert env.learner == (learners[i] + 1) % 4
                hands[i], learners[i] = env.game.hand, env.learner
                rewards[i], first[i], packed[i] = [], True, False
        assert set(seats) == {0, 1, 2, 3}
        assert set(packed_big) == {0, 1, 2, 3}, packed_big
    finally:
        vec.close()


# --------------------------------------------------------------------------- 5. opponent pool


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"scripted": ("random", "nobody")}, "nobody"),
        ({"self_play_share": -0.1}, "self_play_share"),
        ({"self_play_share": 1.5}, "self_play_share"),
        ({"self_play_share": float("nan")}, "self_play_share"),
        ({"max_snapshots": -1}, "max_snapshots"),
        ({"scripted": (), "self_play_share": 0.5}, "at least one scripted agent"),
        ({"scripted": (), "self_play_share": 1.0}, "at least one scripted agent"),
    ],
)
def test_opponent_pool_checks(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        OpponentPool(**kwargs)


def test_pool_draws_scripted_only_until_a_snapshot_exists() -> None:
    pool = OpponentPool(("random", "easy", "hard"), self_play_share=0.3, max_snapshots=5)
    rng = np.random.default_rng(0)
    draws = Counter(pool.draw(rng) for _ in range(3000))
    assert set(draws) == {"random", "easy", "hard"}
    assert all(abs(n / 3000 - 1 / 3) < 0.04 for n in draws.values()), draws

    pool.add_snapshot(random_policy(seed=1))
    pool.add_snapshot(random_policy(seed=2))
    draws = Counter(pool.draw(rng) for _ in range(6000))
    snapshots = draws[0] + draws[1]
    assert set(draws) == {"random", "easy", "hard", 0, 1}
    assert abs(snapshots / 6000 - 0.3) < 0.03, draws
    assert abs(draws[0] - draws[1]) / snapshots < 0.1
    for name in ("random", "easy", "hard"):
        assert abs(draws[name] / 6000 - 0.7 / 3) < 0.03, draws


@pytest.mark.parametrize(("share", "snapshot_share"), [(0.0, 0.0), (1.0, 1.0)])
def test_pool_share_extremes(share: float, snapshot_share: float) -> None:
    pool = OpponentPool(("random",), self_play_share=share)
    pool.add_snapshot(random_policy())
    rng = np.random.default_rng(1)
    draws = [pool.draw(rng) for _ in range(500)]
    assert sum(isinstance(d, int) for d in draws) / 500 == snapshot_share


def test_pool_keeps_the_latest_snapshots() -> None:
    pool = OpponentPool(("random",), max_snapshots=3)
    policies = [random_policy(seed=k) for k in range(7)]
    for k, policy in enumerate(policies):
        pool.add_snapshot(policy)
        assert len(pool.snapshots) == min(k + 1, 3)
    assert pool.snapshots == policies[-3:]

    none = OpponentPool(("random",), self_play_share=1.0, max_snapshots=0)
    none.add_snapshot(policies[0])
    assert none.snapshots == []
    rng = np.random.default_rng(0)
    assert {none.draw(rng) for _ in range(50)} == {"random"}


def count_draws(pool: OpponentPool) -> list[int]:
    """Count the pool's draws from now on (in the returned one-item list)."""
    calls = [0]
    draw = pool.draw

    def counting(rng: np.random.Generator) -> str | int:
        calls[0] += 1
        return draw(rng)

    pool.draw = counting  # type: ignore[method-assign]
    return calls


def test_pool_seat_draws_a_new_member_every_reset() -> None:
    pool = OpponentPool(("random", "auto", "equity"), self_play_share=0.25)
    pool.add_snapshot(random_policy(seed=3))
    calls = count_draws(pool)
    seat = PoolSeat(pool, seed=0)
    members: list[str] = []
    for k in range(200):
        seat.reset()
        assert calls[0] == k + 1
        assert seat.current is not None
        members.append(seat.current.name)
    assert set(members) == {"random", "auto", "equity", "snapshot"}
    assert 0.15 < members.count("snapshot") / 200 < 0.35
    # seeded: the same seed draws the same members
    again = PoolSeat(OpponentPool(("random", "auto", "equity"), 0.25), seed=0)
    again.pool.add_snapshot(random_policy(seed=3))
    replay = []
    for _ in range(200):
        again.reset()
        assert again.current is not None
        replay.append(again.current.name)
    assert replay == members


def test_pool_env_opponents_act_legally_and_redraw_every_hand() -> None:
    rules = Rules.preset("classic", num_players=5)
    pool = OpponentPool(self_play_share=0.4)
    pool.add_snapshot(random_policy(rules, seed=4))
    env = PoolEnv(rules, pool, seed=8)
    draws = count_draws(pool)
    members: Counter[str] = Counter()
    illegal: list[Any] = []
    for seat in env.opponents:
        assert isinstance(seat, PoolSeat) and seat.pool is pool
        act = seat.act

        def checked(
            observation: Any, mask: Any, info: Any, act: Any = act, seat: Any = seat
        ) -> int:
            action = act(observation, mask, info)
            if not mask[action]:
                illegal.append((seat.current.name, action))
            members[seat.current.name] += 1
            return action

        seat.act = checked  # type: ignore[method-assign]
    rng = np.random.default_rng(2)
    dealt = 0
    for episode in range(150):
        _, info = env.reset(seed=5 if episode == 0 else None)
        dealt += 1 + info["redealt"]
        while True:
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            *_, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                break
    assert illegal == []
    assert draws[0] == dealt * (rules.num_players - 1)  # every seat, every hand
    assert set(members) == {*SCRIPTED_AGENTS, "snapshot"}, members


def test_pure_self_play_pool_works_or_is_rejected() -> None:
    try:
        pool = OpponentPool((), self_play_share=1.0)
    except ValueError:
        return  # rejected up front: fine
    env = PoolEnv(CLASSIC, pool, seed=0)
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
