"""The arena's AIVAT-style estimator (agents/arena/aivat.py, issue 31): its corrections
have mean exactly zero over the deal, so the corrected means are unbiased; on games whose
edge is known its mean agrees with that edge and with duplicate dealing's; both engines
give the same report; the command line asks for it."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.arena import ArenaConfig, aivat, aivat_net, parse_table, run_arena
from agents.arena.aivat import (
    MIN_PILOT_DEALS,
    ChanceTable,
    DealCards,
    ValueModel,
    hand_buckets,
    pilot_config,
)
from agents.arena.aivat_net import (
    PLAYERS,
    SEAT_FEATURES,
    DealValueNet,
    net_corrections,
    policy_fingerprint,
    shipped_net,
)
from agents.arena.aivat_values import linear_model, load_linear, needs_pilot, save_linear
from agents.arena.run import _play_reports
from agents.arena.seating import deal_seed
from agents.stats import Interval
from interfaces.cli import main
from teenpatti_env.cards import parse_cards
from teenpatti_env.rules import Rules

PACKER = "rule:0,0,1,0,0,1,0,1,1,0,1,0"
"""Looks at once, then packs (it calls only with a win chance of 1, which never comes)."""
CALLER = "rule:8,0,40,0,0,0,0,1,1,0,0,0"
"""Calls blind for eight bets, then looks and calls every bet; never raises, shows or asks
for a sideshow, and accepts every sideshow."""
CALLER_AGAIN = "rule:8.0,0.0,40.0,0.0,0.0,0.0,0.0,1.0,1.0,0.0,0.0,0.0"
"""The same setting as :data:`CALLER` under another name (a pool's names are distinct)."""

CLASSIC = Rules.preset("classic")


# ---------------------------------------------------------------- the corrections --


def _small_deck_deals(deck: int, seats: int) -> np.ndarray:
    """Every ordered deal of three cards to each of ``seats`` seats from ``deck`` cards
    (all equally likely under a uniform shuffle): ``[deal, seat, 3]``."""
    combos = list(itertools.combinations(range(deck), 3))
    deals = []
    for hands in itertools.product(combos, repeat=seats):
        cards = [card for hand in hands for card in hand]
        if len(set(cards)) == len(cards):
            deals.append(hands)
    return np.array(deals, dtype=np.int64)


def test_the_chance_table_counts_pairs_of_hands_exactly() -> None:
    deck = 9
    combos = list(itertools.combinations(range(deck), 3))
    buckets = np.arange(len(combos)) % 4
    table = ChanceTable.of_hands(buckets, np.arange(len(combos)), deck)
    pairs = np.zeros((4, 4))
    for i, one in enumerate(combos):
        for j, other in enumerate(combos):
            if not set(one) & set(other):
                pairs[buckets[i], buckets[j]] += 1
    assert np.allclose(table.pair, pairs / pairs.sum(), rtol=0, atol=1e-15)
    assert np.allclose(table.single, np.bincount(buckets) / len(combos), atol=1e-15)
    assert np.array_equal(table.bucket(np.array(combos)), buckets)
    assert np.array_equal(table.bucket(np.array(combos)[:, ::-1]), buckets)  # any order


def test_the_classic_buckets_follow_the_hand_categories() -> None:
    table = hand_buckets(CLASSIC)
    assert table.buckets == 11  # high card in five, pair in two, four more categories
    assert math.isclose(table.single.sum(), 1.0) and math.isclose(table.pair.sum(), 1.0)
    assert np.allclose(table.pair, table.pair.T)
    assert np.allclose(table.pair.sum(axis=1), table.single)  # the pair's marginal
    assert table.bucket(np.array(parse_cards("AsAhAd"))) == 10  # the top category
    assert table.bucket(np.array(parse_cards("2s3h5d"))) == 0  # the lowest high card


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 2))
def test_corrections_have_mean_zero_over_every_deal(seed: int, dealer: int) -> None:
    """Whatever the buckets and the weights, the mean of every seat's correction over all
    equally likely deals of a 9-card deck to three seats is zero (to rounding)."""
    rng = np.random.default_rng(seed)
    deals = _small_deck_deals(9, 3)  # 1,680 deals
    values = rng.integers(0, 30, size=84)  # with ties
    buckets = np.searchsorted([10, 20], values, side="right")  # ordered as the values
    table = ChanceTable.of_hands(buckets, values, 9)
    model = ValueModel(table, agents=2, players=3)
    model.own = rng.normal(size=model.own.shape)
    model.pair = rng.normal(size=model.pair.shape)
    model.tie = rng.normal(size=model.tie.shape)
    cards = DealCards.of(table, deals, np.full(len(deals), dealer))
    seated = np.broadcast_to(np.array([[0, 1, 1], [1, 1, 0], [0, 0, 1]], dtype=np.int16),
                             (len(deals), 3, 3))
    corrections = model.corrections(cards, seated)
    assert np.abs(corrections).mean() > 0.1  # the corrections are not zero themselves
    assert np.abs(corrections.mean(axis=0)).max() < 1e-12


