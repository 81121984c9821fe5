"""Training survives Ctrl-C, ``kill -9`` and corrupt checkpoints; a run that
cannot start leaves nothing behind (issue 19).

The kill tests run the real ``env121 train`` in a subprocess and stop it at a
chosen point, made reachable by slowing one file's writes
(:mod:`tests.support.slow_write`): a slow ``charts.jsonl``
makes each rollout last a second, so that Ctrl-C lands in the middle of the
run; a slow ``training.safetensors`` holds a checkpoint save open, so that
``SIGKILL`` lands inside it. The resumed run is compared with an uninterrupted
run of the same seed on what a resume reproduces: the step count, the
checkpoints kept, the ``charts.jsonl`` rows and the pool's snapshots. (The
weights are not compared: a resumed run deals fresh episodes, so its updates
differ; an uninterrupted run is reproducible, which
``test_two_runs_of_one_seed_train_the_same_weights`` checks.)
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import torch
from safetensors.torch import load_file

from apps.cli import main
from tests.support.training_helpers import TINY
from training.checkpoint import CheckpointDirectory
from training.imitation import WARM_START_FORMAT
from training.pool import read_manifest
from training.ppo_selfplay import load_config, run_directory, train

ROOT = Path(__file__).resolve().parents[2]
BUDGET = (*TINY, "total_timesteps=512", "keep_checkpoints=3")
"""Rollouts of 128 steps, a checkpoint and a snapshot every 128 steps, four rollouts."""
STEP = "step_{:012d}".format


def started(out: Path, *settings: str, slow: str) -> subprocess.Popen[str]:
    """``env121 train`` of :data:`BUDGET` (and ``settings``) into ``out``, in its
    own process group (as a terminal's Ctrl-C reaches it), with the writes of
    ``slow`` (``NAME:SECONDS``) slowed (:mod:`tests.support.slow_write`)."""
    argv = ["train", "--preset", "tiny", "--out", str(out), "--no-progress"]
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.support.slow_write",
            slow,
            *argv,
            "--set",
            *BUDGET,
            *settings,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        start_new_session=True,
    )


def stop_when(
    process: subprocess.Popen[str], ready: Callable[[], bool], stop: signal.Signals
) -> str:
    """Send ``stop`` to ``process``'s group once ``ready()``; its standard error."""
    deadline = time.monotonic() + 120
    while not ready() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert process.poll() is None, f"the run ended before it could be stopped: {process.stderr}"
    os.killpg(process.pid, stop)
    _, err = process.communicate(timeout=120)
    return err


def reproducible(out: Path) -> dict[str, Any]:
    """What a resumed run must share with an uninterrupted one."""
    files = run_directory(out)
    snapshots, retired = read_manifest(files.pool)
    return {
        "checkpoints": sorted(p.name for p in files.checkpoints.directory.iterdir()),
        "latest": json.loads(files.checkpoints.latest.read_text()),
        "charts": [row["step"] for row in files.log_rows()],
        "pool": [(s.step, s.reason) for s in snapshots],
        "retired": [(s.step, s.reason) for s in retired],
    }


def test_a_checkpoint_appears_whole_and_a_save_removes_the_later_ones(tmp_path):
    checkpoints = CheckpointDirectory(tmp_path / "checkpoints")

    def write(directory: Path) -> None:
        (directory / "training.json").write_text("{}")

    for step in (64, 128, 192, 256):
        checkpoints.save(step, write, keep=2)
    assert checkpoints.steps() == [192, 256] and checkpoints.pointed().name == STEP(256)

    def killed(directory: Path) -> None:
        write(directory)
        raise KeyboardInterrupt  # as a kill before the rename

    with pytest.raises(KeyboardInterrupt):
        checkpoints.save(320, killed, keep=2)
    assert checkpoints.steps() == [192, 256] and checkpoints.pointed().name == STEP(256)
    checkpoints.remove_leftovers()
    assert sorted(p.name for p in checkpoints.directory.iterdir()) == [
        "latest.json",
        STEP(192),
        STEP(256),
    ]
    checkpoints.save(128, write, keep=2)  # Ctrl-C: back to where the rollout began
    assert checkpoints.steps() == [128] and checkpoints.pointed().name == STEP(128)


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An uninterrupted run of :data:`BUDGET` (checkpoints at 256, 384 and 512);
    the tests that damage it damage a copy."""
    out = tmp_path_factory.mktemp("whole") / "run"
    assert train(load_config("tiny", BUDGET), out).num_timesteps == 512
    return out


def test_ctrl_c_saves_a_checkpoint_in_one_line_and_resume_ends_like_an_uninterrupted_run(
    tmp_path, whole
):
    out = tmp_path / "run"
    process = started(out, "vec_env=subproc", slow="charts.jsonl:1")
    err = stop_when(process, (out / "charts.jsonl").exists, signal.SIGINT)
    assert process.returncode == 130, err
    assert err.count("\n") == 1 and "Traceback" not in err  # the workers ignore Ctrl-C
    checkpoint = run_directory(out).latest_checkpoint()
    assert checkpoint is not None
    step = int(checkpoint.name.removeprefix("step_"))
    assert step in (128, 256, 384)  # where the cut rollout began: its steps are played again
    assert f"interrupted: checkpoint of step {step} saved in {checkpoint}; " in err
    assert f"`env121 train --resume {out}` continues" in err
    assert sorted(p.name for p in (out / "checkpoints").glob("step_*"))[-1] == checkpoint.name

    result = train(resume=out, overrides=["vec_env=dummy"])  # the CLI's: test_a_corrupt_…
    assert result.resumed_from == checkpoint and result.num_timesteps == 512
    assert reproducible(out) == reproducible(whole)


def test_a_kill_during_a_checkpoint_save_resumes_from_the_last_complete_one(tmp_path, whole):
    out = tmp_path / "run"
    checkpoints = out / "checkpoints"
    saving = f".{STEP(256)}.partial/.training.safetensors.*.tmp"
    process = started(out, "vec_env=dummy", slow="training.safetensors:2")
    stop_when(process, lambda: any(checkpoints.glob(saving)), signal.SIGKILL)
    assert process.returncode == -signal.SIGKILL
    assert sorted(p.name for p in checkpoints.glob("step_*")) == [STEP(128)]

    notes: list[str] = []
    result = train(resume=out, on_note=notes.append)
    assert result.resumed_from == checkpoints / STEP(128) and notes == []
    assert result.num_timesteps == 512 and reproducible(out) == reproducible(whole)
    assert not list(out.rglob(".*"))  # the partial checkpoint and its temporary file are gone


def _random_bytes(directory: Path) -> str:
    path = directory / "training.safetensors"
    path.write_bytes(os.urandom(path.stat().st_size))
    return f"{path}: its SHA-256 is not the one training.json records"


def _truncated(directory: Path) -> str:
    path = directory / "training.safetensors"
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    return f"{path}: its SHA-256 is not the one training.json records"


def _garbage_with_its_checksum(directory: Path) -> str:
    path, state_path = directory / "training.safetensors", directory / "training.json"
    garbage = os.urandom(4096)
    path.write_bytes(garbage)
    state = json.loads(state_path.read_text())
    state["training_sha256"] = hashlib.sha256(garbage).hexdigest()
    state_path.write_text(json.dumps(state))
    return f"{path}: not a readable safetensors file"


def _torn_json(directory: Path) -> str:
    path = directory / "training.json"
    path.write_text(path.read_text()[:40])
    return f"{path}: not valid JSON"


def _latest_names_a_missing_step(directory: Path) -> str:
    shutil.rmtree(directory)
    return f"{directory.parent / 'latest.json'}: names {directory.name}, which does not exist"


@pytest.mark.parametrize(
    "damage",
    [
        _random_bytes,
        _truncated,
        _garbage_with_its_checksum,
        _torn_json,
        _latest_names_a_missing_step,
    ],
)
def test_a_corrupt_checkpoint_is_one_line_and_resume_falls_back_to_the_one_before(
    tmp_path, capsys, whole, damage
):
    out = tmp_path / "run"
    shutil.copytree(whole, out)
    problem = damage(out / "checkpoints" / STEP(512))
    assert main(["train", "--resume", str(out), "--no-progress"]) == 0
    fallback = out / "checkpoints" / STEP(384)
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith(f"env121: warning: {problem}")
    assert line.endswith(f"; resuming from the last complete checkpoint, {fallback}")
    set_aside = out / "checkpoints" / f"{STEP(512)}.corrupt"
    assert set_aside.is_dir() == (damage is not _latest_names_a_missing_step)
    files = run_directory(out)
    assert files.latest_checkpoint() == out / "checkpoints" / STEP(512)  # saved again
    assert [row["step"] for row in files.log_rows()] == [128, 256, 384, 512]


def test_a_complete_checkpoint_that_latest_json_does_not_name_yet_is_resumed_from(tmp_path, whole):
    out = tmp_path / "run"
    shutil.copytree(whole, out)  # as if killed between the checkpoint and its pointer:
    pointer = {"directory": STEP(384), "num_timesteps": 384}
    (out / "checkpoints" / "latest.json").write_text(json.dumps(pointer))
    notes: list[str] = []
    result = train(resume=out, on_note=notes.append)
    assert result.resumed_from == out / "checkpoints" / STEP(512) and notes == []


def test_resume_without_a_complete_checkpoint_is_one_error_line_and_changes_nothing(
    tmp_path, capsys, whole
):
    out = tmp_path / "run"
    shutil.copytree(whole, out)
    for step in (256, 384, 512):
        _random_bytes(out / "checkpoints" / STEP(step))
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert main(["train", "--resume", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("env121: error: ")
    assert "no complete checkpoint to resume from" in err
    for step in (256, 384, 512):
        assert str(out / "checkpoints" / STEP(step) / "training.safetensors") in err
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


@pytest.mark.parametrize("command", ["play", "tournament"])
def test_a_corrupt_ppo_checkpoint_is_one_error_line(tmp_path, capsys, whole, command):
    policy = tmp_path / "policy.safetensors"
    shutil.copyfile(whole / "policy.safetensors", policy)
    garbage = os.urandom(1000)
    policy.write_bytes(garbage)
    sidecar = json.loads((whole / "policy.json").read_text())
    sidecar["weights_sha256"] = hashlib.sha256(garbage).hexdigest()
    (tmp_path / "policy.json").write_text(json.dumps(sidecar))
    spec = f"ppo:{policy}"
    if command == "play":
        argv = ["play", "--seed", "1", "--agents", spec, "random", "random", "random"]
    else:
        argv = ["tournament", "--vs", spec, "random", "--deals", "1", "--out", str(tmp_path / "t")]
    status: object
    try:
        status = main(argv)
    except SystemExit as exit_:  # the tournament's parser exits
        status = exit_.code
    assert status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("env121: error: ")
    assert f"{policy}: not a readable safetensors file" in err


def _write_warm_start_for_another_network(path: Path) -> None:
    path.write_bytes(b"")
    network = {"hidden_sizes": [8], "activation": "tanh", "inputs": "observation"}
    sidecar = {"format": WARM_START_FORMAT, "network": network}
    path.with_suffix(".json").write_text(json.dumps(sidecar))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--set", "learning_rate=-1"], "learning_rate=-1.0 is not valid: expected a number > 0"),
        (["--set", "gamma=.nan"], "gamma=nan is not valid"),
        (["--set", "opponent_weights={nobody: 1}"], "opponent_weights: no agent named 'nobody'"),
        (["--set", "eval_opponent=mc:budget=x"], "eval_opponent: parameter budget='x'"),
        (["--set", "warm_start=missing.safetensors"], "missing.safetensors does not exist"),
        (["--set", "warm_start={tmp}/warm.safetensors"], "is for the network"),
        (["--out", "{tmp}/afile/run"], "afile is a file, so it cannot be created"),
    ],
    ids=["rate", "nan", "opponent", "eval-opponent", "no-warm-start", "warm-start", "out"],
)
def test_a_run_that_cannot_start_is_one_line_and_leaves_no_directory(
    tmp_path, capsys, argv, message
):
    (tmp_path / "afile").write_text("x")
    _write_warm_start_for_another_network(tmp_path / "warm.safetensors")
    out = tmp_path / "run"
    command = ["train", "--preset", "tiny", "--no-progress", "--out", str(out)]
    assert main(command + [a.replace("{tmp}", str(tmp_path)) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("env121: error: ") and message in err
    assert not out.exists() and not (tmp_path / "afile").is_dir()


@pytest.mark.parametrize(
    ("target", "settings", "message"),
    [
        ("afile", [], "it is a file: expected a run directory"),
        ("nowhere", [], "it does not exist"),
        ("empty", [], "no config.yaml there"),
        ("bad-config", [], "config.yaml is not valid: not YAML"),
        ("run", ["--set", "hidden_sizes=[8]"], "--set hidden_sizes is not valid with --resume"),
    ],
)
def test_a_bad_resume_target_is_one_line_and_changes_nothing(
    tmp_path, capsys, whole, target, settings, message
):
    shutil.copytree(whole, tmp_path / "run")
    (tmp_path / "afile").write_text("x")
    (tmp_path / "empty").mkdir()
    (tmp_path / "bad-config").mkdir()
    (tmp_path / "bad-config" / "config.yaml").write_text("seed: [")
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert main(["train", "--resume", str(tmp_path / target), "--no-progress", *settings]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("env121: error: ") and message in err
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


def test_imitate_checks_its_teacher_and_out_before_collecting(tmp_path, capsys):
    (tmp_path / "afile").write_text("x")
    for argv, message in (
        (["--teacher", "nobody", "--out", str(tmp_path / "out")], "--teacher: no agent named"),
        (["--out", str(tmp_path / "afile" / "out")], "is a file, so it cannot be created"),
    ):
        assert main(["imitate", "--matches", "10", "--no-progress", *argv]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err
    assert not (tmp_path / "out").exists()


def test_two_runs_of_one_seed_train_the_same_weights(tmp_path, whole):
    again = train(load_config("tiny", BUDGET), tmp_path / "again")
    first, second = load_file(str(whole / "policy.safetensors")), load_file(str(again.policy))
    assert first.keys() == second.keys()
    assert all(torch.equal(first[k], second[k]) for k in first)
