"""Tournaments (:mod:`arena.tournament`): duplicate seating, determinism, modes, errors."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from typing import Any

import pytest

import tests.support.arena_agents  # noqa: F401  # registers coin, dice and cheat
from agents.registry import AgentSpecError
from arena import METRICS, IllegalAgentActionError, MatchupResult, one_vs_three, run_tournament
from arena.export import result_to_dict
from arena.schedule import Lineup, round_robin_lineups
from env121.rules.config import RuleConfig

CONFIG = RuleConfig(num_van=1)
NOT_REPRODUCIBLE = {"seconds", "jobs", "think_ms", "think_seconds", "decision_ms"}


def reproducible(document: Any) -> Any:
    """``document`` without the wall-clock fields (and the job count)."""
    if isinstance(document, dict):
        return {k: reproducible(v) for k, v in document.items() if k not in NOT_REPRODUCIBLE}
    if isinstance(document, list):
        return [reproducible(v) for v in document]
    return document


def played(seed: int, jobs: int) -> Any:
    """The reproducible part of a small seeded tournament's JSON document."""
    result = run_tournament(
        matchups=[("random", "coin")], deals=2, seed=seed, jobs=jobs, config=CONFIG
    )
    return reproducible(result_to_dict(result))


def test_same_seed_same_results_for_any_number_of_jobs():
    first = played(seed=11, jobs=1)
    assert first == played(seed=11, jobs=1) == played(seed=11, jobs=2)
    assert played(seed=12, jobs=1)["deal_seeds"] != first["deal_seeds"]


def test_every_agent_sits_in_every_seat_of_every_deal():
    result = run_tournament(pool=["random", "coin", "dice"], deals=2, seed=3, config=CONFIG)
    seats: dict[tuple[int, str], set[int]] = defaultdict(set)
    for game in result.games:
        labels = result.schedule.lineups[game.lineup].seat_labels(game.rotation)
        for seat, label in enumerate(labels):
            seats[(game.deal, label)].add(seat)
    assert len(seats) == 2 * 3
    assert all(s == {0, 1, 2, 3} for s in seats.values())


def test_the_four_rotations_of_a_deal_see_the_same_cards():
    result = run_tournament(matchups=[("random", "coin")], deals=2, seed=5, config=CONFIG)
    hands: dict[int, set[tuple[tuple[int, ...], ...]]] = defaultdict(set)
    for game in result.games:
        hands[game.deal].add(game.first_hands)
    assert [len(h) for h in hands.values()] == [1, 1]
    assert hands[0] != hands[1]
    rotations = [(g.deal, g.rotation) for g in result.games]
    assert rotations == [(d, r) for d in range(2) for r in range(4)]


def test_rotation_r_puts_lineup_position_s_minus_r_in_seat_s():
    lineup = Lineup(0, 0, ("a", "b", "c", "d"), ("a", "b", "c", "d"))
    assert lineup.seat_specs(0) == ("a", "b", "c", "d")
    assert lineup.seat_specs(1) == ("d", "a", "b", "c")
    assert lineup.seat_specs(3) == ("b", "c", "d", "a")


def test_one_vs_three_is_zero_sum_and_labels_a_self_match():
    result = one_vs_three("random", "random", deals=2, seed=1, config=CONFIG)
    assert isinstance(result, MatchupResult)
    assert (result.challenger, result.reference) == ("random (challenger)", "random (reference)")
    assert result.advantage == result.metrics[result.challenger]["points_per_van"]
    reference = result.metrics[result.reference]["points_per_van"].mean
    assert result.advantage.mean + 3 * reference == pytest.approx(0)
    assert result.advantage.clusters == 2
    shares = sum(result.metrics[result.challenger][f"rank_{k}"].mean for k in range(1, 5))
    assert shares == pytest.approx(1)


def test_several_matchups_and_progress():
    calls = []
    result = run_tournament(
        matchups=[("random", "coin"), ("dice", "random")],
        deals=1,
        config=CONFIG,
        progress=lambda done, total: calls.append((done, total)),
    )
    assert [m.name for m in result.matchups] == ["random vs 3× coin", "dice vs 3× random"]
    assert calls == [(i, 8) for i in range(1, 9)]
    assert set(result.ratings) == {"random", "coin", "dice"}
    assert not result.matchups[0].advantage.has_interval  # one deal: no interval


