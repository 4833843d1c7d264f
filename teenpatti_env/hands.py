"""The old import path of :mod:`teenpatti_env.cards.hands`, kept so that code importing
``teenpatti_env.hands`` keeps working."""

from teenpatti_env.cards.hands import *  # noqa: F403
