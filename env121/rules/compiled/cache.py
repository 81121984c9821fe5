"""Where the compiled kernels are cached, the kernels env121 ships, and the line
that says they are compiling.

numba compiles a kernel on its first call and, with ``cache=True``, keeps
the machine code on disk for the next process. It checks only the kernel's
own source file, though: a kernel that calls a kernel of another module, or
reads a table the rule modules build at import (every kernel does),
would stay cached on old code when only that other file changes — after an
upgrade, or an edit of the rules. So :func:`use_kernel_cache`, which the
package's first import runs before any kernel is defined, gives numba a cache
locator of ours (:class:`KernelCacheLocator`) for the kernels of
:data:`KERNEL_PACKAGES`: a kernel file's cache is valid only for the same
:func:`kernel_stamp`, a hash of the file and of every env121 module it imports,
directly or through others (its import closure, :func:`kernel_sources`), and
lives in ``<cache root>/kernels/<file's path>/<stamp>/``, never beside the
installed package (a read-only install works). A changed source gets new,
empty folders for the kernel files that import it, and only those: nothing
stale is loaded, and an edit of the trainer does not recompile the engine.
Every environment holding the same sources (a checkout, its wheel installed
elsewhere, another virtualenv) shares the compiled copy. The cache root is
``$ENV121_CACHE_DIR``, else ``$XDG_CACHE_HOME/env121``, else
``~/.cache/env121``; the newest :data:`KEEP_VERSIONS` folders of each kernel
file are kept, older ones removed.

**Shipped kernels.** Compiling the kernels a tournament of greedy and random
uses takes about 40 s of CPU, all of a newcomer's first run. So env121 ships
them, compiled (``shipped/kernels-<platform>.tar.xz``, written by
``scripts/ship_kernels.py``), and the first import unpacks into the cache
those whose stamp equals the sources' (:func:`unpack_shipped`). numba keys a
cached kernel by the CPU it was compiled for, so env121 asks numba for the
platform's generic CPU (:func:`choose_cpu`, before numba makes its CPU
target): the shipped code then loads on any machine of the platform, and what
a machine compiles itself is the same generic code. Measured on the 2-core
machine, generic and host code play the same games at the same speed
(``docs/first-run.md``). ``ENV121_KERNELS=host`` compiles for this machine's
own CPU instead (and ships nothing); a ``NUMBA_CPU_NAME`` set by the user is
left as it is. Where no archive fits (another platform, Python or numba
version, or sources edited since it was written), the kernels compile on first
use, and the first kernel that compiles in a process prints one line to
stderr saying so (:class:`CompileNotice`). ``env121 warmup`` compiles them all
ahead.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import shutil
import sys
import sysconfig
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

import numba
from numba.core import caching, config, event, registry

_CACHE_IMPL: Any = vars(caching).get("CacheImpl") or vars(caching)["_CacheImpl"]
"""numba's class holding the list of cache locators it asks in turn (renamed in 0.68;
the test of this module checks that the kernels' cache files land where we say)."""

