"""The two example agents of ``docs/agent-protocol.md`` play ``env121 tournament``.

Each runs when its toolchain is here (``node`` for ``examples/js_agent``, a C
compiler ``cc`` for ``examples/c_agent``) and is skipped with the reason
otherwise.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from apps.cli.app import main as env121_main

ROOT = Path(__file__).resolve().parents[2]
JS_AGENT = ROOT / "examples" / "js_agent" / "agent.js"
C_AGENT = ROOT / "examples" / "c_agent" / "agent.c"


def _tournament(spec: str, out: Path) -> dict[str, Any]:
    """The example's entry of ``results.json`` after 2 deals against three ``random``."""
    args = ["tournament", "--vs", spec, "random", "--deals", "2", "--seed", "3"]
    assert env121_main([*args, "--quiet", "--no-plot", "--out", str(out)]) == 0
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    matchup = results["matchups"][0]
    return matchup["agents"][matchup["challenger"]]  # type: ignore[no-any-return]


def _plays_cleanly_and_reproducibly(spec: str, tmp_path: Path) -> None:
    first = _tournament(spec, tmp_path / "first")
    again = _tournament(spec, tmp_path / "again")
    assert first["counts"]["decisions"] > 0
    assert first["faults"] == {}
    timing = "decision_ms"  # wall-clock, the one metric a replay does not repeat
    assert {k: v for k, v in first["metrics"].items() if k != timing} == {
        k: v for k, v in again["metrics"].items() if k != timing
    }


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed: no JS example")
def test_the_javascript_example_plays_a_tournament(tmp_path: Path) -> None:
    _plays_cleanly_and_reproducibly(f"program:node {JS_AGENT}", tmp_path)


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler (cc): no C example")
def test_the_c_example_compiles_warning_free_and_plays_a_tournament(tmp_path: Path) -> None:
    binary = tmp_path / "c_agent"
    flags = ["-std=c99", "-O2", "-Wall", "-Wextra", "-pedantic", "-Werror"]
    subprocess.run(["cc", *flags, "-o", str(binary), str(C_AGENT)], check=True)
    _plays_cleanly_and_reproducibly(f"program:{binary}", tmp_path)


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler (cc): no C example")
def test_the_c_examples_reader_finds_top_level_members_only(tmp_path: Path) -> None:
    binary = tmp_path / "c_agent"
    subprocess.run(["cc", "-std=c99", "-o", str(binary), str(C_AGENT)], check=True)
    # nested "type" and "id" members, a string holding an escaped quote and brackets,
    # members in another order than env121's: only the top level counts
    lines = [
        '{"type": "hello", "protocol": 2, "time_limit": 1.0}',
        '{"view": {"type": "end", "id": 9, "s": "a\\"]}[{"}, "legal": [7], "type": "decision",'
        ' "events": [{"type": "Passed", "seat": 1, "card": 3}], "id": 5}',
        '{"type": "end", "events": [], "id": 6}',
        '{"type":"decision","id":6,"legal":[3,121,122],"events":[]}',
    ]
    answers = subprocess.run(
        [str(binary)], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=10
    ).stdout.splitlines()
    assert answers == ["hello 2", "5 7", "6 121"]
