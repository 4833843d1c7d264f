"""Policies carried over to another network: to the general network's padded input and
padded actions (:mod:`agents.seat_padding`, :mod:`agents.padded_actions`), a starting
policy widened (:func:`padded_start`, ``--init-from`` in a general run) and a searched rule
exploiter that reads padded rows (:func:`unpadded_rule_actor`); to a one-table network of
another table kind, a starting policy whose inputs and actions are matched by name
(:func:`matched_start`, ``--init-from`` in a one-table run)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.padded_actions import PADDED_ACTION_NAMES, PADDED_ACTIONS
from agents.policy import GENERAL_POLICY_FORMAT, NumpyPolicy
from agents.policy_files import policy_metadata
from agents.seat_padding import (
    INPUT_VERSIONS,
    MAX_SEATS,
    PADDED_LAYOUT,
    PADDED_SIZE,
    padded_layout,
)
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.environment.observation import ObservationLayout
from teenpatti_env.rules import MIN_PLAYERS, Rules
from training.league_search import rule_actor
from training.selfplay_network import BatchActor


def padded_start(policy: NumpyPolicy) -> NumpyPolicy:
    """``policy`` as a starting point for a general network (input
    :data:`~agents.seat_padding.PADDED_LAYOUT`, actions ``padded/1``) that plays exactly as
    it does where it sat before: a one-table (``/1``) policy of the classic family at its
    own table, a ``/2`` policy of an earlier input or of classic's ten actions at every
    table it sat at. Each input's first-layer weights go to the padded place of the same
    name, each action's output weights and bias to the padded action of the same name;
    the places it never had (other seats' slots, the rules, the variant's and the phase
    blocks; the phase, buying and choosing actions) start at zero, and only ever matter
    where the table offers such an action, where no action of the old policy is alone."""
    if policy.padded and policy.input_layout == PADDED_LAYOUT \
            and tuple(policy.action_names) == PADDED_ACTION_NAMES:
        return policy
    unknown = [name for name in policy.action_names if name not in PADDED_ACTION_NAMES]
    if unknown:
        raise ValueError(f"a general network starts from a policy whose actions are among "
                         f"{PADDED_ACTIONS}'s; this one has {', '.join(unknown)}")
    weights = list(policy.weights)
    first = np.zeros((PADDED_SIZE, weights[0].shape[1]), dtype=np.float32)
    if policy.padded:  # each padded input is the one before followed by more blocks
        assert INPUT_VERSIONS[policy.input_layout].size <= PADDED_SIZE
        first[:policy.observation_size] = weights[0]
    else:
        target = padded_layout(policy.rules).target  # version 2's blocks have no place there
        first[target] = weights[0][:len(target)]
    weights[0] = first
    weights[-1], bias = _outputs_by_name(policy, PADDED_ACTION_NAMES)
    metadata = {**policy.metadata, "format": GENERAL_POLICY_FORMAT, "input": PADDED_LAYOUT,
                "actions": PADDED_ACTIONS, "action_names": list(PADDED_ACTION_NAMES)}
    return NumpyPolicy(weights, [*policy.biases[:-1], bias], metadata)


def _outputs_by_name(policy: NumpyPolicy, names: tuple[str, ...]
                     ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """The output layer's weights and bias for the actions ``names``: each the column of
    ``policy``'s action of the same name, zeros for an action it does not have (its
    actions missing from ``names`` are dropped)."""
    place = {name: k for k, name in enumerate(names)}
    kept = [(place[name], j) for j, name in enumerate(policy.action_names) if name in place]
    to, source = [k for k, _ in kept], [j for _, j in kept]
    last = np.zeros((policy.weights[-1].shape[0], len(names)), np.float32)
    last[:, to] = policy.weights[-1][:, source]
    bias = np.zeros(len(names), np.float32)
    bias[to] = policy.biases[-1][source]
    return last, bias


def matched_start(policy: NumpyPolicy, rules: Rules) -> NumpyPolicy:
    """``policy`` (a one-table policy) as a starting point for a one-table network under
    ``rules``: unchanged where it already reads the observation of ``rules`` and has its
    actions; otherwise each observation slot of ``rules`` takes the first-layer weights of
    the policy's slot of the same name and width, and each action the output weights and
    bias of the policy's action of the same name. What the policy never had starts at
    zero: the slots of a seat it never sat (``seat3.*`` when a four-seat policy starts a
    three-seat network is dropped, ``seat4.*`` when it starts a five-seat one is new), and
    actions such as ``shopping``'s ``draw`` and ``keep`` when a ``discard_one`` policy
    starts it (so they start level with each other). A padded policy is returned as it
    is (the network then says it does not fit)."""
    names = ActionLayout(rules).names
    old_slots, new_slots = _slot_places(policy.rules), _slot_places(rules)
    if policy.padded or (tuple(policy.action_names) == names and old_slots == new_slots):
        return policy
    first = np.zeros((sum(width for _, _, width in new_slots), policy.weights[0].shape[1]),
                     np.float32)
    old = {name: (offset, width) for name, offset, width in old_slots}
    for name, offset, width in new_slots:
        if name in old and old[name][1] == width:
            first[offset:offset + width] = policy.weights[0][old[name][0]:old[name][0] + width]
    last, bias = _outputs_by_name(policy, names)
    return NumpyPolicy([first, *policy.weights[1:-1], last], [*policy.biases[:-1], bias],
                       policy_metadata(rules, names, policy.activation))


def _slot_places(rules: Rules) -> list[tuple[str, int, int]]:
    """``(name, offset, width)`` of every observation slot under ``rules``."""
    return [(name, offset, width) for name, offset, width, _ in ObservationLayout(rules).slots]


def unpadded_rule_actor(params: NDArray[np.float64]) -> BatchActor:
    """A searched rule exploiter as a pool member at padded tables: each row is unpadded
    to the observation of its own seat count (read from the presence flags), which the
    rule strategy reads as it reads a classic table of that size, with the first ten
    (classic's) padded actions. At a selection phase, where no classic action but
    ``pack`` and ``look`` is legal, it plays a phase action drawn uniformly (its own
    generator); where a joker can be bought beside a bet it does not buy."""
    strategy = rule_actor(params, Rules.preset("classic"))
    classic = len(ActionLayout(Rules.preset("classic")).names)
    rng = np.random.default_rng([classic, 17])
    targets = {seats: padded_layout(Rules.preset("classic", num_players=seats)).target
               for seats in range(MIN_PLAYERS, MAX_SEATS + 1)}
    presence = padded_layout(Rules.preset("classic")).presence

    def play(observations: NDArray[np.float32], masks: NDArray[Any]) -> NDArray[np.int64]:
        seats = np.rint(observations[:, presence].sum(axis=1)).astype(np.int64)
        legal = np.asarray(masks).astype(np.bool_)
        phase = legal[:, classic:].any(axis=1) & ~legal[:, 2:classic].any(axis=1)
        draws = np.where(legal[:, classic:], rng.random(legal[:, classic:].shape), -1.0)
        actions = np.where(phase, classic + draws.argmax(axis=1), 0)
        for count in np.unique(seats[~phase]):
            rows = np.flatnonzero((seats == count) & ~phase)
            actions[rows] = strategy(observations[rows][:, targets[int(count)]],
                                     masks[rows][:, :classic])
        return actions

    return play
