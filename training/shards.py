"""Row shards: how the self-play trainer spreads its network passes over CPU threads.

The trainer's forward passes (a rollout's learner decisions, a pool network's moves) and
its PPO minibatches are cut into a fixed number of row shards (``SelfPlayConfig.shards``,
default 2). Each shard is computed by one thread with one torch thread, and the results
(logits, values, gradients) are put together in shard order. So the arithmetic, and the
weights a run ends with, are the same whether one thread or several compute the shards:
the thread count (``SelfPlayConfig.threads``) changes only the speed.

Why threads over shards rather than torch's own threads: torch splits each operation
across its threads and makes them wait for each other at its end, so when another process
takes a core, every operation waits for the thread that lost it (a run at two torch
threads kept a quarter of its speed beside one competing process). A shard is a whole
forward and backward pass, so a thread that is held up delays one join per minibatch,
and a worker that waits sleeps instead of spinning. docs/selfplay.md#training-speed has
the figures.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import numpy as np
import torch

T = TypeVar("T")
Forward = Callable[[torch.Tensor, torch.Tensor], tuple[torch.Tensor, torch.Tensor]]

_pools: dict[int, ThreadPoolExecutor] = {}
_pools_lock = threading.Lock()


def shard_slices(rows: int, shards: int) -> list[slice]:
    """``shards`` contiguous, nearly equal slices of ``rows`` rows (empty ones dropped)."""
    bounds = np.linspace(0, rows, shards + 1).round().astype(int)
    return [slice(int(a), int(b)) for a, b in itertools.pairwise(bounds) if b > a]


def _one_torch_thread() -> None:
    # torch's CPU thread count is kept per thread (OpenMP): a new worker starts at one
    # thread per core unless told.
    torch.set_num_threads(1)


def _pool(workers: int) -> ThreadPoolExecutor:
    with _pools_lock:
        if workers not in _pools:
            _pools[workers] = ThreadPoolExecutor(workers, thread_name_prefix="shard",
                                                 initializer=_one_torch_thread)
        return _pools[workers]


def run_shards(work: Callable[[slice], T], rows: int, shards: int, workers: int) -> list[T]:
    """``work(part)`` for each of the ``shards`` row slices of ``rows``, in shard order,
    computed by ``workers`` threads (one: in this thread, one after another)."""
    parts = shard_slices(rows, shards)
    if workers <= 1 or len(parts) <= 1:
        return [work(part) for part in parts]
    return list(_pool(min(workers, len(parts))).map(work, parts))


def sharded_forward(model: Forward, observations: torch.Tensor, masks: torch.Tensor,
                    shards: int, workers: int) -> tuple[torch.Tensor, torch.Tensor]:
    """``model(observations, masks)`` without gradients, computed shard by shard and put
    back together (the logits and the values of every row, in row order)."""
    def forward(part: slice) -> tuple[torch.Tensor, torch.Tensor]:
        with torch.no_grad():  # grad mode is per thread: a worker does not inherit it
            return model(observations[part], masks[part])

    outputs = run_shards(forward, len(observations), shards, workers)
    if len(outputs) == 1:
        return outputs[0]
    return (torch.cat([logits for logits, _ in outputs]),
            torch.cat([values for _, values in outputs]))


def summed(parts: Sequence[Sequence[torch.Tensor]]) -> list[torch.Tensor]:
    """The element-wise sum of each shard's tensors, added in shard order."""
    total = [tensor.clone() for tensor in parts[0]]
    for part in parts[1:]:
        for accumulated, tensor in zip(total, part, strict=True):
            accumulated.add_(tensor)
    return total
