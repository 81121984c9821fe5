"""Self-play MaskablePPO for 121: one learner seat against a pool of opponents.

Run it as ``env121 train --preset small``; ``--set key=value`` overrides any :class:`Config` field,
``--resume RUN_DIR`` continues a run from its last checkpoint.

What happens, in order:

1. The config is a preset (``training/presets/<name>.yaml``) with the
   ``--set`` overrides applied; it is saved as ``RUN_DIR/config.yaml``.
2. ``n_envs`` copies of :class:`~env121.envs.single_seat.SingleSeat` run in
   subprocesses (``SubprocVecEnv``; ``vec_env="dummy"`` keeps them in this
   process), or, with ``vec_env="batched"``, ``n_envs`` games of the compiled
   batched engine step together in this process
   (:class:`~training.sb3_vec.SB3VectorSingleSeat`). The learner's seat is
   drawn every episode (one episode = one match of ``rules.num_van`` ván of
   12 vòng); each of the three other seats draws, per episode, what it plays
   as: a frozen snapshot of the learner from the pool or a built-in agent
   (:mod:`training.pool`), by ``opponent_weights``.
3. sb3-contrib's ``MaskablePPO`` learns from the legal-action masks.
4. A callback, every rollout step: adds a snapshot of the learner to the pool
   every ``snapshot_every`` steps, or when the learner's head-to-head score
   against pool seats reaches ``snapshot_beat_threshold``; writes a resumable
   checkpoint every ``checkpoint_every`` steps; evaluates the learner in the
   arena's duplicate 1-vs-3 format against ``eval_opponent`` every
   ``eval_every`` steps; and logs the ``charts/…`` rates of
   :mod:`training.stats` after each rollout.

A run directory holds::

    config.yaml          the config (rewritten on --resume with its overrides)
    tb/                  TensorBoard: SB3's train/… and rollout/…, charts/…, eval/…
    charts.jsonl         the charts/… values per rollout (step, then the rates)
    curves.png           charts.jsonl and eval.jsonl drawn (env121 train; training.curves)
    eval.csv, eval.jsonl one row per evaluation
    pool/                snapshots + manifest.json (the opponent pool)
    checkpoints/         step_<N>/ (training state + policy), latest.json
    policy.safetensors   the latest exported policy (+ policy.json): ppo:<path>
    best.safetensors     the policy with the best evaluation so far (+ best.json)

Every file is written whole or not at all (:mod:`env121.engine.files`), and a
checkpoint appears only when complete (:class:`~training.checkpoint.CheckpointDirectory`),
so ``--resume`` after a kill at any moment continues from the last complete
checkpoint; one that cannot be loaded is passed over with a warning naming the
file. Ctrl-C stops the run with a checkpoint (:meth:`SelfPlay.finish`).
"""

from __future__ import annotations

import json
import math
import signal
import time
import warnings
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.logger import configure
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv, VecMonitor

from agents.environments import batched_names, make_batched_policy
from agents.hints import INPUTS
from agents.registry import make_agent
from agents.spec import AgentSpecError
from agents.weights import sidecar_path
from env121.engine.files import (
    append_atomically,
    write_atomically,
)
from env121.engine.state import NUM_SEATS
from env121.envs.aec_env import REWARD_MODES
from env121.envs.single_seat import SingleSeat
from env121.envs.vector import VectorSingleSeat
from training import settings
from training.checkpoint import (
    SB3_STATE,
    CorruptCheckpointError,
    Network,
    export_policy,
    load_training_state,
    save_training_state,
)
from training.evaluation import append_row, evaluate_policy
from training.hardware import resolve_device, use_threads
from training.hinted_seat import HintedSeat
from training.imitation import check_warm_start, load_warm_start
from training.interrupt import stop_on_ctrl_c
from training.pool import (
    POOL,
    BatchedMixture,
    MixtureOpponent,
    OpponentMixture,
    SnapshotPool,
    check_opponent_weights,
)
from training.ppo_settings import PPOSettings
from training.progress import Progress
from training.run import (
    RunDirectory,
    TrainResult,
    load_newest_checkpoint,
    roll_back,
    start_run,
)
from training.sb3_vec import SB3VectorSingleSeat
from training.settings import check_at_least, check_choice, check_in_range
from training.stats import BatchedLearnerStats, LearnerStats, StatsWindow

VEC_ENVS = ("subproc", "dummy", "batched")


