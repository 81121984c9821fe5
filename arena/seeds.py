"""Where every random number of a tournament comes from.

A tournament has one seed. From it, through ``numpy.random.SeedSequence``:

* deal ``i`` is played from the match seed ``deal_seed(seed, i)``
  (:func:`env121.engine.game.new_game` derives each vòng's cards from it), the same
  in every rotation and every line-up;
* the agent in ``seat`` of a game calls ``reset(agent_seed(...))`` with a seed
  drawn from ``(tournament seed, deal seed, line-up index, rotation, seat)``.

Each game's seeds therefore depend only on which game it is, never on the
order games run in or on how many processes run them.
"""

from __future__ import annotations

import numpy as np


def deal_seed(seed: int, deal: int) -> int:
    """The match seed of deal number ``deal`` of a tournament seeded ``seed``."""
    return int(np.random.SeedSequence([seed, deal]).generate_state(1)[0])


def deal_seeds(seed: int, deals: int) -> tuple[int, ...]:
    """The match seeds of deals ``0 .. deals − 1``."""
    return tuple(deal_seed(seed, i) for i in range(deals))


def agent_seed(seed: int, deal_seed: int, lineup: int, rotation: int, seat: int) -> int:
    """The ``reset`` seed of the agent in ``seat`` of one game."""
    entropy = [seed, deal_seed, lineup, rotation, seat]
    return int(np.random.SeedSequence(entropy).generate_state(1)[0])


__all__ = ["agent_seed", "deal_seed", "deal_seeds"]
