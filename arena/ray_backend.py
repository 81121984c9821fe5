"""Tournaments on a Ray cluster: batches of games (or single games) as Ray tasks.

``env121 tournament … --ray [ADDRESS]`` (:mod:`apps.cli.tournament`) and, from Python,
``run_tournament(…, backend=RayBackend(address))`` play a tournament's games
as Ray tasks, on this machine or on a cluster of several (``docs/ray.md``)::

    from arena import RayBackend, run_tournament
    result = run_tournament(matchups=[("greedy", "random")], deals=256, backend=RayBackend("auto"))

* **The same games as** ``--jobs N``. A task is a unit of
  :func:`arena.execute.work_units` — a batch of games played together on the
  compiled engine, or a game alone, as plain data (each
  :class:`~arena.play.GameTask` holds the seat specs, the seeds, the rules) —
  played by :func:`arena.execute.play_unit_in_worker` in a Ray worker
  process, which keeps its agents for its later units. There are at least
  :data:`arena.execute.UNITS_PER_PROCESS` units per CPU of the cluster, so
  that the CPUs share the work evenly and a lost worker loses little. Each
  game's seeds depend only on which game it is, so the records are those
  ``--jobs`` plays (thinking time aside) and ``results.json`` is the same
  apart from the wall-clock fields and ``jobs``, which here is the cluster's
  CPUs.
* **Records come back as their tasks finish**: ``progress`` and ``on_game``
  (the tournament log, :mod:`arena.journal`) see each unit's games at once,
  so a finished game is on disk whatever happens to the cluster later, and
  ``env121 tournament --resume`` finishes a stopped Ray tournament as it does
  one played by processes (with or without ``--ray``).
* **A task whose worker dies** (killed, out of memory, its machine lost) is run
  again, up to ``max_retries`` times; it carries its seeds, so the retry
  plays the same games. After that the tournament stops with a
  :class:`GameLostError`. An agent's own error
  (:class:`~arena.play.IllegalAgentActionError`, a bug) is not retried: it is
  raised, as with processes.

Ray is an optional extra (``pip install "env121[ray]"``, :data:`INSTALL_HINT`):
this module imports it only when a backend connects, and no other module of
env121 imports it (an import contract checks that). Ray's workers import
env121 themselves, so every machine of a cluster needs the same env121 and
the files that ``ppo:`` specs name at the same paths; ``ray job submit
--working-dir .`` ships both (``docs/ray.md``). Agents registered at run time
(:func:`agents.registry.register`) do not reach Ray's workers.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from arena.execute import (
    UNITS_PER_PROCESS,
    EndedGames,
    OnGame,
    Progress,
    Unit,
    play_unit_in_worker,
    work_units,
)
from arena.play import AgentCache, GameRecord, GameTask
from env121.extras import install_command

INSTALL_HINT = install_command("ray")
"""How to install the extra this module needs."""
DEFAULT_MAX_RETRIES = 3
"""Times a game is run again after its worker died."""


class RayNotInstalledError(ImportError):
    """Ray is not installed; the message names the extra that installs it."""


class GameLostError(RuntimeError):
    """A game's worker died more than ``max_retries`` times (or its result was
    lost with its machine): the tournament cannot finish on this cluster now."""


def check_reachable(address: str, seconds: float = 5.0) -> None:
    """Raise ``ConnectionError`` if ``address`` (``HOST:PORT`` or
    ``ray://HOST:PORT``) accepts no connection within ``seconds`` (Ray itself
    would wait minutes, then exit); other addresses (``auto``, ``local``)
    are Ray's to resolve."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=seconds).close()
    except OSError as error:
        raise ConnectionError(
            f"no Ray cluster answers at {address} ({error.strerror or error}): expected the "
            "address of a running head (`ray start --head` prints it)"
        ) from None


def import_ray() -> ModuleType:
    """The ``ray`` module, or :class:`RayNotInstalledError` saying how to install it."""
    try:
        import ray
    except ModuleNotFoundError as error:
        if error.name != "ray":
            raise
        raise RayNotInstalledError(
            f"Ray is not installed: expected env121's ray extra ({INSTALL_HINT})"
        ) from error
    return ray


