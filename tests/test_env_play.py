"""Play through the AEC environment: rewards (net chips in boots, zero-sum, per hand and
per session); 10,000 random hands per preset; illegal and out-of-range actions; rendering;
reset options; and the golden hand histories replayed through the action table."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from builders.env import PRESETS, golden_cases, jsonable, live, pick
from builders.env_tables import EPISODES, _random_stacks

from teenpatti_env import IllegalActionError, env, raw_env
from teenpatti_env.cards import parse_cards

# --------------------------------------------------------------------- 5. rewards


@pytest.mark.parametrize("preset", PRESETS)
def test_hand_rewards_are_each_seats_net_and_sum_to_zero(preset: str) -> None:
    rng = np.random.default_rng(5)
    tables = {}  # one env per player count, reset for every hand
    for episode_number in range(40):
        n = int(rng.integers(3, 8))
        if n not in tables:
            tables[n] = env(rules=preset, num_players=n)
            tables[n].reset(seed=n)
        e = tables[n]
        raw = e.unwrapped
        stacks = _random_stacks(raw.rules, rng)
        e.reset(seed=episode_number, options={"stacks": stacks})
        dealt = [a for a in raw.possible_agents if raw.hand.dealt_in[raw.agent_name_mapping[a]]]
        assert e.agents == dealt
        final: dict[str, float] = {}
        total = dict.fromkeys(dealt, 0.0)
        for agent in e.agent_iter():
            _, reward, terminated, truncated, _ = e.last()
            total[agent] += reward
            assert not truncated
            if terminated:
                final[agent] = reward
                e.step(None)
            else:
                assert reward == 0.0
                e.step(pick(info_mask(e, agent), rng))
        hand = raw.hand
        assert hand.over
        expected = {a: hand.net[raw.agent_name_mapping[a]] / raw.rules.boot for a in dealt}
        assert final == pytest.approx(expected)
        assert total == pytest.approx(expected)
        assert sum(final.values()) == pytest.approx(0.0)


def info_mask(e, agent: str) -> np.ndarray:
    return e.observe(agent)["action_mask"]


@pytest.mark.parametrize(
    ("preset", "kwargs"),
    [
        ("classic", {"stacks": [6, 6, 6, 6]}),
        ("flash", {}),
        ("tabletop", {"stacks": [60, 40, 80, 50, 200]}),
        ("pagat", {"stacks": [4, 9, 3, 12, 5, 6]}),
    ],
)
def test_session_rewards_add_up_to_the_change_in_stack(preset: str, kwargs: dict) -> None:
    rng = np.random.default_rng(11)
    for seed in range(4):
        n = len(kwargs.get("stacks", [0] * 4))
        raw = raw_env(rules=preset, num_players=n, episode="session", **kwargs)
        raw.reset(seed=seed)
        session = raw.session
        boot = raw.rules.boot
        start = session.stacks
        agents = list(raw.agents)
        total = dict.fromkeys(agents, 0.0)
        finished = 0
        left: list[str] = []
        while raw.agents:
            agent = raw.agent_selection
            total[agent] += raw._cumulative_rewards[agent]  # what last() reports
            if not live(raw, agent):
                if not session.over:
                    left.append(agent)
                    assert not session.active[raw.agent_name_mapping[agent]]
                raw.step(None)
                continue
            raw.step(pick(raw.action_mask(agent), rng))
            history = session.history
            if len(history) > finished:
                new = history[finished:]
                finished = len(history)
                for other, reward in raw.rewards.items():
                    seat = raw.agent_name_mapping[other]
                    assert reward == pytest.approx(sum(h["net"][seat] for h in new) / boot)
            else:
                assert all(reward == 0.0 for reward in raw.rewards.values())
        assert session.over
        stacks = session.stacks
        assert sum(stacks) == sum(start)
        for agent in agents:
            seat = raw.agent_name_mapping[agent]
            assert total[agent] == pytest.approx((stacks[seat] - start[seat]) / boot), agent
        for agent in left:
            assert stacks[raw.agent_name_mapping[agent]] < raw.rules.entry_chips
        if preset == "flash":
            assert session.hands_played <= 5


def test_session_seat_that_leaves_is_terminated_while_others_play_on() -> None:
    raw = raw_env(rules="classic", num_players=3, episode="session", stacks=[1, 50, 50])
    # Seat 0 posts its only chip (all-in); give it the worst hand so that it loses.
    raw.reset(options={"dealer": 2, "cards": [["2s", "3h", "5d"], ["As", "Ah", "Ad"],
                                              ["Ks", "Kh", "Kd"]]})  # fmt: skip
    hand = raw.hand
    assert hand.all_in[0]
    index = raw.layout.index
    assert raw.agent_selection == "player_1"
    raw.step(index("pack"))  # seat 1 packs; seats 0 (all-in) and 2 left: showdown
    assert hand.over and hand.net[0] == -1
    assert raw.terminations["player_0"] is True
    assert raw.terminations["player_1"] is False and raw.terminations["player_2"] is False
    assert raw.agent_selection == "player_0", "the dead agent steps first"
    assert raw._cumulative_rewards["player_0"] == -1.0
    raw.step(None)
    assert "player_0" not in raw.agents
    assert raw.session.active == [False, True, True]
    assert raw.hand is not hand and not raw.hand.dealt_in[0]


# --------------------------------------------------------------------- 6. random play


@pytest.mark.parametrize("preset", PRESETS)
def test_ten_thousand_random_hands(preset: str) -> None:
    e = env(rules=preset)
    raw = e.unwrapped
    rng = np.random.default_rng(2024)
    integers = rng.integers
    steps = 0
    e.reset(seed=0)
    for _ in range(10_000):
        while raw.agents:
            agent = raw.agent_selection
            if raw.terminations[agent] or raw.truncations[agent]:
                e.step(None)
                continue
            legal = np.flatnonzero(raw.action_mask(agent))
            e.step(int(legal[integers(legal.size)]))
            steps += 1
        hand = raw.hand
        assert hand.over, "an episode ended before its hand did (an illegal move?)"
        assert sum(hand.net) == 0
        e.reset()
    assert steps > 50_000


def test_hand_that_ends_at_the_deal_in_hand_mode() -> None:
    """Seats 0 and 1 post their only chip and are all-in: showdown before anyone acts.
    The episode is over at reset: every agent is terminated and gets its net."""
    raw = raw_env(rules="classic", num_players=3)  # a fresh env: reset() is its first call
    cards = [["As", "Ah", "Ad"], ["2s", "3h", "5d"], ["Ks", "Kh", "Kd"]]
    raw.reset(seed=0, options={"stacks": [1, 1, 100], "cards": cards, "dealer": 0})
    hand = raw.hand
    assert hand.over and hand.end == "showdown" and hand.net == [2, -1, -1]
    assert raw.agents == raw.possible_agents
    assert all(raw.terminations.values())
    assert raw.agent_selection in raw.agents
    assert raw._cumulative_rewards == {"player_0": 2.0, "player_1": -1.0, "player_2": -1.0}
    while raw.agents:
        raw.step(None)


def test_hand_that_ends_at_the_deal_in_session_mode() -> None:
    raw = raw_env(rules="classic", num_players=3, episode="session")
    cards = [["As", "Ah", "Ad"], ["2s", "3h", "5d"], ["Ks", "Kh", "Kd"]]
    raw.reset(seed=0, options={"stacks": [1, 1, 100], "cards": cards, "dealer": 0})
    # Seat 0 won 3 chips, seat 1 is broke and leaves; the next hand is dealt at once.
    assert raw.session.hands_played == 1
    assert raw.session.active == [True, False, True]
    assert raw.terminations == {"player_0": False, "player_1": True, "player_2": False}
    assert raw.agent_selection == "player_1"
    assert raw._cumulative_rewards == {"player_0": 2.0, "player_1": -1.0, "player_2": -1.0}
    raw.step(None)
    assert raw.agents == ["player_0", "player_2"]
    assert not raw.hand.over and raw.agent_selection == f"player_{raw.hand.to_act}"


# --------------------------------------------------------------------- 7. illegal actions


def test_raw_env_illegal_action_raises_naming_agent_and_action() -> None:
    raw = raw_env(rules="classic")
    raw.reset(seed=1)
    agent = raw.agent_selection
    before = raw.hand.to_dict()
    accept = raw.layout.index("accept")
    with pytest.raises(IllegalActionError) as caught:
        raw.step(accept)
    message = str(caught.value)
    assert agent in message and ("accept" in message or str(accept) in message)
    assert "sideshow" in message  # the reason: no sideshow is pending
    assert isinstance(caught.value, ValueError)
    assert raw.hand.to_dict() == before and raw.agent_selection == agent
    raw.step(raw.layout.index("pack"))  # still usable


@pytest.mark.parametrize("action", [99, 10, -1, 1.5, "2", None])
def test_raw_env_out_of_range_action_is_an_illegal_action_error(action: object) -> None:
    raw = raw_env(rules="classic")
    raw.reset(seed=1)
    agent = raw.agent_selection
    before = raw.hand.to_dict()
    with pytest.raises(IllegalActionError) as caught:
        raw.step(action)
    message = str(caught.value)
    assert agent in message and repr(action) in message
    if action == -1:
        assert "all_in" not in message, "index -1 is not the all_in action"
    assert raw.hand.to_dict() == before


@pytest.mark.parametrize("illegal_reward", [-1.0, -3.0])
def test_wrapped_env_illegal_action_ends_the_episode(illegal_reward: float) -> None:
    kwargs = {} if illegal_reward == -1.0 else {"illegal_reward": illegal_reward}
    e = env(rules="flash", num_players=5, **kwargs)
    e.reset(seed=4)
    raw = e.unwrapped
    mover = e.agent_selection
    before = raw.hand.to_dict()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns about the illegal move
        e.step(raw.layout.index("refuse"))
    assert raw.hand.to_dict() == before, "the illegal action is not applied"
    assert all(e.terminations[a] for a in e.agents)
    assert e.rewards == {a: (illegal_reward if a == mover else 0.0) for a in e.agents}
    got = {}
    for agent in e.agent_iter():
        _, reward, terminated, _, _ = e.last()
        assert terminated
        got[agent] = reward
        e.step(None)
    assert got == {a: (illegal_reward if a == mover else 0.0) for a in raw.possible_agents}
    e.reset(seed=5)  # usable again
    assert e.agents == raw.possible_agents


@pytest.mark.parametrize("action", [10, 99, -1])
def test_wrapped_env_rejects_out_of_range_actions(action: int) -> None:
    e = env(rules="classic")
    e.reset(seed=0)
    with pytest.raises(AssertionError):
        e.step(action)


def test_wrapped_env_enforces_call_order() -> None:
    e = env()
    with pytest.raises(Exception):  # noqa: B017 (OrderEnforcingWrapper's own error)
        e.step(0)
    with pytest.raises(Exception):  # noqa: B017
        e.observe("player_0")


def pettingzoo_wrapped(**kwargs: object) -> object:
    """``raw_env`` in PettingZoo's own, unmodified classic-game wrappers."""
    from pettingzoo.utils import wrappers

    wrapped = wrappers.TerminateIllegalWrapper(raw_env(**kwargs), illegal_reward=-1.0)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(wrapped))


