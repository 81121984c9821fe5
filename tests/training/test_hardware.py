"""Where the trainers run: the ``device`` setting, the one thread setting
(``ENV121_THREADS``) and the batched trainer on a GPU (skipped without one)."""

from __future__ import annotations

import os

import pytest
import safetensors.torch
import torch

from agents.ppo import load_policy
from env121.engine.batched.threads import (
    THREADS_VARIABLE,
    SliceThreads,
    default_threads,
    resolve_threads,
    usable_cores,
)
from tests.support.training_helpers import tiny_run
from training import batched_ppo, ppo_selfplay, settings
from training.batched_ppo import Learner
from training.batched_state import load_state_tensors, state_tensors
from training.hardware import busy_note, resolve_device, use_threads


def gpus(monkeypatch: pytest.MonkeyPatch, count: int) -> None:
    """Make torch report ``count`` GPUs."""
    monkeypatch.setattr(torch.cuda, "is_available", lambda: count > 0)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: count)


@pytest.mark.parametrize(
    ("count", "device", "expected"),
    [
        (0, "auto", "cpu"),
        (0, "cpu", "cpu"),
        (1, "auto", "cuda"),
        (1, "cpu", "cpu"),
        (1, "cuda", "cuda:0"),
        (2, "cuda:1", "cuda:1"),
    ],
)
def test_auto_takes_a_gpu_when_torch_sees_one(monkeypatch, count, device, expected):
    gpus(monkeypatch, count)
    resolved = resolve_device(device)
    assert resolved.type == expected.partition(":")[0]
    if ":" in expected:
        assert resolved.index == int(expected.partition(":")[2])


@pytest.mark.parametrize(
    ("count", "device", "message"),
    [
        (0, "cuda", r"torch sees no GPU on this machine \(expected auto or cpu\)$"),
        (0, "cuda:0", r"torch sees no GPU"),
        (1, "cuda:1", r"torch sees 1 GPU on this machine \(expected auto or cpu, or cuda:0"),
        (1, "gpu", r"expected auto, cpu, cuda or cuda:N$"),
        (1, "CUDA", r"expected auto, cpu, cuda or cuda:N$"),
        (1, "cuda:x", r"expected auto, cpu, cuda or cuda:N$"),
    ],
)
def test_a_device_the_machine_lacks_is_one_line_naming_it(monkeypatch, count, device, message):
    gpus(monkeypatch, count)
    with pytest.raises(ValueError, match=rf"^device='{device}' is not valid: .*{message}"):
        resolve_device(device)


@pytest.mark.parametrize("config_class", [batched_ppo.Config, ppo_selfplay.Config])
def test_both_trainers_check_their_device(monkeypatch, config_class):
    gpus(monkeypatch, 0)
    with pytest.raises(ValueError, match=r"^device='cuda' is not valid: torch sees no GPU"):
        settings.from_dict(config_class, {"device": "cuda"})
    assert settings.from_dict(config_class, {"device": "cpu"}).device == "cpu"


def test_env121_threads_sets_every_default_count(monkeypatch):
    monkeypatch.setenv(THREADS_VARIABLE, "3")
    assert default_threads() == 3
    assert SliceThreads(None, min_per_thread=1).threads == 3
    assert resolve_threads(0) == 3
    assert resolve_threads(5) == 5
    torch_threads = torch.get_num_threads()
    try:
        assert use_threads(0) == 3
        assert torch.get_num_threads() == 3
    finally:
        torch.set_num_threads(torch_threads)
    monkeypatch.delenv(THREADS_VARIABLE)
    assert default_threads() == usable_cores() >= 1


@pytest.mark.parametrize("text", ["0", "-1", "two", "1.5"])
def test_a_bad_env121_threads_is_one_line_naming_it(monkeypatch, text):
    monkeypatch.setenv(THREADS_VARIABLE, text)
    with pytest.raises(ValueError, match=rf"^ENV121_THREADS='{text}' is not valid: expected a"):
        default_threads()


def test_the_batched_trainer_takes_its_threads_from_the_one_setting(monkeypatch, tmp_path):
    monkeypatch.setenv(THREADS_VARIABLE, "1")
    config = settings.from_dict(
        batched_ppo.Config, {"num_games": 8, "inputs": "observation", "hint_head": False}
    )
    torch_threads = torch.get_num_threads()
    try:
        learner = Learner(config, tmp_path)
        assert learner.threads == torch.get_num_threads() == 1
        assert learner.rollout is not None and learner.rollout.engine._threads.threads == 1
    finally:
        torch.set_num_threads(torch_threads)
    with pytest.raises(ValueError, match=r"^threads=-1 is not valid: expected an integer >= 0$"):
        settings.from_dict(batched_ppo.Config, {"threads": -1})


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no GPU: torch sees no CUDA device")
def test_the_batched_trainer_learns_on_a_gpu_and_saves_cpu_tensors(tmp_path):
    config = settings.from_dict(
        batched_ppo.Config,
        {
            "device": "cuda",
            "num_games": 64,
            "rollout_steps": 16,
            "inputs": "observation+swap_wins",
            "minibatch_size": 256,
            "hidden_sizes": [32],
        },
    )
    learner = Learner(config, tmp_path)
    assert next(learner.model.parameters()).is_cuda
    learner.start()
    stats = learner.rollout_and_update(1.0)
    assert stats["samples"] > 0
    learner.add_snapshot()
    assert learner.rollout is not None
    assert next(learner.rollout.pool[0].network.parameters()).is_cuda
    assert all(
        t.device.type == "cpu" for t in state_tensors(learner.model, learner.optimizer).values()
    )
    path = learner.save_actor(tmp_path / "policy.safetensors", {})
    assert all(t.device.type == "cpu" for t in safetensors.torch.load_file(str(path)).values())
    network, _ = load_policy(path)
    assert next(network.parameters()).device.type == "cpu"
    fresh = Learner(config, tmp_path / "fresh")
    load_state_tensors(
        fresh.model, fresh.optimizer, state_tensors(learner.model, learner.optimizer)
    )
    learner.rollout_and_update(1.0)  # the restored optimiser steps on the GPU too
    fresh.start()
    fresh.rollout_and_update(1.0)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no GPU: torch sees no CUDA device")
def test_the_sb3_trainer_learns_on_a_gpu_and_exports_cpu_tensors(tmp_path):
    result = tiny_run(tmp_path / "run", "tiny", "device=cuda")
    assert result.num_timesteps >= 256
    tensors = safetensors.torch.load_file(str(result.policy))
    assert tensors and all(t.device.type == "cpu" for t in tensors.values())
    network, _ = load_policy(result.policy)
    assert next(network.parameters()).device.type == "cpu"


def test_a_busy_machine_gets_one_line_naming_the_setting(monkeypatch):
    monkeypatch.delenv(THREADS_VARIABLE, raising=False)
    cores = usable_cores()
    monkeypatch.setattr(os, "getloadavg", lambda: (cores + 1.0, 0.0, 0.0))
    note = busy_note(2)
    assert note is not None and "set ENV121_THREADS to the cores that are yours" in note
    assert busy_note(1) is None  # one thread waits on no other
    monkeypatch.setenv(THREADS_VARIABLE, "2")
    assert busy_note(2) is None  # the user chose
    monkeypatch.delenv(THREADS_VARIABLE)
    monkeypatch.setattr(os, "getloadavg", lambda: (cores - 1.0, 0.0, 0.0))
    assert busy_note(2) is None
