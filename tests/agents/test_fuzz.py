"""Fuzzing the ``ppo:`` checkpoint's JSON sidecar (:mod:`agents.ppo`).

A sidecar mutated in any way — a field deleted, added or given any JSON
value (the network's shape and the layout fingerprints included), its text
truncated or garbled, its bytes random — either still describes the weights
beside it (and the policy loads with exactly those weights) or is refused
with one :class:`CheckpointMismatchError` naming the file.
"""

from __future__ import annotations

import copy
import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.ppo import PolicyNetwork, load_policy, save_policy
from agents.weights import CheckpointMismatchError, sidecar_path
from tests.support.fuzz import json_values

SHAPES: tuple[dict[str, Any], ...] = (
    {"hidden_sizes": [4], "activation": "tanh"},
    {"hidden_sizes": [3, 2], "activation": "relu", "inputs": "observation+greedy_hints"},
    {"hidden_sizes": [2], "activation": "tanh", "inputs": "observation+search_hints",
     "hint_head": True},
)  # fmt: skip
"""Small networks of every kind of input (a hint head too): quick to save and load."""


@pytest.fixture(scope="module")
def checkpoints(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[list[tuple[Path, str, dict[str, torch.Tensor]]]]:
    """Per shape: the checkpoint, its sidecar's text, and the weights saved."""
    directory = tmp_path_factory.mktemp("checkpoints")
    made = []
    for i, shape in enumerate(SHAPES):
        torch.manual_seed(i)
        weights = PolicyNetwork(**shape).state_dict()
        path = save_policy(directory / f"net{i}.safetensors", weights, **shape)
        made.append((path, sidecar_path(path).read_text(encoding="utf-8"), weights))
    yield made


def _loaded_or_refused(path: Path, weights: dict[str, torch.Tensor]) -> None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a different env121_version only warns
            network, _meta = load_policy(path)
    except CheckpointMismatchError as error:
        assert str(path) in str(error) or str(sidecar_path(path)) in str(error), error
        return
    loaded = network.state_dict()
    assert loaded.keys() == weights.keys()
    assert all(torch.equal(loaded[k], weights[k]) for k in weights)


@settings(max_examples=200)
@given(st.integers(0, len(SHAPES) - 1), st.data())
def test_a_sidecar_with_any_field_changed_loads_the_same_weights_or_is_refused(
    checkpoints: list[tuple[Path, str, dict[str, torch.Tensor]]], which: int, data: st.DataObject
) -> None:
    path, text, weights = checkpoints[which]
    meta: dict[str, Any] = json.loads(text)
    target = meta["network"] if data.draw(st.booleans()) else meta
    for _ in range(data.draw(st.integers(1, 2))):
        key = data.draw(st.sampled_from([*target, "extra"]))
        if data.draw(st.integers(0, 3)) == 0:
            target.pop(key, None)
        else:
            sizes = st.lists(st.integers(-2, 2**40), max_size=3)
            target[key] = data.draw(json_values | sizes | st.sampled_from([True, "relu", 2491]))
    sidecar_path(path).write_text(json.dumps(meta), encoding="utf-8")
    _loaded_or_refused(path, weights)


@settings(max_examples=100)
@given(st.integers(0, len(SHAPES) - 1), st.data())
def test_a_garbled_or_cut_sidecar_is_refused_or_still_right(
    checkpoints: list[tuple[Path, str, dict[str, torch.Tensor]]], which: int, data: st.DataObject
) -> None:
    path, text, weights = checkpoints[which]
    if data.draw(st.booleans()):
        content = text.encode()[: data.draw(st.integers(0, len(text) - 2))]
    elif data.draw(st.booleans()):
        content = data.draw(st.binary(max_size=64))
    else:
        at = data.draw(st.integers(0, len(text)))
        garbage = data.draw(st.text(max_size=3) | st.sampled_from(list('{}[]",:0123456789')))
        content = (text[:at] + garbage + text[at + data.draw(st.integers(0, 2)) :]).encode()
    sidecar_path(path).write_bytes(content)
    _loaded_or_refused(path, weights)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda m: m.update(network=[]), r"network \[\] is not valid: expected an object"),
        (lambda m: m["network"].update(activation=[]), "activation and inputs names"),
        (lambda m: m["network"].update(hidden_sizes=[-3]), "positive integers"),
        (lambda m: m["network"].update(hidden_sizes=[2**40]), "tensors do not fit"),
        (lambda m: m["network"].update(inputs="hints"), "inputs='hints' is not valid"),
    ],
    ids=["network_list", "activation_list", "negative_size", "huge_size", "unknown_inputs"],
)
def test_a_bad_network_in_the_sidecar_is_one_mismatch_error(
    checkpoints: list[tuple[Path, str, dict[str, torch.Tensor]]], change: Any, message: str
) -> None:
    # Found by fuzzing: these raised AttributeError, TypeError, torch's
    # RuntimeError, and a plain ValueError not naming the file; a huge hidden
    # size was allocated before the shapes were compared.
    path, text, _weights = checkpoints[0]
    meta = copy.deepcopy(json.loads(text))
    change(meta)
    sidecar_path(path).write_text(json.dumps(meta), encoding="utf-8")
    with pytest.raises(CheckpointMismatchError, match=message):
        load_policy(path)


@pytest.mark.parametrize(
    "content", [b"\xff\xfe{}", b"[" * 100_000], ids=["not_utf8", "nested_too_deep"]
)
def test_a_sidecar_that_is_not_json_text_is_one_mismatch_error(
    checkpoints: list[tuple[Path, str, dict[str, torch.Tensor]]], content: bytes
) -> None:
    # Found by fuzzing: UnicodeDecodeError and RecursionError escaped.
    path = checkpoints[0][0]
    sidecar_path(path).write_bytes(content)
    with pytest.raises(CheckpointMismatchError, match="is not valid JSON"):
        load_policy(path)
