"""The environment layer: the engine as reinforcement-learning environments.

``aec`` (the PettingZoo AEC environment), ``observation`` and ``actions`` (what a seat
sees and does, as arrays), ``single_agent`` (the Gymnasium view), ``render``, and the
batched engine: ``batched`` (many classic tables in arrays; its views and option checks in
``batch_views`` and ``batch_options``, its compiled kernels in ``batch_state``,
``batch_rules``, ``batch_play`` and ``batch_observe``, gathered by ``batch_kernels``) with
``vector`` (its Gymnasium vector environment).
"""

import gymnasium

from teenpatti_env.gym_registration import register

register(gymnasium)
