"""Agents from outside the registry: ``import:``, ``sb3:`` and ``program:`` specs."""

from __future__ import annotations

import dataclasses
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
from arena.play import GameRecord
from env121.engine.game import new_game
from env121.play.match import IllegalAgentActionError, play_agents
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


def without_time(game: GameRecord) -> GameRecord:
    """``game`` with every seat's thinking time zeroed (the one wall-clock field)."""
    seats = tuple(dataclasses.replace(seat, think_seconds=0.0) for seat in game.seats)
    return dataclasses.replace(game, seats=seats)


def test_sb3_form_plays_a_masked_ppo_zip(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib", reason="the train extra is not installed")
    from sb3_contrib import MaskablePPO

    from env121.envs.single_seat import SingleSeat

    path = tmp_path / "model.zip"
    MaskablePPO("MlpPolicy", SingleSeat(), n_steps=16, batch_size=16, seed=0).save(path)
    assert zipfile.is_zipfile(path)
    result = one_vs_three(f"sb3:{path}", "random", deals=1)
    assert result.agents[result.challenger].counts["decisions"] > 0


def test_a_deterministic_sb3_model_decides_its_games_together_as_it_would_one_by_one(
    tmp_path: Path,
) -> None:
    """The arena plays a deterministic ``sb3:`` model batched (one ``predict`` for
    all its games): every game's record is the one its turn-by-turn agent gives
    in the readable definition of an arena game."""
    pytest.importorskip("sb3_contrib", reason="the train extra is not installed")
    from sb3_contrib import MaskablePPO

    from arena.execute import work_units
    from arena.play import AgentCache
    from arena.tournament import plan_tournament, play_tournament
    from env121.envs.single_seat import SingleSeat
    from env121.rules.config import RuleConfig
    from tests.support.arena_reference import play_game

    path = tmp_path / "model.zip"
    MaskablePPO("MlpPolicy", SingleSeat(), n_steps=16, batch_size=16, seed=0).save(path)
    spec = f"sb3:{path}"
    plan = plan_tournament(
        matchups=[(spec, "random"), ("greedy", spec)], deals=2, config=RuleConfig(num_van=1)
    )
    assert [len(unit.tasks) for unit in work_units(plan.tasks, plan.cache)] == [16]
    arena = play_tournament(plan).games
    reference = [play_game(task, AgentCache()) for task in plan.tasks]
    assert [without_time(game) for game in arena] == [without_time(game) for game in reference]


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


BATCHED = "import:tests.support.batched_policies"


@pytest.mark.parametrize(
    "policy",
    [f"{BATCHED}:highest_legal", "import:tests.support.torch_policy:linear"],
    ids=["numpy-callable", "torch-module"],
)
def test_an_imported_batched_policy_decides_its_games_together_as_one_turn_would(
    policy: str,
) -> None:
    """An ``import:`` batched policy plays its games in one batch, each game's
    record the one its turn-by-turn form gives in the readable definition."""
    if "torch" in policy:
        pytest.importorskip("torch", reason="the train extra is not installed")
    from arena.execute import work_units
    from arena.play import AgentCache
    from arena.tournament import plan_tournament, play_tournament
    from env121.rules.config import RuleConfig
    from tests.support.arena_reference import play_game

    plan = plan_tournament(
        matchups=[(policy, "random"), ("greedy", policy)], deals=2, config=RuleConfig(num_van=1)
    )
    assert [len(unit.tasks) for unit in work_units(plan.tasks, plan.cache)] == [16]
    arena = play_tournament(plan).games
    reference = [play_game(task, AgentCache()) for task in plan.tasks]
    assert [without_time(game) for game in arena] == [without_time(game) for game in reference]


def test_a_batched_policy_plays_as_the_agent_it_batches() -> None:
    """``highest_legal`` on arrays and :class:`HighestLegal` on turns: the same games."""
    from arena.tournament import run_tournament
    from env121.rules.config import RuleConfig

    def games(spec: str) -> list[GameRecord]:
        result = run_tournament(matchups=[(spec, "greedy")], deals=1, config=RuleConfig(num_van=1))
        return [without_time(game) for game in result.games]

    assert games(f"{BATCHED}:highest_legal") == games(f"{BATCHED}:HighestLegal")


@pytest.mark.parametrize("policy", ["illegal", "ragged"])
def test_an_imported_batched_policy_that_answers_wrong_is_stopped_in_one_line(
    policy: str,
) -> None:
    from arena.tournament import run_tournament

    with pytest.raises(IllegalAgentActionError) as error:
        run_tournament(matchups=[(f"{BATCHED}:{policy}", "random")], deals=1)
    assert "\n" not in str(error.value) and policy in str(error.value)


def test_a_factory_is_not_taken_for_a_batched_policy() -> None:
    """A callable of no arguments builds the agent; two arguments make a policy."""
    from agents.entries import ImportedPolicy

    assert not isinstance(make_agent(f"{BATCHED}:HighestLegal"), ImportedPolicy)
    assert isinstance(make_agent(f"{BATCHED}:highest_legal"), ImportedPolicy)
