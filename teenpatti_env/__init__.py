"""teenpatti_env: an exact Teen Patti rules engine for reinforcement learning."""

import gymnasium

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
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.environment.aec import env, raw_env
from teenpatti_env.environment.observation import OBSERVATION_VERSION, ObservationLayout
from teenpatti_env.environment.single_agent import TeenPattiEnv
from teenpatti_env.errors import IllegalActionError
from teenpatti_env.rules import PRESETS, Rules
from teenpatti_env.rules.variants import VARIANTS, VariantSpec

gymnasium.register(
    id="TeenPatti-v0", entry_point="teenpatti_env.environment.single_agent:TeenPattiEnv"
)

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
