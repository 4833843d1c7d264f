"""Which value function an AIVAT run uses, and the linear ones shipped with the package.

A run whose pairing has value functions shipped for it (fitted offline on separate seeds
by ``training.aivat_values``) uses them and plays no pilot: a network of the whole deal
(:mod:`agents.arena.aivat_net`), linear weights over the hand buckets
(:class:`agents.arena.aivat.ValueModel`, fitted on what the network leaves when there is
one), or both, their corrections added. Each has its expectation over the deal (Monte
Carlo for the network, exact for the linear weights), so their sum's correction has mean
zero. Any other run fits the linear weights on a pilot of its own.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from agents.arena.aivat import ValueModel, check_supported, deal_cards, hand_buckets
from agents.arena.aivat_chance import DealCards, dealt_cards
from agents.arena.aivat_net import (
    VALUES_DIR,
    fits_pairing,
    monte_carlo_seed,
    net_corrections,
    value_net,
)
from agents.arena.seating import ArenaConfig, Deals

LINEAR_SHIPPED = ("classic-equity-2v2-linear", "classic-equity-1v3-linear",
                  "classic-hard-2v2-linear", "classic-hard-1v3-linear")
"""The shipped linear value functions (files under :data:`VALUES_DIR`), of
``pretrained:classic`` against ``equity`` (on the residual of the shipped network) and
against ``hard`` (alone), at 2v2 and 1v3 under the classic preset."""


def save_linear(model: ValueModel, path: Path, agents: tuple[str, str],
                seats: tuple[int, int], fingerprints: tuple[str, str]) -> None:
    """Write ``model``'s weights and the pairing they were fitted for to ``path``."""
    meta = {"agents": agents, "seats": seats, "fingerprints": fingerprints,
            "players": model.players, "buckets": model.table.buckets}
    np.savez_compressed(path, allow_pickle=False, meta=np.array(json.dumps(meta)),
                        own=model.own, pair=model.pair, tie=model.tie)


def load_linear(path: Path) -> tuple[dict[str, object], ValueModel]:
    """The pairing and the weights saved at ``path`` (classic ranking)."""
    from teenpatti_env.rules import Rules

    with np.load(path) as data:
        meta = json.loads(str(data["meta"]))
        table = hand_buckets(Rules.preset("classic"))
        if table.buckets != meta["buckets"]:
            raise ValueError(f"{path}: fitted on {meta['buckets']} hand buckets, "
                             f"the classic ranking has {table.buckets}")
        model = ValueModel(table, len(meta["agents"]), int(meta["players"]))
        model.own, model.pair, model.tie = data["own"], data["pair"], data["tie"]
    return meta, model


@cache
def _shipped_linear() -> tuple[tuple[dict[str, object], ValueModel], ...]:
    return tuple(load_linear(VALUES_DIR / f"{name}.npz") for name in LINEAR_SHIPPED
                 if (VALUES_DIR / f"{name}.npz").exists())


def linear_model(config: ArenaConfig) -> ValueModel | None:
    """The linear value function shipped for ``config``'s pairing and table, or ``None``."""
    if not config.aivat or config.pilot:
        return None
    for meta, model in _shipped_linear():
        if fits_pairing(tuple(meta["agents"]), tuple(meta["seats"]),  # type: ignore[arg-type]
                        tuple(meta["fingerprints"]), config.agents,  # type: ignore[arg-type]
                        config.table.seats, config.rules):
            return model
    return None


def needs_pilot(config: ArenaConfig) -> bool:
    """Whether an AIVAT run plays a pilot (no value function is shipped for it)."""
    return config.aivat and value_net(config) is None and linear_model(config) is None


def aivat_corrections(
    config: ArenaConfig, deals: Deals, pilot: Deals | None, pilot_run: ArenaConfig | None
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Every evaluated ``[deal, rotation, seat]``'s correction in boots: the shipped value
    functions' (:func:`value_net`, :func:`linear_model`, added) or else the linear value
    function fitted on the ``pilot`` deals (of ``pilot_run``), applied to ``deals``; and
    each pool agent's Monte Carlo standard error of its mean correction per seat (a
    network's expectation is estimated; zeros without one)."""
    check_supported(config.rules)
    net, linear = value_net(config), linear_model(config)
    table = hand_buckets(config.rules)
    if net is None and linear is None:
        if pilot is None or pilot_run is None:
            raise ValueError("AIVAT without a shipped value function needs a pilot")
        linear = ValueModel(table, len(config.agents), config.players)
        linear.fit(deal_cards(pilot_run, table), pilot, config.rules.boot)
    corrections = np.zeros(deals.net.shape)
    mc_error = np.zeros(len(config.agents))
    cards, dealers = dealt_cards(config)
    if net is not None:
        from_net = net_corrections(net, cards, dealers, deals.agent, monte_carlo_seed(config))
        corrections += from_net.corrections
        mc_error = from_net.mc_std_error
    if linear is not None:
        corrections += linear.corrections(DealCards.of(table, cards, dealers), deals.agent)
    return corrections, mc_error
