"""Game records (save → load → replay), determinism, corrupt records, the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from apps import cli
from env121.engine.deal import Deal
from env121.engine.game import new_game
from env121.engine.records import (
    FORMAT_VERSION,
    RecordError,
    dumps,
    load,
    loads,
    replay,
    save,
    to_record,
)
from env121.engine.render import transcript
from env121.play.match import play_agents
from env121.play.random_agent import random_match, random_players
from env121.rules.config import RuleConfig


@pytest.mark.parametrize("seed", [0, 7])
def test_save_load_replay_gives_the_identical_state(tmp_path, seed):
    state = random_match(seed, RuleConfig(num_van=2))
    path = tmp_path / "game.json"
    save(state, path)
    loaded = load(path)
    assert loaded == state
    assert transcript(loaded) == transcript(state)


def test_a_match_in_progress_round_trips():
    state = new_game(4, rotation=2)
    play_agents(state, random_players(4), until=lambda st: len(st.actions) >= 77)
    again = loads(dumps(state))
    assert again == state
    assert again.rotation == 2


def test_an_explicit_first_deal_round_trips():
    deal = Deal.from_notation(
        ["CRE/KY CRE/ED GEN/KY GEN/ED INS/KY", "INS/ED MER/KY MER/ED GEI/KY GEI/ED",
         "DAN/KY DAN/ED MON/KY MON/ED MUS/KY", "MUS/ED NIN/KY NIN/ED ASA/KY ASA/ED"],
        "PRI/KY", "PRI/ED CRE/FR CRE/FB CRE/FP", "PRI/BB",
    )  # fmt: skip
    state = new_game(9, first_deal=deal)
    play_agents(state, random_players(9), until=lambda st: st.vong == 2 or st.is_over)
    assert loads(dumps(state)) == state


def test_same_seed_and_actions_give_identical_transcripts():
    a = random_match(12)
    b = replay(to_record(a))
    c = replay(json.loads(dumps(a)))
    assert transcript(a) == transcript(b) == transcript(c)
    assert random_match(12).actions == a.actions


def good_record() -> dict[str, Any]:
    return to_record(random_match(3))


@pytest.mark.parametrize(
    ("corrupt", "message"),
    [
        (lambda r: r.update(format_version=3), "format_version 3 is not supported: expected 1 or"),
        (lambda r: r.update(format_version=True), "format_version True is not supported"),
        (lambda r: r["config"].update(house_rule=True), r"bad config: unknown RuleConfig field"),
        (lambda r: r["config"].update(num_van=3), r"bad config: RuleConfig.num_van=3"),
        (lambda r: r.update(extra=1), r"unknown fields \['extra'\]"),
        (lambda r: r.pop("seed"), r"missing fields \['seed'\]"),
        (lambda r: r.update(seed=-5), "seed -5 is not valid"),
        (lambda r: r.update(rotation=4), "rotation 4 is not valid"),
        (lambda r: r.update(actions="U PASS"), "actions must be a list"),
        (lambda r: r.update(first_deal={"hands": []}), "first_deal"),
    ],
)
def test_corrupt_records_name_what_is_wrong(corrupt, message):
    record = good_record()
    corrupt(record)
    with pytest.raises(RecordError, match=message):
        replay(record)


def test_an_illegal_action_names_its_index():
    record = good_record()
    record["actions"][5] = 130  # NB_GAP(5) in the middle of an offer
    with pytest.raises(RecordError, match=r"action at index 5: illegal action NB_GAP\(5\)"):
        replay(record)
    record["actions"] = [*good_record()["actions"], 122]
    with pytest.raises(RecordError, match="the match is over"):
        replay(record)


def test_bad_json_and_missing_files(tmp_path):
    with pytest.raises(RecordError, match="not valid JSON"):
        loads("{not json")
    with pytest.raises(RecordError, match="expected a JSON object"):
        loads("[1, 2]")
    with pytest.raises(RecordError, match="cannot read the record"):
        load(tmp_path / "missing.json")
    assert good_record()["format_version"] == FORMAT_VERSION


def test_deep_json_latin1_files_and_numbers_for_cards_are_refused(tmp_path):
    # Found by fuzzing (tests/engine/test_fuzz.py): these raised RecursionError,
    # UnicodeDecodeError and AttributeError instead of a RecordError.
    with pytest.raises(RecordError, match=r"not valid JSON \(nested too deeply\)"):
        loads("[" * 100_000)
    latin1 = tmp_path / "latin1.json"
    latin1.write_bytes(dumps(random_match(3)).replace("seed", "s\xe9ed").encode("latin-1"))
    with pytest.raises(RecordError, match="not a UTF-8 text file"):
        load(latin1)
    record = good_record()
    deal = {"hands": ["GEN/KY"] * 4, "chi_diem": [1], "an_si": "", "noc": ""}
    record["first_deal"] = deal
    with pytest.raises(RecordError, match="first_deal is not valid: bad card 1"):
        replay(record)
    deal["hands"] = [[1, 2, 3, 4, 5]] * 4
    with pytest.raises(RecordError, match="first_deal is not valid: bad card 1: a card is FIG/SU"):
        replay(record)


# ------------------------------------------------------------------- CLI


def test_cli_play_then_replay(tmp_path, capsys):
    path = tmp_path / "g.json"
    assert cli.main(["play", "--seed", "2", "--json", str(path)]) == 0
    played = capsys.readouterr().out.splitlines()
    assert played[0].startswith("== Ván 1, vòng 1/12")
    assert played[-1] == f"record saved to {path}"
    assert cli.main(["replay", str(path)]) == 0
    replayed = capsys.readouterr().out.splitlines()
    assert replayed == played[:-1]


def test_cli_replay_reports_a_bad_record(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text('{"format_version": 1}', encoding="utf-8")
    assert cli.main(["replay", str(path)]) == 2
    assert "missing fields" in capsys.readouterr().err


# ------------------------------------------------------- engine imports


def test_engine_imports_no_rl_framework():
    code = (
        "import sys\n"
        "import env121, env121.engine.game, env121.engine.view, env121.engine.records,"
        " env121.engine.validate, env121.engine.render, env121.play.random_agent,"
        " apps.cli.game, env121.engine.scripted\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in"
        " {'pettingzoo', 'gymnasium', 'gym', 'torch'})\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