def test_round_robin_lineups():
    assert round_robin_lineups(["a", "b"]) == [
        ("a", "a", "a", "b"),
        ("a", "a", "b", "b"),
        ("a", "b", "b", "b"),
    ]
    assert round_robin_lineups(["a", "b", "c"]) == [
        ("a", "a", "b", "c"),
        ("a", "b", "b", "c"),
        ("a", "b", "c", "c"),
    ]
    assert len(round_robin_lineups(list("abcdef"))) == 15
    with pytest.raises(ValueError, match="more than once"):
        round_robin_lineups(["a", "b", "a"])
    with pytest.raises(ValueError, match="at least 2"):
        round_robin_lineups(["a"])


def test_an_illegal_action_names_the_agent_the_action_and_the_legal_ones():
    with pytest.raises(IllegalAgentActionError) as caught:
        one_vs_three("cheat", "random", deals=1, config=CONFIG)
    message = str(caught.value)
    assert "'cheat'" in message and "not legal" in message and "legal actions were" in message
    assert caught.value.action not in caught.value.legal


def test_an_illegal_action_in_a_worker_process_is_the_same_error():
    with pytest.raises(IllegalAgentActionError, match="'cheat'"):
        one_vs_three("cheat", "random", deals=2, jobs=2, config=CONFIG)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"matchups": [("nosuch", "random")]}, "no agent named 'nosuch'"),
        ({"matchups": [("random", "random")], "pool": ["random", "coin"]}, "either"),
        ({}, "either"),
        ({"pool": ["random", "coin"], "deals": 0}, "deals=0"),
        ({"pool": ["random", "coin"], "jobs": 0}, "jobs=0"),
        ({"pool": ["random", "coin"], "seed": -1}, "seed=-1"),
    ],
)
def test_bad_arguments_are_named(kwargs, match):
    with pytest.raises((ValueError, AgentSpecError), match=match):
        run_tournament(**{"deals": 1, **kwargs})


def test_records_are_plain_frozen_data():
    result = one_vs_three("random", "coin", deals=1, config=CONFIG)
    assert result.agents["random"].counts["seat_games"] == 4
    assert result.agents["coin"].counts["seat_games"] == 12
    record = run_tournament(pool=["random", "coin"], deals=1, config=CONFIG).games[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.deal = 3  # type: ignore[misc]


def test_every_interval_stays_in_its_metrics_range():
    # Two deals: t(0.975, 1) = 12.7, so a share's unclipped interval leaves [0, 1].
    result = run_tournament(matchups=[("random", "coin")], deals=2, seed=7, config=CONFIG)
    bounds = {m.name: m.bounds for m in METRICS}
    clipped = 0
    for stats in result.matchups[0].agents.values():
        for name, estimate in stats.metrics.items():
            low, high = bounds[name]
            assert low <= estimate.low <= estimate.mean <= estimate.high <= high, name
            clipped += estimate.low == low or estimate.high == high
    assert clipped > 0


def test_a_torch_agent_built_in_the_parent_does_not_hang_the_forked_workers():
    """A tournament's parent builds each agent to check its spec; an ``import:``
    agent that uses torch there starts torch's OpenMP pool, and a worker forked
    from it that entered the pool would wait for ever. The workers run torch
    on one thread, so the tournament ends (before that, it hung: killed here)."""
    pytest.importorskip("torch", reason="the train extra is not installed")
    from tests.support.torch_policy import run_after_a_busy_pool

    out = run_after_a_busy_pool(
        "from arena import run_tournament\n"
        "from env121.rules.config import RuleConfig\n"
        "result = run_tournament(matchups=[('import:tests.support.torch_policy:BusyAgent',"
        " 'random')], deals=1, jobs=2, config=RuleConfig(num_van=1))\n"
        "print(len(result.games))\n"
    )
    assert out.split() == ["4"]
