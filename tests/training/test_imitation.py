"""training.imitation: demonstrations, their returns, the fit, and the warm start of a run."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from agents.greedy import GreedyAgent
from agents.hints import HINTS_SIZE, INPUTS
from agents.inputs import Z_CLIP
from agents.ppo import PPOAgent, load_policy
from apps.cli import main
from env121.engine.actions import NUM_ACTIONS, PASS, THE_TRANG, U
from env121.engine.game import apply, new_game
from env121.play.match import play_agents
from env121.play.observation import OBS_SIZE
from env121.play.turn import Turn
from tests.support.training_helpers import tiny_run
from training.checkpoint import Network, policy_state_dict
from training.imitation import (
    collect,
    evaluate,
    fit,
    load_warm_start,
    make_policy,
    play_match,
    write_warm_start,
)
from training.pool import read_manifest
from training.ppo_selfplay import run_directory

SEARCHED = "observation+search_hints"


@pytest.fixture(scope="module")
def demos():
    return collect("greedy", matches=2, seed=11, jobs=1)


def test_rows_are_the_teachers_choices_with_more_than_one_legal_action(demos):
    greedy, state = GreedyAgent(), new_game(11)
    expected = []
    while not state.is_over:
        turn = Turn(state, state.current_player)
        action = greedy.act(turn)
        if len(turn.legal_actions) > 1:
            expected.append((turn.observation.copy(), action))
        apply(state, action)
    first = demos.subset(demos.matches == 11)
    assert len(first) == len(expected)
    assert [a for _, a in expected] == first.actions.tolist()
    assert np.array_equal(np.stack([o for o, _ in expected]), first.observations)
    assert first.masks[np.arange(len(first)), first.actions].all()
    assert (first.masks.sum(axis=1) > 1).all()


def test_undiscounted_returns_are_the_points_paid_from_the_decision_on():
    rows = play_match("greedy", 5, gamma=1.0)
    greedy, state = GreedyAgent(), new_game(5)
    recorded = []  # (seat, the seat's score before the decision)
    while not state.is_over:
        turn = Turn(state, state.current_player)
        if len(turn.legal_actions) > 1:
            recorded.append((turn.seat, state.scores[turn.seat]))
        apply(state, greedy.act(turn))
    expected = [(state.scores[seat] - before) / 100 for seat, before in recorded]
    assert rows.returns.tolist() == pytest.approx(expected, abs=1e-4)
    assert np.abs(rows.returns).max() > 0  # the match paid someone


def test_without_discount_to_the_future_a_return_is_what_the_seat_is_paid_until_its_next_decision():
    rows = play_match("greedy", 5, gamma=0.0)
    greedy, state = GreedyAgent(), new_game(5)
    decisions = []  # (seat, recorded?, the seat's score before the decision)
    while not state.is_over:
        turn = Turn(state, state.current_player)
        decisions.append((turn.seat, len(turn.legal_actions) > 1, state.scores[turn.seat]))
        apply(state, greedy.act(turn))
    expected = []
    for i, (seat, recorded, before) in enumerate(decisions):
        later = [score for s, _, score in decisions[i + 1 :] if s == seat]
        if recorded:
            expected.append(((later[0] if later else state.scores[seat]) - before) / 100)
    assert rows.returns.tolist() == pytest.approx(expected, abs=1e-4)
    assert sum(r != 0 for r in expected) >= 4  # the payments of several vòng


def test_hinted_demonstrations_hold_only_the_networks_decisions():
    hinted = play_match("greedy", 5, gamma=1.0, inputs="observation+greedy_hints")
    plain = play_match("greedy", 5, gamma=1.0)
    assert hinted.observations.shape[1] == INPUTS["observation+greedy_hints"]
    # the network's: offers without a win and Nhất Bản choices (PASS is legal, Ù and
    # Thế trắng are not); greedy's: wins, forced moves and the arrangement's layout
    mine = plain.masks[:, PASS] & ~plain.masks[:, U] & ~plain.masks[:, THE_TRANG]
    assert 0 < mine.sum() < len(plain)
    assert np.array_equal(hinted.observations[:, :OBS_SIZE], plain.observations[mine])
    assert np.array_equal(hinted.actions, plain.actions[mine])


def test_collect_is_the_same_for_any_number_of_jobs(demos):
    calls: list[tuple[int, int]] = []
    two = collect("greedy", matches=2, seed=11, jobs=2, progress=lambda *c: calls.append(c))
    for name in ("observations", "masks", "actions", "returns", "matches"):
        assert np.array_equal(getattr(two, name), getattr(demos, name)), name
    assert calls == [(1, 2), (2, 2)]  # one call per match, in seed order


def test_collect_rejects_bad_arguments_before_playing():
    with pytest.raises(ValueError, match="matches=0"):
        collect("greedy", matches=0)
    with pytest.raises(ValueError, match="no agent named"):
        collect("gredy", matches=1)


def test_the_fit_learns_the_teachers_choices(demos):
    untrained_agreement, _ = evaluate(make_policy(Network([32])), demos)
    policy, report = fit(demos, Network([32]), epochs=80, batch_size=64, held_out=0.0)
    agreement, rmse = evaluate(policy, demos)
    assert agreement > max(0.9, untrained_agreement + 0.5)
    assert rmse < demos.returns.std()
    assert report.train_rows == len(demos) and report.held_out_rows == 0


def test_held_out_rows_are_whole_matches(demos):
    calls: list[tuple[int, int]] = []
    _, report = fit(
        demos, Network([16]), epochs=2, held_out=0.5, progress=lambda *c: calls.append(c)
    )
    assert calls == [(1, 2), (2, 2)]  # one call per epoch
    assert report.held_out_rows == int((demos.matches == 12).sum())
    assert 0 <= report.agreement <= 1
    with pytest.raises(ValueError, match="held_out=1"):
        fit(demos, Network([16]), held_out=1)


def test_a_warm_start_round_trips_and_refuses_another_network(tmp_path, demos):
    network = Network([16], "relu")
    policy, _ = fit(demos, network, epochs=1)
    path = write_warm_start(policy, tmp_path / "warm.safetensors", network, {"note": 1})
    fresh = make_policy(network)
    load_warm_start(fresh, path, network)
    for (name, a), b in zip(policy.state_dict().items(), fresh.state_dict().values(), strict=True):
        assert torch.equal(a, b), name
    other = Network([32], "relu")
    with pytest.raises(ValueError, match=r"set hidden_sizes, activation, inputs and hint_head to"):
        load_warm_start(make_policy(other), path, other)
    with pytest.raises(ValueError, match="does not exist"):
        load_warm_start(fresh, tmp_path / "none.safetensors", network)


@pytest.mark.parametrize("inputs", ["observation", "observation+greedy_hints"])
def test_a_run_starts_from_the_warm_start(tmp_path, inputs):
    network = Network([64], "tanh", inputs)
    policy, _ = fit(collect("greedy", matches=1, seed=2, inputs=inputs), network, epochs=1)
    warm = write_warm_start(policy, tmp_path / "warm.safetensors", network, {})
    result = tiny_run(tmp_path / "run", "tiny", f"warm_start={warm}", f"inputs={inputs}")
    files = run_directory(result.out)
    first = read_manifest(files.pool)[0][0]  # the learner before any update
    assert first.reason == "initial"
    snapshot, _ = load_policy(files.pool / f"{first.name}.safetensors")
    assert snapshot.inputs == inputs == load_policy(result.policy)[0].inputs
    for name, value in policy_state_dict(policy).items():
        assert torch.equal(snapshot.state_dict()[name], value), name


def test_the_cli_writes_a_warm_start_and_a_playable_policy(tmp_path, capsys):
    out = tmp_path / "bc"
    # 10 matches: the fewest imitate takes (one in ten is held out to measure agreement)
    args = ["--preset", "tiny", "--matches", "10", "--jobs", "1", "--epochs", "1"]
    assert main(["imitate", *args, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "agreement with greedy" in printed and "warm_start=" in printed
    assert "10/10 matches" in printed and "1/1 epochs" in printed  # the progress bars
    assert (out / "warm_start.safetensors").is_file()
    agent = PPOAgent(str(out / "policy.safetensors"))
    state = new_game(3)
    play = play_agents(state, [agent, GreedyAgent(), GreedyAgent(), GreedyAgent()])
    assert state.is_over and play.decisions[0] > 0
    assert main(["imitate", *args, "--set", "reward_mode=rank", "--out", str(out)]) == 2
    assert "reward_mode='rank' is not valid for a warm start" in capsys.readouterr().err


def test_an_mc_teachers_search_hints_report_the_first_look_it_decides_on():
    """With budget 12 mc decides on its first look alone: it leaves greedy's
    move for the best plan exactly when that plan is 3 standard errors ahead.
    The hints share its draws, so that rule recovers every label from them."""
    demos = play_match("mc:budget=12", 8, gamma=1.0, inputs=SEARCHED)  # a match where it departs
    greedy_choice = demos.observations[:, OBS_SIZE : OBS_SIZE + NUM_ACTIONS].argmax(axis=1)
    search = demos.observations[:, OBS_SIZE + HINTS_SIZE :]
    gain, z = search[:, :NUM_ACTIONS], search[:, NUM_ACTIONS:]
    best = gain.argmax(axis=1)
    best_z = z[np.arange(len(best)), best] * Z_CLIP
    clear = np.abs(best_z - 3) > 1e-3  # float32 rounding aside
    departs = (best_z >= 3) & (gain.max(axis=1) > 0)
    expected = np.where(departs, best, greedy_choice)
    assert np.array_equal(demos.actions[clear], expected[clear])
    assert departs.sum() >= 1 and clear.mean() > 0.95
