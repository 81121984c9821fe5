"""agents.warmup: a command compiles only the kernel families its agents use."""

from __future__ import annotations

import pytest

from agents import warmup
from agents.warmup import FAMILIES, families_for, warm_kernels
from apps.cli import main


@pytest.mark.parametrize(
    ("specs", "families"),
    [
        (["greedy", "random"], ("engine", "greedy")),
        (["random"], ("engine",)),
        (["ppo:small", "greedy"], ("engine", "greedy", "observation", "hints")),
        (["mc:budget=8", "random"], ("engine", "reference", "mc")),
    ],
    ids=["greedy_random", "random", "ppo", "mc"],
)
def test_the_families_of_a_lineup(specs, families):
    assert families_for(specs) == families


def test_an_unknown_family_is_refused_before_any_compile():
    with pytest.raises(ValueError, match=r"no kernel family \['trainer'\]: expected some of"):
        warm_kernels(("engine", "trainer"))


def test_a_tournament_of_greedy_and_random_warms_neither_the_trainers_nor_mcs_kernels(
    monkeypatch, tmp_path
):
    """It warmed every family (the network's inputs and observation, the Python
    engine's): 92 s of CPU on a first run, where the games need a third of it."""
    asked: list[tuple[str, ...]] = []

    def record(families: tuple[str, ...] = tuple(FAMILIES)) -> float:
        asked.append(tuple(families))
        return 0.0

    monkeypatch.setattr(warmup, "warm_kernels", record)
    argv = ["tournament", "--vs", "greedy", "random", "--deals", "1", "--num-van", "1"]
    assert main([*argv, "--quiet", "--no-plot", "--out", str(tmp_path / "run")]) == 0
    assert asked == [("engine", "greedy")]