@pytest.mark.parametrize(("preset", "episode"), [("classic", "hand"), ("flash", "session"),
                                                 ("pagat", "hand")])
def test_env_plays_exactly_as_pettingzoos_own_wrappers(preset: str, episode: str) -> None:
    """env()'s wrappers take short cuts through PettingZoo's: random play with illegal
    moves now and then gives the same observations, rewards, ends and turns."""
    ours, theirs = env(rules=preset, episode=episode), pettingzoo_wrapped(
        rules=preset, episode=episode)
    rng = np.random.default_rng(11)
    illegal = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns about each illegal move
        for game in range(40):
            ours.reset(seed=game)
            theirs.reset(seed=game)
            for agent, other in zip(ours.agent_iter(), theirs.agent_iter(), strict=True):
                assert agent == other
                mine, yours = ours.last(), theirs.last()
                for key in ("observation", "action_mask"):
                    assert np.array_equal(mine[0][key], yours[0][key])
                assert mine[1:] == yours[1:]
                assert ours.rewards == theirs.rewards
                if mine[2] or mine[3]:
                    action = None
                elif rng.random() < 0.03 and not mine[0]["action_mask"].all():
                    action = int(rng.choice(np.flatnonzero(mine[0]["action_mask"] == 0)))
                    illegal += 1
                else:
                    action = int(rng.choice(np.flatnonzero(mine[0]["action_mask"])))
                ours.step(action)
                theirs.step(action)
            assert ours.agents == theirs.agents == []
    assert illegal > 5


