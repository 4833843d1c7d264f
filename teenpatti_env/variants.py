"""The old import path of :mod:`teenpatti_env.rules.variants`, kept so that code importing
``teenpatti_env.variants`` keeps working."""

from teenpatti_env.rules.variants import *  # noqa: F403
