"""Where the compiled kernels are cached, and the line that says they are compiling.

numba compiles a kernel on its first call and, with ``cache=True``, keeps
the machine code on disk for the next process. It checks only the kernel's
own source file, though: a kernel that calls a kernel of another module, or
reads a table the rule modules build at import (every kernel does),
would stay cached on old code when only that other file changes — after an
upgrade, or an edit of the rules. So the first import of
:mod:`env121.rules.compiled` (:func:`use_kernel_cache`) gives numba a cache
locator of ours (:class:`KernelCacheLocator`) for the kernels' packages
(:data:`KERNEL_PACKAGES`): their cache is valid only for the same hash of
every source file in those packages, and lives in
``<cache root>/kernels/<hash>/``, never beside the installed package (a
read-only install works). Changed sources get a new, empty folder: nothing
stale is loaded. Every environment holding the same sources (a checkout, its
wheel installed elsewhere, another virtualenv) shares the compiled copy. The
cache root is ``$ENV121_CACHE_DIR``, else ``$XDG_CACHE_HOME/env121``, else
``~/.cache/env121``; the newest :data:`KEEP_VERSIONS` kernel folders are
kept, older ones removed.

The first use of a version (after an install or an upgrade) compiles the
kernels the command uses: about a minute of CPU for a tournament of greedy
and random, a minute and a half for all of them (``docs/first-run.md`` has
the measured figures and the command that measures them). The first kernel
that compiles in a process prints one line to stderr saying so
(:class:`CompileNotice`). ``env121 warmup`` compiles them all ahead.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from numba.core import caching, event

_CACHE_IMPL: Any = vars(caching).get("CacheImpl") or vars(caching)["_CacheImpl"]
"""numba's class holding the list of cache locators it asks in turn (renamed in 0.68;
the test of this module checks that the kernels' cache files land where we say)."""

KERNEL_PACKAGES = ("env121/rules", "env121/engine", "env121/play", "agents", "training")
"""The packages (relative to the folder holding ``env121``) whose sources the
compiled code is made of or reads its tables from."""
KERNEL_MODULES = tuple(package.replace("/", ".") for package in KERNEL_PACKAGES)
"""The same packages as module prefixes: the kernels :class:`CompileNotice` speaks of."""
KEEP_VERSIONS = 4
"""How many kernel folders (one per version of the sources) the cache root keeps."""
COMPILE_NOTICE = (
    "env121: compiling the kernels this command uses (first use of this version: about a "
    "minute of CPU; cached in {folder}; `env121 warmup` compiles them all ahead)"
)
"""The line printed when the first kernel compiles in a process."""
_active: tuple[Path, Path, str] | None = None
"""The kernel sources' root, their cache folder and their hash, once in use."""
_notice: CompileNotice | None = None
"""This process's notice, installed by the first :func:`use_kernel_cache`."""


def sources_hash(root: Path) -> str:
    """SHA-256 over the path and bytes of every ``.py`` file of the kernel packages."""
    digest = hashlib.sha256()
    for package in KERNEL_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_root() -> Path:
    """``$ENV121_CACHE_DIR``, else ``$XDG_CACHE_HOME/env121``, else ``~/.cache/env121``."""
    chosen = os.environ.get("ENV121_CACHE_DIR")
    if chosen:
        return Path(chosen).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg).expanduser() if xdg else Path.home() / ".cache") / "env121"


def use_kernel_cache(root: Path) -> Path:
    """Cache the kernels of the sources under ``root`` (the folder holding
    ``env121``) in ``<cache root>/kernels/<hash>`` (made if missing, its time touched,
    all but the newest :data:`KEEP_VERSIONS` siblings removed), and install
    the :class:`CompileNotice`; returns the folder. Where no folder can be made
    (no writable home), numba's own locations serve instead."""
    global _active, _notice
    stamp = sources_hash(root)
    folder = cache_root() / "kernels" / stamp[:16]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder)
    except OSError:
        return folder
    prune_versions(folder)
    _active = (root.resolve(), folder, stamp)
    if KernelCacheLocator not in _CACHE_IMPL._locator_classes:
        _CACHE_IMPL._locator_classes.insert(0, KernelCacheLocator)
    if _notice is None:
        _notice = CompileNotice(folder)
        event.register("numba:compile", _notice)  # type: ignore[no-untyped-call]
    return folder


