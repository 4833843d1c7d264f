"""Fit the arena's AIVAT value functions offline (:mod:`agents.arena.aivat_net`,
:mod:`agents.arena.aivat_values`).

    python -m training.aivat_values --opponent equity --table 2v2 \
        [--deals 300000] [--seed 400] [--epochs 8] [--hidden 256] [--out FILE]
    python -m training.aivat_values --linear --opponent hard --table 2v2 \
        [--deals 80000] [--seed 400] [--out FILE]

Plays ``--deals`` duplicate deals of ``pretrained:classic`` against ``--opponent`` at
``--table`` on the batched engine (seed ``--seed``: never a seed an evaluation uses), and
fits a two-hidden-layer perceptron from every table's seats (hands and agents in the
order of play) to every seat's result in boots. The loss is the squared error of every
seat's result plus that of the policy's total over the deal's rotations (the quantity
whose variance duplicate dealing leaves), so the network spends its capacity there, each
deal weighted by :func:`stratum_weights` (the weight the arena's stratified mean gives it).

With ``--linear`` it fits instead the linear value function of :mod:`agents.arena.aivat`
(ridge least squares over the hand buckets, the penalty chosen by cross-validation) on
what the network shipped for the pairing leaves, or on the results themselves when none
is shipped, and writes ``classic-<opponent>-<table>-linear.npz``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from agents.arena import ArenaConfig, parse_table
from agents.arena.aivat import ValueModel, hand_buckets
from agents.arena.aivat_chance import DealCards
from agents.arena.aivat_net import (
    PLAYERS,
    SEAT_FEATURES,
    VALUES_DIR,
    DealValueNet,
    by_position,
    net_corrections,
    policy_fingerprint,
    shipped_net,
    table_features,
)
from agents.arena.aivat_strata import SPREAD, strata_of
from agents.arena.aivat_values import save_linear
from agents.arena.batched import batch_policies, play_deals_batched
from agents.arena.seating import Deals, draw_deal
from teenpatti_env.cards.hands import evaluate_hands
from teenpatti_env.rules import Rules

POLICY = "pretrained:classic"
BATCH = 1024


def play_training_deals(opponent: str, table: str, deals: int,
                        seed: int) -> dict[str, NDArray[np.generic]]:
    """``cards[deal, seat, 3]``, ``dealers[deal]``, ``seated[deal, rotation, seat]`` and
    ``net[deal, rotation, seat]`` (boots) of ``deals`` duplicate deals."""
    rules = Rules.preset("classic")
    config = ArenaConfig((POLICY, opponent), rules, deals * PLAYERS, seed,
                         table=parse_table(table, PLAYERS))
    policies = batch_policies(config)
    if policies is None:
        raise ValueError(f"{POLICY} against {opponent} does not play on the batched engine")
    parts = [play_deals_batched(config, first, min(2048, deals - first), policies)
             for first in range(0, deals, 2048)]
    cards = np.zeros((deals, PLAYERS, 3), dtype=np.int64)
    dealers = np.zeros(deals, dtype=np.int64)
    for deal in range(deals):
        options = draw_deal(config, deal).options
        cards[deal] = np.asarray(options["cards"])[:, :3]
        dealers[deal] = options["dealer"]
    return {"cards": cards, "dealers": dealers,
            "seated": np.concatenate([p.agent for p in parts]).astype(np.int64),
            "net": np.concatenate([p.net for p in parts]) / rules.boot}


def stratum_weights(cards: NDArray[np.generic]) -> NDArray[np.float64]:
    """Each deal's weight in a fit: one over its stratum's spread
    (:data:`agents.arena.aivat_strata.SPREAD`). The arena deals by stratum in proportion
    to share times spread, and the stratified mean's variance then weighs a deal's squared
    error by one over its spread: the fit minimises what the arena's variance will be."""
    strata = strata_of(np.asarray(cards, dtype=np.int64), Rules.preset("classic"))
    weights: NDArray[np.float64] = 1.0 / np.asarray(SPREAD)[strata]
    return weights


