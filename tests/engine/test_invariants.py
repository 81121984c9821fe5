"""Invariants after every step of thousands of seeded random vòng (spec §8).

Random players of several temperaments (uniform; pass-heavy, so the Nọc runs
out; Ù-happy under ``mask_invalid_win=False``, so Đền happens) play under
several rule configs until at least :data:`TARGET_VONG` vòng have ended;
:func:`env121.engine.validate.validate` runs after every single action, and every
few steps a determinization is sampled and validated too.
"""

from __future__ import annotations

import collections
from collections.abc import Callable

import numpy as np
import pytest

from env121.engine.actions import PASS, U
from env121.engine.game import apply, legal_actions, new_game
from env121.engine.state import Phase, State
from env121.engine.validate import InvariantError, validate
from env121.engine.view import observe, sample_determinization
from env121.rules.config import RuleConfig

TARGET_VONG = 3000

Policy = Callable[[State, np.random.Generator], int]


def uniform(state: State, rng: np.random.Generator) -> int:
    legal = legal_actions(state)
    return legal[int(rng.integers(len(legal)))]


def passive(state: State, rng: np.random.Generator) -> int:
    """Mostly passes: vòng run long and often end with an empty Nọc."""
    legal = legal_actions(state)
    if PASS in legal and rng.random() < 0.97:
        return PASS
    return legal[int(rng.integers(len(legal)))]


def reckless(state: State, rng: np.random.Generator) -> int:
    """Declares Ù a third of the time it may (with Đền unmasked: often wrongly)."""
    legal = legal_actions(state)
    if U in legal and rng.random() < 0.33:
        return U
    return legal[int(rng.integers(len(legal)))]


SETUPS: list[tuple[str, RuleConfig, Policy, int]] = [
    # (name, config, policy, share of the vòng target in percent)
    ("uniform", RuleConfig(), uniform, 45),
    ("no-wait-rule", RuleConfig(nhat_ban_requires_wait=False), uniform, 10),
    ("den", RuleConfig(mask_invalid_win=False), reckless, 25),
    ("truncated", RuleConfig(max_actions_per_vong=40, num_van=2), uniform, 12),
    ("passive", RuleConfig(num_van=2, carry_scores=True, payment_rounding="hundreds"), passive, 3),
    ("variants", RuleConfig(phe_phe_same_suits=True, left_figures=frozenset({1, 3, 5, 7, 9})),
     uniform, 5),
]  # fmt: skip


def play_checked(
    seed: int, config: RuleConfig, policy: Policy, vong: int
) -> collections.Counter[str]:
    """Play matches from ``seed`` on until ``vong`` vòng ended, validating every step."""
    outcomes: collections.Counter[str] = collections.Counter()
    rng = np.random.default_rng(seed)
    while sum(outcomes.values()) < vong:
        state = new_game(seed, config)
        seed += 1
        validate(state)
        steps = 0
        while not state.is_over:
            before = len(state.results)
            apply(state, policy(state, rng))
            steps += 1
            try:
                validate(state)
                if steps % 97 == 0 and state.phase != Phase.GAME_OVER:
                    seat = int(rng.integers(4))
                    validate(sample_determinization(state, seat, rng))
                    observe(state, seat)
            except InvariantError as err:
                where = f"seed {seed - 1}, action {len(state.actions) - 1}"
                raise InvariantError(f"{where}: {err}") from err
            for result in state.results[before:]:
                outcome = result.outcome + ("/truncated" if result.truncated else "")
                outcomes[outcome] += 1
    return outcomes


@pytest.mark.parametrize(("name", "config", "policy", "share"), SETUPS, ids=[s[0] for s in SETUPS])
def test_invariants_after_every_step(name, config, policy, share):
    vong = TARGET_VONG * share // 100
    outcomes = play_checked(1000 * share + len(name), config, policy, vong)
    assert sum(outcomes.values()) >= vong
    if name == "den":
        assert outcomes["den"] > 0
    if name == "truncated":
        assert outcomes["draw/truncated"] > 0
    if name == "passive":
        assert outcomes["draw"] > 0
    if name == "uniform":
        assert outcomes["u"] > 0


def test_the_shares_add_up_to_the_target():
    assert sum(s[3] for s in SETUPS) == 100
