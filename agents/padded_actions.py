"""The padded action space of a general policy (metadata ``actions``: ``padded/1``): one
fixed list of action names that holds the actions of every table the batched engine
plays, so that one output layer serves the classic family, the variants with a selection
phase and buying a joker.

A table's own actions (:class:`~teenpatti_env.environment.actions.ActionLayout`) go to
the padded index of the same name, as the observation slots go to the padded input's
place of their name (:mod:`agents.seat_padding`): the table's mask is scattered into a
padded mask (zeros elsewhere), the policy chooses among the padded logits, and its
choice maps back to the table's index of that name (:class:`ActionMap`).

``padded/1`` is, in this order (76 names):

=====================  =====  =========================================================
names                  count  where they are legal
=====================  =====  =========================================================
``pack`` .. ``all_in``  10    classic's actions at the default raise multiple (every table)
``buy_joker_0..2``      3     ``buy_a_joker``: the card bought wild, by hand slot
``discard_0..3``        4     ``discard_one`` (four cards) and ``shopping`` (after a draw)
``draw``, ``keep``      2     ``shopping``
``pass_0_1_2`` ..       20    ``passing_cards``: the three slots passed, lexicographic
``choose_<variant>``    37    reserved for dealer's choice: the dealer's choice of each
                              of the 24 named variants (``open_joker`` by rank,
                              ``colour_jokers`` by colour), not yet played by a policy
=====================  =====  =========================================================

The list only ever grows at its end (a ``padded/2`` would be a new name), so a trained
policy's output rows keep their meaning. A policy without ``actions`` in its metadata (every
``teenpatti-policy/1`` file and the ten-action ``/2`` files) has the actions its
``action_names`` list, and maps a table's actions to them by name in the same way.

>>> PADDED_ACTION_NAMES[:2], PADDED_ACTION_NAMES[10], len(PADDED_ACTION_NAMES)
(('pack', 'look'), 'buy_joker_0', 76)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from teenpatti_env.environment.actions import ActionLayout, choice_actions, phase_action_names
from teenpatti_env.rules import Rules
from teenpatti_env.rules.variants import VARIANTS

PADDED_ACTIONS = "padded/1"
"""The name of the padded action space a policy file's metadata ``actions`` may give."""


def _padded_action_names() -> tuple[str, ...]:
    names: dict[str, None] = dict.fromkeys(ActionLayout(Rules.preset("classic")).names)
    for variant in VARIANTS:
        names.update(dict.fromkeys(phase_action_names(Rules(variant=variant))))
    names.update(dict.fromkeys(
        name for name, _ in choice_actions(Rules(dealers_choice=list(VARIANTS)))))
    return tuple(names)


PADDED_ACTION_NAMES: tuple[str, ...] = _padded_action_names()
"""The names of ``padded/1``, in index order (the table above)."""
ACTION_SPACES: dict[str, tuple[str, ...]] = {PADDED_ACTIONS: PADDED_ACTION_NAMES}
"""Every named action space a policy file may give in its metadata ``actions``."""


def missing_actions(rules: Rules, action_names: Sequence[str]) -> list[str]:
    """The actions of a table under ``rules`` that ``action_names`` lacks, in the table's
    order (empty: every one of them has its place)."""
    known = set(action_names)
    return [name for name in ActionLayout(rules).names if name not in known]


class ActionMap:
    """A table's actions in a policy's action list: :attr:`places` ``[i]`` is the
    policy's index of the table's action ``i`` (same name)."""

    def __init__(self, rules: Rules, action_names: Sequence[str]) -> None:
        missing = missing_actions(rules, action_names)
        if missing:
            raise ValueError(f"the table's actions {', '.join(missing)} are not among the "
                             "policy's")
        index = {name: i for i, name in enumerate(action_names)}
        table = ActionLayout(rules).names
        self.places = np.array([index[name] for name in table], dtype=np.int64)
        self.size = len(action_names)
        self.identity = tuple(table) == tuple(action_names)
        """The table's actions are the policy's, in the same order: nothing to map."""
        self.back = np.zeros(self.size, dtype=np.int64)
        """``back[j]``: the table's index of the policy's action ``j`` (0 where the table
        has no such action: never legal, never chosen)."""
        self.back[self.places] = np.arange(len(table))

    def widen(self, masks: NDArray[Any]) -> NDArray[Any]:
        """The policy-wide masks (1-D or ``[M, A]``) of the table's masks: each entry at
        the place of its name, zeros elsewhere."""
        masks = np.asarray(masks)
        if self.identity:
            return masks
        wide = np.zeros((*masks.shape[:-1], self.size), dtype=masks.dtype)
        wide[..., self.places] = masks
        return wide

    def narrow(self, actions: Any) -> Any:
        """The table's index of each policy index (an int or an array)."""
        if self.identity:
            return actions
        if np.ndim(actions) == 0:
            return int(self.back[int(actions)])
        return self.back[np.asarray(actions, dtype=np.int64)]


@lru_cache(maxsize=256)
def _action_map(rules: Rules, action_names: tuple[str, ...]) -> ActionMap:
    return ActionMap(rules, action_names)


def action_map(rules: Rules, action_names: Sequence[str]) -> ActionMap:
    """The (cached) :class:`ActionMap` of a table under ``rules`` into ``action_names``."""
    return _action_map(rules, tuple(action_names))
