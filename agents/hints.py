"""Greedy's hints: what :class:`~agents.greedy.GreedyAgent` thinks of a
decision, as extra inputs for learned agents.

A policy network that reads only the ``env121_v0`` observation must learn the
combinatorics of 121's patterns from scratch before it can tell a good swap
from a bad one; with these inputs it starts from the rule-based player's
judgement and learns where to depart from it. Two blocks of
``NUM_ACTIONS`` entries each, aligned with the action ids:

* **choice** — 1 at the action greedy plays, 0 elsewhere;
* **gain** — for each legal swap (Đổi) action, the value greedy gains by it
  (:func:`agents.greedy.swap_gains`: Điểm of the wins on unseen cards of the
  hand it makes minus those of the hand kept); for ``NHAT_BAN``, the value of
  the best Nhất Bản arrangement minus that of the free hand; divided by
  :data:`GAIN_SCALE`; 0 elsewhere.

A network trained with them records ``inputs: "observation+greedy_hints"``
in its checkpoint (:mod:`agents.ppo`), and its agent computes them on every
decision, so it thinks about as long as greedy does.
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from agents.greedy import GreedyAgent, swap_gains
from agents.knowledge import HandJudge
from env121.actions import NHAT_BAN, NUM_ACTIONS
from env121.observation import OBS_SIZE
from env121.state import Phase
from env121.turn import Turn
from env121.wrappers import SingleSeat

HINTS_SIZE = 2 * NUM_ACTIONS
GAIN_SCALE = 10.0
"""Value gains are divided by this (a gain of one winning card worth 5 Điểm → 0.5)."""
INPUTS = {"observation": OBS_SIZE, "observation+greedy_hints": OBS_SIZE + HINTS_SIZE}
"""What a policy network may read, and its input width."""


def greedy_hints(turn: Turn, greedy: GreedyAgent) -> np.ndarray:
    """The hints of ``turn`` (``float32[HINTS_SIZE]``); see the module docstring."""
    hints = np.zeros(HINTS_SIZE, dtype=np.float32)
    legal = turn.legal_actions
    hints[greedy.act(turn)] = 1.0
    phase = turn.view.phase
    if phase == Phase.OFFER and len(legal) > 1:
        for action, gain in swap_gains(HandJudge(turn.view, turn.config), legal).items():
            hints[NUM_ACTIONS + action] = gain / GAIN_SCALE
    elif phase == Phase.NB_CHOICE and NHAT_BAN in legal:
        judge = HandJudge(turn.view, turn.config)
        plan = greedy.best_arrangement(judge)
        if plan is not None:
            gain = plan[1] - judge.value(judge.own, locked=False)
            hints[NUM_ACTIONS + NHAT_BAN] = gain / GAIN_SCALE
    return hints


def policy_input(turn: Turn, inputs: str, greedy: GreedyAgent) -> np.ndarray:
    """What a network reading ``inputs`` (a key of :data:`INPUTS`) is given for ``turn``."""
    if inputs == "observation":
        return turn.observation
    return np.concatenate([turn.observation, greedy_hints(turn, greedy)])


class HintedSeat(gymnasium.ObservationWrapper[np.ndarray, np.int64, np.ndarray]):
    """A :class:`~env121.wrappers.SingleSeat` whose observation carries greedy's
    hints for the learner's decision after the ``env121_v0`` vector (zeros
    once the match is over)."""

    def __init__(self, env: gymnasium.Env[np.ndarray, np.int64]) -> None:
        super().__init__(env)
        if not isinstance(env.unwrapped, SingleSeat):
            raise TypeError(f"HintedSeat wraps a SingleSeat environment, not {env.unwrapped!r}")
        self.seat_env: SingleSeat = env.unwrapped
        self.greedy = GreedyAgent()
        size = INPUTS["observation+greedy_hints"]
        self.observation_space = spaces.Box(-np.inf, np.inf, (size,), np.float32)

    def observation(self, observation: np.ndarray) -> np.ndarray:
        game = self.seat_env.env.game
        if game.is_over:
            hints = np.zeros(HINTS_SIZE, dtype=np.float32)
        else:
            hints = greedy_hints(Turn(game, game.current_player), self.greedy)
        return np.concatenate([observation, hints]).astype(np.float32)

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (sb3-contrib's ``MaskablePPO``)."""
        return self.seat_env.action_masks()


__all__ = ["GAIN_SCALE", "HINTS_SIZE", "INPUTS", "HintedSeat", "greedy_hints", "policy_input"]
