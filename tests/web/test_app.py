"""The web table's API through FastAPI's test client: games opened and played,
refused messages that change nothing, several games, reclaiming, records and
replays."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from fastapi.testclient import TestClient

import tests.support.arena_agents  # noqa: F401  (registers the cheat agent)
from env121.engine.records import loads
from env121.web.app import create_app
from env121.web.tables import Tables

RANDOMS = ["random", "random", "random"]


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(clock: Clock) -> TestClient:
    return TestClient(create_app(tables=Tables(ttl=60.0, clock=clock)))


def open_game(client: TestClient, seed: int = 3, seat: int = 0) -> Any:
    response = client.post("/api/games", json={"seed": seed, "seat": seat, "agents": RANDOMS})
    assert response.status_code == 201, response.text
    return response.json()


def play_first_moves(client: TestClient, game: Any, limit: int = 10_000) -> Any:
    """The person plays the first listed move until the match ends (or ``limit`` moves)."""
    for _ in range(limit):
        if game["over"]:
            break
        move = {"action": game["moves"][0]["action"], "step": game["step"]}
        response = client.post(f"/api/games/{game['id']}/moves", json=move)
        assert response.status_code == 200, response.text
        game = response.json()
    return game


def test_a_new_game_shows_the_table_as_the_person_sees_it_and_the_moves(client):
    game = open_game(client, seat=2)
    assert game["seat"] == 2 and game["specs"] == ["random", "random", "human", "random"]
    root = ET.fromstring(game["svg"])
    hand = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("data-seat") == "2"]
    assert hand and all(g.get("class") == "card" for g in hand if g.get("data-zone") == "hand")
    assert game["moves"] and all(m["name"] for m in game["moves"])
    assert set(game["card_moves"].values()) <= {m["action"] for m in game["moves"]}


def test_a_legal_move_is_played_and_the_agents_answer(client):
    game = open_game(client)
    moved = play_first_moves(client, game, limit=1)
    assert moved["step"] > game["step"]
    assert client.get(f"/api/games/{game['id']}").json() == moved


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "malformed move"),
        ('{"action": 1}', "malformed move"),
        ('{"action": "PASS", "step": 0}', "integers"),
        ('{"action": true, "step": 0}', "integers"),
        ('{"action": 99999, "step": 0}', "outside"),
    ],
)
def test_a_malformed_move_is_refused_and_changes_nothing(client, body, why):
    game = open_game(client)
    response = client.post(f"/api/games/{game['id']}/moves", content=body)
    assert response.status_code == 400 and why in response.json()["error"]
    assert client.get(f"/api/games/{game['id']}").json() == game


def test_an_illegal_or_out_of_turn_move_is_refused_and_changes_nothing(client):
    game = open_game(client)
    legal = {m["action"] for m in game["moves"]}
    illegal = next(a for a in range(200) if a not in legal)
    response = client.post(
        f"/api/games/{game['id']}/moves", json={"action": illegal, "step": game["step"]}
    )
    assert response.status_code == 400 and "not one of your moves" in response.json()["error"]
    stale = {"action": game["moves"][0]["action"], "step": game["step"] + 1}
    response = client.post(f"/api/games/{game['id']}/moves", json=stale)
    assert response.status_code == 400 and "out of turn" in response.json()["error"]
    assert client.get(f"/api/games/{game['id']}").json() == game


def test_the_websocket_plays_moves_and_answers_a_bad_one_with_an_error(client):
    game = open_game(client)
    with client.websocket_connect(f"/api/games/{game['id']}/ws") as socket:
        assert socket.receive_json() == {"type": "state", "game": game}
        socket.send_text("{oops")
        error = socket.receive_json()
        assert error["type"] == "error" and "malformed" in error["error"]
        socket.send_text(json.dumps({"action": game["moves"][0]["action"], "step": game["step"]}))
        answer = socket.receive_json()
        assert answer["type"] == "state" and answer["game"]["step"] > game["step"]


def test_several_games_go_on_at_once_each_on_its_own(client):
    first, second = open_game(client, seed=3), open_game(client, seed=4, seat=1)
    assert first["id"] != second["id"]
    play_first_moves(client, first, limit=3)
    assert client.get(f"/api/games/{second['id']}").json() == second
    moved = play_first_moves(client, second, limit=2)
    assert moved["seed"] == 4 and moved["step"] > second["step"]


def test_idle_games_are_reclaimed_after_the_ttl(client, clock):
    idle, busy = open_game(client), open_game(client, seed=5)
    clock.now = 50.0
    client.get(f"/api/games/{busy['id']}")
    clock.now = 100.0
    response = client.get(f"/api/games/{idle['id']}")
    assert response.status_code == 404 and "reclaimed" in response.json()["error"]
    assert client.get(f"/api/games/{busy['id']}").status_code == 200


def test_a_whole_van_is_played_its_results_explained_and_its_record_downloaded(client):
    game = play_first_moves(client, open_game(client))
    assert game["over"] and game["moves"] == [] and game["results"]
    for result in game["results"]:
        assert sum(points for _, _, points in result["rows"]) == result["points"]
        assert sum(result["payments"]) == 0
    response = client.get(f"/api/games/{game['id']}/record")
    assert response.headers["content-disposition"] == 'attachment; filename="game-seed3.json"'
    state = loads(response.text)
    assert state.is_over and len(state.actions) == game["step"]
    assert list(state.scores) == game["scores"]


def test_a_bad_new_game_is_refused_naming_what_is_wrong(client):
    cases = [
        ({"seed": 1, "seat": 0, "agents": ["random", "random", "nobody"]}, "nobody"),
        ({"seed": 1, "seat": 4, "agents": RANDOMS}, "not a seat"),
        ({"seed": -1, "seat": 0, "agents": RANDOMS}, "non-negative"),
        ({"seed": 1, "seat": 0, "agents": ["random"]}, "three agent specs"),
        ({"seed": 1}, "a new game takes"),
    ]
    for body, why in cases:
        response = client.post("/api/games", json=body)
        assert response.status_code == 400 and why in response.json()["error"], body


def test_an_uploaded_record_becomes_a_replay(client):
    game = play_first_moves(client, open_game(client), limit=20)
    record = client.get(f"/api/games/{game['id']}/record").text
    replay = client.post("/api/replays", content=record).json()
    assert len(replay["steps"]) == game["step"] + 1
    assert set(replay["pictures"]) == {"god", "0", "1", "2", "3"}
    response = client.post("/api/replays", content='{"seed": 1}')
    assert response.status_code == 400 and "missing fields" in response.json()["error"]


def test_an_agent_that_plays_an_illegal_action_stops_the_game_with_one_clear_error(client):
    game = client.post("/api/games", json={"seed": 3, "seat": 0, "agents": ["cheat"] * 3}).json()
    move = {"action": game["moves"][0]["action"], "step": game["step"]}  # S0 acts first
    response = client.post(f"/api/games/{game['id']}/moves", json=move)  # then a cheat
    assert response.status_code == 500
    error = response.json()["error"]
    assert error.startswith("the game stopped: agent 'cheat' in seat S") and "not legal" in error
    again = client.post(f"/api/games/{game['id']}/moves", json=move)
    assert again.status_code == 400 and again.json()["error"] == error


def test_beyond_the_cap_the_least_recently_used_game_is_reclaimed(clock):
    client = TestClient(create_app(tables=Tables(ttl=60.0, max_tables=2, clock=clock)))
    first = open_game(client, seed=1)
    clock.now += 1
    second = open_game(client, seed=2)
    clock.now += 1
    client.get(f"/api/games/{first['id']}")  # the first is used again: the second is oldest
    clock.now += 1
    open_game(client, seed=4)
    assert client.get(f"/api/games/{first['id']}").status_code == 200
    assert client.get(f"/api/games/{second['id']}").status_code == 404
