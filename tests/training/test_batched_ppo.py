"""The batched self-play trainer: its pieces against plain definitions, and a whole run."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable

import numpy as np
import pytest
import torch

from agents.hints import INPUTS
from agents.ppo import PolicyNetwork, load_policy
from agents.value import HIDDEN_SIZE, hidden_hands
from apps.cli.app import main
from training import settings
from training.actor_critic import ActorCritic
from training.batched_ppo import Config, Learner
from training.batched_state import load_state_tensors, state_tensors
from training.evaluation import duplicate_advantage
from training.rollout import Rollout, stream_advantages

TINY = [
    "total_steps=6144",
    "num_games=64",
    "rollout_steps=16",
    "inputs=observation",
    "hint_head=false",
    "hidden_sizes=[16]",
    "minibatch_size=256",
    "snapshot_every=2048",
    "checkpoint_every=2048",
    "eval_every=4096",
    "eval_deals=2",
]


def tiny_config(**changes: object) -> Config:
    values = {
        "num_games": 64,
        "rollout_steps": 16,
        "inputs": "observation",
        "hint_head": False,
        "hidden_sizes": [16],
        "minibatch_size": 256,
    }
    values.update(changes)
    return settings.from_dict(Config, {"algorithm": "batched_ppo", **values})


def in_process(learner: Learner) -> Rollout:
    """The learner's in-process rollout (``rollout_workers`` 0)."""
    assert learner.rollout is not None
    return learner.rollout


def plain_gae(
    rewards: np.ndarray, values: np.ndarray, successors: np.ndarray, gamma: float, lam: float
) -> np.ndarray:
    """GAE written stream by stream, from the definition."""
    n = len(rewards)
    out = np.zeros(n)
    for i in range(n):
        if successors[i] == -2:
            continue
        total, weight, k = 0.0, 1.0, i
        while True:
            j = successors[k]
            next_value = 0.0 if j == -1 else values[j]
            total += weight * (rewards[k] + gamma * next_value - values[k])
            if j == -1 or successors[j] == -2:
                break
            weight *= gamma * lam
            k = j
        out[i] = total
    return out


def test_stream_advantages_follow_each_seats_stream():
    rng = np.random.default_rng(3)
    n = 60
    successors = np.full(n, -2, dtype=np.int64)
    streams = [list(range(s, n, 4)) for s in range(4)]  # four interleaved streams
    for stream in streams:
        for a, b in itertools.pairwise(stream):
            successors[a] = b if rng.random() > 0.2 else -1  # some streams end (a vòng)
    rewards = rng.normal(size=n).astype(np.float32)
    values = rng.normal(size=n).astype(np.float32)
    out = np.zeros(n, dtype=np.float32)
    stream_advantages(rewards, values, successors, 0.9, 0.8, out)
    np.testing.assert_allclose(out, plain_gae(rewards, values, successors, 0.9, 0.8), atol=1e-5)
    assert (out[successors == -2] == 0).all()


def test_the_shared_first_layer_leaves_the_actor_as_it_is():
    actor = PolicyNetwork([32, 16], "relu", "observation")
    model = ActorCritic(actor, perfect=True)
    x = torch.rand(7, INPUTS["observation"])
    logits, values = model(x, torch.rand(7, HIDDEN_SIZE))
    assert torch.equal(logits, actor(x)) and values.shape == (7,)
    names = set(model.state_dict())
    assert names >= {f"actor.{k}" for k in actor.state_dict()} and "hidden_in.weight" in names


@pytest.mark.parametrize("detached", [False, True])
def test_a_detached_critic_trains_none_of_the_actors_weights(detached):
    """The value's gradient reaches the shared first layer, unless detached; the
    values are the same either way."""
    torch.manual_seed(0)
    actor = PolicyNetwork([32, 16], "relu", "observation")
    x, hidden = torch.rand(7, INPUTS["observation"]), torch.rand(7, HIDDEN_SIZE)
    model = ActorCritic(actor, perfect=True, detached=detached)
    _, values = model(x, hidden)
    torch.autograd.backward(values.sum())
    assert (actor.layers[0].weight.grad is None) == detached
    assert model.critic_layers[0].weight.grad is not None
    assert model.hidden_in is not None and model.hidden_in.weight.grad is not None
    attached = ActorCritic(actor, perfect=True, detached=not detached)
    attached.load_state_dict(model.state_dict())
    assert torch.equal(values.detach(), attached(x, hidden)[1].detach())


