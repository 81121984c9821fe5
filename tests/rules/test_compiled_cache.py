"""The kernels' cache: one folder per version of their sources, never beside the
package, shared by every environment holding the same sources; the first compile
in a process says so, once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from env121.rules.compiled.cache import (
    COMPILE_NOTICE,
    KEEP_VERSIONS,
    KERNEL_PACKAGES,
    KernelCacheLocator,
    kernel_folder,
    prune_versions,
    sources_hash,
)
from env121.rules.compiled.thes import pair

ROOT = Path(__file__).resolve().parents[2]


def test_the_hash_follows_every_kernel_source_and_nothing_else(tmp_path):
    for package in KERNEL_PACKAGES:
        (tmp_path / package).mkdir(parents=True)
        (tmp_path / package / "kernels.py").write_text("X = 1\n")
    hashes = {sources_hash(tmp_path)}
    (tmp_path / KERNEL_PACKAGES[0] / "notes.txt").write_text("not a source")
    assert sources_hash(tmp_path) in hashes
    for package in KERNEL_PACKAGES:
        (tmp_path / package / "kernels.py").write_text(f"X = {package!r}\n")
        hashes.add(sources_hash(tmp_path))
    assert len(hashes) == 1 + len(KERNEL_PACKAGES)


def test_this_process_caches_its_kernels_in_the_version_folder():
    """numba asks our locator for env121's kernels: their cache files go to the
    folder of this version of the sources, by package path (so a checkout and its
    installed wheel share them), and stay valid only for the same sources."""
    assert pair(0, 0) >= 0  # compiled or loaded
    folder = kernel_folder()
    assert folder is not None and folder.name == sources_hash(ROOT)[:16]
    locator = vars(pair)["_cache"]._impl.locator  # numba's own, untyped
    package = folder / "env121" / "rules" / "compiled"
    assert isinstance(locator, KernelCacheLocator)
    assert Path(locator.get_cache_path()) == package
    assert locator.get_source_stamp() == sources_hash(ROOT)
    assert any(p.name.startswith("thes.pair-") for p in package.iterdir())


def test_only_the_newest_versions_are_kept(tmp_path):
    folders = [tmp_path / f"version{i}" for i in range(KEEP_VERSIONS + 3)]
    for age, folder in enumerate(reversed(folders)):
        folder.mkdir()
        os.utime(folder, (1_000_000 - age, 1_000_000 - age))
    prune_versions(folders[-1])
    assert sorted(tmp_path.iterdir()) == sorted(folders[-KEEP_VERSIONS:])


def test_the_first_compile_in_a_process_says_so_once(tmp_path):
    code = "from env121.rules.compiled.thes import pair, phu; pair(1, 2); phu(1, 2, 3)"
    env = dict(os.environ, ENV121_CACHE_DIR=str(tmp_path))

    def run() -> str:
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env
        )
        assert done.returncode == 0, done.stderr
        return done.stderr

    folder = tmp_path / "kernels" / sources_hash(ROOT)[:16]
    assert run() == COMPILE_NOTICE.format(folder=folder) + "\n"  # compiled: one line
    assert run() == ""  # loaded from the cache: nothing to say
