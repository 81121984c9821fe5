"""The web table is safe to share: the server's configuration says which
agents a client may seat (never a file), each client is held to its games,
requests per second and request size, and no client's game is evicted for
another's. A non-loopback address needs every limit set."""

from __future__ import annotations

import json

import pytest

from apps.cli import main
from apps.web.clients import RateLimiter
from apps.web.config import (
    ConfigError,
    ServerConfig,
    agent_menu,
    check_exposed,
    config_toml,
    load_config,
)
from tests.web.helpers import (
    RANDOMS,
    Clock,
    look,
    make_client,
    make_clients,
    make_tables,
    open_game,
)


def test_each_client_has_its_own_cap_and_none_evicts_another_s_game(tmp_path):
    clock = Clock()
    tables = make_tables(tmp_path / "g.sqlite", clock, games=3, games_per_client=2)
    ann, bob, cat = make_clients(tables, clock, "10.0.0.1", "10.0.1.2", "::3")
    ann_games = [open_game(ann), open_game(ann)]
    third = ann.post("/api/games", json={"name": "Ann", "seat": 0, "agents": RANDOMS})
    assert third.status_code == 429 and "2 games in play" in third.json()["error"]
    bob_game = open_game(bob)
    full = cat.post("/api/games", json={"name": "Cat", "seat": 0, "agents": RANDOMS})
    assert full.status_code == 503 and "the server is full" in full.json()["error"]
    for game in (*ann_games, bob_game):  # all still in play, untouched
        assert game["id"] in tables.tables
        assert look(ann, game) == game
    clock.now += tables.limits.full_idle_seconds + 1  # a quiet game makes room (kept in the store)
    assert open_game(cat)["id"] in tables.tables
    assert ann_games[0]["id"] not in tables.tables
    assert look(bob, bob_game) == bob_game
    assert look(ann, ann_games[0]) == ann_games[0]  # back from the store, another put aside


def test_many_addresses_of_one_network_block_share_its_caps(tmp_path):
    clock = Clock()
    tables = make_tables(tmp_path / "g.sqlite", clock, games_per_block=3, connections_per_block=2)
    v4 = [f"10.0.0.{i}" for i in range(1, 5)]
    v6 = [f"2001:db8::{i}" for i in range(1, 5)]
    clients = make_clients(tables, clock, *v4, *v6, "10.0.1.1")
    neighbours, v6_neighbours, far = clients[:4], clients[4:8], clients[8]
    body = {"name": "Di", "seat": 0, "agents": RANDOMS}
    for group, block in ((neighbours, "10.0.0.0/24"), (v6_neighbours, "2001:db8::/64")):
        games = [open_game(client) for client in group[:3]]
        refused = group[3].post("/api/games", json=body)
        assert refused.status_code == 429 and block in refused.json()["error"]
    assert len(tables.tables) == 6
    assert open_game(far)["id"] in tables.tables  # another block
    path = f"/api/games/{games[0]['id']}/ws"
    with (
        v6_neighbours[0].websocket_connect(path) as a,
        v6_neighbours[1].websocket_connect(path) as b,
    ):
        assert a.receive_json()["type"] == b.receive_json()["type"] == "state"
        with v6_neighbours[2].websocket_connect(path) as third:
            assert "your network has 2 connections open" in third.receive_json()["error"]


def test_the_block_rate_holds_many_addresses_to_one_share(tmp_path):
    clock = Clock()
    tables = make_tables(None, clock, block_requests_per_second=1.0, block_requests_burst=5)
    *flood, other = make_clients(
        tables, clock, *(f"127.0.0.{i}" for i in range(2, 12)), "127.0.1.2"
    )
    assert [client.get("/rules").status_code for client in flood] == [200] * 5 + [429] * 5
    assert "from your network" in flood[0].get("/rules").json()["error"]
    assert other.get("/rules").status_code == 200


def test_a_client_over_its_rate_is_told_to_wait_and_others_are_not(tmp_path):
    clock = Clock()
    tables = make_tables(None, clock, requests_per_second=2.0, requests_burst=3)
    ann, bob = make_clients(tables, clock, "10.0.0.1", "10.0.0.2")
    assert [ann.get("/api/setup").status_code for _ in range(3)] == [200] * 3
    refused = ann.get("/api/setup")
    assert refused.status_code == 429 and "try again in 0.5 s" in refused.json()["error"]
    assert bob.get("/api/setup").status_code == 200
    for page in ("/", "/rules", "/static/table.js"):  # every route counts
        assert ann.get(page).status_code == 429
    with ann.websocket_connect("/api/games/nosuch/ws") as socket:  # a connection counts too
        assert "too many connections" in socket.receive_json()["error"]
    clock.now += 0.5
    assert ann.get("/api/setup").status_code == 200


