"""The web table's server: :func:`create_app` (FastAPI) and :func:`serve` (uvicorn).

The page (``static/index.html``, small vanilla JS, nothing fetched from
elsewhere) opens a game, plays it over a WebSocket and opens records in the
replay viewer. The API, all JSON:

* ``GET /api/agents`` — the agent names and summaries (:mod:`agents.registry`).
* ``POST /api/games`` ``{"seed": 7, "seat": 0, "agents": ["greedy", "random",
  "mc:budget=8"]}`` — a new game (:meth:`Tables.open`): the person in
  ``seat``, the three specs in the other seats in order. Answers the game's
  snapshot (:meth:`Table.snapshot`: its ``id``, the ``svg`` of the table as
  the person sees it, the ``moves`` by name, the vòng ``results`` explained…).
* ``GET /api/games/{id}`` — the snapshot; ``POST /api/games/{id}/moves``
  ``{"action": id, "step": n}`` — a move (:meth:`Table.move`), answered by
  the new snapshot.
* ``WS /api/games/{id}/ws`` — the same game as messages: the server sends
  ``{"type": "state", "game": snapshot}`` on connecting and after each move;
  the page sends moves; a refused one is answered ``{"type": "error",
  "error": why}``.
* ``GET /api/games/{id}/record`` — the game record (:mod:`env121.engine.records`),
  as a file to download.
* ``POST /api/replays`` with a record as the body — its replay
  (:func:`env121.web.replay.replay_data`), for the viewer.

A bad request gets status 400 (404 for an unknown or reclaimed game) and
``{"error": why}``; nothing changes. The agents' thinking and the replays'
drawing run in worker threads, so one slow game does not hold up the others.
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from env121.engine.records import loads
from env121.web.replay import replay_data
from env121.web.tables import DEFAULT_TTL, AgentFailed, MoveError, Tables, UnknownTable

MAX_BODY = 4_000_000
"""The largest request body accepted, in bytes (a record of a long match is ~50 kB)."""


def _static_dir() -> str:
    return str(files("env121.web").joinpath("static"))


def create_app(*, ttl: float = DEFAULT_TTL, tables: Tables | None = None) -> FastAPI:
    """The web table's app; games idle for ``ttl`` seconds are reclaimed."""
    from agents.registry import available_agents

    app = FastAPI(title="env121 web table", docs_url=None, redoc_url=None)
    app.add_middleware(GZipMiddleware, minimum_size=4096)
    app.state.tables = tables if tables is not None else Tables(ttl=ttl)
    static = _static_dir()
    app.mount("/static", StaticFiles(directory=static), name="static")

    def games() -> Tables:
        held: Tables = app.state.tables
        return held

    @app.exception_handler(UnknownTable)
    async def unknown_table(_request: Request, err: UnknownTable) -> JSONResponse:
        return _error(f"no game {err.args[0]!r}: never opened, or reclaimed after idling", 404)

    @app.exception_handler(AgentFailed)
    async def agent_failed(_request: Request, err: AgentFailed) -> JSONResponse:
        return _error(str(err), 500)

    @app.exception_handler(ValueError)  # MoveError, RecordError, a bad spec or seed
    async def bad_request(_request: Request, err: ValueError) -> JSONResponse:
        return _error(str(err), 400)

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(f"{static}/index.html")

    @app.get("/api/agents")
    async def agents() -> dict[str, str]:
        return available_agents()

    @app.post("/api/games", status_code=201)
    async def open_game(request: Request) -> dict[str, Any]:
        body = await _json_body(request)
        expected = '{"seed": int, "seat": 0..3, "agents": [three specs]}'
        if not isinstance(body, dict) or set(body) != {"seed", "seat", "agents"}:
            raise ValueError(f"a new game takes {expected}, got {body!r}")
        seed, seat, specs = body["seed"], body["seat"], body["agents"]
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise ValueError(f"seed {seed!r} is not valid: expected a non-negative integer")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ValueError(f"seat {seat!r} is not a seat: expected 0, 1, 2 or 3")
        if not isinstance(specs, list) or not all(isinstance(s, str) for s in specs):
            raise ValueError(f"agents {specs!r} is not valid: expected a list of three specs")
        table = await run_in_threadpool(games().open, seed=seed, seat=seat, specs=specs)
        return table.snapshot()

    @app.get("/api/games/{table_id}")
    async def game(table_id: str) -> dict[str, Any]:
        return await run_in_threadpool(games().get(table_id).snapshot)

    @app.post("/api/games/{table_id}/moves")
    async def move(table_id: str, request: Request) -> dict[str, Any]:
        table = games().get(table_id)
        return await run_in_threadpool(table.move, await _json_body(request))

    @app.get("/api/games/{table_id}/record")
    async def record(table_id: str) -> Response:
        table = games().get(table_id)
        name = f"game-seed{table.state.seed}.json"
        return Response(
            json.dumps(table.record(), ensure_ascii=False) + "\n",
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    @app.websocket("/api/games/{table_id}/ws")
    async def play(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        try:
            table = games().get(table_id)
        except UnknownTable:
            await websocket.send_json({"type": "error", "error": f"no game {table_id!r}"})
            await websocket.close(code=4404)
            return
        await websocket.send_json({"type": "state", "game": table.snapshot()})
        try:
            while True:
                text = await websocket.receive_text()
                try:
                    message = json.loads(text)
                except json.JSONDecodeError:
                    message = text
                try:
                    snapshot = await run_in_threadpool(table.move, message)
                except (MoveError, AgentFailed) as err:
                    await websocket.send_json({"type": "error", "error": str(err)})
                    continue
                await websocket.send_json({"type": "state", "game": snapshot})
        except WebSocketDisconnect:
            return

    @app.post("/api/replays")
    async def replay(request: Request) -> dict[str, Any]:
        text = (await _body(request)).decode("utf-8", errors="replace")
        state = await run_in_threadpool(loads, text, source="the uploaded record")
        return await run_in_threadpool(replay_data, state)

    return app


async def _body(request: Request) -> bytes:
    body = await request.body()
    if len(body) > MAX_BODY:
        raise ValueError(f"the request is {len(body):,} bytes: at most {MAX_BODY:,} are accepted")
    return body


async def _json_body(request: Request) -> Any:
    try:
        return json.loads(await _body(request))
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise ValueError(f"the request body is not JSON ({err})") from None


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def serve(host: str = "127.0.0.1", port: int = 8121, *, ttl: float = DEFAULT_TTL) -> None:
    """Run the web table until interrupted (uvicorn, one process)."""
    import uvicorn

    print(f"env121 web table: http://{host}:{port}/  (Ctrl-C stops it)")
    uvicorn.run(create_app(ttl=ttl), host=host, port=port, log_level="warning")


__all__ = ["MAX_BODY", "create_app", "serve"]
