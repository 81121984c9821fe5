"""The batched trainer's rollout: the games played for the learner, each seat's
stream of decisions, and its advantages.

A :class:`Rollout` owns one batched engine and its games' tables and plays
them for the learner; the in-process trainer has one, each rollout worker of
:mod:`training.ray_rollouts` another (the same code). It stores the learner's
decisions in :class:`Samples` in the order they are taken. Each seat's
decisions in a game form a stream, linked by ``successors`` (the index of the
same seat's next decision, ``-1`` where the stream ended, ``-2`` while it is
open); :func:`stream_advantages` computes GAE(γ, λ) along each stream. A
decision still open when the rollout ends waits for its rewards and is
trained in the next update (:meth:`Samples.carry`). What an update trains on
is :class:`TrainedDecisions`.

With ``Config.overlap`` a rollout has two buffers, used alternately: the open
decisions move into the other one before the next rollout is played, so the
update reads the closed rows of the last rollout while the next one writes
(:meth:`Rollout.carry_open`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np
import torch
from numba import njit

from agents.batched_greedy import BatchedGreedy
from agents.batched_ppo import BatchedPPO, InputEncoder, legal_masks
from agents.environments import make_batched_policy
from agents.value import HIDDEN_SIZE, hidden_hands
from env121.engine.actions import NUM_ACTIONS
from env121.engine.batched.engine import BatchedEngine
from env121.engine.state import NUM_SEATS
from env121.play.batched_policy import BatchedPolicy, BatchedRandom, WholeMatches
from training.actor_critic import ActorCritic, masked_logits
from training.batched_config import TABLES, Config
from training.hardware import pinned

NETWORK_ARRAYS = ("inputs", "hidden", "masks")
"""What the networks read of a decision: the keys of :attr:`Samples.network_arrays`."""


@njit(cache=True, nogil=True)
def stream_advantages(
    rewards: np.ndarray,
    values: np.ndarray,
    successors: np.ndarray,
    gamma: float,
    lam: float,
    out: np.ndarray,
) -> None:
    """GAE along each seat's stream of decisions, for decisions ``0 .. n-1``
    in the order they were taken. ``successors[i]``: the index of the same
    seat's next decision in the stream, ``-1`` when the stream ended after
    ``i``; a successor still open (its own successor unknown) is marked by
    ``successors[successors[i]] == -2`` and is bootstrapped on, not continued."""
    for i in range(rewards.shape[0] - 1, -1, -1):
        j = successors[i]
        if j == -2:
            out[i] = 0.0  # open: not trained this update
            continue
        if j == -1:
            out[i] = rewards[i] - values[i]
            continue
        delta = rewards[i] + gamma * values[j] - values[i]
        continuation = 0.0 if successors[j] == -2 else out[j]
        out[i] = delta + gamma * lam * continuation


class Samples:
    """The learner's decisions of a rollout (and the open ones carried in).
    What the networks read (inputs, hidden hands, masks) lies in page-locked
    memory when they run on a GPU, so each step's rows go over in one
    asynchronous copy per array."""

    def __init__(self, capacity: int, width: int, perfect: bool, device: torch.device) -> None:
        hidden = HIDDEN_SIZE if perfect else 0
        self.network_arrays = {
            "inputs": pinned((capacity, width), np.float32, device),
            "hidden": pinned((capacity, hidden), np.float32, device),
            "masks": pinned((capacity, NUM_ACTIONS), np.bool_, device),
        }
        """The rows the networks read, as tensors (``inputs`` … are their numpy views)."""
        self.inputs = self.network_arrays["inputs"].numpy()
        self.hidden = self.network_arrays["hidden"].numpy()
        self.masks = self.network_arrays["masks"].numpy()
        self.actions = np.zeros(capacity, dtype=np.int64)
        self.logps = np.zeros(capacity, dtype=np.float32)
        self.values = np.zeros(capacity, dtype=np.float32)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.successors = np.full(capacity, -2, dtype=np.int64)
        self.size = 0

    def take(self, count: int) -> np.ndarray:
        """Indices of ``count`` new samples (their successors open)."""
        start = self.size
        self.size += count
        if self.size > len(self.actions):
            raise RuntimeError("rollout buffer overflow: more decisions than the buffer holds")
        self.successors[start : self.size] = -2
        self.rewards[start : self.size] = 0.0
        return np.arange(start, self.size)

    def carry(self, open_samples: np.ndarray, into: Samples) -> np.ndarray:
        """Move ``open_samples`` (with the points credited to them so far) to the
        front of ``into`` for the next rollout: this buffer itself, or with
        ``overlap`` the other one, this one left as it is. Returns their new
        indices in ``into``."""
        n = len(open_samples)
        for name in ("inputs", "hidden", "masks", "actions", "logps", "values", "rewards"):
            getattr(into, name)[:n] = getattr(self, name)[open_samples]
        into.successors[:n] = -2
        into.size = n
        return np.arange(n)


class TrainedDecisions(NamedTuple):
    """The decisions one update trains on: ``network`` holds what the networks
    read (CPU tensors, on their first axis), ``rows`` which of those rows are
    trained (in a local rollout, the closed decisions of its buffer; from
    rollout workers, all of them), and per trained row the rest."""

    network: dict[str, torch.Tensor]
    """``inputs``, ``hidden`` and ``masks`` rows (:attr:`Samples.network_arrays`)."""
    rows: np.ndarray
    """The rows of ``network`` trained, in the order of the arrays below."""
    actions: np.ndarray
    """The action taken."""
    logps: np.ndarray
    """Its log-probability when it was taken."""
    advantages: np.ndarray
    """GAE along its seat's stream (:func:`stream_advantages`)."""
    returns: np.ndarray
    """``advantages`` + the critic's value when it was taken: the value target."""
    rewards: np.ndarray
    """Points credited to it (× ``reward_scale``)."""

    def compact(self) -> dict[str, np.ndarray]:
        """The trained rows alone, as numpy arrays (what a rollout worker sends)."""
        arrays = {name: tensor.numpy()[self.rows] for name, tensor in self.network.items()}
        for name in ("actions", "logps", "advantages", "returns", "rewards"):
            arrays[name] = getattr(self, name)
        return arrays

    @classmethod
    def joined(cls, parts: Sequence[dict[str, np.ndarray]]) -> TrainedDecisions:
        """The :meth:`compact` decisions of several rollouts, one after another."""
        arrays = {name: np.concatenate([part[name] for part in parts]) for name in parts[0]}
        network = {name: torch.from_numpy(arrays.pop(name)) for name in NETWORK_ARRAYS}
        return cls(network, np.arange(len(arrays["actions"])), **arrays)


