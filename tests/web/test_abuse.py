"""The web table refuses what a hostile client sends, in one line, and
changes nothing: bodies of the wrong types or shapes, JSON nested too deep or
numbers too long, bad WebSocket frames (the connection stays open), moves
without the seat token, replays longer than a match can be, more replays at
once than a client may draw. An abandoned rated game counts as finished."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from apps.cli import main
from apps.web.app import Replays
from apps.web.config import Limits
from apps.web.replay import most_actions
from apps.web.store import GameStore
from apps.web.tables import NoRoom
from env121.rules.config import RuleConfig
from tests.web.helpers import (
    RANDOMS,
    look,
    make_client,
    make_tables,
    open_game,
    play_first_moves,
    seat_of,
)


def stored_games(client: Any) -> tuple[int, int]:
    """``(finished, unfinished)`` games in the client's app's database."""
    store: GameStore = client.app.state.tables.store
    return store.counts()


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ({"name": "An", "seat": 1.0, "agents": RANDOMS}, "seat: Input should be a valid integer"),
        ({"name": "An", "seat": True, "agents": RANDOMS}, "seat: Input should be a valid integer"),
        ({"name": "An", "seat": "1", "agents": RANDOMS}, "seat: Input should be a valid integer"),
        ({"name": 7, "seat": 1, "agents": RANDOMS}, "name: Input should be a valid string"),
        ({"name": "An", "seat": 1, "agents": "random"}, "agents: Input should be a valid list"),
        ({"name": "An", "seat": 1, "agents": RANDOMS, "practice_seed": 2.0}, "practice_seed"),
        ([1, 2], "a new game takes"),
    ],
)
def test_a_new_game_of_the_wrong_types_is_refused_and_nothing_is_kept(client, body, why):
    for _ in range(6):  # more than the games a client may hold: no lock-out follows
        response = client.post("/api/games", json=body)
        assert response.status_code == 400 and why in response.json()["error"]
    assert client.app.state.tables.tables == {} and stored_games(client) == (0, 0)
    assert open_game(client)["seat"] == 0


@pytest.mark.parametrize(
    ("body", "why", "status"),
    [
        ("[" * 100_000, "nested deeper than 16", 400),
        ("[" * 17 + "]" * 17, "nested deeper than 16", 400),
        ('{"seat": ' + "9" * 5000 + "}", "5,000 characters", 400),
        ('{"seat": NaN}', "not a JSON number", 400),
        ('{"seat": 1e999}', "out of range", 400),
        (b"\xff\xfe", "not UTF-8", 400),
        ("x" * 5_000_001, "at most 4,000,000", 413),
    ],
)
def test_a_body_too_deep_too_long_or_not_json_is_refused_on_every_route(client, body, why, status):
    game = open_game(client)
    for path in ("/api/games", f"/api/games/{game['id']}/moves", "/api/replays"):
        response = client.post(path, content=body, headers=seat_of(game))
        assert response.status_code == status and why in response.json()["error"], path
    assert look(client, game) == game and stored_games(client) == (0, 1)


def test_a_bad_websocket_message_is_answered_and_the_connection_stays_open(client):
    game = open_game(client)
    with client.websocket_connect(f"/api/games/{game['id']}/ws?token={game['token']}") as socket:
        assert socket.receive_json()["type"] == "state"
        bad = [
            ("[" * 100_000, "nested deeper"),
            ('{"action": ' + "9" * 5000 + ', "step": 0}', "5,000 characters"),
            ("{oops", "not JSON"),
            ('{"action": 1.0, "step": 0}', "action: Input should be a valid integer"),
            ('{"action": 1, "step": 0, "x": 1}', "x: Extra inputs"),
        ]
        for text, why in bad:
            socket.send_text(text)
            answer = socket.receive_json()
            assert answer["type"] == "error" and why in answer["error"], text
        socket.send_bytes(b'{"action": 1, "step": 0}')
        answer = socket.receive_json()
        assert answer["type"] == "error" and "binary frame" in answer["error"]
        socket.send_text(json.dumps({"action": game["moves"][0]["action"], "step": game["step"]}))
        moved = socket.receive_json()
        assert moved["type"] == "state" and moved["game"]["step"] > game["step"]


def test_only_the_seat_token_plays_and_a_watcher_sees_no_hand(client):
    game = open_game(client)
    move = {"action": game["moves"][0]["action"], "step": game["step"]}
    for headers in ({}, {"X-Seat-Token": "guess"}, {"X-Seat-Token": game["token"][:-1]}):
        response = client.post(f"/api/games/{game['id']}/moves", json=move, headers=headers)
        assert response.status_code == 403 and "seat token" in response.json()["error"]
    watched = client.get(f"/api/games/{game['id']}").json()
    assert watched["watching"] and not {"svg", "moves", "transcript"} & set(watched)
    with client.websocket_connect(f"/api/games/{game['id']}/ws") as socket:
        assert socket.receive_json()["game"] == watched
        socket.send_text(json.dumps(move))
        assert "seat token" in socket.receive_json()["error"]
    assert look(client, game) == game  # nothing moved
    assert play_first_moves(client, game, limit=1)["step"] > game["step"]


def test_a_rated_game_left_before_a_restart_counts_as_abandoned(tmp_path, clock):
    db = tmp_path / "g.sqlite"
    before = make_client(make_tables(db, clock, idle_seconds=60.0), clock)
    game = play_first_moves(before, open_game(before, seat=1), limit=2)
    practice = play_first_moves(before, open_game(before, practice_seed=3), limit=2)
    clock.now += 61.0  # the server stops and comes back after the idle time
    after = make_client(make_tables(db, clock, idle_seconds=60.0), clock)
    left = look(after, game)
    assert left["abandoned"] and "You finished 4th" in left["end"]
    assert not look(after, practice)["over"]  # a practice game is never abandoned
    (row,) = after.get("/api/results").json()["games"]
    assert row["id"] == game["id"] and row["abandoned"] and row["ranks"][1] == 4


def test_the_store_sweeps_rated_games_left_out_of_memory(tmp_path, clock):
    tables = make_tables(tmp_path / "g.sqlite", clock, idle_seconds=60.0)
    client = make_client(tables, clock)
    game = play_first_moves(client, open_game(client), limit=1)
    tables.tables.clear()  # put aside (a full server), then nobody asks for it
    clock.now += 61.0
    client.get("/api/games/nosuch")  # any request that looks up a game sweeps
    assert [g["id"] for g in client.get("/api/results").json()["games"]] == [game["id"]]


def test_an_uploaded_record_longer_than_any_match_is_refused_unreplayed(client):
    assert most_actions(RuleConfig()) == 12 * 4000
    assert most_actions(RuleConfig(num_van=2, max_actions_per_vong=100)) == 2 * 12 * 100
    assert most_actions(RuleConfig(max_actions_per_vong=None)) is None
    record = {"format_version": 2, "config": {"max_actions_per_vong": 10}, "seed": 1}
    cases = [
        ({**record, "actions": [0] * 121}, "more than a match under its rules can have (120"),
        ({**record, "config": {"max_actions_per_vong": None}, "actions": []}, "no bound"),
        ({**record, "config": {}, "actions": [0] * 10_001}, "at most 10,000 are replayed"),
    ]
    for body, why in cases:
        response = client.post("/api/replays", json=body)
        assert response.status_code == 400 and why in response.json()["error"]
    assert client.app.state.replays.cache == {}


def test_a_client_draws_one_replay_at_a_time_and_finished_ones_are_kept(client, monkeypatch):
    game = play_first_moves(client, open_game(client, practice_seed=5), limit=3)
    record = client.get(f"/api/games/{game['id']}/record").json()
    replays = Replays(Limits(replay_processes=0, replays_queued=2))

    async def two_at_once() -> list[Any]:
        draws = (replays.drawn(f"upload:{i}", "10.0.0.1", record, game["names"]) for i in (1, 2))
        return list(await asyncio.gather(*draws, return_exceptions=True))

    first, second = asyncio.run(two_at_once())
    assert isinstance(first, bytes) and isinstance(second, NoRoom) and second.per_client
    assert "1 replay being drawn" in str(second) and list(replays.cache) == ["upload:1"]
    finished = play_first_moves(client, game)
    drawn = client.get(f"/api/games/{finished['id']}/replay")
    assert drawn.status_code == 200
    monkeypatch.setattr("apps.web.app.drawn_replay", None)  # drawing again would fail
    again = client.get(f"/api/games/{finished['id']}/replay")
    assert again.status_code == 200 and again.json() == drawn.json()


@pytest.mark.parametrize("port", ["70000", "-1", "http"])
def test_serve_refuses_a_port_outside_0_to_65535_in_one_line(port, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["serve", "--port", port])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"'{port}' is not a port: expected 0..65535" in err and len(err.splitlines()) == 1


def test_a_replay_is_drawn_in_a_worker_process_and_its_errors_come_back_as_400(tmp_path, clock):
    tables = make_tables(tmp_path / "g.sqlite", clock, replay_processes=1)
    with make_client(tables, clock) as client:  # the app's lifespan stops the worker at the end
        game = play_first_moves(client, open_game(client, practice_seed=5), limit=2)
        record = client.get(f"/api/games/{game['id']}/record").json()
        drawn = client.post("/api/replays", json=record)
        assert drawn.status_code == 200 and len(drawn.json()["steps"]) == game["step"] + 1
        illegal = client.post("/api/replays", json={**record, "actions": [999]})
        assert illegal.status_code == 400 and "action at index 0" in illegal.json()["error"]
        assert client.app.state.replays.pool is not None