def test_the_pilot_plays_other_deals() -> None:
    config = ArenaConfig(("hard", "equity"), CLASSIC, 400, 3, table=parse_table("2v2", 4),
                         aivat=True)
    pilot = pilot_config(config, None)
    assert pilot.hands == 100 and pilot.pilot
    run, held_out = deal_seed(config, 0).integers(2**62, size=4), deal_seed(pilot, 0)
    assert not np.array_equal(run, held_out.integers(2**62, size=4))
    assert pilot_config(config, 1).hands == 2 * config.rotations  # at least two deals


# ------------------------------------------------------------------ unbiasedness --


def _reports(agents: tuple[str, ...], table: str, seeds: range, hands: int,
             pilot_hands: int) -> list:
    """One AIVAT arena report per seed (agents may repeat: the same agent twice)."""
    out = []
    for seed in seeds:
        config = ArenaConfig(agents, CLASSIC, hands, seed, table=parse_table(table, 4),
                             aivat=True)
        out.extend(_play_reports([config], "batched", False, 1, False, None,
                                 pilot_hands=pilot_hands))
    return out


def _agree(estimates: list[Interval], truth: float) -> None:
    """The mean of the seeds' estimates is within three standard errors of ``truth``,
    and ``truth`` is inside at least 70% of the seeds' 95% intervals."""
    means = np.array([e.mean for e in estimates])
    spread = means.std(ddof=1) / math.sqrt(len(means))
    assert abs(means.mean() - truth) <= 3 * spread + 1e-12
    inside = sum(e.low <= truth <= e.high for e in estimates)
    assert inside >= 0.7 * len(estimates)


