"""The hand histories in docs/examples replay, through ``replay`` and ``teenpatti replay``,
to the results the docs describe: the rules decide them, not the files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from interfaces.cli import main
from teenpatti_env import Rules, compare_hands, replay

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
HISTORIES = sorted(
    path for path in EXAMPLES.glob("*.json")
    if json.loads(path.read_text()).get("format") == "teenpatti-hand/1"
)


def _load(name: str) -> dict[str, Any]:
    history: dict[str, Any] = json.loads((EXAMPLES / name).read_text())
    return history


def test_the_examples_hold_a_classic_and_a_variant_hand() -> None:
    variants = {Rules.of(_load(p.name)["rules"]).variant for p in HISTORIES}
    assert "classic" in variants and len(variants) >= 2


@pytest.mark.parametrize("path", HISTORIES, ids=lambda p: p.name)
def test_teenpatti_replay_reads_every_example(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    result = replay(json.loads(path.read_text()))
    assert printed == json.loads(json.dumps(result))
    assert result["over"] and result["pot"] == 0
    assert sum(result["net"]) == 0


def test_classic_example_sideshow_then_all_in_with_a_side_pot() -> None:
    history = _load("classic_sideshow_side_pot.json")
    result = replay(history)
    rules = Rules.of(history["rules"])
    cards = history["cards"]
    assert sum(result["stacks"]) == sum(history["stacks"])

    # The sideshow was accepted and the lower of the two hands packed (RULES 3.5).
    (ask,) = [i for i, a in enumerate(history["actions"]) if a["type"] == "sideshow"]
    assert history["actions"][ask + 1]["type"] == "accept"
    asker, target = history["actions"][ask]["seat"], history["actions"][ask + 1]["seat"]
    asker_wins = compare_hands(cards[asker], cards[target], rules) > 0
    loser = target if asker_wins else asker
    assert result["packed"][loser] and not result["packed"][asker if asker_wins else target]

    # One seat is all-in; it can win only the main pot, cut at its contribution (RULES 5).
    (short,) = [s for s, all_in in enumerate(result["all_in"]) if all_in]
    level = result["contributions"][short]
    main_pot = sum(min(chips, level) for chips in result["contributions"])
    side_pot = sum(result["contributions"]) - main_pot
    (other,) = [s for s in range(len(cards))
                if s != short and not result["packed"][s]]
    assert result["end"] == "showdown" and set(result["shown"]) == {short, other}
    assert compare_hands(cards[short], cards[other], rules) > 0  # the short stack wins ...
    assert result["payouts"][short] == main_pot > 0
    assert result["payouts"][other] == side_pot > 0  # ... and the side pot is the other's


def test_variant_example_is_won_by_the_wild_card() -> None:
    history = _load("joker_show.json")
    result = replay(history)
    assert result["end"] == "show"
    (winner,) = [s for s, paid in enumerate(result["payouts"]) if paid]
    wild_rank = history["indicators"][0][0]
    assert any(card[0] == wild_rank for card in history["cards"][winner])
    # The same play without the joker: the other shown hand takes the pot.
    plain = dict(history, rules="classic")
    del plain["indicators"]
    (plain_winner,) = [s for s, paid in enumerate(replay(plain)["payouts"]) if paid]
    assert plain_winner != winner and plain_winner in result["shown"]
