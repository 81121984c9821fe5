"""The self-play opponent pool: frozen snapshots of the learner on disk.

The pool is a directory of weights-only snapshots (``snap_<step>.safetensors``
+ sidecar, the format of :mod:`agents.ppo`) and a ``manifest.json`` listing
the snapshots in play. The trainer adds snapshots (:meth:`SnapshotPool.add`)
and rewrites the manifest atomically; each environment process reads it
through an :class:`OpponentMixture`, which looks at the manifest's mtime at
every episode start and re-reads it when it changed, so ``SubprocVecEnv``
workers pick up new snapshots without being told.

An opponent seat is a :class:`MixtureOpponent`: an agent of the arena
protocol that, at every ``reset`` (every episode), draws what it plays as —
a snapshot of the pool or a built-in agent spec (``"random"``,
``"greedy"``, …) — with the mixture's weights, from the seed it is given.
The pool's weight is spread evenly over its snapshots; while the pool is
empty it goes to the other entries.

On the batched vector environment (:class:`env121.envs.vector.VectorSingleSeat`)
the opponents are batched policies instead, and one :class:`BatchedMixture`
plays the three opponent seats of every game: each seat of each game draws
what it plays as at every match, from the same mixture, and the games that
drew the same thing are played by one batched policy in one call
(:class:`~agents.batched_ppo.BatchedPPO` for a snapshot,
:func:`~agents.environments.make_batched_policy` for an agent spec).
"""

from __future__ import annotations

import json
import time
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from agents.batched_ppo import BatchedPPO
from agents.environments import make_batched_policy
from agents.ppo import PolicyAgent, PolicyNetwork, load_policy
from agents.registry import make_agent
from env121.engine.batched.engine import BatchedEngine
from env121.engine.files import write_atomically
from env121.engine.state import NUM_SEATS
from env121.play.batched_policy import BatchedPolicy
from env121.play.protocol import Agent
from env121.play.turn import Turn

POOL = "pool"
"""The key of the snapshot pool in an opponent-weights mapping."""
MANIFEST = "manifest.json"
MANIFEST_FORMAT = "env121-snapshot-pool"


@dataclass(frozen=True)
class Snapshot:
    """One frozen copy of the learner."""

    name: str
    """``snap_<step>``; also the file stem."""
    step: int
    """The learner's step count when it was taken."""
    reason: str
    """Why it was added: ``"initial"``, ``"schedule"`` or ``"beat_pool"``."""


class SnapshotPool:
    """The trainer's side of the pool: adds snapshots, keeps the manifest."""

    def __init__(self, directory: str | Path, max_size: int) -> None:
        if max_size < 1:
            raise ValueError(f"pool_max_size={max_size!r} is not valid: expected >= 1")
        self.directory = Path(directory)
        self.max_size = max_size
        self.directory.mkdir(parents=True, exist_ok=True)
        self.snapshots, self.retired = read_manifest(self.directory)

    def path(self, name: str) -> Path:
        """The weights file of snapshot ``name``."""
        return self.directory / f"{name}.safetensors"

    def add(self, step: int, reason: str) -> Snapshot:
        """Register snapshot ``snap_<step>`` (its file must already be written,
        see :meth:`path`); the oldest snapshots beyond ``max_size`` retire (their
        files stay, they are no longer drawn)."""
        snapshot = Snapshot(f"snap_{step:012d}", step, reason)
        if not self.path(snapshot.name).is_file():
            raise FileNotFoundError(f"snapshot file {self.path(snapshot.name)} was not written")
        self.snapshots = [s for s in self.snapshots if s.name != snapshot.name] + [snapshot]
        while len(self.snapshots) > self.max_size:
            self.retired.append(self.snapshots.pop(0))
        self._write_manifest()
        return snapshot

    def _write_manifest(self) -> None:
        manifest = {
            "format": MANIFEST_FORMAT,
            "updated": time.time(),
            "snapshots": [s.__dict__ for s in self.snapshots],
            "retired": [s.__dict__ for s in self.retired],
        }
        write_atomically(self.directory / MANIFEST, json.dumps(manifest, indent=2) + "\n")

    def roll_back(self, step: int) -> None:
        """Forget the snapshots taken after ``step`` (a run resumed from the
        checkpoint of ``step`` takes them again): the pool is as it was then."""
        taken = sorted(self.retired + self.snapshots, key=lambda s: s.step)
        kept = [s for s in taken if s.step <= step]
        if len(kept) == len(taken):
            return
        self.snapshots, self.retired = kept[-self.max_size :], kept[: -self.max_size]
        self._write_manifest()


def read_manifest(directory: str | Path) -> tuple[list[Snapshot], list[Snapshot]]:
    """``(snapshots in play, retired snapshots)``; both empty without a manifest."""
    path = Path(directory) / MANIFEST
    if not path.is_file():
        return [], []
    manifest = json.loads(path.read_text())
    if manifest.get("format") != MANIFEST_FORMAT:
        raise ValueError(f"{path} is not a snapshot pool manifest")
    return (
        [Snapshot(**s) for s in manifest["snapshots"]],
        [Snapshot(**s) for s in manifest.get("retired", [])],
    )


