"""training.ppo_selfplay: presets, the CLI, the pool growing, resume, evaluation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from apps.cli import main
from tests.support.training_helpers import TINY, tiny_run
from training import available_presets
from training.checkpoint import load_training_state
from training.pool import read_manifest
from training.ppo_selfplay import (
    load_config,
    make_model,
    make_vec_env,
    run_directory,
    train,
)


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_the_presets_ship():
    assert {"tiny", "small", "default", "hinted", "searched", "scratch"} <= set(available_presets())


@pytest.mark.parametrize("preset", ["tiny", "small", "default", "hinted", "searched"])
def test_each_preset_runs_with_a_tiny_budget(tmp_path, preset):
    # 192 steps per environment: long enough for a match (~150 learner steps) to end.
    result = tiny_run(tmp_path / preset, preset, "total_timesteps=384")
    files = run_directory(result.out)
    assert result.num_timesteps == 384
    assert files.policy.is_file() and files.latest_checkpoint() is not None
    rows = files.log_rows()
    assert [row["step"] for row in rows] == [128, 256, 384]
    assert {"episode_return", "win_rate_per_vong", "pool_size"} <= set(rows[-1])


def test_the_cli_trains_and_rejects_bad_settings(tmp_path, capsys):
    out = tmp_path / "cli"
    assert (
        main(["train", "--preset", "tiny", "--out", str(out), "--no-progress", "--set", *TINY]) == 0
    )
    assert f"ppo:{out / 'policy.safetensors'}" in capsys.readouterr().out
    assert (out / "curves.png").is_file()
    assert main(["train", "--preset", "tiny", "--set", "n_stesp=64"]) == 2
    assert "'n_stesp' is not a config field" in capsys.readouterr().err
    assert main(["train", "--preset", "tiny", "--set", "n_envs=two"]) == 2
    assert "n_envs='two' is not valid: expected int" in capsys.readouterr().err
    assert main(["train", "--preset", "tiny", "--set", "rules={bogus: 1}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "unknown RuleConfig field(s) ['bogus']: expected some of [" in err
    assert main(["train", "--preset", "tiny", "--resume", str(out)]) == 2
    assert "--preset and --resume exclude each other" in capsys.readouterr().err
    assert main(["train", "--preset", "tiny", "--out", str(out), "--set", *TINY]) == 2
    assert "already holds a run" in capsys.readouterr().err


def test_resume_continues_the_step_count_and_the_weights(tmp_path):
    out = tmp_path / "run"
    first = tiny_run(out)
    files = run_directory(out)
    saved = files.latest_checkpoint()
    assert first.num_timesteps == 256 and saved is not None
    config = load_config(files.config)
    env = make_vec_env(config, files.pool)
    try:
        model = make_model(config, env)
        load_training_state(model, saved)
    finally:
        env.close()
    assert model.num_timesteps == 256
    second = train(resume=out, overrides=["total_timesteps=512"])
    assert second.num_timesteps == 512
    latest = run_directory(out).latest_checkpoint()
    assert latest is not None and latest.name == "step_000000000512"
    steps = [row["step"] for row in files.log_rows()]
    assert steps == [128, 256, 384, 512]
    assert load_config(files.config).total_timesteps == 512  # the override is recorded
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match=r"no config\.yaml"):
        train(resume=tmp_path / "empty")


def test_the_pool_grows_on_schedule_and_when_the_learner_beats_it(tmp_path):
    result = tiny_run(tmp_path / "schedule", "tiny", "total_timesteps=384", "pool_max_size=10")
    snapshots, _ = read_manifest(run_directory(result.out).pool)
    assert [(s.step, s.reason) for s in snapshots] == [
        (0, "initial"),
        (128, "schedule"),
        (256, "schedule"),
        (384, "schedule"),
    ]
    beat = (
        "snapshot_every=0",
        "snapshot_beat_threshold=0.01",
        "snapshot_beat_window=1",
        "snapshot_min_gap=64",
        "opponent_weights={pool: 1.0}",
    )
    result = tiny_run(tmp_path / "beat", "tiny", "total_timesteps=896", *beat)
    snapshots, _ = read_manifest(run_directory(result.out).pool)
    reasons = [s.reason for s in snapshots]
    assert reasons[0] == "initial" and "beat_pool" in reasons
    rows = run_directory(result.out).log_rows()
    assert "beat_rate_vs_pool" in rows[-1]


def test_evaluations_are_logged_and_the_best_policy_kept(tmp_path):
    evaluate = ("eval_every=128", "eval_deals=2", "eval_opponent=random", "eval_jobs=1")
    result = tiny_run(tmp_path / "eval", "tiny", *evaluate)
    files = run_directory(result.out)
    assert [row["step"] for row in result.evaluations] == [128, 256]
    row = result.evaluations[-1]
    assert row["opponent"] == "random" and row["clusters"] == 2
    assert row["low"] <= row["advantage"] <= row["high"]
    assert {"win_rate", "points_per_van"} <= set(row["metrics"])
    assert files.eval_csv.read_text().splitlines()[0].startswith("step,opponent,deals,advantage")
    best = json.loads(files.best.with_suffix(".json").read_text())
    assert best["weights"] == "best.safetensors"
    assert best["training"]["evaluation"]["advantage"] == max(
        r["advantage"] for r in result.evaluations
    )


def test_a_batched_run_checkpoints_and_resumes(tmp_path):
    batched = ("vec_env=batched", "n_envs=4", "opponent_weights={pool: 0.5, random: 0.5}")
    first = tiny_run(tmp_path / "batched", "tiny", *batched, "total_timesteps=768")
    files = run_directory(first.out)
    assert first.num_timesteps == 768 and files.policy.is_file()
    assert load_config(files.config).vec_env == "batched"
    rows = files.log_rows()
    assert [row["step"] for row in rows] == [256, 512, 768]
    assert {"episode_return", "win_rate_per_vong", "beat_rate_vs_random"} <= set(rows[-1])
    snapshots, retired = read_manifest(files.pool)
    assert [s.step for s in retired + snapshots] == [0, 128, 256, 384, 512, 640, 768]
    second = train(resume=first.out, overrides=["total_timesteps=1024"])
    assert second.resumed_from == files.checkpoints.path(768)
    assert second.num_timesteps == 1024
    latest = files.latest_checkpoint()
    assert latest is not None and latest.name == "step_000000001024"


@pytest.mark.parametrize(
    ("preset", "setting", "refusal"),
    [
        ("hinted", "vec_env=batched", "vec_env='batched' is not valid with inputs="),
        ("tiny", "opponent_weights={oracle: 1.0}", "vec_env='batched' is not valid with opponent"),
    ],
)
def test_the_batched_engine_refuses_what_it_cannot_play(preset, setting, refusal):
    with pytest.raises(ValueError, match=refusal):
        load_config(preset, ["vec_env=batched", setting])
