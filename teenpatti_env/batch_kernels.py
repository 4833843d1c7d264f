"""The old import path of :mod:`teenpatti_env.environment.batch_kernels`, kept so that
code importing ``teenpatti_env.batch_kernels`` keeps working."""

from teenpatti_env.environment.batch_kernels import *  # noqa: F403