class Rollout:
    """The games one batched engine plays for the learner, and the decisions
    they yield: each game's *table* (self-play, or one learner seat against
    three copies of a pool snapshot, ``greedy``, ``random`` or ``frozen``), the
    opponents, each seat's open decision, the :class:`Samples` buffer.

    The in-process trainer has one, sharing the learner's networks, device
    and generators (with ``overlap``: a copy of the networks one update behind,
    and generators of its own, :meth:`seed`); each rollout worker of
    :mod:`training.ray_rollouts` has its own, on the CPU copy of the networks
    the learner sends it before each rollout. Both call :meth:`play`, then
    :meth:`carry_open` once the decisions are trained (or copied; with
    ``overlap``, before the next rollout, which writes to the other buffer)."""

    def __init__(
        self,
        config: Config,
        model: ActorCritic,
        device: torch.device,
        threads: int,
        rng: np.random.Generator,
        random_seed: int,
    ) -> None:
        self.config = config
        self.model = model
        """The actor (which acts) and the critic (whose values are stored)."""
        self.device = device
        self.rng = rng
        """Deals, tables and the seats of the learner."""
        self.torch_rng: torch.Generator | None = None
        """The learner's draws of its actions (``None``: torch's global generator)."""
        b = config.num_games
        self.engine = BatchedEngine(b, config.rule_config, threads=threads)
        self.encoder = InputEncoder(config.inputs, b, config.rule_config, threads)
        self.buffers = [
            Samples(
                config.rollout_steps * b + NUM_SEATS * b,
                self.encoder.width,
                config.critic == "perfect",
                device,
            )
            for _ in range(2 if config.overlap else 1)
        ]
        """One buffer, or with ``overlap`` two used alternately."""
        self.samples = self.buffers[0]
        """The buffer the next rollout writes to."""
        self.greedy = BatchedGreedy(threads=threads)
        self.random = BatchedRandom(random_seed)
        self.frozen = (
            make_batched_policy(config.frozen_agent, whole_matches=True)
            if config.frozen_agent
            else None
        )
        """The ``frozen`` table's agent; a :class:`WholeMatches` (``program:``,
        ``import:``) is shown its games whole: told where it sits as each match
        is dealt (:meth:`new_matches`), asked every decision of its seats, told
        every action played (:meth:`step`)."""
        self.pool: list[BatchedPPO] = []
        """The snapshots in play, oldest first."""
        self.learner_seats = np.zeros((b, NUM_SEATS), dtype=bool)
        self.opponent = np.zeros(b, dtype=np.int64)
        """Per game its opponents: -1 none (self play), -2 ``frozen``, 0 greedy, 1 random,
        2+k pool[k]."""
        self.pending = np.full((b, NUM_SEATS), -1, dtype=np.int64)
        """Per game and seat its open decision (index into the samples), or -1."""

    # ---------------------------------------------------------- tables

    def new_matches(self, games: np.ndarray) -> None:
        """Deal ``games`` their tables for the match they start."""
        if not len(games):
            return
        weights = dict(self.config.table_weights)
        if not self.pool:
            weights["self"] = weights.get("self", 0.0) + weights.pop("pool", 0.0)
        kinds = [k for k in TABLES if weights.get(k, 0.0) > 0]
        p = np.array([weights[k] for k in kinds], dtype=np.float64)
        drawn = self.rng.choice(len(kinds), size=len(games), p=p / p.sum())
        self.learner_seats[games] = False
        for g, d in zip(games, drawn, strict=True):
            kind = kinds[d]
            if kind == "self":
                self.learner_seats[g] = True
                self.opponent[g] = -1
                continue
            self.learner_seats[g, self.rng.integers(NUM_SEATS)] = True
            if kind == "greedy":
                self.opponent[g] = 0
            elif kind == "random":
                self.opponent[g] = 1
            elif kind == "frozen":
                self.opponent[g] = -2
            else:
                self.opponent[g] = 2 + self.rng.integers(len(self.pool))
        if isinstance(self.frozen, WholeMatches):
            frozen = games[self.opponent[games] == -2]
            self.frozen.begin(self.engine, frozen, ~self.learner_seats[frozen])

    def seed(self, seed: np.random.SeedSequence) -> None:
        """Give the rollout generators of its own, drawn from ``seed``: its deals,
        tables and learner seats, and its draws of the learner's actions (so a
        rollout played while the learner updates draws nothing of the learner's)."""
        tables, actions = seed.spawn(2)
        self.rng = np.random.default_rng(tables)
        self.torch_rng = torch.Generator(device=self.device)
        self.torch_rng.manual_seed(int(actions.generate_state(1, np.uint64)[0] >> 1))

    def start(self) -> None:
        """Deal every game a new match from the generator (open decisions dropped)."""
        seeds = self.rng.integers(0, 2**63, size=self.config.num_games, dtype=np.int64)
        self.engine.reset(seeds)
        self.pending[:] = -1
        self.samples = self.buffers[0]
        self.samples.size = 0
        self.new_matches(np.arange(self.config.num_games))

    def add_snapshot(self, path: Path) -> None:
        """Put the pool snapshot saved at ``path`` in play (on this rollout's
        device), retiring the oldest beyond ``pool_max_size``."""
        policy = BatchedPPO(str(path), deterministic=False)
        policy.network.to(self.device)
        self.pool.append(policy)
        if len(self.pool) > self.config.pool_max_size:
            self.pool.pop(0)
            self.opponent[self.opponent >= 2] = np.maximum(self.opponent[self.opponent >= 2] - 1, 2)

    def opponents(self) -> Iterator[tuple[int, BatchedPolicy]]:
        """``(code, policy)`` of every opponent a table may hold."""
        yield 0, self.greedy
        yield 1, self.random
        if self.frozen is not None:
            yield -2, self.frozen
        for k, policy in enumerate(self.pool):
            yield 2 + k, policy

    # ---------------------------------------------------------- playing

    def encode(self, indices: np.ndarray, seats: np.ndarray, rows: np.ndarray) -> None:
        """Write the inputs (and the critic's hidden hands) of ``seats`` in games
        ``indices`` into sample rows ``rows``."""
        s = self.samples
        block = slice(int(rows[0]), int(rows[-1]) + 1)  # rows are consecutive
        self.encoder(self.engine, indices, s.inputs[block])
        if self.config.critic == "perfect":
            hidden_hands(self.engine.games, indices, seats, s.hidden[block])

    def step(self) -> None:
        """One engine step of every game: the learner's sampled decisions (stored),
        the opponents' and the forced moves, then the rewards credited."""
        engine, games, s = self.engine, self.engine.games, self.samples
        to_act = games["to_act"].astype(np.int64)
        n_legal = games["n_legal"]
        every = np.arange(self.config.num_games)
        actions = games["legal"][:, 0].astype(np.int64)  # the forced moves
        choice = n_legal > 1
        learner_turn = self.learner_seats[every, to_act]
        mine = np.flatnonzero(choice & learner_turn)
        if len(mine):
            seats = to_act[mine]
            rows = s.take(len(mine))
            self.encode(mine, seats, rows)
            s.masks[rows] = legal_masks(games, mine)
            with torch.inference_mode():
                block = slice(int(rows[0]), int(rows[-1]) + 1)
                network = network_rows(s.network_arrays, block, self.device)
                logits, values = evaluate(self.model, network)
                if self.config.method == "dmc":
                    played = self.choose_by_value(logits, network["masks"])
                else:
                    logp_all = torch.log_softmax(logits, dim=1)
                    chosen = torch.multinomial(logp_all.exp(), 1, generator=self.torch_rng)
                    logp = logp_all.gather(1, chosen).squeeze(1)
                    played = torch.stack((chosen.squeeze(1).to(logp.dtype), logp, values))
                back = played.cpu().numpy()
            s.actions[rows] = back[0]
            s.logps[rows] = back[1]
            s.values[rows] = back[2]
            actions[mine] = s.actions[rows]
            previous = self.pending[mine, seats]
            linked = previous >= 0
            s.successors[previous[linked]] = rows[linked]
            self.pending[mine, seats] = rows
        for code, policy in self.opponents():
            theirs = ~learner_turn & (self.opponent == code)
            # the forced moves too, for an agent owed every decision of its match
            asked = np.flatnonzero(theirs if isinstance(policy, WholeMatches) else theirs & choice)
            if len(asked):
                actions[asked] = policy.act(engine, asked)
        result = engine.step(actions)
        if isinstance(self.frozen, WholeMatches):
            self.frozen.stepped(engine, actions)
        self.credit(result.rewards, games["vong_ended"], result.terminated)

    def choose_by_value(self, values: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
        """DMC's play (``method: dmc``): per row the legal action of highest value
        (``values``: the actor's masked outputs), a uniformly random legal one
        with probability ``epsilon``. Rows: the action, 0 (no log-probability),
        and the value of the action played (what a stream left open at the
        rollout's end is bootstrapped on)."""
        best = values.argmax(dim=1)
        draws = torch.rand(len(best), device=values.device, generator=self.torch_rng)
        explore = draws < self.config.epsilon
        if bool(explore.any()):
            uniform = torch.multinomial(masks[explore].float(), 1, generator=self.torch_rng)
            best[explore] = uniform.squeeze(1)
        played = values.gather(1, best[:, None]).squeeze(1)
        return torch.stack((best.to(played.dtype), torch.zeros_like(played), played))

    def credit(self, rewards: np.ndarray, vong_ended: np.ndarray, terminated: np.ndarray) -> None:
        """Add each seat's points of the step to its open decision; close the
        streams that end (a vòng or a match) and deal new tables where a match ended."""
        s = self.samples
        open_rows = self.pending >= 0
        s.rewards[self.pending[open_rows]] += rewards[open_rows] * self.config.reward_scale
        ended = terminated | (vong_ended if self.config.horizon == "vong" else False)
        closing = open_rows & ended[:, None]
        s.successors[self.pending[closing]] = -1
        self.pending[ended] = -1
        self.new_matches(np.flatnonzero(terminated))

    def play(self) -> TrainedDecisions:
        """Play ``rollout_steps`` engine steps; the decisions closed so far (the
        carried ones included) with their advantages, as views of the buffer:
        valid until :meth:`carry_open` (with ``overlap``: until the one after,
        which writes to this buffer again)."""
        c = self.config
        for _ in range(c.rollout_steps):
            self.step()
        s = self.samples
        n = s.size
        advantages = np.zeros(n, dtype=np.float32)
        # DMC's target is the points that followed: λ = 1 makes ``returns`` those
        # (bootstrapped on the stored value only where the next decision is open).
        lam = 1.0 if c.method == "dmc" else c.gae_lambda
        stream_advantages(s.rewards[:n], s.values[:n], s.successors[:n], c.gamma, lam, advantages)
        trained = np.flatnonzero(s.successors[:n] != -2)
        return TrainedDecisions(
            network={name: tensor[:n] for name, tensor in s.network_arrays.items()},
            rows=trained,
            actions=s.actions[trained],
            logps=s.logps[trained],
            advantages=advantages[trained],
            returns=advantages[trained] + s.values[trained],
            rewards=s.rewards[trained],
        )

    def close(self) -> None:
        """Close the frozen agent's programs, if it has any (``program:``)."""
        if isinstance(self.frozen, WholeMatches):
            self.frozen.close()

    def carry_open(self) -> None:
        """Move the open decisions to the front of the next buffer for the next
        rollout: the same one, or with ``overlap`` the other one."""
        into = self.buffers[(self.buffers.index(self.samples) + 1) % len(self.buffers)]
        open_rows = self.pending >= 0
        self.pending[open_rows] = self.samples.carry(self.pending[open_rows], into)
        self.samples = into


def network_rows(
    arrays: dict[str, torch.Tensor], rows: slice | np.ndarray, device: torch.device
) -> dict[str, torch.Tensor]:
    """Rows ``rows`` of what the networks read (``arrays``: CPU tensors as
    :attr:`Samples.network_arrays`; a slice: consecutive rows, no copy on the
    CPU), on ``device``."""
    return {
        name: (
            tensor[rows] if isinstance(rows, slice) else torch.from_numpy(tensor.numpy()[rows])
        ).to(device, non_blocking=True)
        for name, tensor in arrays.items()
    }


def evaluate(
    model: ActorCritic, rows: dict[str, torch.Tensor]
) -> tuple[torch.Tensor, torch.Tensor]:
    """Masked logits and values of ``rows`` (:func:`network_rows`)."""
    hidden = rows["hidden"] if model.hidden_in is not None else None
    logits, values = model(rows["inputs"], hidden)
    return masked_logits(logits, rows["masks"]), values


__all__ = [
    "NETWORK_ARRAYS",
    "Rollout",
    "Samples",
    "TrainedDecisions",
    "evaluate",
    "network_rows",
    "stream_advantages",
]
