"""What a self-play run writes and reads (:mod:`training.selfplay`): the checkpoint it
resumes from, ``progress.csv`` with TensorBoard events, and its progress bar; the same for
a run in this process and one on Ray (:mod:`training.selfplay_ray`).
"""

from __future__ import annotations

import csv
import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

from teenpatti_env.rules import Rules
from training.config import SelfPlayConfig
from training.selfplay_network import ActorCritic, Exploiter, new_model


class RunLog:
    """``progress.csv`` and, where tensorboard is installed, TensorBoard events."""

    def __init__(self, out: Path) -> None:
        self.path = out / "progress.csv"
        self.fields: list[str] | None = None
        self.writer: Any = None
        try:
            from torch.utils.tensorboard import SummaryWriter
        except ImportError:  # pragma: no cover - tensorboard is in the train extra
            return
        self.writer = SummaryWriter(str(out))

    def write(self, row: dict[str, float]) -> None:
        if self.fields is None:
            self.fields = list(row)
            new = not self.path.exists()
            with self.path.open("a", newline="") as handle:
                if new:
                    csv.DictWriter(handle, self.fields).writeheader()
        with self.path.open("a", newline="") as handle:
            csv.DictWriter(handle, self.fields, extrasaction="ignore").writerow(row)
        if self.writer is not None:
            step = int(row["decisions"])
            for key, value in row.items():
                if key != "decisions":
                    self.writer.add_scalar(key, value, step)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def exploiter_count(config: SelfPlayConfig) -> int:
    """How many exploiters a run trains at most: one at each multiple of
    ``exploiter_every`` below ``timesteps`` (none at the end, where no update follows)."""
    if not config.exploiter_every:
        return 0
    return (config.timesteps - 1) // config.exploiter_every


def exploiters_before(config: SelfPlayConfig, decisions: int) -> int:
    """The exploiters a run has trained by ``decisions`` learner decisions."""
    if not config.exploiter_every:
        return 0
    return min(decisions // config.exploiter_every, exploiter_count(config))


def run_progress_bar(config: SelfPlayConfig, decisions: int) -> Any:
    """A bar in decisions, the main policy's and the exploiters' budgets together, so its
    estimate of the time left counts the exploiters' training too."""
    from tqdm import tqdm

    per_exploiter = config.exploiter_steps
    total = config.timesteps + exploiter_count(config) * per_exploiter
    initial = decisions + exploiters_before(config, decisions) * per_exploiter
    return tqdm(total=total, initial=initial, unit="decision", unit_scale=True,
                disable=not config.progress, dynamic_ncols=True, desc="main policy")


def progress_bar(total: int, initial: int, enabled: bool) -> Any:
    """A tqdm bar of training decisions (off unless ``enabled``): a best response's."""
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="decision", unit_scale=True,
                disable=not enabled, dynamic_ncols=True)




CHECKPOINT_FORMAT = "teenpatti-selfplay-checkpoint/1"


def save_checkpoint(path: Path, model: ActorCritic, optimizer: torch.optim.Optimizer,
                    snapshots: Sequence[ActorCritic], exploiters: Sequence[Exploiter],
                    config: SelfPlayConfig, decisions: int, updates: int) -> None:
    """Write what a run resumes from (:func:`load_checkpoint`) to ``path``, atomically:
    the network and its optimizer, the pool's snapshots and exploiters, and the counts."""
    state = {
        "format": CHECKPOINT_FORMAT,
        "config": dataclasses.asdict(config),
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "snapshots": [m.state_dict() for m in snapshots],
        "exploiters": [{"rule_params": torch.as_tensor(m)} if isinstance(m, np.ndarray)
                       else m.state_dict() for m in exploiters],
        "decisions": decisions,
        "updates": updates,
    }
    partial = path.with_suffix(".tmp")
    torch.save(state, partial)
    partial.replace(path)


def load_checkpoint(path: Path, model: ActorCritic, optimizer: torch.optim.Optimizer,
                    snapshots: list[Any], exploiters: list[Exploiter],
                    config: SelfPlayConfig, rules: Rules, device: torch.device,
                    new_member: Callable[[], ActorCritic] | None = None) -> tuple[int, int]:
    """Load the checkpoint at ``path`` into ``model`` and ``optimizer``, append its
    snapshots and exploiters (networks made by ``new_member``, by default a network for
    ``rules``); returns its decisions and updates. A missing, damaged or foreign file, or
    one of another table, table mix or network, is a ``ValueError``."""
    if not path.is_file():
        raise ValueError(f"no checkpoint at {str(path)!r}")
    try:
        state = torch.load(path, map_location=device, weights_only=True)
    except Exception as error:  # torch raises many kinds for a damaged file
        raise ValueError(f"{str(path)!r} is not a self-play checkpoint: {error}") from None
    if not isinstance(state, dict) or state.get("format") != CHECKPOINT_FORMAT:
        raise ValueError(f"{str(path)!r} is not a {CHECKPOINT_FORMAT} file")
    saved = state["config"]
    older = {"variant": "classic", "table_mix": "single"}  # what files without them trained
    for key in ("preset", "players", "hidden", "activation", "variant", "table_mix"):
        mine = getattr(config, key)
        theirs = tuple(saved[key]) if key == "hidden" else saved.get(key, older.get(key))
        if mine != theirs:
            raise ValueError(f"{str(path)!r} was trained with {key}={theirs!r}, this run "
                             f"asks for {mine!r}")
    shapes = {key: tuple(value.shape) for key, value in model.state_dict().items()}
    theirs = {key: tuple(value.shape) for key, value in state.get("model", {}).items()}
    if theirs and theirs.keys() == shapes.keys() and theirs != shapes:
        raise ValueError(f"{str(path)!r} holds a network of other input or action sizes (an "
                         "earlier layout): start a new run from its policy with --init-from")
    try:
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        for target, states in ((snapshots, state["snapshots"]),
                               (exploiters, state["exploiters"])):
            for weights in states:
                if "rule_params" in weights:  # a searched rule exploiter
                    target.append(weights["rule_params"].cpu().numpy())
                    continue
                member = (new_member() if new_member else new_model(config, rules)).to(device)
                member.load_state_dict(weights)
                target.append(member)
    except (KeyError, RuntimeError) as error:
        raise ValueError(f"{str(path)!r} is damaged: {error}") from None
    return int(state["decisions"]), int(state["updates"])
