"""Where every random number of a tournament comes from.

A tournament has one seed. From it, through the streams of
:mod:`env121.engine.seeds`:

* deal ``i`` is played from the match seed ``deal_seed(seed, i)`` (the stream
  ``TOURNAMENT_DEAL``; :func:`env121.engine.game.new_game` derives each vòng's
  cards from it), the same in every rotation and every line-up;
* the agent in ``seat`` of a game calls ``reset(agent_seed(...))`` with a seed
  drawn from ``(tournament seed, deal seed, line-up index, rotation, seat)``
  (the stream ``TOURNAMENT_AGENT``).

Each game's seeds therefore depend only on which game it is, never on the
order games run in or on how many processes run them.
"""

from __future__ import annotations

from env121.engine.seeds import Stream, derive_seed


def deal_seed(seed: int, deal: int) -> int:
    """The match seed of deal number ``deal`` of a tournament seeded ``seed``."""
    return derive_seed(seed, Stream.TOURNAMENT_DEAL, deal)


def deal_seeds(seed: int, deals: int) -> tuple[int, ...]:
    """The match seeds of deals ``0 .. deals − 1``."""
    return tuple(deal_seed(seed, i) for i in range(deals))


def agent_seed(seed: int, deal_seed: int, lineup: int, rotation: int, seat: int) -> int:
    """The ``reset`` seed of the agent in ``seat`` of one game."""
    return derive_seed(seed, Stream.TOURNAMENT_AGENT, deal_seed, lineup, rotation, seat)


__all__ = ["agent_seed", "deal_seed", "deal_seeds"]
