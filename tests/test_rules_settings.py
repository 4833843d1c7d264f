"""Rules settings and presets (RULES.md section 8)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from teenpatti_env import PRESETS, Rules

FIELDS = [
    "num_players",
    "boot",
    "starting_boots",
    "best_sequence",
    "raise_multiple",
    "max_blind_bets",
    "max_bet",
    "pot_cap",
    "pot_limit_betting",
    "sideshow",
    "sideshow_target",
    "sideshow_requires_all_seen",
    "sideshow_reveal",
    "look_anytime",
    "short_stack",
    "entry_minimum",
    "lowball",
    "max_hands",
    "variant",
]

# RULES.md section 8 table, column by column.
TABLE = {
    "classic": dict(
        num_players=4,
        boot=1,
        starting_boots=100,
        best_sequence="AKQ",
        raise_multiple=2,
        max_blind_bets=4,
        max_bet=None,
        pot_cap=None,
        pot_limit_betting=False,
        sideshow=True,
        sideshow_target="previous",
        sideshow_requires_all_seen=False,
        sideshow_reveal="none",
        look_anytime=True,
        short_stack="all_in",
        entry_minimum="boot",
        lowball=False,
        max_hands=None,
        variant="classic",
    ),
    "pagat": dict(
        num_players=4,
        boot=1,
        starting_boots=100,
        best_sequence="A23",
        raise_multiple=2,
        max_blind_bets=None,
        max_bet=None,
        pot_cap=None,
        pot_limit_betting=False,
        sideshow=True,
        sideshow_target="previous",
        sideshow_requires_all_seen=True,
        sideshow_reveal="private",
        look_anytime=False,
        short_stack="all_in",
        entry_minimum="boot",
        lowball=False,
        max_hands=None,
        variant="classic",
    ),
    "flash": dict(
        num_players=4,
        boot=2,
        starting_boots=50,
        best_sequence="A23",
        raise_multiple=2,
        max_blind_bets=4,
        max_bet=32,
        pot_cap=256,
        pot_limit_betting=False,
        sideshow=True,
        sideshow_target="previous",
        sideshow_requires_all_seen=False,
        sideshow_reveal="private",
        look_anytime=True,
        short_stack="pack",
        entry_minimum="boot",
        lowball=False,
        max_hands=5,
        variant="classic",
    ),
    "tabletop": dict(
        num_players=4,
        boot=10,
        starting_boots=100,
        best_sequence="AKQ",
        raise_multiple=2,
        max_blind_bets=4,
        max_bet=100,
        pot_cap=None,
        pot_limit_betting=False,
        sideshow=True,
        sideshow_target="previous_seen",
        sideshow_requires_all_seen=False,
        sideshow_reveal="private",
        look_anytime=True,
        short_stack="showdown",
        entry_minimum="boot_plus_seen_bet",
        lowball=False,
        max_hands=None,
        variant="classic",
    ),
}


def _variant_name(v):
    # `variant` is "name or spec"; a preset stores the name "classic" (or an equivalent spec
    # whose name is "classic").
    if isinstance(v, str):
        return v
    if isinstance(v, dict):
        return v.get("name")
    return getattr(v, "name", v)


VARIANT_SETTINGS = ["dealers_choice", "vote_to_end"]
"""Table settings that VARIANTS.md adds to Rules (C3)."""


def test_fields_are_exactly_section_8():
    """api.md / RULES 8: Rules has exactly the section 8 settings as fields, plus the
    table settings of VARIANTS.md."""
    assert sorted(f.name for f in dataclasses.fields(Rules)) == sorted(FIELDS + VARIANT_SETTINGS)
    assert set(Rules().to_dict()) == set(FIELDS + VARIANT_SETTINGS)


@pytest.mark.parametrize("name", list(TABLE))
def test_preset_values(name):
    """RULES 8: each preset's settings exactly as the table."""
    r = Rules.preset(name)
    for key, value in TABLE[name].items():
        got = getattr(r, key)
        if key == "variant":
            assert _variant_name(got) == value
        else:
            assert got == value, key
    assert PRESETS[name] == r


def test_presets_dict_has_the_four():
    """RULES 8: the four presets."""
    assert {"classic", "pagat", "flash", "tabletop"} <= set(PRESETS)


def test_default_is_classic():
    """api.md: Rules() is the classic preset."""
    assert Rules() == Rules.preset("classic") == PRESETS["classic"]


