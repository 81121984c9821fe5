"""The hinted seat: single-seat training for a policy that reads parts after the observation.

:class:`HintedSeat` wraps :class:`~env121.envs.single_seat.SingleSeat` so a
*hinted* policy (:mod:`agents.hints`) trains on the same split of decisions it
plays with: greedy plays the learner's decisions that need no judgement (for
inputs with greedy's hints, :meth:`agents.hints.Hinter.leaves_to_greedy`), and
every observation carries the hint blocks after the ``env121_v1`` vector
(``observation+swap_wins``: the ``swap_wins`` part, the learner deciding every move).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from agents.hints import INPUTS, Hinter, hints_seed
from env121.envs.single_seat import MAX_RESET_MATCHES, SingleSeat
from env121.play.observation import OBS_SIZE
from env121.play.turn import Turn


class HintedSeat(gymnasium.Wrapper[np.ndarray, np.int64, np.ndarray, np.int64]):
    """A :class:`~env121.envs.single_seat.SingleSeat` (possibly wrapped) for a hinted
    policy: the learner's decisions that its hinter leaves to greedy
    (:func:`agents.hints.greedy_decides`, with greedy's hints) are played by greedy inside
    the environment (their rewards are added to the learner's
    next step, or the last one), and every observation carries the hint
    parts after the ``env121_v1`` vector (zeros once the match is over):
    those of ``inputs``, a hinted key of :data:`INPUTS` (search hints are
    drawn from a generator seeded by :meth:`reset`'s ``seed``)."""

    def __init__(
        self, env: gymnasium.Env[np.ndarray, np.int64], inputs: str = "observation+greedy_hints"
    ) -> None:
        super().__init__(env)
        if not isinstance(env.unwrapped, SingleSeat):
            raise TypeError(f"HintedSeat wraps a SingleSeat environment, not {env.unwrapped!r}")
        if inputs == "observation":
            raise ValueError(
                "HintedSeat is for hinted inputs: expected one with hints, not 'observation'"
            )
        self.seat_env: SingleSeat = env.unwrapped
        self.hinter = Hinter(inputs)
        self.observation_space = spaces.Box(-np.inf, np.inf, (INPUTS[inputs],), np.float32)
        self._carried = 0.0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new match, played until the learner has a decision of its own."""
        observation, info = self.env.reset(seed=seed, options=options)
        if seed is not None:
            self.hinter.reset(hints_seed(seed))
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
        """Greedy's moves for the learner while the hinter leaves them to it."""
        total, terminated, truncated = 0.0, False, False
        game = self.seat_env.env.game
        while not (terminated or truncated):
            turn = Turn(game, game.current_player)
            if not self.hinter.leaves_to_greedy(turn):
                break
            observation, reward, terminated, truncated, info = self.env.step(
                np.int64(self.hinter.greedy.act(turn))
            )
            total += float(reward)
        return observation, total, terminated, truncated, info

    def _hinted(self, observation: np.ndarray) -> np.ndarray:
        game = self.seat_env.env.game
        if game.is_over:
            hints = np.zeros(INPUTS[self.hinter.inputs] - OBS_SIZE, dtype=np.float32)
        else:
            seat = game.current_player
            hints = self.hinter.hints(Turn(game, seat, search_allowed=self.hinter.uses_search))
        return np.concatenate([observation, hints]).astype(np.float32)


__all__ = ["HintedSeat"]
