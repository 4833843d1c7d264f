"""teenpatti_env: an exact Teen Patti rules engine for reinforcement learning.

The cards, rules and engine load at once; the environment's names (``env``, ``raw_env``,
``TeenPattiEnv``, ``ActionLayout``, ``ObservationLayout``, ``OBSERVATION_VERSION``) load on
first use (PEP 562), so that ``import teenpatti_env.engine`` imports neither gymnasium nor
pettingzoo. ``"TeenPatti-v0"`` is registered with gymnasium at once if gymnasium is already
imported, else as soon as it is (:mod:`teenpatti_env.gym_registration`).
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from teenpatti_env.cards import DECK, format_card, format_cards, parse_card, parse_cards
from teenpatti_env.cards.hands import (
    CATEGORIES,
    compare_hands,
    evaluate_hand,
    evaluate_hands,
    hand_category,
)
from teenpatti_env.engine import ACTION_TYPES, Hand
from teenpatti_env.engine.history import HAND_FORMAT, history_of, replay
from teenpatti_env.engine.session import Session
from teenpatti_env.errors import IllegalActionError
from teenpatti_env.gym_registration import register_when_imported
from teenpatti_env.rules import PRESETS, Rules
from teenpatti_env.rules.variants import VARIANTS, VariantSpec

if TYPE_CHECKING:  # what the lazy names are, for type checkers
    from teenpatti_env.environment.actions import ActionLayout
    from teenpatti_env.environment.aec import env, raw_env
    from teenpatti_env.environment.observation import OBSERVATION_VERSION, ObservationLayout
    from teenpatti_env.environment.single_agent import TeenPattiEnv

_LAZY = {
    "ActionLayout": "teenpatti_env.environment.actions",
    "OBSERVATION_VERSION": "teenpatti_env.environment.observation",
    "ObservationLayout": "teenpatti_env.environment.observation",
    "TeenPattiEnv": "teenpatti_env.environment.single_agent",
    "env": "teenpatti_env.environment.aec",
    "raw_env": "teenpatti_env.environment.aec",
}
"""The environment's public names and the modules that hold them."""


def __getattr__(name: str) -> Any:
    """Load an environment name on first use (PEP 562)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'teenpatti_env' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


register_when_imported()

__all__ = [
    "ACTION_TYPES",
    "CATEGORIES",
    "DECK",
    "HAND_FORMAT",
    "OBSERVATION_VERSION",
    "PRESETS",
    "VARIANTS",
    "ActionLayout",
    "Hand",
    "IllegalActionError",
    "ObservationLayout",
    "Rules",
    "Session",
    "TeenPattiEnv",
    "VariantSpec",
    "compare_hands",
    "env",
    "evaluate_hand",
    "evaluate_hands",
    "format_card",
    "format_cards",
    "hand_category",
    "history_of",
    "parse_card",
    "parse_cards",
    "raw_env",
    "replay",
]

__version__ = "0.1.0"
