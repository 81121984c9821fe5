"""Self-play PPO on the batched engine: one policy for all four seats, learned from scratch.

Run it as ``env121 train --preset scratch`` (a preset whose ``algorithm`` is
``batched_ppo``); ``--set key=value`` overrides any :class:`Config` field and
``--resume RUN_DIR`` continues a run from its last checkpoint.

The algorithm, in the CleanRL manner: this file is the loop, read top to
bottom; the networks are :mod:`training.actor_critic`, the rollout buffer and
the per-stream advantages :mod:`training.rollout`, the evaluation
:func:`training.evaluation.duplicate_advantage` and the run's lifecycle
:mod:`training.run`.

* **Simulation.** ``num_games`` matches run in one
  :class:`~env121.engine.batched.BatchedEngine`; every engine step moves every
  game by one decision. Each game is a *table* drawn when its match starts
  (``table_weights``): ``self`` — the learner in all four seats (one policy
  shared by the seats); or one learner seat against three copies of a frozen
  ``pool`` snapshot, of ``greedy`` or of ``random``, so the learner does not
  chase its own tail. Forced moves (one legal action) are played without
  asking anyone and are not training samples.
* **Actor.** :class:`agents.ppo.PolicyNetwork` reading ``inputs``: the seat's
  observation (``env121_v1``), by default followed by the ``swap_wins`` part —
  per candidate swap, what the resulting hand could win on, the rules'
  knowledge of the hand and nothing of any agent's judgement. It is what the
  shipped checkpoint holds, so the arena, ``env121 play`` and the AEC env play
  it as ``ppo:<checkpoint>``.
* **Critic** (training only). With ``critic: perfect`` it also reads the three
  other seats' hidden hands (PerfectDou's perfect-information critic: the value
  may know what the actor may not; the actor never sees it).
* **Returns.** Each seat's decisions in a game form a stream; the points a
  step pays a seat are credited to that seat's last decision. With ``horizon:
  vong`` a stream ends at each vòng's end (a vòng's decisions decide its
  payment; later vòng add only noise), with ``match`` at the match's end.
  Advantages are GAE(γ, λ) along each stream; a stream still open when the
  rollout ends bootstraps on its last decision's value, and that last decision
  waits for its rewards and is trained in the next update.
* **Update.** PPO's clipped objective, value loss, entropy bonus, Adam, advantages
  normalised per minibatch, gradient clipping, learning rate annealed to 0.
* **Measurement.** Every ``eval_every`` engine steps the actor plays its
  argmax in the duplicate 1-vs-3 format against each of ``eval_opponents``
  on ``eval_deals`` deals (each played in the four seats), all in one batched
  engine: the advantage in points per ván with its 95% interval clustered by
  deal. These deals (``eval_seed``) choose the best checkpoint; claims are
  made in the arena on other seeds.

A run directory holds ``config.yaml``, ``tb/`` (TensorBoard), ``progress.jsonl``
(one row per update: speed, losses), ``eval.csv`` / ``eval.jsonl``,
``pool/`` (snapshots), ``checkpoints/`` (resumable: actor, critic, optimiser,
counters, the generator), ``policy.safetensors`` (the latest actor, with its
sidecar: ``ppo:RUN_DIR/policy.safetensors``), ``best.safetensors`` (the best
evaluated against the first of ``eval_opponents``) and ``curves.png``.
Every file is written whole or not at all, and a checkpoint appears only when
complete; Ctrl-C stops with a checkpoint (:mod:`training.run`). A resumed run
restores everything that learns and continues with new deals (the games in
flight are not saved).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import safetensors.torch
import torch
from torch import nn
from torch.utils.tensorboard import SummaryWriter

from agents.batched_greedy import BatchedGreedy
from agents.batched_ppo import (
    BATCHED_INPUTS,
    BatchedPPO,
    InputEncoder,
    legal_masks,
)
from agents.ppo import ACTIVATIONS, PolicyNetwork, hint_blocks, save_policy
from env121.engine.batched.engine import BatchedEngine
from env121.engine.batched.threads import resolve_threads
from env121.engine.files import append_atomically, write_atomically
from env121.engine.state import NUM_SEATS
from env121.play.batched_policy import BatchedPolicy, BatchedRandom
from env121.rules.config import RuleConfig
from training import settings
from training.actor_critic import ActorCritic, hidden_hands, masked_logits
from training.checkpoint import CorruptCheckpointError
from training.evaluation import append_row, duplicate_advantage
from training.hardware import busy_note, check_device, resolve_device, use_threads
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
from training.settings import check_at_least, check_choice

ALGORITHM = "batched_ppo"
"""The ``algorithm`` a preset names to be trained by this module."""
TABLES = ("self", "pool", "greedy", "random")
"""What a game's table can be (see the module docstring)."""
HORIZONS = ("vong", "match")
"""Where a seat's stream of decisions ends (``Config.horizon``)."""
CRITICS = ("perfect", "observation")
"""What the critic reads besides the actor's input (``Config.critic``)."""


