"""Self-play PPO on the batched engine: one policy for all four seats, learned from scratch.

Run it as ``env121 train --preset scratch`` (a preset whose ``algorithm`` is
``batched_ppo``); ``--set key=value`` overrides any
:class:`~training.batched_config.Config` field and ``--resume RUN_DIR``
continues a run from its last checkpoint. ``training/README.md`` ("Learn from
scratch") explains the method, the run folder and the measured runs.

The algorithm, in the CleanRL manner, read top to bottom: a
:class:`~training.rollout.Rollout` deals each game a *table* (self-play, or
one learner seat against three copies of a pool snapshot, ``greedy`` or
``random``), steps every game one decision at a time collecting the
learner's samples (forced moves are not samples), credits each step's points
to each seat's last decision and computes GAE along each seat's stream; the
:class:`Learner` runs PPO's clipped update on them (the loss of
:func:`ppo_loss`) — or, with ``method: dmc``, Deep Monte-Carlo's (DouZero's)
least-squares fit of the actions' values to the points that followed them
(:func:`dmc_loss`; the ``dmc`` preset). The rollout runs in this
process, or one per Ray actor with ``rollout_workers`` (:mod:`training.ray_rollouts`);
with ``overlap`` the next rollout is played in a background thread while the
learner updates on the last one (:meth:`Learner.rollout_and_update`).
:func:`train` is the loop: rollouts, snapshots, duplicate evaluations
(:func:`training.evaluation.duplicate_advantage`) and checkpoints, in the run
lifecycle of :mod:`training.run`. The networks are
:mod:`training.actor_critic`, the settings :mod:`training.batched_config`.
"""

from __future__ import annotations

import copy
import json
import math
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import torch
from torch import nn
from torch.utils.tensorboard import SummaryWriter

from agents.batched_greedy import BatchedGreedy
from agents.environments import make_batched_policy
from agents.ppo import PolicyNetwork, load_policy, resolve_checkpoint, save_policy
from env121.engine.batched.threads import resolve_threads
from env121.engine.files import append_atomically
from env121.play.batched_policy import BatchedPolicy, BatchedRandom, WholeMatches
from training import settings
from training.actor_critic import ActorCritic, cross_entropy, masked_logits
from training.batched_config import ALGORITHM, Config, load_config
from training.batched_state import restore, save_checkpoint
from training.evaluation import append_row, duplicate_advantage
from training.hardware import busy_note, resolve_device, use_threads
from training.interrupt import StopRequest, stop_on_ctrl_c
from training.progress import Progress
from training.rollout import (
    Rollout,
    TrainedDecisions,
    evaluate,
    network_rows,
    stream_advantages,
)
from training.run import (
    RunDirectory,
    RunStart,
    TrainResult,
    load_newest_checkpoint,
    roll_back,
    start_run,
)

if TYPE_CHECKING:
    from training.ray_rollouts import RolloutWorkers

OVERLAP_STREAM = 1
"""Keys the generators of an overlapped rollout, seeded from (``seed``, this,
the updates so far) (:meth:`Learner.start`): none of the learner's draws."""

# ------------------------------------------------------------------ the trainer


