"""Checkpoints of a training run, all without pickle.

* :func:`export_policy` writes the *shareable* checkpoint of a MaskablePPO
  policy (of the shape a :class:`Network` describes): the actor MLP and the action head as a
  :class:`agents.ppo.PolicyNetwork` state dict (``.safetensors`` + JSON
  sidecar, see :mod:`agents.ppo`). Self-play snapshots use the same format.
* :func:`write_state` / :func:`read_state` write and read a training state —
  named tensors and a JSON part recording their SHA-256 — for both trainers;
  :func:`optimizer_tensors` / :func:`optimizer_slots` put an optimizer's state
  into named tensors and back.
* :func:`save_training_state` / :func:`load_training_state` write and read
  what the SB3 trainer's ``--resume`` needs: every parameter of the SB3 policy (actor, critic)
  and the optimizer's tensors as safetensors, the optimizer's plain settings,
  the step count and the tensors' SHA-256 as JSON. The model is rebuilt from
  the run's config and these are loaded into it, so nothing is unpickled here
  either; a checkpoint that cannot be loaded is a :class:`CorruptCheckpointError`
  naming the file.
* :class:`CheckpointDirectory` keeps a run's ``checkpoints/``: each checkpoint
  appears whole or not at all, whenever the trainer is killed.

Every file is written with :func:`env121.engine.files.write_atomically`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import safetensors
import safetensors.torch
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from agents.ppo import (
    PolicyNetwork,
    hint_blocks,
    load_policy,
    network_shape,
    resolve_checkpoint,
    save_policy,
)
from agents.weights import ACTIVATIONS
from env121.engine.files import fsync_directory, leftover_temporaries, write_atomically
from training.hint_head import HintHeadPolicy

TRAINING_STATE_FORMAT = "env121-training-state"


@dataclass(frozen=True)
class Network:
    """The shape of a run's networks (``env121 train``'s ``hidden_sizes``,
    ``activation``, ``inputs`` and ``hint_head``): separate actor and critic
    MLPs of these widths over the input :data:`agents.hints.INPUTS` names,
    the actor's logits with or without the hint head (:mod:`training.hint_head`)."""

    hidden_sizes: list[int]
    activation: str = "tanh"
    inputs: str = "observation"
    hint_head: bool = False

    def describe(self) -> dict[str, Any]:
        """The shape as the JSON a sidecar records."""
        return dataclasses.asdict(self)

    def policy_class(self) -> type[MaskableActorCriticPolicy]:
        """SB3's policy class for this shape."""
        return HintHeadPolicy if self.hint_head else MaskableActorCriticPolicy

    def policy_kwargs(self) -> dict[str, Any]:
        """SB3's ``policy_kwargs`` for this shape (the one place they are set)."""
        widths = list(self.hidden_sizes)
        kwargs: dict[str, Any] = {
            "net_arch": {"pi": widths, "vf": widths},
            "activation_fn": ACTIVATIONS[self.activation],
        }
        if self.hint_head:
            kwargs["hint_blocks"] = hint_blocks(self.inputs)
        return kwargs


def policy_state_dict(policy: MaskableActorCriticPolicy) -> dict[str, torch.Tensor]:
    """The actor of an SB3 ``policy`` as a :class:`~agents.ppo.PolicyNetwork` state dict.

    SB3's actor is ``mlp_extractor.policy_net`` (``Linear``/activation pairs,
    indices 0, 2, …) followed by ``action_net``; the feature extractor of a
    flat ``Box`` observation is a parameter-free ``Flatten``. The network
    keeps the same indices and puts the head last (with the hint head, the
    action net's ``linear`` is that head and its ``hint`` the ``hint_head``).
    The tensors are on the CPU, wherever the policy runs."""
    state: dict[str, torch.Tensor] = {}
    linear_layers = 0
    for key, value in policy.mlp_extractor.policy_net.state_dict().items():
        state[f"layers.{key}"] = value.detach().cpu()
        linear_layers += key.endswith(".weight")
    head = 2 * linear_layers
    for key, value in policy.action_net.state_dict().items():
        if key.startswith("hint."):
            state[f"hint_head.{key.removeprefix('hint.')}"] = value.detach().cpu()
        else:
            state[f"layers.{head}.{key.removeprefix('linear.')}"] = value.detach().cpu()
    return state


