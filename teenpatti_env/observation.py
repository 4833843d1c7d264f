"""The old import path of :mod:`teenpatti_env.environment.observation`, kept so that code importing
``teenpatti_env.observation`` keeps working."""

from teenpatti_env.environment.observation import *  # noqa: F403
