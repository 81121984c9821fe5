"""Checkpoints of a training run, all without pickle.

* :func:`export_policy` writes the *shareable* checkpoint of a MaskablePPO
  policy (of the shape a :class:`Network` describes): the actor MLP and the action head as a
  :class:`agents.ppo.PolicyNetwork` state dict (``.safetensors`` + JSON
  sidecar, see :mod:`agents.ppo`). Self-play snapshots use the same format.
* :func:`save_training_state` / :func:`load_training_state` write and read
  what ``--resume`` needs: every parameter of the SB3 policy (actor, critic)
  and the optimizer's tensors as safetensors, the optimizer's plain settings
  and the step count as JSON. The model is rebuilt from the run's config and
  these are loaded into it, so nothing is unpickled here either.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from safetensors.torch import load_file, save_file
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from agents.ppo import ACTIVATIONS, hint_blocks, save_policy
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
    action net's ``linear`` is that head and its ``hint`` the ``hint_head``)."""
    state: dict[str, torch.Tensor] = {}
    linear_layers = 0
    for key, value in policy.mlp_extractor.policy_net.state_dict().items():
        state[f"layers.{key}"] = value
        linear_layers += key.endswith(".weight")
    head = 2 * linear_layers
    for key, value in policy.action_net.state_dict().items():
        if key.startswith("hint."):
            state[f"hint_head.{key.removeprefix('hint.')}"] = value
        else:
            state[f"layers.{head}.{key.removeprefix('linear.')}"] = value
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


def save_training_state(
    model: MaskablePPO, directory: str | Path, extra: Mapping[str, Any]
) -> None:
    """Write ``model``'s parameters, optimizer state and step count to
    ``directory`` (``training.safetensors`` + ``training.json``)."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    tensors = {
        f"policy.{k}": v.detach().cpu().contiguous() for k, v in model.policy.state_dict().items()
    }
    optimizer = model.policy.optimizer.state_dict()
    for index, slots in optimizer["state"].items():
        for slot, value in slots.items():
            tensors[f"optimizer.{index}.{slot}"] = (
                torch.as_tensor(value).detach().cpu().contiguous()
            )
    save_file(tensors, str(directory / "training.safetensors"))
    state = {
        "format": TRAINING_STATE_FORMAT,
        "num_timesteps": int(model.num_timesteps),
        "optimizer_param_groups": optimizer["param_groups"],
        **extra,
    }
    (directory / "training.json").write_text(json.dumps(state, indent=2) + "\n")


def load_training_state(model: MaskablePPO, directory: str | Path) -> dict[str, Any]:
    """Load what :func:`save_training_state` wrote into ``model`` (built from
    the same config); returns the JSON part. Sets ``model.num_timesteps``."""
    directory = Path(directory)
    state = json.loads((directory / "training.json").read_text())
    if state.get("format") != TRAINING_STATE_FORMAT:
        raise ValueError(f"{directory} holds no env121 training state (training.json)")
    tensors = load_file(str(directory / "training.safetensors"))
    policy = {k.removeprefix("policy."): v for k, v in tensors.items() if k.startswith("policy.")}
    try:
        model.policy.load_state_dict(policy)
    except RuntimeError as error:
        raise ValueError(
            f"the training state in {directory} does not fit the model the config builds "
            f"(was the network changed with --set?): {error}"
        ) from None
    slots: dict[int, dict[str, torch.Tensor]] = {}
    for key, value in tensors.items():
        if key.startswith("optimizer."):
            _, index, slot = key.split(".", 2)
            slots.setdefault(int(index), {})[slot] = value
    groups = state["optimizer_param_groups"]
    for group in groups:  # JSON turned the tuples into lists
        group.update({k: tuple(v) for k, v in group.items() if k == "betas"})
    model.policy.optimizer.load_state_dict({"state": slots, "param_groups": groups})
    model.num_timesteps = int(state["num_timesteps"])
    return dict(state)


__all__ = [
    "Network",
    "export_policy",
    "load_training_state",
    "policy_state_dict",
    "save_training_state",
]
