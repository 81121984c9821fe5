"""The kernels' cache: one folder per kernel file and version of what it imports,
never beside the package, shared by every environment holding the same sources;
the shipped kernels, current and loaded instead of compiled; the first compile in
a process says so, once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from env121.engine.shuffle import _hashmix
from env121.rules.compiled import cache
from env121.rules.compiled.cache import (
    COMPILE_NOTICE,
    KEEP_VERSIONS,
    KernelCacheLocator,
    kernel_files,
    kernel_folder,
    kernel_sources,
    kernel_stamp,
    platform_tag,
    prune_versions,
    remove_old_layout,
    shipped_paths,
    stamp_folder,
    unpack_shipped,
)
from env121.rules.compiled.thes import pair

ROOT = Path(__file__).resolve().parents[2]


def _tree(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text)


def test_a_stamp_follows_what_the_kernel_file_imports_and_nothing_else(tmp_path):
    """Edit a module the kernel file imports, directly or through another, and its
    stamp changes; edit a module it does not import, or import a library, and not."""
    files = {
        "agents/kernels.py": "import numpy as np\nfrom agents.tables import (\n    A,\n)\n",
        "agents/tables.py": "from env121.rules import cards\nfrom agents.more import C  # C\n",
        "agents/more.py": "C = 3\n",
        "env121/rules/cards.py": "N = 121\n",
        "env121/rules/__init__.py": "",
        "agents/unrelated.py": "B = 2\n",
    }
    _tree(tmp_path, files)
    names = [
        p.relative_to(tmp_path).as_posix()
        for p in kernel_sources(tmp_path, tmp_path / "agents/kernels.py")
    ]
    assert names == [
        "agents/kernels.py",
        "agents/more.py",
        "agents/tables.py",
        "env121/rules/__init__.py",
        "env121/rules/cards.py",
    ]
    stamps = {kernel_stamp(tmp_path, "agents/kernels.py")}
    for edited, text in (
        ("agents/unrelated.py", "B = 3\n"),
        ("agents/kernels.py", files["agents/kernels.py"]),
    ):
        copy = tmp_path / f"copy{len(stamps)}"
        _tree(copy, {**files, edited: text})
        stamps.add(kernel_stamp(copy, "agents/kernels.py"))
    assert len(stamps) == 1
    edits = ("agents/tables.py", "agents/more.py", "env121/rules/cards.py", "agents/kernels.py")
    for number, edited in enumerate(edits):
        copy = tmp_path / f"edited{number}"
        _tree(copy, {**files, edited: files[edited] + "# edited\n"})
        stamps.add(kernel_stamp(copy, "agents/kernels.py"))
    assert len(stamps) == 1 + len(edits)


def test_this_process_caches_its_kernels_in_the_files_stamp_folder():
    """numba asks our locator for env121's kernels: their cache files go to the
    folder of the file and its stamp, by package path (so a checkout and its
    installed wheel share them), and stay valid only for the same sources."""
    assert pair(0, 0) >= 0  # compiled or loaded
    folder = kernel_folder()
    assert folder is not None
    locator = vars(pair)["_cache"]._impl.locator  # numba's own, untyped
    relative = "env121/rules/compiled/thes.py"
    stamp = kernel_stamp(ROOT, relative)
    assert isinstance(locator, KernelCacheLocator)
    assert Path(locator.get_cache_path()) == stamp_folder(folder, relative, stamp)
    assert locator.get_source_stamp() == stamp
    assert any(p.name.startswith("thes.pair-") for p in Path(locator.get_cache_path()).iterdir())


def test_the_kernels_env121_defines_first_are_cached_by_us_too():
    """The engine's shuffle is defined before the rules' kernels (``import env121``
    reaches it first): its cache was numba's, in ``__pycache__`` beside the package,
    until the cache was installed before any kernel."""
    locator = vars(_hashmix)["_cache"]._impl.locator
    assert isinstance(locator, KernelCacheLocator)


def test_only_the_newest_versions_are_kept(tmp_path):
    folders = [tmp_path / f"version{i}" for i in range(KEEP_VERSIONS + 3)]
    for age, folder in enumerate(reversed(folders)):
        folder.mkdir()
        os.utime(folder, (1_000_000 - age, 1_000_000 - age))
    prune_versions(folders[-1])
    assert sorted(tmp_path.iterdir()) == sorted(folders[-KEEP_VERSIONS:])


def test_the_folders_of_the_old_layout_are_removed(tmp_path):
    """The first layout kept one folder per hash of every source (50 MB each)."""
    (tmp_path / "a6996dae4eeb007d" / "agents").mkdir(parents=True)
    (tmp_path / "env121" / "engine" / "shuffle" / "7f71085d37de157b").mkdir(parents=True)
    remove_old_layout(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["env121"]
    assert (tmp_path / "env121" / "engine" / "shuffle" / "7f71085d37de157b").is_dir()


def _run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**{k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CPU")}, **env},
    )
    assert done.returncode == 0, done.stderr
    return done


def test_the_first_compile_in_a_process_says_so_once(tmp_path):
    code = "from env121.rules.compiled.thes import pair, phu; pair(1, 2); phu(1, 2, 3)"
    env = {"ENV121_CACHE_DIR": str(tmp_path), "ENV121_KERNELS": "host"}  # host: nothing shipped
    folder = tmp_path / "kernels"
    assert _run(code, **env).stderr == COMPILE_NOTICE.format(folder=folder) + "\n"  # compiled
    assert _run(code, **env).stderr == ""  # loaded from the cache: nothing to say


def test_numba_compiles_for_the_generic_cpu_unless_the_user_chose():
    code = (
        "import env121; from numba.core.registry import cpu_target; "
        "print(cpu_target.target_context.codegen().magic_tuple()[1:])"
    )
    assert _run(code).stdout.strip() == "('generic', '')"
    assert "generic" not in _run(code, ENV121_KERNELS="host").stdout
    assert _run(code, NUMBA_CPU_NAME="x86-64").stdout.startswith("('x86-64',")


shipped = pytest.mark.skipif(
    not shipped_paths()[0].is_file(),
    reason=f"no kernels shipped for this platform ({platform_tag()}): they compile on first use",
)


@shipped
def test_the_shipped_kernels_are_those_of_the_sources():
    """Every kernel file of the library is shipped, compiled from the sources as they
    are: else a newcomer's first run compiles for a minute."""
    stamps = json.loads(shipped_paths()[1].read_text())["kernels"]
    stale = [f for f in kernel_files(ROOT) if stamps.get(f) != kernel_stamp(ROOT, f)]
    assert not stale, (
        f"the shipped kernels of {stale} are not those of the sources: "
        "run `.venv/bin/python scripts/ship_kernels.py`"
    )
    assert sorted(stamps) == kernel_files(ROOT)


