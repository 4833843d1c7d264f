"""The rules engine: one hand of Teen Patti as a state machine (:class:`Hand`)."""

from teenpatti_env.engine.hand import (
    ACTION_TYPES,
    PHASE_TYPES,
    PHASES,
    RANK_TEXTS,
    TABLE_CARD_FIELDS,
    Event,
    Hand,
    dealt_cards,
    is_seat,
    validate_table,
)

__all__ = [
    "ACTION_TYPES",
    "PHASES",
    "PHASE_TYPES",
    "RANK_TEXTS",
    "TABLE_CARD_FIELDS",
    "Event",
    "Hand",
    "dealt_cards",
    "is_seat",
    "validate_table",
]