@dataclass
class Config:
    """Everything a run depends on (a preset is a YAML file of these)."""

    description: str = ""
    """What the preset is for (free text)."""
    algorithm: str = ALGORITHM
    """Which trainer runs the preset (this one: ``batched_ppo``)."""

    # --- run
    seed: int = 0
    """Seeds the networks, the deals and every draw of the trainer."""
    total_steps: int = 20_000_000
    """Engine steps to train for (all games; rounded up to whole rollouts)."""
    num_games: int = 512
    """Games stepped together."""
    rollout_steps: int = 64
    """Engine steps per rollout (each moves every game)."""
    threads: int = 0
    """Threads of the engine, the input encoder, the greedy opponents and torch
    (they run one after another); 0: ``ENV121_THREADS`` if set, else every core."""
    device: str = "auto"
    """Where the networks act and learn: ``auto`` (a GPU when torch sees one),
    ``cpu``, ``cuda`` or ``cuda:N`` (:mod:`training.hardware`)."""
    rules: dict[str, Any] = field(default_factory=dict)
    """:class:`~env121.rules.config.RuleConfig` fields (default: the spec)."""

    # --- tables
    table_weights: dict[str, float] = field(
        default_factory=lambda: {"self": 0.5, "pool": 0.2, "greedy": 0.2, "random": 0.1}
    )
    """How often each kind of table (``TABLES``) is drawn for a new match."""
    pool_max_size: int = 8
    """Snapshots in play; the oldest retire."""
    snapshot_every: int = 2_000_000
    """Add a snapshot of the learner to the pool every this many engine steps."""

    # --- networks
    inputs: str = "observation+swap_wins"
    """What the actor reads (a key of ``agents.hints.INPUTS`` without agent hints)."""
    hint_head: bool = True
    """Each action's logit also reads that action's entries of the input's
    trailing per-action part, through one weight per block."""
    hint_head_lr_scale: float = 10.0
    """The hint head's learning rate is ``learning_rate`` × this. Adam moves a
    weight by about its learning rate per step, and the head's few weights
    must grow to several units to weigh the per-action values against the
    rest of the logit: at the base rate that takes thousands of updates."""
    hidden_sizes: list[int] = field(default_factory=lambda: [256, 256])
    """Hidden layer widths of the actor and of the critic."""
    activation: str = "relu"
    """``"tanh"`` or ``"relu"``."""
    critic: str = "perfect"
    """``"perfect"``: the critic also reads the other seats' hands; ``"observation"``: not."""

    # --- PPO
    learning_rate: float = 3e-4
    """Adam step size (at the start when ``anneal_lr``)."""
    anneal_lr: bool = True
    """Decay the learning rate linearly to 0 over ``total_steps``."""
    n_epochs: int = 2
    """Passes over each rollout's samples."""
    minibatch_size: int = 4096
    """Samples per gradient step."""
    gamma: float = 1.0
    """Discount per decision of a seat."""
    gae_lambda: float = 0.95
    """GAE's λ."""
    horizon: str = "vong"
    """Where a seat's stream of decisions ends: ``"vong"`` or ``"match"``."""
    reward_scale: float = 1.0
    """Rewards are Điểm × this."""
    clip_range: float = 0.2
    """PPO's policy clipping."""
    ent_coef: float = 0.01
    """Entropy bonus."""
    vf_coef: float = 0.5
    """Value loss weight."""
    max_grad_norm: float = 0.5
    """Gradient clipping norm."""

    # --- checkpoints, evaluation
    checkpoint_every: int = 2_000_000
    """Write a resumable checkpoint every this many engine steps (and at the end)."""
    keep_checkpoints: int = 2
    """Checkpoints kept on disk."""
    eval_every: int = 2_000_000
    """Evaluate every this many engine steps, and at the end (0: only at the end)."""
    eval_opponents: list[str] = field(default_factory=lambda: ["greedy", "random"])
    """References of the duplicate 1-vs-3 evaluations (``greedy``, ``random``)."""
    eval_deals: int = 64
    """Duplicate deals per evaluation (each played in the four seats)."""
    eval_seed: int = 2024
    """Seed of the evaluation deals (the same every time, so evaluations compare)."""

    def check(self) -> None:
        """Raise ``ValueError`` naming the first field whose value is not accepted."""
        check_choice("algorithm", self.algorithm, (ALGORITHM,))
        check_choice("activation", self.activation, tuple(ACTIVATIONS))
        check_choice("critic", self.critic, CRITICS)
        check_choice("horizon", self.horizon, HORIZONS)
        check_choice("inputs", self.inputs, BATCHED_INPUTS)
        if self.hint_head and not hint_blocks(self.inputs):
            raise ValueError(
                f"hint_head=True is not valid with inputs={self.inputs!r}: the head reads "
                "a per-action part"
            )
        check_device(self.device)
        check_at_least("threads", self.threads, 0)
        for name in ("total_steps", "num_games", "rollout_steps", "minibatch_size"):
            check_at_least(name, getattr(self, name), 1)
        if not self.hidden_sizes:
            raise ValueError("hidden_sizes=[] is not valid: expected one or more widths")
        settings.check_ppo(self)
        unknown = sorted(set(self.table_weights) - set(TABLES))
        if unknown or any(w < 0 for w in self.table_weights.values()):
            raise ValueError(
                f"table_weights={self.table_weights!r} is not valid: expected non-negative "
                f"weights for some of {TABLES}"
            )
        if sum(self.table_weights.values()) <= 0:
            raise ValueError("table_weights is not valid: expected a positive total weight")
        for opponent in self.eval_opponents:
            check_choice("eval_opponents", opponent, ("greedy", "random"))
        for name in ("reward_scale", "hint_head_lr_scale"):
            settings.check_in_range(name, getattr(self, name), 0, math.inf, "> 0")

    @property
    def rule_config(self) -> RuleConfig:
        """The rules the games are played under."""
        return RuleConfig(**self.rules)


