"""The environment layer: the engine as reinforcement-learning environments.

``aec`` (the PettingZoo AEC environment), ``observation`` and ``actions`` (what a seat
sees and does, as arrays), ``single_agent`` (the Gymnasium view), ``render``, and the
batched engine: ``batched`` (many classic tables in arrays; its views and option checks in
``batch_views`` and ``batch_options``, its compiled kernels in ``batch_state``,
``batch_rules``, ``batch_play`` and ``batch_observe``, gathered by ``batch_kernels``) with
``vector`` (its Gymnasium vector environment).
"""

import gymnasium

if "TeenPatti-v0" not in gymnasium.registry:
    gymnasium.register(
        id="TeenPatti-v0", entry_point="teenpatti_env.environment.single_agent:TeenPattiEnv"
    )
