"""The old import path of :mod:`teenpatti_env.environment.render`, kept so that code importing
``teenpatti_env.render`` keeps working."""

from teenpatti_env.environment.render import *  # noqa: F403
