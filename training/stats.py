"""What the learner did in its episodes, for the ``charts/…`` logs.

:class:`LearnerStats` wraps a :class:`~env121.envs.single_seat.SingleSeat` and, when
an episode (a match) ends, adds ``info["learner_stats"]``: the vòng played,
the learner's wins (Ù or Thế trắng) and their Điểm, its Đền and its Cướp
(steals, counted from the engine's events), its rank, and one head-to-head
score per opponent seat (1 if the learner finished with more points than that
seat, ½ on a tie, 0 otherwise) labelled with what the seat played as.
:class:`StatsWindow` turns the last episodes into the logged rates.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

import gymnasium
import numpy as np

from env121.engine.state import NUM_SEATS, SwapKind, Swapped
from env121.envs.aec_env import AGENTS
from env121.envs.single_seat import SingleSeat
from training.pool import MixtureOpponent, opponent_kind


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
        learner = info["agent"]
        seat = AGENTS.index(learner)
        match = info.get("match", {})
        standings = match.get("standings", {})
        head_to_head = []
        for offset, opponent in enumerate(self.seat_env.opponents or (), start=1):
            label = opponent.label if isinstance(opponent, MixtureOpponent) else "random"
            other = AGENTS[(seat + offset) % NUM_SEATS]
            mine, theirs = standings.get(learner, 0), standings.get(other, 0)
            head_to_head.append((label, 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0))
        return {
            "return": self.total_reward,
            "rank": match.get("ranks", {}).get(learner),
            "vong": self.vong,
            "wins": self.wins,
            "win_points": self.win_points,
            "den": self.den,
            "cuop": self.cuop,
            "head_to_head": head_to_head,
        }


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


__all__ = ["LearnerStats", "StatsWindow"]