@dataclass
class Config(PPOSettings):
    """Everything a training run depends on (a preset is a YAML file of these):
    the settings both PPO trainers have (:class:`~training.ppo_settings.PPOSettings`),
    some with this trainer's own defaults below, and this trainer's own. Its
    step is a decision of the learner."""

    algorithm: str = "maskable_ppo"

    # --- this trainer's defaults of shared settings
    threads: int = 1
    """Torch threads of the learner's process (environment processes use one):
    its networks are small, and one thread was measured the fastest on two
    cores (``training/README.md``); 0: ``ENV121_THREADS`` if set, else every
    core. The batched engine (``vec_env: batched``) follows ``ENV121_THREADS``."""
    inputs: str = "observation"
    hint_head: bool = False
    activation: str = "tanh"
    n_epochs: int = 10
    gamma: float = 0.995
    """Discount per learner decision (a ván is about 150 of them)."""
    pool_max_size: int = 10
    snapshot_every: int = 50_000
    checkpoint_every: int = 50_000
    keep_checkpoints: int = 3
    eval_deals: int = 50

    # --- run
    total_timesteps: int = 100_000
    """Learner decisions to train for, over all environments (rounded up to whole rollouts)."""
    n_envs: int = 2
    """Environment copies stepped together (games of the batched engine with ``"batched"``)."""
    vec_env: str = "subproc"
    """``"subproc"``: one process per environment; ``"dummy"``: all in this process (tests);
    ``"batched"``: ``n_envs`` games of the compiled engine in this process (observation
    networks and opponents with a batched policy only)."""

    # --- environment
    reward_mode: str = "points"
    """Reward: ``"points"`` (Điểm as they are won) or ``"rank"`` (placement at the end)."""

    # --- opponents
    opponent_weights: dict[str, float] = field(
        default_factory=lambda: {POOL: 0.6, "greedy": 0.2, "random": 0.2}
    )
    """What an opponent seat plays as (drawn per episode and seat): ``pool`` or agent specs."""
    snapshot_beat_threshold: float = 0.0
    """Also add one when the head-to-head score against pool seats reaches this (0: off)."""
    snapshot_beat_window: int = 300
    """Head-to-head results against pool seats that the threshold is judged on."""
    snapshot_min_gap: int = 10_000
    """Fewest steps between two snapshots added for beating the pool."""
    snapshot_deterministic: bool = False
    """Snapshots play their argmax (True) or sample their policy (False)."""

    # --- PPO (sb3-contrib MaskablePPO)
    n_steps: int = 2048
    """Steps per environment per rollout."""
    batch_size: int = 256
    """Minibatch size of the updates."""
    warm_start: str = ""
    """A file from ``env121 imitate``: the weights a new run's actor and critic start from."""

    # --- logging, checkpoints, evaluation
    stats_window: int = 200
    """Episodes the ``charts/…`` rates are computed over."""
    eval_every: int = 0
    """Evaluate in the arena every this many steps, and at the end (0: never)."""
    eval_opponent: str = "greedy"
    """The reference of the 1-vs-3 evaluation (an agent spec)."""
    eval_jobs: int = 2
    """Processes the evaluation uses."""

    def check(self) -> None:
        """Raise ``ValueError`` naming the first field whose value is not accepted."""
        check_choice("algorithm", self.algorithm, ("maskable_ppo",))
        check_choice("vec_env", self.vec_env, VEC_ENVS)
        check_choice("reward_mode", self.reward_mode, REWARD_MODES)
        check_choice("inputs", self.inputs, tuple(INPUTS))
        if self.hint_head and self.inputs == "observation":
            raise ValueError(
                "hint_head=True is not valid with inputs='observation': the head reads hints"
            )
        for name in ("total_timesteps", "n_envs", "n_steps", "batch_size"):
            check_at_least(name, getattr(self, name), 1)
        for name in ("snapshot_beat_window", "stats_window", "eval_jobs"):
            check_at_least(name, getattr(self, name), 1)
        check_at_least("snapshot_min_gap", self.snapshot_min_gap, 0)
        self.check_shared()
        check_at_least("eval_every", self.eval_every, 0)
        if self.n_steps * self.n_envs < 2:
            raise ValueError(
                f"n_steps={self.n_steps} with n_envs={self.n_envs} is not valid: expected "
                "n_steps * n_envs >= 2 (a rollout of one step has no advantage to learn from)"
            )
        check_in_range(
            "snapshot_beat_threshold",
            self.snapshot_beat_threshold,
            0,
            1,
            "in [0, 1] (a share of head-to-head results; 0 is off)",
            low_included=True,
        )
        if self.batch_size > self.n_steps * self.n_envs:
            raise ValueError(
                f"batch_size={self.batch_size} is not valid: expected at most "
                f"n_steps * n_envs = {self.n_steps * self.n_envs}"
            )
        check_opponent_weights(self.opponent_weights)  # builds each agent spec once
        if self.vec_env == "batched":
            self._check_batched()
        try:
            make_agent(self.eval_opponent)
        except ValueError as error:
            raise ValueError(f"eval_opponent: {error}") from None

    def _check_batched(self) -> None:
        """Raise unless the batched engine can play this run: its networks read
        the observation alone and every opponent has a batched policy."""
        if self.inputs != "observation":
            raise ValueError(
                f"vec_env='batched' is not valid with inputs={self.inputs!r}: the batched "
                "engine computes no hints (expected inputs='observation', or vec_env 'subproc' "
                "or 'dummy')"
            )
        for spec in self.opponent_weights:
            if spec != POOL:
                try:
                    make_batched_policy(spec)
                except AgentSpecError:
                    raise ValueError(
                        f"vec_env='batched' is not valid with opponent {spec!r}: it has no "
                        f"batched policy (expected {POOL!r} or an agent spec of "
                        f"{batched_names()}, or vec_env "
                        "'subproc' or 'dummy')"
                    ) from None


