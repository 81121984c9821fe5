"""Cold and warm start of the main commands, beside numba's cost to compile a trivial function.

Usage::

    .venv/bin/python benchmarks/bench_start.py [--train] [--only NAME …]

Each command runs twice in a fresh process: **cold**, with an empty kernel
cache (``ENV121_CACHE_DIR`` a new temporary folder: what a user meets on the
first run of a version), then **warm**, on the cache the cold run left.
Printed per run: the wall seconds and the CPU seconds (user + system of the
process and its children, ``getrusage``), so a loaded machine shows in the
gap between them. The yardstick, measured in the same run: a fresh Python
that imports numba and compiles ``lambda x: x + 1`` with no cache (what any
numba program pays; the commands' cold CPU is to be read against it).

The commands:

* ``tournament`` — the README's first command, ``env121 tournament --vs
  greedy random --deals 4 --seed 1``;
* ``play`` — ``env121 play --seed 1`` (random players on the Python engine);
* ``env`` — ``env121_v1.env()``, its first ``reset(seed=1)`` and one ``step``
  (the AEC environment a PettingZoo user starts with);
* ``train`` (only with ``--train``: it needs the ``train`` extra and takes
  minutes cold) — ``env121 train --preset scratch`` for one rollout and its
  first update (``total_steps`` = one rollout of the preset).

Prints numbers; asserts nothing. ``docs/first-run.md`` holds the figures
measured with it.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI = "import sys; from apps.cli import main; sys.exit(main(sys.argv[1:]))"
ENV = (
    "from env121 import env121_v1\n"
    "env = env121_v1.env()\n"
    "env.reset(seed=1)\n"
    "mask = env.last()[0]['action_mask']\n"
    "env.step(int(mask.nonzero()[0][0]))\n"
)
TRIVIAL = "import numba\nnumba.njit(lambda x: x + 1)(1)\n"
SCRATCH_ROLLOUT = 512 * 64
"""One rollout of the scratch preset (its ``num_games`` × ``rollout_steps``)."""


def commands(out: Path) -> dict[str, list[str]]:
    """Each measured command's argument list (after the Python interpreter)."""
    return {
        "tournament": [
            "-c",
            CLI,
            "tournament",
            "--vs",
            "greedy",
            "random",
            "--deals",
            "4",
            "--seed",
            "1",
            "--quiet",
            "--no-plot",
            "--out",
            str(out / "tournament"),
        ],
        "play": ["-c", CLI, "play", "--seed", "1"],
        "env": ["-c", ENV],
        "train": [
            "-c",
            CLI,
            "train",
            "--preset",
            "scratch",
            "--set",
            f"total_steps={SCRATCH_ROLLOUT}",
            "--out",
            str(out / "train"),
        ],
    }


def timed(arguments: list[str], cache: Path) -> tuple[float, float]:
    """Wall and CPU seconds of ``python arguments`` with its kernel cache in ``cache``."""
    env = {**os.environ, "ENV121_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, *arguments], env=env, cwd=ROOT, capture_output=True, text=True
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{arguments[2:] or arguments}: failed\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--train", action="store_true", help="also train --preset scratch")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="only these commands")
    args = parser.parse_args(argv)
    print(f"cores: {len(os.sched_getaffinity(0))}, load average: {os.getloadavg()[0]:.1f}")
    print(f"{'command':<28} {'cold wall':>9} {'cold CPU':>9} {'warm wall':>9} {'warm CPU':>9}")
    with tempfile.TemporaryDirectory(prefix="bench_start-") as folder:
        root = Path(folder)
        wall, cpu = timed(["-c", TRIVIAL], root / "none")
        print(f"{'numba: trivial njit':<28} {wall:9.1f} {cpu:9.1f} {'':>9} {'':>9}")
        for name in commands(root):
            if (name == "train" and not args.train) or (args.only and name not in args.only):
                continue
            cache = root / f"cache-{name}"
            cold = timed(commands(root / "cold")[name], cache)
            warm = timed(commands(root / "warm")[name], cache)
            print(f"{name:<28} {cold[0]:9.1f} {cold[1]:9.1f} {warm[0]:9.1f} {warm[1]:9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
