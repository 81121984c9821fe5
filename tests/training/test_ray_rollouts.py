"""The batched trainer's rollouts on Ray actors (:mod:`training.ray_rollouts`):
two workers on a local 2-CPU cluster on 127.0.0.1 (:mod:`tests.support.ray_cluster`)
train, each sends decisions of its own games, the pool reaches them, a seed
replays a run, and the command trains, resumes and refuses a cluster too small.
Without the ``ray`` extra these tests are skipped, but for the one of the
line that names it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
import torch

from apps.cli.app import main
from tests.support.ray_cluster import local_cluster, needs_ray, one_cluster_at_a_time
from tests.training.test_batched_ppo import TINY, tiny_config
from training.batched_ppo import Learner

pytestmark = one_cluster_at_a_time

WORKERS = ["rollout_workers=2", "worker_cpus=1", "threads=1"]


@pytest.fixture(scope="module")
def cluster() -> Iterator[ModuleType]:
    with local_cluster() as ray:
        yield ray


def workers_config(**changes: object):
    values: dict[str, object] = {"rollout_workers": 2, "threads": 1, "num_games": 16}
    values.update(changes)
    return tiny_config(rollout_steps=8, **values)


def trained_weights(config, pool: Path, updates: int) -> list[torch.Tensor]:
    learner = Learner(config, pool)
    try:
        learner.start()
        for _ in range(updates):
            learner.rollout_and_update(1.0)
        return [p.detach().clone() for p in learner.model.parameters()]
    finally:
        learner.close()


@needs_ray
def test_two_workers_train_and_each_sends_decisions_of_its_own_games(cluster, tmp_path):
    learner = Learner(workers_config(), tmp_path)
    try:
        workers = learner.workers
        assert learner.rollout is None and workers is not None and learner.games == 32
        learner.start()
        before = [p.detach().clone() for p in learner.model.parameters()]
        for update in range(2):
            stats = learner.rollout_and_update(1.0)
            counts = workers.decisions_per_worker
            assert len(counts) == 2 and min(counts) > 0
            assert stats["samples"] == sum(counts) and np.isfinite(stats["policy_loss"])
            assert 0 < stats["worker_seconds"] <= stats["simulate_seconds"]
            assert learner.steps == (update + 1) * 8 * 32
        after = list(learner.model.parameters())
        assert any(not torch.equal(a, b) for a, b in zip(before, after, strict=True))
        # the workers' games differ (seeded from (seed, k)): their first inputs are not the same
        weights = {k: v.numpy() for k, v in learner.model.state_dict().items()}
        parts = cluster.get([w.play.remote(weights) for w in workers.workers])
        assert not np.array_equal(parts[0][0]["inputs"][:4], parts[1][0]["inputs"][:4])
    finally:
        learner.close()


@needs_ray
def test_the_pool_snapshots_reach_every_worker(cluster, tmp_path):
    learner = Learner(workers_config(table_weights={"pool": 1.0}), tmp_path)
    assert learner.workers is not None
    try:
        learner.start()
        actors = learner.workers.workers
        learner.rollout_and_update(1.0)
        learner.add_snapshot()
        pools = cluster.get(
            [w.__ray_call__.remote(lambda worker: len(worker.rollout.pool)) for w in actors]
        )
        assert pools == [1, 1] and learner.pool == [learner.steps]
        learner.start()  # every new table now seats the snapshot
        tables = cluster.get(
            [
                w.__ray_call__.remote(lambda worker: sorted(set(worker.rollout.opponent.tolist())))
                for w in actors
            ]
        )
        assert tables == [[2], [2]]
        assert learner.rollout_and_update(1.0)["samples"] > 0
    finally:
        learner.close()


@needs_ray
def test_the_same_seed_trains_the_same_weights(cluster, tmp_path):
    """(That training moves the weights, and that the workers' seeds differ, the
    first test shows.)"""
    first = trained_weights(workers_config(seed=4), tmp_path / "a", 2)
    again = trained_weights(workers_config(seed=4), tmp_path / "b", 2)
    assert all(torch.equal(a, b) for a, b in zip(first, again, strict=True))


@needs_ray
def test_the_command_trains_on_workers_and_resumes(cluster, tmp_path, capsys):
    out = tmp_path / "run"
    command = ["train", "--preset", "scratch", "--no-progress", "--out", str(out), "--set"]
    assert main([*command, *TINY, *WORKERS, "total_steps=4096"]) == 0
    assert "policy: ppo:" in capsys.readouterr().out
    assert any((out / "pool").glob("snap_*.safetensors"))
    resume = ["train", "--resume", str(out), "--no-progress", "--set", "total_steps=6144"]
    assert main(resume) == 0
    progress = [json.loads(line) for line in (out / "progress.jsonl").read_text().splitlines()]
    assert progress[-1]["step"] == 6144 and all(row["samples"] > 0 for row in progress)


@needs_ray
@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("rollout_workers=3", "rollout_workers=3 with worker_cpus=1 is not valid on this Ray"),
        ("worker_cpus=0", "worker_cpus=0 is not valid: expected an integer >= 1"),
        ("rollout_workers=-1", "rollout_workers=-1 is not valid: expected an integer >= 0"),
    ],
)
def test_a_bad_worker_setting_is_one_line_and_writes_nothing(
    cluster, tmp_path, capsys, setting, message
):
    out = tmp_path / "run"
    command = ["train", "--preset", "scratch", "--no-progress", "--out", str(out), "--set"]
    assert main([*command, *TINY, *WORKERS, setting]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert not out.exists()


def test_without_ray_rollout_workers_are_one_line_naming_the_extra(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed
    out = tmp_path / "run"
    command = ["train", "--preset", "scratch", "--no-progress", "--out", str(out), "--set"]
    assert main([*command, *TINY, "rollout_workers=2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "rollout_workers=2 needs the ray extra (missing: ray)" in err
    assert not out.exists()
