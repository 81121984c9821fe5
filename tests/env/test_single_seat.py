"""SingleSeat: one learning seat as a gymnasium.Env, for SB3 / sb3-contrib."""

from __future__ import annotations

import pickle
import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from env121.engine.actions import THE_TRANG
from env121.engine.deal import Deal
from env121.engine.game import IllegalActionError, apply, legal_actions, new_game
from env121.engine.picture import HEIGHT, WIDTH, PictureOptions, table_rgb
from env121.envs.aec_env import AGENTS, placement_rewards
from env121.envs.single_seat import SingleSeat
from env121.play.observation import OBS_SIZE
from env121.play.random_agent import RandomAgent
from env121.play.turn import Turn


def run_episode(env: SingleSeat, seed: int) -> tuple[float, int, dict[str, Any]]:
    """Random masked play for one episode: (total reward, steps, last info)."""
    _obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps, terminated = 0.0, 0, False
    while not terminated:
        legal = np.flatnonzero(env.action_masks())
        _obs, reward, terminated, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
        assert not truncated
        total += reward
        steps += 1
    return total, steps, info


def test_sb3_and_gymnasium_checkers_pass():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # gymnasium: no spec to test other render modes
        sb3_check_env(SingleSeat())
        gymnasium_check_env(SingleSeat())


def test_render_rgb_array_is_the_picture_the_learner_sees():
    env = SingleSeat(seat=1, render_mode="rgb_array")
    env.reset(seed=3)
    frame = env.render()
    assert isinstance(frame, np.ndarray)
    assert frame.shape == (HEIGHT, WIDTH, 3)
    assert frame.dtype == np.uint8
    expected = table_rgb(env.env.game, 1, PictureOptions(names=AGENTS, title="env121_v1"))
    np.testing.assert_array_equal(frame, expected)


def test_spaces_and_action_masks_are_the_learners_legal_actions():
    env = SingleSeat(seat=2)
    obs, info = env.reset(seed=1)
    assert obs.shape == (OBS_SIZE,) and obs.dtype == np.float32
    assert env.observation_space.contains(obs)
    assert info["seat"] == 2 and info["agent"] == "player_2"
    rng = np.random.default_rng(0)
    for _ in range(100):
        game = env.env.game
        assert game.current_player == 2
        mask = env.action_masks()
        assert mask.dtype == bool
        assert set(np.flatnonzero(mask).tolist()) == set(legal_actions(game))
        legal = np.flatnonzero(mask)
        _obs, _r, terminated, _t, _i = env.step(int(legal[rng.integers(len(legal))]))
        if terminated:
            break


@pytest.mark.parametrize("reward_mode", ["points", "rank"])
def test_the_learner_receives_all_of_its_reward(reward_mode):
    env = SingleSeat(reward_mode=reward_mode)
    total, steps, info = run_episode(env, seed=4)
    game = env.env.game
    seat = info["seat"]
    assert game.is_over and steps > 0
    if reward_mode == "points":
        assert total == pytest.approx(game.standings()[seat] / 100)
    else:
        assert total == pytest.approx(placement_rewards(game.ranks)[seat])
    assert info["match"]["ranks"][AGENTS[seat]] == game.ranks[seat]


def test_the_first_step_carries_rewards_earned_before_the_first_action():
    """S0 declares Thế trắng before the learner (S1) ever acts: the learner's
    share of that payment comes with its first step."""
    deal = Deal.from_notation(
        ["GEN/FR INS/FB MER/BR GEI/BB DAN/LR", "CRE/KY CRE/ED GEN/KY GEN/ED INS/KY",
         "INS/ED MER/KY MER/ED GEI/KY GEI/ED", "DAN/KY DAN/ED MON/KY MON/ED MUS/KY"],
        "PRI/KY", "PRI/ED CRE/FR CRE/FB CRE/FP",
    )  # fmt: skip
    random = RandomAgent()  # as a policy

    def declare(observation, action_mask):
        return THE_TRANG if action_mask[THE_TRANG] else random(observation, action_mask)

    env = SingleSeat(declare, seat=1)
    env.reset(seed=0, options={"first_deal": deal})
    first = env.env.game.results[0]
    assert (first.outcome, first.seat, first.payments[1]) == ("the_trang", 0, -30)
    before = env.env.cumulative_reward("player_1")
    assert before == pytest.approx(-0.3)
    _obs, reward, *_ = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert reward == pytest.approx(before + env.env.cumulative_reward("player_1"))


def test_seat_is_drawn_per_episode_unless_fixed():
    env = SingleSeat()
    seats = {env.reset(seed=s)[1]["seat"] for s in range(12)}
    assert len(seats) > 1
    fixed = SingleSeat(seat=1)
    assert {fixed.reset(seed=s)[1]["seat"] for s in range(5)} == {1}


