"""The old import path of :mod:`teenpatti_env.cards.wild`, kept so that code importing
``teenpatti_env.wild`` keeps working."""

from teenpatti_env.cards.wild import *  # noqa: F403
