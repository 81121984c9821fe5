"""Hypothesis profiles for the whole suite, and Ctrl-C as a terminal delivers it.

``ci`` (loaded by default): derandomized, so every run tries the same examples
and a failure in CI reproduces on any machine; no deadline (the machine is
shared and timings wander). ``explore`` (``pytest --hypothesis-profile=explore``)
draws fresh random examples on every run, for hunting new bugs locally; a
failure it finds is printed with its ``@reproduce_failure`` blob and belongs
in a regular test. Each test still bounds its own ``max_examples``.

A shell without job control starts a background command (``bash
scripts/test.sh &`` in a script, ``nohup …``) with SIGINT ignored, and every
process it starts inherits that: the tests that stop a command with Ctrl-C
(SIGINT) would then see it ignored and fail. Each test process therefore
takes SIGINT back to Python's default before any test runs, so the suite
behaves the same however it is launched.

Stable-Baselines3 gives a model that learns without a logger of its own a new
folder ``SB3-<date>`` in the system's temporary folder, kept for good; the
tests that train a bare ``MaskablePPO`` would leave one per run, so every test
process points ``SB3_LOGDIR`` into pytest's own temporary folders instead.
"""

import os
import signal
from collections.abc import Iterator

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None)
settings.register_profile("explore", derandomize=False, deadline=None)
settings.load_profile("ci")


def pytest_configure() -> None:
    """SIGINT back to Python's default handler (see the module docstring)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True, scope="session")
def sb3_logs_in_pytests_folders(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """``SB3_LOGDIR`` in pytest's temporary folders for the session (see the module
    docstring), unless the caller chose one."""
    chosen = os.environ.get("SB3_LOGDIR")
    if chosen is None:
        os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3-logs"))
    yield
    if chosen is None:
        del os.environ["SB3_LOGDIR"]
