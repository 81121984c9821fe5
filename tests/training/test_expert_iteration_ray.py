"""training.expert_iteration on Ray (``ray=true``): a generation's self-play
matches and measurement games played as tasks on a local 2-CPU cluster on
127.0.0.1 (:mod:`tests.support.ray_cluster`) are the games of one process; a
run without Ray installed is one line naming the extra."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from apps.cli import main
from tests.support.ray_cluster import local_cluster, needs_ray, one_cluster_at_a_time
from tests.training.test_expert_iteration import TINY, tiny_config
from training import expert_iteration as ei

pytestmark = one_cluster_at_a_time

TIMED = {"seconds", "self_play_seconds"}
"""The curve row's wall-clock fields: the only ones a cluster may change."""


@pytest.fixture(scope="module")
def cluster() -> Iterator[ModuleType]:
    with local_cluster() as ray:
        yield ray


def curve_row(out: Path) -> dict[str, object]:
    (row,) = [json.loads(line) for line in (out / ei.GENERATIONS_LOG).read_text().splitlines()]
    return {key: value for key, value in row.items() if key not in TIMED}


@needs_ray
def test_a_generation_on_ray_plays_fits_and_measures_as_in_one_process(cluster, tmp_path):
    ei.run(tiny_config(), tmp_path / "here", on_line=lambda _: None)
    ei.run(tiny_config(ray=True), tmp_path / "ray", on_line=lambda _: None)
    assert cluster.is_initialized()  # the run used this connection and left it
    here, on_ray = (ei.generation_dir(tmp_path / name, 1) for name in ("here", "ray"))
    saved = [ei.load_demonstrations(folder / "demonstrations.npz") for folder in (here, on_ray)]
    for field in ("observations", "masks", "actions", "returns", "matches"):
        np.testing.assert_array_equal(getattr(saved[0], field), getattr(saved[1], field))
    policies = [(folder / "policy.safetensors").read_bytes() for folder in (here, on_ray)]
    assert policies[0] == policies[1]
    assert curve_row(tmp_path / "ray") == curve_row(tmp_path / "here")


def test_without_ray_the_setting_is_one_line_naming_the_extra(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed
    out = tmp_path / "run"
    command = ["train", "--preset", "expert", "--set", *TINY, "ray=true", "--out", str(out)]
    assert main(command) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "ray=true needs the ray extra (missing: ray)" in err
    assert not out.exists()
