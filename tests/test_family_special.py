"""The table's own named combinations ([002] "Family Special", VARIANTS.md C2): saved as
JSON, loaded from JSON or TOML, checked, and selectable by name wherever a variant name is
accepted (part-1 components; the phases come with variants part 2)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from interfaces.cli import main
from teenpatti_env import Hand, Rules, replay
from teenpatti_env.engine.history import history_of
from teenpatti_env.rules.variants import (
    FAMILY_SPECIALS,
    VARIANTS,
    load_variant,
    register_variant,
    save_variant,
    variant_spec,
)

SEVEN_TWO = {"name": "family_seven", "spec": {"wild": [{"ranks": ["7"]}], "burst_rank": "2"}}
"""Sevens wild, twos burst: the components of ``seven_joker_two_burst`` under a new name."""


@pytest.fixture(autouse=True)
def clean_registry() -> Iterator[None]:
    before = dict(FAMILY_SPECIALS)
    yield
    FAMILY_SPECIALS.clear()
    FAMILY_SPECIALS.update(before)


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_save_writes_name_and_spec_and_load_reads_it_back(tmp_path: Path) -> None:
    path = save_variant(SEVEN_TWO, tmp_path / "family.json")
    data = json.loads(path.read_text())
    assert set(data) == {"name", "spec"} and data["name"] == "family_seven"
    assert data["spec"]["wild"] == [{"ranks": ["7"]}] and data["spec"]["burst_rank"] == "2"
    # every component is written, defaults included
    assert set(data["spec"]) == set(VARIANTS["classic"].to_dict())
    loaded = load_variant(path)
    assert loaded == variant_spec(SEVEN_TWO)
    # the same components as the built-in variant, under the family's own name
    assert loaded.to_dict() == VARIANTS["seven_joker_two_burst"].to_dict()
    assert loaded.name == "family_seven"


def test_toml_with_the_same_keys_loads_the_same_spec(tmp_path: Path) -> None:
    toml = write(tmp_path / "family.toml", """
name = "family_seven"