def export_policy(
    policy: MaskableActorCriticPolicy,
    path: str | Path,
    network: Network,
    training: Mapping[str, Any] | None = None,
) -> Path:
    """Write the actor of an SB3 ``policy`` (built for ``network``) to ``path``
    as a shareable weights-only checkpoint with ``training`` notes."""
    return save_policy(
        path,
        policy_state_dict(policy),
        network.hidden_sizes,
        network.activation,
        training,
        network.inputs,
        network.hint_head,
    )


def load_actor(policy: MaskableActorCriticPolicy, network: PolicyNetwork) -> None:
    """Copy ``network``'s weights into the actor of an SB3 ``policy`` of its shape:
    the inverse of :func:`policy_state_dict` (the critic is left as it is)."""
    state = network.state_dict()
    head = 2 * sum(key.endswith(".weight") for key in policy.mlp_extractor.policy_net.state_dict())
    hidden, action = {}, {}
    for key, value in state.items():
        if key.startswith("hint_head."):
            action[f"hint.{key.removeprefix('hint_head.')}"] = value
        elif key.startswith(f"layers.{head}."):
            rest = key.removeprefix(f"layers.{head}.")
            action[f"linear.{rest}" if network.hint_head is not None else rest] = value
        else:
            hidden[key.removeprefix("layers.")] = value
    policy.mlp_extractor.policy_net.load_state_dict(hidden)
    policy.action_net.load_state_dict(action)


class StateFiles(NamedTuple):
    """The two files of a training state in a checkpoint directory."""

    tensors: str
    """Parameters and optimizer tensors (safetensors)."""
    json: str
    """Counters, settings and the tensors' SHA-256 (JSON)."""


SB3_STATE = StateFiles("training.safetensors", "training.json")
"""The SB3 trainer's (:func:`save_training_state`)."""
CHECKPOINT_NAME = re.compile(r"step_(\d{12})")
"""A complete checkpoint's directory name, ``step_<N>`` (12 digits)."""


class CorruptCheckpointError(ValueError):
    """A checkpoint that cannot be loaded (a file torn, missing, overwritten, or
    not fitting the run's model); the message names the file and what is wrong."""


def write_state(
    directory: Path, tensors: dict[str, torch.Tensor], state: Mapping[str, Any], names: StateFiles
) -> None:
    """Write a training state: the named ``tensors`` (safetensors) and the JSON
    ``state``, which records the tensors' SHA-256, each file atomically."""
    data = safetensors.torch.save(tensors)
    write_atomically(directory / names.tensors, data)
    document = {**state, "training_sha256": hashlib.sha256(data).hexdigest()}
    write_atomically(directory / names.json, json.dumps(document, indent=2) + "\n")


