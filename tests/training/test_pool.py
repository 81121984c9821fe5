"""training.pool: the on-disk snapshot pool and the per-episode opponent draw."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from agents.ppo import PolicyAgent, PolicyNetwork, save_policy
from env121.envs.single_seat import SingleSeat
from env121.envs.vector import VectorSingleSeat
from training.pool import (
    MANIFEST,
    BatchedMixture,
    MixtureOpponent,
    OpponentMixture,
    SnapshotPool,
    read_manifest,
)
from training.ppo_selfplay import load_config, make_vec_env


def add_snapshot(pool: SnapshotPool, step: int, reason: str = "schedule") -> None:
    network = PolicyNetwork([4])
    save_policy(pool.path(f"snap_{step:012d}"), network.state_dict(), [4], "tanh")
    pool.add(step, reason)


def draws(opponent: MixtureOpponent, episodes: int) -> Counter[str]:
    counts: Counter[str] = Counter()
    for seed in range(episodes):
        opponent.reset(seed)
        counts[opponent.label] += 1
    return counts


def test_the_pool_keeps_the_newest_snapshots_in_its_manifest(tmp_path):
    pool = SnapshotPool(tmp_path, max_size=2)
    for step in (0, 100, 200):
        add_snapshot(pool, step)
    snapshots, retired = read_manifest(tmp_path)
    assert [s.step for s in snapshots] == [100, 200]
    assert [s.step for s in retired] == [0]
    assert SnapshotPool(tmp_path, max_size=2).snapshots == snapshots  # read back on restart
    with pytest.raises(FileNotFoundError, match="snap_000000000300"):
        pool.add(300, "schedule")  # its weights were never written


def test_rolling_back_forgets_the_snapshots_after_a_step_and_brings_back_the_retired(tmp_path):
    pool = SnapshotPool(tmp_path, max_size=2)
    for step in (0, 100, 200, 300):
        add_snapshot(pool, step)
    pool.roll_back(150)  # a run resumed from its checkpoint of step 150
    snapshots, retired = read_manifest(tmp_path)
    assert [s.step for s in snapshots] == [0, 100] and retired == []
    add_snapshot(pool, 200)
    assert [s.step for s in read_manifest(tmp_path)[0]] == [100, 200]


def test_an_empty_pool_gives_its_weight_to_the_other_opponents(tmp_path):
    mixture = OpponentMixture({"pool": 0.5, "random": 0.5}, tmp_path)
    assert draws(MixtureOpponent(mixture), 20) == Counter({"random": 20})


def test_seats_draw_snapshots_and_built_ins_by_weight_and_see_new_snapshots(tmp_path):
    pool = SnapshotPool(tmp_path, max_size=5)
    add_snapshot(pool, 0, "initial")
    mixture = OpponentMixture({"pool": 0.75, "random": 0.25}, tmp_path)
    opponent = MixtureOpponent(mixture)
    counts = draws(opponent, 400)
    assert set(counts) == {"pool:snap_000000000000", "random"}
    assert counts["random"] == pytest.approx(100, abs=30)
    add_snapshot(pool, 512)  # the trainer adds one: the next reset sees it
    counts = draws(opponent, 400)
    assert counts["pool:snap_000000000000"] == pytest.approx(150, abs=35)
    assert counts["pool:snap_000000000512"] == pytest.approx(150, abs=35)
    opponent.reset(7)
    assert draws(opponent, 50) == draws(MixtureOpponent(mixture), 50)  # seeded


def test_snapshot_seats_play_legal_actions_in_a_single_seat_env(tmp_path):
    pool = SnapshotPool(tmp_path, max_size=5)
    add_snapshot(pool, 0, "initial")
    mixture = OpponentMixture({"pool": 1.0}, tmp_path)
    opponents = [MixtureOpponent(mixture) for _ in range(3)]
    env = SingleSeat(opponents)
    env.reset(seed=0)
    assert all(isinstance(o.agent, PolicyAgent) for o in opponents)
    rng = np.random.default_rng(0)
    for _ in range(200):  # an illegal opponent action would raise
        legal = np.flatnonzero(env.action_masks())
        *_, terminated, _truncated, _info = env.step(int(legal[rng.integers(len(legal))]))
        if terminated:
            env.reset()


@pytest.mark.parametrize(
    "weights",
    [{}, {"pool": 0.0}, {"random": -1.0}, {"random": "a lot"}],
)
def test_bad_weights_are_named(weights, tmp_path):
    with pytest.raises(ValueError, match="opponent_weights"):
        OpponentMixture(weights, tmp_path)


def test_a_bad_agent_spec_fails_when_the_mixture_is_built(tmp_path):
    with pytest.raises(ValueError, match="no agent named 'nobody'"):
        OpponentMixture({"nobody": 1.0}, tmp_path)


def test_the_manifest_is_plain_json(tmp_path):
    pool = SnapshotPool(tmp_path, max_size=3)
    add_snapshot(pool, 64, "beat_pool")
    manifest = json.loads((tmp_path / MANIFEST).read_text())
    assert manifest["snapshots"] == [
        {"name": "snap_000000000064", "step": 64, "reason": "beat_pool"}
    ]


def test_subprocess_environments_pick_up_snapshots_added_later(tmp_path):
    config = load_config("tiny", ["n_envs=1", "vec_env=subproc", "opponent_weights={pool: 1.0}"])
    env = make_vec_env(config, tmp_path)  # the pool is still empty: its seats play random
    try:
        env.reset()
        add_snapshot(SnapshotPool(tmp_path, max_size=3), 640)
        labels: list[set[str]] = []
        rng = np.random.default_rng(0)
        while len(labels) < 2:  # the episode under way, then one drawn after the snapshot
            mask = env.env_method("action_masks")[0]
            legal = np.flatnonzero(mask)
            _obs, _rewards, dones, infos = env.step(np.array([legal[rng.integers(len(legal))]]))
            if dones[0]:
                labels.append({label for label, _ in infos[0]["learner_stats"]["head_to_head"]})
    finally:
        env.close()
    assert labels == [{"random"}, {"pool:snap_000000000640"}]


def test_the_batched_mixture_draws_per_match_and_seat(tmp_path):
    pool = SnapshotPool(tmp_path, max_size=5)
    add_snapshot(pool, 0, "initial")
    weights = {"pool": 0.5, "random": 0.5}
    mixture = BatchedMixture(OpponentMixture(weights, tmp_path))
    env = VectorSingleSeat(16, mixture, starting_points=30)  # short matches
    env.reset(seed=3)
    drawn = mixture.labels.copy()
    assert {mixture.names[c] for c in drawn.ravel()} == {"pool:snap_000000000000", "random"}
    seeds = env.engine.games["seed"].copy()
    rng = np.random.default_rng(0)
    redrawn = 0
    for _ in range(300):  # an illegal opponent action would raise
        masks = env.action_masks()
        env.step(np.array([rng.choice(np.flatnonzero(mask)) for mask in masks]))
        mixture.refresh(env.engine)
        changed = env.engine.games["seed"] != seeds
        assert (mixture.labels[~changed] == drawn[~changed]).all()  # kept for the whole match
        redrawn += int((mixture.labels[changed] != drawn[changed]).any(axis=1).sum())
        drawn, seeds = mixture.labels.copy(), env.engine.games["seed"].copy()
    assert redrawn >= 5
    again = BatchedMixture(OpponentMixture(weights, tmp_path))
    VectorSingleSeat(16, again, starting_points=30).reset(seed=3)
    env.reset(seed=3)
    assert [again.names[c] for c in again.labels.ravel()] == [
        mixture.names[c] for c in mixture.labels.ravel()
    ]  # seeded
