"""The batched trainer's rollouts on Ray actors: many batched engines, one learner.

With ``rollout_workers`` N > 0 (``env121 train --preset scratch --set
rollout_workers=2``), :class:`training.batched_ppo.Learner` keeps the networks,
the optimiser and PPO's update, and N :class:`RolloutWorker` actors play the
games. Each worker owns a :class:`~training.rollout.Rollout` — the in-process
trainer's own code: its batched engine of ``num_games`` games, their tables,
its opponents (``greedy``, ``random``, ``frozen_agent``, the pool snapshots)
and its open decisions — and a CPU copy of the actor and the critic. Per
update:

1. the learner puts its weights in Ray's object store once (``ray.put``) and
   asks every worker for a rollout;
2. each worker loads them, plays ``rollout_steps`` engine steps, computes GAE
   along its seats' streams and returns the decisions closed so far (what
   the networks read, the actions, log-probabilities, advantages and value
   targets); the decisions still open stay with it, for its next rollout;
3. the learner joins the workers' decisions in worker order and updates.

A pool snapshot reaches the workers as its files' bytes (no shared disk
needed). Worker ``k`` draws its deals, tables and actions from
(``seed``, ``k``, the learner's updates when the workers started), so a run
is reproducible for a given N. Ray is the ``ray`` extra: only this module
imports it, when :meth:`Learner.start <training.batched_ppo.Learner.start>`
starts the workers. Every machine of a cluster needs the same env121
(``training/README.md``, "Past one machine").
"""

from __future__ import annotations

import logging
import os
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import torch
from torch import nn

from agents.ppo import PolicyNetwork
from agents.weights import sidecar_path
from arena.ray_backend import check_reachable, import_ray
from training.actor_critic import ActorCritic
from training.batched_config import Config
from training.hardware import use_threads
from training.rollout import Rollout, TrainedDecisions


class RolloutWorkerLostError(RuntimeError):
    """A rollout worker died (killed, out of memory, its machine lost): the run
    cannot go on; ``env121 train --resume`` continues it from its last checkpoint."""


class RolloutWorker:
    """One rollout worker, run as a Ray actor: a :class:`Rollout` of its own,
    on the CPU, with a copy of the learner's networks."""

    def __init__(self, config: Config, index: int, first_update: int) -> None:
        numpy_seed, torch_seed, random_seed = np.random.SeedSequence(
            (config.seed, index, first_update)
        ).generate_state(3)
        threads = use_threads(config.worker_cpus)
        torch.manual_seed(int(torch_seed))
        actor = PolicyNetwork(
            config.hidden_sizes, config.activation, config.inputs, config.hint_head
        )
        self.model = ActorCritic(actor, config.critic == "perfect")
        self.rollout = Rollout(
            config,
            self.model,
            torch.device("cpu"),
            threads,
            np.random.default_rng(int(numpy_seed)),
            int(random_seed),
        )

    def start(self) -> None:
        """Deal every game a new match."""
        self.rollout.start()

    def add_snapshot(self, files: dict[str, bytes]) -> None:
        """Put in play the pool snapshot whose files (``NAME.safetensors`` and
        its sidecar) are ``files``."""
        with tempfile.TemporaryDirectory(prefix="env121-snapshot-") as directory:
            for name, data in files.items():
                (Path(directory) / name).write_bytes(data)
            (weights,) = (name for name in files if name.endswith(".safetensors"))
            self.rollout.add_snapshot(Path(directory) / weights)

    def play(self, weights: dict[str, np.ndarray]) -> tuple[dict[str, np.ndarray], float]:
        """A rollout with the networks' ``weights``: the decisions closed
        (:meth:`TrainedDecisions.compact`; the open ones are carried) and the
        seconds the rollout took here."""
        started = time.perf_counter()
        self.model.load_state_dict({name: torch.tensor(w) for name, w in weights.items()})
        decisions = self.rollout.play().compact()
        self.rollout.carry_open()
        return decisions, time.perf_counter() - started


