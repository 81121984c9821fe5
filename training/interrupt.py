"""Ctrl-C during training: the first stops the run cleanly, a second at once.

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
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Callable, Iterator

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


@contextlib.contextmanager
def stop_on_ctrl_c(request_stop: Callable[[], None]) -> Iterator[None]:
    """While the block runs, the first Ctrl-C calls ``request_stop`` and a second
    one ends the process. Only where Python's own handler is in place (the main
    thread, SIGINT neither ignored nor handled by someone else); elsewhere the
    block runs as it is."""
    in_main = threading.current_thread() is threading.main_thread()
    if not in_main or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return

    def first(signum: int, frame: object) -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        request_stop()
        if sys.stderr.isatty():
            print(STOPPING, file=sys.stderr, flush=True)

    signal.signal(signal.SIGINT, first)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


__all__ = ["STOPPING", "StopRequest", "stop_on_ctrl_c"]
