"""One error style: every user error is one ``env121: error:`` line, exit
status 2, found before any game is played or any step trained."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from apps import cli
from env121.extras import install_command

ROOT = Path(__file__).resolve().parents[2]


def fails(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run ``env121 argv``, check it fails with one error line and nothing else; the line."""
    status: int | str | None
    try:
        status = cli.main(list(argv))
    except SystemExit as exit_:  # argparse's own errors
        status = exit_.code
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert err.startswith("env121: error: ") and err.count("\n") == 1, err
    return err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--seed", "x"], "argument --seed: invalid int value: 'x' (`env121 play --help`"),
        (["play", "--seed", "1", "--json", "/nonexistent/dir/g.json"], "/nonexistent/dir does not"),
        (["imitate", "--epochs", "0"], "--epochs 0: expected an integer ≥ 1"),
        (["imitate", "--epochs", "-1"], "--epochs -1: expected an integer ≥ 1"),
        (["imitate", "--matches", "2"], "--matches 2: expected at least 10"),
        (["imitate", "--learning-rate", "0"], "--learning-rate 0.0: expected a number > 0"),
        (["imitate", "--from", "nothing"], "--from nothing: no shipped checkpoint is named"),
    ],
    ids=["parse", "json_dir", "epochs_0", "epochs_negative", "matches", "rate", "from"],
)
def test_bad_input_is_one_line_before_any_work(capsys, argv, message):
    assert message in fails(capsys, *argv)


@pytest.mark.parametrize("command", ["train", "imitate"])
def test_an_out_that_is_a_file_is_refused(capsys, tmp_path, command):
    afile = tmp_path / "afile"
    afile.write_text("x")
    preset = ["--preset", "small"] if command == "train" else []
    assert f"--out {afile}: is a file" in fails(capsys, command, *preset, "--out", str(afile))
    assert afile.read_text() == "x"


def test_a_missing_train_extra_names_what_to_install(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # where the command runs: the hint names paths from there
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "from apps.cli import main\n"
        "sys.exit(main(['train', '--preset', 'small', '--out', sys.argv[1]]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "run")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr == (
        "env121: error: env121 train needs the train extra (missing: torch): "
        f"install it with {install_command('train')}\n"
    )
    assert not (tmp_path / "run").exists()


def test_a_record_that_stops_half_way_says_so(capsys, tmp_path):
    whole, half = tmp_path / "g.json", tmp_path / "half.json"
    assert cli.main(["play", "--seed", "1", "--num-van", "1", "--json", str(whole)]) == 0
    record = json.loads(whole.read_text(encoding="utf-8"))
    assert cli.main(["replay", str(whole)]) == 0
    assert "the record stops here" not in capsys.readouterr().out
    record["actions"] = record["actions"][: len(record["actions"]) // 2]
    half.write_text(json.dumps(record), encoding="utf-8")
    assert cli.main(["replay", str(half)]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("(the record stops here, at ván 1, vòng ")
    assert last.endswith("the match was not played to its end)")
