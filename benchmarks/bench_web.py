"""The web table under load: many WebSocket games at once on 127.0.0.1.

Usage::

    .venv/bin/python benchmarks/bench_web.py [--games 50] [--moves 40] [--agent greedy]

Serves the web table (uvicorn, one process, a fresh SQLite file in a
temporary folder) on a free port of 127.0.0.1 and plays ``--games`` games at
once, each a person against three ``--agent`` agents over its own WebSocket:
the person plays the first listed move, up to ``--moves`` moves a game (or to
the end of the match). A move's latency is from sending it to receiving the
table after the agents' answers, so it includes the agents' thinking, the
picture, the database write and the network round trip. The peer, in the
same run: one game alone on the same server (the latency without queueing),
and the same kind of moves applied in process (:meth:`Table.move` on the same
agents, no server, no database), the floor the server adds to. With more
games than cores, a move waits for the others' moves: the latency then grows
with the number of games and the throughput (moves/s) is the figure to read.
Then it checks that nothing was lost: every game's last table, its row in the
database and its record agree on the number of actions played.

The load is bounded (``--games`` × ``--moves`` moves) and goes to 127.0.0.1
only; every limit of the server is set for it (one client: all the games
come from this address). Prints numbers; asserts nothing but the count.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn
import websockets

from env121.web.app import create_app
from env121.web.config import Limits, ServerConfig
from env121.web.store import GameStore
from env121.web.tables import Tables


@dataclass
class Load:
    """What one run measured."""

    latencies: list[float]
    """Seconds per move, every move of every game."""
    seconds: float
    """Wall time of the whole load."""
    lost: int
    """Games whose table, database row and record disagree (should be 0)."""
    games: int


def start_server(config: ServerConfig) -> tuple[uvicorn.Server, str]:
    """The web table on a free port of 127.0.0.1, in a thread; its URL."""
    server = uvicorn.Server(
        uvicorn.Config(create_app(config), host="127.0.0.1", port=0, log_level="warning")
    )
    threading.Thread(target=server.run, daemon=True).start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the web table did not start in 30 s")
        time.sleep(0.05)
    return server, f"127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"


def post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.loads(response.read())


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=120) as response:
        return json.loads(response.read())


async def play_one(address: str, agent: str, moves: int, latencies: list[float]) -> dict[str, Any]:
    """One game over its WebSocket: up to ``moves`` moves; its last table."""
    body = {"name": "load", "seat": 0, "agents": [agent] * 3}
    game = await asyncio.to_thread(post, f"http://{address}/api/games", body)
    url = f"ws://{address}/api/games/{game['id']}/ws?token={game['token']}"
    async with websockets.connect(url) as socket:
        game = json.loads(await socket.recv())["game"]
        for _ in range(moves):
            if game["over"]:
                break
            started = time.perf_counter()
            await socket.send(
                json.dumps({"action": game["moves"][0]["action"], "step": game["step"]})
            )
            message = json.loads(await socket.recv())
            latencies.append(time.perf_counter() - started)
            if message["type"] != "state":
                raise RuntimeError(f"a move was refused: {message['error']}")
            game = message["game"]
    return dict(game)


def run(games: int, moves: int, agent: str = "greedy") -> Load:
    """Play ``games`` games of up to ``moves`` moves at once against a fresh server."""
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "games.sqlite"
        limits = Limits(
            games=games,
            games_per_client=games,
            requests_per_second=1e6,
            requests_burst=10**6,
            decision_seconds=60.0,
        )
        config = ServerConfig(agents=(agent,), db=db, limits=limits)
        server, address = start_server(config)
        latencies: list[float] = []
        try:

            async def everyone() -> list[dict[str, Any]]:
                return list(
                    await asyncio.gather(
                        *(play_one(address, agent, moves, latencies) for _ in range(games))
                    )
                )

            started = time.perf_counter()
            finals = asyncio.run(everyone())
            seconds = time.perf_counter() - started
            lost = 0
            store = GameStore(db)
            for final in finals:
                again = get(f"http://{address}/api/games/{final['id']}")
                stored = store.game(final["id"])
                ok = (
                    stored is not None
                    and again["step"] == final["step"]
                    and len(stored.record["actions"]) == final["step"]
                )
                lost += not ok
            store.close()
        finally:
            server.should_exit = True
    return Load(latencies, seconds, lost, len(finals))


def in_process(agent: str, moves: int, games: int) -> list[float]:
    """The peer: seconds per move of :meth:`Table.move` in process (no
    server, no database), ``games`` games of up to ``moves`` moves."""
    tables = Tables(menu=(agent,), limits=Limits(games=games, games_per_client=games))
    latencies = []
    for _ in range(games):
        table, token = tables.open(seat=0, specs=[agent] * 3, player="load")
        game = table.snapshot(token)
        for _ in range(moves):
            if game["over"]:
                break
            started = time.perf_counter()
            game = table.move({"action": game["moves"][0]["action"], "step": game["step"]}, token)
            latencies.append(time.perf_counter() - started)
    return latencies


def quantiles(latencies: list[float]) -> str:
    if len(latencies) < 2:
        return "too few moves"
    cuts = statistics.quantiles(latencies, n=100)
    return (
        f"p50 {cuts[49] * 1000:7.1f} ms   p95 {cuts[94] * 1000:7.1f} ms   "
        f"max {max(latencies) * 1000:7.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games played at once")
    parser.add_argument(
        "--moves", type=int, default=40, help="the person's moves per game, at most"
    )
    parser.add_argument("--agent", default="greedy", help="the three agents of every game")
    args = parser.parse_args()
    in_process(args.agent, 2, 1)  # warm-up: compiled kernels, imports
    peer = in_process(args.agent, args.moves, min(args.games, 5))
    alone = run(1, args.moves, args.agent)
    load = run(args.games, args.moves, args.agent)
    moves = len(load.latencies)
    print(f"web table, {load.games} WebSocket games at once vs 3× {args.agent}, 127.0.0.1:")
    rate = moves / load.seconds
    print(f"  server     {moves:5d} moves in {load.seconds:6.1f} s = {rate:6.1f} moves/s")
    print(f"             {quantiles(load.latencies)}")
    print(f"  server, one game at a time: {len(alone.latencies)} moves")
    print(f"             {quantiles(alone.latencies)}")
    print(f"  in process {len(peer):5d} moves, one at a time (no server, no database):")
    print(f"             {quantiles(peer)}")
    print(f"  lost games: {load.lost} of {load.games}")


if __name__ == "__main__":
    main()
