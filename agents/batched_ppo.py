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
which only the Python hints compute (one match at a time), so they are refused with an error
that says so.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

import numpy as np
import torch

from agents.batched_greedy import MIN_GAMES_PER_THREAD
from agents.batched_hints import SWAP_WINS_SIZE, encode_nb_wins, encode_swap_wins, new_nb_memory
from agents.hints import INPUTS
from agents.ppo import PolicyNetwork, load_policy, resolve_checkpoint, sample_legal
from agents.spec import NoBatchedForm, canonical_spec
from agents.weights import one_thread
from env121.engine.actions import NUM_ACTIONS
from env121.engine.batched.engine import BatchedEngine
from env121.engine.batched.threads import SliceThreads
from env121.play.batched_observation import Observer, encode_seats, make_observer
from env121.play.observation import OBS_SIZE
from env121.rules.config import RuleConfig

SWAP_WINS_INPUTS = "observation+swap_wins"
NB_WINS_INPUTS = "observation+swap_wins+nb_wins"
BATCHED_INPUTS = ("observation", SWAP_WINS_INPUTS, NB_WINS_INPUTS)
"""The inputs (:data:`agents.hints.INPUTS`) of the networks this policy plays."""


class InputEncoder:
    """Writes network input ``inputs`` (one of :data:`BATCHED_INPUTS`) for the
    seat to act in games of a :class:`BatchedEngine` of ``num_games`` games
    under ``config``: its observation (the compiled encoder and its win-table
    cache, :func:`make_observer`), then for ``observation+swap_wins`` the
    compiled ``swap_wins`` part, and for ``observation+swap_wins+nb_wins`` the
    ``nb_wins`` part after it (with its memory of each seat's Nhất Bản moment,
    :func:`agents.batched_hints.new_nb_memory`). The games asked are split
    over ``threads`` threads (default: one per core)::

        encoder = InputEncoder(NB_WINS_INPUTS, engine.num_games, engine.config)
        encoder(engine, games, out)      # out: float32 [len(games), INPUTS[inputs]]
    """

    def __init__(
        self, inputs: str, num_games: int, config: RuleConfig, threads: int | None = None
    ) -> None:
        if inputs not in BATCHED_INPUTS:
            raise ValueError(f"inputs={inputs!r} is not valid: expected one of {BATCHED_INPUTS}")
        self.inputs = inputs
        self.width = INPUTS[inputs]
        self.observer: Observer = make_observer(num_games, config)
        self.nb_memory = new_nb_memory(num_games) if inputs == NB_WINS_INPUTS else None
        self._threads = SliceThreads(threads, MIN_GAMES_PER_THREAD)

    def __call__(self, engine: BatchedEngine, indices: np.ndarray, out: np.ndarray) -> None:
        """``out[k]`` = the input of the seat to act in game ``indices[k]``
        (distinct ``int64`` game indices; ``out`` ``float32 [len(indices), width]``)."""
        games = engine.games
        kc = engine.kernel_config
        seats = games["to_act"][indices].astype(np.int64)
        parts = np.empty((len(indices), self.width - OBS_SIZE), dtype=np.float32)

        def run(part: slice) -> None:
            chosen = indices[part]
            if self.inputs == "observation":
                encode_seats(games, chosen, seats[part], self.observer, out[part])
                return
            observations = np.empty((len(chosen), OBS_SIZE), dtype=np.float32)
            encode_seats(games, chosen, seats[part], self.observer, observations)
            out[part, :OBS_SIZE] = observations
            encode_swap_wins(games, chosen, kc, parts[part, :SWAP_WINS_SIZE])
            if self.nb_memory is not None:
                encode_nb_wins(games, chosen, kc, self.nb_memory, parts[part, SWAP_WINS_SIZE:])
            out[part, OBS_SIZE:] = parts[part]

        self._threads.run(len(indices), run)


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
            raise NoBatchedForm(
                f"checkpoint {checkpoint!r} reads {network.inputs!r}: the batched ppo policy "
                f"plays networks that read one of {list(BATCHED_INPUTS)}; play this one as an "
                "agent (agents.SingleSeat, gym.make_vec(..., vectorization_mode='sync'))"
            )
        self.network = network
        self.checkpoint = str(checkpoint)
        self.deterministic = deterministic
        params: dict[str, object] = {"checkpoint": str(checkpoint)}
        if not deterministic:
            params["deterministic"] = False
        self.spec = canonical_spec("ppo", params)
        self.rng = np.random.default_rng(0)
        self.seated: dict[tuple[int, int], np.random.Generator] = {}
        """The sampling generator of each (game, seat) taken with :meth:`seat`."""
        self._encoders: WeakKeyDictionary[BatchedEngine, InputEncoder] = WeakKeyDictionary()
        """Per engine the encoder of its games (and its caches)."""

    def reset(self, seed: int) -> None:
        """Reseed the sampling generator (``deterministic=False``)."""
        self.rng = np.random.default_rng(seed)

    def seat(self, game: int, seat: int, seed: int) -> None:
        """Sample for ``seat`` of ``game`` from a generator of its own,
        ``default_rng(seed)``, as :meth:`agents.ppo.PolicyAgent.reset` seeds the
        agent's (``deterministic=False``; an argmax draws nothing)."""
        self.seated[(game, seat)] = np.random.default_rng(seed)

    def act(self, engine: BatchedEngine, indices: np.ndarray) -> np.ndarray:
        """The policy's action for the seat to act in each game ``indices``: the
        argmax, or a sample of the masked softmax (each seated seat from its own
        generator, :func:`agents.ppo.sample_legal`, as the agent draws)."""
        if self.deterministic or not self.seated:
            return network_actions(
                self.network,
                engine,
                indices,
                self._encoder(engine),
                None if self.deterministic else self.rng,
            )
        logits = self.logits(engine, indices)
        seats = engine.games["to_act"][indices].tolist()
        actions = np.empty(len(indices), dtype=np.int64)
        for k, (g, s) in enumerate(zip(indices.tolist(), seats, strict=True)):
            legal = np.flatnonzero(np.isfinite(logits[k]))
            actions[k] = sample_legal(legal, logits[k, legal], self.seated[(g, s)])
        return actions

    def logits(self, engine: BatchedEngine, indices: np.ndarray) -> np.ndarray:
        """The network's masked logits for the seat to act in each game
        ``indices`` (:func:`network_logits`), for a caller that draws its own samples."""
        return network_logits(self.network, engine, indices, self._encoder(engine))

    def _encoder(self, engine: BatchedEngine) -> InputEncoder:
        encoder = self._encoders.get(engine)
        if encoder is None:
            encoder = self._encoders[engine] = InputEncoder(
                self.network.inputs, engine.num_games, engine.config
            )
        return encoder