def test_a_client_holds_its_websockets_and_the_server_its_own(tmp_path):
    clock = Clock()
    tables = make_tables(None, clock, connections_per_client=2, connections=3)
    ann, bob, cat = make_clients(tables, clock, "10.0.0.1", "10.0.0.2", "10.1.0.1")
    game = open_game(ann)
    path = f"/api/games/{game['id']}/ws"
    with ann.websocket_connect(path) as first, ann.websocket_connect(path) as second:
        assert first.receive_json()["type"] == second.receive_json()["type"] == "state"
        with ann.websocket_connect(path) as third:
            assert "2 connections open" in third.receive_json()["error"]
        with bob.websocket_connect(path) as other:  # another client is not held to ann's
            assert other.receive_json()["type"] == "state"
            with cat.websocket_connect(path) as full:
                assert "the server has 3 connections open" in full.receive_json()["error"]
    with ann.websocket_connect(path) as again:  # closed ones are counted no more
        assert again.receive_json()["type"] == "state"


def test_the_rate_limiter_forgets_quiet_clients():
    clock = Clock()
    limiter = RateLimiter(10.0, 5, clock=clock)
    for client in range(100):
        assert limiter.allow(str(client)) is None
    clock.now += 1.0
    limiter.allow("new")
    assert list(limiter.buckets) == ["new"]


def test_a_body_or_message_over_the_size_limit_is_refused_unread(tmp_path):
    clock = Clock()
    tables = make_tables(tmp_path / "g.sqlite", clock, body_bytes=2000)
    client = make_client(tables, clock)
    response = client.post("/api/replays", content=b"x" * 5000)
    assert response.status_code == 413 and "at most 2,000" in response.json()["error"]
    game = open_game(client)
    with client.websocket_connect(f"/api/games/{game['id']}/ws") as socket:
        socket.receive_json()
        socket.send_text(json.dumps({"action": 1, "step": "9" * 3000}))
        error = socket.receive_json()
        assert error["type"] == "error" and "at most 2,000 bytes" in error["error"]


def test_an_uploaded_record_too_long_to_draw_is_refused_before_it_is_replayed(tmp_path):
    clock = Clock()
    client = make_client(make_tables(None, clock), clock)
    record = {"format_version": 2, "config": {}, "seed": 1, "actions": [0] * 10_001}
    response = client.post("/api/replays", json=record)
    assert response.status_code == 400 and "at most 10,000 are replayed" in response.json()["error"]


def test_a_slow_decision_is_logged(tmp_path, caplog):
    clock = Clock()
    tables = make_tables(None, clock, decision_seconds=1e-9)
    open_game(make_client(tables, clock), seat=3)  # S0, S1 and S2 act first
    assert "a decision took" in caplog.text and "limit 0.00 s" in caplog.text


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("mc:budget=64", "without a time limit"),
        ("mc:budget=64,ms=5000", "at most 2000"),
        ("ppo:/tmp/policy.safetensors", "never a file"),
        ("ppo:nosuch", "not a shipped checkpoint"),
        ("search:net=/tmp/policy.safetensors", "never a file"),
        ("search:budget_ms=0", "add budget_ms=N"),
        ("nobody", "no agent named"),
    ],
)
def test_the_server_offers_no_agent_that_thinks_without_limit_or_reads_a_file(spec, why):
    with pytest.raises(ConfigError, match=why):
        agent_menu(ServerConfig(agents=("random", spec)))


def test_the_default_menu_is_bounded_and_spelled_canonically():
    menu = agent_menu(ServerConfig())
    assert list(menu)[:3] == ["random", "greedy", "mc:budget=16,ms=500"]


def test_a_non_loopback_host_needs_every_limit_set_in_a_file(tmp_path, capsys):
    assert check_exposed(ServerConfig(), "127.0.0.1") is None
    assert check_exposed(ServerConfig(), "::1") is None
    with pytest.raises(ConfigError, match="sets every limit"):
        check_exposed(ServerConfig(), "0.0.0.0")
    assert main(["serve", "--host", "0.0.0.0"]) == 2
    assert "--host 0.0.0.0 lets other machines in" in capsys.readouterr().err
    path = tmp_path / "server.toml"
    path.write_text(config_toml(ServerConfig(agents=("random", "greedy"), db=tmp_path / "g.db")))
    config = load_config(path)
    assert config.limits_given and config.agents == ("random", "greedy")
    warning = check_exposed(config, "0.0.0.0")
    assert warning is not None and "reachable from other machines" in warning
    partial = tmp_path / "partial.toml"
    partial.write_text('agents = ["random"]\n[limits]\ngames = 8\n')
    with pytest.raises(ConfigError, match="sets every limit"):
        check_exposed(load_config(partial), "192.0.2.1")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("agents = 3", "expected a list of specs"),
        ("port = 1", "unknown setting 'port'"),
        ("[limits]\ngames = 0", "limits.games = 0 is not valid"),
        ("[limits]\nrate = 1", "unknown limit 'rate'"),
        ("[limits]\ngames = 1.5", "expected an integer"),
        ("agents = [", "not a TOML file"),
    ],
)
def test_a_bad_configuration_file_is_named_in_one_line(tmp_path, text, why, capsys):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=why):
        load_config(path)
    assert main(["serve", "--config", str(path)]) == 2
    assert why in capsys.readouterr().err


def test_print_config_writes_a_file_that_reads_back(tmp_path, capsys):
    assert main(["serve", "--print-config", "--db", str(tmp_path / "x.sqlite")]) == 0
    path = tmp_path / "server.toml"
    path.write_text(capsys.readouterr().out)
    config = load_config(path)
    assert config.limits_given and config.db == tmp_path / "x.sqlite"
