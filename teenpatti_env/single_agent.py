"""The old import path of :mod:`teenpatti_env.environment.single_agent`, kept so that code importing
``teenpatti_env.single_agent`` keeps working."""

from teenpatti_env.environment.single_agent import *  # noqa: F403
