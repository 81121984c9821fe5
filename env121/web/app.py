"""The web table's server: :func:`create_app` (FastAPI) and :func:`serve` (uvicorn).

The page (``static/index.html``, small vanilla JS, nothing fetched from
elsewhere) opens a game, plays it over a WebSocket, lists the results and
ratings, and opens records in the replay viewer. The API, all JSON:

* ``GET /api/setup`` — what a client may ask for: the ``agents`` offered
  (spec → summary, :func:`env121.web.config.agent_menu`), whether
  ``practice`` games are on, the ``limits``.
* ``POST /api/games`` ``{"name": "An", "seat": 0, "agents": ["greedy",
  "random", "mc:budget=16,ms=500"]}`` (and ``"practice_seed": 7`` for a
  practice game) — a new game (:meth:`Tables.open`): the person named
  ``name`` in ``seat``, three offered agents in the other seats in order, the
  seed drawn by the server. Answers the game's snapshot
  (:meth:`Table.snapshot`: its ``id``, the ``svg`` of the table as the person
  sees it, the ``moves`` by name and kind, the vòng ``results`` explained…;
  the ``seed`` only once the match is over, or in a practice game).
* ``GET /api/games/{id}`` — the snapshot; ``POST /api/games/{id}/moves``
  ``{"action": id, "step": n}`` — a move (:meth:`Table.move`), answered by
  the new snapshot.
* ``WS /api/games/{id}/ws`` — the same game as messages: the server sends
  ``{"type": "state", "game": snapshot}`` on connecting and after each move;
  the page sends moves; a refused one is answered ``{"type": "error",
  "error": why}``.
* ``GET /api/games/{id}/record`` — the game record (:mod:`env121.engine.records`)
  as a file, and ``GET /api/games/{id}/replay`` — its replay for the viewer
  (:func:`env121.web.replay.replay_data`): both only once the match is over
  (status 403 before: the record holds the seed, which gives every hidden
  card), or at any time for a practice game.
* ``GET /api/results`` — OpenSkill ratings of the people (by name) and bots
  (by spec) from every finished game that is not practice, and the last
  finished games (``?player=NAME``: that person's).
* ``POST /api/replays`` with a record as the body — its replay, for the viewer.
* ``GET /rules`` — the rules (``RULES.md``) as a page.

Every client (an address) is held to the server's limits
(:class:`~env121.web.config.Limits`): its requests, WebSocket connections
and messages per second (status 429 beyond), its WebSockets open at once
(:data:`SOCKETS_PER_GAME` per game it may have in play), the size of a body
or message (413), its games in play (429) and the server's (503). A bad request gets status 400
(404 for an unknown game) and ``{"error": why}``; nothing changes. The
agents' thinking and the replays' drawing run in worker threads, so one slow
game does not hold up the others.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from env121.engine.records import loads, replay
from env121.engine.state import NUM_SEATS
from env121.web.clients import RateLimiter
from env121.web.config import ServerConfig, agent_menu
from env121.web.replay import replay_data
from env121.web.store import PERSON, GameStore
from env121.web.tables import (
    AgentFailed,
    MoveError,
    NoRoom,
    Table,
    Tables,
    UnknownTable,
    warm_up,
)

REPLAYS_AT_ONCE = 2
"""Uploaded records drawn into replays at once (each takes seconds of CPU)."""
SOCKETS_PER_GAME = 2
"""WebSockets a client may hold open per game it may have in play (a game
open in two tabs)."""
MAX_REPLAY_ACTIONS = 10_000
"""The most actions of an uploaded record drawn into a replay (a ván is about
a thousand; every step is drawn five times)."""


class TooLarge(ValueError):
    """A request body or message over ``limits.body_bytes``."""


class NotYet(PermissionError):
    """Something the person may not see before the match is over."""


def _static_dir() -> str:
    return str(files("env121.web").joinpath("static"))


def client_of(request: Request | WebSocket) -> str:
    """The client a request counts against: the peer's address."""
    return request.client.host if request.client is not None else "unknown"


