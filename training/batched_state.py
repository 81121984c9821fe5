"""What a checkpoint of the batched trainer holds, and how it is written and read.

A checkpoint directory (made whole or not at all by
:class:`~training.checkpoint.CheckpointDirectory`) holds ``state.safetensors``
— everything that learns: the actor and critic's weights and Adam's moments —
and ``state.json``: the counters, the best evaluation so far, the pool's
snapshot steps and both generators (the trainer's and torch's), so a resumed
run goes on drawing where it stopped.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import safetensors.torch
import torch
from torch import nn

from env121.engine.files import write_atomically
from training.checkpoint import CorruptCheckpointError
from training.run import RunDirectory

STATE_TENSORS = "state.safetensors"
"""The checkpoint's tensors: ``model.*`` (actor and critic), ``adam.<param>.<key>``."""
STATE_JSON = "state.json"
"""The checkpoint's counters, best evaluation, pool and generators."""


class Learner(Protocol):
    """What a checkpoint saves of :class:`training.batched_ppo.Learner`."""

    config: Any
    rng: np.random.Generator
    pool: list[tuple[int, Any]]
    pool_dir: Path
    steps: int
    updates: int
    wall_seconds: float

    @property
    def model(self) -> nn.Module:
        """The actor and the critic."""

    @property
    def optimizer(self) -> torch.optim.Optimizer:
        """Their Adam."""

    def snapshot(self, path: Path) -> Any:
        """The pool opponent saved at ``path``."""


def state_tensors(model: nn.Module, optimizer: torch.optim.Optimizer) -> dict[str, torch.Tensor]:
    """Everything that learns, as named CPU tensors (the model's weights, Adam's state)."""
    tensors = {f"model.{k}": v for k, v in model.state_dict().items()}
    for index, state in optimizer.state_dict()["state"].items():
        for key, value in state.items():
            tensors[f"adam.{index}.{key}"] = torch.as_tensor(value).clone()
    return {k: v.detach().cpu().contiguous() for k, v in tensors.items()}


def load_state_tensors(
    model: nn.Module, optimizer: torch.optim.Optimizer, tensors: dict[str, torch.Tensor]
) -> None:
    """Restore :func:`state_tensors` (raises ``KeyError``/``RuntimeError`` on a misfit)."""
    model.load_state_dict({k[6:]: v for k, v in tensors.items() if k.startswith("model.")})
    saved = optimizer.state_dict()
    params = [index for group in saved["param_groups"] for index in group["params"]]
    state: dict[int, dict[str, torch.Tensor]] = {}
    for index in params:
        entries = {
            key.split(".", 2)[2]: value
            for key, value in tensors.items()
            if key.startswith(f"adam.{index}.")
        }
        if entries:
            state[index] = entries
    saved["state"] = state
    optimizer.load_state_dict(saved)


def save_checkpoint(learner: Learner, files: RunDirectory, best: float, elapsed: float) -> Path:
    """A resumable checkpoint of ``learner`` at its step; returns its directory."""

    def write(directory: Path) -> None:
        tensors = state_tensors(learner.model, learner.optimizer)
        write_atomically(directory / STATE_TENSORS, safetensors.torch.save(tensors))
        state = {
            "steps": learner.steps,
            "updates": learner.updates,
            "wall_seconds": elapsed,
            "best": best if math.isfinite(best) else None,
            "pool": [step for step, _ in learner.pool],
            "rng": learner.rng.bit_generator.state,
            "torch_rng": torch.get_rng_state().tolist(),
        }
        write_atomically(directory / STATE_JSON, json.dumps(state) + "\n")

    return files.checkpoints.save(learner.steps, write, learner.config.keep_checkpoints)


def restore(learner: Learner, directory: Path, step: int) -> float:
    """Load the checkpoint of ``step`` in ``directory`` into ``learner`` (a
    :class:`~training.checkpoint.CorruptCheckpointError` names what is wrong);
    returns the best evaluation so far."""
    try:
        tensors = safetensors.torch.load_file(str(directory / STATE_TENSORS))
        state = json.loads((directory / STATE_JSON).read_text(encoding="utf-8"))
        load_state_tensors(learner.model, learner.optimizer, tensors)
        if int(state["steps"]) != step:
            raise ValueError(f"steps is {state['steps']}, not the {step} of its directory's name")
    except (OSError, ValueError, KeyError, RuntimeError, safetensors.SafetensorError) as error:
        raise CorruptCheckpointError(f"{directory}: cannot be loaded ({error})") from None
    learner.steps = int(state["steps"])
    learner.updates = int(state["updates"])
    learner.wall_seconds = float(state["wall_seconds"])
    learner.rng.bit_generator.state = state["rng"]
    torch.set_rng_state(torch.tensor(state["torch_rng"], dtype=torch.uint8))
    for snap in state["pool"]:
        path = learner.pool_dir / f"snap_{snap:012d}.safetensors"
        learner.pool.append((snap, learner.snapshot(path)))
    return float(state["best"]) if state["best"] is not None else -math.inf
