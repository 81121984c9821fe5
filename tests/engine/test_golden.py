"""Golden play-throughs: three seeded matches stored as text, replayed line by line.

Each golden game is a record (``tests/engine/golden/<name>.json``: config, seed,
actions) and its transcript (``tests/engine/golden/<name>.txt``). The test replays
the record and compares the transcript line by line, then checks that the
seeded random players still choose the same actions.

``tests/engine/golden/format1/`` keeps the same three games as they were
recorded in record format 1, before every seat was asked about Thế trắng
(:attr:`~env121.rules.config.RuleConfig.the_trang_asks_every_seat`): they must
still replay to their transcripts, line by line, under the rule they were
played under. They are never regenerated.

After an intended change of rules or wording, regenerate and review the diff::

    .venv/bin/python -m tests.engine.test_golden --regen
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import json
from pathlib import Path

import pytest

from env121.engine.records import load, save
from env121.engine.render import transcript
from env121.play.random_agent import random_match
from env121.rules.config import RuleConfig

GOLDEN_DIR = Path(__file__).parent / "golden"
FORMAT1_DIR = GOLDEN_DIR / "format1"
GOLDEN_GAMES: dict[str, tuple[int, RuleConfig]] = {
    "seed_1_default": (1, RuleConfig()),
    "seed_2_den_unmasked": (2, RuleConfig(mask_invalid_win=False)),
    "seed_3_no_wait_rule_hundreds": (
        3,
        RuleConfig(nhat_ban_requires_wait=False, payment_rounding="hundreds"),
    ),
}


def regenerate() -> None:
    """Write every golden record and transcript from the seeded random players."""
    GOLDEN_DIR.mkdir(exist_ok=True)
    for name, (seed, config) in GOLDEN_GAMES.items():
        state = random_match(seed, config)
        save(state, GOLDEN_DIR / f"{name}.json")
        lines = transcript(state)
        (GOLDEN_DIR / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{name}: {len(state.actions)} actions, {len(lines)} lines")


@pytest.mark.parametrize("folder", [GOLDEN_DIR, FORMAT1_DIR], ids=["format2", "format1"])
@pytest.mark.parametrize("name", sorted(GOLDEN_GAMES))
def test_golden_transcript_replays_line_by_line(name, folder):
    state = load(folder / f"{name}.json")
    expected = (folder / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    actual = transcript(state)
    if actual != expected:
        diff = "\n".join(
            list(difflib.unified_diff(expected, actual, "golden", "replay", lineterm=""))[:40]
        )
        pytest.fail(f"{name}: transcript differs (regenerate with --regen if intended)\n{diff}")


@pytest.mark.parametrize("name", sorted(GOLDEN_GAMES))
def test_golden_record_matches_the_seeded_players(name):
    seed, config = GOLDEN_GAMES[name]
    record = json.loads((GOLDEN_DIR / f"{name}.json").read_text(encoding="utf-8"))
    assert record["config"] == config.to_dict()
    assert record["seed"] == seed
    assert random_match(seed, config).actions == record["actions"]


@pytest.mark.parametrize("name", sorted(GOLDEN_GAMES))
def test_format1_records_replay_under_the_rule_they_were_played_under(name):
    record = json.loads((FORMAT1_DIR / f"{name}.json").read_text(encoding="utf-8"))
    assert record["format_version"] == 1
    assert "the_trang_asks_every_seat" not in record["config"]
    state = load(FORMAT1_DIR / f"{name}.json")
    assert state.config.the_trang_asks_every_seat is False
    seed, config = GOLDEN_GAMES[name]
    old_rule = dataclasses.replace(config, the_trang_asks_every_seat=False)
    assert random_match(seed, old_rule).actions == record["actions"]


def main() -> None:
    """``--regen`` rewrites the golden files."""
    parser = argparse.ArgumentParser(description="Golden play-throughs of the engine.")
    parser.add_argument("--regen", action="store_true", help="rewrite tests/engine/golden/*")
    if parser.parse_args().regen:
        regenerate()
    else:
        parser.print_help()


if __name__ == "__main__":
    main()
