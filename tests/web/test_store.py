"""Every game is remembered in SQLite: a restart (a new app over the same
file) loses no finished game, resumes an unfinished one where it was, and the
results page rates people and bots from the finished games."""

from __future__ import annotations

import json
import sqlite3

import pytest

from apps.web.store import GameStore
from tests.web.helpers import (
    Clock,
    look,
    make_client,
    make_tables,
    open_game,
    play_first_moves,
    seat_of,
)


def test_a_restart_loses_no_finished_game_and_resumes_an_unfinished_one(tmp_path):
    db = tmp_path / "data" / "games.sqlite"  # its folder is made on first start
    clock = Clock()
    tables = make_tables(db, clock)
    before = make_client(tables, clock)
    done = play_first_moves(before, open_game(before, seat=1))
    playing = play_first_moves(before, open_game(before, seat=2), limit=4)
    assert tables.store is not None
    tables.store.close()  # the server stops

    after = make_client(make_tables(db, Clock()), Clock())  # and starts again
    assert look(after, done) == done
    assert after.get(f"/api/games/{done['id']}/record").json()["seed"] == done["seed"]
    assert look(after, playing) == playing
    moved = play_first_moves(after, playing, limit=1)
    assert moved["step"] > playing["step"]
    results = after.get("/api/results").json()
    assert [g["id"] for g in results["games"]] == [done["id"]] and results["finished"] == 1
    assert results["games"][0]["names"][1] == "S1 An"


def test_ratings_rate_people_by_name_and_bots_by_spec_leaving_out_practice(tmp_path):
    clock = Clock()
    client = make_client(make_tables(tmp_path / "g.sqlite", clock), clock)
    play_first_moves(client, open_game(client))
    play_first_moves(client, open_game(client, practice_seed=3))
    ratings = client.get("/api/results").json()["ratings"]
    assert {(r["kind"], r["name"], r["games"]) for r in ratings} == {
        ("person", "An", 1),
        ("bot", "random", 1),
    }
    assert ratings == sorted(ratings, key=lambda r: -r["ordinal"])
    mine = client.get("/api/results", params={"player": "An"}).json()["games"]
    assert len(mine) == 2 and [g["practice"] for g in mine].count(True) == 1
    assert client.get("/api/results", params={"player": "Bo"}).json()["games"] == []


def test_every_move_is_written_before_it_is_answered(tmp_path):
    db = tmp_path / "g.sqlite"
    clock = Clock()
    client = make_client(make_tables(db, clock), clock)
    game = play_first_moves(client, open_game(client), limit=3)
    with sqlite3.connect(db) as other:  # another connection sees the committed moves
        (record,) = other.execute("SELECT record FROM games WHERE id = ?", (game["id"],)).fetchone()
    assert len(json.loads(record)["actions"]) == game["step"]
    stored = GameStore(db).game(game["id"])
    assert stored is not None and len(stored.record["actions"]) == game["step"]


def test_a_file_that_is_not_a_games_database_is_named(tmp_path):
    bad = tmp_path / "not.sqlite"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(ValueError, match="not a usable SQLite database"):
        GameStore(bad)
    newer = tmp_path / "newer.sqlite"
    with sqlite3.connect(newer) as db:
        db.execute("PRAGMA user_version = 99")
    with pytest.raises(ValueError, match="version 99"):
        GameStore(newer)


def test_a_version_1_database_is_brought_to_version_2_and_its_games_are_watched(tmp_path):
    db = tmp_path / "v1.sqlite"
    clock = Clock()
    tables = make_tables(db, clock)
    client = make_client(tables, clock)
    game = play_first_moves(client, open_game(client), limit=1)
    assert tables.store is not None
    tables.store.close()
    with sqlite3.connect(db) as old:  # as version 1 had it: no token, no abandoned
        old.execute("ALTER TABLE games DROP COLUMN token")
        old.execute("ALTER TABLE games DROP COLUMN abandoned")
        old.execute("PRAGMA user_version = 1")
    reopened = make_tables(db, clock)
    again = make_client(reopened, clock)
    assert reopened.store is not None
    stored = reopened.store.game(game["id"])
    assert stored is not None and stored.token is None and not stored.abandoned
    with sqlite3.connect(db) as new:
        assert new.execute("PRAGMA user_version").fetchone() == (2,)
    move = {"action": game["moves"][0]["action"], "step": game["step"]}
    refused = again.post(f"/api/games/{game['id']}/moves", json=move, headers=seat_of(game))
    assert refused.status_code == 403
    assert again.get(f"/api/games/{game['id']}").json()["watching"]
