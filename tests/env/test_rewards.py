"""Rewards and infos of env121_v1: points per vòng, rank at the end, zero-sum."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np
import pytest

import env121
from env121.engine.actions import PASS, U
from env121.engine.game import win_score
from env121.engine.state import Phase, State
from env121.envs.aec_env import AGENTS, PLACEMENT_REWARDS, AgentEnv, placement_rewards, raw_env
from env121.rules.config import RuleConfig

Info = dict[str, Any]


def game_of(env: AgentEnv) -> State:
    """The engine state inside a wrapped environment."""
    unwrapped = env.unwrapped
    assert isinstance(unwrapped, raw_env)
    return unwrapped.game


def play_match(env: AgentEnv, seed: int) -> tuple[dict[str, float], dict[str, list[Info]], Info]:
    """A random match through ``agent_iter``/``last``: each agent's total reward
    as ``last()`` reported it, the vòng results its infos reported, the final info."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals: dict[str, float] = defaultdict(float)
    results: dict[str, list[Info]] = defaultdict(list)
    final: Info = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        results[agent].extend(info.get("vong_results", []))
        if terminated or truncated:
            final = info
            env.step(None)
            continue
        assert obs is not None
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    return dict(totals), dict(results), final


def test_points_rewards_are_the_vong_payments_and_zero_sum():
    env = raw_env()
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    paid_vong = 0
    while not env.game.is_over:
        agent = env.agent_selection
        legal = np.flatnonzero(env.observe(agent)["action_mask"])
        finished = len(env.game.results)
        env.step(int(legal[rng.integers(len(legal))]))
        assert sum(env.rewards.values()) == pytest.approx(0.0)
        if len(env.game.results) == finished:
            assert not any(env.rewards.values())
            continue
        result = env.game.results[-1]
        expected = [p / 100 for p in result.payments]
        assert [env.rewards[a] for a in AGENTS] == pytest.approx(expected)
        paid_vong += any(result.payments)
    assert paid_vong > 0


@pytest.mark.parametrize(
    "config",
    [RuleConfig(), RuleConfig(num_van=2, carry_scores=True), RuleConfig(starting_points=400)],
    ids=["one-van", "two-van-carry", "bust"],
)
def test_points_totals_through_last_are_the_standings(config):
    env = env121.env(config=config)
    totals, results, final = play_match(env, seed=3)
    game = game_of(env)
    for seat, agent in enumerate(AGENTS):
        assert totals[agent] == pytest.approx(game.standings()[seat] / 100)
        # every vòng result reaches every agent's info exactly once
        assert [(r["van"], r["vong"]) for r in results[agent]] == [
            (r.van, r.vong) for r in game.results
        ]
    assert sum(totals.values()) == pytest.approx(0.0)
    assert final["match"]["reason"] == game.match_end
    assert final["match"]["ranks"] == dict(zip(AGENTS, game.ranks, strict=True))
    if config.starting_points == 400:
        assert game.match_end == "bust"


def test_rank_rewards_come_at_the_end_and_sum_to_zero():
    env = env121.env(reward_mode="rank")
    totals, _results, final = play_match(env, seed=5)
    game = game_of(env)
    expected = placement_rewards(game.ranks)
    assert [totals[a] for a in AGENTS] == pytest.approx(expected)
    assert sum(totals.values()) == pytest.approx(0.0)
    assert final["match"]["ranks"] == dict(zip(AGENTS, game.ranks, strict=True))


def test_rank_rewards_are_zero_before_the_end():
    env = raw_env(reward_mode="rank")
    env.reset(seed=8)
    rng = np.random.default_rng(1)
    for _ in range(300):
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        assert not any(env.rewards.values())


@pytest.mark.parametrize(
    ("ranks", "expected"),
    [
        ((1, 2, 3, 4), PLACEMENT_REWARDS),
        ((4, 3, 2, 1), PLACEMENT_REWARDS[::-1]),
        ((1, 1, 3, 4), (1.0, 1.0, -0.5, -1.5)),
        ((2, 1, 2, 4), (0.0, 1.5, 0.0, -1.5)),
        ((1, 1, 1, 4), (0.5, 0.5, 0.5, -1.5)),
        ((1, 1, 1, 1), (0.0, 0.0, 0.0, 0.0)),
        ((1, 2, 3, 3), (1.5, 0.5, -1.0, -1.0)),
    ],
    ids=lambda v: "-".join(map(str, v)),
)
def test_placement_rewards_share_ties(ranks, expected):
    assert placement_rewards(ranks) == pytest.approx(expected)
    assert sum(placement_rewards(ranks)) == pytest.approx(0.0)


def test_vong_result_info_names_the_outcome_the_winner_and_the_payments():
    env = raw_env()
    _totals, results, _final = play_match(env, seed=3)
    allowed = {"u", "den", "the_trang", "draw", "truncated"}
    for info, result in zip(results["player_0"], env.game.results, strict=True):
        assert info["outcome"] in allowed
        assert info["payments"] == dict(zip(AGENTS, result.payments, strict=True))
        assert sum(info["payments"].values()) == 0
        if info["outcome"] == "u":
            assert info["winner"] == AGENTS[result.seat]
            assert info["the"] == result.the
            assert info["points"] == result.points > 0
            assert isinstance(info["card"], str)
        if info["outcome"] in ("draw", "truncated"):
            assert info["winner"] is None
            assert not any(info["payments"].values())


def test_den_infos_name_the_offender():
    env = raw_env(mask_invalid_win=False)
    env.reset(seed=2)
    while env.game.phase == Phase.THE_TRANG:  # to the first flip
        env.step(PASS)
    assert env.game.phase == Phase.OFFER and win_score(env.game, 0) is None
    env.step(U)  # Ù on a card that does not win: Đền
    info = env.infos["player_1"]["vong_results"][0]
    assert info["outcome"] == "den"
    assert info["offender"] == "player_0"
    assert info["winner"] is None
    assert info["payments"]["player_0"] == -300
    assert env.rewards["player_0"] == pytest.approx(-3.0)
    assert env.rewards["player_1"] == pytest.approx(1.0)
