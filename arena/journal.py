"""The tournament log, ``games.jsonl``: every finished game on disk as it ends.

An append-only JSON-lines file in a tournament's output directory:

* line 1, the **header** (:class:`LogHeader`): the format version and the
  whole tournament — the matchups or pool as given, the canonical specs they
  build, the deals, the seed, the rule config, the env121 version and the
  command that started it;
* then one line per **finished game** (a :class:`~arena.play.GameRecord`), in
  the order the games end, flushed as soon as it is written: Ctrl-C or a kill
  leaves every finished game in the file.

``env121 tournament --resume DIR`` reads it back (:func:`read_log`), plans
the header's tournament again, checks that it is the same one
(:func:`check_log`: same canonical specs, every logged game one of its games),
plays only the missing games and writes the same ``results.json`` as an
uninterrupted run (wall-clock fields aside). A kill can tear the last line:
it is dropped, with a note, and cut from the file before anything is
appended; any other bad line is a :class:`LogError` naming the file and line.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import env121
from arena.play import GameRecord, SeatRecord
from arena.tournament import TournamentPlan, game_key
from env121.engine.state import NUM_SEATS, MatchEnd
from env121.rules.config import RuleConfig

LOG_NAME = "games.jsonl"
"""The log's file name in the output directory."""
LOG_FORMAT = "env121-arena-games/1"
"""The format version written in every header."""


class LogError(ValueError):
    """A log that cannot be continued: the message names the file (and line)."""


@dataclass(frozen=True)
class LogHeader:
    """The first line of a log: everything needed to plan the tournament again."""

    matchups: tuple[tuple[str, str], ...]
    """The 1-vs-3 matchups as the command gave them (empty in a round-robin)."""
    pool: tuple[str, ...]
    """The round-robin pool as the command gave it (empty in 1 vs 3)."""
    specs: tuple[str, ...]
    """The canonical specs they built (:attr:`arena.schedule.Schedule.specs`)."""
    deals: int
    seed: int
    config: RuleConfig
    env121: str
    """The env121 version that played the games."""
    command: tuple[str, ...] | None
    """The command that started the tournament (``results.json`` keeps it)."""

    @classmethod
    def of(cls, plan: TournamentPlan, command: Sequence[str] | None) -> LogHeader:
        """The header of ``plan``, started by ``command``."""
        return cls(
            matchups=plan.matchups,
            pool=plan.pool,
            specs=plan.schedule.specs,
            deals=plan.deals,
            seed=plan.seed,
            config=plan.config,
            env121=env121.__version__,
            command=None if command is None else tuple(command),
        )

    def to_dict(self) -> dict[str, Any]:
        """The header line's JSON object."""
        return {
            "format": LOG_FORMAT,
            "matchups": [list(pair) for pair in self.matchups],
            "pool": list(self.pool),
            "specs": list(self.specs),
            "deals": self.deals,
            "seed": self.seed,
            "config": self.config.to_dict(),
            "env121": self.env121,
            "command": None if self.command is None else list(self.command),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LogHeader:
        """The header of a header line's JSON object; raises ``ValueError``,
        ``KeyError`` or ``TypeError`` on anything else."""
        if data.get("format") != LOG_FORMAT:
            raise ValueError(f"format {data.get('format')!r}: expected {LOG_FORMAT!r}")
        command = data["command"]
        return cls(
            matchups=tuple((str(a), str(b)) for a, b in data["matchups"]),
            pool=tuple(str(spec) for spec in data["pool"]),
            specs=tuple(str(spec) for spec in data["specs"]),
            deals=_integer(data["deals"]),
            seed=_integer(data["seed"]),
            config=RuleConfig.from_dict(data["config"]),
            env121=str(data["env121"]),
            command=None if command is None else tuple(str(word) for word in command),
        )


@dataclass(frozen=True)
class LoggedRun:
    """What a log holds: its header and the games finished so far."""

    path: Path
    header: LogHeader
    games: tuple[GameRecord, ...]
    """The finished games, in the order they ended (game ``i`` is on line ``i + 2``)."""
    notes: tuple[str, ...]
    """What was dropped (a torn last line), one sentence each."""
    size: int
    """The bytes of the file that hold whole lines (where appending continues)."""


def read_log(path: str | Path) -> LoggedRun:
    """The header and finished games of the log at ``path``.

    A last line cut off by a kill (no newline, or not JSON) is dropped and
    noted; any other bad line raises :class:`LogError` naming the file and line.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise LogError(f"{path}: cannot be read ({error.strerror or error})") from error
    lines = data.split(b"\n")
    torn = lines.pop()  # b"" when the file ends with a newline
    if not lines:
        raise LogError(f"{path}: no header line: expected a tournament log ({LOG_FORMAT})")
    try:
        header = LogHeader.from_dict(json.loads(lines[0]))
    except (ValueError, KeyError, TypeError) as error:
        raise LogError(
            f"{path}, line 1: not a tournament log header ({_reason(error)}): expected {LOG_FORMAT}"
        ) from error
    notes = []
    if torn:
        notes.append(f"{path}: dropped a torn last line (a game cut off by the stop)")
    games: list[GameRecord] = []
    seen: set[tuple[int, int, int]] = set()
    for number, line in enumerate(lines[1:], start=2):
        try:
            game = record_from_dict(json.loads(line))
        except (ValueError, KeyError, TypeError) as error:
            if number == len(lines) and not torn:
                notes.append(f"{path}, line {number}: dropped a torn last line ({_reason(error)})")
                lines.pop()
                break
            message = f"{path}, line {number}: not a game record ({_reason(error)})"
            raise LogError(message) from error
        if game_key(game) in seen:
            raise LogError(f"{path}, line {number}: {_game_name(game)} is logged twice")
        seen.add(game_key(game))
        games.append(game)
    size = sum(len(line) + 1 for line in lines)
    return LoggedRun(path, header, tuple(games), tuple(notes), size)


def read_out(parser: argparse.ArgumentParser, out: Path) -> LoggedRun:
    """The log of the tournament whose ``--out`` folder is ``out``, for a tool that
    reads it from the command line: a log it cannot read is ``parser``'s one-line
    error, naming the file."""
    try:
        return read_log(out / LOG_NAME)
    except (OSError, LogError) as error:
        parser.error(f"{out / LOG_NAME}: {getattr(error, 'strerror', None) or error}")


def check_log(run: LoggedRun, plan: TournamentPlan) -> None:
    """Raise :class:`LogError` unless ``run``'s games belong to ``plan`` (the
    header's tournament planned again, with the same agents)."""
    if run.header.env121 != env121.__version__:
        raise LogError(
            f"{run.path}: its games were played by env121 {run.header.env121}, this is "
            f"{env121.__version__}: expected the same version to continue them"
        )
    if plan.schedule.specs != run.header.specs:
        raise LogError(
            f"{run.path}: its agents were {list(run.header.specs)}, the same specs now build "
            f"{list(plan.schedule.specs)}: expected the same agents to continue"
        )
    planned = {game_key(task) for task in plan.tasks}
    for number, game in enumerate(run.games, start=2):
        if game_key(game) not in planned:
            raise LogError(
                f"{run.path}, line {number}: {_game_name(game)} is not a game of this "
                f"tournament ({plan.deals} deals, {len(plan.schedule.lineups)} line-ups)"
            )


class GameLog:
    """An open log: :meth:`append` writes one finished game and flushes it.

    ``GameLog(path, header)`` starts a new log (``path`` must not exist) with
    its header; ``GameLog(run.path, size=run.size)`` continues a log read by
    :func:`read_log`, cut to its whole lines.
    """

    def __init__(
        self, path: str | Path, header: LogHeader | None = None, *, size: int | None = None
    ) -> None:
        if (header is None) == (size is None):
            raise ValueError("give a header (a new log) or a size (a log to continue)")
        mode = "x" if size is None else "r+"
        # Open for the log's lifetime: close() (or the with block) closes it.
        self._file: IO[str] = Path(path).open(mode, encoding="utf-8")  # noqa: SIM115
        if size is None:
            assert header is not None
            self._write(header.to_dict())
        else:
            self._file.truncate(size)
            self._file.seek(size)

    def append(self, game: GameRecord) -> None:
        """Write ``game`` as one line, flushed to the operating system (a killed
        process loses nothing; a crash of the machine may cut the last lines,
        which :func:`read_log` copes with)."""
        self._write(record_to_dict(game))

    def close(self) -> None:
        """Close the file."""
        self._file.close()

    def __enter__(self) -> GameLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self, document: dict[str, Any]) -> None:
        self._file.write(json.dumps(document, ensure_ascii=False) + "\n")
        self._file.flush()


