"""The base install runs the main job: no command imports an extra it does not need,
and one that needs an extra says which, in one ``env121: error:`` line.

(``scripts/first_contact.sh``, a stage of the test command, runs the same on a real
base install: the README's first command as written, and the wheel outside the
checkout.)"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from apps import cli
from env121 import extras
from env121.extras import EXTRAS, MissingExtraError, install_command, require_extra
from tests.cli.test_errors import fails

ROOT = Path(__file__).resolve().parents[2]
EXTRA_MODULES = sorted({module for modules in EXTRAS.values() for module in modules})


def loaded_by(code: str) -> set[str]:
    """The top-level modules a fresh interpreter holds after running ``code``."""
    report = "import sys\nprint(sorted({m.split('.')[0] for m in sys.modules}))"
    done = subprocess.run(
        [sys.executable, "-c", f"{code}\n{report}"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    return set(ast.literal_eval(done.stdout.splitlines()[-1]))


def test_the_command_line_imports_no_extra():
    """``env121``'s own import and its help load none of the extras' modules
    (``training.settings`` imported PyYAML with the command line: every command
    failed on the base install), apart from what numba, the engine's compiler
    (a base dependency), loads by itself when it finds it installed (PyYAML for
    its config file): the base install lacks it and numba runs without it."""
    numba_loads = loaded_by("import numba")
    loaded = loaded_by(
        "import contextlib\nfrom apps.cli import main\n"
        "with contextlib.suppress(SystemExit):\n    main(['--help'])"
    )
    assert sorted(set(EXTRA_MODULES) & (loaded - numba_loads)) == []


@pytest.mark.parametrize(
    ("extra", "argv"),
    [
        ("train", ["train", "--preset", "tiny"]),
        ("train", ["imitate"]),
        ("train", ["play", "--seed", "1", "--agents", "random", "random", "random", "ppo:scratch"]),
        ("train", ["tournament", "--vs", "ppo:scratch", "random", "--deals", "1"]),
        ("train", ["tournament", "--vs", "mc:beliefs=scratch", "random", "--deals", "1"]),
        ("web", ["serve"]),
    ],
)
def test_a_missing_extra_is_one_line_naming_it(extra, argv, monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, EXTRAS[extra][-1], None)  # as if not installed
    err = fails(capsys, *argv)
    assert f"needs the {extra} extra (missing: {EXTRAS[extra][-1]})" in err
    assert f"install it with {install_command(extra)}" in err
    assert list(tmp_path.iterdir()) == []  # nothing started, nothing written


def test_the_install_hint_matches_how_env121_was_installed(monkeypatch, tmp_path):
    """A checkout installed with ``pip install -e`` is told its own pip and ``-e``
    (the hint said ``pip install "env121[train]"``, which installs the wheel from PyPI
    beside the checkout); an installed wheel is told the wheel's extra."""
    checkout = tmp_path / "env121-checkout"
    (checkout / "env121").mkdir(parents=True)
    (checkout / "pyproject.toml").write_text("[project]\nname = 'env121'\n")
    monkeypatch.setattr(extras, "_PACKAGE_ROOT", checkout)
    monkeypatch.setattr(sys, "executable", str(checkout / ".venv" / "bin" / "python"))
    (checkout / ".venv" / "bin").mkdir(parents=True)
    (checkout / ".venv" / "bin" / "pip").touch()
    monkeypatch.chdir(checkout)
    assert install_command("train") == '.venv/bin/pip install -e ".[train]"'
    monkeypatch.chdir(tmp_path)
    pip = "env121-checkout/.venv/bin/pip"
    assert install_command("web") == f'{pip} install -e "env121-checkout[web]"'
    monkeypatch.setattr(extras, "_PACKAGE_ROOT", tmp_path / "site-packages")
    assert install_command("train") == 'pip install "env121[train]"'


def test_benchmark_on_the_base_install_names_the_train_extra(monkeypatch, capsys, tmp_path):
    """The suite's ppo references need torch: one line naming the extra, before any
    game (it failed with an error about ``--out`` and ``ppo:small``, neither typed)."""
    monkeypatch.setitem(sys.modules, EXTRAS["train"][-1], None)  # as if not installed
    err = fails(capsys, "benchmark", "greedy", "--quick", "--out", str(tmp_path / "out"))
    assert "reference ppo:small" in err and "needs the train extra" in err
    assert f"install it with {install_command('train')}" in err and "--out" not in err
    assert list(tmp_path.iterdir()) == []


def test_require_extra_names_the_extra_and_what_needs_it(monkeypatch):
    require_extra("train", "the tests")  # the dev environment has every extra
    monkeypatch.setitem(sys.modules, "fastapi", None)
    with pytest.raises(
        MissingExtraError, match=r"^the page needs the web extra \(missing: fastapi\)"
    ):
        require_extra("web", "the page")


def test_the_version_answers(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.startswith("env121 ")
