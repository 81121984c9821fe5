"""Uniform-random play: the baseline player of the CLI, tests and benchmarks.

Every choice comes from the ``numpy.random.Generator`` passed in, so a match
played from ``(seed, player_seed)`` is reproducible.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from env121.engine.game import apply, legal_actions, new_game
from env121.engine.state import State
from env121.rules.config import RuleConfig


def random_action(state: State, rng: np.random.Generator) -> int:
    """A uniformly random legal action of the seat to act."""
    legal = legal_actions(state)
    if not legal:
        raise ValueError("no legal action: the match is over (phase game_over)")
    return legal[int(rng.integers(len(legal)))]


def play_random(
    state: State,
    rng: np.random.Generator,
    *,
    until: Callable[[State], bool] | None = None,
    on_action: Callable[[State, int], None] | None = None,
) -> State:
    """Play uniformly random actions in place until the match ends (or ``until``).

    ``on_action(state, action)`` is called after each action is applied.
    """
    while not state.is_over and (until is None or not until(state)):
        action = random_action(state, rng)
        apply(state, action)
        if on_action is not None:
            on_action(state, action)
    return state


def player_rng(seed: int) -> np.random.Generator:
    """The random players' generator for a match seed (independent of its deals)."""
    return np.random.default_rng(np.random.SeedSequence([seed, 0x121]))


def random_match(seed: int, config: RuleConfig | None = None, *, rotation: int = 0) -> State:
    """A whole match between uniform-random players, dealt and played from ``seed``."""
    return play_random(new_game(seed, config, rotation=rotation), player_rng(seed))


__all__ = ["play_random", "player_rng", "random_action", "random_match"]
