"""Dealer's choice (C1) and family specials loaded from files (C2).

Every expectation was worked out by hand from VARIANTS.md ("Phases", "Dealer's choice,
timers, voting", "Hand history fields for variants" and the readings D, S, B, P, J, R, T,
V, C, H) and RULES.md (betting), not from the engine's code; each hand is a
``teenpatti-hand/1`` history replayed with ``replay``, the comments giving the arithmetic
chip by chip. The common table is tests/builders/phases.py's."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from builders.phases import (
    DEFAULT_SPEC,
    act,
    bet,
    check_illegal,
    check_over,
    discard,
    discard_history,
    history,
    kinds,
    prefix,
)

from teenpatti_env import Hand, Rules, history_of, replay
from teenpatti_env.rules.variants import VariantSpec

# ---------------------------------------------------------------- 7. dealer's choice

# The open_joker hand of part 1: fives named, so 5s is wild: 5s + 3h + Kd is K-K-3 and
# beats Q-Q-K. Chips (after the choice): seat 1 bets 1, seat 2 packs, seat 0 bets 1, seat
# 1 (blind) shows for 1: pot 6; contributions [2, 3, 1]; seat 0 wins: net [4, -3, -1].
CHOICE_RULES = {"dealers_choice": ["ak47", "open_joker"]}
CHOICE_CARDS = ["5s 3h", "Qs Qh", "9c 8h"]
OPEN_JOKER_ACTIONS = [bet(1, 1), act(2, "pack"), bet(0, 1), act(1, "show")]


def choice_history(choice: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return history(
        CHOICE_RULES, CHOICE_CARDS, [choice, *OPEN_JOKER_ACTIONS], community=["Kd"], **extra
    )


def test_dealers_choice_is_a_rules_setting() -> None:
    rules = Rules(dealers_choice=["ak47", "open_joker"])
    assert rules.dealers_choice is not None
    assert list(rules.dealers_choice) == ["ak47", "open_joker"]
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    with pytest.raises(ValueError, match="no_such_variant"):
        Rules(dealers_choice=["ak47", "no_such_variant"])


def test_dealers_choice_the_dealer_chooses_first() -> None:
    """C1: the hand begins, before the boots and the deal, with the dealer's choice."""
    start = replay(prefix(choice_history(act(0, "choose_variant", variant="open_joker",
                                             rank="5")), 0))  # fmt: skip
    assert start["to_act"] == 0
    assert kinds(start) == {"choose_variant"}
    (offer,) = start["legal"]
    # V4: the offer lists the variants the history's deal fits (two cards a seat and a
    # community card: open_joker, not ak47, which deals three cards a seat).
    assert offer["variants"] == ["open_joker"]
    assert start["pot"] == 0


@pytest.mark.parametrize(("named", "winner"), [("5", 0), ("8", 1)])
def test_dealers_choice_open_joker_with_the_named_rank(named: str, winner: int) -> None:
    """C1, H3: the rank is part of the choose_variant action; no ``chosen`` field. With
    eights named seat 1 holds no wild: 5-3-K high card loses to Q-Q-K and seat 1 (the
    asker) wins the show: net [-2, 3, -1]."""
    h = choice_history(act(0, "choose_variant", variant="open_joker", rank=named))
    net = [4, -3, -1] if winner == 0 else [-2, 3, -1]
    payouts = [6, 0, 0] if winner == 0 else [0, 6, 0]
    result = replay(h)
    check_over(
        result,
        end="show",
        payouts=payouts,
        net=net,
        stacks=[100 + n for n in net],
        shown={0: ["5s", "3h"], 1: ["Qs", "Qh"]},
    )
    assert result["contributions"] == [2, 3, 1]


def test_dealers_choice_then_a_phase_variant() -> None:
    """C1 with discard_one chosen: the choice, then the discard hand of case 1."""
    base = discard_history("Kc")
    h = {
        **base,
        "rules": {"dealers_choice": ["ak47", "discard_one"], "pot_cap": 9},
        "actions": [act(0, "choose_variant", variant="discard_one"), *base["actions"]],
    }
    after_choice = replay(prefix(h, 1))
    assert after_choice["to_act"] == 1 and kinds(after_choice) == {"discard", "pack"}
    assert after_choice["pot"] == 3
    check_over(
        replay(h),
        end="showdown",
        payouts=[9, 0, 0],
        net=[6, -3, -3],
        stacks=[106, 97, 97],
        shown={0: ["As", "Ah", "Kd"], 1: ["Ks", "Kh", "3d"], 2: ["8d", "6h", "5s"]},
    )


def test_dealers_choice_history_has_no_chosen_field() -> None:
    """H3: under dealer's choice the rank is in the action; a ``chosen`` field is a
    ValueError."""
    good = choice_history(act(0, "choose_variant", variant="open_joker", rank="5"))
    assert replay(good)["end"] == "show"
    with pytest.raises(ValueError, match="chosen"):
        replay({**good, "chosen": {"rank": "5"}})


@pytest.mark.parametrize(
    ("choice", "seat"),
    [
        (act(0, "choose_variant", variant="discard_one"), 0),  # not in the allowed list
        (act(0, "choose_variant", variant="open_joker"), 0),  # open_joker needs a rank
        (act(0, "choose_variant", variant="open_joker", colour="red"), 0),  # not a colour
        (act(0, "choose_variant", variant="open_joker", rank="1"), 0),  # not a rank
        (act(1, "choose_variant", variant="open_joker", rank="5"), 1),  # not the dealer
        (bet(1, 1), 1),  # nothing before the choice
    ],
)
def test_dealers_choice_bad_choices(choice: dict[str, Any], seat: int) -> None:
    check_illegal(choice_history(choice), 0, seat)