def test_the_anchor_is_the_start_policy_and_stays_it(tmp_path):
    """With ``anchor_coef`` the learner keeps a frozen copy of the start policy
    and logs how far it has moved from it."""
    start = tmp_path / "start.safetensors"
    Learner(tiny_config(seed=5), tmp_path).save_actor(start, {})
    learner = Learner(tiny_config(start_policy=str(start), anchor_coef=0.5), tmp_path)
    assert learner.anchor is not None
    before = {k: v.clone() for k, v in learner.anchor.state_dict().items()}
    saved = load_policy(start)[0].state_dict()
    assert all(torch.equal(v, saved[k]) for k, v in before.items())
    learner.start()
    stats = [learner.rollout_and_update(1.0) for _ in range(2)]
    assert all(torch.equal(v, before[k]) for k, v in learner.anchor.state_dict().items())
    assert all(not p.requires_grad for p in learner.anchor.parameters())
    assert stats[0]["anchor_kl"] >= 0 and stats[1]["anchor_kl"] > 0


def test_the_anchor_holds_the_learner_near_the_start_policy(tmp_path):
    """The same seed and rollouts, with and without a strong anchor: the
    anchored actor ends nearer the start policy's weights."""
    start = tmp_path / "start.safetensors"
    Learner(tiny_config(seed=5), tmp_path).save_actor(start, {})
    moved = {}
    for coef in (0.0, 50.0):
        learner = Learner(
            tiny_config(start_policy=str(start), anchor_coef=coef, learning_rate=3e-3),
            tmp_path / str(coef),
        )
        first = [p.detach().clone() for p in learner.actor.parameters()]
        learner.start()
        for _ in range(4):
            learner.rollout_and_update(1.0)
        now = [p.detach() for p in learner.actor.parameters()]
        moved[coef] = sum(float((a - b).norm()) for a, b in zip(now, first, strict=True))
    assert moved[50.0] < 0.8 * moved[0.0]


def test_the_critic_reads_the_other_seats_free_cards(tmp_path):
    learner = Learner(tiny_config(), tmp_path)
    learner.start()
    games = in_process(learner).engine.games
    indices = np.array([0, 5, 9])
    seats = np.array([0, 3, 2])
    out = np.empty((3, HIDDEN_SIZE), dtype=np.float32)
    hidden_hands(games, indices, seats, out)
    for row, (g, seat) in enumerate(zip(indices, seats, strict=True)):
        for k in range(1, 4):
            other = (seat + k) % 4
            cards = games["hands"][g, other][: games["n_free"][g, other]]
            block = out[row, (k - 1) * 121 : k * 121]
            assert set(np.flatnonzero(block)) == set(cards.tolist())


def test_points_go_to_the_open_decision_and_a_vong_closes_the_streams(tmp_path):
    learner = Learner(tiny_config(table_weights={"self": 1.0}), tmp_path)
    learner.start()
    rollout = in_process(learner)
    games, s = rollout.engine.games, rollout.samples
    while True:
        open_before, rewards_before = rollout.pending.copy(), s.rewards.copy()
        rollout.step()
        ended = np.flatnonzero(games["vong_ended"] & games["rewards"].any(axis=1))
        if len(ended):
            break
    for g in ended:
        assert (rollout.pending[g] == -1).all()
        for seat in range(4):
            row = open_before[g, seat]
            if row < 0:
                continue
            if s.successors[row] >= 0:  # the seat decided again in this very step
                row = s.successors[row]
            assert s.successors[row] == -1
            paid = float(games["rewards"][g, seat])
            assert s.rewards[row] == pytest.approx(rewards_before[row] + paid)


def test_an_update_trains_only_closed_decisions_and_carries_the_open_ones(tmp_path):
    learner = Learner(tiny_config(), tmp_path)
    learner.start()
    stats = learner.rollout_and_update(1.0)
    s, pending = in_process(learner).samples, in_process(learner).pending
    assert stats["samples"] > 0 and np.isfinite(stats["policy_loss"])
    open_rows = pending[pending >= 0]
    assert sorted(open_rows.tolist()) == list(range(s.size))  # carried to the front
    assert (s.successors[: s.size] == -2).all()


