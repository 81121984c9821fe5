"""Run many games, in this process or in a pool of worker processes.

Workers receive :class:`~arena.play.GameTask` objects — agent specs as
strings, never agent objects — and build their agents on first use, keeping
them (one :class:`~arena.play.AgentCache` per worker process) for later games.
Whatever order the games finish in, :func:`play_all` returns their records in
the order of the tasks, so everything computed from them except thinking time
is the same for any number of jobs. ``on_game(record)`` is called as each
game ends, in the order they end (a tournament appends it to its log,
:mod:`arena.journal`).

Worker processes ignore Ctrl-C (SIGINT): the parent stops handing out games,
waits for the ones being played and raises ``KeyboardInterrupt``, so an
interrupted run prints no traceback per worker.

Worker processes use the platform's default start method (``fork`` on Linux):
agents registered at run time with :func:`agents.registry.register` reach the
workers only under ``fork``.

A :class:`Backend` plays the games somewhere else instead, on a cluster:
:class:`arena.ray_backend.RayBackend` makes each game a Ray task. It keeps
the same contract: records in task order, ``progress`` and ``on_game`` as
games end.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from typing import Protocol

from agents.warmup import warm_kernels
from arena.play import AgentCache, GameRecord, GameTask, play_game

Progress = Callable[[int, int], None]
"""``progress(games done, games in all)``, called after each game."""

OnGame = Callable[[GameRecord], None]
"""``on_game(record)``, called as each game ends."""

_worker_cache: AgentCache | None = None


class Backend(Protocol):
    """Where :func:`play_all` sends the games instead of its worker processes."""

    @property
    def slots(self) -> int:
        """How many games it plays at once (``results.json``'s ``jobs``)."""
        ...

    def play(
        self, tasks: Sequence[GameTask], progress: Progress | None, on_game: OnGame | None
    ) -> list[GameRecord]:
        """Every task's record, in task order, with :func:`play_all`'s callbacks."""
        ...


def play_all(
    tasks: Sequence[GameTask],
    *,
    jobs: int = 1,
    progress: Progress | None = None,
    cache: AgentCache | None = None,
    on_game: OnGame | None = None,
    backend: Backend | None = None,
) -> list[GameRecord]:
    """Every task's record, in task order; ``jobs > 1`` plays them in that many
    processes, a ``backend`` wherever it plays them (``jobs`` is then unused).

    ``cache`` supplies the agents when ``jobs == 1`` (a fresh one if None).
    """
    if backend is not None:
        return backend.play(tasks, progress, on_game)
    if jobs == 1 or len(tasks) <= 1:
        return _play_here(tasks, cache or AgentCache(), progress, on_game)
    return _play_in_pool(tasks, jobs, progress, on_game)


def _play_here(
    tasks: Sequence[GameTask],
    cache: AgentCache,
    progress: Progress | None,
    on_game: OnGame | None,
) -> list[GameRecord]:
    records = []
    for task in tasks:
        records.append(play_game(task, cache))
        if on_game is not None:
            on_game(records[-1])
        if progress is not None:
            progress(len(records), len(tasks))
    return records


def _play_in_pool(
    tasks: Sequence[GameTask], jobs: int, progress: Progress | None, on_game: OnGame | None
) -> list[GameRecord]:
    records: list[GameRecord | None] = [None] * len(tasks)
    executor = ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker)
    try:
        futures: dict[Future[GameRecord], int] = {
            executor.submit(play_in_worker, task): i for i, task in enumerate(tasks)
        }
        for done, future in enumerate(as_completed(futures), start=1):
            record = records[futures[future]] = future.result()
            if on_game is not None:
                on_game(record)
            if progress is not None:
                progress(done, len(tasks))
    except BaseException:
        # An agent failed (or the user interrupted): drop the games not yet started.
        executor.shutdown(wait=True, cancel_futures=True)
        raise
    executor.shutdown(wait=True)
    return [record for record in records if record is not None]


def _start_worker() -> None:
    """Give a new worker process an empty agent cache and its kernels loaded (so
    no decision's time includes them); Ctrl-C is the parent's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    global _worker_cache
    _worker_cache = AgentCache()
    warm_kernels()


def play_in_worker(task: GameTask) -> GameRecord:
    """Play ``task`` with this worker process's agents (built on first use, then kept)."""
    global _worker_cache
    if _worker_cache is None:
        _worker_cache = AgentCache()
    return play_game(task, _worker_cache)


__all__ = ["Backend", "OnGame", "Progress", "play_all", "play_in_worker"]