def test_dead_agent_must_step_none() -> None:
    raw = raw_env(rules="classic", num_players=3)
    raw.reset(options={"dealer": 2, "cards": [["2s", "3h", "5d"], ["As", "Ah", "Ad"],
                                              ["Ks", "Kh", "Kd"]]})  # fmt: skip
    raw.step(raw.layout.index("pack"))
    raw.step(raw.layout.index("pack"))
    assert raw.hand.over and all(raw.terminations.values())
    with pytest.raises(ValueError):
        raw.step(0)


# --------------------------------------------------------------------- 8. render


def test_render_ansi_returns_the_table() -> None:
    raw = raw_env(rules="tabletop", num_players=5, render_mode="ansi")
    raw.reset(seed=2)
    text = raw.render()
    assert isinstance(text, str)
    assert f"pot {raw.hand.pot}" in text
    for agent in raw.possible_agents:
        assert agent in text
    raw.step(raw.layout.index("bet_min"))
    text = raw.render()
    assert f"pot {raw.hand.pot}" in text
    for seat in range(5):  # nobody's cards are drawn while the hand runs
        for card in raw.hand.card_texts(seat):
            assert card not in text.split()


def test_render_human_prints(capsys: pytest.CaptureFixture[str]) -> None:
    raw = raw_env(rules="classic", render_mode="human")
    raw.reset(seed=2)
    printed = capsys.readouterr().out
    assert "player_0" in printed and f"pot {raw.hand.pot}" in printed
    assert raw.render() is None
    printed = capsys.readouterr().out
    assert all(agent in printed for agent in raw.possible_agents)
    raw.step(raw.layout.index("pack"))
    assert "packs" in capsys.readouterr().out


