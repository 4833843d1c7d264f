"""The betting rules written once (teenpatti_env/rules/betting.py, pots.py) for both engines.

Worked examples of the bet range and the refusals; the per-table engine's legal list is
exactly the actions its check lets through, with the words of the same check; the batch's
compiled copies answer as the plain functions do; and neither engine restates a rule the
shared module holds (the check in CI that ``environment/`` defines no rule of its own).
"""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from builders.batched import random_rules, random_stacks
from hypothesis import given, settings
from hypothesis import strategies as st

from teenpatti_env.engine import Hand
from teenpatti_env.environment.batch_state import compile_rules
from teenpatti_env.rules import Rules
from teenpatti_env.rules import betting as rules_betting
from teenpatti_env.rules import pots as rules_pots
from teenpatti_env.rules import turns as rules_turns
from teenpatti_env.rules.betting import (
    NOT_SHORT,
    OK,
    P_MAX_BET,
    P_POT_LIMIT,
    SHOW_SEEN_VS_BLIND,
    SIDESHOW_FEW,
    SIDESHOW_TARGET_BLIND,
    bet_range,
    reason,
    settle_bet,
    show_problem,
    sideshow_problem,
)
from teenpatti_env.rules.turns import (
    GOES_ON,
    LAST_PLAYER_WINS,
    SHORT_TURN,
    SHOW,
    SHOWDOWN,
    after_action,
    open_betting,
)

