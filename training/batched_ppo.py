"""Self-play PPO on the batched engine: one policy for all four seats, learned from scratch.

Run it as ``env121 train --preset scratch`` (a preset whose ``algorithm`` is
``batched_ppo``); ``--set key=value`` overrides any
:class:`~training.batched_config.Config` field and ``--resume RUN_DIR``
continues a run from its last checkpoint. ``training/README.md`` ("Learn from
scratch") explains the method, the run folder and the measured runs.

The algorithm, in the CleanRL manner, read top to bottom: :class:`Learner`
deals each game a *table* (self-play, or one learner seat against three
copies of a pool snapshot, ``greedy`` or ``random``), steps every game one
decision at a time collecting the learner's samples (forced moves are not
samples), credits each step's points to each seat's last decision, and runs
PPO's clipped update over per-seat streams (GAE in :mod:`training.rollout`);
:func:`train` is the loop: rollouts, snapshots, duplicate evaluations
(:func:`training.evaluation.duplicate_advantage`) and checkpoints, in the run
lifecycle of :mod:`training.run`. The networks are
:mod:`training.actor_critic`, the settings :mod:`training.batched_config`.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.utils.tensorboard import SummaryWriter

from agents.batched_greedy import BatchedGreedy
from agents.batched_ppo import (
    BatchedPPO,
    InputEncoder,
    legal_masks,
)
from agents.environments import make_batched_policy
from agents.ppo import PolicyNetwork, load_policy, resolve_checkpoint, save_policy
from env121.engine.batched.engine import BatchedEngine
from env121.engine.batched.threads import resolve_threads
from env121.engine.files import append_atomically
from env121.engine.state import NUM_SEATS
from env121.play.batched_policy import BatchedPolicy, BatchedRandom
from training import settings
from training.actor_critic import ActorCritic, hidden_hands, masked_logits
from training.batched_config import ALGORITHM, TABLES, Config, load_config, renamed_fields
from training.batched_state import restore, save_checkpoint
from training.evaluation import append_row, duplicate_advantage
from training.hardware import busy_note, resolve_device, use_threads
from training.interrupt import StopRequest, stop_on_ctrl_c
from training.progress import Progress
from training.rollout import Samples, stream_advantages
from training.run import (
    RunDirectory,
    TrainResult,
    load_newest_checkpoint,
    roll_back,
    start_run,
)

# ------------------------------------------------------------------ the trainer


class Learner:
    """The batched self-play loop: engine, tables, actor, critic, optimiser."""

    def __init__(self, config: Config, pool_dir: Path) -> None:
        self.config = config
        rules = config.rule_config
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
        self.model = ActorCritic(self.actor, config.critic == "perfect").to(self.device)
        head = [] if self.actor.hint_head is None else list(self.actor.hint_head.parameters())
        rest = [p for p in self.model.parameters() if all(p is not h for h in head)]
        groups = [{"params": rest, "scale": 1.0}]
        if head:
            groups.append({"params": head, "scale": config.hint_head_lr_scale})
        self.optimizer = torch.optim.Adam(groups, lr=config.learning_rate, eps=1e-5)
        self.set_learning_rate(1.0)
        b = config.num_games
        self.engine = BatchedEngine(b, rules, threads=self.threads)
        self.encoder = InputEncoder(config.inputs, b, rules, self.threads)
        self.samples = Samples(
            config.rollout_steps * b + NUM_SEATS * b,
            self.encoder.width,
            config.critic == "perfect",
            self.device,
        )
        self.greedy = BatchedGreedy(threads=self.threads)
        self.random = BatchedRandom(config.seed)
        self.frozen = make_batched_policy(config.frozen_agent) if config.frozen_agent else None
        self.pool_dir = pool_dir
        self.pool: list[tuple[int, BatchedPPO]] = []
        """(step, policy) of each snapshot in play, oldest first."""
        self.learner_seats = np.zeros((b, NUM_SEATS), dtype=bool)
        self.opponent = np.zeros(b, dtype=np.int64)
        """Per game its opponents: -1 none (self play), -2 ``frozen``, 0 greedy, 1 random,
        2+k pool[k]."""
        self.pending = np.full((b, NUM_SEATS), -1, dtype=np.int64)
        """Per game and seat its open decision (index into the samples), or -1."""
        self.steps = 0
        self.updates = 0
        self.wall_seconds = 0.0
        """Wall-clock seconds of the run's earlier sessions (a resumed run goes on counting)."""

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

    def start(self) -> None:
        """Deal every game a new match from the trainer's generator."""
        seeds = self.rng.integers(0, 2**63, size=self.config.num_games, dtype=np.int64)
        self.engine.reset(seeds)
        self.pending[:] = -1
        self.samples.size = 0
        self.new_matches(np.arange(self.config.num_games))

    def add_snapshot(self) -> None:
        """Freeze the actor into the pool (saved in ``pool/``), retiring the oldest."""
        path = self.pool_dir / f"snap_{self.steps:012d}.safetensors"
        self.save_actor(path, {"snapshot_of_step": self.steps})
        self.pool.append((self.steps, self.snapshot(path)))
        if len(self.pool) > self.config.pool_max_size:
            self.pool.pop(0)
            self.opponent[self.opponent >= 2] = np.maximum(self.opponent[self.opponent >= 2] - 1, 2)

    def snapshot(self, path: Path) -> BatchedPPO:
        """The pool opponent saved at ``path``, playing on the learner's device."""
        policy = BatchedPPO(str(path), deterministic=False)
        policy.network.to(self.device)
        return policy

    def save_actor(self, path: Path, notes: dict[str, Any]) -> Path:
        """Write the actor as a weights-only ``ppo:`` checkpoint (CPU tensors)."""
        c = self.config
        return save_policy(
            path,
            {k: v.cpu() for k, v in self.actor.state_dict().items()},
            c.hidden_sizes,
            c.activation,
            training={"algorithm": ALGORITHM, "steps": self.steps, **notes},
            inputs=c.inputs,
            hint_head=c.hint_head,
        )

    # ---------------------------------------------------------- playing

    def encode(self, indices: np.ndarray, seats: np.ndarray, rows: np.ndarray) -> None:
        """Write the inputs (and the critic's hidden hands) of ``seats`` in games
        ``indices`` into sample rows ``rows``."""
        s = self.samples
        block = slice(int(rows[0]), int(rows[-1]) + 1)  # rows are consecutive
        self.encoder(self.engine, indices, s.inputs[block])
        if self.config.critic == "perfect":
            hidden_hands(self.engine.games, indices, seats, s.hidden[block])

    def network_rows(self, rows: slice | np.ndarray) -> dict[str, torch.Tensor]:
        """What the networks read of sample rows ``rows`` (a slice: consecutive
        rows, no copy on the CPU), on the learner's device."""
        return {
            name: (
                tensor[rows] if isinstance(rows, slice) else torch.from_numpy(tensor.numpy()[rows])
            ).to(self.device, non_blocking=True)
            for name, tensor in self.samples.network_arrays.items()
        }

    def evaluate(self, rows: dict[str, torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked logits and values of sample rows (:meth:`network_rows`)."""
        hidden = rows["hidden"] if self.config.critic == "perfect" else None
        logits, values = self.model(rows["inputs"], hidden)
        return masked_logits(logits, rows["masks"]), values

    def step(self) -> None:
        """One engine step of every game: the learner's sampled decisions (stored),
        the opponents' and the forced moves, then the rewards credited."""
        engine, games, s = self.engine, self.engine.games, self.samples
        to_act = games["to_act"].astype(np.int64)
        n_legal = games["n_legal"]
        b = self.config.num_games
        every = np.arange(b)
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
                logits, values = self.evaluate(self.network_rows(slice(rows[0], rows[-1] + 1)))
                logp_all = torch.log_softmax(logits, dim=1)
                chosen = torch.multinomial(logp_all.exp(), 1)
                logp = logp_all.gather(1, chosen).squeeze(1)
                back = torch.stack((chosen.squeeze(1).to(logp.dtype), logp, values)).cpu().numpy()
            s.actions[rows] = back[0]
            s.logps[rows] = back[1]
            s.values[rows] = back[2]
            actions[mine] = s.actions[rows]
            previous = self.pending[mine, seats]
            linked = previous >= 0
            s.successors[previous[linked]] = rows[linked]
            self.pending[mine, seats] = rows
        theirs = choice & ~learner_turn
        for code, policy in self.opponents():
            asked = np.flatnonzero(theirs & (self.opponent == code))
            if len(asked):
                actions[asked] = policy.act(engine, asked)
        result = engine.step(actions)
        self.credit(result.rewards, games["vong_ended"], result.terminated)
        self.steps += b

    def opponents(self) -> Iterator[tuple[int, BatchedPolicy]]:
        """``(code, policy)`` of every opponent a table may hold."""
        yield 0, self.greedy
        yield 1, self.random
        if self.frozen is not None:
            yield -2, self.frozen
        for k, (_, policy) in enumerate(self.pool):
            yield 2 + k, policy

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

    # ---------------------------------------------------------- learning

    def rollout_and_update(self, fraction_left: float) -> dict[str, float]:
        """One rollout of ``rollout_steps`` engine steps, then the PPO update."""
        c = self.config
        started = time.perf_counter()
        for _ in range(c.rollout_steps):
            self.step()
        simulated = time.perf_counter() - started
        s = self.samples
        n = s.size
        advantages = np.zeros(n, dtype=np.float32)
        stream_advantages(
            s.rewards[:n], s.values[:n], s.successors[:n], c.gamma, c.gae_lambda, advantages
        )
        trained = np.flatnonzero(s.successors[:n] != -2)
        returns = advantages[trained] + s.values[trained]
        if c.anneal_lr:
            self.set_learning_rate(fraction_left)
        stats = self.update(trained, advantages[trained], returns)
        open_rows = self.pending >= 0
        self.pending[open_rows] = s.carry(self.pending[open_rows])
        self.updates += 1
        stats.update(
            samples=float(len(trained)),
            simulate_seconds=simulated,
            update_seconds=time.perf_counter() - started - simulated,
            mean_reward=float(s.rewards[trained].mean()) if len(trained) else 0.0,
        )
        return stats

    def set_learning_rate(self, fraction: float) -> None:
        """Set each parameter group's rate: ``learning_rate`` × ``fraction`` × its scale."""
        for group in self.optimizer.param_groups:
            group["lr"] = self.config.learning_rate * fraction * group["scale"]

    def update(
        self, rows: np.ndarray, advantages: np.ndarray, returns: np.ndarray
    ) -> dict[str, float]:
        """PPO's epochs over the samples ``rows``."""
        c, s = self.config, self.samples
        device = self.device
        names = ("policy_loss", "value_loss", "entropy", "clip_fraction")
        totals = torch.zeros(len(names), device=device)  # read once: one wait for a GPU
        batches = 0
        # On a GPU the rollout goes over once; on the CPU these are views.
        whole = self.network_rows(slice(0, s.size)) if device.type != "cpu" else None
        row_all = torch.from_numpy(rows).to(device)
        act_all = torch.from_numpy(s.actions[rows]).to(device)
        old_all = torch.from_numpy(s.logps[rows]).to(device)
        adv_all = torch.from_numpy(advantages).to(device)
        ret_all = torch.from_numpy(returns.astype(np.float32)).to(device)
        for _ in range(c.n_epochs):
            order = self.rng.permutation(len(rows))
            for start in range(0, len(rows), c.minibatch_size):
                part = order[start : start + c.minibatch_size]
                index = torch.from_numpy(part).to(device)
                if whole is None:
                    batch = self.network_rows(rows[part])
                else:
                    batch = {name: tensor[row_all[index]] for name, tensor in whole.items()}
                logits, values = self.evaluate(batch)
                logp_all = torch.log_softmax(logits, dim=1)
                logp = logp_all.gather(1, act_all[index][:, None]).squeeze(1)
                ratio = torch.exp(logp - old_all[index])
                adv = adv_all[index]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8) if len(part) > 1 else adv
                policy_loss = -torch.min(
                    ratio * adv, ratio.clamp(1 - c.clip_range, 1 + c.clip_range) * adv
                ).mean()
                probs = logp_all.exp()
                entropy = -(probs * logp_all.clamp(min=-1e8)).sum(dim=1).mean()
                value_loss = 0.5 * ((values - ret_all[index]) ** 2).mean()
                loss = policy_loss - c.ent_coef * entropy + c.vf_coef * value_loss
                self.optimizer.zero_grad()
                torch.autograd.backward(loss)
                nn.utils.clip_grad_norm_(self.model.parameters(), c.max_grad_norm)
                self.optimizer.step()
                clipped = ((ratio - 1).abs() > c.clip_range).float().mean()
                totals += torch.stack((policy_loss, value_loss, entropy, clipped)).detach()
                batches += 1
        means = (totals / max(batches, 1)).tolist()
        return dict(zip(names, means, strict=True))


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
        saved_values=lambda path: renamed_fields(settings.saved_values(path), on_note),
    )
    config, files = start.config, start.files
    files.out.mkdir(parents=True, exist_ok=True)
    settings.save_config(config, files.config)
    files.checkpoints.remove_leftovers()
    files.pool.mkdir(exist_ok=True)
    busy = busy_note(resolve_threads(config.threads))
    if busy is not None:
        on_note(busy)
    learner = Learner(config, files.pool)
    best, resumed_from = -math.inf, None
    if start.resume:

        def load(directory: Path, step: int) -> None:
            nonlocal best
            best = restore(learner, directory, step)

        resumed_from = load_newest_checkpoint(files, load, on_note)
        roll_back(files, learner.steps)
    evaluations = files.evaluations()
    learner.start()
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
            learner.greedy
            if opponent_name == "greedy"
            else BatchedRandom(0)
            if opponent_name == "random"
            else make_batched_policy(opponent_name)
        )
        row = duplicate_advantage(
            learner.actor,
            opponent,
            c.eval_deals,
            c.eval_seed,
            c.rule_config,
            learner.threads,
        )
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
    "load_config",
    "stream_advantages",
    "train",
]
