"""A small bounded version of ``benchmarks/bench_web.py``: a few WebSocket
games at once against a real server on 127.0.0.1, every move answered and
nothing lost (each game's table, database row and record agree)."""

from __future__ import annotations

from benchmarks.bench_web import run


def test_games_played_at_once_over_websockets_lose_nothing():
    load = run(games=6, moves=5, agent="random")
    assert load.games == 6 and load.lost == 0
    assert len(load.latencies) == 6 * 5 and all(t > 0 for t in load.latencies)