class Learner:
    """The learner: the actor and the critic, their optimiser and PPO's update,
    fed by its rollouts: a :class:`~training.rollout.Rollout` in this process
    (``rollout_workers`` 0, sharing the learner's networks, device and
    generators; with ``overlap``, acting with :attr:`acting`, a copy of the
    networks, from generators of its own, in a background thread), or
    ``rollout_workers`` Ray actors, each with a rollout of its own
    (:class:`training.ray_rollouts.RolloutWorkers`), started by :meth:`start`."""

    def __init__(self, config: Config, pool_dir: Path) -> None:
        self.config = config
        self.device = resolve_device(config.device)
        self.threads = use_threads(config.threads)
        torch.manual_seed(config.seed)
        self.rng = np.random.default_rng(config.seed)
        self.actor = PolicyNetwork(
            config.hidden_sizes, config.activation, config.inputs, config.hint_head
        )
        if config.start_policy:  # config.check() made sure the shapes agree
            start, _ = load_policy(resolve_checkpoint(config.start_policy))
            self.actor.load_state_dict(start.state_dict())
        self.model = ActorCritic(self.actor, config.critic == "perfect", config.critic_detached).to(
            self.device
        )
        self.anchor = (
            copy.deepcopy(self.actor).requires_grad_(False).to(self.device)
            if config.anchor_coef
            else None
        )
        """With ``anchor_coef``: the start policy's actor, frozen, whose policy
        the learner is pulled back toward (:func:`anchor_kl`)."""
        head = [] if self.actor.hint_head is None else list(self.actor.hint_head.parameters())
        rest = [p for p in self.model.parameters() if all(p is not h for h in head)]
        groups = [{"params": rest, "scale": 1.0}]
        if head:
            groups.append({"params": head, "scale": config.hint_head_lr_scale})
        self.optimizer = torch.optim.Adam(groups, lr=config.learning_rate, eps=1e-5)
        self.set_learning_rate(1.0)
        self.acting = (
            copy.deepcopy(self.model).requires_grad_(False) if config.overlap else self.model
        )
        """The networks the in-process rollout acts with: the learner's, or with
        ``overlap`` a copy given the learner's weights before each update (so
        one update behind while the next rollout plays)."""
        self.rollout = (
            None
            if config.rollout_workers
            else Rollout(config, self.acting, self.device, self.threads, self.rng, config.seed)
        )
        """The in-process rollout (``None`` when rollout workers play)."""
        self.background = ThreadPoolExecutor(1, "rollout") if config.overlap else None
        """With ``overlap``: the thread that plays the next rollout during an update."""
        self.played: TrainedDecisions | None = None
        """With ``overlap``: the rollout played during the last update, not yet
        trained (``None`` before the first; a checkpoint does not keep it)."""
        self.workers: RolloutWorkers | None = None
        """The rollout workers (``rollout_workers`` > 0): connected to their
        cluster here, started by :meth:`start`."""
        if config.rollout_workers:
            from training.ray_rollouts import RolloutWorkers  # Ray, imported when used

            self.workers = RolloutWorkers(config)
        self.pool_dir = pool_dir
        self.pool: list[int] = []
        """The step of each snapshot in play, oldest first (``pool/snap_<step>``)."""
        self.steps = 0
        self.updates = 0
        self.wall_seconds = 0.0
        """Wall-clock seconds of the run's earlier sessions (a resumed run goes on counting)."""

    @property
    def games(self) -> int:
        """Games played at once, over all rollouts: each moves once per engine step."""
        return self.config.num_games * max(self.config.rollout_workers, 1)

    def start(self) -> None:
        """Deal every game a new match. Rollout workers are started the first
        time, worker ``k`` seeded from (``seed``, ``k``, the updates so far: 0,
        or a resumed run's), with the pool in play."""
        if self.rollout is not None:
            if self.config.overlap:
                seed = np.random.SeedSequence([self.config.seed, OVERLAP_STREAM, self.updates])
                self.rollout.seed(seed)
                self.acting.load_state_dict(self.model.state_dict())  # a resumed run's
            self.played = None
            self.rollout.start()
            return
        assert self.workers is not None
        if not self.workers.launched:
            self.workers.launch(self.updates, [self.snapshot_path(step) for step in self.pool])
        self.workers.start()

    def close(self) -> None:
        """Stop the rollout workers (and the Ray cluster they started), or the
        background thread, if any, and the in-process rollout's programs."""
        if self.workers is not None:
            self.workers.close()
        if self.background is not None:
            self.background.shutdown()
        if self.rollout is not None:
            self.rollout.close()

    # ---------------------------------------------------------- the pool

    def snapshot_path(self, step: int) -> Path:
        """Where the pool snapshot of ``step`` is saved."""
        return self.pool_dir / f"snap_{step:012d}.safetensors"

    def add_snapshot(self) -> None:
        """Freeze the actor into the pool (saved in ``pool/``), retiring the oldest."""
        self.save_actor(self.snapshot_path(self.steps), {"snapshot_of_step": self.steps})
        self.put_in_play([self.steps])

    def put_in_play(self, steps: Sequence[int]) -> None:
        """Put the saved snapshots of ``steps`` in play, in every rollout (the
        oldest beyond ``pool_max_size`` retire)."""
        for step in steps:
            self.pool = [*self.pool, step][-self.config.pool_max_size :]
            for rollout in (self.rollout, self.workers):
                if rollout is not None:
                    rollout.add_snapshot(self.snapshot_path(step))

    def save_actor(self, path: Path, notes: dict[str, Any]) -> Path:
        """Write the actor as a weights-only ``ppo:`` checkpoint (CPU tensors)."""
        c = self.config
        return save_policy(
            path,
            {k: v.cpu() for k, v in self.actor.state_dict().items()},
            c.hidden_sizes,
            c.activation,
            training={"algorithm": ALGORITHM, "method": c.method, "steps": self.steps, **notes},
            inputs=c.inputs,
            hint_head=c.hint_head,
        )

    # ---------------------------------------------------------- learning

    def rollout_and_update(self, fraction_left: float) -> dict[str, float]:
        """One rollout of ``rollout_steps`` engine steps (in every rollout), then
        the update (PPO's or DMC's).

        With ``overlap`` the update trains on the rollout played during the
        last call (the first call plays one first), while the next rollout
        plays in the background thread with the weights of before the update,
        into the other buffer; the call returns once both are done, so nothing
        runs between calls. ``simulate_seconds`` is then the wait for the
        rollouts beyond the update (the whole first one), ``rollout_seconds``
        the background rollout's own time."""
        c = self.config
        started = time.perf_counter()
        decisions = self.played if self.played is not None else self.play()
        simulated = time.perf_counter() - started
        if c.anneal_lr:
            self.set_learning_rate(fraction_left)
        update_started = time.perf_counter()
        stats: dict[str, float] = {}
        if self.background is None:
            stats.update(self.update(decisions))
            if self.rollout is not None:
                self.rollout.carry_open()
            updated = time.perf_counter()
        else:
            assert self.rollout is not None, "Config.check refuses overlap with rollout workers"
            self.rollout.carry_open()  # into the other buffer: ``decisions`` stay as they are
            self.acting.load_state_dict(self.model.state_dict())
            ahead = self.background.submit(self.timed_play)
            stats.update(self.update(decisions))
            updated = time.perf_counter()
            self.played, stats["rollout_seconds"] = ahead.result()
            simulated += time.perf_counter() - updated
        self.updates += 1
        trained = len(decisions.rows)
        stats.update(
            samples=float(trained),
            simulate_seconds=simulated,
            update_seconds=updated - update_started,
            mean_reward=float(decisions.rewards.mean()) if trained else 0.0,
        )
        if self.workers is not None:
            stats["worker_seconds"] = self.workers.slowest_rollout_seconds
        return stats

    def play(self) -> TrainedDecisions:
        """One rollout (in every rollout); its engine steps count now, trained or not."""
        if self.rollout is not None:
            decisions = self.rollout.play()
        else:
            assert self.workers is not None, "start() starts the rollout workers"
            decisions = self.workers.play(self.model)
        self.steps += self.config.rollout_steps * self.games
        return decisions

    def timed_play(self) -> tuple[TrainedDecisions, float]:
        """:meth:`play`, and its wall-clock seconds (the background thread's work)."""
        started = time.perf_counter()
        decisions = self.play()
        return decisions, time.perf_counter() - started

    def set_learning_rate(self, fraction: float) -> None:
        """Set each parameter group's rate: ``learning_rate`` × ``fraction`` × its scale."""
        for group in self.optimizer.param_groups:
            group["lr"] = self.config.learning_rate * fraction * group["scale"]

    def update(self, decisions: TrainedDecisions) -> dict[str, float]:
        """The ``method``'s epochs over the trained ``decisions``: PPO's, or DMC's."""
        if self.config.method == "dmc":
            return self.dmc_update(decisions)
        return self.ppo_update(decisions)

    def minibatches(
        self, decisions: TrainedDecisions
    ) -> Iterator[tuple[dict[str, torch.Tensor], torch.Tensor]]:
        """``n_epochs`` passes over the trained ``decisions`` in random
        minibatches: per minibatch what the networks read of it (on the
        learner's device) and its positions in ``decisions``' arrays."""
        c, device = self.config, self.device
        rows = decisions.rows
        # On a GPU the rollout goes over once; on the CPU these are views.
        whole = (
            network_rows(decisions.network, slice(None), device) if device.type != "cpu" else None
        )
        row_all = torch.from_numpy(rows).to(device)
        for _ in range(c.n_epochs):
            order = self.rng.permutation(len(rows))
            for start in range(0, len(rows), c.minibatch_size):
                part = order[start : start + c.minibatch_size]
                index = torch.from_numpy(part).to(device)
                if whole is None:
                    batch = network_rows(decisions.network, rows[part], device)
                else:
                    batch = {name: tensor[row_all[index]] for name, tensor in whole.items()}
                yield batch, index

    def step_optimizer(self, loss: torch.Tensor) -> None:
        """One gradient step on ``loss`` (its norm clipped to ``max_grad_norm``)."""
        self.optimizer.zero_grad()
        torch.autograd.backward(loss)
        nn.utils.clip_grad_norm_(self.model.parameters(), self.config.max_grad_norm)
        self.optimizer.step()

    def dmc_update(self, decisions: TrainedDecisions) -> dict[str, float]:
        """Deep Monte-Carlo's epochs: the value of each action played moves
        toward the points that followed it (``returns``), by least squares."""
        device = self.device
        act_all = torch.from_numpy(decisions.actions).to(device)
        ret_all = torch.from_numpy(decisions.returns.astype(np.float32)).to(device)
        total, batches = torch.zeros((), device=device), 0
        for batch, index in self.minibatches(decisions):
            values, _ = evaluate(self.model, batch)
            loss = dmc_loss(values, act_all[index], ret_all[index])
            self.step_optimizer(loss)
            total += loss.detach()
            batches += 1
        return {"value_loss": float(total) / max(batches, 1)}

    def ppo_update(self, decisions: TrainedDecisions) -> dict[str, float]:
        """PPO's epochs over the trained ``decisions``; while the critic warms
        up (the rollout ended within ``critic_warmup_steps``) with the actor's
        weights frozen, so that only the value loss moves any weight."""
        c, device = self.config, self.device
        warming = self.steps <= c.critic_warmup_steps
        totals = torch.zeros(len(PPO_TERMS), device=device)  # read once: one wait for a GPU
        divergence = torch.zeros((), device=device)
        batches = 0
        act_all = torch.from_numpy(decisions.actions).to(device)
        old_all = torch.from_numpy(decisions.logps).to(device)
        adv_all = torch.from_numpy(decisions.advantages).to(device)
        ret_all = torch.from_numpy(decisions.returns.astype(np.float32)).to(device)
        self.actor.requires_grad_(not warming)
        try:
            for batch, index in self.minibatches(decisions):
                logits, values = evaluate(self.model, batch)
                loss, terms = ppo_loss(
                    c,
                    logits,
                    values,
                    act_all[index],
                    old_all[index],
                    adv_all[index],
                    ret_all[index],
                )
                if self.anchor is not None:
                    with torch.no_grad():
                        anchored = masked_logits(self.anchor(batch["inputs"]), batch["masks"])
                    kl = anchor_kl(anchored, logits)
                    loss = loss + c.anchor_coef * kl
                    divergence += kl.detach()
                self.step_optimizer(loss)
                totals += terms.detach()
                batches += 1
        finally:
            self.actor.requires_grad_(True)
        means = (totals / max(batches, 1)).tolist()
        stats = {**dict(zip(PPO_TERMS, means, strict=True)), "critic_warmup": float(warming)}
        if self.anchor is not None:
            stats["anchor_kl"] = float(divergence) / max(batches, 1)
        return stats


