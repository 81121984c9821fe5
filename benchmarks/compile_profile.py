"""Where a command's compile CPU goes: per kernel module, per kernel and signature.

Usage (from the repository root; an empty kernel cache measures a first run)::

    ENV121_CACHE_DIR=$(mktemp -d) .venv/bin/python -m benchmarks.compile_profile \\
        tournament --vs greedy random --deals 4 --seed 1 --quiet --no-plot --out /tmp/t

Runs ``env121 ARGS…`` in this process with a listener on numba's
``numba:compile`` events (the ones :class:`env121.rules.compiled.cache.CompileNotice`
hears): each compile's CPU seconds minus those of the compiles nested in it
(a kernel's first call compiles the kernels it calls inside its own compile).
Prints the process's CPU seconds, the compile total, the seconds per module
(numba's own helpers as one row), and the kernels compiled for more than one
signature with what their extra signatures cost. Prints numbers; asserts
nothing. ``docs/first-run.md`` holds the figures measured with it.
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from typing import Any

from numba.core import event

OURS = ("env121", "agents", "training")
"""The module prefixes of env121's kernels (the others are numba's helpers)."""


class CompileTimes(event.Listener):
    """Exclusive CPU seconds of every compile: ``rows`` of (kernel, signature, seconds)."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, str, float]] = []
        self._stack: list[list[Any]] = []  # kernel, signature, seconds so far, since

    def on_start(self, ev: Any) -> None:
        now = time.process_time()
        if self._stack:
            self._stack[-1][2] += now - self._stack[-1][3]
        function = ev.data["dispatcher"].py_func
        name = f"{function.__module__}.{function.__qualname__}"
        self._stack.append([name, str(ev.data.get("args")), 0.0, now])

    def on_end(self, ev: Any) -> None:
        now = time.process_time()
        name, signature, seconds, since = self._stack.pop()
        self.rows.append((name, signature, seconds + now - since))
        if self._stack:
            self._stack[-1][3] = now


def report(times: CompileTimes) -> list[str]:
    """The lines printed: the totals, per module, and the kernels of several signatures."""
    by_module: dict[str, float] = defaultdict(float)
    by_kernel: dict[str, list[float]] = defaultdict(list)
    for name, _, seconds in times.rows:
        module = name.rsplit(".", 1)[0]
        by_module[module if module.startswith(OURS) else "numba's helpers"] += seconds
        if module.startswith(OURS):
            by_kernel[name].append(seconds)
    total = sum(seconds for _, _, seconds in times.rows)
    lines = [
        f"process CPU {time.process_time():.1f} s; compiling {total:.1f} s, "
        f"{len(times.rows)} signatures",
        "",
        "CPU s  module",
    ]
    lines += [f"{s:6.1f}  {m}" for m, s in sorted(by_module.items(), key=lambda kv: -kv[1])]
    several = {k: sorted(v) for k, v in by_kernel.items() if len(v) > 1}
    extra = sum(sum(v[:-1]) for v in several.values())
    lines += ["", f"{len(several)} kernels of several signatures; the extra ones: {extra:.1f} s"]
    lines += [
        f"{sum(v[:-1]):6.2f}  {len(v)}×  {k}"
        for k, v in sorted(several.items(), key=lambda kv: -sum(kv[1][:-1]))[:15]
    ]
    return lines


def main(argv: list[str] | None = None) -> int:
    times = CompileTimes()
    event.register("numba:compile", times)  # type: ignore[no-untyped-call]
    from apps.cli import main as env121_main

    status = env121_main(sys.argv[1:] if argv is None else argv)
    print("\n".join(report(times)), file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
