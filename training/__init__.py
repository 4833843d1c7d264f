"""Training of betting agents: MaskablePPO against scripted agents and self-play.

Needs the ``train`` extra (torch, stable-baselines3, sb3-contrib, tensorboard).
``training.config`` and ``training.pool`` import without torch; ``training.train``,
``training.export`` and ``training.imitation`` need it.
"""
