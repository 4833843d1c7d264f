"""The PettingZoo AEC environment (``teenpatti_env.env`` / ``raw_env``).

What is checked here: PettingZoo's own API and seed tests; that a seat's observation and
info view hold nothing it may not know (twin tables that differ only in cards it cannot
see); that the action mask is exactly the engine's legal actions; rewards (net chips in
boots, zero-sum, per hand and per session); 10,000 random hands per preset; illegal and
out-of-range actions; rendering; reset options; and the golden hand histories replayed
through the action table.
"""

from __future__ import annotations

import functools
import json
import warnings

import numpy as np
import pytest
from builders.env import PRESETS, golden_cases, jsonable, live, pick, random_deal, same_view
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

import teenpatti_env
from teenpatti_env import IllegalActionError, Rules, env, raw_env
from teenpatti_env.cards import parse_cards

API_CONFIGS = [("classic", 4), ("flash", 3), ("pagat", 7), ("tabletop", 5)]
EPISODES = ("hand", "session")


def slot_map(raw: raw_env) -> dict[str, tuple[int, int]]:
    return {name: (offset, width) for name, offset, width, _ in raw.obs_layout.slots}


def slot(raw: raw_env, vector: np.ndarray, name: str) -> np.ndarray:
    offset, width = slot_map(raw)[name]
    return vector[offset : offset + width]


# --------------------------------------------------------------------- 1. PettingZoo API


@pytest.mark.parametrize("episode", EPISODES)
@pytest.mark.parametrize(("preset", "n"), API_CONFIGS, ids=[f"{p}-{n}" for p, n in API_CONFIGS])
def test_pettingzoo_api_test(preset: str, n: int, episode: str) -> None:
    with warnings.catch_warnings():
        # api_test resets with options={"options": 1}; the env warns that it ignores it.
        warnings.filterwarnings("ignore", message="reset\\(\\) ignores unknown options")
        api_test(env(rules=preset, num_players=n, episode=episode), num_cycles=200)


@pytest.mark.parametrize("episode", EPISODES)
@pytest.mark.parametrize(("preset", "n"), API_CONFIGS, ids=[f"{p}-{n}" for p, n in API_CONFIGS])
def test_pettingzoo_seed_test(preset: str, n: int, episode: str) -> None:
    seed_test(functools.partial(env, rules=preset, num_players=n, episode=episode), num_cycles=200)


@pytest.mark.parametrize("episode", EPISODES)
def test_pettingzoo_api_test_on_raw_env(episode: str) -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="reset\\(\\) ignores unknown options")
        api_test(raw_env(rules="classic", num_players=4, episode=episode), num_cycles=200)
        api_test(raw_env(rules="flash", num_players=6, episode=episode), num_cycles=200)