def _renamed_fields(values: dict[str, Any], on_note: Callable[[str], None]) -> dict[str, Any]:
    """A saved run's fields under today's names: runs saved before ``threads``
    replaced ``engine_threads`` and ``torch_threads`` resume with ``threads`` set to
    their ``engine_threads`` (both were the thread count of one 2-core setting)."""
    if "engine_threads" not in values and "torch_threads" not in values:
        return values
    values = dict(values)
    engine_threads = values.pop("engine_threads", None)
    torch_threads = values.pop("torch_threads", None)
    values.setdefault("threads", engine_threads if engine_threads is not None else torch_threads)
    on_note(
        f"the run's engine_threads/torch_threads ({engine_threads}/{torch_threads}) are read as "
        f"threads={values['threads']} (one setting now, ENV121_THREADS's)"
    )
    return values


def load_config(preset: str | Path, overrides: Sequence[str] = ()) -> Config:
    """The config of ``preset`` (a shipped preset's name or a YAML file) with overrides."""
    return settings.load_config(Config, preset, overrides)


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
        self.pool_dir = pool_dir
        self.pool: list[tuple[int, BatchedPPO]] = []
        """(step, policy) of each snapshot in play, oldest first."""
        self.learner_seats = np.zeros((b, NUM_SEATS), dtype=bool)
        self.opponent = np.zeros(b, dtype=np.int64)
        """Per game its opponents: -1 none (self play), 0 greedy, 1 random, 2+k pool[k]."""
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

    # ---------------------------------------------------------- state

    def state_tensors(self) -> dict[str, torch.Tensor]:
        """Everything that learns, as named tensors (actor, critic, Adam)."""
        tensors = {f"model.{k}": v for k, v in self.model.state_dict().items()}
        optimizer = self.optimizer.state_dict()
        for index, state in optimizer["state"].items():
            for key, value in state.items():
                tensors[f"adam.{index}.{key}"] = torch.as_tensor(value).clone()
        return {k: v.detach().cpu().contiguous() for k, v in tensors.items()}

    def load_state_tensors(self, tensors: dict[str, torch.Tensor]) -> None:
        """Restore :meth:`state_tensors` (raises ``KeyError``/``RuntimeError`` on a misfit)."""
        self.model.load_state_dict({k[6:]: v for k, v in tensors.items() if k.startswith("model.")})
        optimizer = self.optimizer.state_dict()
        params = [index for group in optimizer["param_groups"] for index in group["params"]]
        state: dict[int, dict[str, torch.Tensor]] = {}
        for index in params:
            entries = {
                key.split(".", 2)[2]: value
                for key, value in tensors.items()
                if key.startswith(f"adam.{index}.")
            }
            if entries:
                state[index] = entries
        optimizer["state"] = state
        self.optimizer.load_state_dict(optimizer)


