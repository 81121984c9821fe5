"""Resumable tournaments: the game log (:mod:`arena.journal`) and ``--resume``.

The kill tests run the real command in a subprocess, stop it (Ctrl-C to its
whole process group, or SIGKILL) once some games are in its log, resume it
and compare ``results.json`` with an uninterrupted run of the same seed.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import tests.support.arena_agents  # noqa: F401  # registers coin
from apps.cli import main
from arena.journal import LOG_NAME
from tests.arena.test_tournament import reproducible

ROOT = Path(__file__).resolve().parents[2]
COMMAND = (
    "import sys; import tests.support.arena_agents; from apps.cli import main; sys.exit(main())"
)
SNAIL_VS_GREEDY = ["--vs", "snail", "greedy", "--deals", "4", "--num-van", "1", "--seed", "7"]
"""A tournament whose games are played one by one, ~0.1 s each: stopped half-way by the tests
(a batched one plays its 16 games too fast to be caught)."""
QUICK = ["--quiet", "--no-plot"]
COIN = ["--vs", "random", "coin", "--deals", "2", "--num-van", "1", "--seed", "3", *QUICK]


def results(out: Path) -> Any:
    """The reproducible part of ``out/results.json`` but its ``command`` (whose
    ``--out`` and ``--jobs`` differ between the runs compared)."""
    document = reproducible(json.loads((out / "results.json").read_text(encoding="utf-8")))
    del document["command"]
    return document


def command(out: Path) -> list[str]:
    """The command ``out/results.json`` records."""
    return list(json.loads((out / "results.json").read_text(encoding="utf-8"))["command"])


def logged_games(out: Path) -> int:
    """Whole game lines in ``out``'s log so far."""
    try:
        return max((out / LOG_NAME).read_bytes().count(b"\n") - 1, 0)
    except FileNotFoundError:
        return 0


def stopped_after(out: Path, games: int, stop: signal.Signals, jobs: int) -> subprocess.Popen[str]:
    """The command, stopped by ``stop`` (sent to its process group) once ``games`` are logged."""
    argv = ["tournament", *SNAIL_VS_GREEDY, *QUICK, "--jobs", str(jobs), "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-c", COMMAND, *argv],
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,  # its own process group, as a terminal's Ctrl-C reaches
    )
    deadline = time.monotonic() + 60
    while logged_games(out) < games and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert process.poll() is None, "the tournament ended before it could be stopped"
    os.killpg(process.pid, stop)
    process.wait(timeout=60)
    return process


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = tmp_path_factory.mktemp("whole")
    assert main(["tournament", *SNAIL_VS_GREEDY, *QUICK, "--out", str(out)]) == 0
    return results(out)


@pytest.mark.parametrize(
    ("stop", "jobs", "status"), [(signal.SIGINT, 2, 130), (signal.SIGKILL, 1, -signal.SIGKILL)]
)
def test_a_stopped_tournament_resumes_to_the_same_results(
    tmp_path, capsys, uninterrupted, stop, jobs, status
):
    out = tmp_path / "run"
    process = stopped_after(out, 3, stop, jobs)
    assert process.stderr is not None
    err = process.stderr.read()
    assert process.returncode == status, err
    if stop == signal.SIGINT:
        assert err.count("\n") == 1 and "Traceback" not in err
        assert f"--resume {out}` plays the rest" in err
    kept = logged_games(out)
    assert 3 <= kept < 16 and not (out / "results.json").exists()

    assert main(["tournament", "--resume", str(out), *QUICK]) == 0
    assert results(out) == uninterrupted
    assert command(out)[-2:] == ["--out", str(out)]  # the command that started it
    assert logged_games(out) == 16


def test_a_torn_last_line_is_dropped_with_a_note_and_played_again(tmp_path, capsys):
    whole, torn = tmp_path / "whole", tmp_path / "torn"
    assert main(["tournament", *COIN, "--out", str(whole)]) == 0
    lines = (whole / LOG_NAME).read_text(encoding="utf-8").splitlines(keepends=True)
    torn.mkdir()
    (torn / LOG_NAME).write_text("".join(lines[:4]) + lines[4][:30], encoding="utf-8")
    assert main(["tournament", "--resume", str(torn), *QUICK]) == 0
    assert "dropped a torn last line" in capsys.readouterr().err
    assert results(torn) == results(whole)
    assert len((torn / LOG_NAME).read_text(encoding="utf-8").splitlines()) == 9


def test_a_corrupt_line_before_the_last_is_an_error_naming_the_file_and_line(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["tournament", *COIN, "--out", str(out)]) == 0
    lines = (out / LOG_NAME).read_text(encoding="utf-8").splitlines(keepends=True)
    lines[2] = '{"deal": 0, "lineup": 0, "rotation": 1}\n'
    (out / LOG_NAME).write_text("".join(lines), encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", "--resume", str(out)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert f"{out / LOG_NAME}, line 3: not a game record (no field 'seats')" in err[-1]


def test_an_option_that_does_not_match_the_log_is_refused(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["tournament", *COIN, "--out", str(out)]) == 0
    capsys.readouterr()
    for option, value in (("--deals", "3"), ("--num-van", "2")):
        with pytest.raises(SystemExit) as exit_:
            main(["tournament", "--resume", str(out), option, value])
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert f"{option} {value if option == '--deals' else 2} does not match" in err


def test_an_out_that_holds_a_tournament_or_is_a_file_is_refused_before_playing(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["tournament", *COIN, "--out", str(out)]) == 0
    capsys.readouterr()
    (tmp_path / "afile").write_text("x")
    for where, message in ((out, "already holds a tournament"), (tmp_path / "afile", "is a file")):
        with pytest.raises(SystemExit) as exit_:
            main(["tournament", *COIN, "--out", str(where)])
        assert exit_.value.code == 2
        assert message in capsys.readouterr().err
