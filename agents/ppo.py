"""``ppo``: a trained MaskablePPO policy, loaded from a weights-only checkpoint.

A checkpoint meant for sharing is two files side by side:

* ``NAME.safetensors`` — the policy network's state dict (safetensors: plain
  tensors, nothing is ever unpickled);
* ``NAME.json`` — the sidecar: the network's shape (hidden layer sizes,
  activation, its ``inputs``: the ``env121_v1`` observation, or the
  observation followed by greedy's hints and perhaps the search hints, or by
  the ``swap_wins`` part, :mod:`agents.hints`; and whether it has the ``hint_head``),
  ``obs_size`` / ``num_actions``, the environment id and env121
  version it was trained on, and SHA-256 fingerprints of the observation and
  action layouts (:data:`env121.play.observation.OBSERVATION_LAYOUT`,
  :data:`env121.engine.actions.ACTION_LAYOUT`), plus free-form ``training`` notes.

:func:`load_policy` refuses a checkpoint that does not fit this env121 — a
different env id, layout, ``obs_size`` or ``num_actions`` — with a
:class:`CheckpointMismatchError` naming each difference (a different env121
*package* version only warns: the env id and the layouts are what a policy
depends on, and the env id is bumped whenever behaviour changes).

The network is the actor half of SB3's ``MlpPolicy``: ``Linear`` layers with
an activation between them, ending in the action head's logits
(``training.checkpoint.export_policy`` writes one from a trained model).
:class:`PPOAgent` plays the masked argmax of the logits, or samples from the
masked softmax with its seeded generator when ``deterministic=False`` (a
network that reads greedy's hints leaves wins, forced moves and the Nhất Bản
layout to greedy, :func:`agents.hints.greedy_decides`; one that reads the search
hints draws determinizations, so it declares ``uses_search``)::

    agent = make_agent("ppo:runs/small/policy.safetensors")
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import safetensors
import safetensors.torch
import torch
from torch import nn

from agents.beliefs import Model
from agents.hints import INPUTS, Hinter, hints_seed
from agents.spec import canonical_spec
from agents.weights import (
    ACTIVATIONS,
    CHECKPOINT_FORMAT_VERSION,
    CheckpointMismatchError,
    check_compatible,
    environment_signature,
    one_thread,
    read_tensors,
    sidecar_path,
)
from env121.engine.actions import NUM_ACTIONS
from env121.engine.files import write_atomically
from env121.play.observation import OBS_SIZE
from env121.play.turn import Turn

CHECKPOINT_FORMAT = "env121-ppo-policy"


def hint_blocks(inputs: str) -> int:
    """How many blocks of ``NUM_ACTIONS`` hints follow the observation in ``inputs``."""
    return (INPUTS[inputs] - OBS_SIZE) // NUM_ACTIONS


def action_hints(features: torch.Tensor, blocks: int) -> torch.Tensor:
    """The hints that end a batch of vectors (their last ``blocks·NUM_ACTIONS``
    values, block after block) regrouped per action: ``[..., NUM_ACTIONS, blocks]``."""
    hints = features[..., features.shape[-1] - blocks * NUM_ACTIONS :]
    grouped: torch.Tensor = hints.reshape(*hints.shape[:-1], blocks, NUM_ACTIONS)
    return grouped.transpose(-1, -2)


class PolicyNetwork(nn.Module):
    """Input vector -> action logits: ``Linear`` layers with ``activation``
    between them (the actor of SB3's ``MlpPolicy`` and its action head). The
    input is what ``inputs`` names (:data:`agents.hints.INPUTS`): the
    ``env121_v1`` observation, or the observation followed by hints.

    With ``hint_head`` (hinted inputs only), every action's logit also gets
    ``hint_head · (its hints)``: one weight per hint block, shared by all the
    actions. Hints are aligned with the action ids, and a plain MLP must learn
    that alignment separately for each of the ``NUM_ACTIONS`` ids, from the
    few decisions where that id was played; the head learns it once
    (``training.hint_head`` is the same network inside SB3)."""

    def __init__(
        self,
        hidden_sizes: Sequence[int],
        activation: str = "tanh",
        inputs: str = "observation",
        hint_head: bool = False,
    ) -> None:
        super().__init__()
        if activation not in ACTIVATIONS:
            raise ValueError(
                f"activation={activation!r} is not valid: expected one of {sorted(ACTIVATIONS)}"
            )
        if inputs not in INPUTS:
            raise ValueError(f"inputs={inputs!r} is not valid: expected one of {sorted(INPUTS)}")
        if hint_head and not hint_blocks(inputs):
            raise ValueError(f"hint_head=True is not valid for inputs={inputs!r}: it reads hints")
        self.hidden_sizes = [int(h) for h in hidden_sizes]
        self.activation = activation
        self.inputs = inputs
        layers: list[nn.Module] = []
        width = INPUTS[inputs]
        for hidden in self.hidden_sizes:
            layers += [nn.Linear(width, hidden), ACTIVATIONS[activation]()]
            width = hidden
        layers.append(nn.Linear(width, NUM_ACTIONS))
        self.layers = nn.Sequential(*layers)
        self.hint_head = nn.Linear(hint_blocks(inputs), 1, bias=False) if hint_head else None

    def forward(self, observation: torch.Tensor) -> torch.Tensor:
        """Logits over the action ids."""
        logits: torch.Tensor = self.layers(observation)
        if self.hint_head is not None:
            blocks = self.hint_head.in_features
            logits = logits + self.hint_head(action_hints(observation, blocks)).squeeze(-1)
        return logits

    def act(self, turn: Turn, hinter: Hinter, rng: np.random.Generator | None = None) -> int:
        """The masked argmax of the logits for ``turn``, or a sample of the
        masked softmax drawn from ``rng`` when one is given; ``hinter`` (for
        this network's ``inputs``) makes the input. A network that reads
        greedy's hints leaves the decisions :func:`agents.hints.greedy_decides`
        to greedy (:meth:`agents.hints.Hinter.leaves_to_greedy`)."""
        if hinter.leaves_to_greedy(turn):
            return hinter.greedy.act(turn)
        legal, legal_logits = self.legal_logits(turn, hinter)
        if rng is None:
            return int(legal[int(np.argmax(legal_logits))])
        return sample_legal(legal, legal_logits, rng)

    def act_many(self, turns: Sequence[Turn], hinter: Hinter) -> list[int]:
        """:meth:`act`'s masked argmax for each of ``turns``, the network's
        decisions in one forward pass (a model of a seat judging many worlds,
        :func:`network_model`)."""
        actions = [hinter.greedy.act(t) if hinter.leaves_to_greedy(t) else -1 for t in turns]
        asked = [i for i, action in enumerate(actions) if action < 0]
        if not asked:
            return actions
        inputs = np.stack([hinter(turns[i]) for i in asked])
        with one_thread(), torch.inference_mode():
            logits = self(torch.from_numpy(inputs)).numpy()
        for row, i in enumerate(asked):
            mask = turns[i].action_mask.astype(bool)
            actions[i] = int(np.argmax(np.where(mask, logits[row], -np.inf)))
        return actions

    def legal_logits(self, turn: Turn, hinter: Hinter) -> tuple[np.ndarray, np.ndarray]:
        """``(legal, logits)``: ``turn``'s legal action ids, ascending, and the
        network's logits on them (``float64``), one forward pass on the input
        ``hinter`` makes."""
        observation = hinter(turn)
        legal = np.flatnonzero(turn.action_mask)
        if not len(legal):
            raise ValueError("the action mask allows no action: the agent is not to act")
        with one_thread(), torch.inference_mode():
            logits = self(torch.from_numpy(np.array(observation, dtype=np.float32)))
        return legal, logits.numpy()[legal].astype(np.float64)


def sample_legal(legal: np.ndarray, legal_logits: np.ndarray, rng: np.random.Generator) -> int:
    """One of the ``legal`` action ids drawn from ``rng`` by the softmax of their
    ``legal_logits`` (``float64``): a policy's sample, the same draw wherever it
    is made (:class:`PolicyAgent`, the arena's batched games)."""
    weights = np.exp(legal_logits - legal_logits.max())
    return int(legal[rng.choice(len(legal), p=weights / weights.sum())])


def save_policy(
    path: str | Path,
    state_dict: Mapping[str, torch.Tensor],
    hidden_sizes: Sequence[int],
    activation: str,
    training: Mapping[str, Any] | None = None,
    inputs: str = "observation",
    hint_head: bool = False,
) -> Path:
    """Write a weights-only checkpoint (``path`` must end in ``.safetensors``)
    and its sidecar; returns ``path``. ``state_dict`` is a
    :class:`PolicyNetwork`'s; it is checked by building one."""
    path = Path(path)
    if path.suffix != ".safetensors":
        raise ValueError(f"checkpoint path {str(path)!r} is not valid: expected NAME.safetensors")
    network = PolicyNetwork(hidden_sizes, activation, inputs, hint_head)
    network.load_state_dict(dict(state_dict))  # raises if the shapes do not fit
    path.parent.mkdir(parents=True, exist_ok=True)
    tensors = {k: v.detach().to("cpu", torch.float32).contiguous() for k, v in state_dict.items()}
    weights = safetensors.torch.save(tensors)
    write_atomically(path, weights)
    sidecar = {
        "format": CHECKPOINT_FORMAT,
        "format_version": CHECKPOINT_FORMAT_VERSION,
        **environment_signature(),
        "network": {
            "hidden_sizes": network.hidden_sizes,
            "activation": activation,
            "inputs": inputs,
            "hint_head": hint_head,
        },
        "weights": path.name,
        "weights_sha256": hashlib.sha256(weights).hexdigest(),
        "training": dict(training or {}),
    }
    write_atomically(sidecar_path(path), json.dumps(sidecar, indent=2, ensure_ascii=False) + "\n")
    return path


def read_sidecar(checkpoint: str | Path) -> dict[str, Any]:
    """The sidecar of ``checkpoint``, checked against this env121.

    Raises ``FileNotFoundError`` if either file is missing and
    :class:`CheckpointMismatchError` naming the file for anything wrong in the
    sidecar (not UTF-8 JSON, not a sidecar, a different env121)."""
    checkpoint = Path(checkpoint)
    if checkpoint.suffix != ".safetensors":
        raise CheckpointMismatchError(
            f"checkpoint {str(checkpoint)!r} is not valid: expected a NAME.safetensors file "
            "with its NAME.json sidecar"
        )
    side = sidecar_path(checkpoint)
    for needed in (checkpoint, side):
        if not needed.is_file():
            raise FileNotFoundError(f"checkpoint file {str(needed)!r} does not exist")
    try:
        meta = json.loads(side.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as error:
        reason = "nested too deeply" if isinstance(error, RecursionError) else error
        raise CheckpointMismatchError(
            f"sidecar {str(side)!r} is not valid JSON: {reason}"
        ) from None
    if not isinstance(meta, dict) or meta.get("format") != CHECKPOINT_FORMAT:
        raise CheckpointMismatchError(
            f"sidecar {str(side)!r} is not an env121 policy sidecar: expected "
            f'"format": "{CHECKPOINT_FORMAT}"'
        )
    check_compatible(meta, str(checkpoint), shipped=checkpoint.resolve().parent == SHIPPED)
    return meta


def load_policy(checkpoint: str | Path) -> tuple[PolicyNetwork, dict[str, Any]]:
    """``(network, sidecar)`` of a weights-only checkpoint (never unpickles).

    Raises what :func:`read_sidecar` raises, and :class:`CheckpointMismatchError`
    when the weights are not the sidecar's or its network does not fit them."""
    meta = read_sidecar(checkpoint)
    digest = hashlib.sha256(Path(checkpoint).read_bytes()).hexdigest()
    if meta.get("weights_sha256") not in (None, digest):
        raise CheckpointMismatchError(
            f"{checkpoint}: the weights do not match the sidecar's weights_sha256 "
            "(the two files come from different saves)"
        )
    shape = network_shape(meta, str(sidecar_path(checkpoint)))
    with one_thread():
        with torch.device("meta"):  # the shapes only: no memory for a network that may not fit
            expected = {k: tuple(v.shape) for k, v in PolicyNetwork(**shape).state_dict().items()}
        tensors = read_tensors(checkpoint)
        found = {k: tuple(v.shape) for k, v in tensors.items()}
        if found != expected:
            raise CheckpointMismatchError(
                f"{checkpoint}: the tensors do not fit the sidecar's network {shape}: "
                f"expected {expected}, found {found}"
            )
        network = PolicyNetwork(**shape)
        network.load_state_dict(tensors)
    network.eval()
    return network, meta


def network_shape(meta: Mapping[str, Any], name: str = "sidecar") -> dict[str, Any]:
    """The :class:`PolicyNetwork` arguments a sidecar's ``network`` describes;
    raises :class:`CheckpointMismatchError` naming ``name`` if they are not
    valid. Sidecars of format 1 written before hints lack ``inputs`` (the
    observation) and ``hint_head`` (none)."""
    shape = meta.get("network")
    if not isinstance(shape, Mapping):
        raise CheckpointMismatchError(
            f"{name}: network {shape!r} is not valid: expected an object with hidden_sizes, "
            "activation, inputs and hint_head"
        )
    hidden = shape.get("hidden_sizes")
    arguments = {
        "hidden_sizes": hidden,
        "activation": shape.get("activation"),
        "inputs": shape.get("inputs", "observation"),
        "hint_head": shape.get("hint_head", False),
    }
    sizes_ok = isinstance(hidden, list) and all(
        isinstance(h, int) and not isinstance(h, bool) and h > 0 for h in hidden
    )
    names_ok = all(isinstance(arguments[k], str) for k in ("activation", "inputs"))
    try:
        if not sizes_ok or not names_ok or not isinstance(arguments["hint_head"], bool):
            raise ValueError(
                "expected hidden_sizes a list of positive integers, activation and inputs "
                "names, hint_head true or false"
            )
        with torch.device("meta"):
            PolicyNetwork(**arguments)  # its own checks of the names
    except ValueError as error:
        raise CheckpointMismatchError(
            f"{name}: network {dict(shape)} is not valid: {error}"
        ) from None
    return arguments


SHIPPED = Path(__file__).resolve().parent / "checkpoints"
"""Where the checkpoints that come with env121 live (``ppo:<name>``)."""


def shipped_checkpoints() -> list[str]:
    """Names of the checkpoints shipped in :data:`SHIPPED`."""
    return sorted(path.stem for path in SHIPPED.glob("*.safetensors"))


def resolve_checkpoint(checkpoint: str) -> Path:
    """The file of ``checkpoint``: a path to ``NAME.safetensors``, or the bare
    name of a shipped checkpoint (``small`` → ``agents/checkpoints/small.safetensors``)."""
    if checkpoint.endswith(".safetensors") or "/" in checkpoint or "\\" in checkpoint:
        return Path(checkpoint)
    path = SHIPPED / f"{checkpoint}.safetensors"
    if not path.is_file():
        raise FileNotFoundError(
            f"no shipped checkpoint is named {checkpoint!r}: expected one of "
            f"{shipped_checkpoints()} or a path to a NAME.safetensors file"
        )
    return path


class PolicyAgent:
    """An agent that plays a :class:`PolicyNetwork`: the masked argmax of its
    logits (``deterministic``) or a sample of the masked softmax drawn with its
    own seeded generator. It searches (``uses_search``) when its network reads
    search hints, whose determinizations its :class:`~agents.hints.Hinter` draws."""

    def __init__(self, network: PolicyNetwork, spec: str, deterministic: bool = True) -> None:
        self.network = network
        self.spec = spec
        self.deterministic = deterministic
        self.hinter = Hinter(network.inputs)
        self.uses_search = self.hinter.uses_search
        self.rng = np.random.default_rng(0)

    def reset(self, seed: int) -> None:
        """Reseed the sampling generator and the hints' for a new match."""
        self.rng = np.random.default_rng(seed)
        self.hinter.reset(hints_seed(seed))

    def act(self, turn: Turn) -> int:
        """The policy's action for ``turn`` (always one of ``turn.legal_actions``)."""
        rng = None if self.deterministic else self.rng
        return self.network.act(turn, self.hinter, rng)


class PPOAgent(PolicyAgent):
    """A trained policy loaded from a weights-only checkpoint: ``checkpoint``
    is a path to ``NAME.safetensors`` (with its ``NAME.json``) or the name of
    a shipped checkpoint (:func:`shipped_checkpoints`)."""

    def __init__(self, checkpoint: str, deterministic: bool = True) -> None:
        network, self.metadata = load_policy(resolve_checkpoint(checkpoint))
        self.checkpoint = str(checkpoint)
        params: dict[str, Any] = {"checkpoint": str(checkpoint)}
        if not deterministic:
            params["deterministic"] = False
        super().__init__(network, canonical_spec("ppo", params), deterministic)


NETWORK = "scratch"
"""The shipped network :func:`network_model` reads by default: ``ppo:scratch``."""


def network_model(checkpoint: str = NETWORK) -> Model:
    """A network's policy as a model of an opponent (:mod:`agents.beliefs`):
    the masked argmax that ``ppo:<checkpoint>`` plays, every decision asked
    in one forward pass (:meth:`PolicyNetwork.act_many`)."""
    agent = PPOAgent(checkpoint)
    return lambda turns: agent.network.act_many(turns, agent.hinter)


__all__ = [
    "NETWORK",
    "PPOAgent",
    "PolicyAgent",
    "PolicyNetwork",
    "load_policy",
    "network_model",
    "network_shape",
    "read_sidecar",
    "resolve_checkpoint",
    "sample_legal",
    "save_policy",
    "shipped_checkpoints",
]
