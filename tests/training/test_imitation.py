"""training.imitation: demonstrations, their returns, the fit, and the warm start of a run."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import torch

from agents.greedy import GreedyAgent
from agents.hints import HINTS_SIZE, INPUTS
from agents.inputs import Z_CLIP
from agents.mc import Judgement, Searched
from agents.ppo import PPOAgent, load_policy, network_shape, resolve_checkpoint
from apps.cli import main
from env121.engine.actions import NUM_ACTIONS, PASS, THE_TRANG, U
from env121.engine.game import apply, new_game
from env121.play.match import play_agents
from env121.play.observation import OBS_SIZE
from env121.play.turn import Turn
from tests.support.training_helpers import tiny_run
from training.checkpoint import Network, policy_state_dict
from training.imitation import (
    Demonstrations,
    collect,
    evaluate,
    fit,
    held_out_split,
    load_warm_start,
    make_policy,
    play_match,
    searched_row,
    shrunk,
    targets,
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


@pytest.mark.parametrize("order", ["collected", "reversed"])
def test_the_held_out_rows_are_the_last_matches_and_views_when_last(demos, order):
    """Match 12 (the last of two) is held out at any share from 1/2 up; in
    collected order both parts are views of the demonstrations (one copy in
    memory), in another order copies of the same rows."""
    rows = demos if order == "collected" else demos.subset(np.arange(len(demos))[::-1])
    train, test = held_out_split(rows, 0.5)
    assert set(train.matches) == {11} and set(test.matches) == {12}
    assert len(train) + len(test) == len(rows)
    for part, match in ((train, 11), (test, 12)):
        kept = rows.matches == match
        assert np.array_equal(part.observations, rows.observations[kept])
        assert np.array_equal(part.actions, rows.actions[kept])
        assert np.shares_memory(part.observations, rows.observations) == (order == "collected")
    everything, none = held_out_split(rows, 0.4)  # under one match: nothing held out
    assert len(everything) == len(rows) and len(none) == 0


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


def test_the_cli_fine_tunes_a_network_it_is_given(tmp_path, capsys):
    """``--from`` starts the fit from that network's weights and keeps its shape:
    at a learning rate too small to move them, the policy written is the network."""
    out = tmp_path / "tuned"
    args = ["--matches", "10", "--jobs", "1", "--epochs", "1", "--out", str(out)]
    assert main(["imitate", "--from", "small", "--learning-rate", "1e-12", *args]) == 0
    assert "warm_start=" not in capsys.readouterr().out  # a warm start is a preset's network
    assert not (out / "warm_start.safetensors").exists()
    tuned, meta = load_policy(out / "policy.safetensors")
    small, small_meta = load_policy(resolve_checkpoint("small"))
    assert network_shape(meta) == network_shape(small_meta)
    assert meta["training"]["from"] == "small" and meta["training"]["learning_rate"] == 1e-12
    for name, value in small.state_dict().items():
        assert torch.allclose(tuned.state_dict()[name], value, atol=1e-6), name


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


def test_shrunk_gains_keep_what_the_worlds_measured():
    gains = np.array([2.0, 2.0, 2.0, 2.0, -3.0])
    z = np.array([0.0, 1.0, 2.0, np.inf, -2.0])
    assert shrunk(gains, z).tolist() == [0.0, 0.0, 1.5, 2.0, -2.25]


def test_a_searched_row_holds_the_prior_and_each_actions_best_gain():
    legal = [PASS, 5, 7, 9]
    log_prior = np.full(NUM_ACTIONS, -np.inf)
    log_prior[legal] = np.log([0.1, 0.4, 0.3, 0.2])
    plans = ((5, False), (PASS, False), (7, False), (7, True))
    searched = Searched(2, np.array([0.0, -4.0, 3.0, 6.0]), np.array([0.0, -2.0, 2.0, np.inf]))
    prior, gains = searched_row(Judgement(7, False, plans, searched, log_prior))
    assert np.array_equal(prior, log_prior.astype(np.float32))
    expected = np.full(NUM_ACTIONS, -np.inf)
    expected[[5, PASS, 7, 9]] = [0.0, -3.0, 6.0, 0.0]  # 7: its better plan; 9: not planned
    assert np.array_equal(gains, expected)
    prior, gains = searched_row(Judgement(7, True, log_prior=log_prior))  # left to greedy
    assert np.array_equal(prior, log_prior.astype(np.float32)) and np.isnan(gains).all()
    assert all(np.isnan(field).all() for field in searched_row(Judgement(7)))  # obvious


def _rows(log_priors: np.ndarray, gains: np.ndarray, actions: list[int]) -> Demonstrations:
    n = len(actions)
    return Demonstrations(
        np.zeros((n, 4), np.float32),
        np.isfinite(log_priors) | np.isnan(log_priors),
        np.array(actions),
        np.zeros(n, np.float32),
        np.arange(n),
        log_priors.astype(np.float32),
        gains.astype(np.float32),
    )


def test_targets_are_the_teachers_action_or_the_searchs_improved_policy():
    log_priors = np.full((4, NUM_ACTIONS), -np.inf)
    gains = np.full((4, NUM_ACTIONS), -np.inf)
    log_priors[:3, :3] = np.log([0.5, 0.25, 0.25])
    gains[0, :3] = [0.0, 5.0, -5.0]  # row 0: the worlds favour action 1 by 5 points
    gains[1, :3] = 0.0  # row 1: the worlds showed nothing
    gains[2] = np.nan  # row 2: left to greedy
    log_priors[3] = gains[3] = np.nan  # row 3: obvious
    demos = _rows(log_priors, gains, [0, 0, 2, 3])
    hard = targets(demos)
    assert hard.sum(axis=1).tolist() == [1, 1, 1, 1] and hard[[0, 1, 2, 3], [0, 0, 2, 3]].all()
    soft = targets(demos, temperature=5.0)
    odds = np.array([0.5, 0.25 * np.e, 0.25 / np.e])
    np.testing.assert_allclose(soft[0, :3], odds / odds.sum(), rtol=1e-6)
    for row in (1, 2):  # the prior stands
        np.testing.assert_allclose(soft[row, :3], [0.5, 0.25, 0.25], rtol=1e-6)
    assert soft[:3, 3:].sum() == 0 and soft[3].tolist() == hard[3].tolist()
    with pytest.raises(ValueError, match=r"temperature=-1\.0 is not valid"):
        targets(demos, temperature=-1.0)


def test_the_fit_follows_soft_targets_where_they_differ_from_the_teachers_choices(demos):
    """Every row searched, the worlds showing +30 points for the lowest legal
    action the teacher did not take: hard targets learn the teacher's
    choices, soft ones (10 points a nat) that action."""
    other = np.array(
        [
            np.flatnonzero(m & (np.arange(NUM_ACTIONS) != a))[0]
            for m, a in zip(demos.masks, demos.actions, strict=True)
        ]
    )
    log_priors = np.where(demos.masks, 0.0, -np.inf)
    gains = np.where(demos.masks, 0.0, -np.inf)
    gains[np.arange(len(demos)), other] = 30.0
    searched = dataclasses.replace(demos, log_priors=log_priors, gains=gains)
    observations, masks = torch.from_numpy(demos.observations), torch.from_numpy(demos.masks)
    for temperature, wanted, unwanted in (
        (0.0, demos.actions, other),
        (10.0, other, demos.actions),
    ):
        policy, _ = fit(
            searched, Network([32]), epochs=40, batch_size=64, held_out=0.0, temperature=temperature
        )
        with torch.no_grad():
            logits = policy.action_net(policy.mlp_extractor(observations)[0]).masked_fill(
                ~masks, -torch.inf
            )
        chosen = logits.argmax(dim=1).numpy()
        assert (chosen == wanted).mean() > 0.7 and (chosen == unwanted).mean() < 0.2, temperature


def test_a_search_teachers_rows_keep_its_networks_prior_and_the_plans_gains():
    network, _ = load_policy(resolve_checkpoint("scratch"))
    rows = play_match("search:worlds=12,budget_ms=0", 4, gamma=0.7, inputs=network.inputs)
    anchored = ~np.isnan(rows.log_priors[:, 0])  # all but the obvious decisions
    searched = ~np.isnan(rows.gains[:, 0])
    assert 0 < searched.sum() < anchored.sum()  # greedy's phases are not searched
    assert not (searched & ~anchored).any()
    with torch.no_grad():
        logits = network(torch.from_numpy(rows.observations[anchored])).masked_fill(
            ~torch.from_numpy(rows.masks[anchored]), -torch.inf
        )
    np.testing.assert_allclose(
        rows.log_priors[anchored], torch.log_softmax(logits, dim=1).numpy(), rtol=1e-5, atol=1e-5
    )
    on = rows.subset(searched)
    assert np.array_equal(np.isfinite(on.gains), on.masks)
    assert (
        on.gains[np.arange(len(on)), on.actions] >= 0
    ).all()  # greedy's plan (0) or a clear gain
    assert (on.gains > 0).any()


def test_a_torch_teacher_built_in_the_parent_does_not_hang_the_forked_collectors():
    """:func:`collect` builds its teacher in the parent to check its spec; an
    ``import:`` teacher that uses torch there starts torch's thread pool, and a
    forked worker that entered it would wait for ever (tried: killed here)."""
    from tests.support.torch_policy import run_after_a_busy_pool

    out = run_after_a_busy_pool(
        "from training.imitation import collect\n"
        "demos = collect('import:tests.support.torch_policy:BusyAgent', matches=2, jobs=2)\n"
        "print(len(set(demos.matches.tolist())))\n"
    )
    assert out.split() == ["2"]
