"""Training throughput of issue 16, the trainers side by side in one run.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.bench_training [--seconds S] [--preset scratch]

Rows, all measured in this run; prints numbers, asserts nothing:

* **batched_ppo** — :mod:`training.batched_ppo` with a preset's settings
  (default ``scratch``): whole rollouts and PPO updates for about ``S``
  seconds after a warm-up one (compilation), engine steps/s (every game moves
  one decision per step: the learner's, an opponent's or a forced move) and
  the learner's decisions trained/s;
* **MaskablePPO, batched vector env** — sb3-contrib's ``MaskablePPO`` with the
  ``small`` preset's settings on :class:`training.sb3_vec.SB3VectorSingleSeat`
  (64 games, random opponents), learner steps/s, updates included;
* **MaskablePPO, 2 processes** — the same on two ``SingleSeat`` processes
  (``SubprocVecEnv``), the presets' way before the batched engine.

Learner steps of MaskablePPO are its one seat's decisions; the batched
trainer's engine steps count every seat's decision, its learner decisions
those of the seats it plays (all four at a self-play table).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import torch

from benchmarks.bench_batched import bench_maskable_ppo_envs
from training.batched_ppo import Learner, load_config


def bench_batched_ppo(preset: str, seconds: float) -> tuple[float, float]:
    """(engine steps/s, learner decisions trained/s) of ``preset``'s trainer."""
    config = load_config(preset)
    torch.set_num_threads(config.torch_threads)
    with tempfile.TemporaryDirectory() as pool:
        learner = Learner(config, Path(pool))
        learner.start()
        learner.rollout_and_update(1.0)  # warm-up: compiles the kernels
        steps, samples = learner.steps, 0.0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            samples += learner.rollout_and_update(1.0)["samples"]
        elapsed = time.perf_counter() - start
    return (learner.steps - steps) / elapsed, samples / elapsed


def main() -> None:
    """Run every row and print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="time per batched_ppo row")
    parser.add_argument("--preset", default="scratch", help="the batched_ppo preset")
    parser.add_argument("--ppo-steps", type=int, default=16384, help="MaskablePPO steps to time")
    args = parser.parse_args()

    steps, samples = bench_batched_ppo(args.preset, args.seconds)
    name = f"batched_ppo ({args.preset})"
    print(f"{name:<36} {steps:>9,.0f} engine steps/s  {samples:>9,.0f} learner decisions/s")

    vector, processes = bench_maskable_ppo_envs(args.ppo_steps, seed=1)
    print(f"{'MaskablePPO, batched vector env B=64':<36} {vector:>9,.0f} learner steps/s")
    print(f"{'MaskablePPO, 2 SingleSeat processes':<36} {processes:>9,.0f} learner steps/s")


if __name__ == "__main__":
    main()
