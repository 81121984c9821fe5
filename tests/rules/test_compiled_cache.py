"""numba's cached kernels are dropped exactly when a kernel package's source changes."""

from __future__ import annotations

from pathlib import Path

from env121.rules.compiled.cache import KERNEL_PACKAGES, STAMP, drop_stale_caches


def make_tree(root: Path) -> list[Path]:
    """A fake install: one source and one cached kernel per kernel package."""
    caches = []
    for package in KERNEL_PACKAGES:
        (root / package / "__pycache__").mkdir(parents=True)
        (root / package / "kernels.py").write_text("X = 1\n")
        caches.append(root / package / "__pycache__" / "kernels.f-3.py311.nbc")
    return caches


def write_caches(caches: list[Path]) -> None:
    for path in caches:
        path.write_bytes(b"compiled")
        path.with_suffix(".nbi").write_bytes(b"index")


def test_caches_survive_until_a_source_changes(tmp_path):
    caches = make_tree(tmp_path)
    write_caches(caches)
    assert drop_stale_caches(tmp_path)  # no stamp yet: nothing vouches for the caches
    assert not any(p.exists() for p in caches)
    assert (tmp_path / STAMP).is_file()
    write_caches(caches)
    assert not drop_stale_caches(tmp_path)
    assert all(p.exists() and p.with_suffix(".nbi").exists() for p in caches)
    (tmp_path / "agents" / "kernels.py").write_text("X = 2\n")  # one package's source changes
    assert drop_stale_caches(tmp_path)
    assert not any(p.exists() or p.with_suffix(".nbi").exists() for p in caches)
    bytecode = tmp_path / "env121/rules/__pycache__/kernels.cpython-311.pyc"
    bytecode.write_bytes(b"pyc")
    (tmp_path / "env121/rules" / "new.py").write_text("")  # a new source counts too
    assert drop_stale_caches(tmp_path)
    assert bytecode.exists()  # only numba's files go