def test_while_the_critic_warms_up_only_the_critic_learns(tmp_path):
    """Two rollouts of 1,024 steps end within the warm-up: the actor (with the
    first layer the critic shares) stays as it was, the critic's own layers
    move; the third update trains both."""
    learner = Learner(tiny_config(critic_warmup_steps=2048), tmp_path)
    learner.start()

    def weights(module: torch.nn.Module) -> list[torch.Tensor]:
        return [p.detach().clone() for p in module.parameters()]

    actor, critic = weights(learner.actor), weights(learner.model.critic_layers)
    for _ in range(2):
        stats = learner.rollout_and_update(1.0)
        assert stats["critic_warmup"] == 1.0
    assert all(torch.equal(a, b) for a, b in zip(actor, weights(learner.actor), strict=True))
    assert not any(
        torch.equal(a, b) for a, b in zip(critic, weights(learner.model.critic_layers), strict=True)
    )
    assert all(p.requires_grad for p in learner.actor.parameters())
    stats = learner.rollout_and_update(1.0)
    assert stats["critic_warmup"] == 0.0
    assert not torch.equal(actor[0], next(learner.actor.parameters()))


def test_the_batched_evaluation_is_the_arenas(tmp_path):
    """Deterministic opponents, the arena's deals: the same advantage as the arena's."""
    from agents.batched_greedy import BatchedGreedy
    from arena import one_vs_three

    torch.manual_seed(0)
    actor = PolicyNetwork([8], "relu", "observation")
    learner = Learner(tiny_config(hidden_sizes=[8]), tmp_path)
    learner.actor.load_state_dict(actor.state_dict())
    path = learner.save_actor(tmp_path / "a.safetensors", {})
    config = tiny_config().rule_config
    row = duplicate_advantage(learner.actor, BatchedGreedy(threads=1), 2, 11, config, 1)
    arena = one_vs_three(f"ppo:{path}", "greedy", deals=2, seed=11, config=config)
    assert row["advantage"] == pytest.approx(arena.advantage.mean)
    assert row["low"] == pytest.approx(arena.advantage.low)


def test_a_run_trains_resumes_and_its_policy_plays(tmp_path, capsys):
    out = tmp_path / "run"
    command = ["train", "--preset", "scratch", "--no-progress", "--out", str(out), "--set"]
    assert main(command + TINY) == 0
    printed = capsys.readouterr().out
    assert "policy: ppo:" in printed and "vs 3× greedy" in printed and "vs 3× random" in printed
    rows = [json.loads(line) for line in (out / "eval.jsonl").read_text().splitlines()]
    assert {r["opponent"] for r in rows} == {"greedy", "random"}
    assert (out / "curves.png").stat().st_size > 0 and (out / "best.safetensors").exists()
    # a run saved before `threads` replaced engine_threads/torch_threads still resumes
    saved = out / "config.yaml"
    text = saved.read_text(encoding="utf-8")
    assert "\nthreads: 0\n" in text
    saved.write_text(
        text.replace("\nthreads: 0\n", "\nengine_threads: 2\ntorch_threads: 2\n"), encoding="utf-8"
    )
    # resume with a longer budget: it continues from the last checkpoint
    assert main(["train", "--resume", str(out), "--no-progress", "--set", "total_steps=8192"]) == 0
    assert "engine_threads=2, torch_threads=2 read as threads=2" in capsys.readouterr().err
    progress = [json.loads(line) for line in (out / "progress.jsonl").read_text().splitlines()]
    steps = [r["step"] for r in progress]
    assert steps == sorted(steps) and steps[-1] == 8192
    assert progress[-1]["seconds"] > progress[0]["seconds"]
    from agents.registry import make_agent

    assert make_agent(f"ppo:{out / 'policy.safetensors'}").spec.startswith("ppo:")


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (["inputs=observation+greedy_hints"], "inputs='observation+greedy_hints' is not valid"),
        (["table_weights={pool: -1}"], "table_weights="),
        (["horizon=ever"], "horizon='ever' is not valid"),
        (["eval_opponents=[oracle]"], "eval_opponents='oracle' is not valid"),
        (["num_games=0"], "num_games=0 is not valid"),
        (["critic=oracle"], "critic='oracle' is not valid"),
        (["rules={num_van: 3}"], "RuleConfig.num_van=3 is not valid"),
        (["rules={bogus: 1}"], "unknown RuleConfig field(s) ['bogus']: expected some of ["),
    ],
)
def test_a_bad_setting_is_one_line_and_writes_nothing(tmp_path, capsys, settings, message):
    out = tmp_path / "run"
    command = ["train", "--preset", "scratch", "--no-progress", "--out", str(out), "--set"]
    assert main(command + settings) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert not out.exists()


