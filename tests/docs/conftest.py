"""The fork server of the documents' commands (``tests/docs/forkserver.py``):
one a pytest process, shared by the documents' blocks and the fork server's
own tests (each start imports torch and the package and loads the kernels:
about 3.5 s of CPU)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.docs.forkserver import ForkServer
from tests.docs.test_readmes import BIN, block_environment


@pytest.fixture(scope="session")
def fork_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ForkServer]:
    """The fork server, started with the environment the blocks run in."""
    with ForkServer(tmp_path_factory.mktemp("fork-server"), block_environment(), BIN) as server:
        yield server
