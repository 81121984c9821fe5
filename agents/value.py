"""A learned value of a full state: what the rest of the vòng is worth to a
seat, read from the seat's observation and the other seats' hands.

:mod:`agents.leaf` values a playout's leaf by one fitted line of the seats'
win tables. :class:`ValueNetwork` is the learned alternative, a
perfect-information value (PerfectDou's critic, Suphx's oracle): it reads

* the seat's observation (:data:`env121.play.observation.OBSERVATION_LAYOUT`,
  the same vector the environment gives that seat),
* :func:`hidden_hands`: the free cards of the three other seats, in turn
  order after the seat — what only a determinized world (or the true state)
  knows,
* the rules' knowledge of those hands, as :mod:`agents.leaf`'s line reads it
  (:func:`agents.batched_mc.leaf_features`): each seat's win table on the
  cards still to come (the Nọc's and the one on offer), the Nọc's cards, and
  the line's own value,

and returns the points the seat is paid at the end of the vòng: the line's
value plus the network's correction (its output × 100, the rewards' scale).
A network that outputs 0 is the line; it learns what the line misses (why:
from the cards alone the network reached R² 0.12 of the vòng's payment on
held-out greedy play where the line, which reads the win tables, has 0.26 —
``training/README.md``). In a search every world is such a full state, so
the value is exact to use at the leaves of determinized playouts:
:meth:`LeafValuer.values` encodes the leaf records of a kernel call and
values them in one forward pass. ``training/value.py`` fits it on self-play
(``python -m training.value``) and the agents load it by name
(``value=greedy`` in ``mc``/``search`` specs: ``checkpoints/values/greedy``).

A value checkpoint is two files, as a policy's (:mod:`agents.ppo`):
``NAME.safetensors`` (the weights, never unpickled) and ``NAME.json`` (the
network's shape, the layouts' fingerprints it was trained on, and free-form
``training`` notes: the data's policies, rows, fit).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from agents.batched_mc import leaf_features
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
from env121.engine.files import write_atomically
from env121.engine.state import NUM_SEATS
from env121.play.batched_observation import encode_seats, make_observer
from env121.play.observation import OBS_SIZE
from env121.rules.cards import NUM_CARDS
from env121.rules.compiled.config import kernel_config
from env121.rules.config import DEFAULT_CONFIG, RuleConfig

HIDDEN_SIZE = (NUM_SEATS - 1) * NUM_CARDS
"""Entries of :func:`hidden_hands`: the three other seats' free cards, one-hot."""
TABLES_SIZE = NUM_SEATS * NUM_CARDS
"""Entries of the four seats' win tables (the seat's first, then in turn order)."""
VALUE_INPUT_SIZE = OBS_SIZE + HIDDEN_SIZE + TABLES_SIZE + NUM_CARDS + 1
"""What a :class:`ValueNetwork` reads: the observation, the hidden hands, the
win tables, the Nọc's cards and the line's value (/ :data:`VALUE_SCALE`)."""
VALUE_SCALE = 100.0
"""Points per unit of the network's output (the rewards' scale: points / 100)."""
VALUE_FORMAT = "env121-value"
"""The sidecar's ``format`` of a value checkpoint."""
SHIPPED_VALUES = Path(__file__).resolve().parent / "checkpoints" / "values"
"""Where the value networks that come with env121 live (``value=<name>``)."""


def hidden_hands(
    games: np.ndarray, indices: np.ndarray, seats: np.ndarray, out: np.ndarray
) -> None:
    """``out[k]`` = one-hot free cards of the three seats after ``seats[k]`` in
    turn order, in game ``indices[k]`` (what a perfect-information value reads
    and the seat's observation lacks)."""
    out[:] = 0.0
    rows = np.arange(len(indices))
    for k in range(1, NUM_SEATS):
        cards = games["hands"][indices, (seats + k) % NUM_SEATS].astype(np.int64)
        held = cards >= 0
        row_index = np.repeat(rows, held.sum(axis=1))
        out[row_index, (k - 1) * NUM_CARDS + cards[held]] = 1.0


