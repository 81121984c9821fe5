"""OpenSkill ratings (Plackett–Luce) from the final ranks of every game.

Each game is one four-way free-for-all: the seats are four one-player teams
ranked by the match's final ranks (1 = best; equal standings share a rank,
which Plackett–Luce treats as a tie). Games are rated one after another in the
tournament's fixed order (deal, line-up, rotation), so the ratings do not
depend on how many processes played them.

Ratings are per agent *spec*. When one spec sits in several seats of a game
(the reference of 1 vs 3, a small round-robin pool), each copy is rated as a
separate player starting from the spec's current rating, and the spec then
takes the mean of its copies' updated ``mu`` and ``sigma`` — the mean of the
copies' updates.

A rating is shown as its *ordinal* ``mu − 3σ`` (a conservative skill: the
number leaderboards sort by) and the range ``mu ± 3σ``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL_NAME = "openskill PlackettLuce (default parameters: mu 25, sigma 25/3)"


@dataclass(frozen=True)
class Rating:
    """One agent's skill: mean ``mu`` and uncertainty ``sigma``."""

    mu: float
    sigma: float
    games: int
    """Games it took part in (a game with several copies counts once)."""

    @property
    def ordinal(self) -> float:
        """``mu − 3σ``: the skill the agent has with high confidence."""
        return self.mu - 3 * self.sigma

    @property
    def low(self) -> float:
        """``mu − 3σ``."""
        return self.mu - 3 * self.sigma

    @property
    def high(self) -> float:
        """``mu + 3σ``."""
        return self.mu + 3 * self.sigma


def rate_games(
    games: Iterable[tuple[Sequence[str], Sequence[int]]], players: Sequence[str]
) -> dict[str, Rating]:
    """Ratings of ``players`` after rating each ``(seat players, seat ranks)`` game in order."""
    model = PlackettLuce()
    start = model.rating()
    mu = {p: float(start.mu) for p in players}
    sigma = {p: float(start.sigma) for p in players}
    played = dict.fromkeys(players, 0)
    for seat_players, ranks in games:
        teams = [[model.rating(mu=mu[p], sigma=sigma[p])] for p in seat_players]
        updated = model.rate(teams, ranks=[float(r) for r in ranks])
        new: dict[str, list[tuple[float, float]]] = {}
        for p, [rating] in zip(seat_players, updated, strict=True):
            new.setdefault(p, []).append((float(rating.mu), float(rating.sigma)))
        for p, copies in new.items():
            mu[p] = sum(m for m, _ in copies) / len(copies)
            sigma[p] = sum(s for _, s in copies) / len(copies)
            played[p] += 1
    return {p: Rating(mu[p], sigma[p], played[p]) for p in players}


__all__ = ["MODEL_NAME", "Rating", "rate_games"]
