"""env121.engine.files: whole-or-nothing writes, output checks."""

from __future__ import annotations

import os
import stat
import time

import pytest

from env121.engine.files import (
    append_atomically,
    check_output_directory,
    leftover_temporaries,
    write_atomically,
)
from tests.support.slow_write import slowed_replace


def test_a_write_replaces_the_file_whole_with_the_permissions_of_a_new_file(tmp_path):
    path = tmp_path / "latest.json"
    path.write_text("old")
    assert write_atomically(path, "Thế trắng\n") == path
    assert path.read_text(encoding="utf-8") == "Thế trắng\n"
    write_atomically(path, b"\x00\x01")
    assert path.read_bytes() == b"\x00\x01"
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
    assert leftover_temporaries(tmp_path) == []


def test_a_write_that_fails_before_the_rename_leaves_the_old_file_and_no_temporary(
    tmp_path, monkeypatch
):
    path = tmp_path / "training.safetensors"
    path.write_bytes(b"old")

    def no_rename(source: object, target: object) -> None:
        raise KeyboardInterrupt  # as Ctrl-C in the middle of a save

    monkeypatch.setattr(os, "replace", no_rename)
    with pytest.raises(KeyboardInterrupt):
        write_atomically(path, b"new")
    assert path.read_bytes() == b"old"
    assert leftover_temporaries(tmp_path) == []


def test_a_kill_leaves_a_temporary_that_leftover_temporaries_finds(tmp_path):
    (tmp_path / ".charts.jsonl.1a2b3c4d.tmp").write_text("{")
    (tmp_path / "charts.jsonl").write_text("{}\n")
    assert [p.name for p in leftover_temporaries(tmp_path)] == [".charts.jsonl.1a2b3c4d.tmp"]


def test_append_adds_at_the_end_and_creates_the_file(tmp_path):
    path = tmp_path / "charts.jsonl"
    append_atomically(path, '{"step": 128}\n')
    append_atomically(path, b'{"step": 256}\n')
    assert path.read_text().splitlines() == ['{"step": 128}', '{"step": 256}']


def test_the_kill_tests_slow_write_waits_only_for_the_file_it_names(tmp_path, monkeypatch):
    waits: list[float] = []
    monkeypatch.setattr(time, "sleep", waits.append)
    monkeypatch.setattr(os, "replace", slowed_replace("training.safetensors", 2.5))
    write_atomically(tmp_path / "training.json", "{}")
    write_atomically(tmp_path / "training.safetensors", b"")
    assert waits == [2.5]


def test_an_output_directory_must_be_creatable(tmp_path):
    check_output_directory(tmp_path / "new" / "deeper")
    check_output_directory(tmp_path)
    (tmp_path / "afile").write_text("x")
    with pytest.raises(ValueError, match=r"--out .*afile: is a file: expected a directory"):
        check_output_directory(tmp_path / "afile")
    with pytest.raises(ValueError, match=r"afile is a file, so it cannot be created"):
        check_output_directory(tmp_path / "afile" / "run", "--json")
