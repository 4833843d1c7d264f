"""The old import path of :mod:`teenpatti_env.engine.session`, kept so that code importing
``teenpatti_env.session`` keeps working."""

from teenpatti_env.engine.session import *  # noqa: F403
