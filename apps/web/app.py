"""The web table's server: :func:`create_app` (FastAPI) and :func:`serve` (uvicorn).

The page (``static/index.html``, small vanilla JS, nothing fetched from
elsewhere) opens a game, plays it over a WebSocket, lists the results and
ratings, and opens records in the replay viewer. The API, all JSON (the
reference, with every limit, is ``docs/web.md``):

* ``GET /api/setup`` — what a client may ask for: the ``agents`` offered
  (spec → summary, :func:`apps.web.config.agent_menu`), whether
  ``practice`` games are on, the ``limits``.
* ``POST /api/games`` ``{"name": "An", "seat": 0, "agents": ["greedy",
  "random", "mc:budget=16,ms=500"]}`` (and ``"practice_seed": 7`` for a
  practice game; :class:`~apps.web.messages.NewGame`) — a new game
  (:meth:`Tables.open`): the person named ``name`` in ``seat``, three
  offered agents in the other seats in order, the seed drawn by the server.
  Answers the game's snapshot (:meth:`Table.snapshot`: its ``id``, the
  ``svg`` of the table as the person sees it, the ``moves`` by name and
  kind, the vòng ``results`` explained…; the ``seed`` only once the match is
  over, or in a practice game) and its seat ``token``, given this once.
* ``GET /api/games/{id}`` — the snapshot: the seat's with the header
  ``X-Seat-Token: TOKEN``, else what a watcher may see (no hand, no moves)
  until the match is over; ``POST /api/games/{id}/moves`` ``{"action": id,
  "step": n}`` (:class:`~apps.web.messages.Move`) with the token header —
  a move (:meth:`Table.move`), answered by the new snapshot.
* ``WS /api/games/{id}/ws?token=TOKEN`` — the same game as messages: the
  server sends ``{"type": "state", "game": snapshot}`` on connecting and
  after each move; the page sends moves; a refused one (or a message that
  is not a move: bad JSON, too deep, a huge number, a binary frame) is
  answered ``{"type": "error", "error": why}`` and the connection stays open.
* ``GET /api/games/{id}/record`` — the game record (:mod:`env121.engine.records`)
  as a file, and ``GET /api/games/{id}/replay`` — its replay for the viewer
  (:func:`apps.web.replay.replay_data`): both only once the match is over
  (status 403 before: the record holds the seed, which gives every hidden
  card), or at any time for a practice game.
* ``GET /api/results`` — OpenSkill ratings of the people (by name) and bots
  (by spec) from every finished game that is not practice (an abandoned one
  included, its person last), and the last finished games
  (``?player=NAME``: that person's).
* ``POST /api/replays`` with a record as the body — its replay, for the viewer.
* ``GET /rules`` — the rules (``RULES.md``) as a page; ``GET /`` and
  ``/static/NAME`` — the page. All are read (and the rules rendered) once,
  when the app is made, and served from memory.

Every client (an address) and every network block is held to the server's
limits (:class:`~apps.web.config.Limits`, :mod:`apps.web.clients`): its
requests per second on every route (status 429 beyond, held back a while
first: :class:`Tarpit`, and the connection closed), its WebSockets open
(the server's too), the size, nesting and numbers of a body or message
(413, 400), its games in play (429) and the server's (503), its replays
being drawn (429; the server's: 503) and its block's CPU seconds of replay
drawing a minute (429 with ``Retry-After``). A bad request gets a 4xx status and
``{"error": why}`` in one line; nothing changes. The agents' thinking runs in
worker threads and the replays' drawing in a worker process, so one slow
game or replay does not hold up the others; replays of finished games are
kept, drawn, for the next viewer.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import math
import multiprocessing
import time
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import asdict
from functools import partial
from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from apps.web.clients import Admission, Connections, RateLimiter, network_block
from apps.web.config import Limits, ServerConfig, agent_menu
from apps.web.messages import BadMessage, Move, NewGame, checked, parse_json
from apps.web.replay import drawn_replay, lower_priority, most_actions
from apps.web.store import PERSON, GameStore
from apps.web.tables import (
    AgentFailed,
    MoveError,
    NoRoom,
    NotYourSeat,
    Table,
    Tables,
    UnknownTable,
    warm_up,
)
from env121.engine.render import SEAT_NAMES
from env121.engine.state import NUM_SEATS
from env121.rules.config import RuleConfig

TOKEN_HEADER = "X-Seat-Token"
"""The HTTP header that carries a game's seat token (the WebSocket's query: ``?token=``)."""
STATIC_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
}


class TooLarge(ValueError):
    """A request body or message over ``limits.body_bytes``."""


class NotYet(PermissionError):
    """Something the person may not see before the match is over."""


def _static_dir() -> Path:
    return Path(str(files("apps.web").joinpath("static")))


def client_of(request: Request | WebSocket) -> str:
    """The client a request counts against: the peer's address."""
    return request.client.host if request.client is not None else "unknown"