def test_spaces_agents_and_layout() -> None:
    raw = raw_env(rules="pagat", num_players=5, bet_levels=4)
    assert raw.possible_agents == [f"player_{i}" for i in range(5)]
    assert raw.agent_name_mapping == {f"player_{i}": i for i in range(5)}
    assert raw.action_meanings == raw.layout.names
    assert raw.action_meanings[:4] == ("pack", "look", "bet_min", "bet_max")
    assert raw.action_meanings[-5:] == ("show", "sideshow", "accept", "refuse", "all_in")
    assert len(raw.layout.bet_indices) == 4
    for agent in raw.possible_agents:
        assert raw.action_space(agent) is raw.action_space(agent)
        assert raw.action_space(agent).n == raw.layout.size == len(raw.action_meanings)
        space = raw.observation_space(agent)
        assert space["observation"].shape == (raw.obs_layout.size,)
        assert space["observation"].dtype == np.float32
        assert space["action_mask"].shape == (raw.layout.size,)
    # The slots tile the vector exactly, in order, and every seat block is present.
    at = 0
    for _, offset, width, _ in sorted(raw.obs_layout.slots, key=lambda item: item[1]):
        assert offset == at and width >= 1
        at += width
    assert at == raw.obs_layout.size
    names = {name for name, *_ in raw.obs_layout.slots}
    for k in range(5):
        assert {f"seat{k}.stack", f"seat{k}.cards", f"seat{k}.to_act"} <= names


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num_players": 2},
        {"num_players": 8},
        {"episode": "x"},
        {"render_mode": "rgb_array"},
        {"bet_levels": 1},
        {"bet_levels": 2.5},
        {"stacks": [1, 2]},
        {"boot": 0},
        {"rules": "nope"},
        {"no_such_setting": 1},
    ],
)
def test_bad_constructor_arguments_raise_value_error(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        raw_env(**kwargs)


def test_seat_blocks_are_relative_to_the_observer() -> None:
    raw = raw_env(rules="classic", num_players=5)
    raw.reset(options={"dealer": 3, "stacks": [10, 20, 30, 40, 50]})
    hand = raw.hand
    for agent in raw.agents:
        seat = raw.agent_name_mapping[agent]
        vector = raw.observe(agent)["observation"]
        for k in range(5):
            other = (seat + k) % 5
            assert slot(raw, vector, f"seat{k}.stack")[0] == hand.stacks[other]
            assert slot(raw, vector, f"seat{k}.is_dealer")[0] == float(other == 3)
            assert slot(raw, vector, f"seat{k}.to_act")[0] == float(other == hand.to_act)
        assert slot(raw, vector, "my_turn")[0] == float(seat == hand.to_act)
        previous = hand.previous_player(seat)
        flags = [slot(raw, vector, f"seat{k}.is_previous")[0] for k in range(5)]
        assert flags.index(1.0) == (previous - seat) % 5
        info = raw.view(agent)
        assert info["agent"] == agent and info["seat"] == seat
        assert info["previous_player"] == previous
        assert [s["stack"] for s in info["seats"]] == hand.stacks


# --------------------------------------------------------------------- 3. no leaks


def _revealed_to(hand, seat: int) -> bool:
    """Whether ``seat`` has been shown any other seat's cards (show, showdown, sideshow)."""
    return any(e["type"] in ("reveal", "sideshow_reveal") for e in hand.events_for(seat))


def _biased_pick(raw: raw_env, mask: np.ndarray, rng: np.random.Generator) -> int:
    """Random legal action, packing rarely so that hands last and sideshows happen."""
    legal = np.flatnonzero(mask)
    weights = np.where(legal == 0, 0.1, 1.0)
    weights[legal == raw.layout.index("sideshow")] = 3.0
    return int(rng.choice(legal, p=weights / weights.sum()))




@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    preset=st.sampled_from(PRESETS),
    n=st.integers(3, 7),
    episode=st.sampled_from(EPISODES),
    own_cards_differ=st.booleans(),
)
def test_a_seat_sees_nothing_of_cards_it_may_not_know(
    seed: int, preset: str, n: int, episode: str, own_cards_differ: bool
) -> None:
    """Two tables with the same public play but different hidden cards look the same to
    seat ``s`` until a show, showdown or sideshow reveal tells it something.

    With ``own_cards_differ`` even ``s``'s own cards differ: then its view must not
    change until it looks.
    """
    rng = np.random.default_rng(seed)
    rules = Rules.preset(preset, num_players=n)
    s = int(rng.integers(n))
    me = f"player_{s}"
    deal_a = random_deal(rules, rng)
    deal_b = random_deal(rules, rng, fixed=None if own_cards_differ else {s: deal_a[s]})
    boot = rules.boot
    stacks = [int(rng.choice([boot * 3, boot * 8, rules.starting_stack])) for _ in range(n)]
    dealer = int(rng.integers(n))
    a = raw_env(rules=rules, episode=episode)
    b = raw_env(rules=rules, episode=episode)
    a.reset(seed=seed, options={"cards": deal_a, "dealer": dealer, "stacks": stacks})
    b.reset(seed=seed + 1, options={"cards": deal_b, "dealer": dealer, "stacks": stacks})
    first_a, first_b = a.hand, b.hand
    for step in range(200):
        if _revealed_to(first_a, s) or _revealed_to(first_b, s):
            break
        if own_cards_differ and first_a.seen[s]:
            break
        same_view(a, b, me, f"step {step}")
        if first_a.over or a.hand is not first_a or not a.agents:
            break
        agent = a.agent_selection
        assert agent == b.agent_selection
        if not live(a, agent):
            break
        mask = a.action_mask(agent)
        np.testing.assert_array_equal(mask, b.action_mask(agent))
        action = _biased_pick(a, mask, rng)
        a.step(action)
        b.step(action)
        if first_a.packed != first_b.packed:
            break  # an accepted sideshow packed different seats: public play diverges
        if a.hand is not first_a:
            break  # session mode dealt the next hand
        last = first_a.public_events()[-1]
        third = last["type"] == "sideshow_result" and s not in (last["asker"], last["target"])
        if third and last["accepted"]:
            event("a third seat's view compared after an accepted sideshow")
    event(f"compared {'<5' if step < 5 else '<15' if step < 15 else '15+'} steps")


