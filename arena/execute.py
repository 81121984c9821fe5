"""Run many games, in this process or in a pool of worker processes.

Every game is played on the compiled engine (:func:`arena.batched.play_batch`,
the arena's one way to play): the games whose four agents all decide for many
games at once (``random``, ``greedy``, ``ppo``:
:func:`arena.batched.decides_together`) together, :data:`BATCH_GAMES` at a
time; the others, whose agents act a turn at a time, each a batch of one
(:func:`work_units`).

Workers receive :class:`~arena.play.GameTask` objects — agent specs as
strings, never agent objects — a batch or one game at a time, and build
their agents on first use, keeping them (one :class:`~arena.play.AgentCache`
per worker process) for later games. Whatever order the games finish in,
:func:`play_all` returns their records in the order of the tasks, so
everything computed from them except thinking time is the same for any number
of jobs. ``on_game(record)`` is called as each game ends, in the order they
end (a tournament appends it to its log, :mod:`arena.journal`); a worker's
batch reports its games when the whole batch ends.

Worker processes ignore Ctrl-C (SIGINT): the parent stops handing out games,
waits for the ones being played, passes them to ``on_game`` (so the log keeps
them) and raises ``KeyboardInterrupt``, so an interrupted run prints no
traceback per worker.

Worker processes use the platform's default start method (``fork`` on Linux):
agents registered at run time with :func:`agents.registry.register` reach the
workers only under ``fork``.

A :class:`Backend` plays the games somewhere else instead, on a cluster:
:class:`arena.ray_backend.RayBackend` makes each game a Ray task. It keeps
the same contract: records in task order, ``progress`` and ``on_game`` as
games end.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Protocol

from agents.warmup import families_for, warm_kernels
from arena.batched import batched_player, decides_together, play_batch
from arena.play import AgentCache, GameRecord, GameTask, game_key
from env121.engine.batched.threads import THREADS_VARIABLE, default_threads, forked_worker_torch
from env121.rules.config import RuleConfig

Progress = Callable[[int, int], None]
"""``progress(games done, games in all)``, called after each game."""

OnGame = Callable[[GameRecord], None]
"""``on_game(record)``, called as each game ends."""

BATCH_GAMES = 256
"""The most games played together: an interrupted run loses at most the
batch being played, and a worker's batch reports its games when it ends."""
UNITS_PER_PROCESS = 4
"""The fewest batches per worker process (or Ray CPU), so that the processes
share the work evenly to the end."""

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
    cache = cache or AgentCache()
    units = work_units(tasks, cache, 1 if jobs == 1 else UNITS_PER_PROCESS * jobs)
    ended = EndedGames(tasks, progress, on_game)
    if jobs == 1 or len(units) <= 1:
        for unit in units:
            play_unit(unit, cache, ended.add)
    else:
        _play_in_pool(units, jobs, ended.add, on_game)
    return ended.in_task_order()


class EndedGames:
    """The records of ``tasks`` as their games end, in whatever order: each is
    passed to ``on_game`` and counted to ``progress`` when it comes, and kept
    in its task's place (the contract of :func:`play_all` and of every
    :class:`Backend`)."""

    def __init__(
        self, tasks: Sequence[GameTask], progress: Progress | None, on_game: OnGame | None
    ) -> None:
        self._position = {game_key(task): i for i, task in enumerate(tasks)}
        self._records: list[GameRecord | None] = [None] * len(tasks)
        self._ended = 0
        self._progress = progress
        self._on_game = on_game

    def add(self, record: GameRecord) -> None:
        """Keep the record of a game that just ended, then call the callbacks."""
        self._records[self._position[game_key(record)]] = record
        self._ended += 1
        if self._on_game is not None:
            self._on_game(record)
        if self._progress is not None:
            self._progress(self._ended, len(self._records))

    def in_task_order(self) -> list[GameRecord]:
        """The records kept so far, in the order of the tasks."""
        return [record for record in self._records if record is not None]


@dataclass(frozen=True)
class Unit:
    """Games a process plays in one go, together on the compiled engine
    (:func:`arena.batched.play_batch`)."""

    tasks: tuple[GameTask, ...]


