"""training.expert_iteration on Ray (``ray=true``): a generation's self-play
matches played as tasks on a local 2-CPU cluster on 127.0.0.1
(:mod:`tests.support.ray_cluster`) are the matches of one process, and its
measurement is played there too (the tournament's Ray backend gives the
results of processes: tests/arena/test_ray.py); a
match whose worker dies past its retries is lost in one line; a run without
Ray installed is one line naming the extra."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from types import ModuleType

import numpy as np
import pytest

from apps.cli import main
from tests.support.ray_cluster import (
    local_cluster,
    needs_ray,
    one_cluster_at_a_time,
    worker_processes,
)
from tests.training.test_expert_iteration import TINY, tiny_config
from training import expert_iteration as ei
from training import imitation

pytestmark = one_cluster_at_a_time


@pytest.fixture(scope="module")
def cluster() -> Iterator[ModuleType]:
    with local_cluster() as ray:
        yield ray


@needs_ray
def test_a_generation_on_ray_plays_the_matches_of_one_process_fits_and_measures(cluster, tmp_path):
    config = tiny_config(ray=True)
    ei.run(config, tmp_path, on_line=lambda _: None)
    assert cluster.is_initialized()  # the run used this connection and left it
    saved = ei.load_demonstrations(ei.generation_dir(tmp_path, 1) / "demonstrations.npz")
    assert np.all(np.diff(saved.matches) >= 0)  # in seed order, 0 to 9
    assert set(saved.matches.tolist()) == set(range(10))
    # The last two matches again, in this process (the teacher's: seeds 8 and 9).
    here = imitation.collect(
        config.teacher(config.first_net), 2, 8, 0.7, 1, "observation+swap_wins+nb_wins"
    )
    last_two = saved.subset(saved.matches >= 8)
    for field in ("observations", "masks", "actions", "returns", "matches"):
        np.testing.assert_array_equal(getattr(last_two, field), getattr(here, field))
    (row,) = [json.loads(line) for line in (tmp_path / ei.GENERATIONS_LOG).read_text().splitlines()]
    for key in ("search_vs_greedy", "search_vs_mc", "search_vs_last", "net_vs_greedy"):
        mean, low, high = row[key]
        assert low <= mean <= high


@needs_ray
def test_a_match_whose_worker_dies_past_its_retries_is_lost_in_one_line(cluster, monkeypatch):
    monkeypatch.setattr(imitation, "DEFAULT_MAX_RETRIES", 0)
    killed: list[int] = []

    def kill_the_matches_playing() -> None:  # SIGKILL, as the out-of-memory killer would
        deadline = time.monotonic() + 60
        while not (playing := worker_processes(imitation.play_match.__name__)):
            if time.monotonic() > deadline:
                return
            time.sleep(0.01)
        for pid in playing:
            with contextlib.suppress(ProcessLookupError):  # it ended meanwhile
                os.kill(pid, signal.SIGKILL)
        killed.extend(playing)

    killer = threading.Thread(target=kill_the_matches_playing)
    killer.start()
    lost = r"the self-play match of seed 5 was lost \(\w+ after 0 retries: .*\): expected a Ray"
    with pytest.raises(imitation.MatchLostError, match=lost):
        imitation.collect("mc", 1, 5, ray=cluster)  # mc in four seats: seconds a match
    killer.join()
    assert killed, "no worker was found playing a match"


def test_without_ray_the_setting_is_one_line_naming_the_extra(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed
    out = tmp_path / "run"
    command = ["train", "--preset", "expert", "--set", *TINY, "ray=true", "--out", str(out)]
    assert main(command) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "ray=true needs the ray extra (missing: ray)" in err
    assert not out.exists()
