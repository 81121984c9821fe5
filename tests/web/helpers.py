"""What the web tests share: a hand-moved clock, an app over a fresh
database, and a person who opens games and plays the first listed move."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

import tests.support.arena_agents  # noqa: F401  (registers the cheat agent)
from apps.web.app import create_app
from apps.web.config import Limits
from apps.web.store import GameStore
from apps.web.tables import Tables, draw_seed

RANDOMS = ["random", "random", "random"]
MENU = ("random", "greedy", "cheat")


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def make_tables(
    db: Path | None,
    clock: Callable[[], float],
    *,
    seeds: Callable[[], int] | None = None,
    **limits: Any,
) -> Tables:
    """Tables over the SQLite file ``db`` (None: no store; its clock is
    ``clock`` too), the test menu and
    ``limits`` (the request rates and the replays' CPU unbounded unless
    given: the clock is moved by hand; refusals answered at once, not held;
    replays drawn in threads, not a worker process)."""
    limits.setdefault("requests_burst", 1_000_000)
    limits.setdefault("block_requests_burst", 1_000_000)
    limits.setdefault("replay_processes", 0)
    limits.setdefault("refusal_hold_seconds", 0.0)
    limits.setdefault("replay_cpu_seconds", 1e9)
    return Tables(
        menu=MENU,
        limits=Limits(**limits),
        store=None if db is None else GameStore(db, clock=clock),
        seeds=seeds or draw_seed,
        clock=clock,
    )


def make_client(tables: Tables, clock: Callable[[], float], host: str = "testclient") -> TestClient:
    """A test client of an app over ``tables``, connecting from ``host``."""
    return TestClient(create_app(tables=tables, clock=clock), client=(host, 50000))


def make_clients(tables: Tables, clock: Callable[[], float], *hosts: str) -> list[TestClient]:
    """Test clients of one app over ``tables``, one connecting from each of ``hosts``."""
    app = create_app(tables=tables, clock=clock)
    return [TestClient(app, client=(host, 50000)) for host in hosts]


def open_game(client: TestClient, seat: int = 0, **extra: Any) -> Any:
    """A new game against three random agents, its snapshot (with its seat ``token``)."""
    body = {"name": "An", "seat": seat, "agents": RANDOMS, **extra}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def seat_of(game: Any) -> dict[str, str]:
    """The headers that play ``game``'s seat (its token)."""
    return {"X-Seat-Token": game["token"]}


def look(client: TestClient, game: Any) -> Any:
    """``game`` as its seat sees it now (fetched with its token, the token kept)."""
    response = client.get(f"/api/games/{game['id']}", headers=seat_of(game))
    assert response.status_code == 200, response.text
    return {**response.json(), "token": game["token"]}


def play_first_moves(client: TestClient, game: Any, limit: int = 10_000) -> Any:
    """The person plays the first listed move until the match ends (or
    ``limit`` moves); the last snapshot, with the token kept."""
    for _ in range(limit):
        if game["over"]:
            break
        move = {"action": game["moves"][0]["action"], "step": game["step"]}
        response = client.post(f"/api/games/{game['id']}/moves", json=move, headers=seat_of(game))
        assert response.status_code == 200, response.text
        game = {**response.json(), "token": game["token"]}
    return game