def assert_same_steps(a: SingleSeat, b: SingleSeat, steps: int = 40) -> None:
    """Step both with the same actions (the highest legal one of ``a``) until the
    episode ends or ``steps`` are taken: every step's five outputs agree."""
    for _ in range(steps):
        action = int(np.flatnonzero(a.action_masks())[-1])
        out_a, out_b = a.step(action), b.step(action)
        np.testing.assert_array_equal(out_a[0], out_b[0])
        assert out_a[1:] == out_b[1:]
        if out_a[2]:
            break


def test_reset_seed_fixes_the_whole_episode():
    a, b = SingleSeat(), SingleSeat()
    obs_a, info_a = a.reset(seed=9)
    obs_b, info_b = b.reset(seed=9)
    np.testing.assert_array_equal(obs_a, obs_b)
    assert info_a == info_b
    assert_same_steps(a, b)


def test_opponents_get_their_observation_and_mask():
    calls: list[tuple[int, int]] = []

    class Recorder:
        def __init__(self, offset: int) -> None:
            self.offset, self.random = offset, RandomAgent()
            self.random.reset(offset)

        def __call__(self, observation, action_mask):
            assert observation["observation"].shape == (OBS_SIZE,)
            assert np.array_equal(observation["action_mask"], action_mask)
            calls.append((self.offset, int(np.flatnonzero(observation["observation"][:6])[0])))
            return self.random(observation, action_mask)

    env = SingleSeat([Recorder(1), Recorder(2), Recorder(3)], seat=0)
    env.reset(seed=2)
    for _ in range(30):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert {offset for offset, _ in calls} == {1, 2, 3}
    with pytest.raises(ValueError, match=r"opponents=.*expected None, one opponent, or 3"):
        SingleSeat([RandomAgent(), RandomAgent()])


def test_an_opponent_is_an_agent_of_the_protocol_or_a_policy():
    class NoSpec:  # acts like an agent but is not one: no spec, and not callable
        uses_search = False

        def reset(self, seed: int) -> None: ...

        def act(self, turn: Turn) -> int:
            return turn.legal_actions[0]

    with pytest.raises(ValueError, match=r"an agent \(spec, uses_search, reset\(seed\), act"):
        SingleSeat(NoSpec())  # type: ignore[arg-type]


def test_the_random_agent_as_a_policy_draws_what_it_draws_as_an_agent():
    agent, policy = RandomAgent(), RandomAgent()
    agent.reset(8)
    policy.reset(8)
    state = new_game(3)
    for _ in range(200):
        turn = Turn(state, state.current_player)
        chosen = agent.act(turn)
        assert policy({"action_mask": turn.action_mask}, turn.action_mask) == chosen
        apply(state, chosen)
    with pytest.raises(ValueError, match="allows no action"):
        policy({}, np.zeros(131, dtype=np.int8))


def test_illegal_actions_terminate_or_raise():
    env = SingleSeat(illegal_reward=-7.0)
    env.reset(seed=3)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-7.0, True, False, illegal)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(illegal)
    strict = SingleSeat(illegal_action="raise")
    strict.reset(seed=3)
    with pytest.raises(IllegalActionError):
        strict.step(int(np.flatnonzero(~strict.action_masks())[0]))


def test_pickle_round_trip_mid_episode():
    env = SingleSeat(RandomAgent())
    env.reset(seed=6)
    for _ in range(25):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    copy = pickle.loads(pickle.dumps(env))
    assert_same_steps(env, copy)


def test_subproc_vec_env_runs_copies():
    from stable_baselines3.common.vec_env import SubprocVecEnv

    vec = SubprocVecEnv([SingleSeat, SingleSeat], start_method="fork")
    try:
        vec.seed(0)
        obs = vec.reset()
        assert isinstance(obs, np.ndarray) and obs.shape == (2, OBS_SIZE)
        for _ in range(5):
            masks = np.stack(vec.env_method("action_masks"))
            actions = [int(np.flatnonzero(m)[0]) for m in masks]
            obs, _rewards, _dones, _infos = vec.step(np.array(actions))
        assert isinstance(obs, np.ndarray) and obs.shape == (2, OBS_SIZE)
    finally:
        vec.close()


def test_maskable_ppo_smoke():
    """MaskablePPO learns for a few hundred steps through SingleSeat (smoke only)."""
    torch = pytest.importorskip("torch")
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import Logger

    torch.set_num_threads(1)
    env = SingleSeat(seat=0)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0, device="cpu",
        policy_kwargs={"net_arch": [32]},
    )  # fmt: skip
    model.set_logger(Logger(folder=None, output_formats=[]))  # SB3's default makes /tmp/SB3-*
    model.learn(total_timesteps=128)
    obs, _info = env.reset(seed=1)
    action, _state = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[int(action)]