PPO_TERMS = ("policy_loss", "value_loss", "entropy", "clip_fraction")
"""The terms :func:`ppo_loss` reports, in its order (the update's log keys)."""


def ppo_loss(
    config: Config,
    logits: torch.Tensor,
    values: torch.Tensor,
    actions: torch.Tensor,
    old_logps: torch.Tensor,
    advantages: torch.Tensor,
    returns: torch.Tensor,
) -> tuple[torch.Tensor, torch.Tensor]:
    """PPO's loss on one minibatch, and its :data:`PPO_TERMS` (a tensor of four).

    ``logits`` are the masked logits of the decisions (``[n, NUM_ACTIONS]``),
    ``values`` the critic's; ``actions``, ``old_logps``, ``advantages`` and
    ``returns`` what the rollout recorded of them. The advantages are
    normalised within the minibatch (mean 0, standard deviation 1; a
    minibatch of one is left as it is); with ``r`` the ratio of the action's
    probability now to its probability when played, ``A`` its normalised
    advantage and ``ε`` = ``clip_range``, the loss is::

        −mean(min(r·A, clip(r, 1−ε, 1+ε)·A))          the clipped surrogate
        − ent_coef · mean(entropy of the softmax)      the entropy bonus
        + vf_coef · ½·mean((values − returns)²)        the value loss

    The clip fraction is the share of decisions whose ratio left ``[1−ε, 1+ε]``."""
    c = config
    logp_all = torch.log_softmax(logits, dim=1)
    logp = logp_all.gather(1, actions[:, None]).squeeze(1)
    ratio = torch.exp(logp - old_logps)
    adv = advantages
    adv = (adv - adv.mean()) / (adv.std() + 1e-8) if len(adv) > 1 else adv
    policy_loss = -torch.min(
        ratio * adv, ratio.clamp(1 - c.clip_range, 1 + c.clip_range) * adv
    ).mean()
    probs = logp_all.exp()
    entropy = -(probs * logp_all.clamp(min=-1e8)).sum(dim=1).mean()
    value_loss = 0.5 * ((values - returns) ** 2).mean()
    loss = policy_loss - c.ent_coef * entropy + c.vf_coef * value_loss
    clipped = ((ratio - 1).abs() > c.clip_range).float().mean()
    return loss, torch.stack((policy_loss, value_loss, entropy, clipped))