PACKAGE = Path(__file__).parents[1] / "teenpatti_env"
CARDS = [["As", "Kd", "2c"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"], ["4h", "5d", "Jc"]]


# ----------------------------------------------------------------- worked examples


def test_bet_range_worked_by_hand() -> None:
    classic = Rules().settings  # raise_multiple 2, no max_bet, no pot limit
    assert bet_range(classic, 1, False, 100, 4, 0) == (1, 2)  # blind: S..2S
    assert bet_range(classic, 3, True, 100, 4, 0) == (6, 12)  # seen: 2S..4S
    assert bet_range(classic, 3, True, 11, 4, 0) == (6, 10)  # the stack, even when seen
    assert bet_range(classic, 3, True, 11, 4, 1) == (6, 10)  # 11 - 1 kept is 10
    assert bet_range(classic, 3, True, 7, 4, 1) == (6, 6)
    low, high = bet_range(classic, 3, True, 6, 4, 1)  # a chaal leaving a chip: none
    assert low > high
    capped = Rules(max_bet=10).settings
    assert capped[P_MAX_BET] == 10
    assert bet_range(capped, 4, True, 100, 4, 0) == (8, 10)  # max_bet caps a seen bet
    assert bet_range(capped, 4, False, 100, 4, 0) == (4, 5)  # and half of it a blind one
    pot_limit = Rules(pot_limit_betting=True, raise_multiple=4).settings
    assert pot_limit[P_POT_LIMIT] == 1
    assert bet_range(pot_limit, 2, False, 100, 5, 0) == (2, 5)  # no bet above the pot
    assert bet_range(pot_limit, 2, True, 100, 7, 0) == (4, 6)  # the pot, made even


def test_show_and_sideshow_worked_by_hand() -> None:
    classic = Rules().settings

    def seats(packed: list[bool], seen: list[bool]) -> tuple[list[Any], ...]:
        # STACK, CONTRIB, DEALT, PACKED, SEEN, ALL_IN, BLIND_BETS
        return [50] * 4, [1] * 4, [True] * 4, packed, seen, [False] * 4, [0] * 4

    two_left = [False, True, False, True]  # seats 0 and 2 left
    assert show_problem(0, 2, seats(two_left, [False] * 4), 2) == OK
    assert show_problem(0, 2, seats(two_left, [True, False, False, False]),
                        2) == SHOW_SEEN_VS_BLIND
    assert sideshow_problem(classic, 0, 2, seats(two_left, [True] * 4), 2, 10) == SIDESHOW_FEW
    # Seat 0 asks seat 3 (its right); blind there, the target has not seen.
    assert sideshow_problem(classic, 0, 4, seats([False] * 4, [True, True, True, False]), 2,
                            10) == SIDESHOW_TARGET_BLIND
    assert sideshow_problem(classic, 0, 4, seats([False] * 4, [True] * 4), 2, 10) == OK
    assert reason(NOT_SHORT) == "all-in is only for a player who cannot cover the minimum bet"


def _record(stacks: list[int], packed: list[bool], all_in: list[bool],
            seen: list[bool] | None = None) -> tuple[list[Any], ...]:
    """A seat record (STACK, CONTRIB, DEALT, PACKED, SEEN, ALL_IN, BLIND_BETS), all dealt."""
    n = len(stacks)
    return (list(stacks), [0] * n, [True] * n, list(packed), list(seen or [False] * n),
            list(all_in), [0] * n)


def test_what_ends_the_betting_worked_by_hand() -> None:
    classic, capped = Rules().settings, Rules(pot_cap=40).settings
    showdown = Rules(short_stack="showdown").settings
    free = [False] * 4
    seats = _record([50] * 4, free, free)
    # Four seats betting: the turn passes left, from the last seat round to seat 0.
    assert after_action(classic, seats, 10, 2, 4, 4, 1, -1) == (GOES_ON, 2)
    assert after_action(classic, seats, 10, 2, 4, 4, 3, -1) == (GOES_ON, 0)
    # Seat 2 packed, seat 3 all-in: from seat 1 the turn skips both.
    seats = _record([50, 50, 50, 0], [False, False, True, False], [False, False, False, True])
    assert after_action(classic, seats, 10, 2, 3, 2, 1, -1) == (GOES_ON, 0)
    # One seat left wins before the cap is asked; the cap before a show; a show asked.
    assert after_action(capped, seats, 45, 2, 1, 1, 1, -1) == (LAST_PLAYER_WINS, -1)
    assert after_action(capped, seats, 45, 2, 2, 2, 1, 1) == (SHOWDOWN, -1)
    assert after_action(capped, seats, 39, 2, 2, 2, 1, 1) == (SHOW, -1)
    # Nobody left to bet against (one seat that can bet, the others all-in).
    assert after_action(classic, seats, 10, 2, 3, 1, 1, -1) == (SHOWDOWN, -1)
    # short_stack="showdown": an empty stack in the hand shows at once; a short seat to
    # act shows once the turn reached it (its 3 chips are below a seen bet of 4).
    assert after_action(showdown, _record([50, 0, 50, 50], free, free), 10, 2, 4, 4, 1,
                        -1) == (SHOWDOWN, -1)
    short = _record([50, 50, 3, 50], free, free, seen=[False, False, True, False])
    assert after_action(showdown, short, 10, 2, 4, 4, 1, -1) == (SHORT_TURN, 2)
    assert after_action(classic, short, 10, 2, 4, 4, 1, -1) == (GOES_ON, 2)
    # The first turn is the dealer's left, unless the boots reached the cap.
    assert open_betting(classic, _record([50] * 4, free, free), 4, 1, 4, 3) == (GOES_ON, 0)
    assert open_betting(Rules(pot_cap=4).settings, _record([50] * 4, free, free), 4, 1, 4,
                        3) == (SHOWDOWN, -1)


def test_what_a_bet_does_worked_by_hand() -> None:
    classic, pack = Rules().settings, Rules(short_stack="pack").settings
    seats = _record([10, 0, 0, 5], [False] * 4, [False] * 4, seen=[False, True, False, True])
    assert settle_bet(classic, seats, 0, 3) == 3  # blind: the stake is the bet
    assert seats[6][0] == 1 and not seats[5][0]  # one blind bet, chips left
    assert settle_bet(classic, seats, 1, 8) == 4  # seen: half of it; no blind bet
    assert seats[6][1] == 0 and seats[5][1] is True  # its last chips: all-in
    assert settle_bet(pack, seats, 2, 2) == 2 and not seats[5][2]  # short_stack="pack"


def test_the_engine_words_a_refusal_from_the_shared_check() -> None:
    hand = Hand(Rules(num_players=4), CARDS)
    seat = hand.to_act
    assert hand.illegal_reason({"seat": seat, "type": "all_in"}) == reason(NOT_SHORT)
    assert hand.illegal_reason({"seat": seat, "type": "bet", "amount": 3}) == (
        "a bet must be 1..2, got 3")
    assert hand.illegal_reason({"seat": seat, "type": "show"}) == (
        "a show needs exactly two players in the hand")
    assert hand.illegal_reason({"seat": seat, "type": "sideshow", "amount": 2}) == (
        "a blind player cannot ask for a sideshow")


# ----------------------------------------------------------------- legal == check passes

BETTING_KINDS = ("look", "pack", "bet", "all_in", "show", "sideshow")


def _probe(hand: Hand, kind: str) -> dict[str, Any]:
    """The action of ``kind`` for the seat to act, at its smallest amount."""
    seat = hand.to_act
    action: dict[str, Any] = {"seat": seat, "type": kind}
    if kind in ("bet", "sideshow"):
        bounds = hand.bet_range(seat, keep=1 if kind == "sideshow" else 0)
        action["amount"] = bounds[0] if bounds else hand.min_bet(seat)
    return action


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_legal_list_is_exactly_the_actions_the_check_lets_through(seed: int) -> None:
    rng = np.random.default_rng(seed)
    draw = random.Random(seed)
    rules = random_rules(rng)
    hand = Hand.deal(rules, random_stacks(rules, rng), int(rng.integers(rules.num_players)),
                     rng)
    while not hand.over:
        legal = hand.legal_actions()
        listed = {action["type"] for action in legal}
        if hand.pending_sideshow is None:
            for kind in BETTING_KINDS:
                assert (hand.illegal_reason(_probe(hand, kind)) is None) == (kind in listed), (
                    kind, legal, hand.illegal_reason(_probe(hand, kind)))
        action = dict(draw.choice(legal))
        if "min" in action:
            amount = draw.randint(action.pop("min"), action.pop("max"))
            action["amount"] = amount - (amount & 1) if hand.seen[hand.to_act] else amount
        hand.apply({"seat": hand.to_act, **action})


# ----------------------------------------------------------------- compiled == plain


@pytest.fixture(scope="module")
def compiled() -> Any:
    return compile_rules(rules_betting)


def test_the_batch_compiles_the_same_functions(compiled: Any) -> None:
    turns = compile_rules(rules_turns)
    rng = np.random.default_rng(7)
    for _ in range(300):
        rules = random_rules(rng)
        plain = rules.settings
        params = np.asarray(plain, dtype=np.int64)
        n = int(rng.integers(3, 8))
        dealt = rng.random(n) < 0.9
        packed = rng.random(n) < 0.3
        all_in = (rng.random(n) < 0.2) & ~packed
        seen = rng.random(n) < 0.5
        stacks = rng.integers(0, 40, size=n)
        stake, pot = int(rng.integers(1, 6)), int(rng.integers(0, 60))
        in_hand = int((dealt & ~packed).sum())
        s = int(rng.integers(n))
        record = np.zeros((7, n), dtype=np.int64)  # STACK .. BLIND_BETS, as the batch's
        for field, values in ((0, stacks), (2, dealt), (3, packed), (4, seen), (5, all_in)):
            record[field] = values
        plain_record = tuple([int(x) for x in row] for row in record)
        keep = int(rng.integers(2))
        stack = int(stacks[s])
        assert compiled.bet_range(params, stake, bool(seen[s]), stack, pot, keep) == (
            bet_range(plain, stake, bool(seen[s]), stack, pot, keep))
        assert compiled.show_problem(s, in_hand, record, stake) == show_problem(
            s, in_hand, plain_record, stake)
        assert compiled.sideshow_problem(params, s, in_hand, record, stake, pot) == (
            sideshow_problem(plain, s, in_hand, plain_record, stake, pot))
        for seen_only in (0, 1):
            assert compiled.previous_player(s, seen_only, record) == (
                rules_betting.previous_player(s, seen_only, plain_record))
        assert compiled.all_in_problem(params, stake, bool(seen[s]), stack) == (
            rules_betting.all_in_problem(plain, stake, bool(seen[s]), stack))
        can_bet = int((dealt & ~packed & ~all_in).sum())
        show_asker = s if rng.random() < 0.2 else -1
        assert turns.after_action(params, record, pot, stake, in_hand, can_bet, s,
                                  show_asker) == rules_turns.after_action(
            plain, plain_record, pot, stake, in_hand, can_bet, s, show_asker)
        assert turns.open_betting(params, record, pot, stake, can_bet, s) == (
            rules_turns.open_betting(plain, plain_record, pot, stake, can_bet, s))
        if stack >= 1:
            amount = int(rng.integers(1, stack + 1))
            record[0, s] -= amount
            plain_record[0][s] -= amount
            assert compiled.settle_bet(params, record, s, amount) == settle_bet(
                plain, plain_record, s, amount)
            assert [list(row) for row in record] == [list(map(int, r)) for r in plain_record]


# ----------------------------------------------------------------- no second text

SHARED_SETTINGS = ("P_RAISE", "P_MAX_BET", "P_POT_LIMIT", "P_MAX_BLIND", "P_SIDESHOW",
                   "P_TARGET_SEEN", "P_ALL_SEEN", "P_POT_CAP", "P_SHORT")
"""The settings only the shared betting rules read (bet range, blind limit, show and
sideshow, the pot cap and the short stacks of the turns and of a bet)."""
SHARED_RULE_ATTRIBUTES = ("raise_multiple", "max_bet", "pot_limit_betting",
                          "max_blind_bets", "sideshow", "sideshow_target",
                          "sideshow_requires_all_seen", "pot_cap")
"""The same settings by their ``Rules`` names."""
ADAPTERS = ("previous_player", "at_blind_limit", "min_bet", "bet_range", "other_in_hand",
            "show_allowed", "sideshow_target", "sideshow_allowed", "all_in_allowed",
            "cap_reached", "short_shows", "left_all_in")
"""The batch's names for the shared rules: each only reads the arguments out of the
batch's arrays and calls the compiled shared function."""


def _functions(path: Path) -> dict[str, ast.FunctionDef]:
    tree = ast.parse(path.read_text())
    return {node.name: node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}


def test_environment_reads_no_setting_of_the_shared_betting_rules() -> None:
    for path in sorted((PACKAGE / "environment").glob("batch_*.py")):
        names = {node.id for node in ast.walk(ast.parse(path.read_text()))
                 if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
        assert not names & set(SHARED_SETTINGS), (path.name, names & set(SHARED_SETTINGS))


def test_the_engine_reads_no_setting_of_the_shared_betting_rules() -> None:
    for path in sorted((PACKAGE / "engine").glob("*.py")):
        read = {node.attr for node in ast.walk(ast.parse(path.read_text()))
                if isinstance(node, ast.Attribute) and (
                    (isinstance(node.value, ast.Attribute) and node.value.attr == "rules")
                    or (isinstance(node.value, ast.Name) and node.value.id == "rules"))}
        assert not read & set(SHARED_RULE_ATTRIBUTES), (path.name, read)


def test_the_batch_rules_only_call_the_shared_functions() -> None:
    functions = _functions(PACKAGE / "environment" / "batch_rules.py")
    for name in ADAPTERS:
        body = functions[name].body
        if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]  # the docstring
        assert len(body) == 1 and isinstance(body[0], ast.Return), name
        called = [node.func.id for node in ast.walk(body[0])
                  if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)]
        assert called and all(callee.startswith("_") or callee in ADAPTERS
                               for callee in called), (name, called)


SHARED_CALLS = {
    "after_action": {"_after_action"},
    "start_betting": {"_open_betting"},
    "apply_action": {"_settle_bet", "_bet_stake", "_asker_wins"},
    "resolve_show": {"_asker_wins"},
}
"""The batch's turns and action effects, and the shared functions each calls for them."""


def test_the_batch_turns_and_bets_are_the_shared_functions() -> None:
    functions = _functions(PACKAGE / "environment" / "batch_rules.py")
    for name, shared in SHARED_CALLS.items():
        called = {node.func.id for node in ast.walk(functions[name])
                  if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
        assert shared <= called, (name, shared - called)
    for path in sorted((PACKAGE / "environment").glob("batch_*.py")):
        tree = ast.parse(path.read_text())
        halves = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.BinOp)
                  and isinstance(node.op, ast.FloorDiv) and isinstance(node.right, ast.Constant)
                  and node.right.value == 2]
        assert not halves, (path.name, halves)  # no second text of a seen bet's stake
        loops = [node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
                 and node.name in ("pass_turn", "next_to_act", "betting_end",
                                   "empty_stack_showdown")]
        assert not loops, (path.name, loops)  # the turn passes in rules/turns.py only


