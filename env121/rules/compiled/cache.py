"""Fresh compiled code: numba's cache is dropped when a source it came from changes.

numba caches each kernel beside its module (``__pycache__/*.nbi`` and
``*.nbc``) and checks only that module's own file. A kernel that calls a
kernel of another module, or reads a table the reference rules build at
import (every kernel does), would stay cached on the old code when only that
other file changes — after an upgrade, or an edit of the rules. So the first
import of :mod:`env121.rules.compiled` hashes every source file of the
packages that hold kernels or the tables they read (:data:`KERNEL_PACKAGES`)
and, when the hash differs from the one stamped beside the caches, deletes
those packages' numba cache files before any kernel is loaded; the kernels
then compile afresh (about half a minute of CPU) and are cached again.

Where a package's folder is not writable numba keeps its cache in the
user's cache folder instead, which this check does not reach; set
``NUMBA_CACHE_DIR`` to a fresh folder there after an upgrade.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

KERNEL_PACKAGES = ("env121/rules", "env121/engine", "env121/play", "agents")
"""The packages (relative to the folder holding ``env121``) whose sources the
compiled code is made of or reads its tables from."""
STAMP = "env121/rules/compiled/__pycache__/kernel_sources.sha256"
"""The file (relative to the same folder) holding the hash the caches were built from."""
_CACHE_SUFFIXES = (".nbi", ".nbc")


def sources_hash(root: Path) -> str:
    """SHA-256 over the path and bytes of every ``.py`` file of the kernel packages."""
    digest = hashlib.sha256()
    for package in KERNEL_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def drop_stale_caches(root: Path) -> bool:
    """Delete the kernel packages' numba cache files if their sources changed
    since the stamp was written; returns whether it did. Unwritable folders
    are left as they are (numba then caches elsewhere, see the module docstring)."""
    stamp = root / STAMP
    current = sources_hash(root)
    try:
        if stamp.read_text(encoding="ascii") == current:
            return False
    except OSError:
        pass
    for package in KERNEL_PACKAGES:
        for cache in (root / package).rglob("__pycache__"):
            for path in cache.iterdir():
                if path.suffix in _CACHE_SUFFIXES:
                    path.unlink(missing_ok=True)
    try:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        temporary = stamp.with_name(f"{stamp.name}.{os.getpid()}")
        temporary.write_text(current, encoding="ascii")
        temporary.replace(stamp)
    except OSError:
        return True
    return True


__all__ = ["KERNEL_PACKAGES", "STAMP", "drop_stale_caches", "sources_hash"]
