"""What the table says to explain the game (interfaces.explain, interfaces.guide, the
new facts of PlayTable.state): replayed steps carry the badges' fields, no empty side pot,
why a session ended, the final ranking, the chip history, the guide, and which bots fit
which tables."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from agents import SCRIPTED_AGENTS
from interfaces.explain import final_ranking, played_hand, result_reason
from interfaces.guide import STRENGTH_ORDER, bot_guide, bot_tables, how_to_play, table_guide
from interfaces.table import PlayTable
from teenpatti_env.cards import parse_card
from teenpatti_env.cards.hands import evaluate_hand
from teenpatti_env.engine import Hand
from teenpatti_env.engine.session import Session
from teenpatti_env.rules import Rules
from teenpatti_env.rules.variants import VARIANTS


def _play(table: PlayTable, limit: int = 400) -> list[dict[str, Any]]:
    """Play the person by a fixed policy (accept, look, bet smallest, show) to the end;
    every state seen."""
    states = []
    for _ in range(limit):
        state = table.state()
        states.append(state)
        if table.over:
            break
        if state["between_hands"]:
            table.next_hand()
            continue
        kinds = {m["type"]: m for m in state["moves"]}
        for kind in ("accept", "look", "show", "bet", "pack"):
            if kind in kinds:
                amounts = kinds[kind].get("amounts")
                table.act({"type": kind, **({"amount": amounts[0]} if amounts else {})})
                break
    return states


def test_replayed_steps_carry_every_badge_field() -> None:
    table = PlayTable(["hard", "hard", "medium"], "classic", hands=3, seed=5,
                      pause_between_hands=True)
    seen_blind = 0
    for state in _play(table):
        for step in state["steps"]:
            for seat, entry in enumerate(step["seats"]):
                assert {"blind_bets", "in_session", "dealt_in", "packed", "seen"} <= set(entry)
                if step["seat"] == seat:
                    assert entry["in_session"]  # a seat that acts is never out
            if step["seat"] not in (None, 0):
                seen_blind = max(seen_blind, step["seats"][step["seat"]]["blind_bets"])
    assert seen_blind >= 1


def test_blind_bets_count_up_step_by_step() -> None:
    table = PlayTable(["hard", "hard", "hard"], "classic", hands=1, seed=2,
                      pause_between_hands=True)
    bet = next(m for m in table.state()["moves"] if m["type"] == "bet")
    table.act({"type": "bet", "amount": bet["amounts"][0]})
    counts = [step["seats"][1]["blind_bets"] for step in table.steps]
    assert counts == sorted(counts)  # never the final count before the bet that made it


def test_no_side_pot_is_empty() -> None:
    for seed in range(12):
        table = PlayTable(["equity", "hard", "random"], Rules.preset("classic", boot=10,
                          starting_boots=3), hands=3, seed=seed, pause_between_hands=True)
        for state in _play(table):
            if state["hand_end"]:
                assert all(pot["amount"] > 0 for pot in state["hand_end"]["pots"])


def test_a_session_that_ends_early_says_why_and_ranks_the_players() -> None:
    table = PlayTable(["random", "random"], Rules.preset("classic", starting_boots=2),
                      hands=10, seed=1, pause_between_hands=True)
    final = _play(table)[-1]
    assert final["over"]
    assert final["hands_played"] < 10
    assert "ran out of chips" in final["session_end"] or "could still pay" in final[
        "session_end"]
    ranking = final["ranking"]
    assert [row["stack"] for row in ranking] == sorted((r["stack"] for r in ranking),
                                                       reverse=True)
    assert ranking[0]["winner"] and ranking[0]["place"] == 1
    assert len(final["chips"]) == final["hands_played"] + 1
    assert final["chips"][-1] == [row["stack"] for row in final["standings"]]


def test_a_full_session_says_all_hands_were_played() -> None:
    table = PlayTable(["hard", "hard"], "classic", hands=2, seed=3, pause_between_hands=True)
    final = _play(table)[-1]
    assert final["session_end"] == "All 2 hands were played."


def test_ties_share_a_place_and_the_crown() -> None:
    session = Session(Rules(num_players=3))
    session._stacks = [120, 120, 60]  # two players level at the top
    rows = final_ranking(session, ["you", "a", "b"])
    assert [(r["place"], r["winner"]) for r in rows] == [(1, True), (1, True), (3, False)]


def test_the_reason_names_the_winner_and_both_hands() -> None:
    hand = Hand(Rules(num_players=3), [["Jh", "Js", "Kd"], ["Th", "Ts", "Ad"], ["2c", "5d", "9s"]],
                dealer=2)
    hand.apply({"seat": 0, "type": "look"})
    hand.apply({"seat": 0, "type": "bet", "amount": 2})
    hand.apply({"seat": 1, "type": "look"})
    hand.apply({"seat": 1, "type": "bet", "amount": 2})
    hand.apply({"seat": 2, "type": "pack"})
    hand.apply({"seat": 0, "type": "show"})
    assert hand.over
    assert result_reason(hand, ["you", "hard", "easy"]) == (
        "you: pair of jacks, king kicker, beats hard's pair of tens, ace kicker")


def test_the_guide_has_a_sentence_for_every_preset_bot_and_variant() -> None:
    guide = bot_guide(["pretrained:classic", *SCRIPTED_AGENTS])
    assert set(guide["preset_words"]) == set(Rules.PRESET_NAMES)
    assert set(guide["variant_words"]) == set(VARIANTS)
    assert set(STRENGTH_ORDER) == set(SCRIPTED_AGENTS)
    assert guide["bot_order"][:6] == list(STRENGTH_ORDER)
    for bot in SCRIPTED_AGENTS:
        assert guide["bot_guide"][bot]["tables"] is None and guide["bot_guide"][bot]["words"]
    trained = guide["bot_guide"]["pretrained:classic"]
    assert "4-player" in trained["words"] and trained["fits"].startswith("it plays only 4-player")
    assert ["classic", "classic", 4] in trained["tables"]
    assert ["classic", "muflis", 4] not in trained["tables"]
    assert all(players == 4 for _, _, players in trained["tables"])


@pytest.mark.parametrize("players", [3, 5, 6, 7])
def test_a_trained_bot_that_does_not_fit_is_listed_as_such(players: int) -> None:
    tables = bot_tables("pretrained:classic")
    assert tables is not None
    assert ("classic", "classic", players) not in tables
    with pytest.raises(ValueError):
        PlayTable(["pretrained:classic"] * (players - 1), "classic")
    PlayTable(["equity"] * (players - 1), "classic")  # the fallback sits anywhere


def test_how_to_play_states_the_tables_prices_and_limits() -> None:
    flash = " ".join(how_to_play(Rules.preset("flash")))
    assert "at most 32" in flash and "256" in flash and "4 blind bets" in flash
    pagat = " ".join(how_to_play(Rules.preset("pagat")))
    assert "no limit to blind bets" in pagat and "see each other's hands" in pagat
    classic = " ".join(how_to_play(Rules.preset("classic")))
    assert "only who packed" in classic and "on a tie the one who asked loses" in classic
    muflis = table_guide(Rules.preset("classic", variant="muflis"))
    assert "weakest hand wins" in " ".join(muflis["how_to_play"])
    assert muflis["variant_words"].startswith("Lowball")


def test_your_hand_is_named_once_you_have_looked_and_not_before() -> None:
    table = PlayTable(["hard", "hard"], "classic", hands=1, seed=4, pause_between_hands=True)
    assert table.state()["my_hand"] is None  # blind: nothing told
    table.act({"type": "look"})
    mine = table.state()["my_hand"]
    assert mine is not None and len(mine["played"]) == 3
    assert sorted(p["card"] for p in mine["played"]) == sorted(table.state()["view"]["cards"])
    assert mine["hand_name"].split()[0] in ("high", "pair", "colour", "sequence", "pure",
                                            "trail")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_cards_that_count_make_the_seats_value_in_every_variant(variant: str) -> None:
    rules = Rules.preset("classic", variant=variant, num_players=4)
    for seed in range(8):
        hand = Hand.deal(rules, [100] * 4, 0, np.random.default_rng(seed))
        for seat in range(4):
            if not hand.dealt_in[seat] or hand.hands[seat] is None or hand.burst[seat]:
                continue
            usable, wild = hand.usable_cards(seat)
            if len(usable) + rules.spec.imagined_card < 3:
                continue
            shown = played_hand(hand, seat)
            counted = [p for p in shown["played"] if p["counts"]]
            assert len(counted) == 3
            made = [parse_card(p["as"] or p["card"]) for p in counted]
            assert evaluate_hand(made, rules) == hand.hand_value(seat)
            for p in counted:  # only wild (or imaginary) cards become something else
                if p["card"] is not None and p["as"] is not None:
                    assert wild[usable.index(parse_card(p["card"]))]


def test_the_terminal_summary_says_why_in_the_same_words() -> None:
    from interfaces.play import hand_end_text

    table = PlayTable(["hard", "medium"], "classic", hands=10, seed=0, pause_between_hands=True)
    for state in _play(table):
        end = state["hand_end"]
        if end and end["reason"]:
            text = hand_end_text(state["hands_played"], end, state["players"])
            assert f"  why: {end['reason']}" in text.splitlines()
            return
    raise AssertionError("no hand was shown down")


def test_draws_and_keeps_replay_quickly_and_bets_do_not() -> None:
    table = PlayTable(["equity", "equity", "equity"], Rules.preset("classic", variant="shopping"),
                      hands=1, seed=3, pause_between_hands=True)
    quick: dict[bool, list[str]] = {True: [], False: []}
    for _ in range(400):
        state = table.state()
        for step in state["steps"]:
            quick[step["quick"]] += step["lines"]
        if table.over or state["between_hands"]:
            break
        kinds = {m["type"]: m for m in state["moves"]}
        kind = next(k for k in ("keep", "accept", "look", "show", "bet", "pack") if k in kinds)
        amounts = kinds[kind].get("amounts")
        table.act({"type": kind, **({"amount": amounts[0]} if amounts else {})})
    assert any("draws a card" in line for line in quick[True])
    assert all(("draws" in line or "discards" in line or "keep" in line)
               for line in quick[True])
    assert any(" bets " in line or " bet " in line for line in quick[False])
    assert not any("draws a card" in line for line in quick[False])
