"""training.expert_iteration: a generation plays, fits and measures; a killed run resumes
where it stopped; the next generation's teacher searches with the last network."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
import torch

from agents.ppo import load_policy, network_shape, resolve_checkpoint
from apps.cli import main
from training import expert_iteration as ei
from training import imitation
from training.checkpoint import Network, load_actor, policy_state_dict
from training.imitation import collect, make_policy

# One worker under `pytest -n --dist loadgroup`: the run below is played once,
# not once on each worker that runs one of the tests reading it.
pytestmark = pytest.mark.xdist_group("expert_iteration_run")

TINY = [
    "generations=1",
    "matches=10",
    "worlds=4",
    "epochs=1",
    "eval_deals=2",
    "value=none",
]


def tiny_config(**changes: object) -> ei.ExpertConfig:
    config = ei.load_config("expert", TINY)
    for key, value in changes.items():
        setattr(config, key, value)
    config.check()
    return config


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("expert") / "run"
    ei.run(tiny_config(), out, on_line=lambda _: None)
    return out


def test_a_generation_writes_its_stages_and_one_curve_row(run_dir):
    folder = ei.generation_dir(run_dir, 1)
    for name in ("demonstrations.npz", "policy.safetensors", "fit.json", "evaluation.json"):
        assert (folder / name).is_file(), name
    (row,) = [json.loads(line) for line in (run_dir / ei.GENERATIONS_LOG).read_text().splitlines()]
    assert row["generation"] == 1
    assert row["teacher"] == "search:net=scratch,value=none,worlds=4,budget_ms=0"
    for key in ("search_vs_greedy", "search_vs_mc", "search_vs_last", "net_vs_greedy"):
        mean, low, high = row[key]
        assert low <= mean <= high
    network, _ = load_policy(folder / "policy.safetensors")
    assert network.inputs == "observation+swap_wins+nb_wins"  # the prior's (scratch's) shape


def test_the_demonstrations_are_the_teachers_self_play(run_dir):
    config = tiny_config()
    saved = ei.load_demonstrations(ei.generation_dir(run_dir, 1) / "demonstrations.npz")
    again = collect(
        config.teacher(config.first_net), 10, 0, 0.7, 1, "observation+swap_wins+nb_wins"
    )
    assert len(saved) == len(again)
    np.testing.assert_array_equal(saved.actions, again.actions)
    np.testing.assert_array_equal(saved.observations, again.observations)


def test_a_killed_run_redoes_only_the_missing_stage_then_goes_on(run_dir, tmp_path):
    out = tmp_path / "copy"
    import shutil

    shutil.copytree(run_dir, out)
    folder = ei.generation_dir(out, 1)
    demos_stamp = (folder / "demonstrations.npz").stat().st_mtime_ns
    policy_stamp = (folder / "policy.safetensors").stat().st_mtime_ns
    (folder / "evaluation.json").unlink()  # killed while measuring
    (out / ei.GENERATIONS_LOG).unlink()
    result = ei.run(None, out, resume=True, overrides=["generations=2"], on_line=lambda _: None)
    assert [row["generation"] for row in result.generations] == [1, 2]
    assert (folder / "demonstrations.npz").stat().st_mtime_ns == demos_stamp
    assert (folder / "policy.safetensors").stat().st_mtime_ns == policy_stamp
    second = result.generations[1]
    assert second["teacher"].startswith(f"search:net={folder / 'policy.safetensors'},")
    assert (ei.generation_dir(out, 2) / "policy.safetensors").is_file()


def test_a_corrupt_demonstrations_file_is_one_line(tmp_path):
    path = tmp_path / "demonstrations.npz"
    path.write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="is not valid: not a demonstrations file"):
        ei.load_demonstrations(path)


def test_demonstrations_written_before_the_search_fields_load_as_hard_targets(run_dir, tmp_path):
    demos = ei.load_demonstrations(ei.generation_dir(run_dir, 1) / "demonstrations.npz")
    assert (~np.isnan(demos.log_priors[:, 0])).any()  # the search's rows keep what it saw
    old = tmp_path / "old.npz"
    kept = {n: getattr(demos, n) for n in imitation.FIELDS if n not in imitation.SEARCH_FIELDS}
    np.savez_compressed(old, **kept)
    loaded = ei.load_demonstrations(old)
    assert np.isnan(loaded.log_priors).all() and np.isnan(loaded.gains).all()
    assert np.array_equal(imitation.targets(loaded, 10.0), imitation.targets(demos))


def test_the_temperature_reaches_the_fit(run_dir, tmp_path, monkeypatch):
    temperatures: list[float] = []

    def fit(*args, **kwargs):
        temperatures.append(kwargs["temperature"])
        return imitation.fit(*args, **kwargs)

    monkeypatch.setattr(ei, "fit", fit)
    names = ("search_vs_greedy", "search_vs_mc", "search_vs_last", "net_vs_greedy")
    monkeypatch.setattr(ei, "measure", lambda *_: {key: [0.0, 0.0, 0.0] for key in names})
    out = tmp_path / "run"
    (out / "gen-001").mkdir(parents=True)
    shutil.copy(ei.generation_dir(run_dir, 1) / "demonstrations.npz", out / "gen-001")
    ei.run(tiny_config(temperature=10.0), out, on_line=lambda _: None)
    assert temperatures == [10.0]


@pytest.mark.parametrize(
    ("setting", "named"),
    [
        ("matches=5", "matches=5"),
        ("worlds=0", "worlds=0"),
        ("eval_deals=1", "eval_deals=1"),
        ("first_net=nope", "nope"),
        ("ray=true jobs=2", "jobs=2 is not valid with ray=true: expected jobs=1"),
        ("temperature=-1", "temperature=-1.0 is not valid: expected a number ≥ 0"),
    ],
)
def test_bad_settings_are_refused_before_any_work(setting, named, tmp_path, capsys):
    out = tmp_path / "run"
    command = ["train", "--preset", "expert", "--set", *TINY, *setting.split()]
    code = main([*command, "--out", str(out)])
    assert code == 2
    assert named in capsys.readouterr().err
    assert not out.exists()


def test_the_prior_loads_into_the_actor_it_is_fine_tuned_from():
    prior, meta = load_policy(resolve_checkpoint("scratch"))
    policy = make_policy(Network(**network_shape(meta)))
    load_actor(policy, prior)
    exported = policy_state_dict(policy)
    assert exported.keys() == prior.state_dict().keys()
    for key, value in prior.state_dict().items():
        assert torch.equal(exported[key], value), key


def test_a_new_run_into_a_run_directory_or_a_resume_of_nothing_is_one_line(run_dir, tmp_path):
    with pytest.raises(ValueError, match="already holds a run: continue it with --resume"):
        ei.run(tiny_config(), run_dir, on_line=lambda _: None)
    with pytest.raises(ValueError, match="is not valid: it does not exist"):
        ei.run(None, tmp_path / "nothing", resume=True, on_line=lambda _: None)


def test_a_match_lost_on_ray_is_one_line_saying_how_to_continue(monkeypatch, tmp_path, capsys):
    def lost(*args, **kwargs):
        raise imitation.MatchLostError("the self-play match of seed 0 was lost (…)")

    monkeypatch.setattr(ei, "collect", lost)
    out = tmp_path / "run"
    assert main(["train", "--preset", "expert", "--set", *TINY, "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"seed 0 was lost (…); `env121 train --resume {out}` continues the run" in err
    assert (out / "config.yaml").is_file()  # the run is there to be continued