def test_a_lost_rollout_worker_is_one_line_saying_how_to_continue(tmp_path, capsys, monkeypatch):
    from training import batched_ppo
    from training.ray_rollouts import RolloutWorkerLostError

    def lost(*args, **kwargs):
        raise RolloutWorkerLostError("a rollout worker was lost (…): expected every worker …")

    monkeypatch.setattr(batched_ppo, "train", lost)
    out = tmp_path / "run"
    command = ["train", "--preset", "scratch", "--no-progress", "--out", str(out)]
    assert main(command) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"worker …; `env121 train --resume {out}` continues the run" in err


def test_the_training_state_round_trips(tmp_path):
    config = tiny_config(inputs="observation+swap_wins", hint_head=True)
    learner = Learner(config, tmp_path)
    learner.start()
    learner.rollout_and_update(1.0)
    saved = state_tensors(learner.model, learner.optimizer)
    fresh = Learner(config, tmp_path)
    load_state_tensors(fresh.model, fresh.optimizer, saved)
    again = state_tensors(fresh.model, fresh.optimizer)
    assert saved.keys() == again.keys()
    assert all(torch.equal(saved[k], again[k]) for k in saved)
    groups = fresh.optimizer.param_groups
    assert [g["lr"] for g in groups] == [config.learning_rate, 10 * config.learning_rate]


# ------------------------------------------------------------------ Deep Monte-Carlo


def plain_monte_carlo(
    rewards: np.ndarray, values: np.ndarray, successors: np.ndarray, gamma: float
) -> np.ndarray:
    """DMC's target written from its definition: the points from each decision
    to the end of its stream, the value of the first open decision met standing
    in for the rest."""
    out = np.zeros(len(rewards))
    for i in range(len(rewards)):
        total, weight, k = 0.0, 1.0, i
        while True:
            total += weight * rewards[k]
            j = successors[k]
            if j == -1:
                break
            weight *= gamma
            if successors[j] == -2:
                total += weight * values[j]
                break
            k = j
        out[i] = total
    return out


def test_dmc_plays_its_best_legal_action_and_explores_with_epsilon(tmp_path):
    values = torch.tensor([[5.0, 9.0, 1.0, 7.0]] * 400)
    masks = torch.tensor([[True, False, True, True]] * 400)
    masked = values.masked_fill(~masks, -1e9)
    greedy = in_process(Learner(dmc_config(epsilon=0.0), tmp_path)).choose_by_value(masked, masks)
    assert (greedy[0] == 3).all() and (greedy[1] == 0).all() and (greedy[2] == 7.0).all()
    explorer = in_process(Learner(dmc_config(epsilon=1.0), tmp_path))
    played = explorer.choose_by_value(masked, masks)
    chosen = played[0].long()
    assert set(chosen.tolist()) == {0, 2, 3}  # every legal action, never the illegal one
    assert torch.equal(played[2], masked.gather(1, chosen[:, None]).squeeze(1))


def dmc_config(**changes: object) -> Config:
    return tiny_config(method="dmc", critic="observation", **changes)


def test_dmc_targets_are_the_points_that_followed(tmp_path):
    learner = Learner(dmc_config(gamma=0.9, rollout_steps=48), tmp_path)
    learner.start()
    rollout = in_process(learner)
    decisions = rollout.play()
    s, n = rollout.samples, rollout.samples.size
    expected = plain_monte_carlo(s.rewards[:n], s.values[:n], s.successors[:n], 0.9)
    assert len(decisions.rows) > 0 and (s.successors[decisions.rows] == -1).any()
    np.testing.assert_allclose(decisions.returns, expected[decisions.rows], rtol=1e-5, atol=1e-4)
    assert (s.logps[:n] == 0).all()  # no log-probabilities: DMC plays its argmax


