"""Ray's overhead on one machine. Prints numbers; asserts nothing. Needs the ``ray`` extra.

Usage::

    .venv/bin/python benchmarks/bench_ray.py [--deals N] [--iterations N] [--skip WHICH]

On a local Ray cluster of 2 CPUs (this machine, loopback only):

* **tournament**: games/s of the same ``greedy`` vs 3× ``random`` tournament
  (one ván per match) played by ``--jobs 2`` worker processes and as Ray
  tasks (``--ray``), the cluster's start timed apart; both start their
  workers cold, as a command does;
* **training**: trained decisions/s of RLlib's PPO (``examples/ray/rllib_selfplay.py``,
  2 EnvRunners × 4 environments, every seat the learner) next to the
  project's SB3 trainer (:mod:`training.ppo_selfplay`, 2 subprocess
  environments, one learning seat against three snapshots of itself), the
  same 256×256 networks and 4 epochs, updates included. SB3 trains on one
  seat's decisions and plays the other three with the snapshots' forward
  passes; RLlib trains on all four, so "decisions/s" counts what each
  learns from.
"""

from __future__ import annotations

import argparse
import logging
import os
import tempfile
import time
from pathlib import Path

from arena.ray_backend import RayBackend
from arena.tournament import plan_tournament, play_tournament
from env121.rules.config import RuleConfig

CPUS = 2
MATCHUP = [("greedy", "random")]


def start_cluster() -> float:
    """Start a local cluster of :data:`CPUS` CPUs on the loopback; its seconds."""
    import ray
    from ray._private import ray_constants

    # Serve on 127.0.0.1 (as tests/support/ray_cluster.py): Ray's processes read the
    # environment, this one read it when it imported ray.
    os.environ[ray_constants.ENABLE_RAY_CLUSTERS_ENV_VAR] = "0"
    ray_constants.ENABLE_RAY_CLUSTER = False
    start = time.perf_counter()
    ray.init(
        address="local",  # a new cluster, whatever `ray start` left running here
        num_cpus=CPUS,
        include_dashboard=False,
        object_store_memory=200 * 2**20,
        logging_level=logging.ERROR,
        log_to_driver=False,
    )
    return time.perf_counter() - start


def bench_tournament(deals: int) -> None:
    config = RuleConfig(num_van=1)
    games = deals * 4
    plan = plan_tournament(matchups=MATCHUP, deals=deals, seed=1, config=config)
    start = time.perf_counter()
    play_tournament(plan, jobs=CPUS)
    processes = time.perf_counter() - start
    cluster = start_cluster()
    plan = plan_tournament(matchups=MATCHUP, deals=deals, seed=1, config=config)
    start = time.perf_counter()
    play_tournament(plan, backend=RayBackend())
    on_ray = time.perf_counter() - start
    print(f"tournament: {games} games (greedy vs 3× random, 1 ván each)")
    print(f"  --jobs {CPUS}              {games / processes:6.2f} games/s  ({processes:.1f} s)")
    print(
        f"  --ray (local, {CPUS} CPUs)  {games / on_ray:6.2f} games/s  ({on_ray:.1f} s; "
        f"the cluster's start {cluster:.1f} s more)"
    )


def bench_training(iterations: int) -> None:
    import ray

    from examples.ray.rllib_selfplay import RLlibConfig
    from examples.ray.rllib_selfplay import train as train_rllib
    from training.ppo_selfplay import load_config, train

    with tempfile.TemporaryDirectory() as out:
        sb3 = train(
            load_config(
                "small",
                [
                    "total_timesteps=4096",
                    "n_steps=1024",
                    "batch_size=512",
                    "n_epochs=4",
                    "hidden_sizes=[256, 256]",
                    "opponent_weights={pool: 1.0}",
                    "eval_every=0",
                    "rules={num_van: 1}",
                ],
            ),
            Path(out) / "sb3",
        )
        if not ray.is_initialized():
            start_cluster()
        config = RLlibConfig(
            iterations=iterations,
            num_env_runners=2,
            num_envs_per_env_runner=4,
            train_batch_size=2000,
            minibatch_size=512,
            num_epochs=4,
            snapshot_every=0,
        )
        start = time.perf_counter()
        rllib = train_rllib(config, Path(out) / "rllib")
        setup = time.perf_counter() - start - rllib.seconds
    print("training: trained decisions/s, updates included (256×256, 4 epochs, 1 ván matches)")
    print(
        f"  SB3 MaskablePPO, 2 subprocess envs   {sb3.steps_per_second:6.0f}  "
        f"({sb3.num_timesteps} learner steps in {sb3.seconds:.0f} s)"
    )
    print(
        f"  RLlib PPO, 2 EnvRunners × 4 envs     {rllib.env_steps_per_second:6.0f}  "
        f"({rllib.env_steps} env steps in {rllib.seconds:.0f} s; setup {setup:.0f} s more)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=16, help="tournament deals (4 games each)")
    parser.add_argument("--iterations", type=int, default=3, help="RLlib iterations")
    parser.add_argument("--skip", choices=("tournament", "training"), help="measure only the other")
    args = parser.parse_args()
    if args.skip != "tournament":
        bench_tournament(args.deals)
    if args.skip != "training":
        bench_training(args.iterations)


if __name__ == "__main__":
    main()
