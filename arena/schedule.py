"""Who plays which game: line-ups, the duplicate rotation and the two modes.

**Duplicate format.** A *line-up* is four players in seat order. Every deal is
played four times, in rotations ``r = 0..3``; in rotation ``r``, seat ``s`` is
played by ``lineup[(s − r) % 4]`` (:func:`seat_player`). The cards stay put
(``new_game(deal_seed)`` with the engine's own rotation 0), so over the four
rotations every player holds every seat's cards, deals from every position and
sits in every relation to the others' cards — the luck of the deal cancels.

**1 vs 3.** A *matchup* ``(challenger, reference)`` is the line-up
``(challenger, reference, reference, reference)``: the challenger against
three copies of the reference. Several matchups may run in one tournament;
each is a :class:`Group` of its own.

**Round-robin** over a pool of agents, one :class:`Group` for all:

* 4 or more agents: every combination of 4 distinct agents, in pool order;
* 2 or 3 agents: every 4-multiset of the pool in which each agent appears at
  least once (2 agents: AAAB, AABB, ABBB; 3 agents: AABC, ABBC, ABCC).

Players are named by *labels*, the keys of the result tables: the agent's
spec, except in a matchup of an agent against itself, where the two roles
are told apart as ``"<spec> (challenger)"`` and ``"<spec> (reference)"``.
Ratings are kept per spec (:mod:`arena.ratings`).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from env121.engine.state import NUM_SEATS

Mode = Literal["1v3", "round_robin"]


def seat_player(seat: int, rotation: int) -> int:
    """The line-up position that plays ``seat`` in ``rotation``."""
    return (seat - rotation) % NUM_SEATS


@dataclass(frozen=True)
class Lineup:
    """Four players in seat order at rotation 0 (see :func:`seat_player`)."""

    index: int
    group: int
    """The :class:`Group` whose results the line-up's games count in."""
    specs: tuple[str, ...]
    labels: tuple[str, ...]

    def seat_specs(self, rotation: int) -> tuple[str, ...]:
        """The spec of each seat 0..3 in ``rotation``."""
        return tuple(self.specs[seat_player(s, rotation)] for s in range(NUM_SEATS))

    def seat_labels(self, rotation: int) -> tuple[str, ...]:
        """The label of each seat 0..3 in ``rotation``."""
        return tuple(self.labels[seat_player(s, rotation)] for s in range(NUM_SEATS))


@dataclass(frozen=True)
class Group:
    """A set of line-ups whose games make one results table."""

    name: str
    """``"greedy vs 3× random"``, or ``"round-robin"``."""
    labels: tuple[str, ...]
    """The players of the table, in display order."""
    specs: tuple[str, ...]
    """The spec of each label."""
    challenger: str | None = None
    """The challenger's label (1 vs 3 only)."""
    reference: str | None = None
    """The reference's label (1 vs 3 only)."""


@dataclass(frozen=True)
class Schedule:
    """Every line-up of a tournament and the groups they report in."""

    mode: Mode
    lineups: tuple[Lineup, ...]
    groups: tuple[Group, ...]

    @property
    def specs(self) -> tuple[str, ...]:
        """The distinct agent specs, in order of first appearance (the rated players)."""
        return tuple(dict.fromkeys(s for lineup in self.lineups for s in lineup.specs))


def matchup_name(challenger: str, reference: str) -> str:
    """``"greedy vs 3× random"``: the name of a 1-vs-3 matchup."""
    return f"{challenger} vs 3× {reference}"


def plan_one_vs_three(matchups: Sequence[tuple[str, str]]) -> Schedule:
    """One line-up and one group per ``(challenger, reference)`` pair."""
    if not matchups:
        raise ValueError("no matchup given: expected at least one (challenger, reference) pair")
    lineups: list[Lineup] = []
    groups: list[Group] = []
    for i, (challenger, reference) in enumerate(matchups):
        if challenger == reference:
            labels = (f"{challenger} (challenger)", f"{reference} (reference)")
        else:
            labels = (challenger, reference)
        lineups.append(
            Lineup(i, i, (challenger,) + (reference,) * 3, (labels[0],) + (labels[1],) * 3)
        )
        groups.append(
            Group(
                matchup_name(challenger, reference),
                labels,
                (challenger, reference),
                challenger=labels[0],
                reference=labels[1],
            )
        )
    return Schedule("1v3", tuple(lineups), tuple(groups))


def round_robin_lineups(pool: Sequence[str]) -> list[tuple[str, ...]]:
    """The round-robin line-ups of ``pool`` (rules in the module docstring)."""
    if len(set(pool)) != len(pool):
        twice = sorted({s for s in pool if list(pool).count(s) > 1})
        raise ValueError(f"the pool lists {twice} more than once: expected distinct agents")
    if len(pool) < 2:
        raise ValueError(f"a round-robin pool needs at least 2 agents, got {list(pool)}")
    if len(pool) >= NUM_SEATS:
        return list(itertools.combinations(pool, NUM_SEATS))
    return [
        combo
        for combo in itertools.combinations_with_replacement(pool, NUM_SEATS)
        if set(combo) == set(pool)
    ]


def plan_round_robin(pool: Sequence[str]) -> Schedule:
    """Every round-robin line-up of ``pool``, all in one group."""
    lineups = tuple(Lineup(i, 0, combo, combo) for i, combo in enumerate(round_robin_lineups(pool)))
    return Schedule("round_robin", lineups, (Group("round-robin", tuple(pool), tuple(pool)),))


__all__ = [
    "Group",
    "Lineup",
    "Mode",
    "Schedule",
    "matchup_name",
    "plan_one_vs_three",
    "plan_round_robin",
    "round_robin_lineups",
    "seat_player",
]