@dataclass
class RayBackend:
    """Plays a tournament's games as Ray tasks (an :class:`arena.execute.Backend`).

    It connects on first use, unless this process is connected already (then
    that connection is used and ``address`` and ``init_options`` are not).
    """

    address: str | None = None
    """Where the cluster is: ``None`` is Ray's own choice (the ``RAY_ADDRESS``
    variable, else a cluster started on this machine by ``ray start``, else a
    new one in this process, on this machine's CPUs); ``"local"`` always a new
    one; ``"auto"`` a running cluster of this machine; ``"HOST:6379"`` a
    cluster's head; ``"ray://HOST:10001"`` a remote one through Ray Client."""
    max_retries: int = DEFAULT_MAX_RETRIES
    """Times a game is run again after its worker died."""
    init_options: dict[str, Any] = field(default_factory=dict)
    """More keyword arguments for ``ray.init`` (a local cluster's ``num_cpus``…)."""

    def __post_init__(self) -> None:
        if isinstance(self.max_retries, bool) or not isinstance(self.max_retries, int):
            raise ValueError(f"max_retries={self.max_retries!r} is not valid: expected an integer")
        if self.max_retries < 0:
            raise ValueError(f"max_retries={self.max_retries} is not valid: expected 0 or more")

    def connect(self) -> ModuleType:
        """``ray``, connected to the cluster (a ``ConnectionError`` naming the
        address if nothing answers there)."""
        ray = import_ray()
        if not ray.is_initialized():
            if self.address is not None:
                check_reachable(self.address)
            ray.init(address=self.address, **{"logging_level": "WARNING", **self.init_options})
        return ray

    @property
    def slots(self) -> int:
        """The cluster's CPUs: the tasks it plays at once (one CPU per task)."""
        cpus = self.connect().cluster_resources().get("CPU", 1)
        return max(int(cpus), 1)

    def play(
        self, tasks: Sequence[GameTask], progress: Progress | None, on_game: OnGame | None
    ) -> list[GameRecord]:
        """Every task's record, in task order; ``on_game`` and ``progress`` are
        called as each unit's games come back (in the order they finish)."""
        ray = self.connect()
        remote = ray.remote(num_cpus=1, max_retries=self.max_retries)(play_unit_in_worker)
        units = work_units(tasks, AgentCache(), UNITS_PER_PROCESS * self.slots)
        index = {remote.remote(unit): unit for unit in units}
        ended = EndedGames(tasks, progress, on_game)
        waiting = list(index)
        try:
            while waiting:
                ready, waiting = ray.wait(waiting, num_returns=1)
                if waiting:  # and every other unit finished meanwhile
                    more, waiting = ray.wait(waiting, num_returns=len(waiting), timeout=0)
                    ready += more
                for ref in ready:
                    for record in self._result(ray, ref, index[ref]):
                        ended.add(record)
        except BaseException:
            # A game failed or the user interrupted: the games not finished are dropped.
            for ref in waiting:
                ray.cancel(ref)
            raise
        return ended.in_task_order()

    def _result(self, ray: ModuleType, ref: Any, unit: Unit) -> list[GameRecord]:
        """The records of a finished unit, or the error that ended it."""

        def lost(error: Exception) -> GameLostError:
            games = "; ".join(
                f"deal {task.deal}, line-up {task.lineup}, rotation {task.rotation}"
                for task in unit.tasks
            )
            were = "game was" if len(unit.tasks) == 1 else f"{len(unit.tasks)} games were"
            return GameLostError(
                f"the {were} lost ({games}): {type(error).__name__} after "
                f"{self.max_retries} retries ({str(error).splitlines()[0]}); expected a "
                "worker to finish them: the games finished are kept"
            )

        records: list[GameRecord] = task_result(ray, ref, lost)
        return records


def task_result(ray: ModuleType, ref: Any, lost: Callable[[Exception], Exception]) -> Any:
    """``ray.get(ref)`` of a finished task: an error the task raised is raised
    again as one process would raise it; a task lost with its worker (past its
    retries) or its machine raises ``lost(Ray's error)``."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as error:
        raise error.cause from error
    except ray.exceptions.RayError as error:
        raise lost(error) from error


__all__ = [
    "DEFAULT_MAX_RETRIES",
    "INSTALL_HINT",
    "GameLostError",
    "RayBackend",
    "RayNotInstalledError",
    "check_reachable",
    "import_ray",
    "task_result",
]
