"""The rules engine: one hand of Teen Patti as a state machine (:class:`Hand`).

The hand is built in parts, one concern per module, each class stacked on the one below
(``docs/design.md``): ``state`` (the record and the seat queries), ``knowledge`` (the
event log and who knows which cards), ``valuation`` (hand values, the pot, thresholds,
rotations), ``outcome`` (show, showdown, payouts), ``betting``, ``show`` (show and
sideshow), ``variant_deal`` (bursts, buying a joker), ``selection`` (the phases),
``dealing``, ``choice`` (dealer's choice), ``referee`` (legal actions, ``apply``) and
``hand`` (:class:`Hand`).
"""

from teenpatti_env.engine.hand import Hand
from teenpatti_env.engine.knowledge import TABLE_CARD_FIELDS
from teenpatti_env.engine.state import ACTION_TYPES, PHASE_TYPES, PHASES, RANK_TEXTS, Event
from teenpatti_env.engine.validation import dealt_cards, is_seat, validate_table

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
