"""Property-based fuzz of every HTTP route and the WebSocket (hypothesis):
whatever a client sends — JSON of any shape, nested or with long numbers,
bytes that are not text, a guessed or missing seat token, a path with odd
characters — the answer is never a 5xx, a refused request (4xx) changes
nothing (the games in memory, their steps, the database's rows), and a
WebSocket answers every message, text or binary, and stays open.

The budget is bounded (:data:`EXAMPLES` examples a test, no deadline per
example): a few seconds in the test command. The agents are random ones, so
no agent fault (the one 500 the API has) can happen."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.helpers import Clock, make_client, make_tables, open_game

EXAMPLES = 120
"""Examples per fuzz test (the budget: a few seconds each on the 2-core machine)."""

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=24,
)
fields = st.sampled_from(
    ["name", "seat", "agents", "practice_seed", "action", "step", "actions", "seed"]
)
shaped = st.dictionaries(fields, json_values, max_size=5)
"""Objects with the API's own field names, of any types: the likeliest to get past a loose check."""
texts = st.one_of(
    json_values.map(json.dumps),
    shaped.map(json.dumps),
    st.integers(1, 3000).map(lambda n: "[" * n),
    st.integers(1, 3000).map(lambda n: '{"action": ' + "9" * n + ', "step": 0}'),
    st.sampled_from(["NaN", "-Infinity", "1e999", '{"seat": 1.0}', "", "{", "null"]),
    st.text(max_size=40),
)
bodies = st.one_of(texts.map(str.encode), st.binary(max_size=64))


def routes(game_id: str) -> list[tuple[str, str]]:
    """Every route of the app, with a real game's id."""
    return [
        ("GET", "/"),
        ("GET", "/rules"),
        ("GET", "/static/table.js"),
        ("GET", "/static/nosuch.js"),
        ("GET", "/api/setup"),
        ("GET", "/api/results"),
        ("POST", "/api/games"),
        ("GET", f"/api/games/{game_id}"),
        ("POST", f"/api/games/{game_id}/moves"),
        ("GET", f"/api/games/{game_id}/record"),
        ("GET", f"/api/games/{game_id}/replay"),
        ("POST", "/api/replays"),
        ("GET", "/api/games/nosuch"),
        ("POST", "/api/games/nosuch/moves"),
    ]


def state_of(client: Any) -> Any:
    """Everything a request could change: the games in memory and their
    steps, whether they are over, the database's rows."""
    tables = client.app.state.tables
    games = {i: (len(t.state.actions), t.over) for i, t in tables.tables.items()}
    return games, tables.store.counts()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One app for the whole module (a fresh one per example would cost more than the example)."""
    clock = Clock()
    tables = make_tables(
        tmp_path_factory.mktemp("fuzz") / "g.sqlite", clock, games=1000, games_per_client=1000,
        games_per_block=1000, replay_actions=200,
    )  # fmt: skip
    client = make_client(tables, clock)
    return client, open_game(client)


@FUZZ
@given(
    route=st.integers(0, 13),
    body=bodies,
    token=st.one_of(st.none(), st.text(max_size=30), st.just("real")),
    query=st.one_of(st.none(), st.text(max_size=20)),
)
def test_no_route_answers_5xx_and_a_refused_request_changes_nothing(
    server, route, body, token, query
):
    client, game = server
    method, path = routes(game["id"])[route]
    headers = {"Content-Type": "application/json"}
    if token is not None:
        token = game["token"] if token == "real" else token
        if token.isascii() and token.isprintable():
            headers["X-Seat-Token"] = token
    params = None if query is None else {"player": query}
    before = state_of(client)
    response = client.request(method, path, content=body, headers=headers, params=params)
    assert response.status_code < 500, (method, path, body[:100], response.text[:300])
    if response.status_code >= 400:
        assert state_of(client) == before, (method, path, body[:100], response.text[:300])
        assert set(response.json()) <= {"error", "detail"}


@FUZZ
@given(
    frames=st.lists(
        st.one_of(
            texts.map(lambda t: ("text", t)), st.binary(max_size=32).map(lambda b: ("bytes", b))
        ),
        min_size=1,
        max_size=3,
    ),
    watcher=st.booleans(),
)
def test_the_websocket_answers_every_frame_and_stays_open(server, frames, watcher):
    client, game = server
    query = "" if watcher else f"?token={game['token']}"
    with client.websocket_connect(f"/api/games/{game['id']}/ws{query}") as socket:
        assert socket.receive_json()["type"] == "state"
        for kind, frame in frames:
            before = state_of(client)
            if kind == "text":
                socket.send_text(frame)
            else:
                socket.send_bytes(frame)
            answer = socket.receive_json()
            assert answer["type"] in ("state", "error"), answer
            if answer["type"] == "error":
                assert state_of(client) == before and answer["error"]
        socket.send_text("{")  # still open: still answered
        assert socket.receive_json()["type"] == "error"
