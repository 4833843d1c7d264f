"""A small rule-of-thumb bot for demos: it sees only what its seat may see.

It stays blind for a turn or two, then looks and bets by the category of its hand.
The full set of scripted agents (random, auto, easy, medium, hard, equity) is built
on the environment's observations; this one works straight on the engine.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from teenpatti_env.engine import Hand
from teenpatti_env.hands import hand_category

_CATEGORY_STRENGTH = {
    "high_card": 0,
    "pair": 1,
    "colour": 2,
    "sequence": 3,
    "pure_sequence": 4,
    "trail": 5,
}


class SimpleBot:
    """Looks after a blind bet or two and bets harder the better its category."""

    def __init__(self, seed: int | None = None, blind_turns: int = 1) -> None:
        self.rng = np.random.default_rng(seed)
        self.blind_turns = blind_turns

    def act(self, hand: Hand) -> dict[str, Any]:
        """The action of the seat to act; reads only that seat's own cards once seen."""
        seat = hand.to_act
        assert seat is not None
        legal = {action["type"]: action for action in hand.legal_actions()}
        if "accept" in legal:
            strength = self._strength(hand, seat)
            return {"seat": seat, "type": "accept" if strength >= 1 else "refuse"}
        if "look" in legal and (hand.blind_bets[seat] >= self.blind_turns or "bet" not in legal):
            return {"seat": seat, "type": "look"}
        if not hand.seen[seat]:
            return self._bet_or(legal, seat, low=True, fallback="pack")
        strength = self._strength(hand, seat)
        if strength == 0 and self.rng.random() < 0.5:
            return {"seat": seat, "type": "pack"}
        if "show" in legal and strength >= 1:
            return {"seat": seat, "type": "show"}
        if "sideshow" in legal and strength == 1:
            return {"seat": seat, "type": "sideshow", "amount": legal["sideshow"]["min"]}
        return self._bet_or(legal, seat, low=strength < 2, fallback="pack")

    def _strength(self, hand: Hand, seat: int) -> int:
        return _CATEGORY_STRENGTH[hand_category(hand.cards[seat])]  # type: ignore[arg-type]

    def _bet_or(self, legal: dict[str, Any], seat: int, low: bool, fallback: str) -> dict[str, Any]:
        if "bet" in legal:
            amount = legal["bet"]["min"] if low else legal["bet"]["max"]
            return {"seat": seat, "type": "bet", "amount": amount}
        if "all_in" in legal:
            return {"seat": seat, "type": "all_in"}
        return {"seat": seat, "type": fallback}
