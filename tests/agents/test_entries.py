"""Agents from outside the registry: ``import:``, ``sb3:`` and ``program:`` specs."""

from __future__ import annotations

import json
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from agents.program import ProgramAgent
from agents.registry import make_agent
from agents.spec import AgentSpecError
from apps.cli.tournament import main as tournament_main
from arena import one_vs_three
from env121.engine.game import new_game
from env121.play.match import play_agents
from env121.play.turn import Turn

ROOT = Path(__file__).resolve().parents[2]
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


@pytest.mark.parametrize("mode", ["crash", "timeout", "bad_output", "illegal"])
def test_a_fault_plays_the_lowest_legal_id_and_is_counted(
    mode: str, capsys: pytest.CaptureFixture[str]
) -> None:
    agent = ProgramAgent(f"{sys.executable} {FAULTY} {mode}", timeout=0.3)
    state = new_game(5)
    turn = Turn(state, state.current_player)
    agent.reset(1)
    assert agent.act(turn) == min(turn.legal_actions)
    assert agent.act(turn) == min(turn.legal_actions)  # restarted after a crash or timeout
    assert dict(agent.faults) == {mode: 2}
    agent.close()
    # the fault line names the whole command, not only the interpreter
    assert f"program '{sys.executable} {FAULTY} {mode}': {mode} fault" in capsys.readouterr().err


def test_a_good_program_is_obeyed() -> None:
    agent = ProgramAgent(f"{sys.executable} {FAULTY} good")
    state = new_game(5)
    turn = Turn(state, state.current_player)
    agent.reset(1)
    assert agent.act(turn) == max(turn.legal_actions)
    assert not agent.faults
    agent.close()


def test_a_program_may_ask_for_the_view() -> None:
    agent = ProgramAgent(f"{sys.executable} {FAULTY} view")
    state = new_game(5)
    agent.reset(1)
    for _ in range(2):  # the first decision has the view; the second is asked for it
        turn = Turn(state, state.current_player)
        assert agent.act(turn) == max(turn.legal_actions)
    assert not agent.faults
    agent.close()


class _Recorded(ProgramAgent):
    """A program agent that keeps every action it returned."""

    def __init__(self, command: str) -> None:
        super().__init__(command)
        self.played: list[int] = []

    def act(self, turn: Turn) -> int:
        action = super().act(turn)
        self.played.append(action)
        return action


def test_stray_lines_are_faults_and_never_moves(tmp_path: Path) -> None:
    # Before each answer the program prints its previous answer again, a bare
    # legal id and a log line. Version 1 played such lines as the next moves.
    log = tmp_path / "answers.log"
    agent = _Recorded(f"{sys.executable} {FAULTY} stray {log}")
    agents = [agent, *(make_agent("random") for _ in range(3))]
    for seat, player in enumerate(agents):
        player.reset(seat)
    play_agents(new_game(11), agents)
    agent.close()
    *answers, end = log.read_text(encoding="utf-8").splitlines()
    assert end == "end"  # the program was told the game is over
    ids = [int(line.split()[0]) for line in answers]
    intended = [int(line.split()[1]) for line in answers]
    assert ids == list(range(1, len(answers) + 1))
    assert len(intended) > 50
    assert agent.played == intended  # every move is the answer to its own decision
    assert dict(agent.faults) == {"stray": 3 * len(intended)}


def test_a_version_1_program_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("agents.program.STARTUP_TIMEOUT", 0.5)
    with pytest.raises(AgentSpecError, match="does not speak protocol 2") as error:
        make_agent(f"program:{sys.executable} {FAULTY} v1")
    assert "\n" not in str(error.value) and "protocol 1" in str(error.value)


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
