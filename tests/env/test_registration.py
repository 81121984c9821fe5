"""The Gymnasium id env121/SingleSeat-v1 and opponents given as agent specs."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

import agents
import env121
from agents.environments import SingleSeat
from agents.greedy import GreedyAgent
from agents.mc import MCAgent
from agents.registry import AgentSpecError
from env121.envs import single_seat
from env121.play.observation import OBS_SIZE
from env121.play.random_agent import RandomAgent
from env121.registration import GYMNASIUM_ENTRY_POINTS

SINGLE_SEAT_ID = "env121/SingleSeat-v1"


@pytest.mark.parametrize(
    "imports",
    ["import gymnasium as gym, env121", "import env121, gymnasium as gym"],
    ids=["gymnasium-first", "env121-first"],
)
def test_the_id_is_registered_whichever_is_imported_first(imports):
    code = (
        f"{imports}\n"
        "env = gym.make('env121/SingleSeat-v1', opponents='greedy', seat=2)\n"
        "print(type(env.unwrapped).__module__, env.reset(seed=1)[1]['seat'])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["agents.environments", "2"]


def test_import_env121_registers_without_importing_gymnasium_or_the_environments():
    code = (
        "import sys, env121\n"
        "loaded = sorted({m.split('.')[0] for m in sys.modules} & {'gymnasium', 'agents'})\n"
        "import gymnasium\n"
        "print(loaded, 'env121/SingleSeat-v1' in gymnasium.registry,"
        " 'agents' in sys.modules, 'env121.envs' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["[]", "True", "False", "False"]


def test_every_registered_id_names_a_builder_that_exists():
    for env_id, entry_point in GYMNASIUM_ENTRY_POINTS.items():
        assert gym.spec(env_id).entry_point == entry_point
        module, _, name = entry_point.partition(":")
        assert callable(getattr(__import__(module, fromlist=[name]), name))


def test_checkers_pass_without_warnings_on_the_made_environment():
    env = gym.make(SINGLE_SEAT_ID, opponents="greedy")
    assert env.spec is not None and env.spec.id == SINGLE_SEAT_ID
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("error")
        sb3_check_env(env)
        gymnasium_check_env(env.unwrapped)  # re-makes it in every render mode from its spec


def test_opponents_as_specs_one_for_all_seats_or_three():
    env = gym.make(SINGLE_SEAT_ID, opponents="greedy", reward_mode="rank", num_van=2)
    seat = env.unwrapped
    assert isinstance(seat, single_seat.SingleSeat)
    assert [type(o) for o in seat.opponents] == [GreedyAgent] * 3
    assert seat.opponents[0] is seat.opponents[2]  # one agent plays all three, as one given
    assert seat.env.config.num_van == 2 and seat.env.reward_mode == "rank"

    mixed = agents.SingleSeat(opponents=["mc:budget=8", RandomAgent(), "greedy"], seat=1)
    first, *others = mixed.opponents
    assert isinstance(first, MCAgent) and first.spec == "mc:budget=8"
    assert [type(o) for o in others] == [RandomAgent, GreedyAgent]
    assert mixed.reset(seed=3)[1]["seat"] == 1
    assert agents.SingleSeat is SingleSeat
    with pytest.raises(AttributeError, match=r"moved in env121 0\.2\.0: use agents\.SingleSeat"):
        env121.SingleSeat  # type: ignore[attr-defined]  # noqa: B018


def test_a_bad_spec_names_itself_and_the_base_class_names_where_specs_are_built():
    with pytest.raises(AgentSpecError, match=r"no agent named 'gredy'.*'greedy'"):
        gym.make(SINGLE_SEAT_ID, opponents="gredy")
    with pytest.raises(AgentSpecError, match=r"'mc' has no parameter 'budjet'"):
        SingleSeat(opponents=["random", "mc:budjet=8", "random"])
    with pytest.raises(ValueError, match=r"opponents='greedy'.*agents\.SingleSeat"):
        single_seat.SingleSeat(opponents="greedy")  # type: ignore[arg-type]


def play_masked(env: gym.Env[Any, Any], seed: int) -> tuple[float, int]:
    """First-legal-action play of one episode: (total reward, steps)."""
    env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        action = int(np.flatnonzero(env.unwrapped.action_masks())[0])  # type: ignore[attr-defined]
        _obs, reward, terminated, truncated, _info = env.step(action)
        total, steps, done = total + float(reward), steps + 1, terminated or truncated
    return total, steps


def test_the_made_environment_plays_as_the_class_does():
    made = gym.make(SINGLE_SEAT_ID, opponents="greedy", seat=0)
    direct = SingleSeat(opponents=GreedyAgent(), seat=0)
    assert play_masked(made, seed=5) == play_masked(direct, seed=5)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_make_vec_steps_copies_with_their_masks(mode):
    envs = gym.make_vec(SINGLE_SEAT_ID, num_envs=2, vectorization_mode=mode, opponents="greedy")
    try:
        obs, infos = envs.reset(seed=7)
        assert isinstance(envs, gym.vector.SyncVectorEnv | gym.vector.AsyncVectorEnv)
        assert obs.shape == (2, OBS_SIZE)
        assert list(infos["seat"]) != [] and list(infos["_seat"]) == [True, True]
        for _ in range(20):
            masks = envs.call("action_masks")
            actions = np.array([int(np.flatnonzero(m)[-1]) for m in masks])
            step: tuple[Any, ...] = envs.step(actions)
            obs, rewards, terminated, truncated, _infos = step
            assert obs.shape[0] == rewards.shape[0] == 2
            assert not terminated.any() and not truncated.any()  # a match is longer
    finally:
        envs.close()
