"""Nothing the person's seat may not know leaves the server before the match
ends. A whole match is played through every endpoint and the WebSocket with a
seed the server drew (the test's seed source stands in for its random one);
every payload must be what the seat's view alone makes: the same payload is
made again from a state with everything hidden from the seat re-dealt
(:func:`~env121.engine.view.sample_determinization`: other hands, the Nọc,
the Ẩn Sĩ, the seed; the transcript written again from the events the seat
saw) and must come out equal. So no hidden card and no seed
is in it; the record and the replay are refused. At the end the seed, the
record and the replay are given, and the record replays the match."""

from __future__ import annotations

import copy
import json
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient

from apps.web.tables import Tables
from env121.engine.records import loads
from env121.engine.render import ReadableTranscript
from env121.engine.view import hidden_cards, sample_determinization
from env121.rules.cards import format_card
from tests.web.helpers import RANDOMS, Clock, make_client, make_tables, seat_of

SEED = 3_141_592_653_589_793_238
"""The deal's seed: long enough that its digits appear nowhere by chance."""
rng = np.random.default_rng(0)


def same_as_the_seats_view(tables: Tables, payload: dict[str, Any], text: str) -> None:
    """``payload`` (sent as ``text``) is what the person's seat may know."""
    table = tables.get(payload["id"])
    state = table.state
    assert payload["step"] == len(state.actions) and not payload["over"]
    assert str(SEED) not in text and "seed" not in payload
    assert {"record", "actions"}.isdisjoint(payload)
    twin = sample_determinization(state, table.seat, rng)
    twin.actions = list(state.actions)  # how many actions were played is public
    assert twin.seed != state.seed
    hidden = set(hidden_cards(state, table.seat))
    assert hidden and not any(f'data-card="{format_card(c)}"' in payload["svg"] for c in hidden)
    shadow = copy.copy(table)
    shadow.state = twin
    shadow.lines = ReadableTranscript(viewer=table.seat).lines(twin.events)  # what it saw
    assert shadow._snapshot() == {k: v for k, v in payload.items() if k != "token"}


def same_as_a_watchers_view(tables: Tables, payload: dict[str, Any], text: str) -> None:
    """``payload`` (sent as ``text`` to someone without the seat token) is
    what anyone may know: the same from a state with every hidden card
    re-dealt, even those of the person's seat."""
    table = tables.get(payload["id"])
    assert payload["watching"] and str(SEED) not in text
    assert {"svg", "moves", "card_moves", "transcript", "results"}.isdisjoint(payload)
    twin = sample_determinization(table.state, (table.seat + 1) % 4, rng)
    twin.actions = list(table.state.actions)
    shadow = copy.copy(table)
    shadow.state = twin
    assert shadow._watched() == payload


def refused_until_the_end(client: TestClient, game_id: str) -> None:
    for what in ("record", "replay"):
        response = client.get(f"/api/games/{game_id}/{what}")
        assert response.status_code == 403 and str(SEED) not in response.text
    results = client.get("/api/results")
    assert game_id not in results.text and str(SEED) not in results.text


@pytest.mark.parametrize("seat", [0, 3])
def test_no_payload_of_a_whole_match_tells_the_person_more_than_their_seat_sees(tmp_path, seat):
    clock = Clock()
    tables = make_tables(tmp_path / "g.sqlite", clock, seeds=lambda: SEED)
    client = make_client(tables, clock)
    body = {"name": "An", "seat": seat, "agents": RANDOMS}
    opened = client.post("/api/games", json=body)
    game = opened.json()
    same_as_the_seats_view(tables, game, opened.text)
    seat = seat_of(game)
    assert client.get("/api/setup").status_code == 200
    moves = 0
    with client.websocket_connect(f"/api/games/{game['id']}/ws?token={game['token']}") as socket:
        while True:
            text = socket.receive_text()
            message = json.loads(text)
            assert message["type"] == "state", message
            game = message["game"]
            if game["over"]:
                break
            same_as_the_seats_view(tables, game, text)
            if moves % 7 == 0:  # the other endpoints, now and then
                again = client.get(f"/api/games/{game['id']}", headers=seat)
                assert again.json() == game and str(SEED) not in again.text
                watched = client.get(f"/api/games/{game['id']}")
                same_as_a_watchers_view(tables, watched.json(), watched.text)
                refused_until_the_end(client, game["id"])
            moves += 1
            if moves % 5 == 0:  # a move over HTTP, then the socket catches up
                move = {"action": game["moves"][-1]["action"], "step": game["step"]}
                answer = client.post(f"/api/games/{game['id']}/moves", json=move, headers=seat)
                same_as_the_seats_view(tables, answer.json(), answer.text)
                socket.send_text(json.dumps({"action": 0, "step": -1}))  # out of turn
                error = json.loads(socket.receive_text())
                assert error["type"] == "error" and str(SEED) not in error["error"]
                game = client.get(f"/api/games/{game['id']}", headers=seat).json()
                if game["over"]:
                    break
            socket.send_text(
                json.dumps({"action": game["moves"][0]["action"], "step": game["step"]})
            )
    assert moves > 10
    assert game["over"] and game["seed"] == SEED and not game["practice"]
    record = client.get(f"/api/games/{game['id']}/record")
    state = loads(record.text)
    assert state.seed == SEED and state.is_over and len(state.actions) == game["step"]
    assert client.get(f"/api/games/{game['id']}/replay").status_code == 200
    assert game["id"] in client.get("/api/results").text


def test_a_practice_game_takes_the_persons_seed_and_says_so(tmp_path):
    clock = Clock()
    client = make_client(make_tables(tmp_path / "g.sqlite", clock, seeds=lambda: SEED), clock)
    body = {"name": "An", "seat": 0, "agents": RANDOMS, "practice_seed": 17}
    game = client.post("/api/games", json=body).json()
    assert game["practice"] and game["seed"] == 17
    assert loads(client.get(f"/api/games/{game['id']}/record").text).seed == 17


def test_a_server_without_practice_refuses_a_chosen_seed(tmp_path):
    clock = Clock()
    tables = make_tables(tmp_path / "g.sqlite", clock)
    tables.practice = False
    client = make_client(tables, clock)
    body = {"name": "An", "seat": 0, "agents": RANDOMS, "practice_seed": 17}
    response = client.post("/api/games", json=body)
    assert response.status_code == 400 and "practice games are off" in response.json()["error"]
