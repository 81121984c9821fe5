"""The PettingZoo environment env121_v1: API conformance, wrappers, render, pickling."""

from __future__ import annotations

import pickle
import subprocess
import sys

import numpy as np
import pytest
from gymnasium.spaces import Dict, Discrete
from pettingzoo.test import api_test, seed_test

import env121
from env121.engine.actions import NUM_ACTIONS, PASS, U
from env121.engine.game import IllegalActionError, legal_actions
from env121.engine.picture import HEIGHT, WIDTH, PictureOptions, table_rgb
from env121.engine.state import Phase
from env121.envs.aec_env import AGENTS, raw_env
from env121.play.observation import OBS_SIZE
from env121.rules.config import RuleConfig


def random_steps(env, rng: np.random.Generator, steps: int) -> None:
    """Random legal play through the AEC API (dead steps included)."""
    for _ in range(steps):
        obs, _reward, terminated, truncated, _info = env.last()
        if not env.agents:
            return
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_api_test():
    api_test(env121.env(), num_cycles=400)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_api_test_raw_env_rank_rewards():
    api_test(env121.raw_env(reward_mode="rank"), num_cycles=200)


def test_pettingzoo_seed_test():
    seed_test(env121.env, num_cycles=150)


def test_import_env121_does_not_load_pettingzoo_until_env_is_used():
    code = (
        "import sys, env121\n"
        "before = 'pettingzoo' in sys.modules\n"
        "make = env121.env\n"
        "print(before, 'pettingzoo' in sys.modules, make.__module__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "env121.envs.aec_env"]
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        env121.nonsense  # type: ignore[attr-defined]  # noqa: B018


def test_metadata_agents_and_spaces():
    env = env121.env(num_van=2)
    env.reset(seed=3)
    assert env.metadata["name"] == "env121_v1"
    assert env.metadata["is_parallelizable"] is False
    assert set(env.metadata["render_modes"]) == {"ansi", "human", "rgb_array"}
    assert env.metadata["config"] == RuleConfig(num_van=2).to_dict()
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    for agent in env.possible_agents:
        assert env.action_space(agent) == Discrete(NUM_ACTIONS)
        space = env.observation_space(agent)
        assert isinstance(space, Dict)
        assert space["observation"].shape == (OBS_SIZE,)
        assert space["action_mask"].shape == (NUM_ACTIONS,)
        assert env.observation_space(agent) is space


def test_bad_arguments_name_what_is_accepted():
    with pytest.raises(ValueError, match=r"reward_mode='score'.*'points' or 'rank'"):
        env121.raw_env(reward_mode="score")
    with pytest.raises(ValueError, match=r"render_mode='rgb'.*'ansi', 'human' or 'rgb_array'"):
        env121.raw_env(render_mode="rgb")
    with pytest.raises(ValueError, match=r"unknown keyword argument\(s\) \['nmu_van'\]"):
        env121.raw_env(nmu_van=2)
    with pytest.raises(ValueError, match="num_van=3"):
        env121.raw_env(num_van=3)


def test_reset_seed_is_the_engine_match_seed():
    env = raw_env()
    env.reset(seed=7)
    assert env.game.seed == 7
    assert env.game.hands == env121.new_game(7).hands
    env.reset()
    first = env.game.seed
    env.reset(seed=7)
    env.reset()
    assert env.game.seed == first  # the unseeded reset after seed 7 is reproducible
    env.reset(seed=7, options={"rotation": 1})
    assert env.game.hands == env121.new_game(7, rotation=1).hands


def test_raw_env_raises_the_engine_error_and_keeps_the_match():
    env = raw_env()
    env.reset(seed=1)
    before = env.game.clone()
    illegal = next(a for a in range(NUM_ACTIONS) if a not in legal_actions(env.game))
    with pytest.raises(IllegalActionError, match="illegal action"):
        env.step(illegal)
    assert env.game.actions == before.actions
    assert env.game.hands == before.hands


def test_wrapped_env_ends_the_match_on_an_illegal_action(caplog):
    env = env121.env(illegal_reward=-5.0)
    env.reset(seed=1)
    agent = env.agent_selection
    obs = env.last()[0]
    assert obs is not None
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert "Illegal move" in caplog.text
    assert all(env.terminations.values())
    rewards = {}
    for a in env.agent_iter():
        rewards[a] = env.last()[1]
        env.step(None)
    assert set(rewards) == set(AGENTS)
    assert rewards[agent] == -5.0
    assert all(r == 0.0 for a, r in rewards.items() if a != agent)


def test_agents_not_to_act_see_an_all_zero_mask():
    env = raw_env()
    env.reset(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(30):
        for agent in AGENTS:
            mask = env.observe(agent)["action_mask"]
            assert mask.dtype == np.int8
            assert mask.any() == (agent == env.agent_selection)
        random_steps(env, rng, 1)


def test_render_ansi_shows_the_hand_of_the_agent_to_act_only():
    env = raw_env(render_mode="ansi")
    env.reset(seed=4)
    while env.game.phase == Phase.THE_TRANG:  # to the first flip
        env.step(PASS)
    text = env.render()
    assert isinstance(text, str)
    seat = env.game.current_player
    assert env121.format_cards(env.game.hands[seat]) in text
    for other in range(4):
        if other != seat:
            assert env121.format_cards(env.game.hands[other]) not in text
    assert "Chỉ Điểm " + env121.format_card(env.game.chi_diem) in text
    assert f"to act: {AGENTS[seat]}" in text
    assert "flips" in text  # the last events, in the transcript's words


def test_render_human_prints(capsys):
    env = raw_env(render_mode="human")
    env.reset(seed=4)
    env.step(PASS if PASS in legal_actions(env.game) else legal_actions(env.game)[0])
    assert "env121_v1" in capsys.readouterr().out


def test_render_rgb_array_is_the_picture_of_the_god_view():
    env = env121.env(render_mode="rgb_array")
    env.reset(seed=4)
    random_steps(env, np.random.default_rng(4), 30)
    frame = env.render()
    assert isinstance(frame, np.ndarray)
    assert frame.shape == (HEIGHT, WIDTH, 3)
    assert frame.dtype == np.uint8
    unwrapped = env.unwrapped
    assert isinstance(unwrapped, raw_env)
    expected = table_rgb(unwrapped.game, None, PictureOptions(names=AGENTS, title="env121_v1"))
    np.testing.assert_array_equal(frame, expected)


def test_pickle_round_trip_keeps_a_match_in_progress():
    env = raw_env()
    env.reset(seed=5)
    random_steps(env, np.random.default_rng(1), 120)
    copy = pickle.loads(pickle.dumps(env))
    for a, b in ((env, copy),):
        assert a.game.actions == b.game.actions
        assert a.agent_selection == b.agent_selection
    rng_a, rng_b = np.random.default_rng(9), np.random.default_rng(9)
    random_steps(env, rng_a, 200)
    random_steps(copy, rng_b, 200)
    assert env.game.actions == copy.game.actions
    np.testing.assert_array_equal(
        env.observe(env.agent_selection)["observation"],
        copy.observe(copy.agent_selection)["observation"],
    )


def test_u_is_offered_by_the_mask_only_when_the_engine_allows_it():
    env = raw_env(mask_invalid_win=False)
    env.reset(seed=6)
    while env.game.phase == Phase.THE_TRANG:  # to the first flip
        env.step(PASS)
    mask = env.observe(env.agent_selection)["action_mask"]
    assert mask[U] == 1  # without masking, Ù is always offered (and may be Đền)
