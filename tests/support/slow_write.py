"""The ``env121`` command line with the atomic writes of one file slowed: the kill tests' entry.

``python -m tests.support.slow_write NAME:SECONDS ARGS…`` runs ``env121 ARGS…``
with every write of a file named ``NAME`` (:func:`env121.engine.files.write_atomically`)
waiting ``SECONDS`` between writing its temporary file and renaming it into
place, so that a test can stop the process in the middle of a save
(``tests/training/test_kill_resume.py``). The production code has no hook for
it: the rename itself is slowed, in this process only.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any


def slowed_replace(name: str, seconds: float) -> Callable[..., None]:
    """``os.replace`` that first waits ``seconds`` when it moves a temporary
    file onto a file named ``name``."""
    replace = os.replace

    def slow_replace(source: Any, destination: Any, *args: Any, **kwargs: Any) -> None:
        if Path(destination).name == name and Path(source).name.endswith(".tmp"):
            time.sleep(seconds)
        replace(source, destination, *args, **kwargs)

    return slow_replace


def main(argv: Sequence[str]) -> int:
    """Slow the writes ``argv[0]`` names, then run ``env121 argv[1:]``."""
    name, _, seconds = argv[0].rpartition(":")
    os.replace = slowed_replace(name, float(seconds))
    from apps.cli import main as env121

    return env121(list(argv[1:]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
