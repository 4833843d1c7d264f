"""A value function of the whole deal for AIVAT, fitted offline on separate seeds.

:mod:`agents.arena.aivat` fits a linear value function on a pilot of the run itself. This
module holds the other kind: a small neural network (numpy at run time; fitted offline
by ``training.aivat_values``, with torch) that reads every seat's hand and agent in the
order of play and predicts every seat's result in boots. Its expectation over the deal
has no closed form, so it is estimated by Monte Carlo over fresh deals drawn from a seed
stream of its own (the value function only, nothing is played): the correction
``V - E_mc[V]`` has mean exactly zero over the deal *and* the Monte Carlo draw, so the
corrected mean stays unbiased, and the Monte Carlo error of the mean correction is
reported next to it (:attr:`NetCorrections.mc_std_error`).

A network fits one pairing of two agents at one table composition (``agents[0]`` the
first agent of the arena's pool); :data:`SHIPPED` lists the files shipped with the
package, and :func:`shipped_net` finds the one that fits a run (none for other agents,
which keep the pilot's linear fit).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.arena.aivat_strata import uniform_deals
from agents.arena.seating import ArenaConfig
from teenpatti_env.cards.hands import evaluate_hands, value_categories, value_strengths
from teenpatti_env.rules import Rules

PLAYERS = 4
"""The networks read four seats (the classic table the arena plays by default)."""

HAND_FEATURES = PLAYERS + 2 + 6 + PLAYERS + 1
"""Per seat: which seats its hand beats, strength, its spread near the top, category,
rank among the four hands (one-hot and scaled)."""

SEAT_FEATURES = HAND_FEATURES + 1
"""A seat's hand features and its agent (0: the pool's first agent, 1: the other)."""

MC_DEALS = 50_000
"""Fresh deals in the Monte Carlo estimate of ``E[V]`` (each played under every seating
pattern that occurs), at least; a run of ``n`` deals draws ``MC_PER_DEAL * n`` if more."""

MC_PER_DEAL = 60
"""Monte Carlo deals per evaluated deal: the Monte Carlo then adds about a sixtieth of
the variance the network explains, a few per cent of what is left (counted in the
reported intervals)."""

VALUES_DIR = Path(__file__).with_name("values")
"""Where the shipped networks live (``<name>.npz``, their metadata inside)."""


def table_features(values: NDArray[np.int64], agents: NDArray[np.int64]) -> NDArray[np.float32]:
    """The network's input for every table: ``values[deal, position]`` the hand values in
    the order of play (position 0 the dealer's left), ``agents[deal, rotation, position]``
    0 or 1; returns ``[deal, rotation, PLAYERS * SEAT_FEATURES]``."""
    strengths = np.asarray(value_strengths(), dtype=np.float64)[values]
    categories = np.asarray(value_categories(), dtype=np.int64)[values]
    beats = np.sign(values[:, :, None] - values[:, None, :])
    ties = (values[:, :, None] == values[:, None, :]).sum(-1) - 1
    rank = (values[:, :, None] > values[:, None, :]).sum(-1) + 0.5 * ties
    hand = np.concatenate([
        beats, -np.log(1.0 - strengths + 1e-4)[..., None] / 5, strengths[..., None],
        np.eye(6)[categories], np.eye(PLAYERS)[np.round(rank).astype(np.int64).clip(
            0, PLAYERS - 1)], (rank / (PLAYERS - 1))[..., None]], axis=-1)
    deals, rotations = agents.shape[:2]
    hand = np.broadcast_to(hand[:, None], (deals, rotations, PLAYERS, HAND_FEATURES))
    seats = np.concatenate([hand, agents[..., None]], axis=-1)
    return seats.reshape(deals, rotations, -1).astype(np.float32)


def seats_in_order(dealers: NDArray[Any]) -> NDArray[np.int64]:
    """``[deal, position]``: the seat at each position of the order of play (position 0
    the dealer's left)."""
    seats: NDArray[np.int64] = (np.arange(PLAYERS)[None, :] + dealers[:, None] + 1) % PLAYERS
    return seats


def by_position(array: NDArray[Any], dealers: NDArray[Any]) -> NDArray[Any]:
    """``array[deal, ..., seat]`` reordered by position in the order of play (the seat at
    the dealer's left first)."""
    seat_of = seats_in_order(dealers)
    index = seat_of.reshape(len(dealers), *([1] * (array.ndim - 2)), PLAYERS)
    return np.take_along_axis(array, np.broadcast_to(index, array.shape), axis=-1)


def policy_fingerprint(spec: str) -> str:
    """What a shipped network's agent must still be: the SHA-256 of a ``pretrained:``
    policy's weights file; a scripted agent's name stands for itself."""
    if not spec.startswith("pretrained:"):
        return spec
    from agents.policy import pretrained_path  # a policy's file, only when asked for

    return hashlib.sha256(pretrained_path(spec.split(":", 1)[1]).read_bytes()).hexdigest()


@dataclass(frozen=True)
class DealValueNet:
    """A multilayer perceptron (ReLU between layers) from :func:`table_features` to every
    position's result in boots, for ``agents`` (the pool's two agents, in order) at a
    ``seats`` table (``seats[0]`` seats of ``agents[0]``)."""

    agents: tuple[str, str]
    seats: tuple[int, int]
    fingerprints: tuple[str, str]
    weights: tuple[NDArray[np.float32], ...]
    biases: tuple[NDArray[np.float32], ...]

    def predict(self, features: NDArray[np.float32]) -> NDArray[np.float32]:
        """Every position's predicted result in boots, ``[..., PLAYERS]``."""
        out = features
        for index, (weight, bias) in enumerate(zip(self.weights, self.biases, strict=True)):
            out = out @ weight + bias
            if index < len(self.weights) - 1:
                out = np.maximum(out, 0.0)
        return out

    def save(self, path: Path) -> None:
        """Write the network and its metadata to ``path`` (``.npz``)."""
        meta = {"agents": self.agents, "seats": self.seats,
                "fingerprints": self.fingerprints, "layers": len(self.weights)}
        arrays: dict[str, NDArray[np.generic]] = {"meta": np.array(json.dumps(meta))}
        arrays.update({f"w{i}": w for i, w in enumerate(self.weights)})
        arrays.update({f"b{i}": b for i, b in enumerate(self.biases)})
        np.savez_compressed(path, allow_pickle=False, **arrays)

    @staticmethod
    def load(path: Path) -> DealValueNet:
        """The network saved at ``path``."""
        with np.load(path) as data:
            meta = json.loads(str(data["meta"]))
            layers = range(meta["layers"])
            return DealValueNet(tuple(meta["agents"]), tuple(meta["seats"]),
                                tuple(meta["fingerprints"]),
                                tuple(data[f"w{i}"] for i in layers),
                                tuple(data[f"b{i}"] for i in layers))


@dataclass(frozen=True)
class NetCorrections:
    """The corrections of a run: ``[deal, rotation, seat]`` in boots, and the Monte Carlo
    standard error of each pool agent's mean correction per seat played (boots)."""

    corrections: NDArray[np.float64]
    mc_std_error: NDArray[np.float64]


def net_corrections(net: DealValueNet, cards: NDArray[np.int64], dealers: NDArray[np.int64],
                    seated: NDArray[np.integer], rng: np.random.Generator,
                    mc_deals: int | None = None) -> NetCorrections:
    """``V - E_mc[V]`` for every ``[deal, rotation, seat]`` of a run whose deals dealt
    ``cards[deal, seat, :3]`` with dealer ``dealers[deal]`` to the pool agents
    ``seated[deal, rotation, seat]`` (0 or 1). ``E_mc[V]`` is the mean of ``V`` over
    ``mc_deals`` fresh uniform deals from ``rng`` for each seating pattern that occurs
    (the agents by position; default :data:`MC_DEALS` or :data:`MC_PER_DEAL` per deal):
    the expectation given the lineup and the dealer."""
    if mc_deals is None:
        mc_deals = max(MC_DEALS, MC_PER_DEAL * len(cards))
    values = by_position(evaluate_hands(cards[..., :3]).astype(np.int64), dealers)
    agents = by_position(seated.astype(np.int64), dealers)
    predicted = _predict_batched(net, values, agents)
    patterns = agents @ (1 << np.arange(PLAYERS))  # [deal, rotation]
    fresh = _fresh_values(rng, mc_deals)  # the same fresh deals for every pattern
    samples = np.zeros((1 << PLAYERS, mc_deals, PLAYERS))
    for pattern in np.unique(patterns):
        bits = (int(pattern) >> np.arange(PLAYERS)) & 1
        samples[pattern] = _predict_batched(
            net, fresh, np.broadcast_to(bits, (mc_deals, 1, PLAYERS)))[:, 0]
    expected = samples.mean(axis=1)  # [pattern, position]
    by_pos = predicted - expected[patterns]
    seat_of = seats_in_order(dealers)  # back from positions to seats
    corrections = np.zeros_like(by_pos, dtype=np.float64)
    np.put_along_axis(corrections, np.broadcast_to(seat_of[:, None, :], by_pos.shape),
                      by_pos, axis=-1)
    # each agent's mean correction per seat subtracts a weighted sum of the expectations
    # (weights: how often it sat at each position of each pattern); its Monte Carlo error
    # is that weighted sum's, over the fresh deals (common to every pattern)
    mc = np.zeros(2)
    for agent in (0, 1):
        mine = agents == agent
        counts = np.zeros((1 << PLAYERS, PLAYERS))
        np.add.at(counts, (np.broadcast_to(patterns[..., None], mine.shape)[mine],
                           np.broadcast_to(np.arange(PLAYERS), mine.shape)[mine]), 1.0)
        weighted = np.einsum("pmk,pk->m", samples, counts / max(1.0, counts.sum()))
        mc[agent] = weighted.std(ddof=1) / np.sqrt(mc_deals)
    return NetCorrections(corrections, mc)


def _predict_batched(net: DealValueNet, values: NDArray[np.int64], agents: NDArray[np.int64],
                     chunk: int = 16_384) -> NDArray[np.float64]:
    """:meth:`DealValueNet.predict` of every table, ``[deal, rotation, position]``, a
    chunk of deals at a time (bounded memory)."""
    out = np.zeros(agents.shape)
    for first in range(0, len(values), chunk):
        part = slice(first, first + chunk)
        out[part] = net.predict(table_features(values[part], agents[part]))
    return out


def _fresh_values(rng: np.random.Generator, deals: int) -> NDArray[np.int64]:
    """The hand values of ``deals`` uniform deals of three cards to each of the
    :data:`PLAYERS` seats, ``[deal, position]``."""
    return evaluate_hands(uniform_deals(rng, deals, PLAYERS)).astype(np.int64)


SHIPPED = ("classic-equity-2v2", "classic-equity-1v3", "classic-hard-2v2", "classic-hard-1v3")
"""The shipped networks (files under :data:`VALUES_DIR`): ``pretrained:classic`` against
``equity`` and against ``hard``, two seats each or one seat against three (fitted by
``training.aivat_values``)."""


@cache
def _shipped() -> tuple[DealValueNet, ...]:
    return tuple(DealValueNet.load(VALUES_DIR / f"{name}.npz") for name in SHIPPED
                 if (VALUES_DIR / f"{name}.npz").exists())


def fits_pairing(fitted_agents: tuple[str, str], fitted_seats: tuple[int, int],
                 fingerprints: tuple[str, str], agents: tuple[str, ...],
                 seats: tuple[int, int] | None, rules: Rules) -> bool:
    """Whether a value function fitted for ``fitted_agents`` (whose files had
    ``fingerprints``) at a ``fitted_seats`` table under the classic preset fits a run of
    ``agents`` at a ``seats`` table under ``rules`` (the same agents, unchanged since)."""
    return (seats is not None and rules == Rules.preset("classic")
            and tuple(agents) == tuple(fitted_agents) and tuple(seats) == tuple(fitted_seats)
            and all(policy_fingerprint(a) == f
                    for a, f in zip(agents, fingerprints, strict=True)))


def shipped_net(agents: tuple[str, ...], seats: tuple[int, int] | None,
                rules: Rules) -> DealValueNet | None:
    """The shipped network for a run of ``agents`` at a ``seats`` table under ``rules``,
    or ``None`` (other agents, another table, rules other than the classic preset's, or
    an agent changed since the network was fitted)."""
    for net in _shipped():
        if fits_pairing(net.agents, net.seats, net.fingerprints, agents, seats, rules):
            return net
    return None


def value_net(config: ArenaConfig) -> DealValueNet | None:
    """The value network shipped for ``config``'s pairing and table (:data:`SHIPPED`), or
    ``None``: an AIVAT run fits its own value function on a pilot."""
    if not config.aivat or config.pilot:
        return None
    return shipped_net(config.agents, config.table.seats, config.rules)


def monte_carlo_seed(config: ArenaConfig) -> np.random.Generator:
    """The generator of the Monte Carlo deals that estimate a value network's expectation:
    a stream of its own (no deal of the run or of a pilot is drawn from it)."""
    return np.random.default_rng([config.seed, int(config.duplicate), 1, 1, 1])
