"""The old import path of :mod:`teenpatti_env.environment.batched`, kept so that code importing
``teenpatti_env.batched`` keeps working."""

from teenpatti_env.environment.batched import *  # noqa: F403
