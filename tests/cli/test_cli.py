"""The ``env121`` command as users expect it: help, version, defaults in every
help, the presets, one set of rule options, ``score`` without a Chỉ Điểm."""

from __future__ import annotations

import argparse
import dataclasses

import pytest

import env121
from apps.cli import main
from apps.cli.app import build_parser
from apps.cli.options import add_rule_options, rule_config
from apps.cli.tournament import build_parser as tournament_parser
from env121.engine.records import load
from env121.rules.config import RuleConfig
from training import available_presets

HAND = "GEN/FR GEN/BB GEN/LP ASA/FR ASA/BB ASA/LP"


def subcommand_parsers() -> dict[str, argparse.ArgumentParser]:
    """Every ``env121`` subcommand's parser (``tournament``'s is the arena's)."""
    commands = next(
        action
        for action in build_parser()._actions
        if isinstance(action, argparse._SubParsersAction)
    )
    parsers = dict(commands.choices)
    parsers["tournament"] = tournament_parser()
    return parsers


def flat(text: str) -> str:
    """``text`` with every run of whitespace one space (help is wrapped)."""
    return " ".join(text.split())


def test_env121_alone_prints_the_help(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: env121")
    for command in ("score", "play", "replay", "tournament", "train", "imitate"):
        assert command in out


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"env121 {env121.__version__}\n"


@pytest.mark.parametrize("command", ["score", "play", "replay", "tournament", "train", "imitate"])
def test_every_help_shows_the_defaults(command, capsys):
    parser = subcommand_parsers()[command]
    text = flat(parser.format_help())
    for action in parser._actions:
        default = action.default
        if default is None or default == [] or default is argparse.SUPPRESS:
            continue
        if action.nargs == 0 and not isinstance(action, argparse.BooleanOptionalAction):
            continue  # a plain flag: off unless given
        if isinstance(default, frozenset):  # --left-figures is given (and shown) as codes
            continue
        assert f"(default: {default})" in text, action.option_strings


def test_train_help_lists_every_preset():
    text = flat(subcommand_parsers()["train"].format_help())
    presets = available_presets()
    assert {"tiny", "small", "default", "hinted", "searched"} <= set(presets)
    assert ", ".join(presets) in text


def rule_options(parser: argparse.ArgumentParser) -> set[str]:
    group = next(g for g in parser._action_groups if g.title == "rule variants")
    return {flag for action in group._group_actions for flag in action.option_strings}


def test_play_takes_the_rule_options_of_tournament():
    parsers = subcommand_parsers()
    assert rule_options(parsers["play"]) == rule_options(parsers["tournament"])
    assert {"--num-van", "--payment-rounding", "--no-mask-invalid-win"} <= rule_options(
        parsers["play"]
    )
    assert rule_options(parsers["score"]) < rule_options(parsers["play"])


def test_every_rule_variant_is_an_option_and_builds_its_config():
    parser = argparse.ArgumentParser()
    add_rule_options(parser)
    assert rule_config(parser.parse_args([])) == RuleConfig()
    argv = [
        "--left-figures=gen,ins,mer,gei,mon",
        "--phe-phe-same-suits",
        "--no-nhat-ban-requires-wait",
        "--no-mask-invalid-win",
        "--payment-rounding=hundreds",
        "--num-van=2",
        "--starting-points=3000",
        "--carry-scores",
        "--max-actions-per-vong=none",
        "--no-the-trang-asks-every-seat",
    ]
    config = rule_config(parser.parse_args(argv))
    expected = RuleConfig(
        left_figures=frozenset({1, 2, 3, 4, 6}),
        phe_phe_same_suits=True,
        nhat_ban_requires_wait=False,
        mask_invalid_win=False,
        payment_rounding="hundreds",
        num_van=2,
        starting_points=3000,
        carry_scores=True,
        max_actions_per_vong=None,
        the_trang_asks_every_seat=False,
    )
    assert config == expected
    fields = [f.name for f in dataclasses.fields(RuleConfig)]
    assert all(getattr(config, n) != getattr(RuleConfig(), n) for n in fields)  # each one set


def test_play_plays_under_the_rule_options(capsys, tmp_path):
    path = tmp_path / "g.json"
    argv = ["play", "--seed", "3", "--num-van", "2", "--starting-points", "3000"]
    assert main([*argv, "--json", str(path)]) == 0
    capsys.readouterr()
    config = load(path).config
    assert (config.num_van, config.starting_points) == (2, 3000)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--starting-points", "0"], "RuleConfig.starting_points=0 is not valid"),
        (["--left-figures", "GEN,INS"], "RuleConfig.left_figures"),
        (["--left-figures", "GEN,FOO"], "FOO is not a regular figure"),
        (["--num-van", "3"], "invalid choice: 3"),
    ],
)
def test_a_bad_rule_option_is_named(argv, message, capsys):
    status: int | str | None
    try:
        status = main(["play", "--seed", "1", *argv])
    except SystemExit as exit_:  # argparse's own errors
        status = exit_.code
    assert status == 2
    assert message in capsys.readouterr().err


def test_tournament_plays_under_the_rule_options(tmp_path, capsys):
    import tests.support.arena_agents  # noqa: F401  # registers coin

    argv = ["tournament", "--vs", "random", "coin", "--deals", "1", "--quiet", "--no-plot"]
    assert main([*argv, "--out", str(tmp_path), "--payment-rounding", "hundreds"]) == 0
    assert '"payment_rounding": "hundreds"' in (tmp_path / "results.json").read_text()
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", "--pool", "random,coin", "--starting-points", "-1"])
    assert exit_.value.code == 2
    assert "starting_points=-1 is not valid" in capsys.readouterr().err


def test_score_without_chi_diem_says_what_it_leaves_out(capsys):
    assert main(["score", HAND]) == 0
    out = capsys.readouterr().out
    assert "Chỉ Điểm:  not given: no indicator points" in out
    assert "indicator:" not in out and "total:     7 Điểm" in out
    assert main(["score", HAND, "--chi-diem", "ASA/KY", "--an-si", "CRE/FR"]) == 0
    out = capsys.readouterr().out
    assert "indicator: ASA/KY" in out and "total:     9 Điểm" in out


def test_score_an_si_without_chi_diem_is_an_error(capsys):
    assert main(["score", HAND, "--an-si", "CRE/FR"]) == 2
    assert "--an-si needs --chi-diem" in capsys.readouterr().err
