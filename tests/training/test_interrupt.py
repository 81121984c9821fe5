"""Ctrl-C during training: the first asks the loop to stop, a second ends the process
at once (the system's default action), whatever the process is inside."""

from __future__ import annotations

import os
import signal
import time

from training.interrupt import stop_on_ctrl_c


def test_the_first_ctrl_c_asks_to_stop_and_leaves_the_second_to_the_system():
    asked: list[bool] = []
    with stop_on_ctrl_c(lambda: asked.append(True)):
        assert asked == []
        os.kill(os.getpid(), signal.SIGINT)
        deadline = time.monotonic() + 5
        while not asked and time.monotonic() < deadline:
            time.sleep(0.01)
        assert asked == [True]
        assert signal.getsignal(signal.SIGINT) == signal.SIG_DFL  # a second one ends the process
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_sigterm_stops_like_ctrl_c_even_where_sigint_is_ignored():
    """A run started in the background by a script ignores SIGINT; `kill` (SIGTERM)
    still stops it with a checkpoint, and a second one ends it."""
    asked: list[bool] = []
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    before_term = signal.signal(signal.SIGTERM, signal.SIG_DFL)  # as a fresh process has it
    try:
        with stop_on_ctrl_c(lambda: asked.append(True)):
            assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN  # left as it was
            os.kill(os.getpid(), signal.SIGTERM)
            deadline = time.monotonic() + 5
            while not asked and time.monotonic() < deadline:
                time.sleep(0.01)
            assert asked == [True]
            assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)
        signal.signal(signal.SIGTERM, before_term)