def read_state(
    directory: Path, names: StateFiles
) -> tuple[dict[str, Any], dict[str, torch.Tensor]]:
    """What :func:`write_state` wrote: the JSON state and the tensors, checked —
    a missing, torn or overwritten file, or tensors whose checksum is not the
    recorded one, raise :class:`CorruptCheckpointError` naming the file."""
    path = directory / names.json
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise CorruptCheckpointError(f"{path}: cannot be read ({error.strerror})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise CorruptCheckpointError(f"{path}: not valid JSON ({error})") from None
    if not isinstance(state, dict):
        raise CorruptCheckpointError(f"{path}: expected a JSON object")
    tensors_file = directory / names.tensors
    try:
        data = tensors_file.read_bytes()
    except OSError as error:
        raise CorruptCheckpointError(f"{tensors_file}: cannot be read ({error.strerror})") from None
    recorded = state.get("training_sha256")  # absent in checkpoints written before it
    if recorded is not None and recorded != hashlib.sha256(data).hexdigest():
        raise CorruptCheckpointError(
            f"{tensors_file}: its SHA-256 is not the one {names.json} records (torn or overwritten)"
        )
    try:
        return state, safetensors.torch.load(data)
    except safetensors.SafetensorError as error:
        raise CorruptCheckpointError(
            f"{tensors_file}: not a readable safetensors file ({error})"
        ) from None


def optimizer_tensors(optimizer: torch.optim.Optimizer, prefix: str) -> dict[str, torch.Tensor]:
    """The optimizer's per-parameter state (Adam's moments and steps) as named
    tensors ``{prefix}.{parameter index}.{slot}``."""
    return {
        f"{prefix}.{index}.{slot}": torch.as_tensor(value).detach().cpu().contiguous()
        for index, slots in optimizer.state_dict()["state"].items()
        for slot, value in slots.items()
    }


def optimizer_slots(tensors: Mapping[str, torch.Tensor], prefix: str) -> dict[int, dict[str, Any]]:
    """:func:`optimizer_tensors` read back: the optimizer's ``state`` entry."""
    slots: dict[int, dict[str, Any]] = {}
    for key, value in tensors.items():
        if key.startswith(f"{prefix}."):
            _, index, slot = key.split(".", 2)
            slots.setdefault(int(index), {})[slot] = value
    return slots


def save_training_state(
    model: MaskablePPO, directory: str | Path, extra: Mapping[str, Any]
) -> None:
    """Write ``model``'s parameters, optimizer state and step count to
    ``directory`` (:data:`SB3_STATE`: ``training.safetensors`` + ``training.json``)."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    tensors = {
        f"policy.{k}": v.detach().cpu().contiguous() for k, v in model.policy.state_dict().items()
    }
    tensors.update(optimizer_tensors(model.policy.optimizer, "optimizer"))
    state = {
        "format": TRAINING_STATE_FORMAT,
        "num_timesteps": int(model.num_timesteps),
        "optimizer_param_groups": model.policy.optimizer.state_dict()["param_groups"],
        **extra,
    }
    write_state(directory, tensors, state, SB3_STATE)


def load_training_state(model: MaskablePPO, directory: str | Path) -> dict[str, Any]:
    """Load what :func:`save_training_state` wrote into ``model`` (built from
    the same config); returns the JSON part. Sets ``model.num_timesteps``.

    Everything is checked before ``model`` is touched: a missing, torn or
    overwritten file, tensors whose checksum is not the recorded one, or that
    do not fit the model, raise :class:`CorruptCheckpointError` naming the file."""
    directory = Path(directory)
    state, tensors = read_state(directory, SB3_STATE)
    _check_sb3_state(directory / SB3_STATE.json, state)
    tensors_file = directory / SB3_STATE.tensors
    policy = {k.removeprefix("policy."): v for k, v in tensors.items() if k.startswith("policy.")}
    expected = {k: tuple(v.shape) for k, v in model.policy.state_dict().items()}
    found = {k: tuple(v.shape) for k, v in policy.items()}
    if found != expected:
        missing = sorted(set(expected) - set(found))
        wrong = sorted(k for k in set(expected) & set(found) if expected[k] != found[k])
        raise CorruptCheckpointError(
            f"{tensors_file}: its tensors do not fit the model the run's config builds "
            f"(missing {missing}, other shapes {wrong}, unexpected "
            f"{sorted(set(found) - set(expected))})"
        )
    groups = state["optimizer_param_groups"]
    for group in groups:  # JSON turned the tuples into lists
        group.update({k: tuple(v) for k, v in group.items() if k == "betas"})
    model.policy.load_state_dict(policy)
    try:
        model.policy.optimizer.load_state_dict(
            {"state": optimizer_slots(tensors, "optimizer"), "param_groups": groups}
        )
    except (KeyError, ValueError, RuntimeError) as error:
        raise CorruptCheckpointError(
            f"{tensors_file}: its optimizer state does not fit the model ({error})"
        ) from None
    model.num_timesteps = int(state["num_timesteps"])
    return dict(state)


def _check_sb3_state(path: Path, state: dict[str, Any]) -> None:
    """The SB3 trainer's JSON part has its format, step count and optimizer settings."""
    if state.get("format") != TRAINING_STATE_FORMAT:
        raise CorruptCheckpointError(
            f'{path}: not an env121 training state (expected "format": "{TRAINING_STATE_FORMAT}")'
        )
    steps, groups = state.get("num_timesteps"), state.get("optimizer_param_groups")
    if not isinstance(steps, int) or steps < 0 or not isinstance(groups, list):
        raise CorruptCheckpointError(
            f"{path}: expected num_timesteps (an integer >= 0) and optimizer_param_groups"
        )


class CheckpointDirectory:
    """A run's ``checkpoints/`` directory: ``step_<N>/`` per checkpoint and
    ``latest.json`` naming the newest.

    A checkpoint is written into a hidden ``.step_<N>.partial/`` directory and
    renamed to ``step_<N>`` only when all its files are on the disk, then
    ``latest.json`` is rewritten (atomically) and the oldest checkpoints beyond
    ``keep`` are removed (renamed away first). So a ``step_<N>`` directory is
    always a whole checkpoint, whatever moment a kill lands on, and a kill
    during a save leaves the previous checkpoints as they were."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.latest = directory / "latest.json"

    def path(self, step: int) -> Path:
        """The directory of the checkpoint of ``step``."""
        return self.directory / f"step_{step:012d}"

    def steps(self) -> list[int]:
        """The steps of the ``step_<N>`` directories, oldest first."""
        if not self.directory.is_dir():
            return []
        found = (CHECKPOINT_NAME.fullmatch(p.name) for p in self.directory.iterdir())
        return sorted(int(m.group(1)) for m in found if m)

    def pointed(self) -> Path:
        """The checkpoint ``latest.json`` names; :class:`CorruptCheckpointError`
        if it is missing, unreadable or names no checkpoint directory."""
        try:
            pointer = json.loads(self.latest.read_text(encoding="utf-8"))
        except OSError as error:
            raise CorruptCheckpointError(
                f"{self.latest}: cannot be read ({error.strerror})"
            ) from None
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise CorruptCheckpointError(f"{self.latest}: not valid JSON ({error})") from None
        name = pointer.get("directory") if isinstance(pointer, dict) else None
        if not isinstance(name, str) or not CHECKPOINT_NAME.fullmatch(name):
            raise CorruptCheckpointError(f"{self.latest}: names no step_<N> checkpoint")
        if not (self.directory / name).is_dir():
            raise CorruptCheckpointError(f"{self.latest}: names {name}, which does not exist")
        return self.directory / name

    def save(self, step: int, write: Callable[[Path], object], keep: int) -> Path:
        """Write the checkpoint of ``step`` (``write(directory)`` fills a fresh
        directory), point ``latest.json`` at it and keep the newest ``keep`` of
        the checkpoints up to ``step``; returns its directory. Checkpoints of
        later steps are removed: a run that saves ``step`` has left them behind
        (a run stopped by Ctrl-C goes back to the start of its rollout)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        target = self.path(step)
        partial = self.directory / f".{target.name}.partial"
        _remove_tree(partial)
        partial.mkdir()
        write(partial)
        if target.exists():  # a checkpoint of this step from before a --resume
            _remove_tree(target)
        os.replace(partial, target)
        fsync_directory(self.directory)
        pointer = {"directory": target.name, "num_timesteps": step}
        write_atomically(self.latest, json.dumps(pointer) + "\n")
        steps = self.steps()
        older, later = [s for s in steps if s <= step], [s for s in steps if s > step]
        for old in older[:-keep] + later:
            _remove_tree(self.path(old))
        return target

    def set_aside(self, step: int) -> Path:
        """Rename the checkpoint of ``step`` (one that cannot be loaded) to
        ``step_<N>.corrupt``, where no resume looks for it; returns the new path."""
        aside = self.path(step).with_name(f"{self.path(step).name}.corrupt")
        if aside.exists():
            shutil.rmtree(aside)
        os.replace(self.path(step), aside)
        return aside

    def remove_leftovers(self) -> None:
        """Remove what killed saves left: ``.partial`` directories, temporary files."""
        if self.directory.is_dir():
            for leftover in self.directory.glob(".step_*"):
                shutil.rmtree(leftover)
            for temporary in leftover_temporaries(self.directory):
                temporary.unlink()


def _remove_tree(path: Path) -> None:
    """Remove the directory ``path`` (if it exists) so that a kill in the middle
    leaves no partial ``step_<N>``: it is first renamed to a hidden name."""
    if not path.exists():
        return
    doomed = path.with_name(f".{path.name.lstrip('.')}.removed")
    if doomed != path:
        if doomed.exists():
            shutil.rmtree(doomed)
        os.replace(path, doomed)
    shutil.rmtree(doomed)


def checkpoint_network(checkpoint: str | Path) -> tuple[Network, PolicyNetwork]:
    """The shape and the weights of a ``ppo:`` checkpoint (a shipped name or a
    ``.safetensors`` path), to fine-tune it (:func:`training.imitation.fit`'s
    ``initial``)."""
    weights, meta = load_policy(resolve_checkpoint(str(checkpoint)))
    return Network(**network_shape(meta)), weights


__all__ = [
    "CHECKPOINT_NAME",
    "SB3_STATE",
    "CheckpointDirectory",
    "CorruptCheckpointError",
    "Network",
    "StateFiles",
    "checkpoint_network",
    "export_policy",
    "load_training_state",
    "optimizer_slots",
    "optimizer_tensors",
    "policy_state_dict",
    "read_state",
    "save_training_state",
    "write_state",
]
