"""The Gymnasium single-agent view (``TeenPattiEnv``, registered as ``"TeenPatti-v0"``).

Gymnasium's env checker; masks for MaskablePPO-style training; rewards that are the
learner's own net result and nobody else's; learner seat rotation; opponents given as
callables and as agent objects; render and reset options.
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from builders.env import pick
from gymnasium.utils.env_checker import check_env

from teenpatti_env import TeenPattiEnv
from teenpatti_env.cards import parse_cards

INFO_KEYS = {"action_mask", "redealt", "redealt_reward", "illegal_action"}


def index_of(env: TeenPattiEnv, name: str) -> int:
    return env.game.layout.index(name)


def play_episode(env: TeenPattiEnv, rng: np.random.Generator, **reset_kwargs):
    """Play one episode with a random masked learner; return (rewards, infos)."""
    _, info = env.reset(**reset_kwargs)
    rewards, infos = [], [info]
    done = False
    while not done:
        _, reward, terminated, truncated, info = env.step(pick(env.action_masks(), rng))
        assert not truncated
        done = terminated
        rewards.append(reward)
        infos.append(info)
    return rewards, infos


# --------------------------------------------------------------------- registration, checker


def test_registered_id_makes_the_env() -> None:
    made = gymnasium.make("TeenPatti-v0", rules="flash", num_players=5)
    inner = made.unwrapped
    assert isinstance(inner, TeenPattiEnv)
    assert inner.game.rules.num_players == 5 and inner.game.rules.boot == 2
    assert made.action_space == gymnasium.spaces.Discrete(inner.game.layout.size)
    assert made.observation_space.shape == (inner.game.obs_layout.size,)
    obs, info = made.reset(seed=0)
    assert made.observation_space.contains(obs)
    assert inner.view()["agent"] == inner.learner_agent
    assert set(info) == INFO_KEYS
    obs, reward, terminated, truncated, info = made.step(
        pick(inner.action_masks(), np.random.default_rng(0))
    )
    assert made.observation_space.contains(obs)
    assert isinstance(reward, float) and isinstance(terminated, bool) and truncated is False


@pytest.mark.parametrize("episode", ["hand", "session"])
def test_every_info_holds_the_same_keys_with_the_same_types(episode: str) -> None:
    env = TeenPattiEnv(rules="classic", episode=episode, max_hands=4)
    rng = np.random.default_rng(2)
    types = {"redealt": int, "redealt_reward": float, "illegal_action": str}
    seen = 0
    for seed in range(8):
        _, info = env.reset(seed=seed)
        done = False
        while True:
            assert set(info) == INFO_KEYS
            assert {key: type(info[key]) for key in types} == types
            mask = info["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (env.action_space.n,)
            np.testing.assert_array_equal(mask.astype(bool), env.action_masks())
            seen += 1
            if done:
                break
            _, _, done, _, info = env.step(pick(env.action_masks(), rng))
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    *_, info = env.step(illegal)
    assert set(info) == INFO_KEYS and info["illegal_action"]
    assert seen > 16


def test_gymnasium_check_env_on_the_registered_env() -> None:
    check_env(gymnasium.make("TeenPatti-v0").unwrapped)


@pytest.mark.parametrize("episode", ["hand", "session"])
@pytest.mark.parametrize("preset", ["classic", "flash"])
def test_gymnasium_check_env_on_teenpatti_env(preset: str, episode: str) -> None:
    check_env(TeenPattiEnv(rules=preset, episode=episode))


def test_gymnasium_check_env_with_a_fixed_learner_seat() -> None:
    check_env(TeenPattiEnv(rules="tabletop", num_players=5, learner_seat=2))


def test_reset_with_the_same_seed_is_deterministic_for_a_fixed_seat() -> None:
    env = TeenPattiEnv(rules="pagat", num_players=6, learner_seat=3)
    first, _ = env.reset(seed=17)
    hand = env.game.hand.to_dict()
    again, _ = env.reset(seed=17)
    np.testing.assert_array_equal(first, again)
    assert env.game.hand.to_dict() == hand


@pytest.mark.parametrize("episode", ["hand", "session"])
def test_same_seed_same_episode_with_default_random_opponents(episode: str) -> None:
    runs = []
    for _ in range(2):
        env = TeenPattiEnv(rules="tabletop", num_players=5, episode=episode)
        rng = np.random.default_rng(4)
        trace = []
        for seed in (11, None, None):
            obs, _ = env.reset(seed=seed)
            trace.append(obs.tobytes())
            done, steps = False, 0
            while not done and steps < 60:
                obs, reward, done, _, _ = env.step(pick(env.action_masks(), rng))
                trace.append((obs.tobytes(), reward, done))
                steps += 1
        runs.append(trace)
    assert runs[0] == runs[1]


# --------------------------------------------------------------------- masks


@pytest.mark.parametrize(
    ("preset", "episode"),
    [("classic", "hand"), ("tabletop", "session"), ("pagat", "hand"), ("flash", "session")],
)
def test_action_masks_are_the_learners_legal_actions(preset: str, episode: str) -> None:
    env = TeenPattiEnv(rules=preset, episode=episode, learner_seat="random")
    rng = np.random.default_rng(3)
    decisions = 0
    for seed in range(30):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            game = env.game
            learner = env.learner_agent
            masks = env.action_masks()
            assert masks.dtype == np.bool_ and masks.shape == (env.action_space.n,)
            assert masks.any(), "the learner is only asked when it has a decision"
            assert game.agent_selection == learner
            np.testing.assert_array_equal(masks, game.action_mask(learner).astype(bool))
            np.testing.assert_array_equal(masks, np.asarray(info["action_mask"]).astype(bool))
            np.testing.assert_array_equal(obs, game.observe(learner)["observation"])
            assert env.observation_space.contains(obs)
            view = env.view()
            assert view["my_turn"] is True and view["seat"] == env.learner
            for index in range(env.action_space.n):
                action = game.action_to_engine(learner, index)
                assert game.hand.is_legal(action) == bool(masks[index]), (index, action)
            decisions += 1
            obs, _, done, _, info = env.step(pick(masks, rng))
            if episode == "session" and decisions > 400:
                break
    assert decisions > 40


@pytest.mark.parametrize("illegal_reward", [None, -5.0])
def test_illegal_learner_action_ends_the_episode(illegal_reward: float | None) -> None:
    kwargs = {} if illegal_reward is None else {"illegal_reward": illegal_reward}
    env = TeenPattiEnv(rules="classic", learner_seat=0, **kwargs)
    env.reset(seed=1)
    before = env.game.hand.to_dict()
    accept = index_of(env, "accept")
    obs, reward, terminated, truncated, info = env.step(accept)
    assert reward == (-1.0 if illegal_reward is None else illegal_reward)
    assert terminated and not truncated
    assert "player_0" in info["illegal_action"] and "accept" in info["illegal_action"]
    assert env.game.hand.to_dict() == before, "the illegal action is not applied"
    assert env.observation_space.contains(obs)
    with pytest.raises(RuntimeError):
        env.step(0)
    env.reset()
    env.step(pick(env.action_masks(), np.random.default_rng(0)))


@pytest.mark.parametrize("action", [-1, 10, 99, 1.5, "2", None])
def test_learner_action_outside_the_space_is_an_error(action: object) -> None:
    env = TeenPattiEnv(rules="classic", learner_seat=0)
    env.reset(seed=1)
    with pytest.raises(ValueError):
        env.step(action)


def test_step_accepts_numpy_integers() -> None:
    env = TeenPattiEnv(rules="classic", learner_seat=0)
    env.reset(seed=1)
    mask = env.action_masks()
    env.step(np.int64(np.flatnonzero(mask)[0]))


# --------------------------------------------------------------------- rewards


@pytest.mark.parametrize("preset", ["classic", "pagat", "flash", "tabletop"])
def test_hand_episode_reward_is_the_learners_net(preset: str) -> None:
    env = TeenPattiEnv(rules=preset, num_players=5, learner_seat="rotate")
    rng = np.random.default_rng(8)
    for seed in range(25):
        rewards, infos = play_episode(env, rng, seed=seed)
        hand = env.game.hand
        assert hand.over
        boot = env.game.rules.boot
        assert all(r == 0.0 for r in rewards[:-1])
        assert rewards[-1] == pytest.approx(hand.net[env.learner] / boot)
        assert env.view()["result"]["net"] == hand.net
        assert infos[0]["redealt"] >= 0


@pytest.mark.parametrize(("preset", "stacks"), [("classic", [8, 8, 8, 8]), ("flash", None),
                                                ("tabletop", [60, 50, 40])])  # fmt: skip
def test_session_episode_rewards_sum_to_the_learners_stack_change(preset, stacks) -> None:
    n = 4 if stacks is None else len(stacks)
    env = TeenPattiEnv(rules=preset, num_players=n, episode="session", stacks=stacks)
    rng = np.random.default_rng(12)
    for seed in range(6):
        rewards, infos = play_episode(env, rng, seed=seed)
        session = env.game.session
        start = stacks or [env.game.rules.starting_stack] * n
        learner = env.learner
        expected = (session.stacks[learner] - start[learner]) / env.game.rules.boot
        assert sum(rewards) == pytest.approx(expected)
        assert infos[0]["redealt"] == 0
        assert session.over or not session.active[learner]


def _pack_policy(observation: np.ndarray, mask: np.ndarray) -> int:
    return 0 if mask[0] else int(np.flatnonzero(mask)[0])


def _bet_min_policy(observation: np.ndarray, mask: np.ndarray) -> int:
    return 2 if mask[2] else int(np.flatnonzero(mask)[-1])


CARDS = [["As", "Kd", "2c"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"], ["2h", "2d", "Js"]]


def test_learner_wins_the_pot_when_scripted_opponents_pack() -> None:
    env = TeenPattiEnv(rules="classic", num_players=4, learner_seat=0, opponents=_pack_policy)
    env.reset(options={"cards": CARDS, "dealer": 3})
    assert env.game.hand.to_act == 0
    _, reward, done, _, _ = env.step(index_of(env, "bet_min"))
    assert done
    assert env.game.hand.net == [3, -1, -1, -1]
    assert reward == 3.0
    assert env.view()["result"]["end"] == "last_player"


def test_learner_gets_only_its_own_loss() -> None:
    """The learner packs after one blind bet; the opponents play on among themselves.
    Its reward is its own -2 boots whatever the others win or lose."""
    env = TeenPattiEnv(rules="flash", num_players=4, learner_seat=2, opponents=_bet_min_policy)
    env.reset(options={"cards": CARDS, "dealer": 0})
    hand = env.game.hand
    assert hand.contributions == [2, 4, 2, 2]  # seat 1 bet blind before the learner
    _, reward, done, _, _ = env.step(index_of(env, "bet_min"))
    assert not done and reward == 0.0
    _, reward, done, _, _ = env.step(index_of(env, "pack"))
    assert done and hand.over
    assert hand.net[2] == -4
    assert reward == -4 / 2
    assert sorted(hand.net) != [hand.net[2]] * 4  # the others' results differ from ours
    assert env.view()["seats"][2]["packed"] is True


def test_redealt_hands_are_counted_and_not_rewarded() -> None:
    """Opponents that always pack end many hands before the learner decides; those
    hands are dealt again and their chips are reported in info, not as reward."""
    env = TeenPattiEnv(rules="classic", num_players=3, learner_seat=0, opponents=_pack_policy)
    total = 0
    for seed in range(30):
        _, info = env.reset(seed=seed)
        assert env.action_masks().any() and env.game.hand.to_act == 0
        assert info["redealt_reward"] == pytest.approx(2.0 * info["redealt"])
        total += info["redealt"]
        _, reward, done, _, _ = env.step(index_of(env, "bet_min"))
        assert done and reward == 2.0  # 1 boot from each of the two who packed
    assert total > 0


def test_fixed_cards_that_end_before_the_learner_decides_raise() -> None:
    env = TeenPattiEnv(rules="classic", num_players=3, learner_seat=0, opponents=_pack_policy)
    with pytest.raises(ValueError, match="first decision"):
        env.reset(options={"cards": CARDS[:3], "dealer": 0})


# --------------------------------------------------------------------- learner seat


def test_learner_seat_rotates() -> None:
    env = TeenPattiEnv(rules="classic", num_players=4, learner_seat="rotate")
    seats = []
    for episode in range(9):
        obs, _ = env.reset(seed=0 if episode == 0 else None)
        seats.append(env.learner)
        assert env.learner_agent == f"player_{env.learner}"
        view = env.view()
        assert view["seat"] == env.learner and view["agent"] == env.learner_agent
        np.testing.assert_array_equal(obs, env.game.observe(env.learner_agent)["observation"])
    assert seats == [0, 1, 2, 3, 0, 1, 2, 3, 0]
    # A seeded reset restarts the rotation (so that the same seed gives the same episode).
    env.reset(seed=5)
    assert env.learner == 0
    env.reset()
    assert env.learner == 1


def test_learner_seat_fixed_and_random() -> None:
    fixed = TeenPattiEnv(rules="classic", num_players=5, learner_seat=3)
    assert {(fixed.reset(seed=s), fixed.learner)[1] for s in range(5)} == {3}
    drawn = TeenPattiEnv(rules="classic", num_players=5, learner_seat="random")
    seats = {(drawn.reset(seed=s), drawn.learner)[1] for s in range(40)}
    assert seats <= set(range(5)) and len(seats) > 1


@pytest.mark.parametrize("seat", ["first", 4, -1, 1.0, True, None])
def test_bad_learner_seat_raises(seat: object) -> None:
    with pytest.raises(ValueError):
        TeenPattiEnv(rules="classic", num_players=4, learner_seat=seat)


# --------------------------------------------------------------------- opponents


class RecordingAgent:
    """An agent object: act(observation, mask, info) -> index; reset() between hands."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.calls: list[tuple[np.ndarray, np.ndarray, dict]] = []
        self.resets = 0

    def act(self, observation: np.ndarray, mask: np.ndarray, info: dict) -> int:
        self.calls.append((observation.copy(), mask.copy(), info))
        return pick(mask, self.rng)

    def reset(self) -> None:
        self.resets += 1


