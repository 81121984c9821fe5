"""``VectorSingleSeat``: one learning seat in each of B games of the batched engine.

:class:`VectorSingleSeat` is a ``gymnasium.vector.VectorEnv`` over a
:class:`~env121.engine.batched.BatchedEngine`: ``num_envs`` matches of 121
played at once, one seat of each learning, the other three played by
batched policies (:class:`env121.play.batched_policy.BatchedPolicy`). Each of
its games is what :class:`env121.envs.single_seat.SingleSeat` is for one
match: the same observation and action spaces, rewards, infos and rules::

    from env121.envs.vector import VectorSingleSeat
    from env121.play.batched_policy import BatchedRandom

    envs = VectorSingleSeat(1024, BatchedRandom(), seat=None)
    obs, infos = envs.reset(seed=0)               # [1024, 2491] float32
    while training:
        masks = envs.action_masks()               # [1024, 131] bool
        obs, rewards, terminated, truncated, infos = envs.step(choose(obs, masks))

Opponents given as agent specs (``"greedy"``, ``"ppo:small"``) are built one
layer up: ``agents.environments.VectorSingleSeat`` is this class with its
opponents built from specs, and ``gym.make_vec("env121/SingleSeat-v1",
num_envs=…, vectorization_mode="vector_entry_point", opponents="greedy")`` makes it.

A step:

1. applies the learners' actions, one per game (``actions[g]`` is game
   ``g``'s learner's; an action that is not legal raises the engine's
   :class:`~env121.engine.game.IllegalActionError` naming the game, the action
   and the legal ones, before any game has moved: learners that follow
   :meth:`~VectorSingleSeat.action_masks` never meet it);
2. lets the opponents play, in rounds: in each round every game whose seat
   to act is an opponent's takes one action, each policy deciding for all
   of its games in one call, until every game waits for its learner;
3. encodes the learners' observations (the compiled encoder of
   :mod:`env121.play.batched_observation`, equal to
   :func:`~env121.play.batched_observation.encode_observation`).

A match that ends is replaced in the same step (``metadata["autoreset_mode"]``
is ``AutoresetMode.SAME_STEP``): that game's ``terminated`` is True, its
observation and info are the next match's first, and ``infos["final_obs"]``
and ``infos["final_info"]`` hold the ended match's last observation (the
table at the end, phase GAME_OVER) and info, as gymnasium's own vector
environments write them (masks ``"_final_obs"``, ``"_final_info"``).
``truncated`` is always False.

Rewards and infos are :class:`~env121.envs.single_seat.SingleSeat`'s: the
reward of a step is everything the learner earned since its previous action,
the match's end included (``reward_mode="points"``: Điểm; ``"rank"``: the
placement reward at the end), and what it earned in a new match before its
first action comes with its first step. ``infos`` holds, per game, ``seat``
and ``agent`` (the learner), and where there are any, ``vong_results`` (the
vòng that ended since the learner's previous action, as
:func:`~env121.envs.aec_env.vong_result_info`) and ``match`` (how it ended,
as :func:`~env121.envs.aec_env.match_info`), in gymnasium's vector form: one
array per key and a ``"_key"`` mask.

Seeding: ``reset(seed=s)`` seeds the environment's generator, which draws each
game's match seed, its learner's seat when ``seat`` is None (again at every
match), and each opponent policy's seed; game ``g``'s next matches are dealt
from seeds ``seed + num_envs``, ``seed + 2 * num_envs`` … (the engine's
auto-reset). So the same seed gives the same games, opponents' draws
included. A match in which the learner never had to act (possible in
principle) is replaced without being reported, as SingleSeat's ``reset``
does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from env121.engine.actions import NUM_ACTIONS
from env121.engine.batched.engine import BatchedEngine
from env121.engine.kernel.convert import decode_result
from env121.engine.kernel.record import MATCH_ENDS
from env121.engine.kernel.transitions import SIT_OUT
from env121.engine.state import NUM_SEATS
from env121.envs.aec_env import AGENTS, ENV_ID, placement_rewards, raw_env, vong_result_info
from env121.play.batched_observation import encode_observations, encode_seats, make_observer
from env121.play.batched_policy import BatchedPolicy, BatchedRandom
from env121.play.observation import OBS_SIZE
from env121.rules.config import RuleConfig
from env121.rules.payment import POINTS_PER_DIEM

_AGENT_NAMES = np.array(AGENTS, dtype=object)


class VectorSingleSeat(VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` games of ``env121_v1``, one learning seat in each (see the
    module docstring).

    * ``opponents``: one batched policy for the three other seats of every
      game, or a sequence of three for the seats after the learner in turn
      order (+1, +2, +3); ``None``: :class:`~env121.play.batched_policy.BatchedRandom`.
    * ``seat``: the learners' seat 0..3 in every game, or ``None`` to draw
      each game's learner seat at every match.
    * ``config``, ``reward_mode`` and rule keyword arguments as for
      :class:`env121.envs.aec_env.raw_env` (no ``render_mode``: it does not render).
    """

    # VectorEnv declares metadata as an instance variable: no ClassVar here.
    metadata = {  # noqa: RUF012
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "name": f"{ENV_ID}_vector_single_seat",
        "render_modes": [],
    }

    def __init__(
        self,
        num_envs: int = 64,
        opponents: BatchedPolicy | Sequence[BatchedPolicy] | None = None,
        *,
        seat: int | None = None,
        config: RuleConfig | None = None,
        reward_mode: str = "points",
        render_mode: None = None,
        **rules: Any,
    ) -> None:
        if render_mode is not None:
            raise ValueError(
                f"render_mode={render_mode!r} is not valid: VectorSingleSeat does not render "
                "(SingleSeat renders one match)"
            )
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs={num_envs!r} is not valid: expected a positive int")
        if seat is not None and seat not in range(NUM_SEATS):
            raise ValueError(f"seat={seat!r} is not valid: expected None or 0..{NUM_SEATS - 1}")
        # The reference environment checks the rules and the reward mode and
        # owns the spaces this one shares with it.
        reference = raw_env(config, reward_mode=reward_mode, **rules)
        self.config = reference.config
        self.reward_mode = reward_mode
        self.num_envs = num_envs
        self.fixed_seat = seat
        self.opponents = _opponent_list(BatchedRandom() if opponents is None else opponents)
        # Each distinct policy once, with the seat offsets it plays.
        self._policies: list[tuple[BatchedPolicy, np.ndarray]] = []
        for policy in dict.fromkeys(self.opponents):
            offsets = [k + 1 for k, o in enumerate(self.opponents) if o is policy]
            self._policies.append((policy, np.array(offsets, dtype=np.int64)))
        observation = reference.observation_space(AGENTS[0])["observation"]
        assert isinstance(observation, spaces.Box)
        self.single_observation_space = observation
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(observation, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.engine = BatchedEngine(num_envs, self.config)
        self.observer = make_observer(num_envs, self.config)
        self.learner = np.zeros(num_envs, dtype=np.int64)
        """Each game's learning seat in its current match."""
        self._earned = np.zeros(num_envs, dtype=np.float64)
        """What each learner earned since its last action (in its current match)."""
        self._undelivered = np.zeros(num_envs, dtype=np.float64)
        """What each learner earned in its match before its first action."""
        self._fresh = np.ones(num_envs, dtype=bool)
        """The learner has not acted yet in the game's current match."""
        self._vong_results: dict[int, list[dict[str, Any]]] = {}
        """Per game, the vòng ended since its learner's previous action."""
        self._ended: dict[int, tuple[float, np.ndarray, dict[str, Any]]] = {}
        """Per game whose match ended in this step: reward, final obs and info."""
        self._started = False

    # ----------------------------------------------------------- gymnasium

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """New matches in every game, played until every learner must act.
        ``options`` may hold ``rotation`` (0..3, every game's hands rotated
        for duplicate play)."""
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ValueError(f"seed={seed!r} is not valid: expected None or an int")
        options = {} if options is None else dict(options)
        rotation = options.pop("rotation", 0)
        if options:
            raise ValueError(f"options {sorted(options)} are not valid: expected only 'rotation'")
        super().reset(seed=seed)
        rng = self.np_random
        b = self.num_envs
        seeds = rng.integers(2**62, size=b)
        self.learner[:] = self._draw_seats(b)
        for policy, _ in self._policies:
            policy.reset(int(rng.integers(2**62)))
        self.engine.reset(seeds, np.full(b, rotation))
        self._earned[:] = 0.0
        self._fresh[:] = True
        self._vong_results = {}
        self._ended = {}
        self._play_opponents()
        self._undelivered[:] = self._earned
        self._started = True
        return self._observations(), self._infos()

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play every learner's action, then the opponents until every game
        waits for its learner again (see the module docstring)."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        played = np.asarray(actions)
        if played.shape != (self.num_envs,) or not np.issubdtype(played.dtype, np.integer):
            raise ValueError(
                f"actions must be {self.num_envs} integer action ids (one per game), got "
                f"shape {played.shape} of {played.dtype}"
            )
        outside = np.flatnonzero((played < 0) | (played >= NUM_ACTIONS))
        if outside.size:
            g = int(outside[0])
            raise ValueError(
                f"game {g}: action {int(played[g])} is not an action id: "
                f"expected 0..{NUM_ACTIONS - 1}"
            )
        self._vong_results = {}
        self._ended = {}
        self.engine.step(played)
        self._fresh[:] = False
        self._earned[:] = 0.0
        self._collect()
        self._play_opponents()
        rewards = self._undelivered + self._earned
        self._undelivered[:] = 0.0
        terminated = np.zeros(self.num_envs, dtype=bool)
        for g, (reward, _, _) in self._ended.items():
            # what its learner earned in the next match so far waits for its first step
            self._undelivered[g], rewards[g] = self._earned[g], reward
            terminated[g] = True
        truncated = np.zeros(self.num_envs, dtype=bool)
        return self._observations(), rewards, terminated, truncated, self._infos()

    def action_masks(self) -> np.ndarray:
        """``[num_envs, 131]`` bool: each learner's legal actions (sb3-contrib's
        ``MaskablePPO``)."""
        return self.engine.legal_mask().astype(bool)

    # ------------------------------------------------------------- helpers

    def _draw_seats(self, n: int) -> np.ndarray:
        if self.fixed_seat is not None:
            return np.full(n, self.fixed_seat, dtype=np.int64)
        return self.np_random.integers(NUM_SEATS, size=n)

    def _play_opponents(self) -> None:
        """Rounds of opponents' actions until every game's learner is to act."""
        engine = self.engine
        actions = np.empty(self.num_envs, dtype=np.int64)
        while True:
            offsets = (engine.to_act - self.learner) % NUM_SEATS
            if not offsets.any():
                return
            actions.fill(SIT_OUT)
            for policy, played in self._policies:
                games = np.flatnonzero(np.isin(offsets, played))
                if games.size:
                    actions[games] = policy.act(engine, games)
            engine.step(actions)
            self._collect()

    def _collect(self) -> None:
        """Take in what the last engine step gave each game's learner."""
        games = self.engine.games
        ended = np.flatnonzero(games["vong_ended"])
        if self.reward_mode == "points" and ended.size:
            payments = games["res_payments"][ended, self.learner[ended]]
            self._earned[ended] += payments / POINTS_PER_DIEM
        for g in ended.tolist():
            result = decode_result(games[g])
            assert result is not None  # a vòng ended
            self._vong_results.setdefault(g, []).append(vong_result_info(result))
        for g in np.flatnonzero(games["terminated"]).tolist():
            self._end_match(g)

    def _end_match(self, g: int) -> None:
        """Game ``g``'s match ended (the engine has dealt its next): keep what
        its learner gets for it, then draw the next match's learner."""
        final = self.engine.final_games[g]
        seat = int(self.learner[g])
        if self.reward_mode == "rank":
            self._earned[g] += placement_rewards(tuple(final["final_ranks"].tolist()))[seat]
        if not self._fresh[g]:
            observation = np.empty((1, OBS_SIZE), dtype=np.float32)
            game, seats = np.array([g]), np.array([seat])
            encode_seats(self.engine.final_games, game, seats, self.observer, observation)
            info = {**self._info(g), "match": _match_info(final)}
            reward = float(self._undelivered[g] + self._earned[g])
            self._ended[g] = (reward, observation[0], info)
        self._undelivered[g] = 0.0
        self._earned[g] = 0.0
        self._vong_results.pop(g, None)
        self._fresh[g] = True
        self.learner[g] = self._draw_seats(1)[0]

    def _observations(self) -> np.ndarray:
        observations = np.empty((self.num_envs, OBS_SIZE), dtype=np.float32)
        encode_observations(self.engine.games, self.learner, observations, self.observer)
        return observations

    def _info(self, g: int) -> dict[str, Any]:
        """Game ``g``'s info beyond its seat: the vòng results since its learner acted."""
        seat = int(self.learner[g])
        info: dict[str, Any] = {"seat": seat, "agent": AGENTS[seat]}
        results = self._vong_results.get(g)
        if results:
            info["vong_results"] = results
        return info

    def _infos(self) -> dict[str, Any]:
        b = self.num_envs
        infos: dict[str, Any] = {
            "seat": self.learner.copy(),
            "_seat": np.ones(b, dtype=bool),
            "agent": _AGENT_NAMES[self.learner],
            "_agent": np.ones(b, dtype=bool),
        }
        for g, (_, observation, info) in self._ended.items():
            infos = self._add_info(infos, {"final_obs": observation, "final_info": info}, g)
        for g, results in self._vong_results.items():
            infos = self._add_info(infos, {"vong_results": results}, g)
        return infos


def _match_info(final: np.void) -> dict[str, Any]:
    """:func:`env121.envs.aec_env.match_info` of a match ended in a batched game."""
    return {
        "reason": MATCH_ENDS[int(final["final_match_end"])],
        "scores": dict(zip(AGENTS, final["final_scores"].tolist(), strict=True)),
        "standings": dict(zip(AGENTS, final["final_standings"].tolist(), strict=True)),
        "ranks": dict(zip(AGENTS, final["final_ranks"].tolist(), strict=True)),
    }


def _opponent_list(opponents: BatchedPolicy | Sequence[BatchedPolicy]) -> list[BatchedPolicy]:
    if isinstance(opponents, str) or (
        isinstance(opponents, Sequence) and any(isinstance(o, str) for o in opponents)
    ):
        raise ValueError(
            f"opponents={opponents!r} is not valid here: this class takes batched policies; "
            "agent specs are built one layer up, by agents.environments.VectorSingleSeat or "
            "gym.make_vec('env121/SingleSeat-v1', vectorization_mode='vector_entry_point', "
            "opponents=…)"
        )
    if _is_policy(opponents):
        return [opponents] * (NUM_SEATS - 1)  # type: ignore[list-item]
    policies = list(opponents) if isinstance(opponents, Sequence) else []
    if len(policies) != NUM_SEATS - 1 or not all(_is_policy(p) for p in policies):
        raise ValueError(
            f"opponents={opponents!r} is not valid: expected None, one batched policy, or "
            f"{NUM_SEATS - 1} (each with spec, reset(seed) and act(engine, indices))"
        )
    return policies


def _is_policy(candidate: object) -> bool:
    return all(callable(getattr(candidate, m, None)) for m in ("reset", "act"))


__all__ = ["VectorSingleSeat"]
