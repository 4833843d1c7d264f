"""The old import path of :mod:`teenpatti_env.environment.actions`, kept so that code importing
``teenpatti_env.actions`` keeps working."""

from teenpatti_env.environment.actions import *  # noqa: F403