def network_of(config: Config) -> Network:
    """The shape of the networks ``config`` builds."""
    return Network(list(config.hidden_sizes), config.activation, config.inputs, config.hint_head)


# ------------------------------------------------------------------ presets


def load_config(preset: str | Path, overrides: Sequence[str] = ()) -> Config:
    """The config of ``preset`` (a shipped preset's name or a YAML file) with
    ``key=value`` overrides (values in YAML: ``hidden_sizes=[64,64]``)."""
    return settings.load_config(Config, preset, overrides)


def config_from_dict(values: dict[str, Any], source: str = "config") -> Config:
    """A checked :class:`Config` from plain values (unknown keys are errors)."""
    return settings.from_dict(Config, values, source)


def with_overrides(config: Config, overrides: Sequence[str]) -> Config:
    """``config`` with ``key=value`` strings applied (values parsed as YAML)."""
    return settings.with_overrides(config, overrides)


def read_config(path: Path) -> Config:
    """The config a run saved (:func:`settings.save_config`), checked."""
    return settings.read_config(Config, path)


# ------------------------------------------------------------- environment


def make_env(
    config: Config, pool_dir: Path, in_subprocess: bool
) -> Callable[[], gymnasium.Env[Any, Any]]:
    """A function that builds one training environment (run in the worker)."""

    def build() -> gymnasium.Env[Any, Any]:
        if in_subprocess:
            torch.set_num_threads(1)
            # Ctrl-C reaches the whole process group: the trainer alone handles it
            # (it stops, saves a checkpoint and closes the environments).
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        mixture = OpponentMixture(config.opponent_weights, pool_dir, config.snapshot_deterministic)
        opponents = [MixtureOpponent(mixture) for _ in range(NUM_SEATS - 1)]
        env = SingleSeat(opponents, config=config.rule_config, reward_mode=config.reward_mode)
        stats = LearnerStats(env)
        hinted = config.inputs != "observation"
        return Monitor(HintedSeat(stats, config.inputs) if hinted else stats)

    return build


def make_vec_env(config: Config, pool_dir: Path) -> VecEnv:
    """``n_envs`` training environments: in subprocesses or not, or games of
    the batched engine whose opponents are one :class:`~training.pool.BatchedMixture`."""
    if config.vec_env == "batched":
        mixture = OpponentMixture(config.opponent_weights, pool_dir, config.snapshot_deterministic)
        opponents = BatchedMixture(mixture)
        vector = VectorSingleSeat(
            config.n_envs,
            opponents,
            config=config.rule_config,
            reward_mode=config.reward_mode,
        )
        return VecMonitor(BatchedLearnerStats(SB3VectorSingleSeat(vector), opponents))
    subproc = config.vec_env == "subproc"
    builders = [make_env(config, pool_dir, subproc) for _ in range(config.n_envs)]
    return SubprocVecEnv(builders) if subproc else DummyVecEnv(builders)