def fit_value_net(data: dict[str, NDArray[np.generic]], agents: tuple[str, str],
                  seats: tuple[int, int], epochs: int, hidden: int, seed: int,
                  log: bool = True) -> DealValueNet:
    """The network fitted on ``data`` (:func:`play_training_deals`), each deal's squared
    errors weighted by :func:`stratum_weights`."""
    import torch  # the training layer's own dependency

    torch.manual_seed(seed)
    values = by_position(evaluate_hands(data["cards"]).astype(np.int64), data["dealers"])
    agent = by_position(data["seated"], data["dealers"])
    net_by_pos = by_position(data["net"], data["dealers"]).astype(np.float32)
    features = torch.tensor(table_features(values, agent))
    targets = torch.tensor(net_by_pos)
    first = torch.tensor((agent == 0).astype(np.float32))
    totals = (targets * first).sum((1, 2))
    weights = torch.tensor(stratum_weights(data["cards"]), dtype=torch.float32)
    weights = weights / weights.mean()
    model = torch.nn.Sequential(
        torch.nn.Linear(PLAYERS * SEAT_FEATURES, hidden), torch.nn.ReLU(),
        torch.nn.Linear(hidden, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, PLAYERS))
    optimiser = torch.optim.Adam(model.parameters(), lr=1e-3)
    steps = epochs * -(-len(features) // BATCH)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, steps)
    start = time.perf_counter()
    for epoch in range(epochs):
        order = torch.randperm(len(features))
        total = 0.0
        for begin in range(0, len(features), BATCH):
            rows = order[begin:begin + BATCH]
            out = model(features[rows])
            weight = weights[rows]
            seat_loss = (((out - targets[rows]) ** 2).mean((1, 2)) * weight).mean()
            deal_loss = ((((out * first[rows]).sum((1, 2)) - totals[rows]) ** 2)
                         * weight).mean()
            loss = seat_loss + deal_loss / PLAYERS**2
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item() * len(rows)
        if log:
            print(f"epoch {epoch + 1}/{epochs}: loss {total / len(features):.2f} "
                  f"({time.perf_counter() - start:.0f}s)", flush=True)
    layers = [m for m in model if isinstance(m, torch.nn.Linear)]
    fingerprints = (policy_fingerprint(agents[0]), policy_fingerprint(agents[1]))
    return DealValueNet(agents, seats, fingerprints,
                        tuple(m.weight.detach().numpy().T.copy() for m in layers),
                        tuple(m.bias.detach().numpy().copy() for m in layers))


def fit_linear(data: dict[str, NDArray[np.generic]], net: DealValueNet | None,
               seed: int) -> ValueModel:
    """The linear value function fitted on ``data`` (:func:`play_training_deals`), on the
    residual of ``net``'s corrections when one is given, each deal's squared error
    weighted by :func:`stratum_weights`."""
    rules = Rules.preset("classic")
    table = hand_buckets(rules)
    cards = np.asarray(data["cards"], dtype=np.int64)
    dealers = np.asarray(data["dealers"], dtype=np.int64)
    seated = np.asarray(data["seated"])
    target = np.asarray(data["net"], dtype=np.float64)
    if net is not None:
        target = target - net_corrections(net, cards, dealers, seated,
                                          np.random.default_rng(seed)).corrections
    scale = 1000  # Deals hold integers: the residual in thousandths of a boot
    deals = Deals(seated.astype(np.int16), np.round(target * scale).astype(np.int64),
                  np.zeros((*target.shape, 1), dtype=bool))
    model = ValueModel(table, 2, PLAYERS)
    model.fit(DealCards.of(table, cards, dealers), deals, scale, stratum_weights(cards))
    return model


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--opponent", required=True, choices=("equity", "hard"))
    parser.add_argument("--table", required=True, choices=("2v2", "1v3"))
    parser.add_argument("--linear", action="store_true",
                        help="fit the linear value function (default: the network)")
    parser.add_argument("--deals", type=int, default=None,
                        help="deals played (default 300,000; 80,000 with --linear)")
    parser.add_argument("--seed", type=int, default=400,
                        help="their seed, and the fit's (never an evaluation's)")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.deals is None:
        args.deals = 80_000 if args.linear else 300_000
    if args.deals < 1 or args.epochs < 1 or args.hidden < 1:
        print("error: --deals, --epochs and --hidden must be positive", file=sys.stderr)
        return 2
    composition = parse_table(args.table, PLAYERS)
    assert composition.seats is not None
    data = play_training_deals(args.opponent, args.table, args.deals, args.seed)
    agents = (POLICY, args.opponent)
    if args.linear:
        shipped = shipped_net(agents, composition.seats, Rules.preset("classic"))
        model = fit_linear(data, shipped, args.seed)
        out = args.out or VALUES_DIR / f"classic-{args.opponent}-{args.table}-linear.npz"
        out.parent.mkdir(parents=True, exist_ok=True)
        save_linear(model, out, agents, composition.seats,
                    (policy_fingerprint(POLICY), policy_fingerprint(args.opponent)))
        print(f"wrote {out}")
        return 0
    import torch  # the training layer's own dependency

    torch.set_num_threads(1)  # the shipped networks were fitted on one thread
    net = fit_value_net(data, (POLICY, args.opponent), composition.seats, args.epochs,
                        args.hidden, args.seed)
    out = args.out or VALUES_DIR / f"classic-{args.opponent}-{args.table}.npz"
    out.parent.mkdir(parents=True, exist_ok=True)
    net.save(out)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