def test_aivat_is_unbiased_for_an_agent_against_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``medium`` (one move in ten at random) against ``medium`` at 2v2: the edge is zero.
    The fit is forced (the cross-validation might keep no correction): unbiasedness holds
    for any value function, an overfitted one included."""
    monkeypatch.setattr(aivat, "_chosen_ridge", lambda squared: 1.0)
    reports = _reports(("medium", "medium"), "2v2", range(6), 800, 4 * MIN_PILOT_DEALS)
    aivat_results = [r.agents["medium"].result for r in reports]
    duplicate = [r.agents["medium"].uncorrected for r in reports]
    assert all(abs(r.corrections).max() > 0.1 for r in reports)  # real corrections
    _agree(aivat_results, 0.0)
    _agree(duplicate, 0.0)
    gaps = np.array([a.mean - d.mean for a, d in zip(aivat_results, duplicate, strict=True)])
    assert abs(gaps.mean()) <= 3 * gaps.std(ddof=1) / math.sqrt(len(gaps))


def test_aivat_keeps_the_edge_of_a_packer_against_a_caller() -> None:
    """A seat that always packs loses its boot every hand to callers that never pack: at
    2v2 the packer makes -1 boot per hand and the caller +1, exactly."""
    reports = _reports((PACKER, CALLER), "2v2", range(2), 800, 4 * MIN_PILOT_DEALS)
    for report in reports:
        assert report.agents[PACKER].result.mean == pytest.approx(-1.0, abs=1e-9)
        assert report.agents[CALLER].result.mean == pytest.approx(1.0, abs=1e-9)


def test_aivat_is_unbiased_in_a_field_of_a_packer_and_two_callers() -> None:
    """The packer, two identical callers, four seats: one agent sits twice in each deal
    (each as often). The callers win what the packer loses, one boot per packer seat, and
    by symmetry share it: each caller's expected result per hand is E[packer seats] /
    E[caller seats] = (4/3) / (8/3) = +0.5; their showdowns make it noisy."""
    reports = _reports((PACKER, CALLER, CALLER_AGAIN), "field", range(6), 800,
                       4 * MIN_PILOT_DEALS)
    aivat = [r.agents[CALLER].result for r in reports]
    duplicate = [r.agents[CALLER].uncorrected for r in reports]
    assert min(e.std_error for e in duplicate) > 0.1  # a noisy figure, not a constant
    _agree(aivat, 0.5)
    _agree(duplicate, 0.5)
    gaps = [r.pairwise[CALLER][CALLER_AGAIN] for r in reports]
    _agree(gaps, 0.0)


# ------------------------------------------------------------------ the reports --


def test_both_engines_give_the_same_aivat_report(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(aivat, "_chosen_ridge", lambda squared: 1.0)  # corrections on
    kwargs = dict(hands=1000, seed=4, table="2v2", variance_reduction="aivat",
                  pilot_hands=4 * MIN_PILOT_DEALS)
    batched = run_arena(["hard", "random"], engine="batched", **kwargs)
    per_table = run_arena(["hard", "random"], engine="per_table", **kwargs)
    assert batched.to_dict() == per_table.to_dict()
    row = batched.rows[0]
    assert row.report.corrections is not None and np.abs(row.report.corrections).max() > 0
    assert row.result != row.report.agents["hard"].uncorrected


def test_the_reports_state_the_factors_next_to_each_interval(tmp_path: Path) -> None:
    out = tmp_path / "arena"
    code = main(["arena", "--agents", "hard,random", "--table", "2v2", "--hands", "400",
                 "--pilot-hands", "800", "--quiet", "--out", str(out)])
    assert code is None or code == 0
    data = json.loads((out / "arena.json").read_text())
    assert data["variance_reduction"] == "aivat"  # the command line's default
    assert data["pilot"] == {"hands": 800, "deals": 200}
    row = data["rows"][0]
    result = row["arena"]["results"]["hard"]
    assert row["variance_reduction"] == pytest.approx(
        (result["independent_std_error"] / row["boots_per_hand"]["std_error"]) ** 2)
    assert row["aivat_over_duplicate"] == pytest.approx(
        (result["uncorrected"]["std_error"] / row["boots_per_hand"]["std_error"]) ** 2)
    text = (out / "arena.md").read_text()
    assert "var/" in text and "dup/" in text and "pilot of 800 hands" in text


@pytest.mark.parametrize(("option", "expected"), [
    ("none", "none"), ("duplicate", "duplicate"), ("aivat", "aivat")])
def test_the_command_line_chooses_the_estimator(tmp_path: Path, option: str,
                                                expected: str) -> None:
    main(["arena", "--agents", "hard,random", "--hands", "40", "--quiet",
          "--variance-reduction", option, "--out", str(tmp_path)])
    data = json.loads((tmp_path / "arena.json").read_text())
    assert data["variance_reduction"] == expected
    assert data["duplicate"] is (expected != "none")
    assert ("pilot" in data) is (expected == "aivat")


def test_variants_fall_back_to_duplicate_dealing(tmp_path: Path) -> None:
    main(["arena", "--agents", "hard,random", "--hands", "40", "--quiet", "--variant",
          "muflis", "--out", str(tmp_path)])
    assert json.loads((tmp_path / "arena.json").read_text())["variance_reduction"] == \
        "duplicate"


@pytest.mark.parametrize("argv", [
    ["--independent", "--variance-reduction", "aivat"],
    ["--variant", "muflis", "--variance-reduction", "aivat"],
    ["--variance-reduction", "luck"],
    ["--pilot-hands", "0"],
])
def test_bad_estimator_options_fail_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    try:  # a bad value of an option stops argparse; a bad combination returns 2
        code = main(["arena", "--agents", "hard,random", "--hands", "40", "--quiet",
                     "--out", str(tmp_path), *argv])
    except SystemExit as stop:
        code = stop.code
    assert code == 2
    error = capsys.readouterr().err.strip()
    assert "Traceback" not in error and error


def test_bad_estimator_arguments_are_value_errors() -> None:
    with pytest.raises(ValueError, match="variance_reduction must be one of"):
        run_arena(["hard", "random"], hands=8, variance_reduction="luck")
    with pytest.raises(ValueError, match="independent deals"):
        run_arena(["hard", "random"], hands=8, duplicate=False, variance_reduction="aivat")
    with pytest.raises(ValueError, match="classic family"):
        run_arena(["hard", "random"], hands=8, rules=Rules.preset("classic",
                                                                   variant="muflis"),
                  variance_reduction="aivat")
    with pytest.raises(ValueError, match="pilot_hands"):
        run_arena(["hard", "random"], hands=8, variance_reduction="aivat", pilot_hands=0)


# ------------------------------------------------- a value network of the whole deal --


def _random_net(agents: tuple[str, str], seats: tuple[int, int], seed: int,
                scale: float = 1.0) -> DealValueNet:
    """A value network with random weights (unbiasedness holds for any value function)."""
    rng = np.random.default_rng(seed)
    sizes = (PLAYERS * SEAT_FEATURES, 16, PLAYERS)
    weights = tuple((rng.normal(size=(a, b)) * scale / math.sqrt(a)).astype(np.float32)
                    for a, b in itertools.pairwise(sizes))
    biases = tuple(rng.normal(size=b).astype(np.float32) for b in sizes[1:])
    return DealValueNet(agents, seats, ("", ""), weights, biases)


def test_network_corrections_have_mean_zero_given_the_seating() -> None:
    """Over many fresh deals the mean correction of every seating pattern (the agents in
    the order of play) at every position is zero within its sampling and Monte Carlo
    errors, although the network reads who sits where and the corrections are large;
    and so is each agent's mean correction."""
    rng = np.random.default_rng(11)
    net = _random_net(("a", "b"), (2, 2), 3, scale=3.0)
    deals = 6000
    cards = rng.random((deals, 52)).argsort(axis=1)[:, :12].reshape(deals, 4, 3)
    dealers = rng.integers(4, size=deals)
    lineups = np.array([rng.permutation([0, 0, 1, 1]) for _ in range(deals)])
    seated = np.stack([np.roll(lineups, -r, axis=1) for r in range(4)], axis=1)
    out = net_corrections(net, cards, dealers, seated, np.random.default_rng(12), 40_000)
    assert out.corrections.std() > 0.5  # real corrections
    position = (np.arange(4)[None, :] - dealers[:, None] - 1) % 4  # of every seat
    by_position = np.zeros_like(seated)
    np.put_along_axis(by_position, np.broadcast_to(position[:, None, :], seated.shape),
                      seated, axis=-1)
    pattern = by_position @ (1 << np.arange(4))  # [deal, rotation]
    means = []
    for value in np.unique(pattern):
        rows = out.corrections[pattern == value]  # [tables, seat]
        seat_pos = np.broadcast_to(position[:, None, :], seated.shape)[pattern == value]
        for p in range(4):
            sample = rows[seat_pos == p]
            means.append(sample.mean())
            assert abs(sample.mean()) < 4.5 * sample.std() / math.sqrt(len(sample)) + 0.05
    assert len(means) == 24  # six seating patterns, four positions
    for agent in (0, 1):
        mine = (out.corrections * (seated == agent)).sum(axis=(1, 2)) / 8
        error = math.hypot(mine.std() / math.sqrt(deals), out.mc_std_error[agent])
        assert abs(mine.mean()) < 4 * error