def work_units(tasks: Sequence[GameTask], cache: AgentCache, parts: int = 1) -> list[Unit]:
    """``tasks`` in the units they are played in: the games every agent of
    which decides for many games at once together (those of one rule
    configuration), at most :data:`BATCH_GAMES` at a time and in at least
    ``parts`` units (so that each of ``parts`` processes gets some), then each
    other game alone (its agents keep a match's state:
    :class:`arena.batched.FollowedSeats`)."""
    specs = {spec for task in tasks for spec in task.specs}
    together = {spec: decides_together(spec, cache) for spec in specs}
    batched: dict[RuleConfig, list[GameTask]] = {}  # a batch plays under one config
    for task in tasks:
        if all(together[s] for s in task.specs):
            batched.setdefault(task.config, []).append(task)
    alone = [Unit((t,)) for t in tasks if not all(together[s] for s in t.specs)]
    batches = []
    for games in batched.values():
        size = min(BATCH_GAMES, -(-len(games) // max(parts, 1)))
        batches += [Unit(tuple(games[i : i + size])) for i in range(0, len(games), size)]
    return batches + alone


def play_unit(unit: Unit, cache: AgentCache, on_game: OnGame | None = None) -> list[GameRecord]:
    """The records of ``unit``'s games, in its order, played with the agents of
    ``cache``; ``on_game(record)`` as each game ends."""
    return play_batch(unit.tasks, lambda spec: batched_player(spec, cache)(), on_game)


def _play_in_pool(
    units: Sequence[Unit], jobs: int, finished: OnGame, on_game: OnGame | None
) -> None:
    """Play ``units`` in ``jobs`` processes, ``finished(record)`` for each game
    of a unit as it ends. If that stops (an agent failed, the user interrupted),
    the units not started are dropped, and the games of those being played
    still go to ``on_game`` (the tournament's log) once they end."""
    share = max(1, default_threads() // jobs)  # the machine's threads, shared by the workers
    families = families_for({spec for unit in units for task in unit.tasks for spec in task.specs})
    executor = ProcessPoolExecutor(
        max_workers=jobs, initializer=_start_worker, initargs=(share, families)
    )
    futures = [executor.submit(play_unit_in_worker, unit) for unit in units]
    delivered: set[tuple[int, int, int]] = set()
    try:
        for future in as_completed(futures):
            for record in future.result():
                delivered.add(game_key(record))
                finished(record)
    except BaseException:
        executor.shutdown(wait=True, cancel_futures=True)
        if on_game is not None:
            _report_the_rest(futures, delivered, on_game)
        raise
    executor.shutdown(wait=True)


def _report_the_rest(
    futures: Sequence[Future[list[GameRecord]]],
    delivered: set[tuple[int, int, int]],
    on_game: OnGame,
) -> None:
    """``on_game`` for each game of the units that ended but not in ``delivered``."""
    for future in futures:
        if not future.cancelled() and future.exception() is None:
            for record in future.result():
                if game_key(record) not in delivered:
                    on_game(record)


def _start_worker(threads: int, families: Sequence[str]) -> None:
    """Give a new worker process its share of the threads (``ENV121_THREADS``, so
    that ``jobs`` workers do not each start one per core), an empty agent cache
    and the kernel ``families`` its games use loaded (so no decision's time
    includes them); Ctrl-C is the parent's to handle. The worker is forked,
    so torch runs on one thread in it (:func:`forked_worker_torch`); the
    workers themselves use the cores."""
    os.environ[THREADS_VARIABLE] = str(threads)
    forked_worker_torch()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    global _worker_cache
    _worker_cache = AgentCache()
    warm_kernels(families)


def play_unit_in_worker(unit: Unit) -> list[GameRecord]:
    """:func:`play_unit` with this worker process's agents (built on first
    use, then kept)."""
    return play_unit(unit, _cache())


def _cache() -> AgentCache:
    global _worker_cache
    if _worker_cache is None:
        _worker_cache = AgentCache()
    return _worker_cache


__all__ = [
    "BATCH_GAMES",
    "UNITS_PER_PROCESS",
    "Backend",
    "EndedGames",
    "OnGame",
    "Progress",
    "Unit",
    "play_all",
    "play_unit",
    "play_unit_in_worker",
    "work_units",
]
