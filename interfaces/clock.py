"""The clocks a remote bot is held to, the three that ACPC's dealer keeps.

* ``decision``: seconds for each answer (``teenpatti match --time-limit``);
* ``hand``: seconds for all of the bot's answers in one hand (``--hand-time``);
* ``match``: seconds for all of its answers in the match, a time bank (``--match-time``).

The hand and match clocks are optional. Each answer has the least of the decision limit
and what is left on the other two; the time the answer took is then taken off both. A
bot whose hand or match clock has run out is not asked again until that clock is wound
again (the next hand; never, for the match): each of its turns is missed at once.

>>> clock = BotClock(decision=2.0, hand=3.0, match=10.0)
>>> clock.budget(), clock.fields()
((2.0, 'decision'), {'limit': 2.0, 'hand_left': 3.0, 'match_left': 10.0})
>>> clock.spend(2.0); clock.budget()
(1.0, 'hand')
>>> clock.spend(1.0); clock.exhausted()
'hand'
>>> clock.new_hand(); clock.budget(), clock.exhausted()
((2.0, 'decision'), None)
"""

from __future__ import annotations

from typing import Any

CLOCK_KINDS = ("decision", "hand", "match")
"""The clocks, in the order they are reported."""


def check_seconds(name: str, value: float | None, optional: bool = True) -> None:
    """A ``ValueError`` unless ``value`` is a positive, finite number of seconds (or
    ``None`` for an optional clock)."""
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            not 0 < value < float("inf"):
        raise ValueError(f"{name} must be a positive number of seconds, got {value!r}")


class BotClock:
    """One bot's three clocks (``hand`` and ``match`` may be ``None``: not kept)."""

    def __init__(self, decision: float, hand: float | None = None,
                 match: float | None = None) -> None:
        check_seconds("time_limit", decision, optional=False)
        check_seconds("hand_time", hand)
        check_seconds("match_time", match)
        self.decision = float(decision)
        self.hand = hand
        self.match = match
        self.hand_left = hand
        self.match_left = match

    def new_hand(self) -> None:
        """Wind the hand clock for a new hand."""
        self.hand_left = self.hand

    def budget(self) -> tuple[float, str]:
        """The seconds the next answer has, and the clock that sets them (on a tie the
        decision clock, then the hand's)."""
        seconds, kind = self.decision, "decision"
        for left, name in ((self.hand_left, "hand"), (self.match_left, "match")):
            if left is not None and left < seconds:
                seconds, kind = left, name
        return max(seconds, 0.0), kind

    def exhausted(self) -> str | None:
        """``"match"`` or ``"hand"`` when that clock has run out, else ``None``."""
        if self.match_left is not None and self.match_left <= 0:
            return "match"
        if self.hand_left is not None and self.hand_left <= 0:
            return "hand"
        return None

    def spend(self, seconds: float) -> None:
        """Take an answer's ``seconds`` off the hand and match clocks."""
        if self.hand_left is not None:
            self.hand_left = max(self.hand_left - seconds, 0.0)
        if self.match_left is not None:
            self.match_left = max(self.match_left - seconds, 0.0)

    def fields(self) -> dict[str, Any]:
        """The request's ``clock``: this answer's ``limit`` and, where kept, the
        ``hand_left`` and ``match_left`` (seconds, rounded to the millisecond)."""
        clock: dict[str, Any] = {"limit": round(self.budget()[0], 3)}
        if self.hand_left is not None:
            clock["hand_left"] = round(self.hand_left, 3)
        if self.match_left is not None:
            clock["match_left"] = round(self.match_left, 3)
        return clock