KERNEL_PACKAGES = ("env121/rules", "env121/engine", "env121/play", "agents", "training")
"""The packages (relative to the folder holding ``env121``) whose kernels our locator caches."""
KERNEL_MODULES = tuple(package.replace("/", ".") for package in KERNEL_PACKAGES)
"""The same packages as module prefixes: the kernels :class:`CompileNotice` speaks of."""
SHIPPED_PACKAGES = ("env121/rules", "env121/engine", "env121/play", "agents")
"""The packages whose kernels ship compiled: the library's (the trainer's one kernel
compiles on the trainer's first use, in a second)."""
PROJECT_PACKAGES = ("env121", "agents", "arena", "training", "apps")
"""The top-level packages whose modules count in a kernel file's import closure."""
KEEP_VERSIONS = 4
"""How many folders (one per version of its import closure) each kernel file keeps."""
SHIPPED = Path(__file__).resolve().parent / "shipped"
"""The folder of the shipped kernels: ``kernels-<platform>.tar.xz`` and its manifest."""
STAMP_LENGTH = 16
"""Hex digits of a stamp that name its folder."""
COMPILE_NOTICE = (
    "env121: compiling the kernels this command uses (none shipped for this version and "
    "machine: about a minute of CPU, once; cached in {folder}; `env121 warmup` compiles "
    "them all ahead)"
)
"""The line printed when the first kernel compiles in a process."""
_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import\s+(\([^)]*\)|.*)|import\s+([\w.]+))", re.M)
"""An import statement: ``from M import a, b`` or ``from M import (a,\n b)`` (the module
and its names in groups 1, 2) or ``import M`` (group 3)."""
_OLD_FOLDER = re.compile(r"[0-9a-f]{16}")
"""A folder of the first layout, named by the first 16 hex digits of a hash of every source."""
_CACHED_KERNEL = re.compile(r"^@(?:numba\.)?njit\([^)]*cache=True", re.M)
"""A kernel definition whose code numba caches."""
_active: tuple[Path, Path] | None = None
"""The kernel sources' root and the kernels' cache folder, once in use."""
_notice: CompileNotice | None = None
"""This process's notice, installed by the first :func:`use_kernel_cache`."""
_touched: set[Path] = set()
"""The stamp folders this process has marked as used."""


def choose_cpu() -> str:
    """Ask numba to compile for the platform's generic CPU (``NUMBA_CPU_NAME=generic``,
    in the environment so that worker processes do the same), unless the user chose
    (``NUMBA_CPU_NAME`` set, or ``ENV121_KERNELS=host``) or numba already made its
    CPU target in this process (its CPU is then fixed: the host's). Returns the
    CPU numba compiles for: ``"generic"``, ``"host"`` or the user's name."""
    if os.environ.get("NUMBA_CPU_NAME"):
        return os.environ["NUMBA_CPU_NAME"]
    if os.environ.get("ENV121_KERNELS", "generic") == "host":
        return "host"
    if "_toplevel_target_context" in vars(registry.cpu_target):
        return "host"
    os.environ["NUMBA_CPU_NAME"] = "generic"
    config.reload_config()  # type: ignore[no-untyped-call]
    return "generic"


def platform_tag() -> str:
    """What compiled code is valid for: the platform, the Python and numba's version
    (``linux-x86_64-cpython-311-numba0.68.1``)."""
    return f"{sysconfig.get_platform()}-{sys.implementation.cache_tag}-numba{numba.__version__}"


