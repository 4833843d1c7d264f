"""Malformed hand histories: any damage gives a ValueError (or a valid replay), nothing else.

RULES.md section 10: a bad history is a clear error that leaves no partial state.
"""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from teenpatti_env import replay

BASE = {
    "format": "teenpatti-hand/1",
    "rules": {"preset": "classic"},
    "stacks": [100, 100, 100, 100],
    "dealer": 0,
    "cards": [["As", "Kd", "2c"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"], ["2h", "2d", "Js"]],
    "actions": [{"seat": 1, "type": "bet", "amount": 1}, {"seat": 2, "type": "look"}],
}
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 200)
    | st.floats(allow_nan=True)
    | st.text(max_size=4)
    | st.sampled_from(["As", "10h", "bet", "look", "pack", "show", "flash", "A23"]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=10,
)
FIELDS = st.sampled_from(["format", "rules", "stacks", "dealer", "cards", "actions"])
SETTINGS = st.sampled_from(
    ["preset", "boot", "pot_cap", "max_bet", "short_stack", "num_players", "x"]
)
ACTION_KEYS = st.sampled_from(["seat", "type", "amount"])


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_damaged_history_is_a_value_error_or_replays(data: st.DataObject) -> None:
    history = copy.deepcopy(BASE)
    for _ in range(data.draw(st.integers(1, 3))):
        field = data.draw(FIELDS)
        how = data.draw(st.integers(0, 3))
        value = data.draw(JSON_VALUES)
        target = history.get(field)
        if how == 0:
            history[field] = value
        elif how == 1 and isinstance(target, list) and target:
            target[data.draw(st.integers(0, len(target) - 1))] = value
        elif how == 2 and isinstance(target, dict):
            target[data.draw(SETTINGS)] = value
        elif how == 3 and isinstance(history.get("actions"), list):
            history["actions"].append(data.draw(st.dictionaries(ACTION_KEYS, JSON_VALUES)))
    try:
        result = replay(history)
    except ValueError:
        return
    assert set(result) >= {"stacks", "pot", "stake", "over", "to_act", "legal", "net", "shown"}
