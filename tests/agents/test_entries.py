"""Agents from outside the registry: ``import:``, ``sb3:`` and ``program:`` specs."""

from __future__ import annotations

import json
import shutil
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from agents.entries import ProgramAgent
from agents.registry import make_agent
from agents.spec import AgentSpecError
from arena import one_vs_three
from arena.cli import main as tournament_main
from env121.engine.game import new_game
from env121.play.turn import Turn

ROOT = Path(__file__).resolve().parents[2]
JS_AGENT = ROOT / "examples" / "js_agent" / "agent.js"
FAULTY = Path(__file__).resolve().parents[1] / "support" / "faulty_program.py"


def test_import_form_plays_a_tournament() -> None:
    result = one_vs_three("import:agents.greedy:GreedyAgent", "random", deals=1)
    assert result.challenger == "import:target=agents.greedy:GreedyAgent"
    assert result.agents[result.challenger].counts["decisions"] > 0


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("import:no_such_module_xyz:make", "module 'no_such_module_xyz' cannot be imported"),
        ("import:agents.greedy:NoSuchThing", "has no attribute 'NoSuchThing'"),
        ("import:agents.greedy", "expected 'module.path:attribute'"),
        ("import:agents.greedy:__name__", "is not an agent"),
        ("sb3:no/such/model.zip", "no such file"),
        ("sb3:README.md", "is not a zip"),
        ("program:no-such-command-xyz --flag", "command 'no-such-command-xyz' not found"),
    ],
)
def test_bad_specs_are_one_clear_error(spec: str, expected: str) -> None:
    with pytest.raises(AgentSpecError, match=expected.replace("(", r"\(").replace(")", r"\)")):
        make_agent(spec)


def test_bad_spec_in_the_tournament_command_exits_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = tournament_main(["--vs", "sb3:missing.zip", "random", "--out", str(tmp_path / "t")])
    assert status == 2
    assert "no such file" in capsys.readouterr().err
    assert not (tmp_path / "t").exists()


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed: no JS agent")
def test_the_javascript_example_plays_reproducibly() -> None:
    spec = f"program:node {JS_AGENT}"
    first = one_vs_three(spec, "random", deals=2)
    again = one_vs_three(spec, "random", deals=2)
    assert first.advantage == again.advantage
    assert first.agents[first.challenger].counts["decisions"] > 0


@pytest.mark.parametrize("mode", ["crash", "timeout", "bad_output", "illegal"])
def test_a_fault_plays_the_lowest_legal_id_and_is_counted(mode: str) -> None:
    agent = ProgramAgent(f"{sys.executable} {FAULTY} {mode}", timeout=0.3)
    state = new_game(5)
    turn = Turn(state, state.current_player)
    agent.reset(1)
    assert agent.act(turn) == min(turn.legal_actions)
    assert agent.act(turn) == min(turn.legal_actions)  # restarted after a crash or timeout
    assert dict(agent.faults) == {mode: 2}
    agent.close()


def test_a_good_program_is_obeyed() -> None:
    agent = ProgramAgent(f"{sys.executable} {FAULTY} good")
    state = new_game(5)
    turn = Turn(state, state.current_player)
    agent.reset(1)
    assert agent.act(turn) == max(turn.legal_actions)
    assert not agent.faults
    agent.close()


def test_sb3_form_plays_a_masked_ppo_zip(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib", reason="the train extra is not installed")
    from sb3_contrib import MaskablePPO

    from env121.envs.single_seat import SingleSeat

    path = tmp_path / "model.zip"
    MaskablePPO("MlpPolicy", SingleSeat(), n_steps=16, batch_size=16, seed=0).save(path)
    assert zipfile.is_zipfile(path)
    result = one_vs_three(f"sb3:{path}", "random", deals=1)
    assert result.agents[result.challenger].counts["decisions"] > 0


def test_faults_are_in_the_results_and_survive_a_resume(tmp_path: Path) -> None:
    # every answer of this program is an illegal id: each of its decisions is a fault
    spec = f"program:{sys.executable} {FAULTY} illegal"
    out = tmp_path / "t"
    args = ["--vs", spec, "random", "--deals", "1", "--quiet", "--no-plot"]
    assert tournament_main([*args, "--out", str(out)]) == 0

    def challenger(directory: Path) -> dict[str, Any]:
        results = json.loads((directory / "results.json").read_text(encoding="utf-8"))
        matchup = results["matchups"][0]
        return matchup["agents"][matchup["challenger"]]  # type: ignore[no-any-return]

    whole = challenger(out)
    assert whole["faults"] == {"illegal": whole["counts"]["decisions"]} != {"illegal": 0}
    log = (out / "games.jsonl").read_text(encoding="utf-8").splitlines()
    (out / "games.jsonl").write_text("\n".join(log[:2]) + "\n", encoding="utf-8")  # one game
    (out / "results.json").unlink()
    assert tournament_main(["--resume", str(out), "--quiet", "--no-plot"]) == 0
    assert challenger(out)["faults"] == whole["faults"]
