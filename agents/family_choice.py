"""A policy family at a dealer's choice table: each hand is played by the member of the
variant chosen for it, and as dealer the family chooses the variant it plays best.

At a dealer's choice table the environment's observation and actions are the union of
every listed variant's (plus the ``choose_*`` actions), a layout no one-table member was
trained on. The seat's view says which variant the hand plays (its ``rules``), so the
family builds the chosen variant's own observation and mask from the view
(:func:`teenpatti_env.protocol.decision_inputs`, what a remote bot does), lets that
variant's member decide, and maps the member's action back to the table's by name.

* **As dealer** it chooses, among the variants it may choose and has a member for, the
  first in its preference order (the manifest's ``dealers_choice`` list, best first; the
  members' order without one), with the first rank or colour offered where the variant
  names one.
* **A hand of a variant it has no member for** (another dealer chose it) is played by
  ``equity``, the fallback every frontend seats where the family cannot sit.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from agents.base import Info, Mask, Observation
from agents.policy import NumpyPolicy, PolicyAgent
from agents.scripted import EquityAgent
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.protocol import decision_inputs
from teenpatti_env.rules import Rules


class DealersChoicePlay:
    """How a family plays one dealer's choice table (``table_rules``): ``members`` maps
    each listed variant's name to its member (``None``: no member), ``member_for`` gives
    the member for a hand's rules, ``preference`` the variants best first."""

    def __init__(self, table_rules: Rules, members: dict[str, NumpyPolicy | None],
                 member_for: Callable[[Rules], NumpyPolicy | None],
                 preference: Sequence[str], seed: int | None, name: str) -> None:
        self.member_for = member_for
        self.preference = [v for v in preference if members.get(v) is not None]
        self.layout = _action_layout(table_rules)
        self.seed, self.name = seed, name
        self._players: dict[int, PolicyAgent] = {}
        self._fallback = EquityAgent(seed)

    def reset(self) -> None:
        for player in (*self._players.values(), self._fallback):
            player.reset()

    def act(self, observation: Observation, mask: Mask, info: Info) -> int:
        choices: dict[str, int] = {}
        for index in np.flatnonzero(mask):
            variant = self.layout.chosen_variant(int(index))
            if variant is not None:
                choices.setdefault(variant, int(index))
        if choices:
            return next((choices[v] for v in self.preference if v in choices),
                        next(iter(choices.values())))
        hand_rules = _hand_rules(json.dumps(info["rules"], sort_keys=True))
        member = self.member_for(hand_rules)
        if member is None:
            return self._fallback.act(observation, mask, info)
        player = self._players.get(id(member))
        if player is None:
            player = self._players[id(member)] = PolicyAgent(member, self.seed, name=self.name)
        inputs, member_mask, member_info = decision_inputs(info, hand_rules)
        action = player.act(inputs, member_mask, member_info)
        return self.layout.index(_action_layout(hand_rules).names[action])


@lru_cache(maxsize=256)
def _action_layout(rules: Rules) -> ActionLayout:
    return ActionLayout(rules)


@lru_cache(maxsize=256)
def _hand_rules(settings: str) -> Rules:
    data: Any = json.loads(settings)
    return Rules.from_dict(data)
