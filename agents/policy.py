"""Trained policies that run on numpy alone: the exported form of a training run.

An exported policy is one ``.npz`` file. It holds the layers of the policy network
(``layer_0_weight``, ``layer_0_bias``, ... with the action head last) and a JSON
``metadata`` entry: the format, the observation layout version and size, the action
names, the rules the policy was trained for, the activation and how it was trained. A
forward pass is a few matrix products; torch and stable-baselines3 are not needed.

Two formats load. ``teenpatti-policy/1`` takes the observation of the one table it was
trained for (its seat count and variant). ``teenpatti-policy/2`` takes the seat-padded
input of :mod:`agents.seat_padding` (metadata ``input``: ``seat-padded/1``, any
classic-family table of 3 to 7 seats under any preset's settings, ``seat-padded/2``,
those and every variant whose actions are classic's, or ``seat-padded/3``, those and the
selection phases and buying a joker), the table's rules among its inputs;
:meth:`NumpyPolicy.inputs` turns a table's observations into it and
:meth:`NumpyPolicy.unfit_reason` says which tables it cannot sit at. Its metadata
``actions`` may name a padded action space (``padded/1``, :mod:`agents.padded_actions`);
without it the actions are those ``action_names`` lists (classic's ten). Either way a
table's actions map to the policy's by name (:meth:`NumpyPolicy.act_at_table`).

The network is :mod:`agents.policy_network`, reading and finding files
:mod:`agents.policy_files`; this module adds :class:`PolicyAgent` and re-exports the
names of both.

>>> policy = load_policy(pretrained_path("classic"))
>>> policy.observation_size, policy.action_size
(277, 10)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.base import Agent, BatchPolicy, Info, Mask, Observation
from agents.policy_files import PRETRAINED_DIR as PRETRAINED_DIR
from agents.policy_files import load_policy as load_policy
from agents.policy_files import policy_metadata as policy_metadata
from agents.policy_files import pretrained_path as pretrained_path
from agents.policy_files import read_policy as read_policy
from agents.policy_network import ACTIVATIONS as ACTIVATIONS
from agents.policy_network import GENERAL_POLICY_FORMAT as GENERAL_POLICY_FORMAT
from agents.policy_network import POLICY_FORMAT as POLICY_FORMAT
from agents.policy_network import POLICY_FORMATS as POLICY_FORMATS
from agents.policy_network import NumpyPolicy as NumpyPolicy
from agents.policy_network import PolicyFileError as PolicyFileError
from agents.seat_padding import padded_layout, seats_of_size
from teenpatti_env.rules import Rules


class PolicyAgent(Agent):
    """A trained policy as an arena agent: the most likely legal action, or a sample
    from the policy (``sample=True``) with the agent's own generator.

    A general (``/2``) policy needs the table's rules for its input: :meth:`check_rules`
    tells it (every frontend and the arena call it); told nothing, it takes the
    ``classic`` preset's settings at the observation's seat count."""

    def __init__(
        self, policy: NumpyPolicy, seed: int | None = None, name: str = "ppo", sample: bool = False
    ) -> None:
        super().__init__(seed)
        self.policy = policy
        self.name = name
        self.sample = sample
        self._tables: dict[int, Rules] = {}
        """The rules of the tables it was told of, by observation size."""

    def _rules(self, size: int) -> Rules:
        """The rules of the table whose observations have ``size`` entries (told by
        :meth:`check_rules`, else classic's at the seat count of that size)."""
        rules = self._tables.get(size)
        if rules is None:
            seats = seats_of_size(size)
            if seats is None:
                raise ValueError(f"{self.name} takes classic-family observations of 3 to 7 "
                                 f"seats, got one of size {size}")
            rules = self._tables[size] = Rules.preset("classic", num_players=seats)
        return rules

    def act(self, observation: Observation, mask: Mask, info: Info) -> int:
        rng = self.rng if self.sample else None
        if not self.policy.padded:
            return self.policy.act(observation, mask, rng)
        return int(self.policy.act_at_table(observation, mask,
                                            self._rules(np.shape(observation)[-1]), rng))

    def batch_policy(self) -> BatchPolicy | None:
        """The greedy policy acts row by row as :meth:`act` does; a sampling one has none
        (its draws follow one seat's generator)."""
        if self.sample:
            return None
        if not self.policy.padded:
            return self.policy.act_batch

        def policy(observations: NDArray[np.float32], masks: NDArray[Any]) -> NDArray[np.int64]:
            rules = self._rules(np.shape(observations)[-1])
            return np.asarray(self.policy.act_at_table(observations, masks, rules),
                              dtype=np.int64)

        return policy

    def check_rules(self, rules: Rules) -> None:
        reason = self.policy.unfit_reason(rules)
        if reason is not None:
            raise ValueError(f"{self.name} {reason}")
        if self.policy.padded:
            self._tables[padded_layout(rules, self.policy.input_layout).source_size] = rules