def network_logits(
    network: PolicyNetwork, engine: BatchedEngine, indices: np.ndarray, encoder: InputEncoder
) -> np.ndarray:
    """``float64 [len(indices), NUM_ACTIONS]``: ``network``'s logits for the seat
    to act in each game ``indices`` of ``engine`` (``encoder`` as for
    :func:`network_actions`), ``-inf`` on the illegal actions. The network runs
    on the device its weights are on."""
    inputs = np.empty((len(indices), encoder.width), dtype=np.float32)
    encoder(engine, indices, inputs)
    device = next(network.parameters()).device
    with one_thread(), torch.inference_mode():
        logits: np.ndarray = (
            network(torch.from_numpy(inputs).to(device)).cpu().numpy().astype(np.float64)
        )
    logits[~legal_masks(engine.games, indices)] = -np.inf
    return logits


def network_actions(
    network: PolicyNetwork,
    engine: BatchedEngine,
    indices: np.ndarray,
    encoder: InputEncoder,
    rng: np.random.Generator | None = None,
) -> np.ndarray:
    """``network``'s action for the seat to act in each game ``indices`` of
    ``engine`` (``encoder`` the engine's :class:`InputEncoder` for the network's
    inputs): the masked argmax of the logits, or with ``rng`` a sample of the
    masked softmax drawn from it."""
    logits = network_logits(network, engine, indices, encoder)
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
    "InputEncoder",
    "legal_masks",
    "network_actions",
    "network_logits",
]
