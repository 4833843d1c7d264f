"""The PettingZoo AEC environment (``teenpatti_env.env`` / ``raw_env``): PettingZoo's own
API and seed tests; that a seat's observation and info view hold nothing it may not know
(twin tables that differ only in cards it cannot see); that the action mask is exactly
the engine's legal actions."""

from __future__ import annotations

import functools
import json
import warnings

import numpy as np
import pytest
from builders.env import PRESETS, jsonable, live, random_deal, same_view
from builders.env_tables import API_CONFIGS, EPISODES, _random_stacks, slot
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

import teenpatti_env
from teenpatti_env import Rules, env, raw_env
from teenpatti_env.cards import parse_cards

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
