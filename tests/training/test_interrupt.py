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
