"""RuleConfig: spec defaults, validation, round trip through a record dict."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from env121.rules.config import RuleConfig


def test_defaults_are_the_specs() -> None:
    config = RuleConfig()
    assert config.left_figures == frozenset({1, 2, 3, 4, 5})
    assert config.right_figures == frozenset({6, 7, 8, 9, 10})
    assert config.phe_phe_same_suits is False
    assert config.nhat_ban_requires_wait is True
    assert config.mask_invalid_win is True  # §5.7
    assert config.payment_rounding == "exact"
    assert config.num_van == 1  # §5.1
    assert config.starting_points == 2500
    assert config.carry_scores is False
    assert config.max_actions_per_vong == 4000  # §8


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("left_figures", {1, 2, 3, 4}),
        ("left_figures", {0, 1, 2, 3, 4}),
        ("left_figures", {1, 2, 3, 4, 11}),
        ("left_figures", 5),
        ("phe_phe_same_suits", "yes"),
        ("nhat_ban_requires_wait", 1),
        ("mask_invalid_win", None),
        ("carry_scores", "no"),
        ("payment_rounding", "round"),
        ("num_van", 3),
        ("num_van", True),
        ("starting_points", 0),
        ("max_actions_per_vong", 0),
        ("max_actions_per_vong", 2.5),
    ],
)
def test_bad_values_name_the_field_and_what_is_expected(field: str, value: Any) -> None:
    with pytest.raises(ValueError, match=rf"RuleConfig\.{field}=.*expected"):
        RuleConfig(**{field: value})


def test_left_figures_accepts_any_set_and_freezes_it() -> None:
    config = RuleConfig(left_figures={6, 7, 8, 9, 10})  # type: ignore[arg-type]
    assert config.left_figures == frozenset({6, 7, 8, 9, 10})
    assert hash(config) == hash(RuleConfig(left_figures=frozenset({6, 7, 8, 9, 10})))


def test_dict_round_trip() -> None:
    config = RuleConfig(
        left_figures=frozenset({2, 4, 6, 8, 10}), num_van=4, max_actions_per_vong=None
    )
    assert RuleConfig.from_dict(config.to_dict()) == config


def test_unknown_field_in_dict_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown RuleConfig field"):
        RuleConfig.from_dict({"num_van": 2, "no_such_rule": True})


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"left_figures": [[1]]}, r"RuleConfig\.left_figures=\[\[1\]\] is not valid"),
        ({"left_figures": {"a": 1}}, r"RuleConfig\.left_figures=\{'a': 1\} is not valid"),
        ({1: 2, "no_such_rule": 3}, r"unknown RuleConfig field\(s\) \['no_such_rule', 1\]"),
    ],
    ids=["unhashable_figures", "figures_as_object", "key_not_a_string"],
)
def test_from_dict_names_what_is_wrong_with_any_dict(data: dict[Any, Any], message: str) -> None:
    # Found by fuzzing: these raised TypeError (a list of lists made into a set,
    # string and int keys sorted together).
    with pytest.raises(ValueError, match=message):
        RuleConfig.from_dict(data)


def test_pickle_leaves_the_cached_hash_behind() -> None:
    config = RuleConfig(payment_rounding="hundreds")
    hash(config)
    copy = pickle.loads(pickle.dumps(config))
    assert copy == config
    assert "_hash" not in copy.__dict__
    assert hash(copy) == hash(config)
