"""VectorSingleSeat: every game is what SingleSeat is for its match, in lock-step.

The batched games are played with random learners; then every match each
game played is played again by :class:`~env121.envs.single_seat.SingleSeat`
on the reference engine, dealt from the same seed with the learner in the
same seat, its opponents replaying the batched opponents' choices (read off
the game's record) or, for ``ppo``, the reference agent choosing for itself.
At every learner step the action mask, observation, reward, termination and
info must be the ones the vector environment gave; at a match's end its
``final_obs`` and ``final_info``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import DictInfoToList

import env121
from agents.batched_ppo import BatchedPPO
from agents.environments import VectorSingleSeat
from agents.ppo import PPOAgent
from agents.spec import AgentSpecError
from env121.engine.actions import THE_TRANG
from env121.engine.game import IllegalActionError
from env121.engine.state import Phase
from env121.envs import vector
from env121.envs.single_seat import Opponent, SingleSeat
from env121.play.batched_policy import BatchedPolicy, BatchedRandom, TurnByTurn
from env121.play.observation import OBS_SIZE, PHASES, views

SINGLE_SEAT_ID = "env121/SingleSeat-v1"
FINAL_KEYS = ("final_obs", "final_info")


@dataclasses.dataclass
class Episode:
    """One match of one batched game as its learner saw it."""

    seat: int
    observation: np.ndarray
    info: dict[str, Any]
    steps: list[tuple[np.ndarray, int, np.ndarray, float, bool, dict[str, Any]]]
    """(action mask, action, observation, reward, terminated, info) of each learner step."""
    record: dict[str, Any] | None = None


def play_batched(
    num_envs: int,
    steps: int,
    opponents: BatchedPolicy | str | None = None,
    seed: int = 11,
    **kwargs: Any,
) -> list[list[Episode]]:
    """Random learners in ``num_envs`` games for ``steps`` steps: each game's episodes."""
    base = VectorSingleSeat(num_envs, opponents, **kwargs)
    envs = DictInfoToList(base)
    reset: tuple[Any, ...] = envs.reset(seed=seed)
    obs, infos = reset
    games = [[Episode(int(infos[g]["seat"]), obs[g], infos[g], [])] for g in range(num_envs)]
    rng = np.random.default_rng(5)
    for _ in range(steps):
        masks = base.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        step: tuple[Any, ...] = envs.step(actions)
        obs, rewards, terminated, truncated, infos = step
        assert not truncated.any()
        for g, episodes in enumerate(games):
            episode, info = episodes[-1], infos[g]
            if not terminated[g]:
                assert not set(FINAL_KEYS) & set(info)
                episode.steps.append((masks[g], actions[g], obs[g], rewards[g], False, info))
                continue
            final_obs, final_info = info.pop("final_obs"), info.pop("final_info")
            episode.steps.append((masks[g], actions[g], final_obs, rewards[g], True, final_info))
            episode.record = base.engine.final_record(g)
            episodes.append(Episode(int(info["seat"]), obs[g], info, []))
    for g, episodes in enumerate(games):
        episodes[-1].record = base.engine.record(g)
    return games


class _MatchSeed:
    """SingleSeat's generator, standing in to draw the seed the batched game played."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def integers(self, high: int) -> int:
        return self.seed


def replay(episode: Episode, opponents: Opponent | None = None, **kwargs: Any) -> None:
    """Play ``episode``'s match in SingleSeat and check every learner step against it.
    Without ``opponents`` they replay the record's actions."""
    assert episode.record is not None
    actions: Iterator[int] = iter(episode.record["actions"])
    scripted = opponents is None

    def replayed(observation: dict[str, np.ndarray], mask: np.ndarray) -> int:
        return next(actions)

    kwargs = {**kwargs, "seat": episode.seat}
    single = SingleSeat(replayed if opponents is None else opponents, **kwargs)
    single.np_random = _MatchSeed(episode.record["seed"])  # type: ignore[assignment]
    obs, info = single.reset()
    np.testing.assert_array_equal(obs, episode.observation)
    assert info == episode.info
    for mask, action, expected_obs, expected_reward, expected_end, expected_info in episode.steps:
        np.testing.assert_array_equal(single.action_masks(), mask)
        if scripted:
            assert next(actions) == action  # the learner's, between the opponents'
        obs, reward, terminated, truncated, info = single.step(action)
        np.testing.assert_array_equal(obs, expected_obs)
        assert (reward, terminated, truncated) == (expected_reward, expected_end, False)
        assert info == expected_info
    assert single.env.game.actions == episode.record["actions"]