def anchor_kl(anchor_logits: torch.Tensor, logits: torch.Tensor) -> torch.Tensor:
    """KL(π_anchor ‖ π), averaged over a minibatch's decisions: with ``p`` the
    anchor's softmax of ``anchor_logits`` and ``q`` the learner's of
    ``logits`` (both masked, ``[n, NUM_ACTIONS]``), ``mean(Σ_a p(a)·(log p(a)
    − log q(a)))``: the cross-entropy of ``p`` to ``q`` less ``p``'s own
    entropy (:func:`training.actor_critic.cross_entropy`), summed over the
    actions the anchor plays (an illegal action, of probability 0 under both,
    counts nothing). Zero when the two policies agree; its gradient pulls
    ``q`` toward ``p``."""
    p_log = torch.log_softmax(anchor_logits, dim=1)
    p = p_log.exp()
    return (cross_entropy(p, torch.log_softmax(logits, dim=1)) - cross_entropy(p, p_log)).mean()


def dmc_loss(values: torch.Tensor, actions: torch.Tensor, returns: torch.Tensor) -> torch.Tensor:
    """Deep Monte-Carlo's loss on one minibatch: ``½·mean((Q(s, a) − G)²)``, the
    value ``values[i, actions[i]]`` of each action played against ``returns[i]``,
    the points that followed it."""
    played = values.gather(1, actions[:, None]).squeeze(1)
    return 0.5 * ((played - returns) ** 2).mean()


