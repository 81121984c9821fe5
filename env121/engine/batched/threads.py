"""Slices of a batch of games, run on threads, and how many threads env121 uses.

The batched kernels release the GIL (``nogil=True``), so a batch split into
slices runs on several cores from plain Python threads. :class:`SliceThreads`
is that split, shared by the engine's steps and the batched policies and
encoders above it::

    threads = SliceThreads(threads=None, min_per_thread=64)   # default_threads()
    threads.run(len(indices), lambda part: kernel(games, indices[part], out[part]))

**One setting for threads.** :func:`default_threads` is what every part of
env121 uses when it is not given a count: the environment variable
``ENV121_THREADS`` (:data:`THREADS_VARIABLE`) when it is set, else every core
this process may run on (its CPU affinity, which a container or ``taskset``
narrows). The trainers' ``threads`` setting (0: this default) sets the engine's
slices and torch's intra-op threads alike; numba's own thread pool is not used
(no kernel is ``parallel=True``). The slices, the encoder and torch take
turns, never run at once, so one count for all of them does not stack
threads on threads; but on a machine shared with other work set
``ENV121_THREADS`` to the cores that are yours: torch's threads wait on each
other, and one held off its core by another process holds up every step
(measured in training/README.md, "Where it runs").
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise

THREADS_VARIABLE = "ENV121_THREADS"
"""The environment variable that sets :func:`default_threads`."""


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system
    tells it, else the machine's count)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def default_threads() -> int:
    """``ENV121_THREADS`` when it is set, else :func:`usable_cores`; an
    ``ENV121_THREADS`` that is not a positive integer is a ``ValueError``
    naming it."""
    text = os.environ.get(THREADS_VARIABLE, "").strip()
    if not text:
        return usable_cores()
    if not text.isdigit() or int(text) < 1:
        raise ValueError(
            f"{THREADS_VARIABLE}={text!r} is not valid: expected a positive integer "
            "(threads), or leave it unset for every core"
        )
    return int(text)


def resolve_threads(threads: int) -> int:
    """A trainer's ``threads`` setting as a count: itself, or
    :func:`default_threads` for 0."""
    return threads if threads > 0 else default_threads()


class SliceThreads:
    """Runs a function of a slice over ``count`` items, on up to ``threads``
    threads (default: :func:`default_threads`), each given at least
    ``min_per_thread`` items (fewer items are run by fewer threads: waking a
    thread has its cost)."""

    def __init__(self, threads: int | None, min_per_thread: int) -> None:
        if threads is None:
            threads = default_threads()
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ValueError(f"threads={threads!r} is not valid: expected a positive int or None")
        self.threads = threads
        self.min_per_thread = min_per_thread
        self._pool = ThreadPoolExecutor(threads) if threads > 1 else None

    def used(self, count: int) -> int:
        """How many threads run ``count`` items."""
        return max(1, min(self.threads, count // self.min_per_thread))

    def run(self, count: int, run: Callable[[slice], None]) -> None:
        """``run(part)`` for consecutive slices ``part`` covering ``0 .. count``,
        each on its own thread; returns when all are done."""
        used = self.used(count)
        if self._pool is None or used == 1:
            run(slice(0, count))
            return
        bounds = [count * i // used for i in range(used + 1)]
        for _ in self._pool.map(run, [slice(lo, hi) for lo, hi in pairwise(bounds)]):
            pass


def forked_worker_torch() -> None:
    """Run torch on one thread in a process forked from one that may have used it.

    A parent that built an agent to check its spec (a ``ppo:`` network, or an
    ``import:`` agent that loads its weights) has imported torch and may have
    started its OpenMP thread pool; a forked child that enters that pool waits
    for ever for threads it does not have (an ``import:`` agent hung a
    tournament's ``--jobs 2`` that way). On one thread torch never enters the
    pool. The initializer of every forked worker pool calls it (the arena's
    and the demonstrations'); torch itself is not imported here."""
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)


__all__ = [
    "THREADS_VARIABLE",
    "SliceThreads",
    "default_threads",
    "forked_worker_torch",
    "resolve_threads",
    "usable_cores",
]