def phase_of(observation: np.ndarray) -> Phase:
    return PHASES[int(np.argmax(views(observation)["phase"]))]


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"seat": 2, "reward_mode": "rank", "the_trang_asks_every_seat": False},
    ],
    ids=["points-any-seat", "rank-seat-2-format-1-rules"],
)
def test_every_game_is_single_seat_in_lock_step(kwargs):
    games = play_batched(6, 260, **kwargs)
    assert sum(len(episodes) - 1 for episodes in games) >= 3  # matches ended and restarted
    for episodes in games:
        for episode in episodes:
            replay(episode, **kwargs)
            if episode is not episodes[-1]:
                assert phase_of(episode.steps[-1][2]) is Phase.GAME_OVER


def test_batched_ppo_plays_what_the_ppo_agent_plays():
    for episodes in play_batched(4, 60, BatchedPPO("small")):
        for episode in episodes:
            replay(episode, PPOAgent("small"))


class DeclaresTheTrang(BatchedRandom):
    """Random, except that it declares Thế trắng whenever it may."""

    def act(self, engine, indices):
        actions = super().act(engine, indices)
        may = [THE_TRANG in engine.legal_actions(g) for g in indices]
        return np.where(may, THE_TRANG, actions)


def test_rewards_earned_before_the_learners_first_action_come_with_its_first_step():
    """Seat 0 is asked about Thế trắng first: where it declares, the learner
    (seat 1) is paid before it ever acts in that match, at the reset or in
    the step that ended the last match (50 starting points: the second payment
    busts a seat, so matches are short). SingleSeat gives that with the
    learner's first step, and so must every game here."""
    games = play_batched(32, 100, DeclaresTheTrang(), seed=1, seat=1, starting_points=50)
    paid = [(i, e) for game in games for i, e in enumerate(game) if "vong_results" in e.info]
    assert any(i > 0 for i, _ in paid) and any(i == 0 for i, _ in paid)  # after the reset, too
    for _, episode in paid:
        assert episode.info["vong_results"][0]["outcome"] == "the_trang"
        assert episode.steps[0][3] != 0.0
    for episodes in games:
        for episode in episodes:
            replay(episode, seat=1, starting_points=50)


def test_the_same_seed_plays_the_same_games():
    runs = []
    for _ in range(2):
        envs = VectorSingleSeat(8, reward_mode="rank", num_van=1, starting_points=50)
        obs, infos = envs.reset(seed=3)
        trace = [obs, infos["seat"]]
        for _ in range(40):
            masks = envs.action_masks()
            obs, rewards, terminated, _, infos = envs.step(masks.argmax(axis=1))
            trace += [obs, rewards, terminated, infos["seat"]]
        runs.append(trace)
    assert all(np.array_equal(a, b) for a, b in zip(*runs, strict=True))
    assert any(t.dtype == bool and t.any() for t in runs[0][2:])  # matches ended on the way


