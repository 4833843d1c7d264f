"""Training speed: environment steps per second, and wall time until the learner beats `hard`.

    python benchmarks/bench_train.py [--envs 8] [--max-timesteps 1000000]
                                     [--eval-every 50000] [--eval-hands 2000]

Three figures, one run:

* the pool environments alone, stepped with random legal actions through the same
  vectorised environment training uses (scripted opponents included): steps/s;
* training throughput: learner steps per second of wall time while MaskablePPO trains
  (rollouts and updates; the warm start and the evaluations are timed apart and left out);
* time to beat ``hard``: a training run with the default settings that evaluates every
  ``--eval-every`` steps in a ``--eval-hands`` duplicate arena and stops at the first
  evaluation where the learner beats ``hard`` with the whole 95% interval above zero. The
  wall time includes the evaluations.

Needs the ``train`` extra (``pip install torch==2.13.0 && pip install -e ".[train]"``).
"""

from __future__ import annotations

import argparse
import tempfile
import time

import numpy as np

from training.config import TrainConfig
from training.train import make_vec_env, steps_per_second, train


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=TrainConfig.envs)
    parser.add_argument("--max-timesteps", type=int, default=1_000_000)
    parser.add_argument("--eval-every", type=int, default=50_000)
    parser.add_argument("--eval-hands", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    vec = make_vec_env(TrainConfig(envs=args.envs, seed=args.seed))
    try:
        env_rate = steps_per_second(vec, 20_000, np.random.default_rng(args.seed))
    finally:
        vec.close()
    print(f"pool environments, random legal actions: {env_rate:,.0f} steps/s "
          f"({args.envs} environments, scripted opponents)")

    with tempfile.TemporaryDirectory() as folder:
        config = TrainConfig(
            timesteps=args.max_timesteps, envs=args.envs, seed=args.seed, out=folder,
            eval_every=args.eval_every, eval_hands=args.eval_hands, final_eval_hands=0,
            checkpoint_every=0, stop_when_beating=("hard",), progress=False,
        )
        started = time.perf_counter()
        result = train(config)
        wall = time.perf_counter() - started
    timings = result.timings
    learning = wall - sum(timings.values())
    print(f"warm start (imitating {config.warm_start}): {timings['warm_start']:.0f} s; "
          f"evaluations: {timings['evaluation']:.0f} s")
    print(f"training throughput (rollouts and updates): {result.timesteps / learning:,.0f} "
          f"steps/s ({result.timesteps:,} steps in {learning:.0f} s)")
    if result.stopped_at is None:
        print(f"did not beat hard within {result.timesteps:,} steps ({wall:.0f} s)")
    else:
        print(f"beat hard (95% interval above zero, {args.eval_hands} hands) after "
              f"{result.stopped_at:,} steps: {wall:.0f} s wall time, evaluations included")


if __name__ == "__main__":
    main()