class RolloutWorkers:
    """The learner's side of its ``rollout_workers`` actors: connects to the
    cluster of ``ray_address`` (checking that it has their CPUs), launches
    them, forwards the pool snapshots, gathers each update's decisions, stops them."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.ray, self.connected_here = connect(config.ray_address)
        self.workers: list[Any] = []
        """The actors, once launched."""
        self.decisions_per_worker: list[int] = []
        """How many decisions each worker sent in the last rollout."""
        self.slowest_rollout_seconds = 0.0
        """The seconds the slowest worker took for the last rollout, in the
        worker (the learner's wait beyond it is Ray's cost)."""
        needed = config.rollout_workers * config.worker_cpus
        cpus = int(self.ray.cluster_resources().get("CPU", 0))
        if needed > cpus:
            self.close()
            raise ValueError(
                f"rollout_workers={config.rollout_workers} with worker_cpus="
                f"{config.worker_cpus} is not valid on this Ray cluster: expected "
                f"rollout_workers × worker_cpus <= its {cpus} CPUs"
            )

    @property
    def launched(self) -> bool:
        """Whether the actors run."""
        return bool(self.workers)

    def launch(self, first_update: int, snapshots: Sequence[Path]) -> None:
        """Start the actors, worker ``k`` seeded from (``seed``, ``k``,
        ``first_update``), with the pool ``snapshots`` in play."""
        remote = self.ray.remote(num_cpus=self.config.worker_cpus)(RolloutWorker)
        self.workers = [
            remote.remote(self.config, k, first_update) for k in range(self.config.rollout_workers)
        ]
        for path in snapshots:
            self.add_snapshot(path)

    def start(self) -> None:
        """Deal every worker's games a new match."""
        self._get([worker.start.remote() for worker in self.workers])

    def add_snapshot(self, path: Path) -> None:
        """Send the pool snapshot saved at ``path`` to every worker (once, as
        bytes; before :meth:`launch`, to none: ``launch`` sends the pool)."""
        if not self.workers:
            return
        files = {p.name: p.read_bytes() for p in (path, sidecar_path(path))}
        shared = self.ray.put(files)
        for worker in self.workers:
            worker.add_snapshot.remote(shared)  # actor calls run in order: before the next play

    def play(self, model: nn.Module) -> TrainedDecisions:
        """One rollout of every worker with ``model``'s weights; their decisions
        joined in worker order."""
        weights = {k: v.detach().cpu().numpy() for k, v in model.state_dict().items()}
        shared = self.ray.put(weights)
        results: list[tuple[dict[str, np.ndarray], float]] = self._get(
            [worker.play.remote(shared) for worker in self.workers]
        )
        parts = [part for part, _ in results]
        self.decisions_per_worker = [len(part["actions"]) for part in parts]
        self.slowest_rollout_seconds = max(seconds for _, seconds in results)
        return TrainedDecisions.joined(parts)

    def close(self) -> None:
        """Stop the workers; disconnect from Ray if this object connected (a
        cluster it started stops with it)."""
        for worker in self.workers:
            self.ray.kill(worker)
        self.workers = []
        if self.connected_here:
            self.ray.shutdown()
            self.connected_here = False

    def _get(self, refs: list[Any]) -> Any:
        """``ray.get(refs)``, a dead worker as :class:`RolloutWorkerLostError`."""
        try:
            return self.ray.get(refs)
        except self.ray.exceptions.RayActorError as error:
            raise RolloutWorkerLostError(
                f"a rollout worker was lost ({str(error).splitlines()[0]}): expected every "
                "worker to live through the run (its last checkpoint is kept)"
            ) from error


def connect(address: str) -> tuple[ModuleType, bool]:
    """``(ray, connected_here)``: ``ray`` connected to the cluster of
    ``address`` (``Config.ray_address``), and whether this call connected it.
    A process already connected keeps its connection."""
    ray = import_ray()
    if ray.is_initialized():
        return ray, False
    options: dict[str, Any] = {"logging_level": logging.WARNING, "include_dashboard": False}
    if address:
        check_reachable(address)
        ray.init(address=address, **options)
    else:
        with loopback_only():
            ray.init(address="local", **options)
    return ray, True


@contextmanager
def loopback_only() -> Iterator[None]:
    """While a cluster starts, make every Ray server of it listen on 127.0.0.1:
    outside Windows and macOS Ray serves on the machine's network address
    unless this switch (read by this process at import, by Ray's own processes
    from the environment) is off."""
    from ray._private import ray_constants

    variable = ray_constants.ENABLE_RAY_CLUSTERS_ENV_VAR
    saved_variable, saved_switch = os.environ.get(variable), ray_constants.ENABLE_RAY_CLUSTER
    os.environ[variable] = "0"
    ray_constants.ENABLE_RAY_CLUSTER = False
    try:
        yield
    finally:
        ray_constants.ENABLE_RAY_CLUSTER = saved_switch
        if saved_variable is None:
            del os.environ[variable]
        else:
            os.environ[variable] = saved_variable


__all__ = ["RolloutWorker", "RolloutWorkerLostError", "RolloutWorkers", "connect"]
