"""One training run's lifecycle, shared by the trainers: folder, config, checkpoints, logs, resume.

Every trainer (:mod:`training.batched_ppo`, :mod:`training.ppo_selfplay`)
runs the same life, written here once:

1. **Start** (:func:`start_run`). A new run takes its config (a preset with
   ``--set`` overrides) and a new directory: one that does not hold a run
   (``config.yaml``, a checkpoint or an evaluation). ``--resume RUN_DIR`` reads
   the run's saved ``config.yaml``, applies the overrides (a longer budget,
   say) and refuses those that would change the networks' shape, and needs a
   checkpoint to resume from. Every setting is checked (``Config.check``)
   before anything is written.
2. **Files** (:class:`RunDirectory`). ``config.yaml``, ``tb/``, the trainer's
   log (one JSON row per update or rollout: ``progress.jsonl`` for
   ``batched_ppo``, ``charts.jsonl`` for ``maskable_ppo``), ``eval.csv`` /
   ``eval.jsonl``, ``pool/``, ``checkpoints/``, ``policy.safetensors`` and
   ``best.safetensors``. Every file is written whole or not at all
   (:mod:`env121.engine.files`) and a checkpoint appears only when complete
   (:class:`~training.checkpoint.CheckpointDirectory`).
3. **Resume** (:func:`load_newest_checkpoint`, then :func:`roll_back`). The
   newest checkpoint that loads is resumed from; each one passed over is one
   line naming the file and what is wrong with it. The run directory is then
   made what it was at that checkpoint: the log and evaluation rows after it
   are dropped (the resumed run writes its own), the checkpoints after it
   (which could not be loaded) are set aside as ``step_<N>.corrupt``, what a
   killed save left is removed and ``latest.json`` names it. Both trainers
   resume the same way; each also rolls its opponent pool back.
4. **Ctrl-C** (:mod:`training.interrupt`): the loop stops at the end of the
   update under way with a checkpoint, and :class:`TrainResult` says
   ``interrupted``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from env121.engine.files import check_output_directory, leftover_temporaries, write_atomically
from training import settings
from training.checkpoint import CheckpointDirectory, CorruptCheckpointError
from training.evaluation import keep_rows

C = TypeVar("C", bound=settings.Settings)


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The rows of a JSON-lines log (none if it does not exist); a line that is
    not a JSON object is a ``ValueError`` naming the file and the line."""
    if not path.is_file():
        return []
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line:
            try:
                row = json.loads(line)
            except json.JSONDecodeError as error:
                raise ValueError(f"{path}, line {number}: not valid JSON ({error})") from None
            if not isinstance(row, dict):
                raise ValueError(f"{path}, line {number}: expected a JSON object")
            rows.append(row)
    return rows


class RunDirectory:
    """The paths of a run directory (see the module docstring); ``log`` is the
    name of the trainer's per-update log."""

    def __init__(self, out: Path, log: str) -> None:
        self.out = out
        self.config = out / "config.yaml"
        self.tensorboard = out / "tb"
        self.log = out / log
        self.eval_csv = out / "eval.csv"
        self.eval_jsonl = out / "eval.jsonl"
        self.pool = out / "pool"
        self.checkpoints = CheckpointDirectory(out / "checkpoints")
        self.policy = out / "policy.safetensors"
        self.best = out / "best.safetensors"

    def latest_checkpoint(self) -> Path | None:
        """The checkpoint ``checkpoints/latest.json`` names, if it names one that exists."""
        try:
            return self.checkpoints.pointed()
        except CorruptCheckpointError:
            return None

    def evaluations(self) -> list[dict[str, Any]]:
        """Every evaluation row written so far."""
        return read_jsonl(self.eval_jsonl)

    def log_rows(self) -> list[dict[str, Any]]:
        """The log's rows written so far, one per update or rollout (``step`` first)."""
        return read_jsonl(self.log)

    def holds_run(self) -> bool:
        """Whether a run has started here (a new run may not start in it)."""
        return (
            self.config.exists()
            or self.checkpoints.latest.exists()
            or bool(self.checkpoints.steps())
            or self.eval_jsonl.exists()
        )


@dataclass(frozen=True)
class RunStart(Generic[C]):
    """A run about to start, every setting checked (:func:`start_run`)."""

    config: C
    """The run's config (a resumed run's saved config with its overrides)."""
    files: RunDirectory
    """The run directory's paths (nothing is written there yet)."""
    resume: bool
    """Whether the run continues from one of its checkpoints."""


