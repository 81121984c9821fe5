"""Fuzzing the command line: ``apps.cli.main(argv)`` with random argument lists.

Each argument list is a command and a random subset of its options (read
from the parsers themselves, so new options are fuzzed too) with values that
fit, values of other options, and garbage; or no command at all. Every run
ends in a normal exit (status 0, or 1 where a command documents it) or in
the one ``env121: error:`` line with status 2 and nothing on standard output
— never a traceback. The long work behind a command (playing a match or a
tournament, training, collecting demonstrations, serving) is replaced by a
stub that stops the run where the work would start: reaching it means every
check before working passed, which is a normal end too. Each run happens in
a fresh directory holding the files the values name.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from apps import cli
from apps.cli.app import build_parser
from apps.cli.benchmark import build_parser as benchmark_parser
from apps.cli.options import ERROR_PREFIX
from apps.cli.tournament import build_parser as tournament_parser
from env121.engine.game import apply, legal_actions, new_game
from env121.engine.records import dumps, replay, to_record
from env121.rules.config import RuleConfig


class WorkStarted(Exception):
    """Raised by the stubs where a command's long work would start."""


WORK = (
    ("apps.cli.game", "play_agents"),
    ("arena.tournament", "play_tournament"),
    ("training.ppo_selfplay", "train"),
    ("training.imitation", "collect"),
    ("training.exploit", "train"),
    ("apps.web.app", "serve"),
)
"""Where each command's long work starts (module, function): stubbed."""


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    (subparsers,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    commands = dict(subparsers.choices)
    commands["tournament"] = tournament_parser()  # `env121 tournament` hands over to its own
    commands["benchmark"] = benchmark_parser()  # and so does `env121 benchmark`
    return commands


COMMANDS = _commands()

CARDS = "GEN/FR GEN/BB GEN/LP ASA/FR ASA/BB ASA/LP"
FILES = {"record.json": "", "half.json": "", "bad.json": '{"format_version": 1', "afile": "x"}
"""Files each run's directory holds (the records are filled in below); ``adir`` is a
directory."""
PATHS = (*FILES, "adir", "adir/new.json", "new", "new/deeper/x.json", "/nonexistent/dir/x", ".")
SPECS = (
    "random",
    "greedy",
    "mc:budget=2",
    "ppo:small",
    "ppo:adir/none.safetensors",
    "nosuch",
    "mc:budget=-1",
    "greedy:x=1",
    "random,greedy",
)
GARBAGE = (
    "",
    "-",
    "--",
    "none",
    "-1",
    "0",
    "2.5",
    "1e3",
    "0x10",
    "x=1",
    "S5",
    "hundreds",
    "ASA/FR",
    "tiny",
    "total_timesteps=64",
    "hidden_sizes=[8]",
    "hidden_sizes=[8",
    "learning_rate=-1",
    "n_envs=x",
    "warm_start=afile",
    "ınſ/FR",
    "a\nb",
)


def values_for(action: argparse.Action) -> st.SearchStrategy[str]:
    """Values for one option: mostly ones that fit it, else any other value."""
    fitting: list[str] = []
    if action.choices is not None:
        fitting += [str(c) for c in action.choices][:12]
    if action.type is int:
        fitting += ["0", "1", "2", "3", "7", "-4", "12"]
    if action.type is float:
        fitting += ["0.5", "30", "-1", "nan", "inf"]
    if action.default not in (None, [], False, True):
        fitting.append(str(action.default))
    anything = st.sampled_from((*SPECS, *PATHS, *GARBAGE, CARDS)) | st.text(max_size=6)
    if not fitting:
        return anything
    return st.integers(0, 3).flatmap(lambda r: anything if r == 0 else st.sampled_from(fitting))


WORKING = {
    "play": ["--seed", "1"],
    "replay": ["record.json"],
    "score": [CARDS],
    "tournament": ["--vs", "greedy", "random", "--deals", "1", "--quiet"],
    "benchmark": ["greedy", "--quick"],
    "train": ["--preset", "tiny"],
    "imitate": ["--matches", "10", "--no-progress"],
    "exploit": ["random", "--budget", "1min", "--no-progress"],
    "serve": [],
    "warmup": [],
}
"""Per command, arguments that get it to its work: a start most lists build on."""


@st.composite
def option(draw: st.DrawFn, action: argparse.Action) -> list[str]:
    """One option of a parser with as many values as its ``nargs`` takes (or not)."""
    flag = draw(st.sampled_from(action.option_strings))
    if action.nargs == 0:
        return [flag]
    nargs = action.nargs
    if isinstance(nargs, int):  # mostly the right count, now and then not
        count = nargs if draw(st.integers(0, 4)) else draw(st.integers(0, 3))
    elif nargs in ("?", "*"):
        count = draw(st.integers(0, 1 if nargs == "?" else 3))
    else:  # "+" or None (one value)
        count = draw(st.integers(1, 3)) if nargs == "+" else 1
    values = [draw(values_for(action)) for _ in range(count)]
    if values and draw(st.integers(0, 3)) == 0 and flag.startswith("--"):
        return [f"{flag}={values[0]}", *values[1:]]
    return [flag, *values]


@st.composite
def argument_lists(draw: st.DrawFn) -> list[str]:
    """A command, a random subset of its options, its positional arguments (or not)."""
    if draw(st.integers(0, 9)) == 0:  # no command, or garbage only
        return draw(st.lists(st.sampled_from((*GARBAGE, "--version", "-h", "nosuch")), max_size=3))
    name = draw(st.sampled_from(sorted(COMMANDS)))
    parser = COMMANDS[name]
    options = [a for a in parser._actions if a.option_strings and "-h" not in a.option_strings]
    chosen = draw(st.lists(st.sampled_from(options), max_size=4)) if options else []
    argv = [name, *(WORKING[name] if draw(st.integers(0, 3)) else [])]
    for action in chosen:
        argv += draw(option(action))
    if len(argv) == 1:
        for action in parser._actions:
            if not action.option_strings and draw(st.integers(0, 5)):
                argv.append(draw(values_for(action) | st.sampled_from((CARDS, *FILES))))
    if draw(st.integers(0, 19)) == 0:
        argv.append(draw(st.sampled_from(("--help", "--no-such-option", "extra"))))
    return argv


def _record_files() -> dict[str, str]:
    """The files of :data:`FILES` with a whole short match's record (the first
    bust ends it) and one that stops half-way."""
    whole = new_game(1, RuleConfig(starting_points=100))
    rng = np.random.default_rng(1)
    while not whole.is_over:
        legal = legal_actions(whole)
        apply(whole, legal[int(rng.integers(len(legal)))])
    half = replay({**to_record(whole), "actions": whole.actions[: len(whole.actions) // 2]})
    return {**FILES, "record.json": dumps(whole), "half.json": dumps(half)}


RUN_FILES = _record_files()


@contextlib.contextmanager
def a_run_directory(files: dict[str, str]) -> Iterator[Path]:
    """A fresh working directory holding ``files`` and an empty ``adir``."""
    with tempfile.TemporaryDirectory() as directory:
        here = Path(directory)
        for name, text in files.items():
            (here / name).write_text(text, encoding="utf-8")
        (here / "adir").mkdir()
        old = Path.cwd()
        os.chdir(here)
        try:
            yield here
        finally:
            os.chdir(old)


def run(argv: list[str]) -> tuple[int | str | None, str, str]:
    """``(status, stdout, stderr)`` of ``env121 argv`` (status "work" where a stub
    stopped it)."""
    out, err = io.StringIO(), io.StringIO()
    status: int | str | None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = cli.main(argv)
        except SystemExit as exit_:  # argparse: --help, --version and its errors
            status = exit_.code
        except WorkStarted:
            status = "work"
    return status, out.getvalue(), err.getvalue()


def _stop(*_args: Any, **_kwargs: Any) -> Any:
    raise WorkStarted


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(argument_lists())
def test_any_argument_list_ends_normally_or_in_one_error_line(argv: list[str]) -> None:
    with pytest.MonkeyPatch.context() as patch, a_run_directory(RUN_FILES):
        for module, name in WORK:
            patch.setattr(f"{module}.{name}", _stop)
        status, out, err = run(argv)
    event(f"{argv[0] if argv else '(none)'} → {status}")  # --hypothesis-show-statistics
    if status == 2:
        assert err.startswith(ERROR_PREFIX) and err.count("\n") == 1, err
        assert out == "", out
    else:
        assert status in ("work", 0, 1, None), (status, err)
        assert "Traceback" not in err, err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["imitate", "--set=random", "a\nb"], r"unrecognized arguments: a\nb (`env121 --help`"),
        (["play", "--seed", "1", "--json", "new\n/x.json"], r"--json new\n/x.json: the directory"),
        (["train", "--preset", "new/x.yaml"], "preset 'new/x.yaml' does not exist: expected one"),
        (["train", "--preset", "bad.json"], "preset 'bad.json' is not valid YAML: while parsing"),
        (["train", "--preset", "tiny", "--set", "hidden_sizes=[8"], "is not valid YAML"),
        (["replay", "record.json", "--html", "."], "--html .: is a directory: expected a file"),
        (["replay", "record.json", "--html", "new/x.html"], "--html new/x.html: the directory"),
    ],
    ids=["newline", "newline_in_path", "no_yaml", "bad_yaml", "bad_set", "html_dir", "html_new"],
)
def test_what_fuzzing_found_is_one_error_line(argv: list[str], message: str) -> None:
    # Found by fuzzing: a newline in an argument split the error line in two;
    # the others raised FileNotFoundError, yaml's ScannerError / ParserError
    # and IsADirectoryError with a traceback (replay --html after the replay).
    with a_run_directory(RUN_FILES):
        status, out, err = run(argv)
    assert (status, out) == (2, "")
    assert err.startswith(ERROR_PREFIX) and err.count("\n") == 1, err
    assert message in err
