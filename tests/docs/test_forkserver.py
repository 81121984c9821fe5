"""The fork server starts a command as its own interpreter would: the same
output, exit status, working folder, environment and ``__main__``, and a
fresh interpreter where an import would see another environment."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.docs.forkserver import ForkServer
from tests.docs.test_readmes import BIN, block_environment

# One worker under `pytest -n --dist loadgroup`: the server below starts once
# (importing torch and the package, loading the kernels: about 3.5 s of CPU),
# not on each worker that runs one of these tests.
pytestmark = pytest.mark.xdist_group("fork_server_tests")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ForkServer]:
    with ForkServer(tmp_path_factory.mktemp("server"), block_environment(), BIN) as started:
        yield started


def both(server: ForkServer, script: str, folder: Path) -> tuple[tuple[int, str, str], ...]:
    """``script`` run by bash with the real programs, then with the shims."""
    runs = []
    for programs in (BIN, server.bin):
        done = subprocess.run(
            ["bash", "-c", script.replace("BIN", str(programs))],
            cwd=folder,
            env=block_environment(),
            capture_output=True,
            text=True,
            timeout=120,
        )
        runs.append((done.returncode, done.stdout, done.stderr))
    return tuple(runs)


@pytest.mark.parametrize(
    "script",
    [
        "BIN/python -c 'import sys, os; print(sys.argv, os.getcwd()); sys.exit(3)'",
        "echo 'import sys; print(__name__, __file__, sys.argv[1:], sys.stdin.read())' > s.py"
        " && echo piped | BIN/python s.py a b",
        "BIN/python -c 'raise SystemExit(\"a message\")'",
        "FOO=bar BIN/python -c 'import os; print(os.environ[\"FOO\"])'",
        "BIN/python -m arena.paired --help",
        "BIN/env121 tournament --vs nosuch greedy --deals 1",
        "BIN/env121 rules | head -3",
    ],
)
def test_a_command_ends_as_in_its_own_interpreter(
    server: ForkServer, script: str, tmp_path: Path
) -> None:
    real, forked = both(server, script, tmp_path)
    assert forked == real


def test_an_uncaught_error_prints_its_traceback_and_exits_1(
    server: ForkServer, tmp_path: Path
) -> None:
    real, forked = both(server, "BIN/python -c 'import json; json.loads(\"{\")'", tmp_path)
    assert real[0] == forked[0] == 1
    assert forked[2].splitlines()[-1] == real[2].splitlines()[-1]
    assert forked[2].startswith("Traceback (most recent call last):")


def test_a_command_is_forked_unless_an_import_would_see_another_environment(
    server: ForkServer, tmp_path: Path
) -> None:
    script = "BIN/python -c 'import sys; print(\"torch\" in sys.modules)'"
    real, forked = both(server, script, tmp_path)
    assert (real[1], forked[1]) == ("False\n", "True\n")  # the server had imported torch
    script = "ENV121_KERNELS=host " + script
    real, forked = both(server, script, tmp_path)
    assert (real[1], forked[1]) == ("False\n", "False\n")  # a fresh interpreter


def test_the_imports_environment_reaches_the_command(server: ForkServer, tmp_path: Path) -> None:
    script = "BIN/python -c 'import env121, os; print(os.environ.get(\"NUMBA_CPU_NAME\"))'"
    real, forked = both(server, script, tmp_path)
    assert forked == real
    assert real[1] == "generic\n"
