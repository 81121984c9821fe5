"""Slices of a batch of games, run on threads.

The batched kernels release the GIL (``nogil=True``), so a batch split into
slices runs on several cores from plain Python threads. :class:`SliceThreads`
is that split, shared by the engine's steps and the batched policies and
encoders above it::

    threads = SliceThreads(threads=None, min_per_thread=64)   # one per core
    threads.run(len(indices), lambda part: kernel(games, indices[part], out[part]))
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise


class SliceThreads:
    """Runs a function of a slice over ``count`` items, on up to ``threads``
    threads (default: one per core), each given at least ``min_per_thread``
    items (fewer items are run by fewer threads: waking a thread has its cost)."""

    def __init__(self, threads: int | None, min_per_thread: int) -> None:
        if threads is None:
            threads = os.cpu_count() or 1
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


__all__ = ["SliceThreads"]
