"""The old import path of :mod:`teenpatti_env.environment.vector`, kept so that code importing
``teenpatti_env.vector`` keeps working."""

from teenpatti_env.environment.vector import *  # noqa: F403
