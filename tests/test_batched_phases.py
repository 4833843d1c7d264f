"""The batched engine's selection phases (VARIANTS.md P1-P9) beyond the differential test
of ``test_batched_variants.py``: shopping's deck running out (P7) against the per-table
engine, worked-by-hand passing and discarding at a given deal, and a phase hand's
history and rebuilt ``Hand`` at any point of the phase."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest
from builders.batched import (
    check_chips_and_endings,
    play_against_twins,
    play_random_rule_sets,
    random_actions,
    random_rules,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from teenpatti_env.cards import parse_cards
from teenpatti_env.engine.history import replay
from teenpatti_env.environment import batch_kernels as k
from teenpatti_env.environment.aec import raw_env
from teenpatti_env.environment.batched import TableBatch
from teenpatti_env.rules import Rules
from teenpatti_env.rules.variants import VariantSpec, WildSource

PHASES = ("discard_one", "shopping", "passing_cards")
FAMILY = (  # a phase with what the named phase variants leave out
    VariantSpec(name="shop_joker_two_burst", phase="shopping", burst_rank=0,
                wild=(WildSource(kind="indicator_rank", values=()),)),
    VariantSpec(name="discard_shared_sevens", private_cards=3, community_cards=1,
                phase="discard_one", wild=(WildSource(kind="ranks", values=(5,)),)),
    VariantSpec(name="passing_lowball", phase="passing", burst_rank=0, lowball=True,
                wild=(WildSource(kind="ranks", values=(5,)),
                      WildSource(kind="indicator_colour", values=()))),
)


def _offsets(batch: TableBatch) -> dict[str, int]:
    return {name: offset for name, offset, _, _ in batch.obs_layout.slots}


def _ones(row: Any, offset: int, width: int = 52) -> list[int]:
    return np.flatnonzero(row[offset:offset + width]).tolist()


def test_shopping_reshuffles_the_discards_when_the_deck_runs_out_as_the_engine_does() -> None:
    # Three seats deal nine cards: 43 are left, and seats that draw almost always run
    # the deck out (P7); every decision is held to a raw_env twin given the batch's
    # reshuffle order.
    rules = Rules(variant="shopping", num_players=3, starting_boots=60)
    batch = TableBatch(8, rules, autoreset=False)
    envs = [raw_env(rules=rules, bet_levels=batch.layout.bet_levels) for _ in range(8)]
    draw, keep = batch.layout.index("draw"), batch.layout.index("keep")
    rng = np.random.default_rng(7)

    def mostly_draw(step: Any, rng: np.random.Generator) -> Any:
        actions = random_actions(step, rng)
        masks = step.action_masks
        draws = (masks[:, draw] == 1) & (rng.random(len(masks)) < 0.97)
        actions[draws] = draw
        discards = (masks[:, keep] == 0) & (masks[:, draw] == 0) & (
            masks[:, batch.layout.index("discard_0")] == 1)
        actions[discards] = batch.layout.index("discard_0") + rng.integers(4, size=len(masks))[
            discards]
        return actions

    seen: Counter[str] = Counter()
    for hand in range(2):
        play_against_twins(batch, rng, hand, None, seen, envs=envs, choose=mostly_draw)
    assert seen["draw"] > 8 * 2 * 43, seen  # the decks ran out at the tables
    assert any(len(env.hand.reshuffles) >= 1 for env in envs)
    for t, env in enumerate(envs):  # the history names the draws from the discards
        history = batch.history(t)
        assert replay(history)["net"] == batch.net[t].tolist()
        named = [a for a in history["actions"] if a["type"] == "draw" and "card" in a]
        assert bool(named) == bool(env.hand.reshuffles)


def test_passing_at_a_given_deal_worked_by_hand() -> None:
    # Dealer 0: seat 1 holds six, passes three to seat 2, which passes three to seat 0,
    # the dealer, who passes its extra three out of play (P9). The indicators (a wild
    # rank, a wild colour, a burst rank) stay face down until the passing is over (D2).
    batch = TableBatch(1, variant="passing_cards", num_players=3, autoreset=False)
    cards = [[["2c", "3c", "4c"], ["As", "Ks", "Qs", "5d", "6d", "7d"], ["9h", "Th", "Jh"]]]
    step = batch.reset(options={"cards": cards, "dealer": 0,
                                "indicators": [["8s", "9s", "Kc"]]})
    at = _offsets(batch)
    layout = batch.layout
    assert step.to_act[0] == 1
    assert np.flatnonzero(step.action_masks[0]).tolist() == [
        layout.index("pack"), *(i for i, name in enumerate(layout.names)
                                if name.startswith("pass_"))]
    first = step.observations[0]
    assert first[at["in_phase"]] == 1 and first[at["seat0.seen"]] == 1  # P1
    assert _ones(first, at["seat0.cards"]) == sorted(parse_cards("As Ks Qs 5d 6d 7d"))
    assert _ones(first, at["indicators"]) == [] and _ones(first, at["burst_rank"], 13) == []
    assert first[at["my_strength"]] == 0  # the value would tell the face-down indicators
    step = batch.step(np.array([layout.index("pass_3_4_5")]))  # 5d 6d 7d to seat 2
    assert step.to_act[0] == 2
    second = step.observations[0]
    assert _ones(second, at["seat0.cards"]) == sorted(parse_cards("9h Th Jh 5d 6d 7d"))
    assert _ones(batch.observe(np.array([1]))[0], at["my_parted"]) == sorted(
        parse_cards("5d 6d 7d"))
    step = batch.step(np.array([layout.index("pass_0_1_2")]))  # 9h Th Jh to the dealer
    assert step.to_act[0] == 0
    step = batch.step(np.array([layout.index("pass_0_1_2")]))  # 2c 3c 4c out of play
    # The passing is over: the eight of spades makes eights wild, the nine spades wild,
    # the king of clubs bursts seat 1 (A-K-Q of spades), which packs (B1).
    assert step.to_act[0] == 2  # the dealer's left packed: seat 2 bets first
    third = step.observations[0]
    assert third[at["in_phase"]] == 0
    assert _ones(third, at["indicators"]) == sorted(parse_cards("8s 9s Kc"))
    assert batch.arrays.seat[0, k.PACKED].tolist() == [0, 1, 0]
    assert third[at["seat1.burst"]] == 0 and third[at["seat2.burst"]] == 1  # relative
    assert batch.hand(0).hands == [tuple(parse_cards("9h Th Jh")),
                                   tuple(parse_cards("As Ks Qs")),
                                   tuple(parse_cards("5d 6d 7d"))]


def test_discard_one_at_a_given_deal_worked_by_hand() -> None:
    batch = TableBatch(1, variant="discard_one", num_players=3, autoreset=False)
    cards = [[["Ac", "Ad", "Ah", "2s"], ["Kc", "Kd", "3h", "4s"], ["7c", "8c", "9c", "Js"]]]
    step = batch.reset(options={"cards": cards, "dealer": 2})
    at = _offsets(batch)
    assert step.to_act[0] == 0
    assert step.observations[0][at["my_category"] + 5] == 1  # a trail among the four
    step = batch.step(np.array([batch.layout.index("discard_0")]))  # the ace of clubs
    assert step.to_act[0] == 1
    mine = batch.observe(np.array([0]))[0]
    assert _ones(mine, at["seat0.cards"]) == sorted(parse_cards("Ad Ah 2s"))
    assert _ones(mine, at["my_parted"]) == list(parse_cards("Ac"))
    assert mine[at["my_category"] + 1] == 1  # a pair now
    assert mine[at["seat0.phase_done"]] == 1 and mine[at["seat1.phase_done"]] == 0
    batch.step(np.array([batch.layout.index("discard_3")]))
    step = batch.step(np.array([batch.layout.index("discard_3")]))
    assert step.to_act[0] == 0 and step.observations[0][at["in_phase"]] == 0
    assert batch.hand(0).hands[2] == tuple(parse_cards("7c 8c 9c"))


@pytest.mark.parametrize("name", PHASES)
def test_a_phase_hands_history_replays_to_the_batchs_state_at_every_step(name: str) -> None:
    batch = TableBatch(6, variant=name, num_players=4, seed=3, autoreset=False)
    step = batch.reset()
    rng = np.random.default_rng(5)
    checked = 0
    while (step.to_act >= 0).any():
        for t in np.flatnonzero(step.to_act >= 0):
            result = replay(batch.history(int(t)))
            assert result["to_act"] == step.to_act[t]
            assert result["pot"] == batch.pot[t]
            assert result["stacks"] == batch.stack_chips[t].tolist()
            checked += 1
        step = batch.step(random_actions(step, rng))
    assert checked > 20


@settings(max_examples=24, deadline=None)
@given(name=st.sampled_from(PHASES), seed=st.integers(0, 2**31), players=st.integers(3, 7),
       short=st.booleans(), session=st.booleans())
def test_chips_are_conserved_and_every_phase_hand_and_session_ends(
        name: str, seed: int, players: int, short: bool, session: bool) -> None:
    check_chips_and_endings(name, seed, players, short, session)


def test_every_shopping_hand_deals_fifty_two_different_cards() -> None:
    # The draws and discards move cards about the table's deck: the next deal (autoreset,
    # a session's next hand) starts again from a whole deck.
    batch = TableBatch(16, variant="shopping", num_players=7, seed=11)
    step = batch.reset()
    rng = np.random.default_rng(2)
    deals = 0
    for _ in range(200):
        step = batch.step(random_actions(step, rng))
        for t in np.flatnonzero(step.finished):  # dealt again in this step
            hand = batch.hand(int(t))
            held = [c for cards in hand.cards if cards for c in cards]
            assert sorted(held + list(hand.dealt_deck)) == list(range(52))
            deals += 1
    assert deals > 16


def test_the_pot_cap_after_a_shopping_turn_shows_every_hand_at_once() -> None:
    # P5: three boots in the pot, a cap of four: seat 1's draw pays the fourth boot (a
    # contribution, not a bet: the stake stays one boot), and its discard completes the
    # turn, so every hand still in is shown, as the per-table engine does.
    rules = Rules(variant="shopping", num_players=3, pot_cap=4)
    batch = TableBatch(1, rules, autoreset=False)
    cards = [[["2c", "7d", "9h"], ["Ks", "Kd", "3h"], ["Qc", "Jc", "4s"]]]
    step = batch.reset(options={"cards": cards, "dealer": 0})
    twin = raw_env(rules=rules, bet_levels=batch.layout.bet_levels)
    hand = batch.hand(0)
    twin.reset(options={"cards": hand.cards, "dealer": 0, **hand.table_cards()})
    layout = batch.layout
    for name in ("draw", "discard_2"):
        assert step.action_masks[0, layout.index(name)] == 1
        twin.step(layout.index(name))
        step = batch.step(np.array([layout.index(name)]))
    assert batch.over[0] and twin.hand.end == "showdown"
    assert batch.stake[0] == 1 and batch.contributions[0].tolist() == [1, 2, 1]
    assert batch.net[0].tolist() == twin.hand.net
    assert batch.shown[0].tolist() == [True, True, True]
    drawn = twin.hand.hands[1]
    assert batch.hand(0).hands[1] == drawn and len(drawn) == 3


@pytest.mark.parametrize("spec", FAMILY, ids=[spec.name for spec in FAMILY])
def test_family_specials_with_a_phase_agree_with_the_engine(spec: VariantSpec) -> None:
    rng = np.random.default_rng(len(spec.name))
    seen: Counter[str] = Counter()
    play_random_rule_sets(lambda rng: random_rules(rng).with_variant(spec), rng, 6_000,
                          seen, tables=16, hands=3)
    assert seen["discard_0"] + seen["pass_0_1_2"] > 0 and seen["show"] > 0, seen


@pytest.mark.parametrize("spec", [
    VariantSpec(name="discard_personal", private_cards=4, phase="discard_one",
                wild=(WildSource(kind="personal_lowest", values=()),)),
    VariantSpec(name="discard_open", private_cards=4, open_private_cards=2,
                phase="discard_one"),
], ids=["personal", "open"])
def test_a_phase_with_open_cards_or_a_personal_rank_is_refused(spec: VariantSpec) -> None:
    with pytest.raises(ValueError, match=f"{spec.name}.*per-table engine"):
        TableBatch(2, Rules(variant=spec))


def test_a_given_shopping_deck_is_drawn_from_top_first_and_a_bad_one_is_refused() -> None:
    batch = TableBatch(2, variant="shopping", num_players=3, autoreset=False, seed=4)
    cards = [[["2c", "7d", "9h"], ["Ks", "Kd", "3h"], ["Qc", "Jc", "4s"]]] * 2
    dealt = set(parse_cards("2c 7d 9h Ks Kd 3h Qc Jc 4s"))
    deck = [card for card in range(52) if card not in dealt]
    decks = [deck, deck[::-1]]
    step = batch.reset(options={"cards": cards, "dealer": 0, "deck": decks})
    assert [batch.hand(t).dealt_deck for t in (0, 1)] == [tuple(d) for d in decks]
    step = batch.step(np.full(2, batch.layout.index("draw")))
    assert [batch.hand(t).hands[1][-1] for t in (0, 1)] == [deck[0], deck[-1]]
    observations = step.observations.copy()
    with pytest.raises(ValueError, match=r"table 1: .*deck"):
        batch.reset(options={"cards": cards, "dealer": 0, "deck": [deck, deck[:-1]]})
    assert np.array_equal(batch.observe(batch.to_act), observations)


def test_a_tables_own_seed_decides_its_reshuffles_whatever_the_batch_holds() -> None:
    """reset option ``seeds``: a table given the same deal and seed draws the same
    reshuffled discards (P7) at every place in any batch, under any other seeds, and
    another seed draws them in another order; a malformed seed is refused and changes
    nothing."""
    rules = Rules(variant="shopping", num_players=3, starting_boots=200)
    cards = [["2c", "7d", "9h"], ["Ks", "Kd", "3h"], ["Qc", "Jc", "4s"]]

    def drawn_after_the_reshuffle(seeds: list[int], place: int) -> list[int]:
        """Every seat draws and throws the drawn card back until ten draws came from
        the reshuffled discards; the cards those draws name at table ``place``."""
        batch = TableBatch(len(seeds), rules, autoreset=False)
        step = batch.reset(options={"cards": [cards] * len(seeds), "dealer": 0,
                                    "seeds": seeds})
        draw, discard = batch.layout.index("draw"), batch.layout.index("discard_3")
        while True:
            named = [action["card"] for action in batch.history(place)["actions"]
                     if action["type"] == "draw" and "card" in action]
            if len(named) >= 10:
                return named
            choice = draw if step.action_masks[place, draw] else discard
            step = batch.step(np.full(len(seeds), choice))
            assert (step.to_act >= 0).all()

    first = drawn_after_the_reshuffle([11, 12], 0)
    assert drawn_after_the_reshuffle([5, 6, 11], 2) == first
    assert drawn_after_the_reshuffle([12, 11], 1) == first
    assert drawn_after_the_reshuffle([13], 0) != first
    batch = TableBatch(2, rules, autoreset=False, seed=1)
    step = batch.reset()
    observations = step.observations.copy()
    for bad in ([1], [1, -2], [1, 2.5], "12"):
        with pytest.raises(ValueError, match="seed"):
            batch.reset(options={"seeds": bad})
    assert np.array_equal(batch.observe(batch.to_act), observations)