def encode_values(
    games: np.ndarray, indices: np.ndarray, seats: np.ndarray, config: RuleConfig | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """``(inputs float32 [len(indices), VALUE_INPUT_SIZE], line float64
    [len(indices)])``: row ``k`` is what a :class:`ValueNetwork` reads of seat
    ``seats[k]`` in the OFFER record ``games[indices[k]]`` — the seat's
    observation, the hidden hands, the win tables, the Nọc's cards, the line's
    value — and ``line[k]`` that value in points."""
    config = DEFAULT_CONFIG if config is None else config
    n = len(indices)
    out = np.zeros((n, VALUE_INPUT_SIZE), dtype=np.float32)
    line = np.zeros(n)
    if not n:
        return out, line
    observations = np.empty((n, OBS_SIZE), dtype=np.float32)
    encode_seats(games, indices, seats, make_observer(len(games), config), observations)
    out[:, :OBS_SIZE] = observations
    at = OBS_SIZE + HIDDEN_SIZE
    hidden_hands(games, indices, seats, out[:, OBS_SIZE:at])
    tables = np.zeros((n, TABLES_SIZE), dtype=np.float32)
    noc = np.zeros((n, NUM_CARDS), dtype=np.float32)
    leaf_features(games, indices, seats, kernel_config(config), tables, noc, line)
    out[:, at : at + TABLES_SIZE] = tables
    out[:, at + TABLES_SIZE : at + TABLES_SIZE + NUM_CARDS] = noc
    out[:, -1] = line / VALUE_SCALE
    return out, line


class ValueNetwork(nn.Module):
    """The perfect-information value's correction: ``Linear`` layers with
    ``activation`` between them, from :data:`VALUE_INPUT_SIZE` entries to one
    output (points / :data:`VALUE_SCALE` to add to the line's value). The last
    layer starts at zero, so an untrained network is the line."""

    def __init__(self, hidden_sizes: Sequence[int] = (256, 256), activation: str = "relu") -> None:
        super().__init__()
        if activation not in ACTIVATIONS:
            raise ValueError(
                f"activation={activation!r} is not valid: expected one of {sorted(ACTIVATIONS)}"
            )
        if not hidden_sizes or any(h < 1 for h in hidden_sizes):
            raise ValueError(f"hidden_sizes={list(hidden_sizes)} is not valid: expected sizes ≥ 1")
        self.hidden_sizes = [int(h) for h in hidden_sizes]
        self.activation = activation
        layers: list[nn.Module] = []
        width = VALUE_INPUT_SIZE
        for hidden in self.hidden_sizes:
            layers += [nn.Linear(width, hidden), ACTIVATIONS[activation]()]
            width = hidden
        last = nn.Linear(width, 1)
        nn.init.zeros_(last.weight)
        nn.init.zeros_(last.bias)
        layers.append(last)
        self.layers = nn.Sequential(*layers)

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        """``[N]`` corrections (points / :data:`VALUE_SCALE`) of ``inputs``."""
        values: torch.Tensor = self.layers(inputs).squeeze(-1)
        return values


def save_value(
    path: str | Path, network: ValueNetwork, training: Mapping[str, Any] | None = None
) -> Path:
    """Write ``network`` as a value checkpoint (``NAME.safetensors`` + ``NAME.json``),
    each file atomically; returns ``path``."""
    import safetensors.torch

    path = Path(path)
    if path.suffix != ".safetensors":
        raise ValueError(f"value path {str(path)!r} is not valid: expected NAME.safetensors")
    path.parent.mkdir(parents=True, exist_ok=True)
    tensors = {
        k: v.detach().to("cpu", torch.float32).contiguous() for k, v in network.state_dict().items()
    }
    weights = safetensors.torch.save(tensors)
    write_atomically(path, weights)
    sidecar = {
        "format": VALUE_FORMAT,
        "format_version": CHECKPOINT_FORMAT_VERSION,  # what check_compatible reads back
        **environment_signature(),
        "network": {"hidden_sizes": network.hidden_sizes, "activation": network.activation},
        "weights": path.name,
        "weights_sha256": hashlib.sha256(weights).hexdigest(),
        "training": dict(training or {}),
    }
    write_atomically(sidecar_path(path), json.dumps(sidecar, indent=2, ensure_ascii=False) + "\n")
    return path


def resolve_value(name: str) -> Path:
    """The file of value ``name``: a path to ``NAME.safetensors``, or the bare
    name of a shipped value network (``greedy`` → ``checkpoints/values/greedy.safetensors``)."""
    if name.endswith(".safetensors") or "/" in name or "\\" in name:
        return Path(name)
    path = SHIPPED_VALUES / f"{name}.safetensors"
    if not path.is_file():
        shipped = sorted(p.stem for p in SHIPPED_VALUES.glob("*.safetensors"))
        raise FileNotFoundError(
            f"no shipped value network is named {name!r}: expected one of {shipped} "
            "or a path to a NAME.safetensors file"
        )
    return path


def load_value(path: str | Path) -> tuple[ValueNetwork, dict[str, Any]]:
    """``(network, sidecar)`` of a value checkpoint; a missing file is a
    ``FileNotFoundError``, anything that does not fit this env121 (another
    format, layouts, shapes, torn weights) a :class:`CheckpointMismatchError`
    naming the file."""
    path = Path(path)
    side = sidecar_path(path)
    for needed in (path, side):
        if not needed.is_file():
            raise FileNotFoundError(f"value file {str(needed)!r} does not exist")
    try:
        meta = json.loads(side.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as error:
        raise CheckpointMismatchError(f"sidecar {str(side)!r} is not valid JSON: {error}") from None
    if not isinstance(meta, dict) or meta.get("format") != VALUE_FORMAT:
        raise CheckpointMismatchError(
            f"sidecar {str(side)!r} is not an env121 value sidecar: expected "
            f'"format": "{VALUE_FORMAT}"'
        )
    check_compatible(meta, str(path), shipped=path.resolve().parent == SHIPPED_VALUES)
    data = path.read_bytes()
    if meta.get("weights_sha256") not in (None, hashlib.sha256(data).hexdigest()):
        raise CheckpointMismatchError(
            f"{path}: the weights do not match the sidecar's weights_sha256"
        )
    shape = meta.get("network")
    try:
        if not isinstance(shape, dict):
            raise ValueError("expected an object with hidden_sizes and activation")
        network = ValueNetwork(shape["hidden_sizes"], shape["activation"])
        with one_thread():
            network.load_state_dict(read_tensors(path))
    except (KeyError, TypeError, ValueError, RuntimeError) as error:
        raise CheckpointMismatchError(f"{path}: network {shape!r} does not fit: {error}") from None
    network.eval()
    return network, meta


class LeafValuer:
    """A :class:`ValueNetwork` valuing the leaves of a search's playouts: for
    game records left at their leaves by a kernel call, one seat's value in
    each, in one forward pass on one thread."""

    def __init__(self, name: str) -> None:
        self.network, self.meta = load_value(resolve_value(name))
        self.name = name

    def values(
        self, games: np.ndarray, indices: np.ndarray, seat: int, config: RuleConfig | None = None
    ) -> np.ndarray:
        """``float64 [len(indices)]``: seat ``seat``'s value, in points, of each
        record ``games[indices[k]]``."""
        if not len(indices):
            return np.zeros(0)
        seats = np.full(len(indices), seat, dtype=np.int64)
        inputs, line = encode_values(games, indices.astype(np.int64), seats, config)
        with one_thread(), torch.inference_mode():
            out = self.network(torch.from_numpy(inputs))
        values: np.ndarray = line + out.numpy().astype(np.float64) * VALUE_SCALE
        return values


__all__ = [
    "HIDDEN_SIZE",
    "SHIPPED_VALUES",
    "TABLES_SIZE",
    "VALUE_INPUT_SIZE",
    "VALUE_SCALE",
    "LeafValuer",
    "ValueNetwork",
    "encode_values",
    "hidden_hands",
    "load_value",
    "resolve_value",
    "save_value",
]