def check_opponent_weights(weights: Mapping[str, float]) -> None:
    """Raise ``ValueError`` unless ``weights`` are non-negative numbers, one at
    least positive, keyed by :data:`POOL` or agent specs that build (each spec
    is built once, so a bad one fails here rather than in an environment)."""
    bad = {
        k: w
        for k, w in weights.items()
        if not isinstance(w, int | float) or isinstance(w, bool) or not w >= 0
    }
    if bad or not any(w > 0 for w in weights.values()):
        raise ValueError(
            f"opponent_weights={dict(weights)!r} is not valid: expected non-negative "
            f"weights, one at least positive, keyed by {POOL!r} or agent specs"
        )
    for spec in weights:
        if spec != POOL:
            try:
                make_agent(spec)
            except ValueError as error:
                raise ValueError(f"opponent_weights: {error}") from None


class OpponentMixture:
    """What an opponent seat may play as, with weights; shared by the three
    opponent seats of one environment (it caches the loaded snapshots).

    ``weights`` maps :data:`POOL` and agent specs to non-negative weights.
    ``pool_dir`` is the pool's directory (``None``: no pool).
    """

    def __init__(
        self,
        weights: Mapping[str, float],
        pool_dir: str | Path | None = None,
        snapshot_deterministic: bool = False,
    ) -> None:
        check_opponent_weights(weights)
        if weights.get(POOL, 0) > 0 and pool_dir is None:
            raise ValueError("opponent_weights gives the pool a weight but there is no pool_dir")
        self.weights = {k: float(w) for k, w in weights.items() if w > 0}
        self.pool_dir = None if pool_dir is None else Path(pool_dir)
        self.snapshot_deterministic = snapshot_deterministic
        self.snapshots: list[Snapshot] = []
        self._manifest_mtime: int | None = None
        self._networks: dict[str, PolicyNetwork] = {}

    def refresh(self) -> None:
        """Re-read the manifest if it changed since the last look."""
        if self.pool_dir is None:
            return
        try:
            mtime = (self.pool_dir / MANIFEST).stat().st_mtime_ns
        except FileNotFoundError:
            return
        if mtime != self._manifest_mtime:
            self.snapshots, _ = read_manifest(self.pool_dir)
            self._manifest_mtime = mtime
            names = {s.name for s in self.snapshots}
            self._networks = {k: v for k, v in self._networks.items() if k in names}

    def choices(self) -> dict[str, float]:
        """Probabilities of what a seat plays as: agent specs and ``pool:<snapshot>``."""
        weights = dict(self.weights)
        pool_weight = weights.pop(POOL, 0.0)
        if self.snapshots and pool_weight > 0:
            for snapshot in self.snapshots:
                weights[f"{POOL}:{snapshot.name}"] = pool_weight / len(self.snapshots)
        total = sum(weights.values())
        if not total:  # only the pool has weight and it is still empty
            return {"random": 1.0}
        return {label: w / total for label, w in weights.items()}

    def network(self, name: str) -> PolicyNetwork:
        """Snapshot ``name``'s network, loaded once."""
        if name not in self._networks:
            assert self.pool_dir is not None
            self._networks[name], _ = load_policy(self.pool_dir / f"{name}.safetensors")
        return self._networks[name]


class MixtureOpponent:
    """One opponent seat: at every episode it draws what it plays as from the
    :class:`OpponentMixture`; ``label`` names the draw (``"greedy"``,
    ``"pool:snap_000000010240"``)."""

    def __init__(self, mixture: OpponentMixture) -> None:
        self.mixture = mixture
        self.label = "random"
        self.agent: Agent = make_agent("random")
        self.spec = self.agent.spec
        """The spec of the agent drawn for this episode (named if it plays an illegal action)."""
        self.uses_search = False
        """Whether the agent drawn for this episode searches."""
        self._agents: dict[str, Agent] = {}

    def reset(self, seed: int) -> None:
        """Draw this episode's agent (seeded) and reset it."""
        rng = np.random.default_rng(seed)
        self.mixture.refresh()
        choices = self.mixture.choices()
        labels = list(choices)
        self.label = labels[rng.choice(len(labels), p=list(choices.values()))]
        if self.label.startswith(f"{POOL}:"):
            name = self.label.split(":", 1)[1]
            network = self.mixture.network(name)
            self.agent = PolicyAgent(network, f"{POOL}:{name}", self.mixture.snapshot_deterministic)
        else:
            if self.label not in self._agents:
                self._agents[self.label] = make_agent(self.label)
            self.agent = self._agents[self.label]
        self.agent.reset(int(rng.integers(2**62)))
        self.spec = self.agent.spec
        self.uses_search = self.agent.uses_search

    def act(self, turn: Turn) -> int:
        """The drawn agent's action."""
        return self.agent.act(turn)


