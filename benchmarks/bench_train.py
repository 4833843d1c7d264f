"""Training speed: the batched self-play trainer next to the sb3-contrib MaskablePPO path.

    python benchmarks/bench_train.py [--decisions 1000000] [--sb3-steps 40000]
                                     [--threads-options 1 2] [--time-to-beat]
                                     [--max-decisions 6000000] [--eval-hands 2000]
                                     [--threads N]
    python benchmarks/bench_train.py --ray [--decisions 300000] [--ray-workers 1 2]
                                     [--ray-address HEAD_IP:6379]

Figures, one run (so the ratio compares like with like on a shared machine):

* learner steps per second of wall time while each trainer trains (rollouts and updates;
  the sb3 path's warm start is off and its evaluations are off; the self-play trainer's
  exploiters are off), and their ratio;
* the self-play trainer's learner steps per second at each thread count of
  ``--threads-options``, on the machine as it is ("quiet") and again while the benchmark
  runs one competing process of its own (``python -c "while True: pass"``, killed at the
  end), and the busy figure as a share of the quiet one;
* with ``--time-to-beat``: the wall time until a self-play run from scratch, with the
  default settings (the shipped policy's league recipe), gives a policy that beats
  ``hard`` and ``equity`` head to head. The run trains once; then each of its snapshots
  (every 500,000 decisions), in order, plays a ``--eval-hands`` duplicate arena in 2v2
  tables against each of them (on seeds apart from the training's). The clock stops at
  the first snapshot where both whole 95% intervals are above zero: its training time
  plus the evaluations up to it.
* with ``--ray`` (instead of the figures above): learner steps per second of the local
  trainer, then of ``selfplay --ray`` on a local Ray instance with each worker count of
  ``--ray-workers`` (each worker steps the trainer's default tables), in the same run
  (on a cluster with ``--ray-address``);
  with each, the measured seconds of one update (on the driver) and of one rollout (a
  worker's), and what they say about scaling: a round takes about a rollout (the workers
  collect side by side) plus an update over every worker's decisions, so the learner is
  the bottleneck from about ``rollout / update-per-worker`` workers on.

Needs the ``train`` extra (``pip install torch==2.13.0 && pip install -e ".[train]"``).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from agents.arena import head_to_head
from training.config import SelfPlayConfig, TrainConfig
from training.selfplay import train_selfplay
from training.train import train


def selfplay_rate(decisions: int, seed: int, folder: str,
                  threads: int | None = SelfPlayConfig().threads) -> float:
    config = SelfPlayConfig(timesteps=decisions, seed=seed, out=folder, progress=False,
                            checkpoint_every=10**12, snapshot_every=10**12, exploiter_every=0,
                            uniform_table_share=0.0, threads=threads)
    result = train_selfplay(config)
    return result.steps_per_second


def ray_rates(decisions: int, seed: int, folder: str, threads: int | None,
              worker_counts: Sequence[int], address: str | None = None,
              ) -> dict[str, dict[str, float]]:
    """The local trainer and ``selfplay --ray`` with each worker count, one after the
    other on a local Ray instance (or the cluster at ``address``): learner steps per
    second, seconds per update and per rollout."""
    import ray

    if address:
        ray.init(address=address, log_to_driver=False)
    else:
        ray.init(num_cpus=max(worker_counts), include_dashboard=False, log_to_driver=False)
    figures: dict[str, dict[str, float]] = {}
    try:
        for workers in [0, *worker_counts]:
            config = SelfPlayConfig(
                timesteps=decisions, seed=seed, out=f"{folder}/ray-{workers}", progress=False,
                checkpoint_every=10**12, snapshot_every=10**12, exploiter_every=0,
                uniform_table_share=0.0, threads=threads, ray="" if workers else None,
                rollout_workers=max(workers, 1))
            result = train_selfplay(config)
            name = f"ray-{workers}" if workers else "local"
            figures[name] = {"steps_per_second": result.steps_per_second,
                             "update_seconds": result.update_seconds,
                             "rollout_seconds": result.rollout_seconds}
            where = (f"Ray, {workers} rollout worker{'s' if workers > 1 else ''}" if workers
                     else "local trainer")
            print(f"  {where}: {result.steps_per_second:,.0f} learner steps/s; one update "
                  f"{result.update_seconds:.2f} s, one rollout {result.rollout_seconds:.2f} s",
                  flush=True)
    finally:
        ray.shutdown()
    one = figures[f"ray-{min(worker_counts)}"]
    per_worker = one["update_seconds"] / min(worker_counts)
    print(f"  the update costs about {per_worker:.2f} s per worker's rollout, a rollout "
          f"{one['rollout_seconds']:.2f} s: the learner is the bottleneck from about "
          f"{one['rollout_seconds'] / per_worker:.1f} workers on (with a free CPU per worker)")
    return figures


@contextlib.contextmanager
def competing_process() -> Iterator[None]:
    """One other process that keeps a core busy (a Python busy loop) while it is open."""
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.5)  # let it get going
        yield
    finally:
        burner.kill()
        burner.wait()


def busy_rates(decisions: int, seed: int, folder: str,
               threads_options: Sequence[int]) -> dict[str, dict[str, float]]:
    """Learner steps per second at each thread count, as the machine is and beside one
    competing process, each pair measured back to back."""
    figures: dict[str, dict[str, float]] = {}
    for threads in threads_options:
        quiet = selfplay_rate(decisions, seed, f"{folder}/quiet-{threads}", threads)
        with competing_process():
            busy = selfplay_rate(decisions, seed, f"{folder}/busy-{threads}", threads)
        figures[str(threads)] = {"quiet": quiet, "busy": busy, "busy_share": busy / quiet}
        print(f"  {threads} thread{'s' if threads > 1 else ''}: {quiet:,.0f} learner "
              f"steps/s as the machine is, {busy:,.0f} beside one competing process "
              f"({busy / quiet:.0%} of it)", flush=True)
    return figures


def sb3_rate(steps: int, seed: int, folder: str) -> float:
    config = TrainConfig(timesteps=steps, seed=seed, out=folder, warm_start=None,
                         eval_every=0, final_eval_hands=0, checkpoint_every=0,
                         progress=False)
    started = time.perf_counter()
    result = train(config)
    wall = time.perf_counter() - started
    return result.timesteps / (wall - sum(result.timings.values()))


def time_to_beat(args: argparse.Namespace, folder: str) -> dict[str, object]:
    """Train the default run once, then play its snapshots, in order, against ``hard`` and
    ``equity``; the wall time of the first that beats both is its training time (from
    ``progress.csv``) plus the evaluations up to it."""
    out = Path(folder) / "to-beat"
    config = SelfPlayConfig(timesteps=args.max_decisions, seed=args.seed, out=str(out),
                            progress=False, threads=args.threads)
    train_selfplay(config)
    with (out / "progress.csv").open() as handle:
        seconds = {int(row["decisions"]): float(row["seconds"])
                   for row in csv.DictReader(handle) if row["seconds"]}
    snapshots = sorted((out / "snapshots").glob("step_*.npz"),
                       key=lambda path: int(path.stem.split("_")[1]))
    evaluating = 0.0
    for path in snapshots:
        decisions = int(path.stem.split("_")[1])
        started = time.perf_counter()
        report = head_to_head(f"ppo:{path}", ["hard", "equity"], tables=("2v2",),
                              hands=args.eval_hands, seed=10_000 + args.seed, workers=None)
        evaluating += time.perf_counter() - started
        edges = {row.opponent: row.result for row in report.rows}
        wall = seconds[decisions] + evaluating
        line = ", ".join(f"{name} {edge.mean:+.3f} [{edge.low:+.3f}, {edge.high:+.3f}]"
                         for name, edge in edges.items())
        print(f"  {decisions:,} decisions, {wall:.0f} s: {line}", flush=True)
        if all(edge.low > 0 for edge in edges.values()):
            return {"decisions": decisions, "seconds": wall}
    return {"decisions": None, "seconds": None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=1_000_000,
                        help="decisions the self-play trainer trains for in the speed run")
    parser.add_argument("--sb3-steps", type=int, default=40_000,
                        help="learner steps of the sb3-contrib path in the speed run")
    parser.add_argument("--time-to-beat", action="store_true",
                        help="also time a run from scratch until it beats hard and equity")
    parser.add_argument("--max-decisions", type=int, default=SelfPlayConfig().timesteps,
                        help="decisions of the --time-to-beat run (default: the trainer's)")
    parser.add_argument("--eval-hands", type=int, default=2_000)
    parser.add_argument("--threads", type=int, default=SelfPlayConfig().threads,
                        help="threads (computing the row shards) of the speed run and "
                             "the --time-to-beat run (default: the trainer's)")
    parser.add_argument("--threads-options", type=int, nargs="*", default=[1, 2],
                        help="thread counts measured quiet and beside a competing process "
                             "(none: skip that measurement)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    parser.add_argument("--ray", action="store_true",
                        help="measure the local trainer against selfplay --ray instead")
    parser.add_argument("--ray-workers", type=int, nargs="+", default=[1, 2],
                        help="rollout worker counts of --ray")
    parser.add_argument("--ray-address", help="a Ray cluster for --ray (default: a local "
                        "instance with as many CPUs as the most workers)")
    args = parser.parse_args()

    if args.ray:
        with tempfile.TemporaryDirectory() as folder:
            print("the local trainer and selfplay --ray on a local Ray instance:")
            ray_figures = ray_rates(args.decisions, args.seed, folder, args.threads,
                                    args.ray_workers, args.ray_address)
        if args.json:
            print(json.dumps(ray_figures))
        return

    with tempfile.TemporaryDirectory() as folder:
        batched = selfplay_rate(args.decisions, args.seed, f"{folder}/selfplay", args.threads)
        print(f"batched self-play trainer: {batched:,.0f} learner steps/s", flush=True)
        sb3 = sb3_rate(args.sb3_steps, args.seed, f"{folder}/sb3")
        print(f"sb3-contrib MaskablePPO path: {sb3:,.0f} learner steps/s", flush=True)
        print(f"ratio: {batched / sb3:.1f}x", flush=True)
        figures: dict[str, object] = {"selfplay_steps_per_second": batched,
                                      "sb3_steps_per_second": sb3, "ratio": batched / sb3}
        if args.threads_options:
            print("the self-play trainer as the machine is and beside one competing process:")
            figures["threads"] = busy_rates(args.decisions, args.seed, f"{folder}/busy",
                                            args.threads_options)
        if args.time_to_beat:
            print("time to a policy that beats hard and equity head to head (2v2):")
            figures["time_to_beat"] = time_to_beat(args, folder)
            print(f"  {figures['time_to_beat']}")
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