# ------------------------------------------------------------------ the run


NETWORK_FIELDS = ("inputs", "hint_head", "hidden_sizes", "activation", "critic")
"""Settings a resumed run cannot change: the checkpoint's networks keep their shape."""
PROGRESS_LOG = "progress.jsonl"
"""The run's log: one row per update (step, speed, losses)."""


def train(
    config: Config | None,
    out: str | Path,
    *,
    resume: str | Path | None = None,
    overrides: Sequence[str] = (),
    progress: bool = True,
    on_note: Callable[[str], None] = print,
) -> TrainResult:
    """Run (or, with ``resume``, continue) a training run into ``out``: the
    lifecycle of :mod:`training.run`, a checkpoint that cannot be loaded
    passed over with a line to ``on_note``."""
    start = start_run(
        Config,
        config,
        out,
        resume=resume,
        overrides=overrides,
        log=PROGRESS_LOG,
        network_fields=NETWORK_FIELDS,
        saved_values=lambda path: settings.saved_values(path, on_note),
    )
    # Before any file is written: a Ray cluster that cannot be reached or is too small is an error.
    learner = Learner(start.config, start.files.pool)
    try:
        return _run(learner, start, progress, on_note)
    finally:
        learner.close()


def _run(
    learner: Learner, start: RunStart[Config], progress: bool, on_note: Callable[[str], None]
) -> TrainResult:
    """The body of :func:`train`, once the learner is made."""
    config, files = start.config, start.files
    files.out.mkdir(parents=True, exist_ok=True)
    settings.save_config(config, files.config)
    files.checkpoints.remove_leftovers()
    files.pool.mkdir(exist_ok=True)
    busy = busy_note(resolve_threads(config.threads))
    if busy is not None:
        on_note(busy)
    best, resumed_from = -math.inf, None
    if start.resume:

        def load(directory: Path, step: int) -> None:
            nonlocal best
            best = restore(learner, directory, step)

        resumed_from = load_newest_checkpoint(files, load, on_note)
        roll_back(files, learner.steps)
    evaluations = files.evaluations()
    writer = SummaryWriter(str(files.tensorboard))
    stopper = StopRequest()
    session_start, session_steps = time.perf_counter(), learner.steps
    session_samples = 0.0
    last_checkpoint: Path | None = None
    due = _Schedule(config, learner.steps)
    bar = Progress(config.total_steps) if progress else None
    if bar is not None:
        bar.start(learner.steps, _status(evaluations))
    try:
        learner.start()
        with stop_on_ctrl_c(stopper.request):
            while not _finished(config, learner, session_start) and not stopper.requested:
                stats = learner.rollout_and_update(1.0 - learner.steps / config.total_steps)
                elapsed = learner.wall_seconds + time.perf_counter() - session_start
                session = time.perf_counter() - session_start
                session_samples += stats["samples"]
                speed = (learner.steps - session_steps) / session
                row = {"step": learner.steps, "seconds": round(elapsed, 2)}
                row.update(
                    steps_per_second=round(speed, 1),
                    samples_per_second=round(session_samples / session, 1),
                    **stats,
                )
                append_atomically(files.log, json.dumps(row) + "\n")
                for key, value in row.items():
                    if key != "step":
                        writer.add_scalar(f"train/{key}", value, learner.steps)
                if bar is not None:
                    bar.update(learner.steps, _status(evaluations))
                done = _finished(config, learner, session_start)
                if due("snapshot_every", learner.steps):
                    learner.add_snapshot()
                if due("eval_every", learner.steps) or done:
                    best = _evaluate(learner, files, writer, evaluations, best, elapsed)
                if due("checkpoint_every", learner.steps) or done:
                    last_checkpoint = save_checkpoint(learner, files, best, elapsed)
            if stopper.requested:
                elapsed = learner.wall_seconds + time.perf_counter() - session_start
                last_checkpoint = save_checkpoint(learner, files, best, elapsed)
    finally:
        if bar is not None:
            bar.stop()
        writer.close()
    policy = learner.save_actor(files.policy, {})
    seconds = time.perf_counter() - session_start
    return TrainResult(
        out=files.out,
        num_timesteps=learner.steps,
        policy=policy,
        seconds=seconds,
        steps_per_second=(learner.steps - session_steps) / seconds,
        evaluations=evaluations,
        log=files.log_rows(),
        checkpoint=last_checkpoint or files.latest_checkpoint(),
        resumed_from=resumed_from,
        interrupted=stopper.requested,
    )