def test_a_dmc_update_fits_the_values_of_the_actions_played(tmp_path):
    learner = Learner(dmc_config(learning_rate=3e-3, reward_scale=0.01), tmp_path)
    learner.start()
    decisions = in_process(learner).play()
    losses = [learner.update(decisions)["value_loss"] for _ in range(15)]
    assert losses[-1] < 0.5 * losses[0]
    assert set(learner.update(decisions)) == {"value_loss"}


def test_a_dmc_run_trains_and_its_policy_plays(tmp_path, capsys):
    out = tmp_path / "run"
    command = ["train", "--preset", "dmc", "--no-progress", "--out", str(out), "--set"]
    assert main(command + TINY) == 0
    assert "vs 3× greedy" in capsys.readouterr().out
    from agents.ppo import read_sidecar

    policy = out / "policy.safetensors"
    assert read_sidecar(policy)["training"]["method"] == "dmc"
    from agents.registry import make_agent

    assert make_agent(f"ppo:{policy}").spec.startswith("ppo:")


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (["method=dqn"], "method='dqn' is not valid"),
        (["method=dmc", "critic=perfect"], "critic='perfect' is not valid with method='dmc'"),
        (
            ["method=dmc", "critic=observation", "critic_detached=true"],
            "critic_detached=True is not valid with method='dmc'",
        ),
        (["epsilon=1.5"], "epsilon=1.5 is not valid"),
        (["critic_warmup_steps=-1"], "critic_warmup_steps=-1 is not valid"),
        (
            ["method=dmc", "critic=observation", "critic_warmup_steps=10"],
            "critic_warmup_steps=10 is not valid with method='dmc'",
        ),
        (["anchor_coef=0.1"], "anchor_coef=0.1 is not valid without a start_policy"),
        (["anchor_coef=-1"], "anchor_coef=-1.0 is not valid"),
        (
            ["critic_warmup_steps=10", "vf_coef=0"],
            "critic_warmup_steps=10 is not valid with vf_coef=0",
        ),
    ],
)
def test_a_bad_method_setting_is_one_line_and_writes_nothing(tmp_path, capsys, settings, message):
    test_a_bad_setting_is_one_line_and_writes_nothing(tmp_path, capsys, settings, message)


# ------------------------------------------------------------------ overlapped rollouts


def overlapped_learner(tmp_path, **changes: object) -> Learner:
    learner = Learner(tiny_config(overlap=True, **changes), tmp_path)
    learner.start()
    return learner


@pytest.mark.parametrize(
    "learning", [{}, {"method": "dmc", "critic": "observation", "epsilon": 0.3}], ids=["ppo", "dmc"]
)
def test_the_same_seed_overlapped_trains_the_same_weights(tmp_path, monkeypatch, learning):
    """Whichever of the rollout and the update draws first, the weights are the same."""
    runs = []
    for owner, name in ((Rollout, "play"), (Learner, "update")):  # one of them starts late
        method = getattr(owner, name)

        def later(*args: object, method: Callable[..., object] = method) -> object:
            time.sleep(0.05)
            return method(*args)

        monkeypatch.setattr(owner, name, later)
        learner = overlapped_learner(tmp_path, seed=7, n_epochs=1, **learning)
        try:
            for _ in range(3):
                learner.rollout_and_update(1.0)
        finally:
            learner.close()
        monkeypatch.undo()
        runs.append(learner.model.state_dict())
    assert all(torch.equal(runs[0][k], runs[1][k]) for k in runs[0])


def test_an_overlapped_rollout_draws_none_of_the_learners_numbers(tmp_path):
    """Weights held still (the learning rate annealed to 0): the rollouts played are the same
    however many minibatches the learner draws; matches end, so new tables are drawn."""
    played = []
    for epochs in (1, 3):
        learner = overlapped_learner(tmp_path, n_epochs=epochs, num_games=16, rollout_steps=150)
        try:
            for _ in range(4):
                learner.rollout_and_update(0.0)
        finally:
            learner.close()
        assert learner.played is not None
        played.append((learner.played.actions.copy(), in_process(learner).opponent.copy()))
    np.testing.assert_array_equal(played[0][0], played[1][0])
    np.testing.assert_array_equal(played[0][1], played[1][1])