class Replays:
    """Replays drawn within ``limits``: at most ``replays_queued`` drawn or
    waiting in all, ``replays_per_client`` per client and
    ``replays_per_block`` per network block, each block within its
    ``replay_cpu_seconds`` a minute (refused beyond:
    :class:`NoRoom`), drawn in ``replay_processes`` worker processes (in
    threads if 0) at a lower priority than the server's
    (:func:`~apps.web.replay.lower_priority`), the last ``replay_cache``
    kept by key."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.cache: OrderedDict[str, bytes] = OrderedDict()
        self.waiting: Counter[str] = Counter()
        """Replays drawn or waiting: in all (key ``""``), per client, per
        network block (``block:NET``)."""
        pace = limits.replay_cpu_seconds / 60
        self.cpu = RateLimiter(pace, pace, clock=clock)
        """Each network block's CPU seconds of drawing left (one second's
        refill at most: no saving up for a burst)."""
        self.pool: ProcessPoolExecutor | None = None
        self.at_once = asyncio.Semaphore(max(1, limits.replay_processes))

    async def drawn(
        self, key: str, client: str, record: str | dict[str, Any], names: Sequence[str]
    ) -> bytes:
        """The replay kept under ``key``, or ``record``'s drawn now (and kept
        if ``key``): gzip-compressed JSON (:func:`packed_replay`)."""
        if key in self.cache:
            self.cache.move_to_end(key)
            return self.cache[key]
        limits = self.limits
        block = "block:" + network_block(client)
        if self.waiting[""] >= limits.replays_queued:
            raise NoRoom(
                f"the server is drawing {limits.replays_queued} replays: try again later",
                per_client=False,
            )
        if self.waiting[client] >= limits.replays_per_client:
            raise NoRoom(
                f"you have {limits.replays_per_client} replay being drawn, the most one client "
                "may have: wait for it",
                per_client=True,
            )
        if self.waiting[block] >= limits.replays_per_block:
            raise NoRoom(
                f"your network has {limits.replays_per_block} replay being drawn, the most one "
                "network block may have: wait for it",
                per_client=True,
            )
        wait = self.cpu.wait(block)
        if wait is not None:
            raise NoRoom(
                f"your network has used its {limits.replay_cpu_seconds:g} CPU seconds of replay "
                f"drawing a minute: try again in {math.ceil(wait)} s",
                per_client=True,
                retry_after=wait,
            )
        self.waiting.update(("", client, block))
        try:
            async with self.at_once:
                draw = partial(drawn_replay, record, names)
                if limits.replay_processes:
                    loop = asyncio.get_running_loop()
                    packed, cpu = await loop.run_in_executor(self._pool(), draw)
                else:
                    packed, cpu = await run_in_threadpool(draw)
            self.cpu.charge(block, cpu)
        finally:
            self.waiting.subtract(("", client, block))
            for counted in ("", client, block):
                if not self.waiting[counted]:
                    del self.waiting[counted]
        if key:
            self.cache[key] = packed
            while len(self.cache) > limits.replay_cache:
                self.cache.popitem(last=False)
        return packed

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:  # started on the first replay: most servers never draw one
            self.pool = ProcessPoolExecutor(
                self.limits.replay_processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=lower_priority,  # drawing yields the CPU to the games' moves
            )
        return self.pool

    def close(self) -> None:
        """Stop the worker processes."""
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)


class Tarpit:
    """Refusals (a rate broken, no room for a game or a replay) held back
    ``limits.refusal_hold_seconds`` before they are sent, at most
    ``refusals_held`` at once in all and per client and block
    (:class:`Connections`; beyond, answered at once): a client that keeps
    being refused waits for each refusal, so a flooder with one request in
    flight per connection asks far less often, and each held refusal costs
    the server a sleeping task, not an answer."""

    def __init__(self, limits: Limits) -> None:
        self.seconds = limits.refusal_hold_seconds
        self.held = Connections(
            limits.refusals_held, limits.refusals_held_per_client, limits.refusals_held_per_block
        )

    async def hold(self, client: str) -> None:
        """Wait before refusing ``client`` (at once if too many are held)."""
        if self.seconds > 0 and self.held.take(client) is None:
            try:
                await asyncio.sleep(self.seconds)
            finally:
                self.held.give_back(client)


class RateLimited:
    """The rate limit over every HTTP route, as plain ASGI (a request refused
    costs the server as little as can be: no body read, the refusal held in
    the :class:`Tarpit`, then its connection closed)."""

    def __init__(self, app: ASGIApp, admission: Admission, tarpit: Tarpit) -> None:
        self.app = app
        self.admission = admission
        self.tarpit = tarpit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            peer = scope.get("client")
            client = peer[0] if peer else "unknown"
            refusal = self.admission.refusal(client)
            if refusal is not None:
                await self.tarpit.hold(client)
                answer = _error(refusal, 429)
                answer.headers["Connection"] = "close"  # a flooder's connection ends here
                await answer(scope, receive, send)
                return
        await self.app(scope, receive, send)


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
    admission = Admission(
        limits.requests_per_second,
        limits.requests_burst,
        limits.block_requests_per_second,
        limits.block_requests_burst,
        clock=clock,
    )
    sockets = Connections(
        limits.connections, limits.connections_per_client, limits.connections_per_block
    )
    replays = Replays(limits, clock)
    tarpit = Tarpit(limits)
    pages = _pages()

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        replays.close()

    app = FastAPI(title="env121 web table", docs_url=None, redoc_url=None, lifespan=lifespan)
    app.add_middleware(GZipMiddleware, minimum_size=4096)
    app.state.tables = tables
    app.state.replays = replays

    app.add_middleware(RateLimited, admission=admission, tarpit=tarpit)

    @app.exception_handler(UnknownTable)
    async def unknown_table(_request: Request, err: UnknownTable) -> JSONResponse:
        return _error(f"no game {err.args[0]!r:.40}", 404)

    @app.exception_handler(AgentFailed)
    async def agent_failed(_request: Request, err: AgentFailed) -> JSONResponse:
        return _error(str(err), 500)

    @app.exception_handler(NoRoom)
    async def no_room(request: Request, err: NoRoom) -> JSONResponse:
        await tarpit.hold(client_of(request))  # a client that keeps asking waits for each no
        answer = _error(str(err), 429 if err.per_client else 503)
        if err.retry_after is not None:
            answer.headers["Retry-After"] = str(math.ceil(err.retry_after))
        return answer

    @app.exception_handler(TooLarge)
    async def too_large(_request: Request, err: TooLarge) -> JSONResponse:
        return _error(str(err), 413)

    @app.exception_handler(PermissionError)  # NotYet, NotYourSeat
    async def not_allowed(_request: Request, err: PermissionError) -> JSONResponse:
        return _error(str(err), 403)

    @app.exception_handler(ValueError)  # BadMessage, MoveError, RecordError, a bad spec or name
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

    def parsed(raw: bytes | str) -> Any:
        return parse_json(raw, depth=limits.json_depth, digits=limits.number_digits)

    def table(table_id: str, request: Request | WebSocket) -> Table:
        return tables.get(table_id, client_of(request))

    def finished(game: Table, what: str) -> None:
        if not (game.over or game.practice):
            raise NotYet(f"the {what} is given when the match is over (it holds the seed)")

    def served(name: str) -> Response:
        content, media_type = pages[name]
        return Response(content, media_type=media_type)

    @app.get("/", include_in_schema=False)
    async def page() -> Response:
        return served("index.html")

    @app.get("/rules", include_in_schema=False)
    async def rules() -> Response:
        return served("rules")

    @app.get("/static/{name}", include_in_schema=False)
    async def static(name: str) -> Response:
        if name not in pages or name == "rules":
            return _error(f"no file {name!r:.40}", 404)
        return served(name)

    @app.get("/api/setup")
    async def setup() -> dict[str, Any]:
        return {"agents": offered, "practice": tables.practice, "limits": asdict(limits)}

    @app.post("/api/games", status_code=201)
    async def open_game(request: Request) -> dict[str, Any]:
        new = checked(NewGame, parsed(await body(request)))
        game, token = await run_in_threadpool(
            tables.open,
            seat=new.seat,
            specs=new.agents,
            player=new.name,
            client=client_of(request),
            practice_seed=new.practice_seed,
        )
        return {**await run_in_threadpool(game.snapshot, token), "token": token}

    @app.get("/api/games/{table_id}")
    async def game(table_id: str, request: Request) -> dict[str, Any]:
        token = request.headers.get(TOKEN_HEADER)
        return await run_in_threadpool(table(table_id, request).snapshot, token)

    @app.post("/api/games/{table_id}/moves")
    async def move(table_id: str, request: Request) -> dict[str, Any]:
        message = checked(Move, parsed(await body(request)))
        token = request.headers.get(TOKEN_HEADER)
        return await run_in_threadpool(table(table_id, request).move, message.model_dump(), token)

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
    async def game_replay(table_id: str, request: Request) -> Response:
        game = table(table_id, request)
        finished(game, "replay")
        key = f"game:{game.id}" if game.over else ""  # a practice game in play changes
        packed = await replays.drawn(key, client_of(request), game.record() or {}, game.names)
        return await _gzipped(request, packed)

    @app.websocket("/api/games/{table_id}/ws")
    async def play(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        client = client_of(websocket)
        refusal = admission.refusal(client, "connections")  # a connection counts as a request
        if refusal is not None:
            await tarpit.hold(client)
        else:
            refusal = sockets.take(client)
            if refusal is None:
                try:
                    await _play(websocket, table_id, websocket.query_params.get("token"))
                finally:
                    sockets.give_back(client)
                return
        await websocket.send_json({"type": "error", "error": refusal})
        await websocket.close(code=4429)

    async def _play(websocket: WebSocket, table_id: str, token: str | None) -> None:
        """One game's WebSocket, connected and counted."""
        try:
            game = await run_in_threadpool(table, table_id, websocket)
        except (UnknownTable, NoRoom) as err:
            why = f"no game {table_id!r:.40}" if isinstance(err, UnknownTable) else str(err)
            await websocket.send_json({"type": "error", "error": why})
            await websocket.close(code=4404)
            return
        snapshot = await run_in_threadpool(game.snapshot, token)
        await websocket.send_json({"type": "state", "game": snapshot})
        try:
            while True:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    return
                text = frame.get("text")
                answer = (
                    await _ws_answer(text, table_id, websocket, token)
                    if text is not None
                    else {"type": "error", "error": "a binary frame: send a move as JSON text"}
                )
                await websocket.send_json(answer)
        except WebSocketDisconnect:
            return

    async def _ws_answer(
        text: str, table_id: str, websocket: WebSocket, token: str | None
    ) -> dict[str, Any]:
        """The answer to one WebSocket message (a move), within the limits."""
        client = client_of(websocket)
        refusal = admission.refusal(client, "messages")
        if refusal is not None:
            await tarpit.hold(client)  # the flooder's next messages wait unread
            return {"type": "error", "error": refusal}
        if len(text) > limits.body_bytes:
            return {"type": "error", "error": f"a message is at most {limits.body_bytes:,} bytes"}
        try:
            message = checked(Move, parsed(text))
            game = await run_in_threadpool(table, table_id, websocket)
            snapshot = await run_in_threadpool(game.move, message.model_dump(), token)
        except (BadMessage, MoveError, NotYourSeat, AgentFailed, NoRoom, UnknownTable) as err:
            return {"type": "error", "error": str(err)}
        return {"type": "state", "game": snapshot}

    @app.get("/api/results")
    async def results(player: str | None = None) -> dict[str, Any]:
        return await run_in_threadpool(results_data, tables.store, player)

    @app.post("/api/replays")
    async def uploaded_replay(request: Request) -> Response:
        raw = await body(request)
        check_replayable(parsed(raw), limits.replay_actions)
        key = "upload:" + hashlib.sha256(raw).hexdigest()
        packed = await replays.drawn(key, client_of(request), raw.decode("utf-8"), SEAT_NAMES)
        return await _gzipped(request, packed)

    return app


