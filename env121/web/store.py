"""Every game the web table plays, kept in SQLite: :class:`GameStore`.

One row per game (table ``games``): its id, the person's chosen name and
seat, the spec of each seat, whether it is a practice game, the game record
so far (:func:`env121.engine.records.to_record`: config, seed, actions) and,
once it is over, its scores and final ranks. The row is written when the game
opens and after each of the person's moves (the agents' answers included), in
one transaction each, so a restart loses no finished game, and an unfinished
one resumes from its record (the seed and the actions, replayed on load).

The file is created on first use (with its folder); ``PRAGMA user_version``
holds :data:`SCHEMA_VERSION`. The database runs in WAL mode with full sync:
a committed move survives a crash of the process or of the machine.

:meth:`GameStore.ratings` rates people and bots from the finished games that
are not practice (OpenSkill, :func:`arena.ratings.rate_games`; a person is
rated by name, a bot by spec). Only the standard library's ``sqlite3``;
nothing here imports the web framework.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.ratings import Rating, rate_games

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    player TEXT NOT NULL,
    seat INTEGER NOT NULL,
    specs TEXT NOT NULL,
    practice INTEGER NOT NULL,
    record TEXT NOT NULL,
    over INTEGER NOT NULL DEFAULT 0,
    stopped TEXT,
    scores TEXT,
    ranks TEXT,
    started REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS games_finished ON games (over, updated);
"""


@dataclass(frozen=True)
class StoredGame:
    """One row of ``games``."""

    id: str
    player: str
    """The person's chosen name."""
    seat: int
    specs: tuple[str, ...]
    """Each seat's agent spec, ``"person"`` for the person's seat."""
    practice: bool
    record: dict[str, Any]
    over: bool
    stopped: str | None
    scores: tuple[int, ...] | None
    ranks: tuple[int, ...] | None
    started: float
    updated: float


PERSON = "person"
"""The spec stored for the person's seat."""


class GameStore:
    """The games in the SQLite file ``path`` (created on first use)."""

    def __init__(self, path: str | Path, *, clock: Any = time.time) -> None:
        self.path = Path(path)
        self.clock = clock
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self.lock = threading.Lock()
        try:
            self.db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.DatabaseError as err:
            raise ValueError(f"{path}: not a usable SQLite database ({err})") from None
        if version not in (0, SCHEMA_VERSION):
            raise ValueError(
                f"{path}: games database version {version}: this env121 reads version "
                f"{SCHEMA_VERSION}"
            )
        with self._transaction() as db:
            for statement in filter(str.strip, _SCHEMA.split(";")):
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        self._rated: tuple[int, dict[str, Rating]] | None = None

    def close(self) -> None:
        """Close the database."""
        with self.lock:
            self.db.close()

    def _transaction(self) -> _Transaction:
        return _Transaction(self)

    def open_game(
        self,
        game_id: str,
        *,
        player: str,
        seat: int,
        specs: Sequence[str],
        practice: bool,
        record: dict[str, Any],
    ) -> None:
        """Add a new game (its record at the deal, or after the agents' first moves)."""
        now = self.clock()
        with self._transaction() as db:
            db.execute(
                "INSERT INTO games (id, player, seat, specs, practice, record, started, updated)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, player, seat, json.dumps(list(specs)), int(practice),
                 json.dumps(record), now, now),
            )  # fmt: skip

    def update_game(
        self,
        game_id: str,
        record: dict[str, Any],
        *,
        stopped: str | None = None,
        scores: Sequence[int] | None = None,
        ranks: Sequence[int] | None = None,
    ) -> None:
        """Write the game's record so far; ``scores`` and ``ranks`` once it is
        over, or why it ``stopped`` early (an agent's illegal action: it is
        kept, but neither resumed nor rated)."""
        over = ranks is not None or stopped is not None
        with self._transaction() as db:
            db.execute(
                "UPDATE games SET record = ?, over = ?, stopped = ?, scores = ?, ranks = ?,"
                " updated = ? WHERE id = ?",
                (json.dumps(record), int(over), stopped,
                 None if scores is None else json.dumps(list(scores)),
                 None if ranks is None else json.dumps(list(ranks)), self.clock(), game_id),
            )  # fmt: skip

    def game(self, game_id: str) -> StoredGame | None:
        """The game ``game_id``, or None."""
        with self.lock:
            row = self.db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else _stored(row)

    def finished(self, *, player: str | None = None, limit: int = 50) -> list[StoredGame]:
        """The last ``limit`` finished games, newest first (``player``'s only, if given)."""
        query = "SELECT * FROM games WHERE over = 1"
        args: tuple[Any, ...] = ()
        if player is not None:
            query += " AND player = ?"
            args = (player,)
        query += " ORDER BY updated DESC, id LIMIT ?"
        with self.lock:
            rows = self.db.execute(query, (*args, limit)).fetchall()
        return [_stored(row) for row in rows]

    def counts(self) -> tuple[int, int]:
        """``(finished games, unfinished games)``."""
        with self.lock:
            rows = dict(self.db.execute("SELECT over, COUNT(*) FROM games GROUP BY over"))
        return rows.get(1, 0), rows.get(0, 0)

    def ratings(self) -> dict[str, Rating]:
        """OpenSkill ratings of people (``"person:NAME"``) and bots
        (``"bot:SPEC"``) from every finished game that is not practice, rated
        in the order they finished. Recomputed only when a game has finished
        since the last call."""
        with self.lock:
            rows = self.db.execute(
                "SELECT player, seat, specs, ranks FROM games"
                " WHERE over = 1 AND practice = 0 AND stopped IS NULL ORDER BY updated, id"
            ).fetchall()
        if self._rated is not None and self._rated[0] == len(rows):
            return self._rated[1]
        games = []
        for player, seat, specs, ranks in rows:
            names = [
                f"person:{player}" if s == seat else f"bot:{spec}"
                for s, spec in enumerate(json.loads(specs))
            ]
            games.append((names, json.loads(ranks)))
        players = sorted({name for names, _ in games for name in names})
        rated = rate_games(games, players)
        self._rated = (len(rows), rated)
        return rated


class _Transaction:
    """``with store._transaction() as db``: the store's lock held, one
    transaction committed at the end (rolled back on an error)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    def __enter__(self) -> sqlite3.Connection:
        self.store.lock.acquire()
        self.store.db.execute("BEGIN IMMEDIATE")
        return self.store.db

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        try:
            self.store.db.execute("ROLLBACK" if error is not None else "COMMIT")
        finally:
            self.store.lock.release()


def _stored(row: tuple[Any, ...]) -> StoredGame:
    game_id, player, seat, specs, practice, record, over, stopped, scores, ranks, *times = row
    return StoredGame(
        id=game_id,
        player=player,
        seat=seat,
        specs=tuple(json.loads(specs)),
        practice=bool(practice),
        record=json.loads(record),
        over=bool(over),
        stopped=stopped,
        scores=None if scores is None else tuple(json.loads(scores)),
        ranks=None if ranks is None else tuple(json.loads(ranks)),
        started=times[0],
        updated=times[1],
    )


__all__ = ["PERSON", "SCHEMA_VERSION", "GameStore", "StoredGame"]