SIDESHOW_DEAL = [["As", "Kd", "2c"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"], ["2h", "2d", "Js"]]
# Seats 1 and 2 hold other cards, and seat 1 still loses the sideshow.
SIDESHOW_TWIN = [["As", "Kd", "2c"], ["Kh", "Ks", "5d"], ["Ah", "Ac", "4s"], ["2h", "2d", "Js"]]


def _sideshow_table(preset: str, deal: list[list[str]]) -> raw_env:
    """Seat 1 looks and chaals, seat 2 looks and asks seat 1 for a sideshow; seat 1 accepts
    and, holding the lower hand, packs."""
    raw = raw_env(rules=preset, num_players=4)
    raw.reset(options={"cards": deal, "dealer": 0, "stacks": [100 * raw.rules.boot] * 4})
    index = raw.layout.index
    assert raw.agent_selection == "player_1"
    raw.step(index("look"))
    assert raw.agent_selection == "player_1", "look keeps the same agent selected"
    raw.step(index("bet_min"))
    assert raw.agent_selection == "player_2"
    raw.step(index("look"))
    assert raw.agent_selection == "player_2"
    assert raw.action_mask("player_2")[index("sideshow")] == 1
    raw.step(index("sideshow"))
    assert raw.agent_selection == "player_1", "the sideshow target answers"
    mask = raw.action_mask("player_1")
    assert np.flatnonzero(mask).tolist() == [index("accept"), index("refuse")]
    info = raw.view("player_1")
    assert info["sideshow"] == {"asker": 2, "target": 1}
    assert info["legal_actions"] == ["accept", "refuse"]
    assert slot(raw, raw.observe("player_1")["observation"], "sideshow_asked")[0] == 1.0
    raw.step(index("accept"))
    assert raw.hand.packed == [False, True, False, False]
    assert raw.agent_selection == "player_3", "play passes to the asker's left"
    return raw


@pytest.mark.parametrize("preset", ["classic", "flash", "tabletop"])
def test_accepted_sideshow_tells_third_seats_only_who_packed(preset: str) -> None:
    a = _sideshow_table(preset, SIDESHOW_DEAL)
    b = _sideshow_table(preset, SIDESHOW_TWIN)
    private = a.rules.sideshow_reveal == "private"
    for third in ("player_0", "player_3"):
        same_view(a, b, third, third)
        seat = a.agent_name_mapping[third]
        vector = a.observe(third)["observation"]
        info = a.view(third)
        for other in (1, 2):
            k = (other - seat) % 4
            assert not slot(a, vector, f"seat{k}.cards").any()
            assert info["seats"][other]["cards"] is None
        assert info["seats"][1]["packed"] is True
        text = json.dumps(info) + json.dumps(a.events(third))
        for card in SIDESHOW_DEAL[1] + SIDESHOW_DEAL[2]:
            assert f'"{card}"' not in text
    # The two sideshow players learn each other's hand only under sideshow_reveal="private".
    for me, other in ((1, 2), (2, 1)):
        info = a.view(f"player_{me}")
        vector = a.observe(f"player_{me}")["observation"]
        k = (other - me) % 4
        one_hot = np.flatnonzero(slot(a, vector, f"seat{k}.cards")).tolist()
        if private:
            assert info["seats"][other]["cards"] == SIDESHOW_DEAL[other]
            assert one_hot == sorted(parse_cards(SIDESHOW_DEAL[other]))
        else:
            assert info["seats"][other]["cards"] is None
            assert one_hot == []


@pytest.mark.parametrize("preset", ["classic", "flash"])
def test_sideshow_loser_is_never_shown_later(preset: str) -> None:
    raw = _sideshow_table(preset, SIDESHOW_DEAL)
    index = raw.layout.index
    raw.step(index("pack"))  # seat 3
    assert raw.agent_selection == "player_0"
    assert raw.action_mask("player_0")[index("show")] == 1  # blind may show a seen player
    raw.step(index("show"))
    hand = raw.hand
    assert hand.over and hand.end == "show"
    assert sorted(hand.shown) == [0, 2]
    for agent in ("player_0", "player_3"):
        info = raw.view(agent)
        assert info["seats"][1]["cards"] is None
        assert info["seats"][0]["cards"] == SIDESHOW_DEAL[0]
        assert info["seats"][2]["cards"] == SIDESHOW_DEAL[2]
        assert [h["seat"] for h in info["result"]["shown"]] == [0, 2]


def test_blind_seat_info_has_no_cards_until_it_looks() -> None:
    raw = raw_env(rules="classic")
    raw.reset(seed=3)
    agent = raw.agent_selection
    seat = raw.agent_name_mapping[agent]
    vector = raw.observe(agent)["observation"]
    info = raw.view(agent)
    assert info["seen"] is False and info["cards"] is None and info["category"] is None
    assert not slot(raw, vector, "seat0.cards").any()
    raw.step(raw.layout.index("look"))
    vector = raw.observe(agent)["observation"]
    info = raw.view(agent)
    mine = raw.hand.card_texts(seat)
    assert info["seen"] is True and info["cards"] == mine
    assert info["category"] == teenpatti_env.hand_category(mine)
    assert np.flatnonzero(slot(raw, vector, "seat0.cards")).tolist() == sorted(parse_cards(mine))
    assert 0.0 <= info["strength"] <= 1.0
    for other in raw.possible_agents:
        if other != agent:
            assert raw.view(other)["seats"][seat]["cards"] is None
            assert raw.view(other)["seats"][seat]["seen"] is True


# --------------------------------------------------------------------- 4. the mask


MASK_CONFIGS = [
    ("classic", {}),
    ("pagat", {}),
    ("flash", {}),
    ("tabletop", {}),
    ("classic", {"pot_cap": 30, "max_bet": 8, "bet_levels": 4}),
    ("classic", {"short_stack": "pack", "boot": 2, "bet_levels": 2}),
    ("classic", {"short_stack": "showdown", "max_blind_bets": 1}),
    ("classic", {"pot_limit_betting": True, "raise_multiple": 3}),
    ("classic", {"max_blind_bets": 0, "sideshow_target": "previous_seen", "bet_levels": 7}),
    ("pagat", {"raise_multiple": 4, "bet_levels": 6, "look_anytime": True}),
    ("flash", {"max_bet": 10, "pot_cap": 60, "bet_levels": 5}),
    ("tabletop", {"boot": 3, "max_bet": 20, "sideshow_requires_all_seen": True}),
]


def _random_stacks(rules: Rules, rng: np.random.Generator) -> list[int]:
    """Short, odd and ordinary stacks; at least two seats can enter."""
    boot = rules.boot
    while True:
        stacks = [
            int(rng.choice([0, boot, boot + 1, 2 * boot + 1, 3 * boot, 5 * boot + 1,
                            12 * boot, 40 * boot, rules.starting_stack]))
            for _ in range(rules.num_players)
        ]  # fmt: skip
        if sum(chips >= rules.entry_chips for chips in stacks) >= 2:
            return stacks


INFO_KEYS = {
    "agent", "seat", "phase", "dealer", "to_act", "my_turn", "pot", "stake", "seen", "cards",
    "category", "strength", "min_bet", "max_bet", "previous_player", "sideshow", "seats",
    "legal", "legal_actions", "hands_played", "hands_remaining", "result",
}  # fmt: skip


def check_mask_exact(raw: raw_env) -> None:
    """The mask of the agent to act is exactly the set of legal engine actions."""
    hand = raw.hand
    agent = raw.agent_selection
    seat = raw.agent_name_mapping[agent]
    mask = raw.action_mask(agent)
    observed = raw.observe(agent)
    np.testing.assert_array_equal(observed["action_mask"], mask)
    assert mask.dtype == np.int8 and mask.shape == (raw.layout.size,)
    decoded = [raw.action_to_engine(agent, i) for i in range(raw.layout.size)]
    for i, action in enumerate(decoded):
        assert action["seat"] == seat
        legal = hand.is_legal(action)
        assert legal == bool(mask[i]), (
            f"index {i} ({raw.action_meanings[i]}) -> {action}: mask {mask[i]}, "
            f"engine says {hand.illegal_reason(action)!r}; {hand.public_events()[-3:]}"
        )
    legal_actions = hand.legal_actions(seat)
    assert {decoded[i]["type"] for i in np.flatnonzero(mask)} == {a["type"] for a in legal_actions}
    by_type = {a["type"]: a for a in legal_actions}
    if "bet" in by_type:
        amounts = [decoded[i]["amount"] for i in raw.layout.bet_indices]
        assert amounts == sorted(amounts)
        assert amounts[0] == by_type["bet"]["min"] and amounts[-1] == by_type["bet"]["max"]
        if hand.seen[seat]:
            assert all(amount % 2 == 0 for amount in amounts)
        boot = raw.rules.boot
        vector = observed["observation"]
        assert slot(raw, vector, "min_bet")[0] == pytest.approx(by_type["bet"]["min"] / boot)
        assert slot(raw, vector, "max_bet")[0] == pytest.approx(by_type["bet"]["max"] / boot)
    if "sideshow" in by_type:
        assert decoded[raw.layout.index("sideshow")]["amount"] == by_type["sideshow"]["min"]
    info = raw.view(agent)
    assert info["my_turn"] is True and info["to_act"] == seat
    assert info["legal"] == jsonable(legal_actions)
    assert info["legal_actions"] == [raw.action_meanings[i] for i in np.flatnonzero(mask)]
    for other in raw.agents:
        assert set(raw.view(other)) >= INFO_KEYS
        assert jsonable(raw.view(other)) == json.loads(json.dumps(raw.view(other)))
        if other != agent:
            assert raw.view(other)["my_turn"] is False
            assert not raw.action_mask(other).any()
            assert not raw.observe(other)["action_mask"].any()
            assert raw.view(other)["legal"] == [] and raw.view(other)["legal_actions"] == []


@pytest.mark.parametrize(
    ("number", "preset", "overrides"), [(i, *config) for i, config in enumerate(MASK_CONFIGS)]
)
def test_mask_is_exactly_the_legal_actions(number: int, preset: str, overrides: dict) -> None:
    overrides = dict(overrides)
    bet_levels = overrides.pop("bet_levels", None)
    rng = np.random.default_rng(1000 + number)
    checked = 0
    types: set[str] = set()
    tables = {}  # one env per player count, reset for every hand
    for hand_number in range(80):
        n = int(rng.integers(3, 8))
        if n not in tables:
            tables[n] = raw_env(rules=preset, num_players=n, bet_levels=bet_levels, **overrides)
            tables[n].reset(seed=n)
        raw = tables[n]
        stacks = _random_stacks(raw.rules, rng)
        raw.reset(seed=hand_number, options={"stacks": stacks})
        while raw.agents:
            agent = raw.agent_selection
            if not live(raw, agent):
                raw.step(None)
                continue
            check_mask_exact(raw)
            checked += 1
            types |= {a["type"] for a in raw.hand.legal_actions()}
            raw.step(_biased_pick(raw, raw.action_mask(agent), rng))
    assert checked > 100
    assert {"pack", "bet"} <= types


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
