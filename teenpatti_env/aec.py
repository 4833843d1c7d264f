"""The old import path of :mod:`teenpatti_env.environment.aec`, kept so that code importing
``teenpatti_env.aec`` keeps working."""

from teenpatti_env.environment.aec import *  # noqa: F403