def test_the_network_estimator_is_unbiased_for_an_agent_against_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``medium`` against ``medium`` at 2v2, corrected by a random network standing for a
    shipped one (no pilot is played): the edge is zero, and the corrected mean agrees
    with it and with duplicate dealing's."""
    net = _random_net(("medium", "medium"), (2, 2), 5, scale=3.0)
    monkeypatch.setattr(aivat_net, "shipped_net", lambda agents, seats, rules: net)
    monkeypatch.setattr(aivat_net, "MC_DEALS", 5_000)
    reports = _reports(("medium", "medium"), "2v2", range(6), 800, 4 * MIN_PILOT_DEALS)
    assert all(r.pilot is None for r in reports)  # the network, not a pilot
    assert all(abs(r.corrections).max() > 0.5 for r in reports)
    aivat_results = [r.agents["medium"].result for r in reports]
    duplicate = [r.agents["medium"].uncorrected for r in reports]
    _agree(aivat_results, 0.0)
    gaps = np.array([a.mean - d.mean for a, d in zip(aivat_results, duplicate, strict=True)])
    assert abs(gaps.mean()) <= 3 * gaps.std(ddof=1) / math.sqrt(len(gaps))


def test_the_network_estimator_keeps_a_known_edge(monkeypatch: pytest.MonkeyPatch) -> None:
    """The packer against the caller at 2v2 (edge exactly -1 and +1 per hand) with a
    random network's corrections: over seeds the corrected means agree with the edge."""
    net = _random_net((PACKER, CALLER), (2, 2), 7, scale=3.0)
    monkeypatch.setattr(aivat_net, "shipped_net", lambda agents, seats, rules: net)
    monkeypatch.setattr(aivat_net, "MC_DEALS", 5_000)
    reports = _reports((PACKER, CALLER), "2v2", range(6), 800, 4 * MIN_PILOT_DEALS)
    assert all(abs(r.agents[PACKER].result.mean + 1.0) > 1e-6 for r in reports)  # corrected
    _agree([r.agents[PACKER].result for r in reports], -1.0)
    _agree([r.agents[CALLER].result for r in reports], 1.0)


