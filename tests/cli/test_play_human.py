"""``env121 play --human SEAT``: a person in a seat, driven through a
pseudo-terminal to the end of a seeded ván, typos included."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from apps import cli
from env121.engine.records import load

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
"""An ANSI escape sequence (a style reset that some terminals get after the last line)."""
PROMPT = r"your move \(1–\d+, q to leave\)> "
COMMAND = "import sys; from apps.cli import main; sys.exit(main())"


def spawn(*argv: str) -> pexpect.spawn[str]:
    """``env121 …`` in a pseudo-terminal of 50 × 120."""
    return pexpect.spawn(
        sys.executable,
        ["-c", COMMAND, *argv],
        encoding="utf-8",
        timeout=30,
        dimensions=(50, 120),
    )


def test_a_person_plays_a_seeded_van_to_the_end_and_the_record_is_saved(tmp_path):
    """The person types a typo at every tenth prompt (answered, asked again) and
    otherwise the first move listed: Ù when it wins, the declarations, pass."""
    record = tmp_path / "game.json"
    argv = ["play", "--seed", "1", "--human", "S2", "--agents", "greedy", "greedy", "greedy"]
    child = spawn(*argv, "--json", str(record))
    child.expect("agents: S0 greedy, S1 greedy, S2 human, S3 greedy")
    prompts = typos = 0
    while child.expect([PROMPT, "record saved to"]) == 0:
        prompts += 1
        if prompts % 10 == 1:
            child.sendline("pas s")
            child.expect("'pas s' is not a move: type a number 1–")
            child.expect(PROMPT)
            typos += 1
        child.sendline("1")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert prompts > 10 and typos > 1
    state = load(record)
    assert state.is_over
    assert sum(1 for result in state.results if result.seat == 2) > 0


def test_only_what_the_seat_sees_is_printed(tmp_path):
    child = spawn("play", "--seed", "3", "--human", "S1", "--json", str(tmp_path / "g.json"))
    child.expect(PROMPT)
    shown = str(child.before)
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert "S1 dealt" in shown
    assert not any(f"S{seat} dealt" in shown for seat in (0, 2, 3))


@pytest.mark.parametrize("leave", ["ctrl_c", "q"])
def test_ctrl_c_or_q_leaves_with_one_line_and_saves_the_record_so_far(tmp_path, leave):
    record = tmp_path / "game.json"
    child = spawn("play", "--seed", "5", "--human", "S0", "--json", str(record))
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    if leave == "q":
        child.sendline("q")
    else:
        child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    shown = ANSI.sub("", str(child.before))  # a terminal's style codes are not text
    assert child.exitstatus == (0 if leave == "q" else 130)  # q is a choice, Ctrl-C is not
    last = shown.strip().splitlines()[-1]
    assert last == f"left the game at ván 1, vòng 1; the record so far is saved to {record}"
    assert "Traceback" not in shown
    state = load(record)
    assert not state.is_over and state.actions


def test_the_record_goes_to_a_default_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    child = spawn("play", "--seed", "4", "--human", "S3")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert Path(tmp_path / "game-seed4.json").exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--human", "S1", "--agents", "greedy", "greedy", "greedy", "greedy"],
            "error: --agents takes exactly 3 specs beside --human, one per seat S0, S2, S3, "
            "but got 4",
        ),
        (["--human", "S4"], "argument --human: 'S4' is not a seat: expected S0, S1, S2 or S3"),
    ],
    ids=["four_specs", "no_such_seat"],
)
def test_a_wrong_human_seat_or_spec_count_is_an_error(capsys, argv, message):
    status: int | str | None
    try:
        status = cli.main(["play", "--seed", "1", *argv])
    except SystemExit as exit:
        status = exit.code
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert message in err


def test_the_end_of_standard_input_leaves_like_q(tmp_path):
    record = tmp_path / "game.json"
    argv = ["play", "--seed", "6", "--human", "S1", "--json", str(record)]
    done = subprocess.run(
        [sys.executable, "-c", COMMAND, *argv], input="\n1\n", capture_output=True, text=True
    )
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1].startswith("left the game at ván 1, vòng 1;")
    assert "Traceback" not in done.stderr
    assert load(record).actions