[spec]
wild = [{ ranks = ["7"] }]
burst_rank = "2"
""")
    json_path = save_variant(SEVEN_TWO, tmp_path / "family.json")
    assert load_variant(toml, register=False) == load_variant(json_path, register=False)


def test_a_loaded_special_is_selectable_by_name(tmp_path: Path) -> None:
    FAMILY_SPECIALS.pop("family_seven", None)
    with pytest.raises(ValueError, match="unknown variant 'family_seven'"):
        Rules(variant="family_seven")
    load_variant(save_variant(SEVEN_TWO, tmp_path / "family.json"))
    rules = Rules(variant="family_seven")
    assert rules.spec.name == "family_seven"
    # Rules carry the full spec, so histories and worker processes need no registry
    assert rules.to_dict()["variant"] == {"name": "family_seven",
                                          "spec": variant_spec(SEVEN_TWO).to_dict()}
    assert Rules.from_dict(rules.to_dict()) == rules


def test_hand_history_embeds_the_full_spec_and_replays(tmp_path: Path) -> None:
    load_variant(save_variant(SEVEN_TWO, tmp_path / "family.json"))
    rules = Rules(variant="family_seven", num_players=3)
    cards = [["7h", "Kd", "3c"], ["Qs", "Qd", "5h"], ["9c", "8d", "4s"]]
    hand = Hand(rules, cards, [100, 100, 100], dealer=2)
    for seat in hand.seat_order():
        hand.look(seat)
    hand.bet(hand.min_bet(hand.to_act))  # seat 0 bets, seat 1 packs, seat 2 asks to show
    hand.pack()
    hand.show()
    assert hand.over
    history = history_of(hand)
    assert history["rules"]["variant"]["name"] == "family_seven"
    assert history["rules"]["variant"]["spec"]["burst_rank"] == "2"
    FAMILY_SPECIALS.clear()  # a history needs no registry
    assert replay(json.loads(json.dumps(history))) == hand.result()


def test_a_seven_is_wild_and_a_two_bursts_under_the_family_spec() -> None:
    special = register_variant(SEVEN_TWO)
    rules = Rules(variant=special, num_players=3)
    # Seat 1 holds a two: it bursts at the deal. Seat 0's seven stands for the third king.
    hand = Hand(rules, [["7h", "Kd", "Kc"], ["2s", "Ad", "Ah"], ["9c", "9d", "4s"]],
                [100, 100, 100], dealer=2)
    assert not hand.over  # two seats are left to bet
    burst = [e for e in hand.public_events() if e.get("type") == "burst"]
    assert [e["seats"] for e in burst] == [[1]]
    assert hand.hand_value(0) == Hand(Rules(), [["Kh", "Kd", "Kc"], ["2c", "3d", "5h"],
                                                 ["9c", "9d", "4s"]],
                                      [100, 100, 100], dealer=2).hand_value(0)


@pytest.mark.parametrize(
    ("data", "match"),
    [
        ({"name": "ak47", "spec": {"lowball": True}}, "built-in variant"),
        ({"name": "open_shop", "spec": {"visibility": "all_open", "buy_a_joker": True}},
         "all_open"),
        ({"name": "big_pass", "spec": {"private_cards": 4, "phase": "passing"}}, "passing"),
        ({"name": "steps", "spec": {"wild": [{"thresholds": [20, 10]}]}}, "thresholds"),
        ({"name": "two_cards", "spec": {"private_cards": 2}}, "three"),
        ({"name": "x", "spec": {"wild": [{"ranks": ["7"]}], "colour": "red"}}, "colour"),
        ({"name": "x"}, "exactly 'name' and 'spec'"),
        ({"name": "x", "spec": {}, "extra": 1}, "exactly 'name' and 'spec'"),
        ([1, 2], "exactly 'name' and 'spec'"),
        ({"name": None, "spec": {}}, "needs a name"),
        ({"name": 7, "spec": {}}, "string"),
    ],
)  # fmt: skip
def test_bad_files_are_rejected_and_register_nothing(
    tmp_path: Path, data: Any, match: str
) -> None:
    path = write(tmp_path / "bad.json", json.dumps(data))
    before = dict(FAMILY_SPECIALS)
    with pytest.raises(ValueError) as error:
        load_variant(path)
    message = str(error.value)
    assert message.startswith(repr(str(path)))  # names the file
    assert re.search(match, message.replace(str(path), "<file>"))
    assert before == FAMILY_SPECIALS


@pytest.mark.parametrize(
    ("name", "text", "match"),
    [
        ("special.json", "{not json", "not valid JSON"),
        ("special.toml", "name = ", "not valid TOML"),
        ("special.yaml", "name: x", r"\.json or \.toml"),
        ("special.json", "\xff\xfe", "not valid JSON"),
    ],
)
def test_malformed_files_are_clear_errors(
    tmp_path: Path, name: str, text: str, match: str
) -> None:
    path = tmp_path / name
    path.write_bytes(text.encode("latin-1"))
    with pytest.raises(ValueError, match=match):
        load_variant(path)
    with pytest.raises(ValueError, match="cannot read"):
        load_variant(tmp_path / "missing.json")


def test_registry_rules(tmp_path: Path) -> None:
    first = register_variant(SEVEN_TWO)
    assert register_variant(SEVEN_TWO) == first  # the same spec again is fine
    with pytest.raises(ValueError, match="already registered"):
        register_variant({"name": "family_seven", "spec": {"lowball": True}})
    with pytest.raises(ValueError, match="needs a name"):
        register_variant({"lowball": True})
    with pytest.raises(ValueError, match="built-in"):
        register_variant({"name": "muflis", "spec": {"private_cards": 4}})
    with pytest.raises(ValueError, match=r"saved as \.json"):
        save_variant(SEVEN_TWO, tmp_path / "family.toml")
    with pytest.raises(ValueError, match="needs a name"):
        save_variant({"lowball": True}, tmp_path / "unnamed.json")
    # a spec named like a preset is refused, registered or used directly
    with pytest.raises(ValueError, match="name of a preset"):
        register_variant({"name": "flash", "spec": {"lowball": True}})
    with pytest.raises(ValueError, match="name of a preset"):
        Rules(variant={"name": "flash", "spec": {"lowball": True}})


def test_cli_takes_a_family_special_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = save_variant(SEVEN_TWO, tmp_path / "family.json")
    assert main(["arena", "--variant", str(path), "--agents", "hard,equity", "--hands", "40",
                 "--out", str(tmp_path / "out"), "--quiet", "--workers", "1"]) == 0
    report = json.loads((tmp_path / "out" / "arena.json").read_text())
    assert report["rules"]["variant"]["name"] == "family_seven"
    capsys.readouterr()
    assert main(["demo", "--variant", str(tmp_path / "missing.toml")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("teenpatti: cannot read")
