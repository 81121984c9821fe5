"""``ppo`` as a batched policy: one forward pass for all the games that need it.

:class:`BatchedPPO` plays a trained checkpoint (:mod:`agents.ppo`) in many
games of a :class:`~env121.engine.batched.BatchedEngine` at once: it encodes
the observation of the seat to act in each game asked (the compiled encoder,
:func:`env121.play.batched_observation.encode_seats`), runs the network once on
the whole batch, and plays each game's masked argmax of the logits — what
:class:`agents.ppo.PPOAgent` plays on the same decision — or, with
``deterministic=False``, a sample of the masked softmax (the agent's
distribution, drawn from this policy's own generator)::

    policy = BatchedPPO("small")
    actions[games] = policy.act(engine, games)

It plays networks that read the observation alone (``inputs:
"observation"``, as ``ppo:small``) and those that read it followed by what
each action leaves the seat to win on (``inputs: "observation+swap_wins"``,
and ``"observation+swap_wins+nb_wins"`` with the Nhất Bản decisions too: the
compiled parts of :mod:`agents.batched_hints`). The hinted ones also read
what greedy and the search think of each decision (:mod:`agents.hints`),
which only the reference engine computes, so they are refused with an error
that says so.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

import numpy as np
import torch

from agents.batched_hints import NB_WINS_SIZE, SWAP_WINS_SIZE, encode_nb_wins, encode_swap_wins
from agents.hints import INPUTS
from agents.ppo import PolicyNetwork, load_policy, one_thread, resolve_checkpoint
from agents.spec import canonical_spec
from env121.engine.actions import NUM_ACTIONS
from env121.engine.batched.engine import BatchedEngine
from env121.play.batched_observation import Observer, encode_seats, make_observer
from env121.play.observation import OBS_SIZE

SWAP_WINS_INPUTS = "observation+swap_wins"
NB_WINS_INPUTS = "observation+swap_wins+nb_wins"
BATCHED_INPUTS = ("observation", SWAP_WINS_INPUTS, NB_WINS_INPUTS)
"""The inputs (:data:`agents.hints.INPUTS`) of the networks this policy plays."""


def encode_inputs(
    inputs: str,
    engine: BatchedEngine,
    indices: np.ndarray,
    observer: Observer,
    out: np.ndarray,
) -> None:
    """``out[k]`` = the network input ``inputs`` (one of :data:`BATCHED_INPUTS`)
    of the seat to act in game ``indices[k]`` of ``engine``: its observation
    (with ``observer``, the engine's :func:`make_observer`), then for
    ``observation+swap_wins`` the compiled ``swap_wins`` part, and for
    ``observation+swap_wins+nb_wins`` the ``nb_wins`` part after it. ``out``
    is ``float32 [len(indices), INPUTS[inputs]]``."""
    games = engine.games
    seats = games["to_act"][indices].astype(np.int64)
    if inputs == "observation":
        encode_seats(games, indices, seats, observer, out)
        return
    observations = np.empty((len(indices), OBS_SIZE), dtype=np.float32)
    encode_seats(games, indices, seats, observer, observations)
    out[:, :OBS_SIZE] = observations
    part = np.empty((len(indices), SWAP_WINS_SIZE), dtype=np.float32)
    encode_swap_wins(games, indices, engine.kernel_config, part)
    out[:, OBS_SIZE : OBS_SIZE + SWAP_WINS_SIZE] = part
    if inputs == NB_WINS_INPUTS:
        nb_part = np.empty((len(indices), NB_WINS_SIZE), dtype=np.float32)
        encode_nb_wins(games, indices, engine.kernel_config, nb_part)
        out[:, OBS_SIZE + SWAP_WINS_SIZE :] = nb_part


def legal_masks(games: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """``bool [len(indices), NUM_ACTIONS]``: the legal actions of the seat to
    act in each game ``indices`` (from the records' legal lists)."""
    legal = np.zeros((len(indices), NUM_ACTIONS), dtype=bool)
    n_legal = games["n_legal"][indices]
    rows, slots = np.nonzero(np.arange(games["legal"].shape[1]) < n_legal[:, None])
    legal[rows, games["legal"][indices[rows], slots]] = True
    return legal


class BatchedPPO:
    """A trained policy for many games at once: ``checkpoint`` and
    ``deterministic`` as for :class:`agents.ppo.PPOAgent`."""

    def __init__(self, checkpoint: str, deterministic: bool = True) -> None:
        network, self.metadata = load_policy(resolve_checkpoint(checkpoint))
        if network.inputs not in BATCHED_INPUTS:
            raise ValueError(
                f"checkpoint {checkpoint!r} reads {network.inputs!r}: the batched ppo policy "
                f"plays networks that read one of {list(BATCHED_INPUTS)}; play this one as an "
                "agent (env121.SingleSeat, gym.make_vec(..., vectorization_mode='sync'))"
            )
        self.network = network
        self.checkpoint = str(checkpoint)
        self.deterministic = deterministic
        params: dict[str, object] = {"checkpoint": str(checkpoint)}
        if not deterministic:
            params["deterministic"] = False
        self.spec = canonical_spec("ppo", params)
        self.rng = np.random.default_rng(0)
        self._observers: WeakKeyDictionary[BatchedEngine, Observer] = WeakKeyDictionary()
        """Per engine the observer of its games (and its cache)."""

    def reset(self, seed: int) -> None:
        """Reseed the sampling generator (``deterministic=False``)."""
        self.rng = np.random.default_rng(seed)

    def act(self, engine: BatchedEngine, indices: np.ndarray) -> np.ndarray:
        """The policy's action for the seat to act in each game ``indices``."""
        observer = self._observers.get(engine)
        if observer is None:
            observer = self._observers[engine] = make_observer(engine.num_games, engine.config)
        return network_actions(
            self.network, engine, indices, observer, None if self.deterministic else self.rng
        )


def network_actions(
    network: PolicyNetwork,
    engine: BatchedEngine,
    indices: np.ndarray,
    observer: Observer,
    rng: np.random.Generator | None = None,
) -> np.ndarray:
    """``network``'s action for the seat to act in each game ``indices`` of
    ``engine`` (``observer`` its :func:`make_observer`): the masked argmax of
    the logits, or with ``rng`` a sample of the masked softmax drawn from it."""
    inputs = np.empty((len(indices), INPUTS[network.inputs]), dtype=np.float32)
    encode_inputs(network.inputs, engine, indices, observer, inputs)
    with one_thread(), torch.inference_mode():
        logits = network(torch.from_numpy(inputs)).numpy().astype(np.float64)
    logits[~legal_masks(engine.games, indices)] = -np.inf
    if rng is None:
        chosen: np.ndarray = np.argmax(logits, axis=1)
        return chosen
    weights = np.exp(logits - logits.max(axis=1, keepdims=True))
    cumulative = np.cumsum(weights, axis=1)
    draws = rng.random(len(indices)) * cumulative[:, -1]
    sampled: np.ndarray = (cumulative <= draws[:, None]).sum(axis=1)
    return sampled


__all__ = [
    "BATCHED_INPUTS",
    "NB_WINS_INPUTS",
    "SWAP_WINS_INPUTS",
    "BatchedPPO",
    "encode_inputs",
    "legal_masks",
    "network_actions",
]
