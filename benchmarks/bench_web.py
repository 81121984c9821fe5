"""The web table under load: many WebSocket games at once on 127.0.0.1.

Usage::

    .venv/bin/python benchmarks/bench_web.py [--games 50] [--moves 40] [--agent greedy]
    .venv/bin/python benchmarks/bench_web.py --abuse [--honest 4] [--moves 20] [--each]

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

``--abuse`` measures the server's limits instead, with its default limits
(``env121 serve`` in a process of its own, random agents): ``--honest``
people, each from a network of its own (127.10.x.1, then 127.11.x.1), open a
game and play
``--moves`` moves over its WebSocket, first alone, then while abusers (in
another process) flood the server: 30 addresses of 127.0.0.0/24 asking for
``/rules`` in a loop, 8 addresses of 127.0.2.0/24 uploading records of
``--replay-actions`` actions (32 different deals, more than the server's
replay cache holds, so most are drawn), and
12 addresses of 127.0.3.0/24 opening as many games as they can and keeping
them looked at. It prints the honest people's move latency (p50, p95) without
and with the abusers side by side, how many of them could not open a game,
what the abusers got (by status) and whether any game was lost. The load
goes to 127.0.0.0/8 only and stops after ``--seconds`` at most. ``--each``
runs each kind of abuser alone, then all three together (a fresh server
each time), and ends with their p95 ratios side by side.

On a machine of two cores or more, ``--abuse`` pins the server (and its
replay worker) to CPU 0 and the load generators (the abusers' process and
the honest people's) to the other CPUs (``os.sched_setaffinity``), and says
so in its header: the abusers' own CPU then does not compete with the
server, as a real attacker's, on machines of its own, does not. The abuse
itself is unchanged: as many threads, addresses and requests. The pinning
also puts the replay worker on the server's one CPU (a server of its own
would give it every CPU); ``--no-pin`` leaves everything on every CPU.

Measured (the shared 2-core machine, load average 4–6 from other work):
``--abuse`` (all three, pinned), six runs: honest p95 beside / alone
0.50–1.86× (median 0.73×); ``--each`` pinned: 0.65–0.97× beside each abuser
alone, 2.13× beside all three; unpinned (``--no-pin``) all three 1.04–2.71×.
The figures vary widely from run to run there. Before refusals were held:
26.7× beside all three (idle machine, load ~0.5).
``docs/web.md`` has the table; idle figures with the current code are still
to be measured.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from typing import Any

import uvicorn
import websockets

from apps.web.app import create_app
from apps.web.config import Limits, ServerConfig, config_toml
from apps.web.store import GameStore
from apps.web.tables import Tables
from env121.engine.game import new_game
from env121.engine.records import dumps
from env121.play.match import play_agents
from env121.play.random_agent import random_players
from env121.rules.config import RuleConfig


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


async def play_moves(socket: Any, moves: int, latencies: list[float], what: str) -> Any:
    """Read a game's first table from ``socket``, then play its first listed
    move up to ``moves`` times (until the game is over), each move's round
    trip appended to ``latencies``; the last table. A refused move raises,
    naming ``what`` it was."""
    game = json.loads(await socket.recv())["game"]
    for _ in range(moves):
        if game["over"]:
            break
        started = time.perf_counter()
        await socket.send(json.dumps({"action": game["moves"][0]["action"], "step": game["step"]}))
        message = json.loads(await socket.recv())
        latencies.append(time.perf_counter() - started)
        if message["type"] != "state":
            raise RuntimeError(f"{what} was refused: {message['error']}")
        game = message["game"]
    return game


async def play_one(address: str, agent: str, moves: int, latencies: list[float]) -> dict[str, Any]:
    """One game over its WebSocket: up to ``moves`` moves; its last table."""
    body = {"name": "load", "seat": 0, "agents": [agent] * 3}
    game = await asyncio.to_thread(post, f"http://{address}/api/games", body)
    url = f"ws://{address}/api/games/{game['id']}/ws?token={game['token']}"
    async with websockets.connect(url) as socket:
        game = await play_moves(socket, moves, latencies, "a move")
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


# ----------------------------------------------------------------- --abuse


def request(
    port: int, source: str, method: str, path: str, body: bytes | None = None, gzip: bool = False
) -> tuple[int, bytes]:
    """One HTTP request to 127.0.0.1:``port`` from the address ``source``
    (``gzip``: accepting a compressed answer, left compressed)."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=60, source_address=(source, 0)
    )
    try:
        headers = {"Content-Type": "application/json"}
        if gzip:
            headers["Accept-Encoding"] = "gzip"
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


