"""The learned leaf value: what it reads, where the search uses it, its files.

* :func:`agents.value.encode_values` of a record is the seat's observation of
  that state (``tests/support/observation_oracle.py``, the definition), the
  other seats' free cards in turn order, every seat's win table on the cards
  still to come (:func:`env121.engine.win_table.seat_win_points`), the Nọc's
  cards and the line's value (``tests/support/mc_reference.py``): the
  world's true state, nothing else.
* An untrained network is the line.
* ``mc:value=…`` replaces exactly the open leaves of its playouts (nobody won
  the card on offer, the Nọc not empty) by the network's value of the seat in
  the record left at that leaf, and keeps every other result of the line's
  playout.
* A value checkpoint that does not fit is one line naming the file.
* ``python -m training.value`` collects zero-sum targets (the vòng's
  payments) and resumes a killed run.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from agents.batched_greedy import new_plans
from agents.batched_mc import play_plans
from agents.mc import MCAgent
from agents.value import (
    HIDDEN_SIZE,
    TABLES_SIZE,
    VALUE_SCALE,
    ValueNetwork,
    encode_values,
    load_value,
    save_value,
)
from agents.weights import CheckpointMismatchError
from env121.engine.batched.engine import BatchedEngine
from env121.engine.game import kernel_config_of, state_of_record
from env121.engine.kernel.record import GAME_DTYPE, PHASES
from env121.engine.state import NUM_SEATS, Phase
from env121.engine.win_table import seat_win_points
from env121.play.observation import OBS_SIZE
from env121.play.turn import Turn
from env121.rules.cards import NUM_CARDS
from tests.agents.test_batched_mc import decisions
from tests.support.mc_reference import leaf_value
from tests.support.observation_oracle import encode_observation
from training import value as training_value


def test_the_value_input_is_the_seats_observation_and_the_other_hands():
    engine = BatchedEngine(24)
    rng = np.random.default_rng(3)
    for _ in range(40):
        picks = rng.integers(engine.games["n_legal"])
        engine.step(engine.games["legal"][np.arange(24), picks].astype(np.int64))
    indices = np.repeat(np.arange(6), NUM_SEATS)
    seats = np.tile(np.arange(NUM_SEATS), 6)
    offers = np.flatnonzero(engine.games["phase"] == PHASES.index(Phase.OFFER))
    assert len(offers) >= 3
    indices = np.repeat(offers, NUM_SEATS)
    seats = np.tile(np.arange(NUM_SEATS), len(offers))
    rows, line = encode_values(engine.games, indices, seats)
    at = OBS_SIZE + HIDDEN_SIZE
    for row, value, g, seat in zip(rows, line, indices, seats, strict=True):
        state = state_of_record(engine.games[g : g + 1], engine.config)
        np.testing.assert_array_equal(row[:OBS_SIZE], encode_observation(state, int(seat)))
        hidden = row[OBS_SIZE:at].reshape(NUM_SEATS - 1, NUM_CARDS)
        tables = [seat_win_points(state, s) for s in range(NUM_SEATS)]
        to_come = [*state.noc[state.noc_pos :], state.offer_card]
        for k in range(NUM_SEATS):
            other = (int(seat) + k) % NUM_SEATS
            if k:
                assert sorted(np.flatnonzero(hidden[k - 1])) == sorted(state.hands[other])
            table = row[at + k * NUM_CARDS : at + (k + 1) * NUM_CARDS]
            expected = np.zeros(NUM_CARDS)
            expected[to_come] = tables[other][to_come] / 10
            np.testing.assert_allclose(table, expected, rtol=1e-6)
        noc = row[at + TABLES_SIZE : at + TABLES_SIZE + NUM_CARDS]
        assert sorted(np.flatnonzero(noc)) == sorted(state.noc[state.noc_pos :])
        assert value == pytest.approx(leaf_value(state, int(seat), tables), abs=1e-9)
        assert row[-1] == pytest.approx(value / VALUE_SCALE, rel=1e-6)


@pytest.fixture
def value_file(tmp_path):
    torch.manual_seed(0)
    network = ValueNetwork([16])
    with torch.no_grad():  # a correction of some points, so the values differ visibly
        for parameter in network.parameters():
            parameter.normal_(0.0, 0.05)
    return save_value(tmp_path / "v.safetensors", network, {"test": True})


def test_mc_values_exactly_its_open_leaves_by_the_network(value_file):
    line = MCAgent()
    learned = MCAgent(value=str(value_file))
    network, _ = load_value(value_file)
    replaced = kept = 0
    for state, seat in decisions(26112, 20):
        turn = Turn(state, seat, search_allowed=True)
        plans = line.plans(turn)
        worlds = turn.worlds(11, 0, 6)
        by_line = line.play(worlds, seat, plans, state.config)
        by_value = learned.play(worlds, seat, plans, state.config)
        # The definition: play the plans, then value the open leaves in the records left there.
        games = np.repeat(worlds, len(plans))
        results = np.empty((len(worlds), len(plans)))
        open_leaves = np.zeros(results.shape, dtype=bool)
        play_plans(
            games,
            kernel_config_of(state.config),
            seat,
            np.array([a for a, _ in plans], dtype=np.int64),
            np.array([d for _, d in plans], dtype=np.bool_),
            False,
            True,
            float(line.greedy.cuop_margin),
            int(line.greedy.nhat_ban_waits),
            new_plans(len(plans)),
            new_plans(1),
            np.empty(len(games), dtype=GAME_DTYPE),
            results,
            open_leaves,
        )
        np.testing.assert_array_equal(results, by_line)
        for w in range(len(worlds)):
            for p in range(len(plans)):
                g = w * len(plans) + p
                if open_leaves[w, p]:
                    # The network's correction to the line, read from the record left at the leaf.
                    inputs, line_value = encode_values(games, np.array([g]), np.array([seat]))
                    with torch.inference_mode():
                        correction = float(network(torch.from_numpy(inputs))[0])
                    expected = line_value[0] + correction * VALUE_SCALE
                    assert by_value[w, p] == pytest.approx(expected, rel=1e-4)
                    assert by_value[w, p] != by_line[w, p]
                    replaced += 1
                else:
                    assert by_value[w, p] == by_line[w, p]
                    kept += 1
    assert replaced > 50 and kept > 10


def test_an_untrained_network_is_the_line(tmp_path):
    path = save_value(tmp_path / "zero.safetensors", ValueNetwork([8]))
    line, learned = MCAgent(), MCAgent(value=str(path))
    for state, seat in decisions(26113, 6):
        turn = Turn(state, seat, search_allowed=True)
        plans = line.plans(turn)
        worlds = turn.worlds(3, 0, 4)
        np.testing.assert_allclose(
            learned.play(worlds, seat, plans, state.config),
            line.play(worlds, seat, plans, state.config),
        )


def test_value_with_the_showdown_is_refused(value_file):
    with pytest.raises(ValueError, match=r"value=.* is not valid with leaf=false"):
        MCAgent(leaf=False, value=str(value_file))


def test_a_value_file_that_does_not_fit_is_one_line(value_file, tmp_path):
    network, meta = load_value(value_file)
    assert meta["training"] == {"test": True} and network.hidden_sizes == [16]
    sidecar = value_file.with_suffix(".json")
    torn = tmp_path / "torn.safetensors"
    torn.write_bytes(value_file.read_bytes()[:100])
    torn.with_suffix(".json").write_text(sidecar.read_text())
    with pytest.raises(CheckpointMismatchError, match="weights do not match"):
        load_value(torn)
    other = tmp_path / "other.safetensors"
    other.write_bytes(value_file.read_bytes())
    document = json.loads(sidecar.read_text())
    other.with_suffix(".json").write_text(json.dumps({**document, "format": "env121-ppo-policy"}))
    with pytest.raises(CheckpointMismatchError, match="not an env121 value sidecar"):
        load_value(other)
    with pytest.raises(FileNotFoundError, match="does not exist"):
        load_value(tmp_path / "missing.safetensors")


def test_collected_targets_are_the_vongs_zero_sum_payments():
    inputs, targets, matches, line = training_value.collect(3, 5, "greedy", keep=0.5)
    assert len(inputs) == len(targets) == len(matches) == len(line)
    assert len(targets) % NUM_SEATS == 0
    assert set(matches) == {0, 1, 2}
    by_state = targets.reshape(-1, NUM_SEATS)  # the four seats of one state, in seat order
    np.testing.assert_array_equal(by_state.sum(axis=1), 0)
    assert np.abs(targets).max() > 0


def test_a_killed_run_resumes_where_its_last_round_ended(tmp_path, capsys):
    out = tmp_path / "run"
    common = ["--out", str(out), "--matches", "3", "--holdout", "2", "--hidden", "8"]
    training_value.main([*common, "--rounds", "2"])
    whole = tmp_path / "whole"
    training_value.main(["--out", str(whole), *common[2:], "--rounds", "3"])
    training_value.main([*common, "--rounds", "3"])  # resumes after round 2
    assert "resuming" in capsys.readouterr().out
    resumed = json.loads((out / "state" / "value_state.json").read_text())
    straight = json.loads((whole / "state" / "value_state.json").read_text())
    assert [r["holdout_mse"] for r in resumed["curve"]] == pytest.approx(
        [r["holdout_mse"] for r in straight["curve"]]
    )
    with pytest.raises(SystemExit):
        training_value.main([*common, "--rounds", "3", "--keep", "0.5"])  # other settings
