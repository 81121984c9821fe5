"""Single-agent views of ``env121_v1`` for single-agent learners.

:class:`SingleSeat` is a ``gymnasium.Env``: one learning seat, the other three
seats played by given policies, so Stable-Baselines3 (with sb3-contrib's
``MaskablePPO`` and :meth:`SingleSeat.action_masks`) can train on it::

    from sb3_contrib import MaskablePPO
    from env121.envs.single_seat import SingleSeat

    model = MaskablePPO("MlpPolicy", SingleSeat(), n_steps=2048)
    model.learn(100_000)

An opponent is either an *agent* (:class:`env121.play.protocol.Agent`: the
players of the arena, built with :func:`agents.make_agent`), which is shown a
:class:`~env121.play.turn.Turn` and reseeded from this environment's generator at
every reset, or a *policy*, any other callable ``(observation dict, action
mask) -> action id`` that gets the seat's PettingZoo observation
(``{"observation", "action_mask"}``) and the mask again for convenience.
:class:`~env121.play.random_agent.RandomAgent` plays uniformly random legal
actions as either (it is an agent, and callable as a policy). Opponents and
the environment are picklable (with module-level callables), so
``SubprocVecEnv`` can run copies.

Opponents given as agent specs (``"greedy"``, ``"mc:budget=8"``, ``"ppo:small"``)
are built one layer up, where the agents are: ``agents.SingleSeat`` and the
Gymnasium id ``env121/SingleSeat-v1`` are :class:`agents.environments.SingleSeat`,
this class with its opponents built from specs.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any, cast

import gymnasium
import numpy as np
from gymnasium import spaces

from env121.engine.actions import NUM_ACTIONS
from env121.engine.game import IllegalActionError
from env121.engine.state import NUM_SEATS
from env121.envs.aec_env import (
    AGENTS,
    DEFAULT_ILLEGAL_REWARD,
    ENV_ID,
    RENDER_MODES,
    check_render_mode,
    raw_env,
    render_state,
)
from env121.play.protocol import Agent, require_fair
from env121.play.random_agent import RandomAgent
from env121.play.turn import Turn
from env121.rules.config import RuleConfig

Policy = Callable[[dict[str, np.ndarray], np.ndarray], int]
"""``(observation dict, action mask) -> action id``."""

Opponent = Agent | Policy
"""An agent of :class:`env121.play.protocol.Agent` or a policy callable."""
ILLEGAL_ACTION_MODES: tuple[str, ...] = ("terminate", "raise")
MAX_RESET_MATCHES = 100
"""Matches :meth:`SingleSeat.reset` may skip because the learner never had to act."""


class SingleSeat(gymnasium.Env[np.ndarray, np.int64]):
    """One seat of ``env121_v1`` learns; given policies play the other three.

    * ``opponents``: one opponent (policy or agent) for all three other seats,
      or a sequence of three for the seats after the learner in turn order
      (+1, +2, +3);
      ``None``: one :class:`~env121.play.random_agent.RandomAgent` in the three
      seats, drawing from this environment's generator (so ``reset(seed=…)``
      fixes everything).
    * ``seat``: the learner's seat 0..3, or ``None`` to draw it every episode.
    * ``config``, ``reward_mode`` and rule keyword arguments as for
      :class:`env121.envs.aec_env.raw_env`; ``render_mode`` ``"ansi"``,
      ``"human"`` (the table as text) or ``"rgb_array"`` (the picture of the
      table as the learner sees it).
    * ``illegal_action``: ``"terminate"`` (default) ends the episode with
      ``illegal_reward``, as ``env121.env()`` does; ``"raise"`` raises the
      engine's :class:`~env121.engine.game.IllegalActionError`. Learners that use
      :meth:`action_masks` never play an illegal action.

    Observations are the flat ``float32`` vector of :mod:`env121.play.observation`
    (the mask comes from :meth:`action_masks`). An episode is one match. The
    reward of a step is everything the learner earned since its previous
    action, the opponents' moves and the match's end included; rewards
    earned before its first action come with its first step. If a match ends
    before the learner ever acts (possible in principle), :meth:`reset` deals
    the next one. ``info`` holds ``seat`` and ``agent`` plus the learner's
    ``env121_v1`` info (``vong_results``, ``match``).
    """

    # gymnasium.Env declares metadata as an instance variable: no ClassVar here.
    metadata = {  # noqa: RUF012
        "render_modes": list(RENDER_MODES),
        "name": f"{ENV_ID}_single_seat",
        "render_fps": 1,
    }

    def __init__(
        self,
        opponents: Opponent | Sequence[Opponent] | None = None,
        *,
        seat: int | None = None,
        config: RuleConfig | None = None,
        reward_mode: str = "points",
        render_mode: str | None = None,
        illegal_action: str = "terminate",
        illegal_reward: float = DEFAULT_ILLEGAL_REWARD,
        **rules: Any,
    ) -> None:
        if seat is not None and seat not in range(NUM_SEATS):
            raise ValueError(f"seat={seat!r} is not valid: expected None or 0..{NUM_SEATS - 1}")
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(
                f"illegal_action={illegal_action!r} is not valid: expected 'terminate' or 'raise'"
            )
        check_render_mode(render_mode)
        self.env = raw_env(config, reward_mode=reward_mode, **rules)
        # The default opponent draws from np_random itself (it is never reset).
        self._random_opponent: RandomAgent | None = None
        if opponents is None:
            self._random_opponent = opponents = RandomAgent()
        self.opponents = _opponent_list(opponents)
        # Per opponent seat (+1, +2, +3): the agent, or None where a policy plays.
        self._agents = [o if isinstance(o, Agent) else None for o in self.opponents]
        for agent in self._agents:
            require_fair(agent, "as an opponent a learner trains against")
        self.fixed_seat = seat
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        observation = self.env.observation_space(AGENTS[0])["observation"]
        assert isinstance(observation, spaces.Box)
        self.observation_space = observation
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.learner = AGENTS[0 if seat is None else seat]
        self._undelivered = 0.0
        self._done = True

    # ----------------------------------------------------------- gymnasium

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new match, played until the learner must act. ``options`` are
        passed to :meth:`env121.envs.aec_env.raw_env.reset` (``rotation``,
        ``first_deal``)."""
        super().reset(seed=seed)
        if self._random_opponent is not None:
            self._random_opponent.rng = self.np_random
        for _ in range(MAX_RESET_MATCHES):
            self.env.reset(seed=int(self.np_random.integers(2**62)), options=options)
            seat = self.fixed_seat
            self.learner = AGENTS[int(self.np_random.integers(NUM_SEATS)) if seat is None else seat]
            for agent in self._agents:
                if agent is not None and agent is not self._random_opponent:
                    agent.reset(int(self.np_random.integers(2**62)))
            self._play_opponents()
            if not self.env.game.is_over:
                break
        else:  # pragma: no cover - a learner without a single decision in 100 matches
            raise RuntimeError(f"the learner had no decision in {MAX_RESET_MATCHES} matches")
        self._undelivered = self.env.cumulative_reward(self.learner)
        self._done = False
        return self._observation(), self._info()

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the opponents until the learner is to
        act again or the match ends.

        An action that is not a legal id (one not legal now or out of range, a
        float, a bool, ``None``, …) ends the episode with ``illegal_reward``
        and ``info["illegal_action"]`` under ``illegal_action="terminate"``,
        or raises :class:`~env121.engine.game.IllegalActionError` under
        ``"raise"``; either way the match is left as it was. A step before
        :meth:`reset` or after the episode has ended raises ``RuntimeError``.
        """
        if self._done:
            raise RuntimeError("no episode in progress (not reset, or over): call reset()")
        reward, self._undelivered = self._undelivered, 0.0
        mask = self.env.observe(self.learner)["action_mask"]
        action_id = _action_id(action)
        legal = action_id is not None and 0 <= action_id < NUM_ACTIONS and bool(mask[action_id])
        if not legal and self.illegal_action == "terminate":
            self._done = True
            info = {**self._info(), "illegal_action": action if action_id is None else action_id}
            return self._observation(), reward + self.illegal_reward, True, False, info
        try:
            self.env.step(action)
        except IllegalActionError:
            self._done = True
            raise
        self._play_opponents()
        reward += self.env.cumulative_reward(self.learner)
        terminated = self.env.game.is_over
        self._done = terminated
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, False, self._info()

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner as bools (sb3-contrib's ``MaskablePPO``)."""
        mask: np.ndarray = self.env.observe(self.learner)["action_mask"].astype(bool)
        return mask

    def render(self) -> str | np.ndarray | None:  # type: ignore[override]
        """The table as the learner sees it (``"ansi"``: returned, ``"human"``:
        printed, ``"rgb_array"``: its picture as an ``H × W × 3`` array)."""
        return render_state(self.env.game, self.render_mode, viewer=AGENTS.index(self.learner))

    # ------------------------------------------------------------- helpers

    def _play_opponents(self) -> None:
        env = self.env
        while not env.game.is_over and env.agent_selection != self.learner:
            seat = AGENTS.index(env.agent_selection)
            offset = (seat - AGENTS.index(self.learner)) % NUM_SEATS
            agent = self._agents[offset - 1]
            if agent is not None:
                # A Turn encodes only what the agent asks for: no observation
                # vector for agents that read the view or the legal actions.
                action = agent.act(Turn(env.game, seat, search_allowed=agent.uses_search))
            else:
                policy = cast(Policy, self.opponents[offset - 1])
                observation = env.observe(env.agent_selection)
                action = policy(observation, observation["action_mask"])
            env.step(action)

    def _observation(self) -> np.ndarray:
        observation: np.ndarray = self.env.observe(self.learner)["observation"].copy()
        return observation

    def _info(self) -> dict[str, Any]:
        return {
            "seat": AGENTS.index(self.learner),
            "agent": self.learner,
            **self.env.infos.get(self.learner, {}),
        }


