"""What the learner did in its episodes, for the ``charts/…`` logs.

:class:`LearnerStats` wraps a :class:`~env121.envs.single_seat.SingleSeat` and, when
an episode (a match) ends, adds ``info["learner_stats"]``: the vòng played,
the learner's wins (Ù or Thế trắng) and their Điểm, its Đền and its Cướp
(steals, counted from the engine's events), its rank, and one head-to-head
score per opponent seat (1 if the learner finished with more points than that
seat, ½ on a tie, 0 otherwise) labelled with what the seat played as.
:class:`BatchedLearnerStats` adds the same dict to the games of the batched
vector environment under SB3 (:class:`~training.sb3_vec.SB3VectorSingleSeat`).
:class:`StatsWindow` turns the last episodes into the logged rates.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

import gymnasium
import numpy as np
from stable_baselines3.common.vec_env import VecEnvWrapper
from stable_baselines3.common.vec_env.base_vec_env import VecEnvObs, VecEnvStepReturn

from env121.engine.actions import CARD_BASE
from env121.engine.game import swap_kind_between
from env121.engine.kernel.record import PHASES
from env121.engine.state import NUM_SEATS, Phase, SwapKind, Swapped
from env121.envs.aec_env import AGENTS
from env121.envs.single_seat import SingleSeat
from env121.rules.cards import NUM_CARDS
from training.pool import BatchedMixture, MixtureOpponent, opponent_kind
from training.sb3_vec import SB3VectorSingleSeat


class LearnerStats(gymnasium.Wrapper[np.ndarray, np.int64, np.ndarray, np.int64]):
    """Adds ``info["learner_stats"]`` (a dict) to the last step of each episode."""

    def __init__(self, env: SingleSeat) -> None:
        super().__init__(env)
        self.seat_env = env
        self._reset_counts()

    def _reset_counts(self) -> None:
        self.vong = self.wins = self.win_points = self.den = self.cuop = 0
        self.total_reward = 0.0
        self._events_seen = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Reset the episode and its counts."""
        observation, info = self.env.reset(seed=seed, options=options)
        self._reset_counts()
        self._count(info)
        return observation, info

    def step(self, action: np.int64) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Step, count, and report the counts when the episode ends."""
        observation, reward, terminated, truncated, info = self.env.step(action)
        self.total_reward += float(reward)
        self._count(info)
        if terminated or truncated:
            info = {**info, "learner_stats": self._summary(info)}
        return observation, float(reward), terminated, truncated, info

    def _count(self, info: dict[str, Any]) -> None:
        learner = info["agent"]
        for result in info.get("vong_results", ()):
            self.vong += 1
            if result["winner"] == learner:
                self.wins += 1
                self.win_points += result["points"]
            self.den += result["offender"] == learner
        events = self.seat_env.env.game.events
        seat = AGENTS.index(learner)
        for event in events[self._events_seen :]:
            if isinstance(event, Swapped) and event.seat == seat and event.kind is SwapKind.CUOP:
                self.cuop += 1
        self._events_seen = len(events)

    def _summary(self, info: dict[str, Any]) -> dict[str, Any]:
        labels = [
            opponent.label if isinstance(opponent, MixtureOpponent) else "random"
            for opponent in self.seat_env.opponents or ()
        ]
        counts = {"vong": self.vong, "wins": self.wins, "win_points": self.win_points}
        counts |= {"den": self.den, "cuop": self.cuop}
        return episode_summary(info, self.total_reward, counts, labels)


def episode_summary(
    info: dict[str, Any], total_reward: float, counts: dict[str, int], labels: list[str]
) -> dict[str, Any]:
    """The ``learner_stats`` of a match that ended with ``info``: its return,
    the learner's rank, ``counts`` (``vong``, ``wins``, ``win_points``,
    ``den``, ``cuop``) and one head-to-head score per opponent seat, labelled
    by ``labels`` (what the seats +1, +2, +3 after the learner played as)."""
    learner = info["agent"]
    seat = AGENTS.index(learner)
    match = info.get("match", {})
    standings = match.get("standings", {})
    head_to_head = []
    for offset, label in enumerate(labels, start=1):
        other = AGENTS[(seat + offset) % NUM_SEATS]
        mine, theirs = standings.get(learner, 0), standings.get(other, 0)
        head_to_head.append((label, 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0))
    return {
        "return": total_reward,
        "rank": match.get("ranks", {}).get(learner),
        **counts,
        "head_to_head": head_to_head,
    }


_OFFER = PHASES.index(Phase.OFFER)
_CUOP = np.array(
    [[swap_kind_between(e, s) is SwapKind.CUOP for s in range(NUM_SEATS)] for e in range(NUM_SEATS)]
)
"""``_CUOP[exposer, seat]``: taking a card ``exposer`` put out is a Cướp for ``seat``."""
_COUNTS = ("vong", "wins", "win_points", "den", "cuop")


class BatchedLearnerStats(VecEnvWrapper):
    """:class:`LearnerStats` for every game of an
    :class:`~training.sb3_vec.SB3VectorSingleSeat` whose opponents are the
    :class:`~training.pool.BatchedMixture` ``opponents``: the info of a game
    whose match ended gets ``learner_stats``, the same dict. The vòng come
    from ``info["vong_results"]``; a Cướp is a swap (``CARD(c)``) the
    learner plays when asked about a card that neither it nor the seat
    before it put out (read from the engine before the step); the
    head-to-head labels are what the mixture drew for the match (its draws
    when the learner last acted in it)."""

    def __init__(self, venv: SB3VectorSingleSeat, opponents: BatchedMixture) -> None:
        super().__init__(venv)
        self.vector = venv.venv
        self.opponents = opponents
        self.counts = {name: np.zeros(venv.num_envs, dtype=np.int64) for name in _COUNTS}
        self.total_reward = np.zeros(venv.num_envs, dtype=np.float64)
        self.drawn = np.zeros((venv.num_envs, NUM_SEATS), dtype=np.int64)
        """What the seats of each game play as in the match its learner is in
        (the mixture's ``labels`` when the learner was last to act)."""

    def reset(self) -> VecEnvObs:
        """New matches in every game, their counts from zero."""
        observations = self.venv.reset()
        for counts in self.counts.values():
            counts[:] = 0
        self.total_reward[:] = 0.0
        for g, info in enumerate(self.venv.reset_infos):
            self._count(g, info)
        self.opponents.refresh(self.vector.engine)
        self.drawn = self.opponents.labels.copy()
        return observations

    def step_async(self, actions: np.ndarray) -> None:
        """Count the learners' Cướp among ``actions``, then pass them on."""
        games = self.vector.engine.games
        played = np.asarray(actions)
        cards = (played >= CARD_BASE) & (played < CARD_BASE + NUM_CARDS)
        swaps = (games["phase"] == _OFFER) & cards
        exposers = np.where(swaps, games["offer_exposer"], 0)
        self.counts["cuop"] += swaps & _CUOP[exposers, self.vector.learner]
        self.venv.step_async(actions)

    def step_wait(self) -> VecEnvStepReturn:
        """Step, count, and add ``learner_stats`` to the games whose match ended."""
        observations, rewards, dones, infos = self.venv.step_wait()
        self.total_reward += rewards
        for g, info in enumerate(infos):
            self._count(g, info)
        drawn = self.drawn
        self.opponents.refresh(self.vector.engine)
        self.drawn = self.opponents.labels.copy()
        for g in np.flatnonzero(dones).tolist():
            info = infos[g]
            seat = info["seat"]
            codes = [drawn[g, (seat + k) % NUM_SEATS] for k in range(1, NUM_SEATS)]
            labels = [self.opponents.names[code] for code in codes]
            counts = {name: int(values[g]) for name, values in self.counts.items()}
            info["learner_stats"] = episode_summary(
                info, float(self.total_reward[g]), counts, labels
            )
            for values in self.counts.values():
                values[g] = 0
            self.total_reward[g] = 0.0
            self._count(g, self.venv.reset_infos[g])
        return observations, rewards, dones, infos

    def _count(self, g: int, info: dict[str, Any]) -> None:
        learner = info["agent"]
        for result in info.get("vong_results", ()):
            self.counts["vong"][g] += 1
            if result["winner"] == learner:
                self.counts["wins"][g] += 1
                self.counts["win_points"][g] += result["points"]
            self.counts["den"][g] += result["offender"] == learner


class StatsWindow:
    """The last ``size`` episodes' :class:`LearnerStats` summaries."""

    def __init__(self, size: int) -> None:
        self.episodes: deque[dict[str, Any]] = deque(maxlen=size)
        self.total_episodes = 0

    def add(self, summary: dict[str, Any]) -> None:
        """Remember one finished episode."""
        self.episodes.append(summary)
        self.total_episodes += 1

    def head_to_head(self, kind: str) -> list[float]:
        """The learner's head-to-head scores against seats of ``kind`` (``"pool"``…)."""
        return [
            s
            for e in self.episodes
            for label, s in e["head_to_head"]
            if opponent_kind(label) == kind
        ]

    def charts(self) -> dict[str, float]:
        """Rates over the window: ``charts/<name>`` -> value (only those defined)."""
        if not self.episodes:
            return {}
        episodes = self.episodes
        vong = sum(e["vong"] for e in episodes)
        wins = sum(e["wins"] for e in episodes)
        charts = {
            "episode_return": _mean(e["return"] for e in episodes),
            "rank": _mean(e["rank"] for e in episodes if e["rank"] is not None),
            "episodes": float(self.total_episodes),
        }
        if vong:
            charts["win_rate_per_vong"] = wins / vong
            charts["den_rate_per_vong"] = sum(e["den"] for e in episodes) / vong
            charts["cuop_per_vong"] = sum(e["cuop"] for e in episodes) / vong
        if wins:
            charts["diem_per_win"] = sum(e["win_points"] for e in episodes) / wins
        kinds = {opponent_kind(label) for e in episodes for label, _ in e["head_to_head"]}
        for kind in sorted(kinds):
            charts[f"beat_rate_vs_{kind}"] = _mean(self.head_to_head(kind))
        return {f"charts/{k}": v for k, v in charts.items() if not np.isnan(v)}


def _mean(values: Iterable[float]) -> float:
    items = list(values)
    return float(np.mean(items)) if items else float("nan")


__all__ = ["BatchedLearnerStats", "LearnerStats", "StatsWindow", "episode_summary"]