def test_value_functions_are_shipped_for_the_policy_against_equity_and_hard() -> None:
    classic = Rules.preset("classic")
    for opponent, seats in itertools.product(("equity", "hard"), ((2, 2), (1, 3))):
        net = shipped_net(("pretrained:classic", opponent), seats, classic)
        assert net is not None and net.seats == seats
        assert net.fingerprints[0] == policy_fingerprint("pretrained:classic")
        config = ArenaConfig(("pretrained:classic", opponent), classic, 4000, 1,
                             table=parse_table("2v2" if seats == (2, 2) else "1vN", 4),
                             aivat=True)
        linear = linear_model(config)
        assert linear is not None and np.abs(linear.pair).max() > 0
        assert not needs_pilot(config)
    assert shipped_net(("pretrained:classic", "medium"), (2, 2), classic) is None
    assert shipped_net(("pretrained:classic", "equity"), (3, 1), classic) is None
    assert shipped_net(("equity", "pretrained:classic"), (2, 2), classic) is None
    assert shipped_net(("pretrained:classic", "random"), (2, 2), classic) is None
    assert shipped_net(("pretrained:classic", "equity"), (2, 2),
                       Rules.preset("classic", variant="muflis")) is None


def test_a_changed_policy_does_not_use_the_shipped_network(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The network records the policy's weights file; another file, same name: none."""
    monkeypatch.setattr(aivat_net, "policy_fingerprint", lambda spec: "another file")
    assert shipped_net(("pretrained:classic", "equity"), (2, 2),
                       Rules.preset("classic")) is None


def test_a_shipped_network_replaces_the_pilot() -> None:
    report = run_arena(["pretrained:classic", "equity"], hands=400, seed=3, table="2v2",
                       variance_reduction="aivat", engine="batched")
    data = report.to_dict()
    arena = data["rows"][0]["arena"]
    assert arena["value_function"] == "shipped" and "pilot" not in arena
    assert "pilot" not in data
    corrections = report.rows[0].report.corrections
    assert corrections is not None and np.abs(corrections).max() > 0
    assert "value network shipped" in report.table()


def test_linear_weights_round_trip_and_refuse_a_changed_policy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = np.random.default_rng(2)
    model = ValueModel(hand_buckets(CLASSIC), 2, 4)
    model.own, model.pair, model.tie = (rng.normal(size=model.own.shape),
                                        rng.normal(size=model.pair.shape),
                                        rng.normal(size=model.tie.shape))
    path = tmp_path / "weights.npz"
    save_linear(model, path, ("a", "b"), (2, 2), ("fa", "fb"))
    meta, back = load_linear(path)
    assert meta["agents"] == ["a", "b"] and meta["seats"] == [2, 2]
    for name in ("own", "pair", "tie"):
        assert np.array_equal(getattr(back, name), getattr(model, name))
    config = ArenaConfig(("pretrained:classic", "hard"), CLASSIC, 4000, 1,
                         table=parse_table("2v2", 4), aivat=True)
    assert linear_model(config) is not None
    monkeypatch.setattr(aivat_net, "policy_fingerprint", lambda spec: "another file")
    assert linear_model(config) is None and needs_pilot(config)
