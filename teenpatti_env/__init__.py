"""teenpatti_env: an exact Teen Patti rules engine for reinforcement learning."""

from teenpatti_env.cards import DECK, format_card, format_cards, parse_card, parse_cards
from teenpatti_env.engine import ACTION_TYPES, Hand
from teenpatti_env.errors import IllegalActionError
from teenpatti_env.hands import (
    CATEGORIES,
    compare_hands,
    evaluate_hand,
    evaluate_hands,
    hand_category,
)
from teenpatti_env.history import HAND_FORMAT, replay
from teenpatti_env.rules import PRESETS, Rules
from teenpatti_env.session import Session

__all__ = [
    "ACTION_TYPES",
    "CATEGORIES",
    "DECK",
    "HAND_FORMAT",
    "PRESETS",
    "Hand",
    "IllegalActionError",
    "Rules",
    "Session",
    "compare_hands",
    "evaluate_hand",
    "evaluate_hands",
    "format_card",
    "format_cards",
    "hand_category",
    "parse_card",
    "parse_cards",
    "replay",
]

__version__ = "0.1.0"
