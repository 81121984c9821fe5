"""env121.parallel_env(): the game through PettingZoo's parallel API, and env121_v1."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test

import env121
from env121 import env121_v1
from env121.envs import aec_env


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_parallel_api_test():
    parallel_api_test(env121.parallel_env(), num_cycles=1000)


def play_parallel(seed: int, **kwargs) -> tuple[list[int], dict[str, float], dict[str, Any]]:
    """A whole match through the parallel API, the acting agent (the one with a
    non-empty mask) choosing at random: (actions, summed rewards, last infos)."""
    env = env121.parallel_env(**kwargs)
    observations, infos = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    played, totals = [], dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        acting = [a for a in env.agents if observations[a]["action_mask"].any()]
        assert len(acting) == 1
        (agent,) = acting
        action = int(rng.choice(np.flatnonzero(observations[agent]["action_mask"])))
        others = dict.fromkeys(env.agents, 0)  # ignored: only the acting agent plays
        observations, rewards, terminations, _truncations, infos = env.step(
            {**others, agent: action}
        )
        played.append(action)
        for a, r in rewards.items():
            totals[a] += r
    assert all(terminations.values())
    return played, totals, infos


def test_a_parallel_match_is_the_aec_match_with_the_same_actions():
    played, totals, infos = play_parallel(seed=11)
    assert len(played) > 100
    match = infos["player_0"]["match"]
    for agent, standing in match["standings"].items():
        assert totals[agent] == pytest.approx(standing / 100)  # the rewards add up as in AEC
    aec = aec_env.raw_env()
    aec.reset(seed=11)
    for action in played:
        aec.step(action)
    assert aec.game.is_over and aec.game.standings() == tuple(match["standings"].values())
    assert play_parallel(seed=11) == (played, totals, infos)  # seeded: the same match again


def test_after_each_step_infos_name_the_agent_to_act_next():
    env = env121.parallel_env()
    observations, _ = env.reset(seed=2)
    for _ in range(30):
        agent = next(a for a in env.agents if observations[a]["action_mask"].any())
        action = int(np.flatnonzero(observations[agent]["action_mask"])[0])
        observations, _r, _t, _tr, infos = env.step({agent: action})
        (named,) = {info["active_agent"] for info in infos.values()}
        assert [a for a in env.agents if observations[a]["action_mask"].any()] == [named]


def test_the_versioned_module_is_the_environment_module():
    assert env121_v1.env is env121.env is aec_env.env
    assert env121_v1.raw_env is env121.raw_env is aec_env.raw_env
    assert env121_v1.parallel_env is env121.parallel_env is aec_env.parallel_env
    assert env121.env121_v1 is env121_v1
    assert env121_v1.parallel_env(num_van=2).metadata["name"] == "env121_v1"