def make_model(config: Config, env: VecEnv) -> MaskablePPO:
    """A fresh MaskablePPO learner for ``env``."""
    rate = config.learning_rate
    schedule: float | Callable[[float], float] = (
        (lambda remaining: remaining * rate) if config.anneal_lr else rate
    )
    network = network_of(config)
    return MaskablePPO(
        network.policy_class(),
        env,
        learning_rate=schedule,
        n_steps=config.n_steps,
        batch_size=config.batch_size,
        n_epochs=config.n_epochs,
        gamma=config.gamma,
        gae_lambda=config.gae_lambda,
        clip_range=config.clip_range,
        ent_coef=config.ent_coef,
        vf_coef=config.vf_coef,
        max_grad_norm=config.max_grad_norm,
        policy_kwargs=network.policy_kwargs(),
        seed=config.seed,
        device=resolve_device(config.device),
        verbose=0,
    )


# ---------------------------------------------------------------- the run


CHARTS_LOG = "charts.jsonl"
"""The run's log: the ``charts/…`` values per rollout (``step``, then the rates)."""
NETWORK_FIELDS = ("hidden_sizes", "activation", "inputs", "hint_head")
"""The config fields that shape the networks: a resumed run cannot change them."""


def run_directory(out: str | Path) -> RunDirectory:
    """The paths of this trainer's run directory ``out``."""
    return RunDirectory(Path(out), CHARTS_LOG)


def train(
    config: Config | None = None,
    out: str | Path | None = None,
    *,
    resume: str | Path | None = None,
    overrides: Sequence[str] = (),
    progress: bool = False,
    on_note: Callable[[str], None] | None = None,
) -> TrainResult:
    """Train (or, with ``resume``, continue training) and return the result.

    ``config`` starts a new run in ``out`` (default ``runs/<time>``);
    ``resume`` continues the run in that directory from its last complete
    checkpoint with its saved config and ``overrides`` (``key=value``)
    applied, e.g. a larger ``total_timesteps``. ``progress`` shows a progress bar.

    Nothing is written before the settings are checked
    (:func:`training.run.start_run`, and the warm start here), the model is
    built and its warm start or checkpoint loaded: a run that cannot start
    leaves no run directory behind (a resumed one, its directory as it was).
    A checkpoint that cannot be loaded is passed over for the one before it,
    with a line to ``on_note`` (default :func:`warnings.warn`) naming the
    file; the run then forgets what came after the checkpoint it resumes from
    (:func:`training.run.roll_back`, and the pool's). The first Ctrl-C
    (SIGINT) stops the run at the next step with a checkpoint
    (``TrainResult.interrupted``)."""
    start = start_run(
        Config,
        config,
        out,
        resume=resume,
        overrides=overrides,
        log=CHARTS_LOG,
        network_fields=NETWORK_FIELDS,
    )
    config, files = start.config, start.files
    if not start.resume and config.warm_start:
        check_warm_start(config.warm_start, network_of(config))
    note = on_note or (lambda line: warnings.warn(line, stacklevel=3))
    use_threads(config.threads)
    env = make_vec_env(config, files.pool)
    try:
        model = make_model(config, env)
        resumed_from = None
        if start.resume:
            resumed_from = load_newest_checkpoint(files, lambda d, s: _load(model, d, s), note)
            model.set_random_seed(config.seed + model.num_timesteps)  # fresh deals
        elif config.warm_start:
            load_warm_start(model.policy, config.warm_start, network_of(config))
        # The run directory is written from here on.
        files.out.mkdir(parents=True, exist_ok=True)
        if resumed_from is not None:
            roll_back(files, model.num_timesteps)
            if files.pool.is_dir():
                SnapshotPool(files.pool, config.pool_max_size).roll_back(model.num_timesteps)
        settings.save_config(config, files.config)
        pool = SnapshotPool(files.pool, config.pool_max_size)
        model.set_logger(configure(str(files.tensorboard), ["tensorboard"]))
        callback = SelfPlay(config, files, pool, progress)
        start_step, started = model.num_timesteps, time.perf_counter()
        remaining = config.total_timesteps - model.num_timesteps
        if remaining > 0:
            with stop_on_ctrl_c(callback.request_stop):
                model.learn(remaining, callback=callback, reset_num_timesteps=False, log_interval=1)
        else:  # the run is complete: only make sure its policy is exported
            callback.init_callback(model)
            callback.export(files.policy)
        seconds = time.perf_counter() - started
    finally:
        env.close()
    steps = model.num_timesteps - start_step
    return TrainResult(
        out=files.out,
        num_timesteps=model.num_timesteps,
        policy=files.policy,
        seconds=seconds,
        steps_per_second=steps / seconds if seconds > 0 else 0.0,
        evaluations=files.evaluations(),
        log=files.log_rows(),
        checkpoint=files.latest_checkpoint(),
        resumed_from=resumed_from,
        interrupted=callback.stopped,
    )


