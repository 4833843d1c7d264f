"""Sessions of many hands in the arena (:mod:`agents.arena.sessions`)."""

from __future__ import annotations

import pytest

from agents.arena.sessions import play_session, session_match, session_rules
from teenpatti_env.rules import Rules


def test_an_agent_against_copies_of_itself_is_level_to_the_chip() -> None:
    """With every seat the same agent, each seat's deal is the same session, and the
    seats' edges over the mean of the others sum to zero: the figure is exactly zero."""
    report = session_match("medium", "medium", sessions=3, hands=8, seed=4)
    assert report.edge.mean == pytest.approx(0.0, abs=1e-9)
    assert report.edge.std_error == pytest.approx(0.0, abs=1e-9)


def test_a_stronger_agent_finishes_sessions_with_more_chips() -> None:
    report = session_match("hard", "random", sessions=6, hands=15, players=3, seed=2)
    assert report.edge.low > 0, report.line()
    assert report.players == 3 and report.hands == 15 and report.edge.hands == 6


def test_a_session_ends_at_its_hand_limit_with_every_chip_accounted_for() -> None:
    rules = session_rules("classic", 4, 5)
    assert rules.max_hands == 5 and rules.num_players == 4
    edge = play_session("equity", "easy", rules, seat=2, seed=9)
    # the edge is the seat's chips less the others' mean, in boots of a 400-boot table
    assert -400 / 3 <= edge <= 400


def test_bad_session_matches_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="at least 2 session deals"):
        session_match("hard", "random", sessions=1)
    with pytest.raises(ValueError, match="4 seats"):
        session_match("pretrained:classic", "random", sessions=2, players=5,
                      rules=Rules.preset("classic"))


def test_a_policy_family_plays_its_session_member_at_session_tables() -> None:
    """``pretrained:general`` at four classic seats with a 100-hand limit plays the member
    trained there (``general-classic-4-session.npz``), seat for seat: its sessions are
    that member's to the chip, and not those of its first member (the one-hand one)."""
    rules = session_rules("classic", 4, 100)
    family = [play_session("pretrained:general", "equity", rules, seat, seed=11)
              for seat in range(4)]
    member = [play_session("ppo:agents/pretrained/general-classic-4-session.npz", "equity",
                           rules, seat, seed=11) for seat in range(4)]
    first = [play_session("ppo:agents/pretrained/general-classic-4.npz", "equity", rules,
                          seat, seed=11) for seat in range(4)]
    assert family == member
    assert family != first
