"""A refusal costs the server little and the refused client time: a client
over its rate (or its room) waits for each refusal in the tarpit, which
holds only so many at once, and its HTTP connection is closed; a network
block draws one replay at a time, and one that has spent its CPU seconds of
replay drawing is refused the next draw until the budget refills, while
what is cached is still served."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from apps.web.app import Replays, Tarpit
from apps.web.clients import RateLimiter
from apps.web.config import Limits
from apps.web.tables import NoRoom
from env121.engine.game import new_game
from env121.engine.records import to_record
from env121.play.match import play_agents
from env121.play.random_agent import random_players
from env121.rules.config import RuleConfig
from tests.web.helpers import Clock, make_clients, make_tables, open_game, play_first_moves

HOLD = 0.3
"""Seconds a refusal is held in these tests."""


def timed(call: Any) -> tuple[Any, float]:
    """``call()``'s answer and the seconds it took."""
    started = time.perf_counter()
    answer = call()
    return answer, time.perf_counter() - started


def test_a_client_over_its_rate_waits_for_each_refusal_then_is_disconnected(tmp_path):
    clock = Clock()
    tables = make_tables(
        None,
        clock,
        requests_per_second=0.001,
        requests_burst=3,
        refusal_hold_seconds=HOLD,
        games_per_client=1,
    )
    ann, bob = make_clients(tables, clock, "10.0.0.1", "10.0.1.1")
    game = open_game(ann)
    second, seconds = timed(
        lambda: ann.post("/api/games", json={"name": "An", "seat": 0, "agents": ["random"] * 3})
    )
    assert second.status_code == 429 and "1 games in play" in second.json()["error"]
    assert seconds >= HOLD  # no room: held too
    with ann.websocket_connect(f"/api/games/{game['id']}/ws?token={game['token']}") as socket:
        socket.receive_json()
        move = {"action": game["moves"][0]["action"], "step": game["step"]}
        socket.send_text(json.dumps(move))  # over the burst: open, open again, connect
        refused, seconds = timed(socket.receive_json)
        assert "too many messages" in refused["error"] and seconds >= HOLD
    refused, seconds = timed(lambda: ann.get("/api/setup"))
    assert refused.status_code == 429 and seconds >= HOLD
    assert refused.headers["connection"] == "close"
    assert bob.get("/api/setup").status_code == 200  # another client is not held


def test_the_tarpit_holds_few_refusals_of_one_client_and_answers_the_rest_at_once():
    tarpit = Tarpit(Limits(refusal_hold_seconds=HOLD, refusals_held_per_client=1))

    async def refusals() -> list[float]:
        async def one(client: str) -> float:
            started = time.perf_counter()
            await tarpit.hold(client)
            return time.perf_counter() - started

        return list(await asyncio.gather(one("10.0.0.1"), one("10.0.0.1"), one("10.0.0.2")))

    first, second, other = asyncio.run(refusals())
    assert first >= HOLD and other >= HOLD
    assert second < HOLD  # over the client's share of the tarpit: answered at once
    assert tarpit.held.count == 0 and not tarpit.held.open


def test_a_block_that_spent_its_replay_cpu_is_refused_until_it_refills(tmp_path):
    clock = Clock()
    tables = make_tables(tmp_path / "g.sqlite", clock, replay_cpu_seconds=0.001)
    ann, neighbour, far = make_clients(tables, clock, "10.0.0.1", "10.0.0.2", "10.0.1.1")
    game = play_first_moves(ann, open_game(ann, practice_seed=5), limit=3)
    record = ann.get(f"/api/games/{game['id']}/record").json()
    shorter = {**record, "actions": record["actions"][:-1]}
    assert ann.post("/api/replays", json=record).status_code == 200  # drawn, charged
    for client in (ann, neighbour):  # the block's budget is spent
        refused = client.post("/api/replays", json=shorter)
        assert refused.status_code == 429 and "CPU seconds" in refused.json()["error"]
        retry_after = int(refused.headers["retry-after"])
        assert retry_after >= 1 and f"try again in {retry_after} s" in refused.json()["error"]
    assert ann.post("/api/replays", json=record).status_code == 200  # cached: costs nothing
    assert far.post("/api/replays", json=shorter).status_code == 200  # another block
    clock.now += retry_after  # the debt the draw left is paid back
    assert ann.post("/api/replays", json={**record, "actions": []}).status_code == 200


def test_a_block_draws_one_replay_at_a_time_before_it_is_charged():
    state = new_game(3, RuleConfig())
    play_agents(state, random_players(3), until=lambda s: len(s.actions) >= 4)
    record = to_record(state)
    replays = Replays(Limits(replay_processes=0, replays_per_block=1))

    async def at_once() -> list[Any]:
        draws = (
            replays.drawn(f"upload:{client}", client, record, ["a", "b", "c", "d"])
            for client in ("10.0.0.1", "10.0.0.2", "10.0.1.1")
        )
        return list(await asyncio.gather(*draws, return_exceptions=True))

    first, neighbour, far = asyncio.run(at_once())
    assert isinstance(first, bytes) and isinstance(far, bytes)
    assert isinstance(neighbour, NoRoom) and "your network has 1 replay" in str(neighbour)
    assert not replays.waiting


def test_a_debt_is_not_forgotten_when_quiet_buckets_are():
    clock = Clock()
    budget = RateLimiter(1.0, 5.0, clock=clock)
    budget.charge("10.0.0.0/24", 20.0)
    clock.now += 6.0  # past the time a full bucket refills in
    budget.allow("10.0.1.0/24")  # sweeps
    wait = budget.wait("10.0.0.0/24")
    assert wait is not None and 8.9 < wait < 9.1