def start_run(
    cls: type[C],
    config: C | None,
    out: str | Path | None,
    *,
    resume: str | Path | None,
    overrides: Sequence[str],
    log: str,
    network_fields: Sequence[str],
    saved_values: Callable[[Path], dict[str, Any]] = settings.saved_values,
) -> RunStart[C]:
    """Check everything a run needs before anything is written (module
    docstring, step 1); ``ValueError`` naming what is wrong and what is
    accepted. ``network_fields`` are the settings a resumed run cannot change;
    ``saved_values`` reads a saved config (a trainer that renamed fields maps
    the old names there). A new run without ``out`` goes to ``runs/<time>``."""
    if resume is not None:
        if config is not None:
            raise ValueError("train(): give a config for a new run or resume=RUN_DIR, not both")
        files = RunDirectory(Path(resume), log)
        source = settings.saved_config_path(resume)
        saved = settings.from_dict(cls, saved_values(source), source=str(source))
        config = settings.with_overrides(saved, overrides)
        changed = [n for n in network_fields if getattr(config, n) != getattr(saved, n)]
        if changed:
            raise ValueError(
                f"--set {', '.join(changed)} is not valid with --resume: the checkpoint's "
                "networks keep their shape (start a new run)"
            )
        if not files.checkpoints.steps() and not files.checkpoints.latest.exists():
            raise ValueError(f"--resume {str(resume)!r} is not valid: it holds no checkpoint yet")
        return RunStart(config, files, resume=True)
    config = settings.with_overrides(config if config is not None else cls(), overrides)
    files = RunDirectory(Path(out or f"runs/{time.strftime('%Y%m%d-%H%M%S')}"), log)
    check_output_directory(files.out)
    if files.holds_run():
        raise ValueError(
            f"--out {str(files.out)!r} already holds a run: continue it with --resume "
            "or pick another directory"
        )
    return RunStart(config, files, resume=False)


def load_newest_checkpoint(
    files: RunDirectory, load: Callable[[Path, int], None], note: Callable[[str], None]
) -> Path:
    """Load the newest checkpoint of the run that ``load`` accepts and return
    its directory. ``load(directory, step)`` raises
    :class:`~training.checkpoint.CorruptCheckpointError` naming the file for one
    it cannot load. Each one passed over (and a ``latest.json`` naming none)
    is one line to ``note``: the file, what is wrong with it and the
    checkpoint resumed from instead; if none loads, a ``CorruptCheckpointError``
    says why each failed."""
    problems = []
    try:
        files.checkpoints.pointed()
    except CorruptCheckpointError as error:
        problems.append(str(error))
    for step in reversed(files.checkpoints.steps()):
        directory = files.checkpoints.path(step)
        try:
            load(directory, step)
        except CorruptCheckpointError as error:
            problems.append(str(error))
            continue
        for problem in problems:
            note(f"{problem}; resuming from the last complete checkpoint, {directory}")
        return directory
    raise CorruptCheckpointError(
        f"--resume {str(files.out)!r}: no complete checkpoint to resume from: "
        + "; ".join(problems)
    )


def roll_back(files: RunDirectory, step: int) -> None:
    """Make the run directory what it was at the checkpoint of ``step``, which
    a run resumes from (module docstring, step 3). The trainer rolls its pool
    back itself."""
    checkpoints = files.checkpoints
    checkpoints.remove_leftovers()
    for later in (s for s in checkpoints.steps() if s > step):
        checkpoints.set_aside(later)
    for directory in (files.out, files.pool):
        for temporary in leftover_temporaries(directory) if directory.is_dir() else ():
            temporary.unlink()
    if files.latest_checkpoint() != checkpoints.path(step):
        pointer = {"directory": checkpoints.path(step).name, "num_timesteps": step}
        write_atomically(checkpoints.latest, json.dumps(pointer) + "\n")
    rows = files.log_rows()
    if any(row["step"] > step for row in rows):
        kept = [row for row in rows if row["step"] <= step]
        write_atomically(files.log, "".join(json.dumps(r) + "\n" for r in kept))
    evaluations = files.evaluations()
    if evaluations:  # eval.csv is rewritten from eval.jsonl, which a kill may have left ahead
        keep_rows(files.eval_csv, files.eval_jsonl, [r for r in evaluations if r["step"] <= step])


@dataclass
class TrainResult:
    """What a finished (or interrupted) :func:`train` call left behind."""

    out: Path
    """The run directory."""
    num_timesteps: int
    """The learner's step count at the end (all sessions of the run)."""
    policy: Path
    """The final weights-only policy (play it as ``ppo:<policy>``)."""
    seconds: float
    """Wall-clock time of this call."""
    steps_per_second: float
    """Steps per second in this call (updates and evaluations included)."""
    evaluations: list[dict[str, Any]]
    """The evaluation rows of the whole run (``eval.jsonl``)."""
    log: list[dict[str, Any]]
    """The log rows of the whole run (``progress.jsonl`` or ``charts.jsonl``)."""
    checkpoint: Path | None = None
    """The run's last checkpoint (``checkpoints/step_<N>``)."""
    resumed_from: Path | None = None
    """The checkpoint a resumed run started from."""
    interrupted: bool = False
    """Whether Ctrl-C stopped the run early (it saved a checkpoint)."""


__all__ = [
    "RunDirectory",
    "RunStart",
    "TrainResult",
    "load_newest_checkpoint",
    "read_jsonl",
    "roll_back",
    "start_run",
]