def check_replayable(record: Any, most: int) -> None:
    """Refuse (``ValueError``) an uploaded record with more actions than a
    match under its own rules can have (:func:`~apps.web.replay.most_actions`),
    or than ``most`` (``limits.replay_actions``); anything else wrong with it
    is named when it is replayed."""
    if not isinstance(record, dict) or not isinstance(record.get("actions"), list):
        return
    actions = len(record["actions"])
    config = record.get("config")
    try:
        rules = RuleConfig.from_dict(dict(config)) if isinstance(config, dict) else None
    except (TypeError, ValueError):
        rules = None  # replaying it names what is wrong
    if rules is not None:
        bound = most_actions(rules)
        if bound is None:
            raise ValueError(
                "the record's rules have no max_actions_per_vong: such a match has no bound "
                "on its length, so it is not replayed here (env121 replay --html draws it)"
            )
        if actions > bound:
            raise ValueError(
                f"the record has {actions:,} actions, more than a match under its rules can "
                f"have ({bound:,}: {rules.num_van} ván × 12 vòng × {rules.max_actions_per_vong:,})"
            )
    if actions > most:
        raise ValueError(
            f"the record has {actions:,} actions: at most {most:,} are replayed here "
            "(env121 replay --html draws any record)"
        )


async def _gzipped(request: Request, packed: bytes) -> Response:
    """A drawn replay (gzip-compressed JSON) as the response: as it is to a
    client that accepts gzip, unpacked (in a thread) for one that does not."""
    if "gzip" in request.headers.get("accept-encoding", ""):
        return Response(
            packed,
            media_type="application/json",
            headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"},
        )
    return Response(await run_in_threadpool(gzip.decompress, packed), media_type="application/json")


def _pages() -> dict[str, tuple[bytes, str]]:
    """The page's files and the rules page (``"rules"``), read (rendered)
    once: each one's bytes and media type."""
    folder = _static_dir()
    pages = {
        path.name: (path.read_bytes(), STATIC_TYPES[path.suffix])
        for path in sorted(folder.iterdir())
        if path.suffix in STATIC_TYPES
    }
    pages["rules"] = (rules_page().encode(), STATIC_TYPES[".html"])
    return pages


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
                "abandoned": game.abandoned,
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
    "TOKEN_HEADER",
    "Replays",
    "Tarpit",
    "check_replayable",
    "create_app",
    "results_data",
    "rules_page",
    "serve",
]