@shipped
def test_an_empty_cache_loads_the_shipped_kernels_without_compiling(tmp_path):
    """The README's first command's kernels, from nothing: nothing compiles."""
    code = (
        "import numpy as np; from agents.warmup import warm_kernels; "
        "warm_kernels(('engine', 'greedy'))"
    )
    assert _run(code, ENV121_CACHE_DIR=str(tmp_path)).stderr == ""
    unpacked = {
        p.relative_to(tmp_path / "kernels").parent.parent.as_posix()
        for p in tmp_path.rglob("*.nbi")
    }
    assert "env121/engine/kernel/transitions" in unpacked


def test_an_archive_unpacks_only_current_files_it_names_and_a_broken_one_nothing(
    tmp_path, monkeypatch
):
    """Only a manifest's files whose stamp is the sources' are unpacked, and only
    their own folder's members (a member elsewhere, ``../`` included, is skipped);
    a corrupt archive unpacks nothing (the kernels then compile)."""
    _tree(tmp_path / "src", {"agents/k.py": "X = 1\n", "agents/old.py": "Y = 1\n"})
    src = tmp_path / "src"
    current = kernel_stamp(src, "agents/k.py")
    members = tmp_path / "members"
    good = stamp_folder(Path(), "agents/k.py", current).as_posix()
    old = stamp_folder(Path(), "agents/old.py", "0" * 64).as_posix()
    _tree(members, {f"{good}/k.f-1.py311.nbi": "index", f"{old}/old.f-1.py311.nbi": "stale"})
    archive, manifest = tmp_path / "k.tar.xz", tmp_path / "k.json"
    with tarfile.open(archive, "w:xz") as tar:
        tar.add(members / good / "k.f-1.py311.nbi", arcname=f"{good}/k.f-1.py311.nbi")
        tar.add(members / old / "old.f-1.py311.nbi", arcname=f"{old}/old.f-1.py311.nbi")
        tar.add(members / good / "k.f-1.py311.nbi", arcname=f"{good}/../../../escape.nbi")
    stamps = {"agents/k.py": current, "agents/old.py": "0" * 64}
    manifest.write_text(json.dumps({"platform": platform_tag(), "kernels": stamps}))
    monkeypatch.setattr(cache, "shipped_paths", lambda: (archive, manifest))
    kernels = tmp_path / "kernels"
    kernels.mkdir()
    assert unpack_shipped(src, kernels) == ["agents/k.py"]
    files = sorted(p.relative_to(kernels).as_posix() for p in kernels.rglob("*") if p.is_file())
    assert files == [f"{good}/k.f-1.py311.nbi"]
    assert unpack_shipped(src, kernels) == []  # already there
    archive.write_bytes(archive.read_bytes()[:100])
    again = tmp_path / "again"
    again.mkdir()
    assert unpack_shipped(src, again) == []
    assert not any(again.iterdir())
