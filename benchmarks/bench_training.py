"""Training throughput of issues 16 and 31, the trainers side by side in one run.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.bench_training [--seconds S] [--preset scratch]
        [--devices cpu,cuda] [--threads 0] [--workers 0,2] [--overlap off,on]
        [--rounds 1] [--set key=value ...] [--skip-maskable]

Rows, all measured in this run; prints numbers, asserts nothing:

* **batched_ppo** — :mod:`training.batched_ppo` with a preset's settings
  (default ``scratch``; ``--set`` overrides them): whole rollouts and PPO
  updates for about ``S`` seconds after a warm-up one (compilation), engine
  steps/s (every game moves one decision per step: the learner's, an
  opponent's or a forced move), the learner's decisions trained/s, and the
  share of the time spent simulating (engine, inputs, opponents and the
  acting pass) against updating, and the seconds (wall clock, and CPU time
  of all the process's threads) per rollout and update. One row per device of ``--devices`` (default
  ``cpu`` and, when torch sees one, ``cuda``; a device torch does not see is
  a line saying so), per count of ``--threads`` (0: ``ENV121_THREADS`` or
  every core, :func:`env121.engine.batched.threads.default_threads`) and per
  count of ``--workers`` (0: rollouts in this process; N: ``rollout_workers``
  N Ray actors on a cluster started on this machine, each with ``num_games``
  games and ``worker_cpus`` threads (``--set`` them), this process learning;
  "simulating" is then the wait for the workers' decisions), and per value
  of ``--overlap`` (``off``, ``on``: ``overlap`` false or true, the next
  rollout played during the update; "simulating" is then the wait for it
  beyond the update). ``--rounds R`` measures the whole set of rows R times,
  one after another, so rows compared on a loaded machine alternate. With
  ``--profile N`` each row is preceded by the ``N`` functions that took the
  most time in two more rollouts and updates (cProfile, wall time of the
  main thread: the threads' kernels show as the waits for them);
* **engine** — with ``--engine-games B``, per count of ``--threads``: the
  batched engine alone, ``B`` games in uniform-random legal play
  (:meth:`BatchedEngine.play_random
  <env121.engine.batched.BatchedEngine.play_random>`, its games split over
  the threads), engine steps/s: how the simulation scales with the cores;
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
import cProfile
import io
import itertools
import pstats
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import torch

from env121.engine.batched.engine import BatchedEngine
from env121.engine.batched.threads import resolve_threads
from training.batched_ppo import Learner, load_config
from training.hardware import resolve_device


@dataclass
class TrainerSpeed:
    """What one batched_ppo row measured."""

    steps_per_second: float
    """Engine steps/s, updates included."""
    samples_per_second: float
    """Learner decisions trained/s."""
    simulate_share: float
    """Share of the time in the rollouts (the rest: the updates)."""
    seconds_per_update: float
    """Wall-clock seconds of one rollout and update."""
    cpu_seconds_per_update: float
    """CPU seconds of this process (all its threads) per rollout and update:
    on a machine shared with other work, the figure its load changes least."""
    ray_seconds_per_update: float
    """With rollout workers: the learner's wait for the decisions beyond the
    slowest worker's rollout (weights out, decisions back, joining them)."""


def bench_batched_ppo(
    preset: str, seconds: float, overrides: tuple[str, ...] = (), profile: int = 0
) -> TrainerSpeed:
    """The speed of ``preset``'s trainer (with ``overrides``); with ``profile``,
    prints that many of the costliest functions of two more rollouts and updates."""
    config = load_config(preset, overrides)
    with tempfile.TemporaryDirectory() as pool:
        learner = Learner(config, Path(pool))
        try:
            return _measure(learner, seconds, profile)
        finally:
            learner.close()


def _measure(learner: Learner, seconds: float, profile: int) -> TrainerSpeed:
    """:func:`bench_batched_ppo`'s measure of a made ``learner``."""
    learner.start()
    learner.rollout_and_update(1.0)  # warm-up: compiles the kernels
    steps, updates, samples, simulate, update = learner.steps, learner.updates, 0.0, 0.0, 0.0
    ray = 0.0
    start, cpu_start = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        stats = learner.rollout_and_update(1.0)
        samples += stats["samples"]
        simulate += stats["simulate_seconds"]
        update += stats["update_seconds"]
        ray += stats["simulate_seconds"] - stats.get("worker_seconds", stats["simulate_seconds"])
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    updates = learner.updates - updates
    if profile:
        profiler = cProfile.Profile()
        profiler.runcall(lambda: [learner.rollout_and_update(1.0) for _ in range(2)])
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(profile)
        print("\n".join(line for line in text.getvalue().splitlines()[6:] if line))
    return TrainerSpeed(
        (learner.steps - steps) / elapsed,
        samples / elapsed,
        simulate / (simulate + update),
        elapsed / updates,
        cpu / updates,
        ray / updates,
    )


