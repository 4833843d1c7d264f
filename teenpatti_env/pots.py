"""The old import path of :mod:`teenpatti_env.engine.pots`, kept so that code importing
``teenpatti_env.pots`` keeps working."""

from teenpatti_env.engine.pots import *  # noqa: F403
