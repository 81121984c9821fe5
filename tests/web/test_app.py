"""The web table's API through FastAPI's test client: games opened and played,
refused messages that change nothing, several games, games leaving memory
and coming back, records and replays once the match is over."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

from apps.web.tables import MOVE_KINDS
from env121.engine.records import loads
from env121.engine.state import MatchEnd
from env121.rules.bonuses import THUONG_BY_ID
from env121.rules.thes import THE_BY_ID
from tests.web.helpers import (
    RANDOMS,
    Clock,
    look,
    make_client,
    make_tables,
    open_game,
    play_first_moves,
    seat_of,
)


def test_a_new_game_shows_the_table_as_the_person_sees_it_and_the_moves(client):
    game = open_game(client, seat=2)
    assert game["seat"] == 2 and game["specs"] == ["random", "random", "person", "random"]
    assert game["names"][2] == "S2 An" and game["player"] == "An"
    root = ET.fromstring(game["svg"])
    hand = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("data-seat") == "2"]
    assert hand and all(g.get("class") == "card" for g in hand if g.get("data-zone") == "hand")
    assert game["moves"] and all(m["name"] and m["kind"] for m in game["moves"])
    assert set(game["card_moves"].values()) <= {m["action"] for m in game["moves"]}
    assert "seed" not in game and not game["practice"]


def test_a_legal_move_is_played_and_the_agents_answer(client):
    game = open_game(client)
    moved = play_first_moves(client, game, limit=1)
    assert moved["step"] > game["step"]
    assert look(client, game) == moved


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
    response = client.post(f"/api/games/{game['id']}/moves", content=body, headers=seat_of(game))
    assert response.status_code == 400 and why in response.json()["error"]
    assert look(client, game) == game


def test_an_illegal_or_out_of_turn_move_is_refused_and_changes_nothing(client):
    game = open_game(client)
    legal = {m["action"] for m in game["moves"]}
    illegal = next(a for a in range(200) if a not in legal)
    response = client.post(
        f"/api/games/{game['id']}/moves",
        json={"action": illegal, "step": game["step"]},
        headers=seat_of(game),
    )
    assert response.status_code == 400 and "not one of your moves" in response.json()["error"]
    stale = {"action": game["moves"][0]["action"], "step": game["step"] + 1}
    response = client.post(f"/api/games/{game['id']}/moves", json=stale, headers=seat_of(game))
    assert response.status_code == 400 and "out of turn" in response.json()["error"]
    assert look(client, game) == game


def test_the_websocket_plays_moves_and_answers_a_bad_one_with_an_error(client):
    game = open_game(client)
    with client.websocket_connect(f"/api/games/{game['id']}/ws?token={game['token']}") as socket:
        shown = {k: v for k, v in game.items() if k != "token"}
        assert socket.receive_json() == {"type": "state", "game": shown}
        socket.send_text("{oops")
        error = socket.receive_json()
        assert error["type"] == "error" and "not JSON" in error["error"]
        socket.send_text(json.dumps({"action": game["moves"][0]["action"], "step": game["step"]}))
        answer = socket.receive_json()
        assert answer["type"] == "state" and answer["game"]["step"] > game["step"]


def test_several_games_go_on_at_once_each_on_its_own(client):
    first, second = open_game(client), open_game(client, seat=1)
    assert first["id"] != second["id"]
    play_first_moves(client, first, limit=3)
    assert look(client, second) == second
    moved = play_first_moves(client, second, limit=2)
    assert moved["step"] > second["step"]


def test_a_quiet_game_is_put_aside_when_the_server_is_full_and_comes_back_as_it_was(tmp_path):
    clock = Clock()
    tables = make_tables(tmp_path / "g.sqlite", clock, games=2, full_idle_seconds=10.0)
    client = make_client(tables, clock)
    quiet = play_first_moves(client, open_game(client), limit=3)
    clock.now += 20.0
    busy = open_game(client)  # there is room: nothing is put aside
    assert set(tables.tables) == {quiet["id"], busy["id"]}
    newest = open_game(client)  # the server is full: the quiet one makes room
    assert set(tables.tables) == {busy["id"], newest["id"]}
    clock.now += 20.0
    back = look(client, quiet)  # brought back from the store (another quiet one makes room)
    assert back == quiet and quiet["id"] in tables.tables
    assert play_first_moves(client, back, limit=1)["step"] > quiet["step"]


def test_looking_at_a_game_does_not_keep_it_from_being_abandoned(client, clock):
    game = play_first_moves(client, open_game(client), limit=2)
    for _ in range(2):
        clock.now += 20.0  # looked at, by its seat and by a watcher
        assert not look(client, game)["over"]
        client.get(f"/api/games/{game['id']}")
    clock.now += 40.0  # 80 s without a move: the idle time is 60 s
    left = look(client, game)
    assert left["over"] and left["abandoned"] and left["moves"] == []
    assert "abandoned" in left["end"] and "You finished 4th" in left["end"]
    refused = client.post(
        f"/api/games/{game['id']}/moves",
        json={"action": game["moves"][0]["action"], "step": game["step"]},
        headers=seat_of(game),
    )
    assert refused.status_code == 400 and "over" in refused.json()["error"]
    results = client.get("/api/results").json()
    (row,) = results["games"]
    assert row["abandoned"] and row["ranks"][game["seat"]] == 4
    assert {r["name"] for r in results["ratings"]} == {"An", "random"}  # it is rated


def test_a_whole_match_is_played_its_results_explained_and_its_record_given_at_the_end(client):
    game = open_game(client)
    early = client.get(f"/api/games/{game['id']}/record")
    assert early.status_code == 403 and "when the match is over" in early.json()["error"]
    game = play_first_moves(client, game)
    assert game["over"] and game["moves"] == [] and game["results"]
    assert "You finished" in game["end"] and all(name in game["end"] for name in game["names"])
    for result in game["results"]:
        assert sum(points for _, _, points in result["rows"]) == result["points"]
        assert sum(result["payments"]) == 0
    response = client.get(f"/api/games/{game['id']}/record")
    assert (
        response.headers["content-disposition"] == f'attachment; filename="game-{game["id"]}.json"'
    )
    state = loads(response.text)
    assert state.is_over and len(state.actions) == game["step"] and state.seed == game["seed"]
    assert list(state.scores) == game["scores"]


def test_a_bad_new_game_is_refused_naming_what_is_wrong(client):
    cases = [
        ({"name": "An", "seat": 0, "agents": ["random", "random", "nobody"]}, "not offered"),
        ({"name": "An", "seat": 0, "agents": ["random", "random", "mc:budget=100000000"]},
         "not offered"),
        ({"name": "An", "seat": 0, "agents": ["random", "random", "ppo:/etc/passwd"]},
         "not offered"),
        ({"name": "An", "seat": 4, "agents": RANDOMS}, "not a seat"),
        ({"name": "", "seat": 0, "agents": RANDOMS}, "name ''"),
        ({"name": "x" * 33, "seat": 0, "agents": RANDOMS}, "1 to 32"),
        ({"name": "An", "seat": 0, "agents": RANDOMS, "practice_seed": -1}, "0..2**63-1"),
        ({"name": "An", "seat": 0, "agents": ["random"]}, "three agent specs"),
        ({"name": "An", "seat": 0, "agents": RANDOMS, "seed": 7}, "a new game takes"),
    ]  # fmt: skip
    for body, why in cases:
        response = client.post("/api/games", json=body)
        assert response.status_code == 400 and why in response.json()["error"], body
    assert client.app.state.tables.tables == {}


def test_an_uploaded_record_becomes_a_replay(client):
    game = play_first_moves(client, open_game(client, practice_seed=5), limit=20)
    record = client.get(f"/api/games/{game['id']}/record").text  # a practice game's, any time
    replay = client.post("/api/replays", content=record).json()
    assert len(replay["steps"]) == game["step"] + 1
    assert set(replay["pictures"]) == {"god", "0", "1", "2", "3"}
    named = client.get(f"/api/games/{game['id']}/replay").json()  # the game's own names
    assert named["names"] == game["names"] and len(named["steps"]) == len(replay["steps"])
    assert named["steps"][1]["action"].startswith(game["names"][0] + ": ")  # in words
    response = client.post("/api/replays", content='{"seed": 1}')
    assert response.status_code == 400 and "missing fields" in response.json()["error"]


def test_an_agent_that_plays_an_illegal_action_stops_the_game_with_one_clear_error(client):
    body = {"name": "An", "seat": 0, "agents": ["cheat"] * 3}
    game = client.post("/api/games", json=body).json()
    move = {"action": game["moves"][0]["action"], "step": game["step"]}  # S0 acts first
    response = client.post(f"/api/games/{game['id']}/moves", json=move, headers=seat_of(game))
    assert response.status_code == 500
    error = response.json()["error"]
    assert error.startswith("the game stopped: agent 'cheat' in seat S") and "not legal" in error
    again = client.post(f"/api/games/{game['id']}/moves", json=move, headers=seat_of(game))
    assert again.status_code == 400 and again.json()["error"] == error


def test_every_kind_of_move_is_in_the_glossary_and_no_id_is_shown(client):
    page = client.get("/").text
    assert all(f'<dt data-kind="{kind}">' in page for kind in MOVE_KINDS)
    game = play_first_moves(client, open_game(client, practice_seed=3))
    assert any(row[0] == "Thế" for result in game["results"] for row in result["rows"])
    words = re.findall(r">([^<]+)<", game["svg"])  # the picture's text, not its attributes
    shown = json.dumps([game["results"], game["transcript"], game["end"], words])
    ids = [*THE_BY_ID, *THUONG_BY_ID, *(end.value for end in MatchEnd if "_" in end.value)]
    assert [i for i in ids if i in shown] == []


def test_the_rules_page_and_the_setup_tell_a_newcomer_what_to_pick(client):
    page = client.get("/")
    assert 'href="/rules"' in page.text and "glossary" in page.text.lower()
    rules = client.get("/rules")
    assert rules.status_code == 200 and "Thế trắng" in rules.text and "<table>" in rules.text
    setup = client.get("/api/setup").json()
    assert list(setup["agents"]) == ["random", "greedy", "cheat"] and setup["practice"]
