"""Files written whole or not at all: :func:`write_atomically`.

A file written in place and cut short by a kill, a crash or a full disk is a
torn file that a later reader takes for a whole one. :func:`write_atomically`
writes the new contents to a temporary file in the same directory, flushes
it to the disk (``fsync``), renames it over the target (``os.replace``,
atomic on POSIX and Windows) and flushes the directory, so the target is
always either the old file or the new one, even across a power cut. Every
file the trainer writes goes through it (checkpoints, policies and their
sidecars, ``latest.json``, the pool's manifest, the logs, the curves).

A kill between the write and the rename leaves a temporary file beside the
target, named ``.<name>.<random>.tmp`` (:func:`leftover_temporaries` finds
them, for whoever resumes the work to remove).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

_TEMPORARY_SUFFIX = ".tmp"
_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation


def write_atomically(path: str | Path, data: bytes | str) -> Path:
    """Replace the contents of ``path`` with ``data`` (``str`` is written as
    UTF-8) so that no reader ever sees a part of it; returns ``path``. The
    directory must exist."""
    path = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}{_TEMPORARY_SUFFIX}")
    # os.open rather than tempfile: the file gets the permissions the umask gives a new file
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _BINARY, 0o666)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(payload)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    fsync_directory(path.parent)
    return path


def append_atomically(path: str | Path, data: bytes | str) -> Path:
    """Add ``data`` at the end of ``path`` (created if missing) by rewriting it
    whole with :func:`write_atomically`: a kill never leaves half a line. For
    the small logs of a run (a row per rollout or evaluation)."""
    path = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    before = path.read_bytes() if path.exists() else b""
    return write_atomically(path, before + payload)


def fsync_directory(directory: str | Path) -> None:
    """Flush ``directory``'s entries (a rename in it) to the disk; a no-op where
    the system cannot open a directory (Windows)."""
    try:
        descriptor = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def leftover_temporaries(directory: str | Path) -> list[Path]:
    """The temporary files that killed :func:`write_atomically` calls left in ``directory``."""
    return sorted(Path(directory).glob(f".*{_TEMPORARY_SUFFIX}"))


def check_output_directory(path: str | Path, option: str = "--out") -> None:
    """Raise ``ValueError`` (naming ``option``) unless ``path`` is a directory,
    or can be made one: not a file, under no file, in a writable directory.
    For commands to check where they will write before they do any work."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise ValueError(f"{option} {path}: is a file: expected a directory (new or existing)")
    existing = next(p for p in (path.absolute(), *path.absolute().parents) if p.exists())
    if not existing.is_dir():
        raise ValueError(f"{option} {path}: {existing} is a file, so it cannot be created")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ValueError(f"{option} {path}: {existing} is not writable")


__all__ = [
    "append_atomically",
    "check_output_directory",
    "fsync_directory",
    "leftover_temporaries",
    "write_atomically",
]