def _load(model: MaskablePPO, directory: Path, step: int) -> None:
    """Load the checkpoint of ``step`` in ``directory`` into ``model``; a
    :class:`~training.checkpoint.CorruptCheckpointError` names what is wrong."""
    state = load_training_state(model, directory)
    if state["num_timesteps"] != step:
        raise CorruptCheckpointError(
            f"{directory / SB3_STATE.json}: num_timesteps is {state['num_timesteps']}, "
            f"not the {step} of its directory's name"
        )


class SelfPlay(BaseCallback):
    """Pool snapshots, checkpoints, evaluations, ``charts/…`` and the progress bar."""

    def __init__(
        self, config: Config, files: RunDirectory, pool: SnapshotPool, progress: bool
    ) -> None:
        super().__init__()
        self.config = config
        self.files = files
        self.pool = pool
        self.window = StatsWindow(config.stats_window)
        self.beat_pool: deque[float] = deque(maxlen=config.snapshot_beat_window)
        self.bar = Progress(config.total_timesteps) if progress else None
        self.best_advantage = max(
            (row["advantage"] for row in files.evaluations()), default=-math.inf
        )
        self.last_snapshot = self.last_checkpoint = self.last_eval = -1
        self.last_row: dict[str, Any] | None = None
        self.rollout_start = 0
        """The step at which the rollout being collected began."""
        self.stop_requested = False
        """Set by Ctrl-C (:meth:`request_stop`): stop at the next step."""
        self.stopped = False
        """Whether a rollout was cut short by a stop (see :meth:`finish`)."""

    def request_stop(self) -> None:
        """Ctrl-C: stop at the next step (:func:`training.interrupt.stop_on_ctrl_c`)."""
        self.stop_requested = True

    @property
    def step(self) -> int:
        """The learner's step count now."""
        return int(self.model.num_timesteps)

    @property
    def learner(self) -> MaskablePPO:
        """The model being trained."""
        assert isinstance(self.model, MaskablePPO)
        return self.model

    # ---- SB3 hooks

    def _on_training_start(self) -> None:
        step = self.step
        self.last_snapshot = max((s.step for s in self.pool.snapshots), default=-1)
        self.last_checkpoint = self.last_eval = step
        if not self.pool.snapshots:
            self.snapshot("initial")
        if self.bar:
            self.bar.start(step, self.status())

    def _on_rollout_start(self) -> None:
        self.rollout_start = self.step

    def _on_step(self) -> bool:
        if self.stop_requested:
            self.stopped = True
            return False
        for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
            if done and "learner_stats" in info:
                summary = info["learner_stats"]
                self.window.add(summary)
                self.beat_pool.extend(
                    s for label, s in summary["head_to_head"] if label.startswith(POOL)
                )
        config, step = self.config, self.step
        if _due(step, self.last_snapshot, config.snapshot_every):
            self.snapshot("schedule")
        elif self.beats_pool() and step - self.last_snapshot >= config.snapshot_min_gap:
            self.snapshot("beat_pool")
        if _due(step, self.last_checkpoint, config.checkpoint_every):
            self.checkpoint()
        if _due(step, self.last_eval, config.eval_every):
            self.evaluate()
        if self.bar:
            self.bar.update(step)
        return True

    def _on_rollout_end(self) -> None:
        charts = self.window.charts()
        charts["charts/pool_size"] = float(len(self.pool.snapshots))
        for key, value in charts.items():
            self.logger.record(key, value)
        row = {"step": self.step, **{k.removeprefix("charts/"): v for k, v in charts.items()}}
        append_atomically(self.files.log, json.dumps(row) + "\n")
        if self.bar:
            self.bar.update(self.step, self.status())

    def _on_training_end(self) -> None:
        self.finish()

    # ---- actions

    def finish(self) -> None:
        """The end of a run: a last checkpoint, evaluation and policy export.

        A run stopped by Ctrl-C skips the evaluation, and its checkpoint is
        of the step its last rollout began at: the steps of the rollout cut
        short taught the weights nothing (they change only when a rollout is
        complete), so a resumed run plays them again and ends where an
        uninterrupted one does. Checkpoints taken during that rollout go."""
        if self.stopped:
            self.learner.num_timesteps = self.rollout_start
        step = self.step
        latest = self.files.latest_checkpoint()
        if self.stopped or self.last_checkpoint != step or latest is None:
            self.checkpoint()
        if self.config.eval_every and self.last_eval != step and not self.stopped:
            self.evaluate()
        self.export(self.files.policy)
        if self.bar:
            self.bar.stop()

    def export(self, path: Path) -> Path:
        """Write the learner's weights-only policy to ``path``."""
        config = self.config
        notes = {
            "num_timesteps": int(self.learner.num_timesteps),
            "reward_mode": config.reward_mode,
            "rules": config.rules,
            "seed": config.seed,
        }
        return export_policy(self.learner.policy, path, network_of(config), notes)

    def snapshot(self, reason: str) -> None:
        """Add the learner as it is now to the opponent pool."""
        step = self.step
        self.export(self.pool.path(f"snap_{step:012d}"))
        self.pool.add(step, reason)
        self.last_snapshot = step
        self.beat_pool.clear()

    def beats_pool(self) -> bool:
        """Whether the learner's recent head-to-head score against pool seats
        reached ``snapshot_beat_threshold`` over a full window."""
        threshold = self.config.snapshot_beat_threshold
        full = len(self.beat_pool) == self.beat_pool.maxlen
        return threshold > 0 and full and float(np.mean(self.beat_pool)) >= threshold

    def checkpoint(self) -> None:
        """Write a resumable checkpoint (whole or not at all, see
        :class:`~training.checkpoint.CheckpointDirectory`); keep the newest
        ``keep_checkpoints``."""
        step = self.step

        def write(directory: Path) -> None:
            save_training_state(self.learner, directory, {"pool_size": len(self.pool.snapshots)})
            self.export(directory / "policy.safetensors")

        self.files.checkpoints.save(step, write, self.config.keep_checkpoints)
        self.last_checkpoint = step

    def evaluate(self) -> None:
        """The learner against three ``eval_opponent`` in the arena's duplicate
        1-vs-3 format; logs ``eval/…`` and appends to ``eval.csv`` / ``eval.jsonl``."""
        config, step = self.config, self.step
        policy = self.export(self.files.policy)
        row = evaluate_policy(
            policy,
            config.eval_opponent,
            deals=config.eval_deals,
            seed=config.eval_seed,
            jobs=config.eval_jobs,
            config=config.rule_config,
        )
        row = {"step": step, **row}
        append_row(self.files.eval_csv, self.files.eval_jsonl, row)
        name = row["opponent"].replace(":", "_")
        self.logger.record(f"eval/advantage_vs_{name}", row["advantage"])
        self.logger.record(f"eval/advantage_low_vs_{name}", row["low"])
        self.logger.record(f"eval/advantage_high_vs_{name}", row["high"])
        for metric, value in row["metrics"].items():
            self.logger.record(f"eval/{metric}", value)
        self.logger.dump(step)
        if row["advantage"] > self.best_advantage:
            self.best_advantage = row["advantage"]
            write_atomically(self.files.best, policy.read_bytes())
            best_sidecar = json.loads(sidecar_path(policy).read_text())
            best_sidecar["weights"] = self.files.best.name
            best_sidecar["training"]["evaluation"] = row
            best_json = json.dumps(best_sidecar, indent=2) + "\n"
            write_atomically(sidecar_path(self.files.best), best_json)
        self.last_eval = step
        self.last_row = row

    def status(self) -> str:
        """The progress bar's status text."""
        charts = self.window.charts()
        parts = [f"pool {len(self.pool.snapshots)}"]
        if "charts/win_rate_per_vong" in charts:
            parts.append(f"win/vòng {charts['charts/win_rate_per_vong']:.2f}")
        if "charts/episode_return" in charts:
            parts.append(f"return {charts['charts/episode_return']:+.1f}")
        row = self.last_row
        if row:
            parts.append(f"eval {row['advantage']:+.1f} [{row['low']:+.1f}, {row['high']:+.1f}]")
        return " | ".join(parts)


def _due(step: int, last: int, every: int) -> bool:
    """Whether a step multiple of ``every`` was crossed since ``last``."""
    return every > 0 and step // every > max(last, 0) // every