def _action_id(action: object) -> int | None:
    """``action`` as an int if it is an integer id of any integer type (not a
    bool, as the engine has it); None for anything else."""
    if isinstance(action, (bool, np.bool_)):
        return None
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        return None


def _opponent_list(opponents: Opponent | Sequence[Opponent]) -> list[Opponent]:
    given = [opponents] if isinstance(opponents, str) else opponents
    if isinstance(given, Sequence) and any(isinstance(o, str) for o in given):
        raise ValueError(
            f"opponents={opponents!r} is not valid here: this class takes built agents or "
            "policies; agent specs are built one layer up, by agents.SingleSeat "
            "(agents.environments.SingleSeat) or gym.make('env121/SingleSeat-v1', opponents=…)"
        )
    if callable(opponents) or isinstance(opponents, Agent):
        return [opponents] * (NUM_SEATS - 1)
    policies = list(opponents) if isinstance(opponents, Sequence) else []
    valid = all(callable(p) or isinstance(p, Agent) for p in policies)
    if len(policies) != NUM_SEATS - 1 or not valid:
        raise ValueError(
            f"opponents={opponents!r} is not valid: expected None, one opponent, or "
            f"{NUM_SEATS - 1}: each an agent (spec, uses_search, reset(seed), act(turn)) "
            "or a policy (observation dict, action mask) -> action id"
        )
    return policies


__all__ = ["ILLEGAL_ACTION_MODES", "Opponent", "Policy", "SingleSeat"]