def create_app(
    config: ServerConfig | None = None,
    *,
    tables: Tables | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> FastAPI:
    """The web table's app, with ``config``'s agents, limits and database
    (or the given ``tables``, as tests do)."""
    from agents.registry import available_agents, parse_spec

    if tables is None:
        config = config or ServerConfig()
        menu = agent_menu(config)
        tables = Tables(
            menu=tuple(menu),
            limits=config.limits,
            store=GameStore(config.database()),
            practice=config.practice,
            clock=clock,
        )
    limits = tables.limits
    summaries = available_agents()
    offered = {spec: summaries[parse_spec(spec)[0]] for spec in tables.menu}
    rate = RateLimiter(limits.requests_per_second, limits.requests_burst, clock=clock)
    replays_at_once = asyncio.Semaphore(REPLAYS_AT_ONCE)
    sockets: dict[str, int] = {}
    """WebSockets open per client (all on the event loop's thread)."""

    app = FastAPI(title="env121 web table", docs_url=None, redoc_url=None)
    app.add_middleware(GZipMiddleware, minimum_size=4096)
    app.state.tables = tables
    static = _static_dir()
    app.mount("/static", StaticFiles(directory=static), name="static")

    @app.middleware("http")
    async def rate_limit(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        if request.url.path.startswith("/api/"):
            wait = rate.allow(client_of(request))
            if wait is not None:
                return _error(f"too many requests: try again in {wait:.1f} s", 429)
        return await call_next(request)

    @app.exception_handler(UnknownTable)
    async def unknown_table(_request: Request, err: UnknownTable) -> JSONResponse:
        return _error(f"no game {err.args[0]!r:.40}", 404)

    @app.exception_handler(AgentFailed)
    async def agent_failed(_request: Request, err: AgentFailed) -> JSONResponse:
        return _error(str(err), 500)

    @app.exception_handler(NoRoom)
    async def no_room(_request: Request, err: NoRoom) -> JSONResponse:
        return _error(str(err), 429 if err.per_client else 503)

    @app.exception_handler(TooLarge)
    async def too_large(_request: Request, err: TooLarge) -> JSONResponse:
        return _error(str(err), 413)

    @app.exception_handler(NotYet)
    async def not_yet(_request: Request, err: NotYet) -> JSONResponse:
        return _error(str(err), 403)

    @app.exception_handler(ValueError)  # MoveError, RecordError, a bad spec, name or seed
    async def bad_request(_request: Request, err: ValueError) -> JSONResponse:
        return _error(str(err), 400)

    async def body(request: Request) -> bytes:
        """The request's body, read no further than ``limits.body_bytes``."""
        most = limits.body_bytes
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > most:
            raise TooLarge(f"the request is {int(declared):,} bytes: at most {most:,} are accepted")
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > most:
                raise TooLarge(f"the request is over {most:,} bytes: at most {most:,} are accepted")
            chunks.append(chunk)
        return b"".join(chunks)

    async def json_body(request: Request) -> Any:
        try:
            return json.loads(await body(request))
        except (json.JSONDecodeError, UnicodeDecodeError) as err:
            raise ValueError(f"the request body is not JSON ({err})") from None

    def table(table_id: str, request: Request | WebSocket) -> Table:
        return tables.get(table_id, client_of(request))

    def finished(game: Table, what: str) -> None:
        if not (game.over or game.practice):
            raise NotYet(f"the {what} is given when the match is over (it holds the seed)")

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(f"{static}/index.html")

    @app.get("/rules", include_in_schema=False)
    async def rules() -> HTMLResponse:
        return HTMLResponse(rules_page())

    @app.get("/api/setup")
    async def setup() -> dict[str, Any]:
        return {"agents": offered, "practice": tables.practice, "limits": asdict(limits)}

    @app.post("/api/games", status_code=201)
    async def open_game(request: Request) -> dict[str, Any]:
        data = await json_body(request)
        expected = '{"name": str, "seat": 0..3, "agents": [three specs], "practice_seed"?: int}'
        if not isinstance(data, dict) or not {"name", "seat", "agents"} <= set(data) <= {
            "name",
            "seat",
            "agents",
            "practice_seed",
        }:
            raise ValueError(f"a new game takes {expected}, got {data!r:.200}")
        specs = data["agents"]
        if not isinstance(specs, list) or not all(isinstance(s, str) for s in specs):
            raise ValueError(f"agents {specs!r:.200} is not valid: expected a list of three specs")
        game = await run_in_threadpool(
            tables.open,
            seat=data["seat"],
            specs=specs,
            player=data["name"],
            client=client_of(request),
            practice_seed=data.get("practice_seed"),
        )
        return await run_in_threadpool(game.snapshot)

    @app.get("/api/games/{table_id}")
    async def game(table_id: str, request: Request) -> dict[str, Any]:
        return await run_in_threadpool(table(table_id, request).snapshot)

    @app.post("/api/games/{table_id}/moves")
    async def move(table_id: str, request: Request) -> dict[str, Any]:
        message = await json_body(request)
        return await run_in_threadpool(table(table_id, request).move, message)

    @app.get("/api/games/{table_id}/record")
    async def record(table_id: str, request: Request) -> Response:
        game = table(table_id, request)
        finished(game, "record")
        text = json.dumps(game.record(), ensure_ascii=False) + "\n"
        name = f"game-{game.id}.json"
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    @app.get("/api/games/{table_id}/replay")
    async def game_replay(table_id: str, request: Request) -> dict[str, Any]:
        game = table(table_id, request)
        finished(game, "replay")
        state = replay(game.record() or {})
        async with replays_at_once:
            return await run_in_threadpool(replay_data, state, game.names)

    @app.websocket("/api/games/{table_id}/ws")
    async def play(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        client = client_of(websocket)
        wait = rate.allow(client)  # a connection counts as a request
        most = SOCKETS_PER_GAME * limits.games_per_client
        if wait is not None or sockets.get(client, 0) >= most:
            why = (
                f"too many requests: try again in {wait:.1f} s"
                if wait is not None
                else f"you have {most} connections open, the most one client may have"
            )
            await websocket.send_json({"type": "error", "error": why})
            await websocket.close(code=4429)
            return
        sockets[client] = sockets.get(client, 0) + 1
        try:
            await _play(websocket, table_id)
        finally:
            sockets[client] -= 1
            if not sockets[client]:
                del sockets[client]

    async def _play(websocket: WebSocket, table_id: str) -> None:
        """One game's WebSocket, connected and counted."""
        try:
            game = await run_in_threadpool(table, table_id, websocket)
        except (UnknownTable, NoRoom) as err:
            why = f"no game {table_id!r:.40}" if isinstance(err, UnknownTable) else str(err)
            await websocket.send_json({"type": "error", "error": why})
            await websocket.close(code=4404)
            return
        await websocket.send_json({"type": "state", "game": await run_in_threadpool(game.snapshot)})
        try:
            while True:
                text = await websocket.receive_text()
                answer = await _ws_answer(text, table_id, websocket)
                await websocket.send_json(answer)
        except WebSocketDisconnect:
            return

    async def _ws_answer(text: str, table_id: str, websocket: WebSocket) -> dict[str, Any]:
        """The answer to one WebSocket message (a move), within the limits."""
        wait = rate.allow(client_of(websocket))
        if wait is not None:
            return {"type": "error", "error": f"too many messages: try again in {wait:.1f} s"}
        if len(text) > limits.body_bytes:
            return {"type": "error", "error": f"a message is at most {limits.body_bytes:,} bytes"}
        try:
            message = json.loads(text)
        except json.JSONDecodeError:
            message = text
        try:
            game = await run_in_threadpool(table, table_id, websocket)
            snapshot = await run_in_threadpool(game.move, message)
        except (MoveError, AgentFailed, NoRoom, UnknownTable) as err:
            return {"type": "error", "error": str(err)}
        return {"type": "state", "game": snapshot}

    @app.get("/api/results")
    async def results(player: str | None = None) -> dict[str, Any]:
        return await run_in_threadpool(results_data, tables.store, player)

    @app.post("/api/replays")
    async def uploaded_replay(request: Request) -> dict[str, Any]:
        text = (await body(request)).decode("utf-8", errors="replace")
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, RecursionError):
            data = None  # loads names what is wrong with it
        actions = data.get("actions") if isinstance(data, dict) else None
        if isinstance(actions, list) and len(actions) > MAX_REPLAY_ACTIONS:
            raise ValueError(
                f"the record has {len(actions):,} actions: at most {MAX_REPLAY_ACTIONS:,} "
                "are replayed here (env121 replay --html draws any record)"
            )
        state = await run_in_threadpool(loads, text, source="the uploaded record")
        async with replays_at_once:
            return await run_in_threadpool(replay_data, state)

    return app


def results_data(store: GameStore | None, player: str | None = None) -> dict[str, Any]:
    """The results page's data: ``ratings`` (best first by ordinal) and the
    last finished ``games`` (``player``'s only, if given)."""
    if store is None:
        return {"ratings": [], "games": [], "finished": 0}
    rated = sorted(store.ratings().items(), key=lambda item: (-item[1].ordinal, item[0]))
    ratings = [
        {
            "name": key.partition(":")[2],
            "kind": key.partition(":")[0],
            "ordinal": round(rating.ordinal, 2),
            "mu": round(rating.mu, 2),
            "sigma": round(rating.sigma, 2),
            "games": rating.games,
        }
        for key, rating in rated
    ]
    games = []
    for game in store.finished(player=player):
        names = [
            f"S{s} {game.player}" if spec == PERSON and s == game.seat else f"S{s} {spec}"
            for s, spec in enumerate(game.specs)
        ]
        games.append(
            {
                "id": game.id,
                "player": game.player,
                "seat": game.seat,
                "names": names,
                "scores": list(game.scores or ()),
                "ranks": list(game.ranks or [0] * NUM_SEATS),
                "practice": game.practice,
                "stopped": game.stopped,
                "finished": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(game.updated)),
            }
        )
    return {"ratings": ratings, "games": games, "finished": store.counts()[0]}


def rules_page() -> str:
    """``RULES.md`` as one HTML page (markdown-it, which rich brings); a
    short note naming the file where it is not installed beside the package."""
    from markdown_it import MarkdownIt

    import env121

    path = Path(env121.__file__).resolve().parents[1] / "RULES.md"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        text = "# The rules of 121\n\nThe rules are in `RULES.md` of the env121 source."
    html = MarkdownIt("commonmark").enable("table").render(text)
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<title>121 — the rules</title>\n<link rel="stylesheet" href="/static/style.css">\n'
        '</head>\n<body>\n<header class="bar"><h1>121</h1><nav><a href="/">Back to the '
        f'table</a></nav></header>\n<main class="rules">\n{html}</main>\n</body>\n</html>\n'
    )


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def serve(config: ServerConfig, host: str = "127.0.0.1", port: int = 8121) -> None:
    """Run the web table until interrupted (uvicorn, one process)."""
    import uvicorn

    app = create_app(config)
    print("env121 web table: warming up the agents…", flush=True)
    warm_up(app.state.tables.menu)
    print(f"env121 web table: http://{host}:{port}/  (games kept in {config.database()}; "
          "Ctrl-C stops it)")  # fmt: skip
    uvicorn.run(
        app, host=host, port=port, log_level="warning", ws_max_size=config.limits.body_bytes
    )


__all__ = [
    "MAX_REPLAY_ACTIONS",
    "REPLAYS_AT_ONCE",
    "create_app",
    "results_data",
    "rules_page",
    "serve",
]