def test_opponents_as_agent_objects_get_their_own_view() -> None:
    agents = [RecordingAgent(s) for s in range(3)]
    env = TeenPattiEnv(rules="flash", num_players=4, learner_seat=1, opponents=agents)
    rng = np.random.default_rng(0)
    for seed in range(20):
        play_episode(env, rng, seed=seed)
    # One policy per other seat, in seat order from the learner's left: seats 2, 3, 0.
    for agent, seat in zip(agents, (2, 3, 0), strict=True):
        assert agent.calls and agent.resets >= 1
        for observation, mask, info in agent.calls:
            assert info["seat"] == seat and info["agent"] == f"player_{seat}"
            assert info["my_turn"] is True
            assert observation.dtype == np.float32
            assert observation.shape == env.observation_space.shape
            assert mask.any()
            assert info["legal_actions"] == [
                env.game.action_meanings[i] for i in np.flatnonzero(mask)
            ]
            for other in info["seats"]:  # it never sees the learner's cards unless shown
                if other["seat"] == 1 and other["cards"] is not None:
                    assert info["phase"] == "over" or env.game.rules.sideshow_reveal == "private"


def test_opponent_callable_is_called_with_observation_and_mask() -> None:
    calls: list[tuple[np.ndarray, np.ndarray]] = []

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        calls.append((observation, mask))
        return _pack_policy(observation, mask)

    env = TeenPattiEnv(rules="classic", num_players=5, learner_seat=4, opponents=policy)
    env.reset(options={"cards": [*CARDS, ["Th", "Tc", "4d"]], "dealer": 0})
    hand = env.game.hand
    # Seats 1, 2 and 3 act before the learner (seat 4) and all pack.
    assert len(calls) == 3
    assert hand.packed == [False, True, True, True, False]
    assert all(mask.dtype == np.int8 and mask[0] == 1 for _, mask in calls)
    _, reward, done, _, _ = env.step(index_of(env, "bet_min"))
    # Seat 0 packs too: the learner takes the boots of four seats.
    assert done and reward == 4.0 and len(calls) == 4


