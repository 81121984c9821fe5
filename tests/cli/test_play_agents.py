"""``env121 play --agents SPEC SPEC SPEC SPEC``: agents by spec in the play CLI."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from typing import Any

import pytest

import agents.registry
from apps import cli
from apps.cli.game import agent_seed
from env121.engine.records import dumps, load
from env121.engine.render import readable_transcript
from env121.play.random_agent import random_match
from env121.play.turn import Turn

LINEUP = ["greedy", "random", "greedy", "random"]


def play(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = cli.main(["play", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# ------------------------------------------------------- without --agents


@pytest.mark.parametrize(("seed", "rotation"), [(2, 0), (5, 3)])
def test_without_agents_the_random_match_is_printed_as_before(capsys, tmp_path, seed, rotation):
    path = tmp_path / "g.json"
    argv = ["--seed", str(seed), "--rotation", str(rotation), "--json", str(path)]
    status, out, err = play(capsys, *argv)
    expected = random_match(seed, rotation=rotation)  # random_players(seed)
    assert (status, err) == (0, "")
    assert out == "\n".join([*readable_transcript(expected), f"record saved to {path}"]) + "\n"
    assert path.read_text(encoding="utf-8") == dumps(expected) + "\n"


def test_verbose_keeps_every_event_in_play_and_replay(capsys, tmp_path):
    path = tmp_path / "g.json"
    status, out, _err = play(capsys, "--seed", "2", "--verbose", "--json", str(path))
    verbose = readable_transcript(random_match(2), verbose=True)
    assert status == 0
    assert out.splitlines()[:-1] == verbose
    assert any(" passes " in line for line in verbose)
    assert cli.main(["replay", str(path), "--verbose"]) == 0
    assert capsys.readouterr().out.splitlines() == verbose
    assert cli.main(["replay", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == readable_transcript(random_match(2))


def test_the_env121_package_does_not_import_the_agents():
    code = (
        "import sys\nimport env121, apps.cli, apps.cli.game\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'agents', 'arena', 'torch'}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------- with --agents


def test_agents_play_to_the_end_reproducibly_and_the_record_replays(capsys, tmp_path):
    runs = []
    for name in ("a.json", "b.json"):
        path = tmp_path / name
        status, out, err = play(capsys, "--seed", "3", "--agents", *LINEUP, "--json", str(path))
        assert (status, err) == (0, "")
        lines = out.splitlines()
        assert lines[0] == "agents: S0 greedy, S1 random, S2 greedy, S3 random"
        assert lines[1].startswith("== Ván 1, vòng 1/12")
        assert lines[-2].startswith("== Match ends")
        assert lines[-1] == f"record saved to {path}"
        runs.append((lines[:-1], path.read_text(encoding="utf-8")))
    assert runs[0] == runs[1]
    assert load(tmp_path / "a.json").is_over
    assert cli.main(["replay", str(tmp_path / "a.json")]) == 0
    assert capsys.readouterr().out.splitlines() == runs[0][0][1:]


def test_the_same_seed_and_specs_print_the_same_match_and_other_seeds_differ(capsys):
    lineup = ["random"] * 4
    first = play(capsys, "--seed", "4", "--agents", *lineup)
    again = play(capsys, "--seed", "4", "--agents", *lineup)
    other = play(capsys, "--seed", "5", "--agents", *lineup)
    assert first == again
    assert first[1] != other[1]


def test_each_seat_gets_a_new_agent_reset_with_its_own_seed(capsys, monkeypatch):
    built: list[Any] = []
    seeds: dict[int, int] = {}
    make_agent = agents.registry.make_agent

    def recording_make_agent(spec: str) -> Any:
        agent = make_agent(spec)
        built.append(agent)
        reset = agent.reset

        def recording_reset(seed: int) -> None:
            seeds[id(agent)] = seed
            reset(seed)

        monkeypatch.setattr(agent, "reset", recording_reset)
        return agent

    monkeypatch.setattr(agents.registry, "make_agent", recording_make_agent)
    status, _out, _err = play(capsys, "--seed", "9", "--agents", *["random"] * 4)
    assert status == 0
    assert len({id(agent) for agent in built}) == 4
    expected = [agent_seed(9, seat) for seat in range(4)]
    assert [seeds[id(agent)] for agent in built] == expected
    assert len(set(expected)) == 4


@pytest.mark.parametrize(
    ("specs", "named"),
    [
        (["greedy", "random", "nobody", "random"], r"seat S2: no agent named 'nobody'.*greedy"),
        (["greedy", "mc:budget=x", "random", "random"], r"seat S1: .*budget='x'.*expected int"),
        (["greedy", "mc:depth=3", "random", "random"], r"no parameter 'depth'.*expected one of"),
        (["greedy", "random"], r"exactly 4 specs.*got 2.*: .*greedy, .*mc, oracle, ppo, .*random"),
        (["greedy"] * 5, r"exactly 4 specs.*got 5"),
        ([], r"exactly 4 specs.*got 0"),
        (["ppo:missing.safetensors", *["random"] * 3], r"seat S0: .*missing.safetensors"),
    ],
)
def test_a_bad_spec_or_count_is_an_error_before_anything_is_played(capsys, tmp_path, specs, named):
    path = tmp_path / "g.json"
    status, out, err = play(capsys, "--seed", "1", "--agents", *specs, "--json", str(path))
    assert (status, out) == (2, "")
    assert err.startswith("env121: error: ") and err.count("\n") == 1
    assert len(err.splitlines()) == 1
    assert re.search(named, err), err
    assert not path.exists()


def test_an_illegal_action_names_the_seat_spec_action_and_legal_actions(capsys, monkeypatch):
    make_agent = agents.registry.make_agent

    def cheating_make_agent(spec: str) -> Any:
        agent = make_agent(spec)
        if spec == "greedy":

            def act(turn: Turn) -> int:
                return 999

            monkeypatch.setattr(agent, "act", act)
        return agent

    monkeypatch.setattr(agents.registry, "make_agent", cheating_make_agent)
    status, out, err = play(capsys, "--seed", "1", "--agents", "greedy", *["random"] * 3)
    assert status == 1
    assert out.splitlines()[0].startswith("agents: S0 greedy")
    assert "agent 'greedy' in seat S0 played action 999 (outside 0..130)" in err
    assert "the legal actions were [" in err


def test_a_ppo_checkpoint_plays(capsys, tmp_path):
    torch = pytest.importorskip("torch")
    from agents.ppo import PolicyNetwork, save_policy

    torch.manual_seed(0)
    checkpoint = save_policy(
        tmp_path / "agent.safetensors", PolicyNetwork([8]).state_dict(), [8], "tanh"
    )
    spec = f"ppo:{checkpoint}"
    record = tmp_path / "g.json"
    argv = ["--seed", "6", "--agents", spec, "greedy", spec, "random", "--json", str(record)]
    status, out, err = play(capsys, *argv)
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == (
        f"agents: S0 ppo:checkpoint={checkpoint}, S1 greedy, S2 ppo:checkpoint={checkpoint}, "
        "S3 random"
    )
    assert lines[-2].startswith("== Match ends")
    assert json.loads(record.read_text(encoding="utf-8"))["seed"] == 6
    assert cli.main(["replay", str(record)]) == 0
    assert capsys.readouterr().out.splitlines() == lines[1:-1]


def test_the_help_names_the_option(capsys):
    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--agents [SPEC ...]" in out
    assert "exactly four agent specs, for seats S0..S3" in out


def test_a_reader_that_has_gone_away_gets_no_traceback():
    """``env121 play … | head -1``: a closed pipe ends the command quietly."""
    code = "import sys; from apps.cli import main; sys.exit(main(['play', '--seed', '1']))"
    read_end, write_end = os.pipe()
    writer = subprocess.Popen(
        [sys.executable, "-c", code], stdout=write_end, stderr=subprocess.PIPE
    )
    os.close(write_end)
    os.close(read_end)  # the reader is gone before the first line is written
    _, err = writer.communicate(timeout=60)
    assert "Traceback" not in err.decode() and "BrokenPipeError" not in err.decode()
    assert writer.returncode == 1
