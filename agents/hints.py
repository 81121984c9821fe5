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

Such a *hinted* policy also leaves to greedy the decisions that need no
judgement of the game (:func:`greedy_decides`): a forced move, Ù and Thế
trắng (every built-in agent takes them), and laying out a declared Nhất Bản
arrangement, six placement steps in which a network trained by reward alone
only learns to spoil the arrangement it declared. Training sees the same
split: :class:`HintedSeat` plays those decisions with greedy inside the
environment, so the learner's steps are only its swaps, passes and Nhất Bản
choices.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from agents.greedy import GreedyAgent, swap_gains
from agents.knowledge import HandJudge, obvious_action
from env121.actions import NHAT_BAN, NUM_ACTIONS
from env121.observation import OBS_SIZE
from env121.state import Phase
from env121.turn import Turn
from env121.wrappers import MAX_RESET_MATCHES, SingleSeat

HINTS_SIZE = 2 * NUM_ACTIONS
GAIN_SCALE = 10.0
"""Value gains are divided by this (a gain of one winning card worth 5 Điểm → 0.5)."""
_LAYOUT = (Phase.NB_GAP, Phase.NB_PLACE)
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


def greedy_decides(turn: Turn) -> bool:
    """Whether a hinted policy leaves ``turn`` to greedy: a forced move, Ù or
    Thế trắng on offer, or a Nhất Bản arrangement to lay out."""
    return obvious_action(turn.legal_actions) is not None or turn.view.phase in _LAYOUT


def policy_input(turn: Turn, inputs: str, greedy: GreedyAgent) -> np.ndarray:
    """What a network reading ``inputs`` (a key of :data:`INPUTS`) is given for ``turn``."""
    if inputs == "observation":
        return turn.observation
    return np.concatenate([turn.observation, greedy_hints(turn, greedy)])


class HintedSeat(gymnasium.Wrapper[np.ndarray, np.int64, np.ndarray, np.int64]):
    """A :class:`~env121.wrappers.SingleSeat` (possibly wrapped) for a hinted
    policy: the learner's decisions that :func:`greedy_decides` are played by
    greedy inside the environment (their rewards are added to the learner's
    next step, or the last one), and every observation carries greedy's
    hints after the ``env121_v0`` vector (zeros once the match is over)."""

    def __init__(self, env: gymnasium.Env[np.ndarray, np.int64]) -> None:
        super().__init__(env)
        if not isinstance(env.unwrapped, SingleSeat):
            raise TypeError(f"HintedSeat wraps a SingleSeat environment, not {env.unwrapped!r}")
        self.seat_env: SingleSeat = env.unwrapped
        self.greedy = GreedyAgent()
        size = INPUTS["observation+greedy_hints"]
        self.observation_space = spaces.Box(-np.inf, np.inf, (size,), np.float32)
        self._carried = 0.0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new match, played until the learner has a decision of its own."""
        observation, info = self.env.reset(seed=seed, options=options)
        for _ in range(MAX_RESET_MATCHES):
            observation, reward, terminated, _, info = self._greedy_steps(observation, info)
            if not terminated:
                self._carried = reward
                return self._hinted(observation), info
            observation, info = self.env.reset(options=options)
        raise RuntimeError(  # pragma: no cover - greedy decided every learner move 100 times
            f"the learner had no decision of its own in {MAX_RESET_MATCHES} matches"
        )

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The learner's action, then greedy's for the learner until it has a
        decision of its own again (or the match ends)."""
        observation, paid, terminated, truncated, info = self.env.step(np.int64(action))
        reward, self._carried = float(paid) + self._carried, 0.0
        if not (terminated or truncated):
            observation, more, terminated, truncated, info = self._greedy_steps(observation, info)
            reward += more
        return self._hinted(observation), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (sb3-contrib's ``MaskablePPO``)."""
        return self.seat_env.action_masks()

    def _greedy_steps(
        self, observation: np.ndarray, info: dict[str, Any]
    ) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Greedy's moves for the learner while :func:`greedy_decides`."""
        total, terminated, truncated = 0.0, False, False
        game = self.seat_env.env.game
        while not (terminated or truncated):
            turn = Turn(game, game.current_player)
            if not greedy_decides(turn):
                break
            observation, reward, terminated, truncated, info = self.env.step(
                np.int64(self.greedy.act(turn))
            )
            total += float(reward)
        return observation, total, terminated, truncated, info

    def _hinted(self, observation: np.ndarray) -> np.ndarray:
        game = self.seat_env.env.game
        if game.is_over:
            hints = np.zeros(HINTS_SIZE, dtype=np.float32)
        else:
            hints = greedy_hints(Turn(game, game.current_player), self.greedy)
        return np.concatenate([observation, hints]).astype(np.float32)


__all__ = [
    "GAIN_SCALE",
    "HINTS_SIZE",
    "INPUTS",
    "HintedSeat",
    "greedy_decides",
    "greedy_hints",
    "policy_input",
]