def test_render_without_mode_warns() -> None:
    raw = raw_env()
    raw.reset(seed=0)
    with pytest.warns(UserWarning):
        assert raw.render() is None


# --------------------------------------------------------------------- 9. reset options


@pytest.mark.parametrize("episode", EPISODES)
def test_reset_options_fix_the_deal(episode: str) -> None:
    raw = raw_env(rules="classic", num_players=4, episode=episode)
    cards = [["As", "Kd", "2c"], None, ["7c", "8c", "9c"], ["2h", "2d", "Js"]]
    raw.reset(seed=0, options={"cards": cards, "dealer": 2, "stacks": [50, 0, 30, 100]})
    hand = raw.hand
    assert hand.cards == [tuple(parse_cards(c)) if c else None for c in cards]
    assert hand.dealer == 2
    assert hand.stacks == [49, 0, 29, 99]
    assert hand.dealt_in == [True, False, True, True]
    assert raw.agents == ["player_0", "player_2", "player_3"]
    assert raw.agent_selection == "player_3" and hand.to_act == 3
    assert raw.view("player_0")["dealer"] == 2
    if episode == "session":
        assert raw.session.stacks == [50, 0, 30, 100]
        assert raw.session.active == [True, False, True, True]


def test_reset_seed_is_deterministic_and_constructor_stacks_apply() -> None:
    raw = raw_env(rules="flash", num_players=5, stacks=[20, 30, 40, 50, 60])
    raw.reset(seed=9)
    first = raw.hand.to_dict()
    raw.reset()
    second = raw.hand.to_dict()
    raw.reset(seed=9)
    assert raw.hand.to_dict() == first
    assert second != first
    chips = [c + s for c, s in zip(raw.hand.contributions, raw.hand.stacks, strict=True)]
    assert chips == [20, 30, 40, 50, 60]


