"""The win table: what Ù would score on each card, were it on offer now.

For a seat's five cards (free and locked) and the table (indicators, dealer,
Bội ước, a fixed Nhất Bản arrangement), :func:`win_points` gives, per card
id, the Điểm of Ù on that card, or 0 when it would not be a win. Its
definition is the scorer: card by card, ``score_hand(six, …,
self_drawn=False, last_card=False).points`` (0 for ``None``). Tự thân and Kết
chung are left out: they depend on how the card comes (own flip, last card of
the Nọc), not on the card.

The table is computed by the compiled kernel
:func:`env121.rules.compiled.win_table.win_points` (a fraction of the
Python scorer's cost: ``docs/measurements.md``): the observation's
``win_points`` piece and the agents' hand judgement ask it for every
decision. Tests compare it with the Python scorer on every card of many
hands, Nhất Bản and Bội ước included (``tests/env/test_observation.py``,
``tests/engine/test_compiled_win_table.py``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from env121.engine.state import State
from env121.rules.cards import NUM_CARDS
from env121.rules.compiled.public_cards import public_cards
from env121.rules.config import RuleConfig
from env121.rules.waits import GAP

if TYPE_CHECKING:
    from env121.rules.compiled.config import KernelConfig

_NO_ARRANGEMENT = np.full(6, GAP, dtype=np.int64)


@lru_cache(maxsize=16)
def _kernel_config(config: RuleConfig) -> KernelConfig:
    from env121.rules.compiled.config import kernel_config  # imports numba: see below

    return kernel_config(config)


def _compiled_win_points() -> Any:
    """The kernel, imported on first use: importing numba (and the scipy it
    loads; :mod:`env121.rules.compiled` imports it to set up the kernels' cache)
    takes about a second, which ``import env121`` and the commands that never
    need a win table should not pay."""
    from env121.rules.compiled.win_table import win_points as kernel

    return kernel


@lru_cache(maxsize=1 << 12)
def win_points(
    cards: tuple[int, ...],
    *,
    locked: bool,
    chi_diem: int,
    an_si: tuple[int, ...],
    dealer: bool,
    nb_arrangement: tuple[int, ...],
    config: RuleConfig,
) -> np.ndarray:
    """Điểm of Ù on each card id, were it on offer now (0: no win); read-only.

    ``cards`` are the seat's five (free and locked, sorted); ``locked`` says it
    is in Bội ước; ``an_si`` are the revealed Ẩn Sĩ; ``nb_arrangement`` is its
    fixed Nhất Bản arrangement or ``()``. Card by card equal to
    ``score_hand(six, …, self_drawn=False, last_card=False).points``; the five
    cards and the indicators, which cannot be on offer, get 0.
    """
    five = np.array(cards, dtype=np.int64)
    # The kernel reads Bội ước from a locked count; which of the five is locked
    # does not change a score, so the last one stands for them.
    n_locked = 1 if locked else 0
    out = np.zeros(NUM_CARDS, dtype=np.int16)
    _compiled_win_points()(
        five,
        len(cards) - n_locked,
        five[len(cards) - n_locked :],
        n_locked,
        bool(nb_arrangement),
        np.array(nb_arrangement, dtype=np.int64) if nb_arrangement else _NO_ARRANGEMENT,
        public_cards(chi_diem, an_si),
        dealer,
        _kernel_config(config),
        out,
    )
    out.flags.writeable = False
    return out


def seat_win_points(state: State, seat: int) -> np.ndarray:
    """:func:`win_points` of ``seat`` in ``state``: its five cards (free and
    locked), Bội ước, its Nhất Bản arrangement, the table's indicators, dealer."""
    return win_points(
        tuple(sorted((*state.hands[seat], *state.locked[seat]))),
        locked=bool(state.locked[seat]),
        chi_diem=state.chi_diem,
        an_si=state.revealed_an_si,
        dealer=state.dealer == seat,
        nb_arrangement=state.nb_arrangement[seat],
        config=state.config,
    )


__all__ = ["seat_win_points", "win_points"]