# ------------------------------------------------------------------ the run


NETWORK_FIELDS = ("inputs", "hint_head", "hidden_sizes", "activation", "critic")
"""Settings a resumed run cannot change: the checkpoint's networks keep their shape."""
PROGRESS_LOG = "progress.jsonl"
"""The run's log: one row per update (step, speed, losses)."""
STATE_TENSORS = "state.safetensors"
STATE_JSON = "state.json"


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
        saved_values=lambda path: _renamed_fields(settings.saved_values(path), on_note),
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
            best = _restore(learner, directory, step)

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
            while learner.steps < config.total_steps and not stopper.requested:
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
                done = learner.steps >= config.total_steps
                if due("snapshot_every", learner.steps):
                    learner.add_snapshot()
                if due("eval_every", learner.steps) or done:
                    best = _evaluate(learner, files, writer, evaluations, best, elapsed)
                if due("checkpoint_every", learner.steps) or done:
                    last_checkpoint = _checkpoint(learner, files, best, elapsed)
            if stopper.requested:
                elapsed = learner.wall_seconds + time.perf_counter() - session_start
                last_checkpoint = _checkpoint(learner, files, best, elapsed)
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
        opponent: BatchedPolicy = learner.greedy if opponent_name == "greedy" else BatchedRandom(0)
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


def _checkpoint(learner: Learner, files: RunDirectory, best: float, elapsed: float) -> Path:
    """A resumable checkpoint of ``learner``."""

    def write(directory: Path) -> None:
        write_atomically(directory / STATE_TENSORS, safetensors.torch.save(learner.state_tensors()))
        state = {
            "steps": learner.steps,
            "updates": learner.updates,
            "wall_seconds": elapsed,
            "best": best if math.isfinite(best) else None,
            "pool": [step for step, _ in learner.pool],
            "rng": learner.rng.bit_generator.state,
            "torch_rng": torch.get_rng_state().tolist(),
        }
        write_atomically(directory / STATE_JSON, json.dumps(state) + "\n")

    return files.checkpoints.save(learner.steps, write, learner.config.keep_checkpoints)


def _restore(learner: Learner, directory: Path, step: int) -> float:
    """Load the checkpoint of ``step`` in ``directory`` into ``learner`` (a
    :class:`~training.checkpoint.CorruptCheckpointError` names what is wrong);
    returns the best evaluation so far."""
    try:
        tensors = safetensors.torch.load_file(str(directory / STATE_TENSORS))
        state = json.loads((directory / STATE_JSON).read_text(encoding="utf-8"))
        learner.load_state_tensors(tensors)
        if int(state["steps"]) != step:
            raise ValueError(f"steps is {state['steps']}, not the {step} of its directory's name")
    except (OSError, ValueError, KeyError, RuntimeError, safetensors.SafetensorError) as error:
        raise CorruptCheckpointError(f"{directory}: cannot be loaded ({error})") from None
    learner.steps = int(state["steps"])
    learner.updates = int(state["updates"])
    learner.wall_seconds = float(state["wall_seconds"])
    learner.rng.bit_generator.state = state["rng"]
    torch.set_rng_state(torch.tensor(state["torch_rng"], dtype=torch.uint8))
    for snap in state["pool"]:
        path = learner.pool_dir / f"snap_{snap:012d}.safetensors"
        learner.pool.append((snap, learner.snapshot(path)))
    return float(state["best"]) if state["best"] is not None else -math.inf


__all__ = [
    "ALGORITHM",
    "ActorCritic",
    "Config",
    "TrainResult",
    "load_config",
    "stream_advantages",
    "train",
]