def test_spaces_masks_and_fresh_arrays():
    envs = VectorSingleSeat(5, seat=3)
    single = SingleSeat(seat=3)
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    obs, infos = envs.reset(seed=2)
    assert obs.shape == (5, OBS_SIZE) and obs.dtype == np.float32
    assert envs.observation_space.contains(obs)
    assert list(infos["seat"]) == [3] * 5 and list(infos["agent"]) == ["player_3"] * 5
    masks = envs.action_masks()
    assert masks.shape == (5, 131) and masks.dtype == bool
    for g in range(5):
        assert envs.engine.to_act[g] == 3
        assert np.flatnonzero(masks[g]).tolist() == envs.engine.legal_actions(g)
    obs2, *_ = envs.step(masks.argmax(axis=1))
    assert not np.shares_memory(obs, obs2)  # users keep what they are given
    envs.reset(seed=2, options={"rotation": 1})
    assert envs.engine.games["rotation"].tolist() == [1] * 5
    with pytest.raises(ValueError, match=r"options \['first_deal'\] are not valid"):
        envs.reset(options={"first_deal": None})
    with pytest.raises(ValueError, match="does not render"):
        VectorSingleSeat(2, render_mode="ansi")


def test_bad_actions_raise_one_error_naming_the_game():
    envs = VectorSingleSeat(4, seat=0)
    with pytest.raises(RuntimeError, match="reset"):
        envs.step(np.zeros(4, dtype=np.int64))
    envs.reset(seed=0)
    actions = envs.action_masks().argmax(axis=1)
    illegal = actions.copy()
    illegal[2] = np.flatnonzero(~envs.action_masks()[2])[0]
    with pytest.raises(IllegalActionError, match=r"^game 2: illegal action"):
        envs.step(illegal)
    outside = actions.copy()
    outside[1] = -1
    with pytest.raises(ValueError, match=r"game 1: action -1 is not an action id: expected 0\.\.1"):
        envs.step(outside)
    with pytest.raises(ValueError, match="actions must be 4 integer action ids"):
        envs.step(actions[:3])
    envs.step(actions)  # nothing moved: the legal actions still are


def test_all_of_the_learners_reward_reaches_it():
    """Each match's rewards, summed from its first step to the step that ends
    it (the SAME_STEP autoreset), are the learner's standing / 100."""
    envs = VectorSingleSeat(16, starting_points=50)
    envs.reset(seed=4)
    totals = np.zeros(16)
    ended = 0
    for _ in range(60):
        step: tuple[Any, ...] = envs.step(envs.action_masks().argmax(axis=1))
        _, rewards, terminated, _, infos = step
        totals += rewards
        for g in np.flatnonzero(terminated).tolist():
            agent = infos["final_info"]["agent"][g]
            standing = infos["final_info"]["match"]["standings"][agent][g]
            assert totals[g] == pytest.approx(standing / 100)
            totals[g] = 0.0
            ended += 1
    assert ended >= 10


def test_make_vec_builds_it_from_the_registry():
    gym.register_envs(env121)
    envs = gym.make_vec(
        SINGLE_SEAT_ID, num_envs=3, vectorization_mode="vector_entry_point", opponents="random"
    )
    assert isinstance(envs, vector.VectorSingleSeat) and envs.num_envs == 3
    assert envs.spec is not None and envs.spec.id == SINGLE_SEAT_ID
    assert isinstance(gym.make_vec(SINGLE_SEAT_ID, num_envs=2, seat=1), vector.VectorSingleSeat)
    assert envs.reset(seed=0)[0].shape == (3, OBS_SIZE)
    with pytest.raises(AgentSpecError, match=r"no agent named 'gredy'.*'greedy'"):
        gym.make_vec(SINGLE_SEAT_ID, num_envs=2, opponents="gredy")
    with pytest.raises(AgentSpecError, match=r"agent 'oracle' .* has no batched policy"):
        gym.make_vec(SINGLE_SEAT_ID, num_envs=2, opponents=["random", "oracle", "random"])
    hinted = gym.make_vec(SINGLE_SEAT_ID, num_envs=2, opponents="ppo:hinted")  # turn by turn
    assert all(isinstance(o, TurnByTurn) for o in hinted.unwrapped.opponents)
    with pytest.raises(ValueError, match=r"opponents='random' is not valid here"):
        vector.VectorSingleSeat(2, "random")  # type: ignore[arg-type]
