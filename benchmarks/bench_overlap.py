"""Do the batched trainer's rollout and update run at once on two Python threads?

Usage (from the repository root, on Linux)::

    .venv/bin/python -m benchmarks.bench_overlap [--preset scratch] [--threads 1]
        [--cycles 2] [--set key=value ...]

With ``overlap`` (:meth:`training.batched_ppo.Learner.rollout_and_update`)
the next rollout plays in a background thread while the learner updates. Two
Python threads only help if neither holds the GIL (or another lock) for long:
the engine, encoder and ``greedy`` kernels release it (``nogil``), torch
releases it inside its operations, the Python between them holds it. Per
cycle this plays one rollout and one update apart, then the next rollout
beside the next update as ``overlap`` runs them, and prints each phase's
wall-clock seconds split three ways: on a core; waiting for a core (the
Linux scheduler's run delay, ``/proc/self/task/<tid>/schedstat``: other
threads or processes held the cores); blocked (the rest: the GIL, a lock).
Blocked seconds near 0 beside the other phase mean the threads do run at
once; waiting seconds are the machine's load. With ``--threads`` above 1 a
phase's thread also waits for its helpers (the engine's slices, torch's
threads), and that wait counts as blocked. Prints numbers, asserts nothing.
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TypeVar

from training.batched_ppo import Learner, load_config

T = TypeVar("T")


@dataclass
class PhaseTime:
    """Where one phase's wall-clock seconds went, in the thread that ran it."""

    wall: float
    on_core: float
    """Seconds on a core."""
    waiting: float
    """Seconds runnable, waiting for a core."""

    @property
    def blocked(self) -> float:
        """Seconds neither running nor runnable: waiting for the GIL or a lock."""
        return self.wall - self.on_core - self.waiting

    def __str__(self) -> str:
        return (
            f"{self.wall:5.2f} s: {self.on_core:5.2f} on a core, "
            f"{self.waiting:5.2f} waiting for one, {self.blocked:5.2f} blocked"
        )


def thread_clock() -> tuple[float, float, float]:
    """Now, and this thread's seconds on a core and waiting for one so far."""
    with open(f"/proc/self/task/{threading.get_native_id()}/schedstat") as stat:
        on_core, waiting, _ = (int(field) for field in stat.read().split())
    return time.perf_counter(), on_core / 1e9, waiting / 1e9


def timed(phase: Callable[[], T]) -> tuple[T, PhaseTime]:
    """Run ``phase`` in this thread: what it returned, and where its seconds went."""
    before = thread_clock()
    result = phase()
    after = thread_clock()
    return result, PhaseTime(*(b - a for a, b in zip(before, after, strict=True)))


def cycles(learner: Learner, count: int) -> None:
    """Print ``count`` cycles: a rollout, then an update on it, apart; then the
    same update again beside the next rollout, as ``overlap`` runs them."""
    rollout = learner.rollout
    assert rollout is not None, "the rollout of this process (rollout_workers: 0)"
    rollout.carry_open()  # the rollout played ahead is not trained here
    with ThreadPoolExecutor(1) as background:
        for cycle in range(count):
            decisions, played = timed(learner.play)
            rollout.carry_open()  # into the other buffer: ``decisions`` stay
            _, updated = timed(partial(learner.update, decisions))
            print(f"cycle {cycle}, apart:   rollout {played}")
            print(f"cycle {cycle}, apart:   update  {updated}")
            beside = background.submit(timed, learner.play)
            _, updated = timed(partial(learner.update, decisions))
            print(f"cycle {cycle}, beside:  rollout {beside.result()[1]}")
            print(f"cycle {cycle}, beside:  update  {updated}", flush=True)
            rollout.carry_open()


def main() -> None:
    """Measure the preset's trainer with ``overlap`` on."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="scratch", help="the batched_ppo preset")
    parser.add_argument("--threads", type=int, default=1, help="the trainer's threads setting")
    parser.add_argument("--cycles", type=int, default=2, help="cycles measured")
    parser.add_argument("--set", action="append", default=[], help="override a preset field")
    args = parser.parse_args()
    overrides = ("device=cpu", f"threads={args.threads}", *args.set, "overlap=true")
    config = load_config(args.preset, overrides)
    with tempfile.TemporaryDirectory() as pool:
        learner = Learner(config, Path(pool))
        try:
            learner.start()
            learner.rollout_and_update(1.0)  # warm-up: compiles the kernels
            cycles(learner, args.cycles)
        finally:
            learner.close()


if __name__ == "__main__":
    main()
