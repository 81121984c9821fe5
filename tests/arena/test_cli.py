"""``env121 tournament``: a smoke run writing every file, and the error paths."""

from __future__ import annotations

import csv
import json
import subprocess
import sys

import pytest

import tests.support.arena_agents  # noqa: F401  # registers coin
from apps.cli import main
from apps.cli.tournament import split_pool


def test_smoke_run_writes_json_csv_and_png(tmp_path, capsys):
    out = tmp_path / "run"
    argv = ["tournament", "--vs", "random", "coin", "--deals", "2", "--num-van", "1"]
    assert main([*argv, "--seed", "4", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "random vs 3× coin: advantage" in printed and "OpenSkill" in printed

    document = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert document["command"] == ["env121", *argv, "--seed", "4", "--out", str(out)]
    assert document["mode"] == "1v3" and document["config"]["num_van"] == 1
    assert len(document["games"]) == 8 and len(document["deal_seeds"]) == 2
    advantage = document["matchups"][0]["advantage"]
    assert advantage["clusters"] == 2 and advantage["low"] <= advantage["high"]
    clusters = document["matchups"][0]["agents"]["random"]["clusters"]["points_per_van"]
    assert clusters["deals"] == [0, 1] and clusters["denominators"] == [
        4.0,
        4.0,
    ]  # 4 rotations × 1 ván
    assert {"python", "env121", "openskill", "scipy"} <= set(document["versions"])

    with (out / "results.csv").open(encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert {r["agent"] for r in rows} == {"random", "coin"}
    assert any(r["metric"] == "points_per_van" for r in rows)
    assert any(r["table"] == "ratings" and r["metric"] == "ordinal" for r in rows)
    assert (out / "results.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_quiet_round_robin_without_plot(tmp_path, capsys):
    out = tmp_path / "rr"
    argv = ["tournament", "--pool", "random,coin", "--deals", "1", "--out", str(out)]
    assert main([*argv, "--quiet", "--no-plot"]) == 0
    assert capsys.readouterr().out == ""
    document = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert document["mode"] == "round_robin" and len(document["lineups"]) == 3
    assert document["overall"]["coin"]["metrics"]["points_per_van"]["low"] is None
    assert "no interval" in document["overall"]["coin"]["metrics"]["points_per_van"]["note"]
    assert not (out / "results.png").exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--vs", "nosuch", "random"], "no agent named 'nosuch'"),
        (["--vs", "random:x=1", "random"], "no parameter 'x'"),
        (["--pool", "random,coin", "--deals", "0"], "--deals 0"),
        (["--pool", "random,coin", "--seed", "-2"], "--seed -2"),
        (["--pool", "random,coin", "--vs", "random", "coin"], "not allowed with"),
        (["--deals", "3"], "one of the arguments --vs --pool --resume is required"),
    ],
)
def test_bad_input_exits_with_status_2_and_a_message(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", *argv])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_an_error_found_while_planning_returns_2(tmp_path, capsys):
    argv = ["tournament", "--pool", "random,random", "--deals", "1", "--out", str(tmp_path)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("env121: error:") and "more than once" in err


def test_pool_splitting_keeps_spec_parameters_together():
    assert split_pool(["random,mc:budget=50,c=1.4", "greedy"]) == [
        "random",
        "mc:budget=50,c=1.4",
        "greedy",
    ]


def test_the_env121_cli_loads_the_arena_only_for_a_tournament():
    code = (
        "import sys, env121, apps.cli\n"
        "print(any(m.split('.')[0] in ('arena', 'agents') for m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False"]
