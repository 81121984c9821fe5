"""Every game the web table plays, kept in SQLite: :class:`GameStore`.

One row per game (table ``games``): its id, the person's chosen name and
seat, the spec of each seat, whether it is a practice game, the game record
so far (:func:`env121.engine.records.to_record`: config, seed, actions), its
scores so far, the digest of its seat token and, once it is over, its final
ranks (and whether it was abandoned: :meth:`GameStore.abandon`). The row is written when the game
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

import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.ratings import Rating, rate_games

SCHEMA_VERSION = 2
"""2 added ``token`` (the seat token's digest) and ``abandoned``; a version 1
file is brought to 2 when opened (its games have no token: they may be
watched, not played)."""

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
    updated REAL NOT NULL,
    token TEXT,
    abandoned INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS games_finished ON games (over, updated);
"""

_MIGRATE_1_TO_2 = (
    "ALTER TABLE games ADD COLUMN token TEXT",
    "ALTER TABLE games ADD COLUMN abandoned INTEGER NOT NULL DEFAULT 0",
)


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
    token: str | None = None
    """The digest of the seat token (:func:`token_digest`); None in a game
    kept before tokens were given (it may be watched, not played)."""
    abandoned: bool = False
    """Whether the match counts as finished because the person stopped
    moving (their seat last, :func:`abandoned_ranks`)."""


PERSON = "person"
"""The spec stored for the person's seat."""


def token_digest(token: str) -> str:
    """What is kept of a seat token (its SHA-256): the database alone does
    not let anyone play a seat."""
    return hashlib.sha256(token.encode()).hexdigest()


def abandoned_ranks(scores: Sequence[int], seat: int) -> tuple[int, ...]:
    """The final places of an abandoned match: the person's ``seat`` last,
    the others by their points (the most first, ties in seat order)."""
    others = sorted((s for s in range(len(scores)) if s != seat), key=lambda s: (-scores[s], s))
    ranks = [0] * len(scores)
    for place, s in enumerate([*others, seat], start=1):
        ranks[s] = place
    return tuple(ranks)


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
        if version not in (0, 1, SCHEMA_VERSION):
            raise ValueError(
                f"{path}: games database version {version}: this env121 reads version "
                f"{SCHEMA_VERSION}"
            )
        with self._transaction() as db:
            for statement in (
                _MIGRATE_1_TO_2 if version == 1 else filter(str.strip, _SCHEMA.split(";"))
            ):
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
        token: str | None = None,
    ) -> None:
        """Add a new game (its record at the deal, or after the agents'
        first moves), with its seat token's digest."""
        now = self.clock()
        with self._transaction() as db:
            db.execute(
                "INSERT INTO games (id, player, seat, specs, practice, record, started, updated,"
                " token) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, player, seat, json.dumps(list(specs)), int(practice),
                 json.dumps(record), now, now, token),
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
        """Write the game's record so far and its ``scores``; ``ranks`` once
        it is over, or why it ``stopped`` early (an agent's illegal action:
        it is kept, but neither resumed nor rated)."""
        over = ranks is not None or stopped is not None
        with self._transaction() as db:
            db.execute(
                "UPDATE games SET record = ?, over = ?, stopped = ?, scores = ?, ranks = ?,"
                " updated = ? WHERE id = ?",
                (json.dumps(record), int(over), stopped,
                 None if scores is None else json.dumps(list(scores)),
                 None if ranks is None else json.dumps(list(ranks)), self.clock(), game_id),
            )  # fmt: skip

    def abandon(self, game_id: str) -> None:
        """Count the unfinished rated game ``game_id`` as finished, abandoned:
        the person last (:func:`abandoned_ranks`, from the points it was
        last written with). A finished, stopped or practice game is left as it is."""
        with self._transaction() as db:
            row = db.execute(
                "SELECT seat, scores FROM games WHERE id = ? AND over = 0 AND practice = 0"
                " AND stopped IS NULL",
                (game_id,),
            ).fetchone()
            if row is None:
                return
            seat, scores = row
            ranks = abandoned_ranks(json.loads(scores) if scores else [0] * 4, seat)
            db.execute(
                "UPDATE games SET over = 1, abandoned = 1, ranks = ?, updated = ? WHERE id = ?",
                (json.dumps(list(ranks)), self.clock(), game_id),
            )

    def abandon_idle(self, idle_seconds: float, *, keep: Sequence[str] = ()) -> int:
        """:meth:`abandon` every unfinished rated game not written for
        ``idle_seconds`` but those in ``keep``; how many."""
        cutoff = self.clock() - idle_seconds
        with self.lock:
            rows = self.db.execute(
                "SELECT id FROM games WHERE over = 0 AND practice = 0 AND stopped IS NULL"
                " AND updated < ?",
                (cutoff,),
            ).fetchall()
        idle = [game_id for (game_id,) in rows if game_id not in set(keep)]
        for game_id in idle:
            self.abandon(game_id)
        return len(idle)

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
    game_id, player, seat, specs, practice, record, over, stopped, scores, ranks, *rest = row
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
        started=rest[0],
        updated=rest[1],
        token=rest[2],
        abandoned=bool(rest[3]),
    )


__all__ = [
    "PERSON",
    "SCHEMA_VERSION",
    "GameStore",
    "StoredGame",
    "abandoned_ranks",
    "token_digest",
]
