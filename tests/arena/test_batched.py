"""The arena's games, all played on the compiled engine (:mod:`arena.batched`),
against the readable definition of an arena game (each match played by
``play_agents`` on the one-match engine, ``tests/support/arena_reference.py``):
the same record for every game, thinking time aside — for the agents that
decide many games at once (played together) and for those that act a turn at
a time (each game a batch of one)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

import tests.support.arena_agents  # noqa: F401  # registers coin
from arena.execute import BATCH_GAMES, play_all, work_units
from arena.play import GameRecord, game_key
from arena.tournament import plan_tournament, run_tournament
from env121.rules.config import RuleConfig
from tests.support.arena_reference import play_game

CONFIG = RuleConfig(num_van=1)


def without_time(game: GameRecord) -> GameRecord:
    """``game`` with every seat's thinking time zeroed (the one field that is wall-clock)."""
    seats = tuple(dataclasses.replace(seat, think_seconds=0.0) for seat in game.seats)
    return dataclasses.replace(game, seats=seats)


def both_ways(**tournament: Any) -> tuple[tuple[GameRecord, ...], tuple[GameRecord, ...]]:
    """The games of one tournament as the arena plays them, and as the readable
    definition plays each (with agents of its own)."""
    arena = run_tournament(config=CONFIG, seed=4, **tournament).games
    plan = plan_tournament(
        config=CONFIG, seed=4, **{k: v for k, v in tournament.items() if k != "jobs"}
    )
    reference = tuple(play_game(task, plan.cache) for task in plan.tasks)
    return arena, reference


@pytest.mark.parametrize(
    "tournament",
    [
        {"matchups": [("greedy", "random")], "deals": 3},
        {"matchups": [("ppo:scratch", "greedy")], "deals": 2},
        {"matchups": [("ppo:small,deterministic=false", "random")], "deals": 2},
        {"pool": ["random", "greedy", "ppo:small"], "deals": 1},
        {"matchups": [("greedy", "greedy")], "deals": 2, "jobs": 2},
        {"matchups": [("mc:budget=12", "greedy")], "deals": 1},
        {"matchups": [("oracle:width=2", "random")], "deals": 1},
        {"pool": ["random", "greedy", "coin", "mc:budget=12"], "deals": 1},
    ],
    ids=[
        "greedy-random",
        "ppo-greedy",
        "ppo-sampled",
        "round-robin",
        "jobs-2",
        "mc-turn-by-turn",
        "oracle-sees-all",
        "mixed-table",
    ],
)
def test_every_arena_game_has_the_record_of_its_definition(tournament):
    arena, reference = both_ways(**tournament)
    assert len(arena) == len(reference) > 0
    assert [without_time(g) for g in arena] == [without_time(g) for g in reference]


def test_thinking_time_is_counted_for_each_decision():
    together, _ = both_ways(matchups=[("greedy", "random")], deals=1)
    for game in together:
        assert all(seat.decisions > 0 and seat.think_seconds > 0 for seat in game.seats)


def test_agents_of_act_turn_play_their_games_in_batches_of_one():
    plan = plan_tournament(matchups=[("greedy", "random"), ("coin", "random")], deals=1)
    units = work_units(plan.tasks, plan.cache)
    assert [len(u.tasks) for u in units] == [4, 1, 1, 1, 1]
    assert all("coin" not in task.specs for task in units[0].tasks)
    plan = plan_tournament(pool=["greedy", "random", "coin"], deals=1, config=CONFIG)
    assert all(len(u.tasks) == 1 for u in work_units(plan.tasks, plan.cache))  # coin in each
    plan = plan_tournament(matchups=[("ppo:hinted", "random"), ("mc", "greedy")], deals=1)
    assert all(len(u.tasks) == 1 for u in work_units(plan.tasks, plan.cache))  # act(turn) only


def test_batches_are_split_for_size_and_for_each_process():
    plan = plan_tournament(matchups=[("greedy", "random")], deals=BATCH_GAMES // 4 + 1)
    assert [len(u.tasks) for u in work_units(plan.tasks, plan.cache)] == [BATCH_GAMES, 4]
    assert [len(u.tasks) for u in work_units(plan.tasks[:8], plan.cache, parts=3)] == [3, 3, 2]


def test_games_are_reported_as_they_end_and_returned_in_task_order():
    plan = plan_tournament(matchups=[("greedy", "random")], deals=2, config=CONFIG)
    ended: list[GameRecord] = []
    counted: list[tuple[int, int]] = []
    records = play_all(
        plan.tasks, cache=plan.cache, on_game=ended.append, progress=lambda *c: counted.append(c)
    )
    keys = [(t.deal, t.lineup, t.rotation) for t in plan.tasks]
    assert [(r.deal, r.lineup, r.rotation) for r in records] == keys
    assert sorted(ended, key=records.index) == records
    assert counted == [(i, len(keys)) for i in range(1, len(keys) + 1)]


def test_an_interrupted_pool_still_reports_the_games_its_workers_finished():
    plan = plan_tournament(matchups=[("greedy", "random")], deals=4, config=CONFIG)
    whole = {game_key(g): without_time(g) for g in play_all(plan.tasks, cache=plan.cache)}
    arrived: list[GameRecord] = []

    def stop(done: int, total: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        play_all(plan.tasks, jobs=2, progress=stop, on_game=arrived.append)
    # The first game stopped the run; the rest of its unit, and the units being
    # played meanwhile, still reached on_game; the units not started did not.
    assert 2 <= len(arrived) < len(plan.tasks)
    assert len({game_key(g) for g in arrived}) == len(arrived)
    assert all(without_time(g) == whole[game_key(g)] for g in arrived)


def test_a_pool_worker_takes_its_share_of_the_threads(monkeypatch):
    """``--jobs J`` workers each get ``ENV121_THREADS`` = the machine's threads // J, so
    J engines do not each start a thread per core."""
    from arena import execute
    from env121.engine.batched.threads import THREADS_VARIABLE, default_threads

    monkeypatch.setenv(THREADS_VARIABLE, "8")
    monkeypatch.setattr("signal.signal", lambda *args: None)  # keep pytest's Ctrl-C
    monkeypatch.setattr(execute, "warm_kernels", lambda families: 0.0)
    execute._start_worker(2, ("engine",))
    assert default_threads() == 2
