"""The one-match face of the kernel (:mod:`env121.engine.game`): what the
differential test does not cover — :func:`advance` / :func:`settle`, the
record a State carries, and bad input."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from env121.engine.game import (
    IllegalActionError,
    advance,
    apply,
    kernel_record,
    legal_actions,
    new_game,
    settle,
)
from tests.support.batched import snapshot


def test_advance_then_settle_is_apply():
    """Stepping the record only and setting the fields at the end gives the
    same match, move for move, as setting them after every step."""
    rng = np.random.default_rng(5)
    applied, advanced = new_game(11), new_game(11)
    for _ in range(400):
        action = int(rng.choice(legal_actions(applied)))
        apply(applied, action)
        advance(advanced, action)
        assert legal_actions(advanced) == legal_actions(applied)
    settle(advanced)
    assert snapshot(advanced) == snapshot(applied)
    assert advanced.events == applied.events and advanced.results == applied.results


def test_a_state_without_its_record_plays_on_from_its_fields():
    state = new_game(3)
    for _ in range(30):
        apply(state, legal_actions(state)[0])
    copy = dataclasses.replace(state)
    assert copy.record is None
    assert legal_actions(copy) == legal_actions(state)
    apply(copy, legal_actions(copy)[-1])
    apply(state, legal_actions(state)[-1])
    assert snapshot(copy) == snapshot(state)


def test_clone_does_not_share_the_record():
    state = new_game(4)
    twin = state.clone()
    apply(twin, legal_actions(twin)[0])
    assert kernel_record(state) is not kernel_record(twin)
    assert len(state.actions) == 0 and snapshot(state) == snapshot(new_game(4))


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, True, "7"])
def test_a_bad_seed_is_one_clear_error(seed):
    with pytest.raises(ValueError, match=r"seed .* is not valid: expected an int in 0..2\*\*64-1"):
        new_game(seed)


def test_an_illegal_action_names_the_seat_and_changes_nothing():
    state = new_game(9)
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match=r"illegal action .* in phase the_trang, seat 0"):
        advance(state, 130)
    assert snapshot(state) == before and state.actions == []
