"""Compiled loops of the batched engine (:mod:`teenpatti_env.environment.batched`).

Every function works on one table ``t`` of a batch held as arrays, or loops over the
batch; the rules are those of :class:`~teenpatti_env.engine.Hand` for the classic family
(RULES.md sections 2-6 and 9) and the variants, written
as plain loops over small integer arrays so that
numba compiles them (``cache=True``: the second start loads the compiled code from disk).
Without numba the same functions run as plain Python: correct, only slow.

The kernels live in eight modules by concern, all re-exported here: ``batch_state`` (the
array layout, the compile decorators, the random streams), ``batch_jokers`` (a seat's
value; thresholds, rotating jokers and buying a joker), ``batch_rules`` (one hand's
rules), ``batch_variant`` (a variant's values, bursts, knowledge and observation block,
from the valuation and wild-source functions the per-table engine calls), ``batch_deal``
(a variant's deal), ``batch_phase`` (the selection phases, from the phase rules the
per-table engine calls), ``batch_play`` (dealing, sessions, stepping) and ``batch_observe``
(observations and masks). The layout is described in :mod:`~teenpatti_env.environment.batch_state`.
"""

from teenpatti_env.environment.batch_observe import *  # noqa: F403
from teenpatti_env.environment.batch_play import *  # noqa: F403
from teenpatti_env.environment.batch_rules import *  # noqa: F403
from teenpatti_env.environment.batch_state import *  # noqa: F403
