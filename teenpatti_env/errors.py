"""Errors raised by the engine."""


class IllegalActionError(ValueError):
    """An action that the rules do not allow at this point of the hand.

    The message names the seat and the reason (and, from ``replay``, the index of the
    action in the history). The hand is left exactly as it was.
    """