class KernelCacheLocator(caching._CacheLocator):
    """numba's cache locator for the kernels of :data:`KERNEL_PACKAGES`: their
    cache files go to ``<kernel folder>/<package path>/``, valid while the
    sources hash is the same. Keyed by the package-relative path, not the
    absolute one, so every environment holding the same sources (a checkout, its
    installed wheel, a second virtualenv) shares one compiled copy. Functions
    elsewhere get ``None`` and numba's own locators."""

    def __init__(self, cache_path: Path, stamp: str, lineno: int) -> None:
        self._cache_path = str(cache_path)
        self._stamp = stamp
        self._lineno = lineno

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> str:
        return self._stamp

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> KernelCacheLocator | None:
        if _active is None:
            return None
        root, folder, stamp = _active
        try:
            relative = Path(py_file).resolve().relative_to(root)
        except (OSError, ValueError):
            return None
        if not relative.as_posix().startswith(tuple(f"{p}/" for p in KERNEL_PACKAGES)):
            return None
        locator = cls(folder / relative.parent, stamp, py_func.__code__.co_firstlineno)
        try:
            locator.ensure_cache_path()  # type: ignore[no-untyped-call]
        except OSError:
            return None
        return locator


def prune_versions(current: Path) -> None:
    """Remove all but the newest :data:`KEEP_VERSIONS` kernel folders beside ``current``."""
    try:
        folders = sorted(
            (p for p in current.parent.iterdir() if p.is_dir()),
            key=lambda p: p.stat().st_mtime,
            reverse=True,
        )
    except OSError:
        return
    for old in folders[KEEP_VERSIONS:]:
        if old != current:
            shutil.rmtree(old, ignore_errors=True)


def _is_ours(event: Any) -> bool:
    """Whether a compile event is of one of env121's kernels."""
    module = getattr(event.data["dispatcher"].py_func, "__module__", "") or ""
    return bool(module.startswith(KERNEL_MODULES))


class CompileNotice(event.Listener):
    """Prints :data:`COMPILE_NOTICE` to stderr when the first of env121's kernels
    starts to compile in this process (a kernel loaded from the cache is no
    compile), and records the seconds spent compiling them in :attr:`seconds`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.noticed = False
        self.seconds = 0.0
        self._depth = 0
        self._started = 0.0

    def on_start(self, event: Any) -> None:
        if not _is_ours(event):
            return
        if not self.noticed:
            self.noticed = True
            print(COMPILE_NOTICE.format(folder=self.folder), file=sys.stderr, flush=True)
        if self._depth == 0:
            self._started = time.perf_counter()
        self._depth += 1

    def on_end(self, event: Any) -> None:
        if not _is_ours(event) or self._depth == 0:
            return
        self._depth -= 1
        if self._depth == 0:
            self.seconds += time.perf_counter() - self._started


def kernel_folder() -> Path | None:
    """The folder this process caches env121's kernels in (None before the first
    import of :mod:`env121.rules.compiled`, or where none could be made)."""
    return None if _active is None else _active[1]


def compile_seconds() -> float:
    """Seconds this process has spent compiling env121's kernels so far."""
    return 0.0 if _notice is None else _notice.seconds


__all__ = [
    "COMPILE_NOTICE",
    "KEEP_VERSIONS",
    "KERNEL_MODULES",
    "KERNEL_PACKAGES",
    "CompileNotice",
    "KernelCacheLocator",
    "cache_root",
    "compile_seconds",
    "kernel_folder",
    "prune_versions",
    "sources_hash",
    "use_kernel_cache",
]
