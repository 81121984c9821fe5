"""Shared by the ``test_training_*`` files: tiny budgets that run in seconds."""

from __future__ import annotations

from pathlib import Path

from training.ppo_selfplay import load_config, train
from training.run import TrainResult

TINY = (
    "total_timesteps=256",
    "n_envs=2",
    "vec_env=dummy",
    "n_steps=64",
    "batch_size=64",
    "n_epochs=1",
    "eval_every=0",
    "checkpoint_every=128",
    "snapshot_every=128",
    "stats_window=10",
)
"""``--set`` overrides that make any preset a few-second smoke run."""


def tiny_run(out: Path, preset: str = "tiny", *extra: str) -> TrainResult:
    """Train ``preset`` with the :data:`TINY` budget (and ``extra``) into ``out``."""
    return train(load_config(preset, (*TINY, *extra)), out)
