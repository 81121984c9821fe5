"""The one run lifecycle (:mod:`training.run`): both trainers start, refuse,
resume and roll back through the same functions, checked here on run
directories written by hand (no training: the trainers' own tests run it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from training import batched_ppo, ppo_selfplay, settings
from training.checkpoint import CorruptCheckpointError
from training.evaluation import append_row
from training.run import RunDirectory, RunStart, load_newest_checkpoint, roll_back, start_run

TRAINERS = {
    "batched_ppo": (batched_ppo.Config, batched_ppo.PROGRESS_LOG, batched_ppo.NETWORK_FIELDS),
    "maskable_ppo": (ppo_selfplay.Config, ppo_selfplay.CHARTS_LOG, ppo_selfplay.NETWORK_FIELDS),
}


def start(trainer, config=None, out=None, resume=None, overrides=()) -> RunStart[Any]:
    cls, log, network_fields = TRAINERS[trainer]
    return start_run(
        cls,
        config,
        out,
        resume=resume,
        overrides=overrides,
        log=log,
        network_fields=network_fields,
    )


def saved_run(trainer: str, out: Path, steps: tuple[int, ...] = (2, 4, 6)) -> RunDirectory:
    """A run directory as a trainer leaves it: config, log and evaluation rows
    at each of ``steps``, a checkpoint at each."""
    run = start(trainer, TRAINERS[trainer][0](), out)
    files = run.files
    out.mkdir()
    settings.save_config(run.config, files.config)
    for step in steps:
        files.log.open("a").write(json.dumps({"step": step}) + "\n")
        append_row(files.eval_csv, files.eval_jsonl, {"step": step, "advantage": 1.0})

        def write(folder: Path, step: int = step) -> None:
            (folder / "state.json").write_text(str(step))

        files.checkpoints.save(step, write, 9)
    return files


@pytest.mark.parametrize("trainer", TRAINERS)
def test_a_new_run_refuses_a_directory_that_holds_one(tmp_path, trainer):
    files = saved_run(trainer, tmp_path / "run")
    for leftover in (files.config, files.eval_jsonl):  # any trace of a run is one
        with pytest.raises(ValueError, match=r"already holds a run: continue it with --resume"):
            start(trainer, TRAINERS[trainer][0](), files.out)
        leftover.unlink()


@pytest.mark.parametrize("trainer", TRAINERS)
def test_resume_reads_the_saved_config_and_keeps_the_networks_shape(tmp_path, trainer):
    files = saved_run(trainer, tmp_path / "run")
    resumed = start(trainer, resume=files.out, overrides=["seed=5"])
    assert resumed.resume and resumed.config.seed == 5
    with pytest.raises(ValueError, match=r"--set hidden_sizes is not valid with --resume"):
        start(trainer, resume=files.out, overrides=["hidden_sizes=[7]"])
    with pytest.raises(ValueError, match=r"give a config for a new run or resume=RUN_DIR"):
        start(trainer, TRAINERS[trainer][0](), resume=files.out)


@pytest.mark.parametrize("trainer", TRAINERS)
def test_resume_needs_a_checkpoint(tmp_path, trainer):
    files = saved_run(trainer, tmp_path / "run", steps=())
    with pytest.raises(ValueError, match=r"holds no checkpoint yet"):
        start(trainer, resume=files.out)


@pytest.mark.parametrize("trainer", TRAINERS)
def test_resume_passes_over_what_cannot_load_and_rolls_the_run_back(tmp_path, trainer):
    files = saved_run(trainer, tmp_path / "run")
    (files.out / ".eval.jsonl.x1y2.tmp").write_text("half")  # what a kill left

    def load(directory: Path, step: int) -> None:
        if step == 6:
            raise CorruptCheckpointError(f"{directory / 'state.json'}: torn")

    notes: list[str] = []
    resumed = load_newest_checkpoint(files, load, notes.append)
    assert resumed == files.checkpoints.path(4)
    assert notes == [
        f"{files.checkpoints.path(6) / 'state.json'}: torn; "
        f"resuming from the last complete checkpoint, {resumed}"
    ]
    roll_back(files, 4)
    assert [row["step"] for row in files.log_rows()] == [2, 4]
    assert [row["step"] for row in files.evaluations()] == [2, 4]
    assert files.eval_csv.read_text().count("\n") == 3  # header and two rows
    assert files.checkpoints.steps() == [2, 4] and files.latest_checkpoint() == resumed
    assert (files.checkpoints.directory / "step_000000000006.corrupt").is_dir()
    assert not (files.out / ".eval.jsonl.x1y2.tmp").exists()


def test_when_no_checkpoint_loads_the_error_names_each(tmp_path):
    files = saved_run("batched_ppo", tmp_path / "run", steps=(2, 4))

    def load(directory: Path, step: int) -> None:
        raise CorruptCheckpointError(f"{directory}: broken {step}")

    with pytest.raises(CorruptCheckpointError, match=r"no complete checkpoint.*broken 4.*broken 2"):
        load_newest_checkpoint(files, load, print)