BAD_OPTIONS = [
    {"dealer": 9},
    {"dealer": -1},
    {"dealer": "0"},
    {"stacks": [10, 10, 10]},
    {"stacks": [10, -1, 10, 10]},
    {"stacks": [10, 0, 0, 0]},
    {"stacks": "100"},
    {"cards": [["As", "Kd", "2c"], ["As", "Qs", "3d"], ["7c", "8c", "9c"], ["2h", "2d", "Js"]]},
    {"cards": [["As", "Kd"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"], ["2h", "2d", "Js"]]},
    {"cards": [["Xx", "Kd", "2c"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"], ["2h", "2d", "Js"]]},
    {"cards": [["As", "Kd", "2c"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"]]},
    {"cards": [["As", "Kd", "2c"], None, ["7c", "8c", "9c"], ["2h", "2d", "Js"]]},
]


@pytest.mark.parametrize("episode", EPISODES)
@pytest.mark.parametrize("options", BAD_OPTIONS, ids=[str(i) for i in range(len(BAD_OPTIONS))])
def test_bad_reset_options_raise_and_leave_the_env_usable(options: dict, episode: str) -> None:
    raw = raw_env(rules="classic", num_players=4, episode=episode)
    with pytest.raises(ValueError):
        raw.reset(options=options)
    raw.reset(seed=1)
    hand, selected, agents = raw.hand, raw.agent_selection, list(raw.agents)
    snapshot, pot = hand.to_dict(), hand.pot
    with pytest.raises(ValueError):
        raw.reset(seed=2, options=options)
    assert raw.hand is hand and hand.to_dict() == snapshot
    assert raw.agent_selection == selected and raw.agents == agents
    raw.step(raw.layout.index("bet_min"))
    assert raw.hand.pot == pot + raw.rules.boot


def test_unknown_reset_option_warns() -> None:
    raw = raw_env()
    with pytest.warns(UserWarning, match="colour"):
        raw.reset(seed=0, options={"colour": "red"})
    assert raw.hand is not None


@pytest.mark.parametrize("bet_levels", [None, 64])
@pytest.mark.parametrize(("name", "case"), golden_cases(), ids=[n for n, _ in golden_cases()])
def test_golden_history_replays_through_the_env(name: str, case: dict, bet_levels) -> None:
    history = case["history"]
    spec = dict(history["rules"])
    preset = spec.pop("preset")
    raw = raw_env(rules=preset, num_players=len(history["cards"]), bet_levels=bet_levels, **spec)
    raw.reset(options={k: history[k] for k in ("cards", "dealer", "stacks") if k in history})
    for number, action in enumerate(history["actions"]):
        agent = f"player_{action['seat']}"
        if raw.agent_selection != agent:
            pytest.skip(f"action {number} is taken off turn, which the AEC env cannot express")
        index = raw.layout.encode(raw.hand, action)
        decoded = raw.action_to_engine(agent, index)
        if decoded != action:
            assert bet_levels is None, f"{bet_levels} levels cannot express {action}"
            pytest.skip(f"action {number} ({action}) is not representable: nearest {decoded}")
        assert raw.action_mask(agent)[index] == 1
        raw.step(index)
    result = jsonable(raw.hand.result())
    for key, expected in case["expected"].items():
        assert result[key] == expected, key
    if raw.hand.over:
        boot = raw.rules.boot
        for agent in raw.agents:
            seat = raw.agent_name_mapping[agent]
            assert raw._cumulative_rewards[agent] == raw.hand.net[seat] / boot
            assert raw.terminations[agent]