def _finished(config: Config, learner: Learner, session_start: float) -> bool:
    """Whether the run has trained its ``total_steps`` or its ``max_seconds``."""
    elapsed = learner.wall_seconds + time.perf_counter() - session_start
    return learner.steps >= config.total_steps or 0 < config.max_seconds <= elapsed


def _status(evaluations: Sequence[dict[str, Any]]) -> str:
    """The progress bar's text: the last evaluation against each opponent."""
    last: dict[str, dict[str, Any]] = {row["opponent"]: row for row in evaluations}
    return " | ".join(
        f"vs {name} {row['advantage']:+.0f} [{row['low']:+.0f}, {row['high']:+.0f}]"
        for name, row in last.items()
    )


class _Schedule:
    """When the periodic work is due: ``due("eval_every", step)`` is true once
    per ``config.eval_every`` steps (never when it is 0)."""

    def __init__(self, config: Config, step: int) -> None:
        self.config = config
        self.last: dict[str, int] = {}
        self.start = step

    def __call__(self, name: str, step: int) -> bool:
        every = int(getattr(self.config, name))
        last = self.last.get(name, self.start)
        if every and step - last >= every:
            self.last[name] = step
            return True
        return False


def _evaluate(
    learner: Learner,
    files: RunDirectory,
    writer: SummaryWriter,
    evaluations: list[dict[str, Any]],
    best: float,
    elapsed: float,
) -> float:
    """Evaluate against each of ``eval_opponents``; keep ``best.safetensors``."""
    c = learner.config
    for opponent_name in c.eval_opponents:
        opponent: BatchedPolicy = (
            BatchedGreedy(threads=learner.threads)
            if opponent_name == "greedy"
            else BatchedRandom(0)
            if opponent_name == "random"
            else make_batched_policy(opponent_name, whole_matches=True)
        )
        try:
            row = duplicate_advantage(
                learner.actor,
                opponent,
                c.eval_deals,
                c.eval_seed,
                c.rule_config,
                learner.threads,
            )
        finally:
            if isinstance(opponent, WholeMatches):
                opponent.close()
        row = {"step": learner.steps, "wall_seconds": round(elapsed, 1), **row}
        append_row(files.eval_csv, files.eval_jsonl, row)
        evaluations.append(row)
        writer.add_scalar(f"eval/advantage_vs_{opponent_name}", row["advantage"], learner.steps)
        if opponent_name == c.eval_opponents[0] and row["advantage"] > best:
            best = row["advantage"]
            learner.save_actor(files.best, {"eval": row})
    return best


__all__ = [
    "ALGORITHM",
    "ActorCritic",
    "Config",
    "TrainResult",
    "anchor_kl",
    "dmc_loss",
    "load_config",
    "ppo_loss",
    "stream_advantages",
    "train",
]
