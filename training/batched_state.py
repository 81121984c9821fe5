"""What a checkpoint of the batched trainer holds, and how it is written and read.

A checkpoint directory (made whole or not at all by
:class:`~training.checkpoint.CheckpointDirectory`) holds ``state.safetensors``
— everything that learns: the actor and critic's weights and Adam's moments —
and ``state.json`` (which records the tensors' SHA-256): the counters, the
best evaluation so far, the pool's snapshot steps and both generators (the
trainer's and torch's), so a resumed run goes on drawing where it stopped.

The games in play are not saved: a resumed run deals every game a new match,
and the decisions still open at the checkpoint (waiting for the rest of their
vòng's points) are dropped, never trained; with ``overlap``, so is the
rollout played during the last update, and a resumed run seeds the rollout's
own generators from (seed, the updates at the checkpoint). With rollout workers
(``rollout_workers`` > 0), whose games and generators live in other
processes, the same holds, and a resumed run seeds worker ``k`` from (seed,
``k``, the updates at the checkpoint): reproducible, though not the draws an
uninterrupted run would have made.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import torch
from torch import nn

from training.checkpoint import (
    CorruptCheckpointError,
    StateFiles,
    optimizer_slots,
    optimizer_tensors,
    read_state,
    write_state,
)
from training.run import RunDirectory

STATE = StateFiles("state.safetensors", "state.json")
"""The checkpoint's tensors (``model.*``: actor and critic; ``adam.<param>.<key>``) and
its counters, best evaluation, pool and generators, with the tensors' SHA-256
(:func:`training.checkpoint.write_state`, the SB3 trainer's format too)."""


class Learner(Protocol):
    """What a checkpoint saves of :class:`training.batched_ppo.Learner`."""

    config: Any
    rng: np.random.Generator
    pool: list[int]
    steps: int
    updates: int
    wall_seconds: float

    @property
    def model(self) -> nn.Module:
        """The actor and the critic."""

    @property
    def optimizer(self) -> torch.optim.Optimizer:
        """Their Adam."""

    def put_in_play(self, steps: list[int]) -> None:
        """Put the pool snapshots saved at ``steps`` in play."""


def state_tensors(model: nn.Module, optimizer: torch.optim.Optimizer) -> dict[str, torch.Tensor]:
    """Everything that learns, as named CPU tensors (the model's weights, Adam's state)."""
    tensors = {f"model.{k}": v.detach().cpu().contiguous() for k, v in model.state_dict().items()}
    return {**tensors, **optimizer_tensors(optimizer, "adam")}


def load_state_tensors(
    model: nn.Module, optimizer: torch.optim.Optimizer, tensors: dict[str, torch.Tensor]
) -> None:
    """Restore :func:`state_tensors` (raises ``KeyError``/``RuntimeError`` on a misfit)."""
    model.load_state_dict({k[6:]: v for k, v in tensors.items() if k.startswith("model.")})
    saved = optimizer.state_dict()
    saved["state"] = optimizer_slots(tensors, "adam")
    optimizer.load_state_dict(saved)


def save_checkpoint(learner: Learner, files: RunDirectory, best: float, elapsed: float) -> Path:
    """A resumable checkpoint of ``learner`` at its step; returns its directory."""

    def write(directory: Path) -> None:
        state = {
            "steps": learner.steps,
            "updates": learner.updates,
            "wall_seconds": elapsed,
            "best": best if math.isfinite(best) else None,
            "pool": list(learner.pool),
            "rng": learner.rng.bit_generator.state,
            "torch_rng": torch.get_rng_state().tolist(),
        }
        write_state(directory, state_tensors(learner.model, learner.optimizer), state, STATE)

    return files.checkpoints.save(learner.steps, write, learner.config.keep_checkpoints)


def restore(learner: Learner, directory: Path, step: int) -> float:
    """Load the checkpoint of ``step`` in ``directory`` into ``learner`` (a
    :class:`~training.checkpoint.CorruptCheckpointError` names what is wrong);
    returns the best evaluation so far."""
    state, tensors = read_state(directory, STATE)
    try:
        load_state_tensors(learner.model, learner.optimizer, tensors)
        if int(state["steps"]) != step:
            raise ValueError(f"steps is {state['steps']}, not the {step} of its directory's name")
    except (ValueError, KeyError, RuntimeError) as error:
        raise CorruptCheckpointError(f"{directory}: cannot be loaded ({error})") from None
    learner.steps = int(state["steps"])
    learner.updates = int(state["updates"])
    learner.wall_seconds = float(state["wall_seconds"])
    learner.rng.bit_generator.state = state["rng"]
    torch.set_rng_state(torch.tensor(state["torch_rng"], dtype=torch.uint8))
    learner.put_in_play([int(snap) for snap in state["pool"]])
    return float(state["best"]) if state["best"] is not None else -math.inf