def module_file(root: Path, module: str) -> Path | None:
    """The source file of an env121 module under ``root`` (None for other modules)."""
    if module.split(".")[0] not in PROJECT_PACKAGES:
        return None
    path = root.joinpath(*module.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


@functools.cache
def _imports(path: Path, root: Path) -> frozenset[Path]:
    """The env121 modules ``path`` names in its import statements (at any depth, a
    superset of what its kernels can read), as files under ``root``."""
    found: set[Path] = set()
    for module, names, plain in _IMPORT.findall(path.read_text(encoding="utf-8")):
        parent = module_file(root, module or plain)
        if parent is not None:
            found.add(parent)
        listed = re.sub(r"#.*", "", names).strip("() \n")
        for name in listed.split(",") if module else ():
            words = name.split()
            child = module_file(root, f"{module}.{words[0]}") if words else None
            if child is not None:
                found.add(child)
    return frozenset(found)


def kernel_sources(root: Path, path: Path) -> list[Path]:
    """``path`` and every env121 module it imports, directly or through others
    (but this module, which no kernel reads: the package's ``__init__`` imports it)."""
    itself = Path(__file__).resolve()
    seen = {path}
    todo = [path]
    while todo:
        for imported in _imports(todo.pop(), root):
            if imported not in seen and imported != itself:
                seen.add(imported)
                todo.append(imported)
    return sorted(seen)


@functools.cache
def kernel_stamp(root: Path, relative: str) -> str:
    """SHA-256 over the path and bytes of the kernel file ``relative`` (under ``root``)
    and of every file of its import closure: what its compiled code is made of."""
    digest = hashlib.sha256()
    for path in kernel_sources(root, root / relative):
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


def stamp_folder(kernels: Path, relative: str, stamp: str) -> Path:
    """Where the kernels of the file ``relative`` compiled from sources of ``stamp`` live."""
    return kernels / relative.removesuffix(".py") / stamp[:STAMP_LENGTH]


def use_kernel_cache(root: Path) -> Path:
    """Compile for the CPU :func:`choose_cpu` picks, cache the kernels of the sources
    under ``root`` (the folder holding ``env121``) in ``<cache root>/kernels`` (made if
    missing), unpack the shipped kernels that fit (:func:`unpack_shipped`) and install
    the :class:`CompileNotice`; returns the folder. Where no folder can be made (no
    writable home), numba's own locations serve instead."""
    global _active, _notice
    cpu = choose_cpu()
    folder = cache_root() / "kernels"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return folder
    _active = (root.resolve(), folder)
    remove_old_layout(folder)
    if cpu == "generic":
        unpack_shipped(root.resolve(), folder)
    if KernelCacheLocator not in _CACHE_IMPL._locator_classes:
        _CACHE_IMPL._locator_classes.insert(0, KernelCacheLocator)
    if _notice is None:
        _notice = CompileNotice(folder)
        event.register("numba:compile", _notice)  # type: ignore[no-untyped-call]
    return folder


class KernelCacheLocator(caching._CacheLocator):
    """numba's cache locator for the kernels of :data:`KERNEL_PACKAGES`: a file's
    cache files go to its :func:`stamp_folder`, valid while its :func:`kernel_stamp`
    is the same. Keyed by the package-relative path, not the absolute one, so every
    environment holding the same sources (a checkout, its installed wheel, a second
    virtualenv) shares one compiled copy. Functions elsewhere get ``None`` and
    numba's own locators."""

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
        root, kernels = _active
        try:
            relative = Path(py_file).resolve().relative_to(root).as_posix()
        except (OSError, ValueError):
            return None
        if not relative.startswith(tuple(f"{p}/" for p in KERNEL_PACKAGES)):
            return None
        stamp = kernel_stamp(root, relative)
        folder = stamp_folder(kernels, relative, stamp)
        locator = cls(folder, stamp, py_func.__code__.co_firstlineno)
        try:
            if folder not in _touched:
                _touched.add(folder)
                locator.ensure_cache_path()  # type: ignore[no-untyped-call]
                os.utime(folder)
                prune_versions(folder)
        except OSError:
            return None
        return locator


def prune_versions(current: Path) -> None:
    """Remove all but the newest :data:`KEEP_VERSIONS` folders beside ``current``."""
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


def remove_old_layout(kernels: Path) -> None:
    """Remove the folders of the cache's first layout (one per hash of every source,
    ``<cache root>/kernels/<16 hex digits>/``), which nothing reads any more."""
    try:
        old = [p for p in kernels.iterdir() if _OLD_FOLDER.fullmatch(p.name) and p.is_dir()]
    except OSError:
        return
    for folder in old:
        shutil.rmtree(folder, ignore_errors=True)


def shipped_paths(tag: str | None = None) -> tuple[Path, Path]:
    """The shipped archive and its manifest for the platform ``tag`` (this one's by default)."""
    name = f"kernels-{tag or platform_tag()}"
    return SHIPPED / f"{name}.tar.xz", SHIPPED / f"{name}.json"


def unpack_shipped(root: Path, kernels: Path) -> list[str]:
    """Unpack into ``kernels`` the shipped kernel files of this platform whose stamp is
    the sources' and that the cache lacks; returns their paths. A missing or
    unreadable archive unpacks nothing (the kernels then compile). Each folder is
    unpacked aside and renamed into place, so processes starting together (pytest's
    workers) never see half of one."""
    archive, manifest = shipped_paths()
    try:
        stamps: dict[str, str] = json.loads(manifest.read_text(encoding="utf-8"))["kernels"]
    except (OSError, ValueError, KeyError, TypeError):
        return []
    wanted = {  # the folder test first: a warm start hashes no sources here
        stamp_folder(Path(), relative, stamp).as_posix(): relative
        for relative, stamp in stamps.items()
        if not stamp_folder(kernels, relative, stamp).is_dir()
        and (root / relative).is_file()
        and kernel_stamp(root, relative) == stamp
    }
    if not wanted:
        return []
    try:
        with tempfile.TemporaryDirectory(dir=kernels, prefix=".unpack-") as aside:
            with tarfile.open(archive, "r:xz") as tar:
                for member in tar:
                    folder, _, name = member.name.rpartition("/")
                    if folder not in wanted or not member.isfile() or "/" in name or not name:
                        continue
                    source = tar.extractfile(member)
                    target = Path(aside, folder, name)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    if source is not None:
                        target.write_bytes(source.read())
            for folder in wanted:
                final = kernels / folder
                final.parent.mkdir(parents=True, exist_ok=True)
                with contextlib.suppress(OSError):  # another process was first
                    Path(aside, folder).rename(final)
    except (OSError, tarfile.TarError, EOFError):
        return []
    return sorted(wanted.values())


def write_shipped(root: Path, kernels: Path) -> tuple[Path, Path]:
    """Pack the kernels compiled in ``kernels`` (an otherwise empty cache) into this
    platform's shipped archive and manifest, replacing the old ones whole; every
    kernel file of :data:`SHIPPED_PACKAGES` must have been compiled from the sources
    under ``root`` as they are now. Returns the archive and manifest paths."""
    stamps = {}
    for relative in kernel_files(root):
        stamp = kernel_stamp(root, relative)
        folder = stamp_folder(kernels, relative, stamp)
        if not any(folder.glob("*.nbi")):
            raise ValueError(f"{relative}: no kernel compiled in {folder}")
        stamps[relative] = stamp
    archive, manifest = shipped_paths()
    SHIPPED.mkdir(exist_ok=True)
    for old in SHIPPED.glob("kernels-*"):
        old.unlink()
    written = archive.with_name(archive.name + ".part")
    with tarfile.open(written, "w:xz", preset=9) as tar:
        for relative, stamp in stamps.items():
            folder = stamp_folder(kernels, relative, stamp)
            for path in sorted(folder.iterdir()):
                tar.add(path, arcname=path.relative_to(kernels).as_posix(), recursive=False)
    written.replace(archive)
    text = json.dumps({"platform": platform_tag(), "kernels": stamps}, indent=1) + "\n"
    written = manifest.with_name(manifest.name + ".part")
    written.write_text(text, encoding="utf-8")
    written.replace(manifest)
    return archive, manifest


def kernel_files(root: Path, packages: tuple[str, ...] = SHIPPED_PACKAGES) -> list[str]:
    """The files of ``packages`` under ``root`` that define cached kernels."""
    return sorted(
        path.relative_to(root).as_posix()
        for package in packages
        for path in (root / package).rglob("*.py")
        if _CACHED_KERNEL.search(path.read_text(encoding="utf-8"))
    )


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
    import of :mod:`env121`, or where none could be made)."""
    return None if _active is None else _active[1]


def compile_seconds() -> float:
    """Seconds this process has spent compiling env121's kernels so far."""
    return 0.0 if _notice is None else _notice.seconds


__all__ = [
    "COMPILE_NOTICE",
    "KEEP_VERSIONS",
    "KERNEL_MODULES",
    "KERNEL_PACKAGES",
    "PROJECT_PACKAGES",
    "SHIPPED",
    "SHIPPED_PACKAGES",
    "CompileNotice",
    "KernelCacheLocator",
    "cache_root",
    "choose_cpu",
    "compile_seconds",
    "kernel_files",
    "kernel_folder",
    "kernel_sources",
    "kernel_stamp",
    "platform_tag",
    "prune_versions",
    "remove_old_layout",
    "shipped_paths",
    "stamp_folder",
    "unpack_shipped",
    "use_kernel_cache",
    "write_shipped",
]