# ---------------------------------------------------------------- 8. Family special (C2)

SEVEN_DISCARD = {"private_cards": 4, "phase": "discard_one", "wild": [{"ranks": ["7"]}]}
SEVEN_DISCARD_FULL = {**DEFAULT_SPEC, **SEVEN_DISCARD}
SEVEN_DISCARD_TOML = """\
name = "seven_discard"

[spec]
private_cards = 4
phase = "discard_one"
wild = [{ ranks = ["7"] }]
"""
# Seat 1 keeps Ks Kh 7c (7c wild: a trail of kings); seat 0 keeps As Ah Kd (pair of aces):
# without the family special's sevens seat 0 would win. Seat 1 bets 2 (seen; pot 5), seat
# 2 packs, seat 0 bets 2 (pot 7), seat 1 shows for 2 (pot 9): contributions [3, 5, 1];
# seat 1 takes 9: net [-3, 4, -1].
FAMILY_CARDS = ["As Ah Kd 2c", "Ks Kh 7c 3d", "9c 8d 6h 5s"]
FAMILY_ACTIONS = [
    discard(1, "3d"),
    discard(2, "9c"),
    discard(0, "2c"),
    bet(1, 2),
    act(2, "pack"),
    bet(0, 2),
    act(1, "show"),
]


def write_json(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data))
    return path


def test_family_special_loads_from_json_and_toml(tmp_path: Path) -> None:
    from teenpatti_env.rules.variants import load_variant  # proposed API name (C2)

    data = {"name": "seven_discard", "spec": SEVEN_DISCARD}
    from_json = load_variant(write_json(tmp_path / "seven_discard.json", data))
    toml_path = tmp_path / "seven_discard.toml"
    toml_path.write_text(SEVEN_DISCARD_TOML)
    from_toml = load_variant(toml_path)
    assert isinstance(from_json, VariantSpec)
    assert from_json == from_toml
    assert from_json.name == "seven_discard"
    assert from_json.to_dict() == SEVEN_DISCARD_FULL
    assert load_variant(str(tmp_path / "seven_discard.json")) == from_json  # a str path too


def test_family_special_saves_as_name_and_spec(tmp_path: Path) -> None:
    from teenpatti_env.rules.variants import load_variant, save_variant  # proposed API names

    spec = VariantSpec.from_dict(SEVEN_DISCARD, name="seven_discard")
    path = tmp_path / "mine.json"
    save_variant(spec, path)
    assert json.loads(path.read_text()) == {"name": "seven_discard", "spec": SEVEN_DISCARD_FULL}
    assert load_variant(path) == spec


def test_family_special_hand_embeds_the_full_spec(tmp_path: Path) -> None:
    from teenpatti_env.rules.variants import load_variant  # proposed API name (C2)

    spec = load_variant(write_json(tmp_path / "s.json", {"name": "seven_discard",
                                                          "spec": SEVEN_DISCARD}))  # fmt: skip
    hand = Hand(Rules(variant=spec, num_players=3), [c.split() for c in FAMILY_CARDS], None, 0)
    for action in FAMILY_ACTIONS:
        hand.apply(action)
    saved = history_of(hand)
    assert saved["rules"]["variant"] == {"name": "seven_discard", "spec": SEVEN_DISCARD_FULL}
    assert saved["actions"][:3] == FAMILY_ACTIONS[:3]  # the phase actions are in the history
    result = replay(json.loads(json.dumps(saved)))
    assert result == hand.result()
    check_over(
        result,
        end="show",
        payouts=[0, 9, 0],
        net=[-3, 4, -1],
        stacks=[97, 104, 99],
        shown={0: ["As", "Ah", "Kd"], 1: ["Ks", "Kh", "7c"]},
    )
    # The same hand from a history that names the spec as {"name", "spec"} (C2).
    h = history({"variant": {"name": "seven_discard", "spec": SEVEN_DISCARD}},
                FAMILY_CARDS, FAMILY_ACTIONS)  # fmt: skip
    assert replay(h) == result


@pytest.mark.parametrize(
    ("data", "match"),
    [
        # a name of a built-in variant (part 2 ones included) or of a preset
        ({"name": "shopping", "spec": SEVEN_DISCARD}, "shopping"),
        ({"name": "ak47", "spec": SEVEN_DISCARD}, "ak47"),
        ({"name": "flash", "spec": SEVEN_DISCARD}, "flash"),
        # (P10 and threshold-order rejections already hold: tests/test_family_special.py)
    ],
)  # fmt: skip
def test_family_special_bad_files_are_rejected(
    tmp_path: Path, data: dict[str, Any], match: str
) -> None:
    from teenpatti_env.rules.variants import load_variant  # proposed API name (C2)

    path = write_json(tmp_path / "bad.json", data)
    with pytest.raises(ValueError) as error:
        load_variant(path)
    # the message names the file, whose folder is named after this test's parameters
    assert re.search(match, str(error.value).replace(str(path), "<file>"))


def test_family_special_needing_more_than_52_cards_is_rejected(tmp_path: Path) -> None:
    """C2: 7 seats x 4 cards + 2 community + 23 threshold indicators = 53 > 52; at 6
    seats (24 + 2 + 23 = 49) it fits."""
    from teenpatti_env.rules.variants import load_variant  # proposed API name (C2)

    spec = {"private_cards": 4, "community_cards": 2, "wild": [{"thresholds": list(range(1, 24))}]}
    loaded = load_variant(write_json(tmp_path / "many.json", {"name": "many", "spec": spec}))
    assert Rules(variant=loaded, num_players=6).spec == loaded
    with pytest.raises(ValueError, match="52"):
        Rules(variant=loaded, num_players=7)