@contextmanager
def served(folder: Path, pin: bool = False) -> Iterator[int]:
    """``env121 serve`` with the default limits and random agents, in a
    process of its own (``pin``: on the server's CPU of :func:`cpu_split`),
    on a free port of 127.0.0.1; the port."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    config = folder / "server.toml"
    config.write_text(config_toml(ServerConfig(agents=("random",), db=folder / "games.sqlite")))
    command = "import sys; from apps.cli import main; sys.exit(main(sys.argv[1:]))"
    server_cpus, _ = cpu_split() if pin else (None, None)
    server = subprocess.Popen(
        [sys.executable, "-c", command, "serve", "--port", str(port), "--config", str(config)],
        stdout=subprocess.DEVNULL,
        preexec_fn=None if server_cpus is None else partial(os.sched_setaffinity, 0, server_cpus),
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if request(port, "127.0.9.1", "GET", "/api/setup")[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                raise RuntimeError("the web table did not start in 120 s")
            time.sleep(0.2)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=30)


@cache
def cpu_split() -> tuple[set[int], set[int]] | tuple[None, None]:
    """The CPUs of the server and of the load generators: the first CPU this
    process may use and the others, or (None, None) with fewer than two (as
    first asked, before this process is pinned to the load's CPUs)."""
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        return None, None
    return {cpus[0]}, set(cpus[1:])


async def honest_player(
    port: int, address: str, moves: int, latencies: list[float]
) -> tuple[str, int] | None:
    """A person at ``address``: opens a game, plays ``moves`` moves over its
    WebSocket (timed); the game's id and steps, or None if it could not open one."""
    body = json.dumps({"name": "honest", "seat": 0, "agents": ["random"] * 3}).encode()
    status, answer = await asyncio.to_thread(request, port, address, "POST", "/api/games", body)
    if status != 201:
        return None
    game = json.loads(answer)
    url = f"ws://127.0.0.1:{port}/api/games/{game['id']}/ws?token={game['token']}"
    async with websockets.connect(url, local_addr=(address, 0), open_timeout=60) as socket:
        game = await play_moves(socket, moves, latencies, "an honest move")
    return game["id"], game["step"]


def honest_people(
    port: int, people: int, moves: int, network: int
) -> tuple[list[float], list[Any]]:
    """``people`` honest people at once, each from a network of its own
    (127.``network``.0.1, 127.``network``.1.1, …): their move latencies and games."""
    latencies: list[float] = []

    async def everyone() -> list[Any]:
        return list(
            await asyncio.gather(
                *(
                    honest_player(port, f"127.{network}.{i}.1", moves, latencies)
                    for i in range(people)
                )
            )
        )

    return latencies, asyncio.run(everyone())


ABUSERS = ("flood", "upload", "hoard")
"""The kinds of abusers: a ``/rules`` flood, replay uploads, games hoarded."""


def abuse(
    port: int,
    records: list[bytes],
    seconds: float,
    counts: Any,
    stop: Any,
    kinds: tuple[str, ...] = ABUSERS,
) -> None:
    """The abusers of ``kinds`` (run in a process of their own until ``stop``
    or ``seconds``): threads flooding ``/rules``, uploading ``records``,
    opening games from many addresses; every answer's status counted in ``counts``."""
    deadline = time.monotonic() + seconds
    lock = threading.Lock()

    def count(kind: str, status: int) -> None:
        with lock:
            counts[f"{kind} {status}"] = counts.get(f"{kind} {status}", 0) + 1

    def flood(address: str) -> None:
        while not stop.is_set() and time.monotonic() < deadline:
            try:
                count("rules", request(port, address, "GET", "/rules")[0])
            except OSError:
                count("rules", 0)

    def upload(address: str, first: int) -> None:
        k = first
        while not stop.is_set() and time.monotonic() < deadline:
            try:
                record = records[k % len(records)]
                status = request(port, address, "POST", "/api/replays", record, gzip=True)[0]
            except OSError:
                status = 0
            count("replay", status)
            k += 8  # the 8 uploaders never ask for the same record
            if status == 429:
                time.sleep(0.05)

    def hoard(address: str) -> None:
        body = json.dumps({"name": "hoarder", "seat": 0, "agents": ["random"] * 3}).encode()
        games: list[str] = []
        while not stop.is_set() and time.monotonic() < deadline:
            try:
                status, answer = request(port, address, "POST", "/api/games", body)
                count("open", status)
                if status == 201:
                    games.append(json.loads(answer)["id"])
                for game in games:  # looked at, never played
                    count("look", request(port, address, "GET", f"/api/games/{game}")[0])
            except OSError:
                count("open", 0)
            time.sleep(0.1)

    chosen: dict[str, list[tuple[Callable[..., None], tuple[Any, ...]]]] = {
        "flood": [(flood, (f"127.0.0.{i}",)) for i in range(2, 32)],
        "upload": [(upload, (f"127.0.2.{i}", i)) for i in range(1, 9)],
        "hoard": [(hoard, (f"127.0.3.{i}",)) for i in range(1, 13)],
    }
    threads = [
        threading.Thread(target=target, args=args)
        for kind in kinds
        for target, args in chosen[kind]
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def played_records(count: int, actions: int) -> list[bytes]:
    """``count`` records of different deals, ``actions`` actions each (random players)."""
    records = []
    for seed in range(count):
        state = new_game(seed, RuleConfig())
        play_agents(state, random_players(seed), until=lambda s: len(s.actions) >= actions)
        records.append(dumps(state).encode())
    return records


def abuse_run(
    people: int,
    moves: int,
    records: list[bytes],
    seconds: float,
    kinds: tuple[str, ...] = ABUSERS,
    pin: bool = True,
) -> float | None:
    """The honest people's latency without and with the abusers (see the
    module docstring); the ratio of their p95 beside the abusers to alone."""
    with tempfile.TemporaryDirectory() as folder, served(Path(folder), pin) as port:
        honest_people(port, 1, 2, 9)  # warm-up: the first game, the first connection
        alone, alone_games = honest_people(port, people, moves, 10)
        with multiprocessing.Manager() as manager:
            counts, stop = manager.dict(), manager.Event()
            abusers = multiprocessing.Process(
                target=abuse, args=(port, records, seconds, counts, stop, kinds)
            )
            abusers.start()
            time.sleep(min(3.0, seconds / 4))  # the flood is on
            started = time.perf_counter()
            crowded, crowded_games = honest_people(port, people, moves, 11)
            spent = time.perf_counter() - started
            stop.set()
            abusers.join(timeout=seconds + 60)
            got = dict(counts)
        lost = 0
        for game in [*alone_games, *crowded_games]:
            if game is None:
                continue
            game_id, step = game
            status, answer = request(port, "127.0.9.2", "GET", f"/api/games/{game_id}")
            lost += status != 200 or json.loads(answer)["step"] != step
    print(
        f"web table under abuse ({', '.join(kinds)}), default limits, {people} honest people "
        f"× {moves} moves, 127.0.0.0/8, {placement(pin)}:"
    )
    print(f"  honest, alone          {len(alone):4d} moves  {quantiles(alone)}")
    print(
        f"  honest, beside abusers {len(crowded):4d} moves  {quantiles(crowded)}  ({spent:.1f} s)"
    )
    ratio = None
    if len(alone) > 1 and len(crowded) > 1:
        ratio = statistics.quantiles(crowded, n=100)[94] / statistics.quantiles(alone, n=100)[94]
        print(f"  p95 beside abusers / alone: {ratio:.2f}×")
    refused = sum(game is None for game in crowded_games)
    print(f"  honest people who could not open a game beside the abusers: {refused} of {people}")
    print("  abusers' answers: " + ", ".join(f"{k}: {v}" for k, v in sorted(Counter(got).items())))
    print(f"  games lost: {lost}", flush=True)
    return ratio


def placement(pin: bool) -> str:
    """Where the server and the load run, in words (for the header)."""
    server_cpus, load_cpus = cpu_split()
    if not pin or server_cpus is None or load_cpus is None:
        return f"server and load on every CPU (load average {os.getloadavg()[0]:.1f})"
    return (
        f"server pinned to CPU {min(server_cpus)}, load generators to CPU "
        f"{','.join(map(str, sorted(load_cpus)))} (load average {os.getloadavg()[0]:.1f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games played at once")
    parser.add_argument(
        "--moves", type=int, default=40, help="the person's moves per game, at most"
    )
    parser.add_argument("--agent", default="greedy", help="the three agents of every game")
    parser.add_argument(
        "--abuse", action="store_true", help="honest people's latency without and with abusers"
    )
    parser.add_argument("--honest", type=int, default=4, help="--abuse: honest people at once")
    parser.add_argument(
        "--abusers",
        default=",".join(ABUSERS),
        help=f"--abuse: the kinds of abusers, among {','.join(ABUSERS)}",
    )
    parser.add_argument(
        "--pin",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="--abuse: the server on CPU 0, the load on the others (--no-pin: all on every CPU)",
    )
    parser.add_argument(
        "--each",
        action="store_true",
        help="--abuse: each kind of abuser alone, then all three (a fresh server each)",
    )
    parser.add_argument(
        "--replay-actions", type=int, default=300, help="--abuse: actions of each uploaded record"
    )
    parser.add_argument(
        "--seconds", type=float, default=60.0, help="--abuse: the abusers stop after this, at most"
    )
    args = parser.parse_args()
    if args.abuse:
        kinds = tuple(args.abusers.split(","))
        if not set(kinds) <= set(ABUSERS):
            parser.error(f"--abusers {args.abusers!r}: expected some of {','.join(ABUSERS)}")
        _, load_cpus = cpu_split()
        if args.pin and load_cpus is not None:  # the abusers started from here inherit it
            os.sched_setaffinity(0, load_cpus)
        records = played_records(32, args.replay_actions)
        mixes = [(kind,) for kind in ABUSERS] + [ABUSERS] if args.each else [kinds]
        ratios = [
            abuse_run(args.honest, args.moves, records, args.seconds, mix, args.pin)
            for mix in mixes
        ]
        if args.each:
            print("p95 beside abusers / alone:")
            for mix, ratio in zip(mixes, ratios, strict=True):
                shown = "too few moves" if ratio is None else f"{ratio:.2f}×"
                print(f"  {','.join(mix):18s} {shown}")
        return
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
