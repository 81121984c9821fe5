"""The web tests' shared fixtures: a hand-moved clock and a client of a fresh table."""

from __future__ import annotations

import pytest

from tests.web.helpers import Clock, make_client, make_tables


@pytest.fixture
def clock() -> Clock:
    """The time the server reads, moved by hand (idle games, rate limits)."""
    return Clock()


@pytest.fixture
def client(tmp_path, clock):
    """A test client of a new server on an empty database, games idle after 60 s."""
    return make_client(make_tables(tmp_path / "games.sqlite", clock, idle_seconds=60.0), clock)
