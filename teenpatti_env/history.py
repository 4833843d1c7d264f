"""The old import path of :mod:`teenpatti_env.engine.history`, kept so that code importing
``teenpatti_env.history`` keeps working."""

from teenpatti_env.engine.history import *  # noqa: F403
