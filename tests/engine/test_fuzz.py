"""Fuzzing the game records (:mod:`env121.engine.records`).

A record mutated in any way — its text truncated or garbled, its bytes
random, a field deleted, added or given any JSON value, its actions changed,
reordered or cut — is either replayed into a sound state or refused with one
:class:`RecordError` naming the source; no other exception ever escapes.
Where the mutation keeps the meaning (keys reordered, actions cut short) the
replay is checked against the original match.
"""

from __future__ import annotations

import copy
import json
import re
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from env121.engine.deal import Deal
from env121.engine.game import apply, legal_actions, new_game
from env121.engine.records import RecordError, load, loads, replay, to_record
from env121.engine.state import State
from env121.engine.validate import validate
from env121.rules.cards import NUM_CARDS
from env121.rules.config import RuleConfig
from tests.support.fuzz import json_values

SOURCE = "fuzzed.json"
ACTION_INDEX = re.compile(r"action at index (\d+):")


def _played(state: State, actions: int, seed: int) -> State:
    rng = np.random.default_rng(seed)
    for _ in range(actions):
        legal = legal_actions(state)
        apply(state, legal[int(rng.integers(len(legal)))])
    return state


def _first_deal() -> Deal:
    return Deal.from_deck(np.random.default_rng(3).permutation(NUM_CARDS).tolist(), dealer=0)


MATCHES = (
    _played(new_game(5), 150, seed=5),
    _played(
        new_game(
            11,
            RuleConfig(num_van=2, payment_rounding="hundreds", mask_invalid_win=False),
            rotation=1,
            first_deal=_first_deal(),
        ),
        90,
        seed=11,
    ),
)
"""Two matches part-played: the default rules; other rules, a rotation and a first deal."""
RECORDS = tuple(to_record(state) for state in MATCHES)
TEXTS = tuple(json.dumps(record, ensure_ascii=False) for record in RECORDS)


def _replayed_or_refused(text: str) -> State | None:
    """The state ``text`` replays to (checked sound), or None if it is refused
    with a RecordError naming the source."""
    try:
        state = loads(text, source=SOURCE)
    except RecordError as error:
        assert str(error).startswith(f"{SOURCE}: "), error
        return None
    validate(state)
    return state


def _refused_at(text: str) -> int | None:
    """The action index a refusal names (None when it names no action or none)."""
    try:
        loads(text, source=SOURCE)
    except RecordError as error:
        found = ACTION_INDEX.search(str(error))
        return int(found.group(1)) if found else -1
    return None


# ------------------------------------------------------------------------ text


@settings(max_examples=100)
@given(st.sampled_from(range(len(TEXTS))), st.data())
def test_a_truncated_record_is_refused_as_json(which: int, data: st.DataObject) -> None:
    text = TEXTS[which]
    cut = data.draw(st.integers(0, len(text) - 1))
    try:
        loads(text[:cut], source=SOURCE)
    except RecordError as error:
        assert str(error).startswith(f"{SOURCE}: not valid JSON")
    else:
        raise AssertionError(f"a record cut at {cut} of {len(text)} was replayed")


@settings(max_examples=150)
@given(st.sampled_from(TEXTS), st.data())
def test_a_garbled_record_text_is_replayed_or_refused(text: str, data: st.DataObject) -> None:
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text)))
        garbage = data.draw(st.text(max_size=3) | st.sampled_from(list('{}[]",:0123456789-')))
        cut = data.draw(st.integers(0, 2))
        text = text[:at] + garbage + text[at + cut :]
    _replayed_or_refused(text)


@settings(max_examples=60)
@given(st.binary(max_size=200) | st.sampled_from(TEXTS).map(str.encode).map(lambda b: b[:-7]))
def test_a_record_file_of_any_bytes_is_replayed_or_refused(content: bytes) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "record.json"
        path.write_bytes(content)
        try:
            load(path)
        except RecordError as error:
            assert str(error).startswith(f"{path}: ")


# ------------------------------------------------------------------ structure


def _reordered(value: Any, data: st.DataObject) -> Any:
    if isinstance(value, dict):
        keys = data.draw(st.permutations(list(value)))
        return {key: _reordered(value[key], data) for key in keys}
    return value


@settings(max_examples=40)
@given(st.sampled_from(range(len(RECORDS))), st.data())
def test_reordered_keys_replay_the_same_match(which: int, data: st.DataObject) -> None:
    text = json.dumps(_reordered(RECORDS[which], data), ensure_ascii=False)
    assert loads(text, source=SOURCE) == MATCHES[which]


@settings(max_examples=40)
@given(st.sampled_from(range(len(RECORDS))), st.data())
def test_a_record_cut_short_replays_the_start_of_the_match(which: int, data: st.DataObject) -> None:
    record = copy.deepcopy(RECORDS[which])
    actions = record["actions"]
    cut = data.draw(st.integers(0, len(actions)))
    record["actions"] = actions[:cut]
    state = replay(record, source=SOURCE)
    validate(state)
    for action in actions[cut:]:
        apply(state, action)
    assert state == MATCHES[which]


@settings(max_examples=150)
@given(st.sampled_from(range(len(RECORDS))), st.data())
def test_changed_actions_are_replayed_or_refused_where_they_diverge(
    which: int, data: st.DataObject
) -> None:
    record = copy.deepcopy(RECORDS[which])
    actions: list[Any] = record["actions"]
    how = data.draw(st.sampled_from(["replace", "swap", "shuffle", "insert", "delete"]))
    first = data.draw(st.integers(0, len(actions) - 1))
    if how == "replace":
        actions[first] = data.draw(st.integers(-2, 140) | json_values)
    elif how == "swap":
        other = data.draw(st.integers(first, len(actions) - 1))
        actions[first], actions[other] = actions[other], actions[first]
    elif how == "shuffle":
        actions[first:] = data.draw(st.permutations(actions[first:]))
    elif how == "insert":
        actions.insert(first, data.draw(st.integers(0, 130)))
    else:
        del actions[first]
    refused_at = _refused_at(json.dumps(record))
    assert refused_at is None or refused_at >= first


@settings(max_examples=200)
@given(st.sampled_from(RECORDS), st.data())
def test_any_field_given_any_value_is_replayed_or_refused(
    record: dict[str, Any], data: st.DataObject
) -> None:
    record = copy.deepcopy(record)
    where = data.draw(st.sampled_from(["record", "config", "first_deal"]))
    target = record if where == "record" else record[where]
    if not isinstance(target, dict):  # the default-rules record has no first deal
        target = record
    key = data.draw(st.sampled_from([*target, "actions_", ""]))
    if data.draw(st.booleans()) and key in target:
        del target[key]
    elif key == "hands" and data.draw(st.booleans()):  # a card moved, swapped or cased
        hands = target["hands"]
        seat = data.draw(st.integers(0, len(hands) - 1))
        hands[seat] = " ".join(data.draw(st.permutations(hands[seat].lower().split())))
    else:
        target[key] = data.draw(json_values)
    _replayed_or_refused(json.dumps(record, ensure_ascii=False))
