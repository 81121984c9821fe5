"""Tournaments on Ray (:mod:`arena.ray_backend`): the same games and results as
``--jobs 2``, a killed worker retried, the log kept for ``--resume``.

The cluster is a local one of 2 CPUs on 127.0.0.1 that the module starts
(:mod:`tests.support.ray_cluster`); without the ``ray`` extra these tests
are skipped, except those of the message that names it.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from apps.cli import main
from arena.execute import play_unit_in_worker
from arena.export import result_to_dict
from arena.journal import LOG_NAME, GameLog, LogHeader, check_log, read_log
from arena.play import GameRecord
from arena.ray_backend import INSTALL_HINT, GameLostError, RayBackend, check_reachable
from arena.tournament import game_key, plan_tournament, play_tournament, run_tournament
from env121.rules.config import RuleConfig
from tests.arena.test_tournament import reproducible
from tests.support.ray_cluster import (
    CPUS,
    local_cluster,
    needs_ray,
    one_cluster_at_a_time,
    worker_processes,
)

pytestmark = one_cluster_at_a_time

CONFIG = RuleConfig(num_van=1)
MATCHUP = [("greedy", "random")]
ARGV = ["--vs", "greedy", "random", "--deals", "2", "--num-van", "1", "--seed", "5"]
QUICK = ["--quiet", "--no-plot"]


# The tests ask for the runs with --jobs 2 before the cluster, so that the
# worker processes are forked before Ray starts its threads in this process.


@pytest.fixture(scope="module")
def cluster() -> Iterator[ModuleType]:
    with local_cluster() as ray:
        yield ray


@pytest.fixture(scope="module")
def with_jobs() -> Any:
    """The reproducible part of the Python API's tournament played by two processes."""
    result = run_tournament(matchups=MATCHUP, deals=2, seed=9, jobs=2, config=CONFIG)
    return reproducible(result_to_dict(result))


@pytest.fixture(scope="module")
def command_with_jobs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The output directory of the command's tournament played by two processes."""
    out = tmp_path_factory.mktemp("jobs")
    assert main(["tournament", *ARGV, *QUICK, "--jobs", "2", "--out", str(out)]) == 0
    return out


def results(out: Path) -> Any:
    """``out/results.json`` without the wall-clock fields and the command."""
    document = reproducible(json.loads((out / "results.json").read_text(encoding="utf-8")))
    del document["command"]
    return document


@needs_ray
def test_the_command_with_ray_writes_the_results_of_jobs_2(command_with_jobs, cluster, tmp_path):
    on_ray = tmp_path / "ray"
    assert main(["tournament", *ARGV, *QUICK, "--ray", "--out", str(on_ray)]) == 0
    assert results(on_ray) == results(command_with_jobs)
    assert json.loads((on_ray / "results.json").read_text())["jobs"] == CPUS
    assert len(read_log(on_ray / LOG_NAME).games) == 2 * 4


@needs_ray
def test_a_killed_worker_is_retried_and_changes_nothing(with_jobs, cluster):
    plan = plan_tournament(matchups=MATCHUP, deals=2, seed=9, config=CONFIG)
    killer = Killer()
    arrived: list[GameRecord] = []
    result = play_tournament(
        plan, progress=killer, on_game=arrived.append, backend=RayBackend(max_retries=2)
    )
    assert killer.killed, "no worker was found playing a game"
    assert reproducible(result_to_dict(result)) == with_jobs
    assert sorted(map(game_key, arrived)) == sorted(map(game_key, plan.tasks))


@needs_ray
def test_without_retries_a_killed_worker_loses_its_game_and_keeps_the_others(cluster):
    plan = plan_tournament(matchups=MATCHUP, deals=2, seed=9, config=CONFIG)
    killer = Killer()
    arrived: list[GameRecord] = []
    with pytest.raises(
        GameLostError, match=r"the game was lost \(deal \d, line-up 0, rotation \d\)"
    ):
        play_tournament(
            plan, progress=killer, on_game=arrived.append, backend=RayBackend(max_retries=0)
        )
    assert killer.killed and 1 <= len(arrived) < len(plan.tasks)


@needs_ray
def test_a_stopped_ray_tournament_resumes_from_its_log(with_jobs, cluster, tmp_path):
    plan = plan_tournament(matchups=MATCHUP, deals=2, seed=9, config=CONFIG)

    def stop_after_three(done: int, total: int) -> None:
        if done == 3:
            raise KeyboardInterrupt

    log = GameLog(tmp_path / LOG_NAME, LogHeader.of(plan, None))
    with log, pytest.raises(KeyboardInterrupt):
        play_tournament(plan, progress=stop_after_three, on_game=log.append, backend=RayBackend())
    run = read_log(tmp_path / LOG_NAME)
    check_log(run, plan)
    assert len(run.games) == 3
    result = play_tournament(plan, done=run.games, backend=RayBackend())
    assert reproducible(result_to_dict(result)) == with_jobs


def test_without_ray_the_command_names_the_extra(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as if not installed
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", *ARGV, "--ray", "--out", str(tmp_path)])
    assert exit_.value.code == 2
    error = capsys.readouterr().err
    assert "--ray: Ray is not installed" in error and INSTALL_HINT in error
    assert not (tmp_path / LOG_NAME).exists()


def test_an_address_where_no_cluster_answers_is_named_at_once():
    with socket.socket() as probe:  # a port of the loopback that nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    for address in (f"127.0.0.1:{port}", f"ray://127.0.0.1:{port}"):
        with pytest.raises(ConnectionError, match=f"no Ray cluster answers at {address} "):
            check_reachable(address)
    check_reachable("auto")  # Ray's to resolve


def test_ray_and_jobs_exclude_each_other(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", *ARGV, "--ray", "--jobs", "2", "--out", str(tmp_path)])
    assert exit_.value.code == 2
    assert "--jobs 2 with --ray: expected one of them" in capsys.readouterr().err
    with pytest.raises(ValueError, match=r"expected jobs .* or a backend"):
        run_tournament(matchups=MATCHUP, deals=1, jobs=2, backend=RayBackend())
    with pytest.raises(ValueError, match="max_retries=-1 is not valid"):
        RayBackend(max_retries=-1)


class Killer:
    """A progress callback that, after the first game, kills the workers playing
    the next ones (SIGKILL, as the kernel's out-of-memory killer would)."""

    def __init__(self) -> None:
        self.killed: list[int] = []

    def __call__(self, done: int, total: int) -> None:
        if self.killed:
            return
        deadline = time.monotonic() + 10
        while not (playing := worker_processes(play_unit_in_worker.__name__)):
            assert time.monotonic() < deadline, "no worker started another game"
            time.sleep(0.01)
        for pid in playing:
            os.kill(pid, signal.SIGKILL)
        self.killed += playing