def bench_engine(games: int, threads: int, seconds: float) -> float:
    """Engine steps/s of ``games`` games in uniform-random play on ``threads`` threads."""
    engine = BatchedEngine(games, threads=threads)
    engine.play_random(8)  # warm-up: compiles the loop
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += engine.play_random(64, rng_seed=steps)
    return steps / (time.perf_counter() - start)


def device_label(device: str) -> str | None:
    """``device`` with its card's name, or ``None`` when torch does not see it."""
    try:
        resolved = resolve_device(device)
    except ValueError:
        return None
    if resolved.type == "cuda":
        return f"{device}: {torch.cuda.get_device_name(resolved)}"
    return device


def main() -> None:
    """Run every row and print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="time per batched_ppo row")
    parser.add_argument("--preset", default="scratch", help="the batched_ppo preset")
    parser.add_argument(
        "--devices", default="cpu,cuda", help="comma-separated devices of the batched_ppo rows"
    )
    parser.add_argument(
        "--threads", default="0", help="comma-separated thread counts (0: the default)"
    )
    parser.add_argument("--set", action="append", default=[], help="override a preset field")
    parser.add_argument(
        "--workers",
        default="0",
        help="comma-separated rollout_workers counts, each a row (0: rollouts in process)",
    )
    parser.add_argument(
        "--overlap",
        default="off",
        help="comma-separated overlap settings, each a row: off, on",
    )
    parser.add_argument("--rounds", type=int, default=1, help="measure every row this many times")
    parser.add_argument(
        "--engine-games", type=int, default=0, help="games of the engine rows (0: no such rows)"
    )
    parser.add_argument(
        "--profile", type=int, default=0, help="print the N costliest functions of each row"
    )
    parser.add_argument("--ppo-steps", type=int, default=16384, help="MaskablePPO steps to time")
    parser.add_argument("--skip-maskable", action="store_true", help="only the batched_ppo rows")
    args = parser.parse_args()

    thread_counts = [resolve_threads(int(t)) for t in args.threads.split(",")]
    worker_counts = [int(w) for w in args.workers.split(",")]
    overlaps = args.overlap.split(",")
    if not set(overlaps) <= {"off", "on"} or args.rounds < 1:
        parser.error(f"--overlap {args.overlap} --rounds {args.rounds}: expected off,on and ≥ 1")
    for count in thread_counts if args.engine_games else ():
        engine = bench_engine(args.engine_games, count, args.seconds)
        name = f"engine, {args.engine_games} games, {count} threads"
        print(f"{name:<36} {engine:>9,.0f} engine steps/s  (uniform random play)", flush=True)
    for device in args.devices.split(","):
        label = device_label(device)
        if label is None:
            print(f"batched_ppo on {device}: skipped, torch sees no such device here")
            continue
        rows = itertools.product(range(args.rounds), thread_counts, worker_counts, overlaps)
        for _, count, workers, overlap in rows:
            overrides = (f"device={device}", f"threads={count}", *args.set)
            overrides += (f"rollout_workers={workers}",) if workers else ()
            overrides += ("overlap=true",) if overlap == "on" else ()
            speed = bench_batched_ppo(args.preset, args.seconds, overrides, args.profile)
            name = f"batched_ppo ({args.preset}) {count} threads"
            if workers:
                name += f", {workers} Ray workers"
            if overlap == "on" or len(overlaps) > 1:
                name += f", overlap {overlap}"
            print(
                f"{name:<36} {speed.steps_per_second:>9,.0f} engine steps/s  "
                f"{speed.samples_per_second:>9,.0f} learner decisions/s  "
                f"{speed.simulate_share:.0%} simulating  "
                f"{speed.seconds_per_update:.2f} s/update "
                f"({speed.cpu_seconds_per_update:.2f} CPU s)"
                + (f" ({speed.ray_seconds_per_update:.2f} s Ray's)" if workers else "")
                + f"  [{label}]",
                flush=True,
            )
    if args.skip_maskable:
        return
    from benchmarks.bench_batched import bench_maskable_ppo_envs  # sb3-contrib

    vector, processes = bench_maskable_ppo_envs(args.ppo_steps, seed=1)
    print(f"{'MaskablePPO, batched vector env B=64':<36} {vector:>9,.0f} learner steps/s")
    print(f"{'MaskablePPO, 2 SingleSeat processes':<36} {processes:>9,.0f} learner steps/s")


if __name__ == "__main__":
    main()
