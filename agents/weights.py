"""Weights-only checkpoint files: what every network env121 saves shares.

A network is saved as ``NAME.safetensors`` (its tensors, never unpickled)
beside ``NAME.json`` (its sidecar). Both the policies (:mod:`agents.ppo`) and
the leaf values (:mod:`agents.value`) write, in their sidecars,
:func:`environment_signature` — the env id, the observation and action
layouts' fingerprints — and are refused by :func:`check_compatible`, with a
:class:`CheckpointMismatchError` naming every difference, where this env121
differs.
"""

from __future__ import annotations

import hashlib
import json
import warnings
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import safetensors
import safetensors.torch
import torch
from torch import nn

import env121
from env121.engine.actions import ACTION_LAYOUT, NUM_ACTIONS
from env121.envs.aec_env import ENV_ID
from env121.play.observation import OBS_SIZE, OBSERVATION_LAYOUT

CHECKPOINT_FORMAT_VERSION = 1
ACTIVATIONS: dict[str, type[nn.Module]] = {"tanh": nn.Tanh, "relu": nn.ReLU}
"""Activation names a checkpoint may declare."""


class CheckpointMismatchError(ValueError):
    """A checkpoint does not fit this env121 (or its two files do not fit each other)."""


def _sha256(data: Any) -> str:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def observation_layout_hash() -> str:
    """SHA-256 of the observation layout's pieces: name, shape and bounds."""
    return _sha256([[p.name, list(p.shape), p.low, p.high] for p in OBSERVATION_LAYOUT])


def action_layout_hash() -> str:
    """SHA-256 of the action layout's pieces: name and size."""
    return _sha256([[p.name, p.size] for p in ACTION_LAYOUT])


def environment_signature() -> dict[str, Any]:
    """What a checkpoint must agree with to be played in this env121."""
    return {
        "env_id": ENV_ID,
        "env121_version": env121.__version__,
        "obs_size": OBS_SIZE,
        "num_actions": NUM_ACTIONS,
        "observation_layout_sha256": observation_layout_hash(),
        "action_layout_sha256": action_layout_hash(),
    }


@contextmanager
def one_thread() -> Iterator[None]:
    """Run torch on one thread inside the block, then restore the setting.

    A policy this small gains nothing from more threads, and a process whose
    torch never started its OpenMP thread pool can fork safely: the arena's
    worker processes are forked, and a forked child that uses an OpenMP pool
    its parent had started hangs for good."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def sidecar_path(checkpoint: str | Path) -> Path:
    """The JSON sidecar next to ``checkpoint`` (``NAME.safetensors`` -> ``NAME.json``)."""
    return Path(checkpoint).with_suffix(".json")


def check_compatible(
    meta: Mapping[str, Any], name: str = "checkpoint", *, shipped: bool = False
) -> None:
    """Raise :class:`CheckpointMismatchError` naming every way ``meta`` (a
    sidecar) differs from this env121; warn if only the package version differs,
    except for a ``shipped`` checkpoint (one of those env121 ships, which the test
    suite loads and plays with every version)."""
    if meta.get("format_version") != CHECKPOINT_FORMAT_VERSION:
        raise CheckpointMismatchError(
            f"{name}: format_version {meta.get('format_version')!r} is not supported: "
            f"expected {CHECKPOINT_FORMAT_VERSION}"
        )
    here = environment_signature()
    differences = [
        f"{key} (checkpoint {meta.get(key)!r}, this env121 {expected!r})"
        for key, expected in here.items()
        if key != "env121_version" and meta.get(key) != expected
    ]
    if differences:
        raise CheckpointMismatchError(
            f"{name} does not fit this env121 ({ENV_ID}, version {env121.__version__}): "
            + "; ".join(differences)
        )
    if meta.get("env121_version") != here["env121_version"] and not shipped:
        warnings.warn(
            f"{name} was saved by env121 {meta.get('env121_version')!r}, this is "
            f"{here['env121_version']!r}; the env id and layouts agree, so it is loaded",
            stacklevel=3,
        )


def read_tensors(path: str | Path) -> dict[str, torch.Tensor]:
    """The tensors of a safetensors file; a file that is not one (torn, or
    overwritten with other bytes) is a :class:`CheckpointMismatchError` naming it."""
    try:
        return safetensors.torch.load_file(str(path))
    except safetensors.SafetensorError as error:
        raise CheckpointMismatchError(
            f"{path}: not a readable safetensors file ({error})"
        ) from None


__all__ = [
    "ACTIVATIONS",
    "CHECKPOINT_FORMAT_VERSION",
    "CheckpointMismatchError",
    "action_layout_hash",
    "check_compatible",
    "environment_signature",
    "observation_layout_hash",
    "one_thread",
    "read_tensors",
    "sidecar_path",
]
