"""SB3VectorSingleSeat: MaskablePPO trains on the batched vector environment."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecMonitor

from agents.environments import VectorSingleSeat
from agents.ppo import PolicyNetwork, save_policy
from env121.engine.state import Phase, SwapKind, Swapped
from env121.play.observation import OBS_SIZE, PHASES, views
from training.pool import BatchedMixture, OpponentMixture, SnapshotPool
from training.sb3_vec import SB3VectorSingleSeat
from training.stats import BatchedLearnerStats


class CheckedMasks(SB3VectorSingleSeat):
    """Checks that every mask handed out is the learner's legal actions, and
    that every action sent back is one of them."""

    def __init__(self, venv: VectorSingleSeat) -> None:
        super().__init__(venv)
        self.masks: list[np.ndarray] = []
        self.steps = 0

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any):
        masks = super().env_method(method_name, *args, indices=indices, **kwargs)
        engine = self.venv.engine
        assert (engine.to_act == self.venv.learner).all()
        for g, mask in enumerate(masks):
            assert np.flatnonzero(mask).tolist() == engine.legal_actions(g)
        self.masks = masks
        return masks

    def step_async(self, actions: np.ndarray) -> None:
        assert len(self.masks) == self.num_envs
        assert all(mask[a] for mask, a in zip(self.masks, actions, strict=True))
        self.masks = []
        self.steps += 1
        super().step_async(actions)


def test_maskable_ppo_learns_on_it_with_the_legal_actions_as_masks():
    env = CheckedMasks(VectorSingleSeat(4, opponents="random"))
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, n_epochs=1, seed=0)
    model.learn(total_timesteps=512)
    assert env.steps == 512 // 4
    assert model.num_timesteps == 512


def test_sb3_conventions_at_the_end_of_a_match():
    env = VecMonitor(SB3VectorSingleSeat(VectorSingleSeat(8, starting_points=50)))
    env.seed(6)
    obs = env.reset()
    assert isinstance(obs, np.ndarray) and obs.shape == (8, OBS_SIZE)
    assert env.unwrapped.reset_infos[0]["seat"] in range(4)
    ended = 0
    for _ in range(40):
        masks = np.stack(env.env_method("action_masks"))
        obs, rewards, dones, infos = env.step(masks.argmax(axis=1))
        assert rewards.dtype == np.float32 and dones.dtype == bool and len(infos) == 8
        for g in np.flatnonzero(dones).tolist():
            info = infos[g]
            final = info["terminal_observation"]
            assert PHASES[int(np.argmax(views(final)["phase"]))] is Phase.GAME_OVER
            assert info["TimeLimit.truncated"] is False
            standing = info["match"]["standings"][info["agent"]]
            assert info["episode"]["r"] == pytest.approx(standing / 100, abs=1e-5)
            assert set(env.unwrapped.reset_infos[g]) >= {"seat", "agent"}
            assert PHASES[int(np.argmax(views(obs[g])["phase"]))] is not Phase.GAME_OVER
            ended += 1
    assert ended >= 5


def test_seed_attributes_and_methods():
    env = SB3VectorSingleSeat(VectorSingleSeat(3))
    env.seed(9)
    first = env.reset()
    env.seed(9)
    np.testing.assert_array_equal(env.reset(), first)
    assert env.get_attr("render_mode") == [None] * 3
    assert env.has_attr("action_masks") and not env.has_attr("no_such_thing")
    assert [m.shape for m in env.env_method("action_masks", indices=[0, 2])] == [(131,)] * 2
    with pytest.raises(AttributeError, match=r"answer only env_method\('action_masks'\)"):
        env.env_method("render")
    assert env.env_is_wrapped(VecMonitor) == [False] * 3  # type: ignore[arg-type]
    env.close()


def test_batched_learner_stats_count_what_the_engine_did(tmp_path, monkeypatch):
    pool = SnapshotPool(tmp_path, max_size=2)
    save_policy(pool.path("snap_000000000000"), PolicyNetwork([4]).state_dict(), [4], "tanh")
    pool.add(0, "initial")
    mixture = BatchedMixture(OpponentMixture({"pool": 0.5, "random": 0.5}, tmp_path))
    vector = VectorSingleSeat(8, mixture, starting_points=50)
    env = BatchedLearnerStats(SB3VectorSingleSeat(vector), mixture)
    engine, engine_step = vector.engine, vector.engine.step
    # Per game, what the engine did in its match: vòng ended and the learner's Cướp.
    in_match = {"vong": np.zeros(8, dtype=int), "cuop": np.zeros(8, dtype=int)}
    reported = {"vong": 0, "cuop": 0}
    learner_acted = np.zeros(8, dtype=bool)

    def step_and_count(actions: np.ndarray) -> Any:
        learner = vector.learner.copy()
        result = engine_step(actions)
        games = engine.games
        in_match["vong"] += games["vong_ended"]
        for g in range(engine.num_games):
            in_match["cuop"][g] += sum(
                isinstance(e, Swapped) and e.kind is SwapKind.CUOP and e.seat == learner[g]
                for e in engine.events(g)
            )
        for g in np.flatnonzero(games["terminated"]).tolist():
            for name, counts in in_match.items():
                # a match its learner never acted in is not reported (VectorSingleSeat)
                reported[name] += counts[g] if learner_acted[g] else 0
                counts[g] = 0
            learner_acted[g] = False
        return result

    monkeypatch.setattr(engine, "step", step_and_count)
    env.seed(1)
    env.reset()
    rng = np.random.default_rng(1)
    summaries = []
    for _ in range(300):
        masks = env.env_method("action_masks")
        learner_acted[:] = True
        _obs, _rewards, dones, infos = env.step(
            np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        )
        summaries += [infos[g]["learner_stats"] for g in np.flatnonzero(dones)]
    assert len(summaries) >= 4
    for name, counts in in_match.items():
        assert [s[name] for s in summaries] != [0] * len(summaries)
        assert sum(s[name] for s in summaries) == reported[name]
        assert (env.counts[name] == counts).all()  # the matches under way
    labels = {label for s in summaries for label, _ in s["head_to_head"]}
    assert labels == {"pool:snap_000000000000", "random"}
