"""``scripts/soak.py``, small: a few hundred vòng under every rule variant, and
what it says when a match fails."""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from env121.engine.state import State
from env121.engine.validate import InvariantError, validate
from env121.rules.config import DEFAULT_CONFIG, RuleConfig

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "soak.py"
SUMMARY = re.compile(r"^([\d,]+) vòng, ([\d,]+) steps, (\d+) variants, (\d+) failures in \d+ s$")


@pytest.fixture(scope="module")
def soak() -> ModuleType:
    spec = importlib.util.spec_from_file_location("soak", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["soak"] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    return module


def test_every_rule_field_is_soaked_with_another_value(soak: ModuleType) -> None:
    variants: dict[str, RuleConfig] = soak.rule_variants()
    assert variants["default"] == DEFAULT_CONFIG
    assert not variants["the_trang_asks_every_seat=False"].the_trang_asks_every_seat
    for field in dataclasses.fields(RuleConfig):
        default = getattr(DEFAULT_CONFIG, field.name)
        assert any(getattr(config, field.name) != default for config in variants.values())


def test_a_few_hundred_vong_of_every_variant_are_sound(soak: ModuleType) -> None:
    # The script as it is run: its own process, two workers.
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--vong", "300", "--jobs", "2"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])},
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    last = done.stdout.splitlines()[-1]
    found = SUMMARY.match(last)
    assert found, last
    vong, steps, variants, failures = (int(g.replace(",", "")) for g in found.groups())
    assert vong >= 300 and steps > 10 * vong
    assert (variants, failures) == (len(soak.rule_variants()), 0)


def test_a_failure_names_the_variant_and_seed_and_exits_1(
    soak: ModuleType, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_at_the_fifth_action(state: State) -> None:
        validate(state)
        if len(state.actions) == 5 and state.seed == 1:
            raise InvariantError("a planted failure\nthe table")

    monkeypatch.setattr(soak, "validate", broken_at_the_fifth_action)
    assert soak.main(["--vong", "30", "--variants", "num_van=2"]) == 1
    out = capsys.readouterr().out
    again = "(python scripts/soak.py --match 'num_van=2:1'): InvariantError: a planted failure\n"
    assert f"FAILED num_van=2 seed 1 {again}" in out
    found = SUMMARY.match(out.splitlines()[-1])
    assert found and found.group(4) == "1"
    with pytest.raises(InvariantError, match="a planted failure"):
        soak.main(["--match", "num_van=2:1"])