class BatchedMixture:
    """Every opponent seat of every game of a batched vector environment, as
    one batched policy (give it as ``VectorSingleSeat``'s ``opponents``): what
    a :class:`MixtureOpponent` is for one seat of one environment.

    Each seat of each game plays, for a whole match, what it drew from the
    :class:`OpponentMixture` (``labels``, as :attr:`MixtureOpponent.label`
    names them) when that match began. Whenever it is asked to act, and
    when :meth:`refresh` is called, it looks at every game's match seed
    (``engine.games["seed"]``): the games whose match changed re-read the
    pool's manifest and draw again, all four seats, in game order, from the
    generator :meth:`reset` seeded (the learner's seat draws too, and its
    draw is not used).
    """

    def __init__(self, mixture: OpponentMixture) -> None:
        self.mixture = mixture
        self.spec = "mixture(" + ", ".join(f"{k}={w:g}" for k, w in mixture.weights.items()) + ")"
        self.seed = 0
        self.rng = np.random.default_rng(self.seed)
        self.names: list[str] = []
        """The labels drawn so far; ``labels`` holds indices into it."""
        self.labels = np.zeros((0, NUM_SEATS), dtype=np.int64)
        """``[games, 4]``: what each seat of each game plays as in its current
        match (an index into ``names``)."""
        self.seeds = np.zeros(0, dtype=np.uint64)
        """Each game's match seed when its seats last drew."""
        self._drawn = np.zeros(0, dtype=bool)
        self._policies: dict[str, BatchedPolicy] = {}

    def reset(self, seed: int) -> None:
        """Seed the draws and every policy built so far (each from ``seed``
        and its label, whenever it was built); every game draws again at its
        next look."""
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self._drawn[:] = False
        for label, policy in self._policies.items():
            policy.reset(self._policy_seed(label))

    def act(self, engine: BatchedEngine, indices: np.ndarray) -> np.ndarray:
        """The action of the seat to act in each game ``indices``, by what
        that seat drew: one call per policy for all of its games."""
        self.refresh(engine)
        seats = engine.games["to_act"][indices]
        drawn = self.labels[indices, seats]
        actions = np.empty(len(indices), dtype=np.int64)
        for code in np.unique(drawn).tolist():
            mine = drawn == code
            actions[mine] = self._policy(self.names[code]).act(engine, indices[mine])
        return actions

    def refresh(self, engine: BatchedEngine) -> None:
        """Draw for every game of ``engine`` whose match began since its last draw."""
        seeds = engine.games["seed"]
        if len(self.seeds) != len(seeds):
            games = len(seeds)
            self.labels = np.zeros((games, NUM_SEATS), dtype=np.int64)
            self.seeds = np.zeros(games, dtype=np.uint64)
            self._drawn = np.zeros(games, dtype=bool)
        new = np.flatnonzero(~self._drawn | (seeds != self.seeds))
        if not new.size:
            return
        self.mixture.refresh()
        choices = self.mixture.choices()
        codes = np.array([self._code(label) for label in choices], dtype=np.int64)
        picks = self.rng.choice(len(codes), size=(new.size, NUM_SEATS), p=list(choices.values()))
        self.labels[new] = codes[picks]
        self.seeds[new] = seeds[new]
        self._drawn[new] = True
        in_play = {self.names[code] for code in np.unique(self.labels).tolist()}
        self._policies = {
            k: p for k, p in self._policies.items() if not k.startswith(POOL) or k in in_play
        }

    def _policy_seed(self, label: str) -> int:
        return int(np.random.default_rng([self.seed, zlib.crc32(label.encode())]).integers(2**62))

    def _code(self, label: str) -> int:
        if label not in self.names:
            self.names.append(label)
        return self.names.index(label)

    def _policy(self, label: str) -> BatchedPolicy:
        """The batched policy of ``label``, built at its first use (a
        snapshot's is let go when no seat plays it any more)."""
        policy = self._policies.get(label)
        if policy is None:
            if label.startswith(f"{POOL}:"):
                assert self.mixture.pool_dir is not None
                path = self.mixture.pool_dir / f"{label.split(':', 1)[1]}.safetensors"
                policy = BatchedPPO(str(path), self.mixture.snapshot_deterministic)
            else:
                policy = make_batched_policy(label)
            policy.reset(self._policy_seed(label))
            self._policies[label] = policy
        return policy


def opponent_kind(label: str) -> str:
    """``"pool"`` for a snapshot label, else the agent spec's name (``"greedy"``)."""
    return label.split(":", 1)[0]


__all__ = [
    "MANIFEST",
    "POOL",
    "BatchedMixture",
    "MixtureOpponent",
    "OpponentMixture",
    "Snapshot",
    "SnapshotPool",
    "check_opponent_weights",
    "opponent_kind",
    "read_manifest",
]