def test_the_acting_copy_is_one_update_behind(tmp_path):
    learner = overlapped_learner(tmp_path)
    try:
        learner.rollout_and_update(1.0)
        before = {k: v.clone() for k, v in learner.model.state_dict().items()}
        stats = learner.rollout_and_update(1.0)
    finally:
        learner.close()
    acting, now = learner.acting.state_dict(), learner.model.state_dict()
    assert acting.keys() == before.keys()
    assert all(torch.equal(acting[k], before[k]) for k in before)
    assert not all(torch.equal(now[k], before[k]) for k in before)
    assert learner.acting is not learner.model and stats["rollout_seconds"] > 0
    assert learner.steps == 3 * 16 * 64  # the rollout played ahead counts


def test_open_decisions_move_to_the_other_buffer_with_their_points(tmp_path):
    learner = overlapped_learner(tmp_path, table_weights={"self": 1.0})
    rollout = in_process(learner)
    first = rollout.samples
    decisions = rollout.play()
    trained = {k: np.array(getattr(decisions, k)) for k in ("actions", "rewards", "returns")}
    open_rows = rollout.pending >= 0
    points = first.rewards[rollout.pending[open_rows]].copy()
    assert open_rows.any()
    rollout.carry_open()
    second = rollout.samples
    assert second is not first and second.size == int(open_rows.sum())
    carried = rollout.pending[open_rows]
    np.testing.assert_array_equal(second.rewards[carried], points)
    games, seats = np.nonzero(open_rows)
    expected = dict(zip(carried.tolist(), points.tolist(), strict=True))
    for _ in range(16):  # the next rollout, step by step
        before = rollout.pending[games, seats].copy()
        rollout.step()
        paid = rollout.engine.games["rewards"][games, seats]
        for row, was, amount in zip(carried, before, paid, strict=True):
            if was == row and second.successors[row] < 0:  # still its seat's open decision
                expected[int(row)] += float(amount)
    assert [second.rewards[r] for r in carried] == pytest.approx([expected[r] for r in carried])
    assert (second.successors[carried] == -1).any()  # some closed in the next rollout
    assert any(expected[r] != p for r, p in zip(carried.tolist(), points, strict=True))
    for name, values in trained.items():  # the last rollout's decisions are left as they were
        np.testing.assert_array_equal(getattr(decisions, name), values)
    learner.close()


def test_an_overlapped_run_trains_checkpoints_and_resumes(tmp_path):
    out = tmp_path / "run"
    command = ["train", "--preset", "scratch", "--no-progress", "--out", str(out), "--set"]
    assert main([*command, *TINY, "overlap=true", "eval_opponents=[random]"]) == 0
    assert sorted(p.name for p in (out / "checkpoints").iterdir())[-1].endswith("6144")
    assert main(["train", "--resume", str(out), "--no-progress", "--set", "total_steps=8192"]) == 0
    progress = [json.loads(line) for line in (out / "progress.jsonl").read_text().splitlines()]
    steps = [r["step"] for r in progress]
    assert steps == sorted(steps) and steps[-1] >= 8192
    assert all(r["rollout_seconds"] > 0 for r in progress)
    from agents.registry import make_agent

    assert make_agent(f"ppo:{out / 'policy.safetensors'}").spec.startswith("ppo:")


def test_overlap_is_refused_with_rollout_workers():
    with pytest.raises(ValueError, match="overlap=True is not valid with rollout_workers=2"):
        tiny_config(overlap=True, rollout_workers=2).check()


def test_the_overlap_benchmark_splits_each_phases_seconds(tmp_path, capsys):
    from benchmarks.bench_overlap import cycles

    learner = overlapped_learner(tmp_path)
    try:
        learner.rollout_and_update(1.0)
        cycles(learner, 1)
    finally:
        learner.close()
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[2:4] for line in lines] == [
        ["apart:", "rollout"],
        ["apart:", "update"],
        ["beside:", "rollout"],
        ["beside:", "update"],
    ]
    assert all("on a core" in line and "blocked" in line for line in lines)
