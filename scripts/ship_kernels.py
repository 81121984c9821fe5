"""Compile every kernel of the library for the platform's generic CPU and write them
as the shipped kernels (``env121/rules/compiled/shipped/``), which a newcomer's first
run unpacks instead of compiling (``env121.rules.compiled.cache``).

Run it after changing a kernel or a module a kernel imports (the test
``tests/rules/test_compiled_cache.py`` says when the shipped ones are stale), on
the platform, Python and numba they are for:

    .venv/bin/python scripts/ship_kernels.py

It compiles in a fresh process with an empty cache (``env121 warmup``: about a
minute and a half of CPU), then packs what was compiled.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="env121-ship-") as cache:
        env = dict(os.environ, ENV121_CACHE_DIR=cache)
        for chosen in ("NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES", "ENV121_KERNELS"):
            env.pop(chosen, None)
        subprocess.run([sys.executable, "-m", "apps.cli", "warmup"], cwd=ROOT, env=env, check=True)
        sys.path.insert(0, str(ROOT))
        from env121.rules.compiled.cache import write_shipped

        archive, manifest = write_shipped(ROOT, Path(cache) / "kernels")
    print(f"wrote {archive.relative_to(ROOT)} ({archive.stat().st_size / 1e6:.1f} MB) and")
    print(f"      {manifest.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
