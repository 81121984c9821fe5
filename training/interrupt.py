"""Ctrl-C (or SIGTERM) during training: the first stops the run cleanly, a second at once.

Both trainers run their loop inside :func:`stop_on_ctrl_c`. The first Ctrl-C
(SIGINT) only asks the loop to stop: it finishes the step or update under
way, saves a checkpoint and returns (the command then prints its one line,
exit status 130). A second Ctrl-C ends the process at once, even while it is
inside a long compiled or torch call, where a Python handler would wait for
that call to return (tens of seconds): after the first, SIGINT has the
system's default action. Checkpoints are written atomically, so the last
complete one is kept either way. On a terminal the first Ctrl-C also says so
in a line; where stderr is a file or a pipe the command's one closing line
stays the only one.

SIGTERM — what ``kill``, a batch scheduler at the end of a job's time (Slurm)
or a container's stop sends — is read the same way: the first stops the run
with a checkpoint, a second ends it. That also serves a run started in the
background by a script, where the shell makes the process ignore SIGINT (a
signal a process starts ignoring is left ignored).
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

STOPPING = (
    "env121: stopping at the end of this update, with a checkpoint "
    "(Ctrl-C again stops at once; the last complete checkpoint is kept)"
)
"""What the first Ctrl-C prints on a terminal."""


class StopRequest:
    """Whether Ctrl-C asked the loop to stop: pass :meth:`request` to
    :func:`stop_on_ctrl_c`, read :attr:`requested` between updates."""

    def __init__(self) -> None:
        self.requested = False

    def request(self) -> None:
        """Ask the loop to stop at the end of the update under way."""
        self.requested = True


STOP_SIGNALS: dict[signal.Signals, Any] = {
    signal.SIGINT: signal.default_int_handler,
    signal.SIGTERM: signal.SIG_DFL,
}
"""The signals that ask a run to stop, each with the handler Python starts
with: a signal whose handler is another (ignored, or set by someone else) is
left as it is."""


@contextlib.contextmanager
def stop_on_ctrl_c(request_stop: Callable[[], None]) -> Iterator[None]:
    """While the block runs, the first Ctrl-C or SIGTERM calls ``request_stop``
    and a second one ends the process. Only in the main thread, and only for
    the signals of :data:`STOP_SIGNALS` whose handler is still Python's own;
    elsewhere the block runs as it is."""
    in_main = threading.current_thread() is threading.main_thread()
    mine = [
        number
        for number, start in STOP_SIGNALS.items()
        if in_main and signal.getsignal(number) is start
    ]

    def first(signum: int, frame: object) -> None:
        for number in mine:
            signal.signal(number, signal.SIG_DFL)
        request_stop()
        if sys.stderr.isatty():
            print(STOPPING, file=sys.stderr, flush=True)

    for number in mine:
        signal.signal(number, first)
    try:
        yield
    finally:
        for number in mine:
            signal.signal(number, STOP_SIGNALS[number])


__all__ = ["STOPPING", "STOP_SIGNALS", "StopRequest", "stop_on_ctrl_c"]