# ----------------------------------------------------------------- side pots, odd chip


def test_the_batch_divides_the_pot_with_the_same_function() -> None:
    pots = compile_rules(rules_pots)
    rng = np.random.default_rng(11)
    for _ in range(400):
        n = int(rng.integers(2, 8))
        record = np.zeros((7, n), dtype=np.int64)  # STACK .. BLIND_BETS, as the batch's
        record[2] = rng.random(n) < 0.9  # dealt
        record[3] = (rng.random(n) < 0.3) & (record[2] == 1)  # packed
        record[5] = (rng.random(n) < 0.5) & (record[3] == 0) & (record[2] == 1)  # all-in
        record[1] = rng.integers(0, 12, size=n) * record[2]  # contributions
        values = np.where((record[2] == 1) & (record[3] == 0), rng.integers(0, 4, size=n), -1)
        dealer = int(rng.integers(n))
        plain_record = tuple([int(x) for x in row] for row in record)
        plain_payouts = [0] * n
        rules_pots.divide_pot(plain_record, [int(v) for v in values], dealer, [0] * n,
                              plain_payouts)
        payouts = np.zeros(n, dtype=np.int64)
        pots.divide_pot(record, values, dealer, np.zeros(n, dtype=np.int64), payouts)
        assert list(payouts) == plain_payouts
        if ((record[2] == 1) & (record[3] == 0)).any():  # someone may win: every chip paid
            assert sum(plain_payouts) == int(record[1].sum())


def test_the_batch_showdown_is_the_shared_division() -> None:
    functions = _functions(PACKAGE / "environment" / "batch_rules.py")
    called = {node.func.id for node in ast.walk(functions["showdown"])
              if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    assert "_divide_pot" in called
    for path in sorted((PACKAGE / "environment").glob("batch_*.py")):
        assigned = {node.id for node in ast.walk(ast.parse(path.read_text()))
                    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
        assert not assigned & {"levels", "odd", "carried"}, path.name  # no second slicing