def test_overrides():
    """RULES 8: a preset plus keyword overrides."""
    r = Rules.preset("flash", boot=4, num_players=6)
    assert r.boot == 4 and r.num_players == 6
    assert r.max_bet == 32 and r.pot_cap == 256 and r.short_stack == "pack"
    c = Rules(boot=5, lowball=True)
    assert c.boot == 5 and c.lowball is True
    assert c.best_sequence == "AKQ" and c.max_blind_bets == 4
    assert c == Rules.preset("classic", boot=5, lowball=True)
    d = Rules.preset("pagat").replace(max_blind_bets=2)
    assert d.max_blind_bets == 2 and d.best_sequence == "A23"
    assert Rules.preset("pagat").max_blind_bets is None  # original untouched


@pytest.mark.parametrize("name", list(TABLE))
def test_to_dict_from_dict_round_trip(name):
    """RULES 8: round-trips through a plain dict / JSON."""
    r = Rules.preset(name, boot=3, max_blind_bets=None, pot_cap=100)
    d = r.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert Rules.from_dict(d) == r
    assert Rules.from_dict(json.loads(json.dumps(d))) == r


def test_from_dict_preset_form():
    """api.md / RULES 10: {"preset": name, overrides...}; omitted keys take the preset's."""
    assert Rules.from_dict({"preset": "flash"}) == Rules.preset("flash")
    assert Rules.from_dict({"preset": "flash", "boot": 4}) == Rules.preset("flash", boot=4)
    assert Rules.from_dict({"preset": "tabletop", "max_bet": None}).max_bet is None
    assert Rules.from_dict({"preset": "classic", "boot": 1}) == Rules()


@pytest.mark.parametrize(
    "setting, value",
    [
        ("num_players", 2),
        ("num_players", 8),
        ("boot", 0),
        ("boot", -1),
        ("boot", 1.5),
        ("best_sequence", "KQJ"),
        ("raise_multiple", 1),
        ("max_blind_bets", -1),
        ("sideshow_target", "next"),
        ("sideshow_reveal", "public"),
        ("short_stack", "fold"),
        ("entry_minimum", "double"),
        ("look_anytime", "yes"),
        ("lowball", "no"),
    ],
)
def test_bad_values_name_the_setting(setting, value):
    """RULES 8: a bad value is a ValueError that names the setting."""
    with pytest.raises(ValueError) as exc:
        Rules(**{setting: value})
    assert setting in str(exc.value)
    with pytest.raises(ValueError) as exc:
        Rules.preset("flash", **{setting: value})
    assert setting in str(exc.value)
    with pytest.raises(ValueError) as exc:
        Rules.from_dict({"preset": "pagat", setting: value})
    assert setting in str(exc.value)
    with pytest.raises(ValueError) as exc:
        Rules().replace(**{setting: value})
    assert setting in str(exc.value)


def test_unknown_setting():
    """api.md: unknown settings raise ValueError naming the setting."""
    with pytest.raises(ValueError, match="colour_jokers"):
        Rules.preset("classic", colour_jokers=True)
    with pytest.raises(ValueError, match="colour_jokers"):
        Rules.from_dict({"preset": "classic", "colour_jokers": True})
    with pytest.raises(ValueError, match="colour_jokers"):
        Rules().replace(colour_jokers=True)
    d = Rules().to_dict()
    d["colour_jokers"] = True
    with pytest.raises(ValueError, match="colour_jokers"):
        Rules.from_dict(d)
    with pytest.raises(ValueError, match="colour_jokers"):
        Rules(colour_jokers=True)


def test_unknown_preset():
    """api.md: unknown preset names raise ValueError naming the preset."""
    with pytest.raises(ValueError, match="pokerstars"):
        Rules.preset("pokerstars")
    with pytest.raises(ValueError, match="pokerstars"):
        Rules.from_dict({"preset": "pokerstars"})


def test_rules_immutable():
    """RULES 8: Rules is an immutable value."""
    r = Rules()
    with pytest.raises(AttributeError):  # dataclasses.FrozenInstanceError
        r.boot = 5  # type: ignore[misc]
    assert r.boot == 1
    assert Rules(boot=2) != Rules(boot=3)
    # to_dict returns a copy: mutating it leaves the rules alone
    d = r.to_dict()
    d["boot"] = 99
    assert r.boot == 1