def test_mixed_opponent_list_and_bad_opponents() -> None:
    env = TeenPattiEnv(
        rules="classic", num_players=4, learner_seat=0,
        opponents=[_pack_policy, RecordingAgent(1), None],
    )  # fmt: skip
    env.reset(seed=0)
    with pytest.raises(ValueError):
        TeenPattiEnv(rules="classic", num_players=4, opponents=[_pack_policy, _pack_policy])
    with pytest.raises(ValueError):
        TeenPattiEnv(rules="classic", num_players=4, opponents=[1, 2, 3])


# --------------------------------------------------------------------- render, options


def test_render_ansi_and_human(capsys: pytest.CaptureFixture[str]) -> None:
    env = TeenPattiEnv(rules="classic", render_mode="ansi", learner_seat=2)
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "player_2" in text and f"pot {env.game.hand.pot}" in text
    env = TeenPattiEnv(rules="classic", render_mode="human", learner_seat=2)
    env.reset(seed=0)
    capsys.readouterr()
    env.step(pick(env.action_masks(), np.random.default_rng(0)))
    assert "player_2" in capsys.readouterr().out


def test_reset_options_fix_the_deal() -> None:
    env = TeenPattiEnv(rules="classic", num_players=4, learner_seat=3)
    env.reset(options={"cards": CARDS, "dealer": 1, "stacks": [40, 50, 60, 70]})
    hand = env.game.hand
    assert hand.cards == [tuple(parse_cards(c)) for c in CARDS]
    assert hand.dealer == 1
    assert [s + c for s, c in zip(hand.stacks, hand.contributions, strict=True)] == [40, 50, 60, 70]
    assert env.view()["cards"] is None  # the learner has not looked
    with pytest.raises(ValueError):
        env.reset(options={"dealer": 7})
