"""The batched engine's API: seeding, given deals, autoreset, histories, bad input, the
chip and termination invariants (hypothesis) and the Gymnasium vector environment."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from builders.batched import random_actions, random_rules, random_stacks
from hypothesis import given, settings
from hypothesis import strategies as st

from teenpatti_env import IllegalActionError, replay
from teenpatti_env.environment.batched import TableBatch
from teenpatti_env.environment.vector import TeenPattiVectorEnv
from teenpatti_env.rules import Rules


def _trajectory(batch: TableBatch, seed: int, steps: int = 40) -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    step = batch.reset(seed=seed)
    out = []
    for _ in range(steps):
        out.append(step.observations.copy())
        step = batch.step(random_actions(step, rng))
    return out


# ----------------------------------------------------------------- seeding


def test_same_seed_same_deals_and_trajectory() -> None:
    first = _trajectory(TableBatch(16), seed=7)
    again = _trajectory(TableBatch(16), seed=7)
    other = _trajectory(TableBatch(16), seed=8)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(first, other, strict=True))


def test_tables_draw_from_independent_streams() -> None:
    batch = TableBatch(64)
    batch.reset(seed=1)
    deals = {tuple(map(tuple, batch.hand(t).cards)) for t in range(64)}
    assert len(deals) == 64
    # A table's deal does not depend on how many tables share the batch.
    small = TableBatch(4)
    small.reset(seed=1)
    assert [small.hand(t).cards for t in range(4)] != []  # dealt
    assert len({tuple(map(tuple, small.hand(t).cards)) for t in range(4)}) == 4


def test_no_global_random_state() -> None:
    np.random.seed(0)
    first = _trajectory(TableBatch(8), seed=3, steps=5)
    np.random.seed(12345)
    np.random.random(100)
    again = _trajectory(TableBatch(8), seed=3, steps=5)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))


def test_reset_without_a_seed_goes_on_with_the_streams() -> None:
    batch = TableBatch(8, seed=5)
    batch.reset()
    first = [batch.hand(t).cards for t in range(8)]
    batch.reset()
    assert [batch.hand(t).cards for t in range(8)] != first
    batch.reset(seed=5)
    assert [batch.hand(t).cards for t in range(8)] == first


# ----------------------------------------------------------------- deals and histories


def test_given_deals_are_played_as_given() -> None:
    cards = [[["As", "Ah", "Ad"], ["2c", "3d", "5h"], ["Ks", "Qs", "Js"], None]] * 2
    batch = TableBatch(2, "classic", autoreset=False)
    step = batch.reset(options={"cards": cards, "dealer": [3, 1],
                                "stacks": [[100, 100, 100, 0], [50, 60, 70, 0]]})
    # Dealer 3: the dealer's left (seat 0) acts first; dealer 1: seat 2 does.
    assert step.to_act.tolist() == [0, 2]
    assert batch.hand(0).card_texts(0) == ["As", "Ah", "Ad"]
    assert batch.dealt_in.tolist() == [[True, True, True, False]] * 2
    assert batch.pot.tolist() == [3, 3]
    assert batch.stack_chips[1].tolist() == [49, 59, 69, 0]


def test_deals_given_as_an_array_play_as_the_same_deals_given_as_lists() -> None:
    """Tables dealt alike are checked once; the result is the list path's, and a bad
    deal names the first table that holds it."""
    rng = np.random.default_rng(4)
    deals = np.argsort(rng.random((3, 52)), axis=1)[:, :12].reshape(3, 4, 3)
    cards = deals[[0, 1, 0, 2, 1, 0]]
    dealers = np.array([0, 1, 0, 3, 1, 2])
    as_array = TableBatch(6, "classic", autoreset=False)
    step = as_array.reset(options={"cards": cards, "dealer": dealers})
    as_lists = TableBatch(6, "classic", autoreset=False)
    listed = [[None if seat[0] < 0 else seat.tolist() for seat in table] for table in cards]
    again = as_lists.reset(options={"cards": listed, "dealer": dealers.tolist()})
    assert np.array_equal(step.observations, again.observations)
    assert np.array_equal(step.to_act, again.to_act)
    for t in range(6):
        assert as_array.history(t) == as_lists.history(t)
    bad = cards.copy()
    bad[[3, 4], 0, 0] = bad[[3, 4], 1, 0]  # tables 3 and 4 deal one card twice
    with pytest.raises(ValueError, match="table 3: "):
        as_array.reset(options={"cards": bad, "dealer": dealers})
    with pytest.raises(ValueError, match="table 0: dealer"):
        as_array.reset(options={"cards": cards, "dealer": np.array([9, 0, 0, 0, 0, 0])})


def test_later_hands_use_the_tables_stacks() -> None:
    batch = TableBatch(4, stacks=[30, 30, 30, 30], seed=2)
    batch.reset(options={"stacks": [10, 10, 10, 10]})
    assert batch.hand_stacks.tolist() == [[10] * 4] * 4
    for _ in range(3):  # three packs end a four-seat hand
        step = batch.step(np.zeros(4, dtype=np.int64))
    assert step.finished.all() and (batch.hands_dealt == 2).all()
    assert (batch.hand_stacks == 30).all()


def test_histories_replay_to_the_batch_state() -> None:
    rng = np.random.default_rng(11)
    for _ in range(6):
        rules = random_rules(rng)
        batch = TableBatch(8, rules, autoreset=False)
        step = batch.reset(seed=int(rng.integers(1000)))
        for _ in range(int(rng.integers(0, 12))):
            if (step.to_act < 0).all():
                break
            step = batch.step(random_actions(step, rng))
        for t in range(8):
            result = replay(batch.history(t))
            assert result["stacks"] == batch.stack_chips[t].tolist()
            assert result["pot"] == batch.pot[t]
            assert result["over"] == bool(batch.over[t])


def test_autoreset_deals_the_next_hand_and_can_be_turned_off() -> None:
    packs = np.zeros(4, dtype=np.int64)
    on = TableBatch(4, num_players=3, seed=0)
    step = on.reset()
    for _ in range(2):  # three seats: two packs end every hand
        step = on.step(packs)
    assert step.finished.all()
    assert (step.to_act >= 0).all() and (on.hands_dealt == 2).all()
    assert np.allclose(step.rewards.sum(axis=1), 0)
    off = TableBatch(4, num_players=3, seed=0, autoreset=False)
    step = off.reset()
    for _ in range(2):
        step = off.step(packs)
    assert step.finished.all() and (step.to_act == -1).all()
    assert not step.action_masks.any() and not step.observations.any()
    step = off.step(packs)  # nothing waits: nothing happens
    assert not step.finished.any()
    step = off.redeal(np.array([True, False, True, False]))
    assert step.to_act.tolist()[0] >= 0 and step.to_act.tolist()[1] == -1


def test_a_deal_that_ends_at_once_reports_on_the_next_step() -> None:
    # Seats 1-3 hold exactly the boot: all-in on it, one seat can bet, shown at once.
    batch = TableBatch(2, autoreset=False)
    cards = [[["As", "Ah", "Ad"], ["2c", "3d", "5h"], ["Ks", "Qs", "Js"], ["4c", "7d", "9h"]]] * 2
    step = batch.reset(options={"cards": cards, "dealer": 0, "stacks": [100, 1, 1, 1]})
    assert (step.to_act == -1).all() and not step.finished.any()
    step = batch.step(np.zeros(2, dtype=np.int64))
    assert step.finished.all()
    assert step.rewards[0].tolist() == [3.0, -1.0, -1.0, -1.0]
    assert batch.shown[0].tolist() == [True] * 4


# ----------------------------------------------------------------- bad input


def test_variant_rules_the_batch_does_not_play_are_refused_naming_the_variant() -> None:
    two_own_ranks = {"name": "two_own_ranks", "wild": ["personal_lowest", "rotating_lowest"]}
    with pytest.raises(ValueError, match=r"two_own_ranks.*per-table engine"):
        TableBatch(2, Rules(variant=two_own_ranks))
    with pytest.raises(ValueError, match=r"two_own_ranks.*dealer's choice lists it"):
        TableBatch(2, Rules(dealers_choice=("classic", two_own_ranks)))
    with pytest.raises(ValueError, match="num_tables"):
        TableBatch(0)


def test_bad_action_arrays_are_refused() -> None:
    batch = TableBatch(4, seed=0)
    batch.reset()
    for bad in (np.zeros(3, dtype=np.int64), np.zeros((4, 1), dtype=np.int64),
                np.zeros(4, dtype=np.float64), ["pack"] * 4):
        with pytest.raises(ValueError, match="actions must be an int array"):
            batch.step(bad)
    with pytest.raises(ValueError, match="tables must be a bool array"):
        batch.step(np.zeros(4, dtype=np.int64), tables=np.ones(4, dtype=np.int64))


def test_an_illegal_action_names_table_seat_action_reason_and_changes_nothing() -> None:
    batch = TableBatch(4, seed=3)
    step = batch.reset()
    before = (batch.pot, batch.stack_chips, batch.to_act, step.observations.copy(),
              batch.hands_dealt)
    actions = np.zeros(4, dtype=np.int64)  # pack everywhere...
    actions[2] = batch.layout.index("show")  # ...but a show at four seats
    with pytest.raises(IllegalActionError) as raised:
        batch.step(actions)
    message = str(raised.value)
    seat = int(before[2][2])
    assert f"table 2, seat {seat}" in message and "(show)" in message
    assert "a show needs exactly two players in the hand" in message
    after = (batch.pot, batch.stack_chips, batch.to_act, batch._obs,
             batch.hands_dealt)
    for old, new in zip(before, after, strict=True):
        assert np.array_equal(old, new)
    actions[2] = 99
    with pytest.raises(IllegalActionError, match=r"table 2.*not in the action table"):
        batch.step(actions)


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"cards": [[["As", "As", "Ad"], ["2c", "3d", "5h"], ["Ks", "Qs", "Js"],
                     ["4c", "7d", "9h"]]] * 2}, "table 0: .*As"),
        ({"cards": [[["As", "Ah"], ["2c", "3d", "5h"], ["Ks", "Qs", "Js"],
                     ["4c", "7d", "9h"]]] * 2}, "table 0"),
        ({"cards": [[["As", "Ah", "Ad"], ["2c", "3d", "5h"], ["Ks", "Qs", "Js"],
                     ["4c", "7d", "Zz"]]] * 2}, "table 0: .*Zz"),
        ({"cards": [[["As", "Ah", "Ad"], ["2c", "3d", "5h"], ["Ks", "Qs", "Js"],
                     ["4c", "7d", "9h"]]]}, "one deal per table"),
        ({"cards": [[["As", "Ah", "Ad"], ["2c", "3d", "5h"], ["Ks", "Qs", "Js"],
                     ["4c", "7d", "9h"]]] * 2, "dealer": 9}, "table 0: dealer"),
        ({"cards": [[["As", "Ah", "Ad"], ["2c", "3d", "5h"], ["Ks", "Qs", "Js"],
                     ["4c", "7d", "9h"]]] * 2, "dealer": [0]}, "one per table"),
        ({"dealer": 1}, "'dealer' needs 'cards'"),
        ({"stacks": [100, 100, -1, 100]}, "table 0: stack of seat 2"),
        ({"stacks": [100, 0, 0, 0]}, "fewer than two seats"),
        ({"stacks": [[100] * 4] * 3}, "lists 3 tables"),
        ({"cards": np.zeros((2, 4, 2), dtype=np.int64)}, "shape"),
        ({"reshuffles": []}, "unknown reset options"),
    ],
)
def test_bad_deals_in_options_are_refused_and_change_nothing(
    options: dict[str, object], match: str
) -> None:
    batch = TableBatch(2, seed=0)
    step = batch.reset()
    before = (step.observations.copy(), batch.stack_chips, batch.to_act)
    with pytest.raises(ValueError, match=match):
        batch.reset(options=options)
    after = (batch._obs, batch.stack_chips, batch.to_act)
    for old, new in zip(before, after, strict=True):
        assert np.array_equal(old, new)


# ----------------------------------------------------------------- invariants


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_chips_are_conserved_and_hands_end(seed: int) -> None:
    rng = np.random.default_rng(seed)
    rules = random_rules(rng)
    stacks = random_stacks(rules, rng)
    batch = TableBatch(16, rules, stacks=stacks, autoreset=False)
    step = batch.reset(seed=seed)
    total = sum(stacks)
    # Every bet moves at least one chip and the chips are finite: a hand ends well
    # within this many decisions.
    bound = 2 * total // rules.boot + 4 * rules.num_players + 8
    for _ in range(bound):
        chips = batch.stack_chips.sum(axis=1) + batch.pot
        assert (chips == total).all()
        if (step.to_act < 0).all():
            break
        step = batch.step(random_actions(step, rng))
    assert batch.over.all()
    assert (batch.net.sum(axis=1) == 0).all()
    assert (batch.stack_chips.sum(axis=1) == total).all()


# ----------------------------------------------------------------- the vector environment


def test_vector_env_rewards_are_the_learners_net_and_infos_are_fixed() -> None:
    env = TeenPattiVectorEnv(32, "classic", seed=4)
    obs, infos = env.reset(seed=4)
    assert obs.shape == (32, env.batch.observation_size)
    assert env.observation_space.shape == obs.shape
    keys = {key: (value.dtype, value.shape) for key, value in infos.items()}
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(60):
        masks = env.action_masks()
        assert masks.dtype == np.bool_ and masks.any(axis=1).all()
        learner = env.learner.copy()
        assert (env.batch.to_act == learner).all()  # every table waits for its learner
        actions = (masks + rng.random(masks.shape)).argmax(axis=1)
        obs, rewards, terminated, truncated, infos = env.step(actions)
        assert {key: (value.dtype, value.shape) for key, value in infos.items()} == keys
        assert not truncated.any()
        assert (rewards[~terminated] == 0).all()
        assert (infos["_final_obs"] == terminated).all()
        # The final observation is the learner's own, at a finished hand.
        hand_over = env.batch.obs_layout.slots[6][1]
        assert (infos["final_obs"][terminated, hand_over] == 1).all()
        finished += int(terminated.sum())
    assert finished > 0


def test_vector_env_learner_seat_rotates_and_opponents_are_called_batched() -> None:
    calls: list[int] = []

    def packer(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        calls.append(len(observations))
        return np.zeros(len(observations), dtype=np.int64)  # pack

    env = TeenPattiVectorEnv(8, "classic", opponents=packer)
    env.reset(seed=0)
    seats = [env.learner.copy()]
    for _ in range(3):
        _, rewards, terminated, _, _ = env.step(np.full(8, env.batch.layout.index("bet_min")))
        seats.append(env.learner.copy())
    assert max(calls) > 1  # one call for many tables
    # Everyone else packs to a bet: the learner wins each hand in one step.
    assert terminated.all() and (rewards > 0).all()
    assert all((a != b).all() for a, b in itertools.pairwise(seats))


def test_vector_env_refuses_bad_opponents() -> None:
    with pytest.raises(ValueError, match="one per other seat"):
        TeenPattiVectorEnv(2, opponents=[lambda o, m: m.argmax(1)])

    def floats(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.zeros(len(observations))

    env = TeenPattiVectorEnv(16, opponents=floats)
    with pytest.raises(ValueError, match="int actions"):
        env.reset(seed=0)  # some learner is not first to act at sixteen tables


@pytest.mark.parametrize("settings", [{"starting_boots": 6},
                                      {"starting_boots": 30, "max_hands": 4}])
def test_vector_env_sessions_pay_each_hand_and_end_with_the_session(settings: dict) -> None:
    """episode="session": the learner keeps its seat for the session, every hand it played
    is paid as it ends, and an episode's rewards are its chips won in the session."""
    env = TeenPattiVectorEnv(16, "classic", episode="session", seed=5, **settings)
    env.reset(seed=5)
    boot = env.rules.boot
    start = env.rules.starting_stack / boot
    stack_slot = next(index for name, index, *_ in env.batch.obs_layout.slots
                      if name == "seat0.stack")
    returns = np.zeros(16)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(400):
        seats = env.learner.copy()
        masks = env.action_masks()
        actions = (masks + rng.random(masks.shape)).argmax(axis=1)
        _, rewards, terminated, _, infos = env.step(actions)
        returns += rewards
        # The learner keeps its seat for as long as its session lasts.
        assert (env.learner[~terminated] == seats[~terminated]).all()
        live = ~terminated
        settled = env.batch.session_net[np.arange(16), env.learner] / boot
        # Every hand the learner played and that has been settled is already paid.
        np.testing.assert_allclose(returns[live], settled[live])
        final = infos["final_obs"][terminated, stack_slot] - start
        np.testing.assert_allclose(returns[terminated], final)
        ended += int(terminated.sum())
        returns[terminated] = 0.0
    assert ended > 10


def test_the_kernels_take_no_reference_counts_except_the_two_that_allocate() -> None:
    """numba's runtime costs an atomic increment and decrement per array argument of
    every compiled call (about a fifth of a step at 4,096 tables, docs/benchmarks.md):
    every kernel compiles without it but the two that allocate an array, neither of
    them called at every step."""
    import importlib

    numba = pytest.importorskip("numba")
    from teenpatti_env.environment.batch_state import KERNEL_MODULES

    with_runtime, without = set(), set()
    for name in KERNEL_MODULES:
        module = importlib.import_module(f"teenpatti_env.environment.{name}")
        for attr, value in vars(module).items():
            if (isinstance(value, numba.core.registry.CPUDispatcher)
                    and value.py_func.__module__ == module.__name__):
                (with_runtime if value.targetoptions["_nrt"] else without).add(attr)
    assert with_runtime == {"showdown", "undealt_decks"}
    assert {"step_tables", "observe_tables", "deal_tables", "encode", "legal_kinds",
            "apply_action", "seat_value"} <= without