def record_to_dict(game: GameRecord) -> dict[str, Any]:
    """One game's log line (every field of the record, thinking time included)."""
    document = dataclasses.asdict(game)
    document["end"] = game.end.value
    return document


def record_from_dict(data: dict[str, Any]) -> GameRecord:
    """The record of a game line; raises ``ValueError``, ``KeyError`` or ``TypeError``."""
    if not isinstance(data, dict):
        raise TypeError(f"expected an object, got {type(data).__name__}")
    seats = data["seats"]
    hands = data["first_hands"]
    if len(seats) != NUM_SEATS or len(hands) != NUM_SEATS:
        raise ValueError(f"expected {NUM_SEATS} seats and {NUM_SEATS} first hands")
    counts = [
        f.name for f in dataclasses.fields(SeatRecord) if f.name not in ("think_seconds", "faults")
    ]
    return GameRecord(
        deal=_integer(data["deal"]),
        lineup=_integer(data["lineup"]),
        rotation=_integer(data["rotation"]),
        van=_integer(data["van"]),
        vong=_integer(data["vong"]),
        draws=_integer(data["draws"]),
        end=MatchEnd(data["end"]),
        seats=tuple(
            SeatRecord(
                **{n: _integer(seat[n]) for n in counts},
                think_seconds=float(seat["think_seconds"]),
                faults={str(k): _integer(v) for k, v in seat.get("faults", {}).items()},
            )
            for seat in seats
        ),
        first_hands=tuple(tuple(_integer(card) for card in hand) for hand in hands),
    )


def _integer(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{value!r} is not an integer")
    return value


def _game_name(game: GameRecord) -> str:
    return f"the game (deal {game.deal}, line-up {game.lineup}, rotation {game.rotation})"


def _reason(error: Exception) -> str:
    if isinstance(error, KeyError):
        return f"no field {error}"
    return str(error)


__all__ = [
    "LOG_FORMAT",
    "LOG_NAME",
    "GameLog",
    "LogError",
    "LogHeader",
    "LoggedRun",
    "check_log",
    "read_log",
    "read_out",
    "record_from_dict",
    "record_to_dict",
]
