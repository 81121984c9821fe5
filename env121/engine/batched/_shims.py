"""TEMPORARY: the compiled rules / rng API answered by the Python reference via objmode.

Removed once env121.rules.compiled (branch rules) and env121.engine.batched.rng
(branch rng) land.
"""

from __future__ import annotations

import numpy as np
from numba import njit, objmode

from env121.engine.seeds import Stream, derive_rng
from env121.rules.bonuses import NHAT_BAN_BONUS, THUONGS, WinSituation
from env121.rules.config import DEFAULT_CONFIG, RuleConfig
from env121.rules.scoring import score_valid_hand
from env121.rules.thes import THES, Table, completed_shape
from env121.rules.waits import has_nhat_ban_wait as _py_wait
from env121.rules.waits import placement_order
from env121.rules.waits import waiting_gaps as _py_gaps
from env121.rules.waits import waiting_next_cards as _py_next
from env121.rules.wins import may_have_the
from env121.rules.wins import the_trang_eligible as _py_tt

THE_IDS = tuple(t.id for t in THES)
BONUS_IDS = (*(t.id for t in THUONGS), NHAT_BAN_BONUS)
PLACEMENT_ORDER = np.array([placement_order(g) for g in range(6)], dtype=np.int64)
CONFIG: list[RuleConfig] = [DEFAULT_CONFIG]


def _t(a: np.ndarray) -> tuple[int, ...]:
    return tuple(int(x) for x in a)


def _py_is_win(six: np.ndarray, locked: bool) -> bool:
    cards = _t(six)
    if not may_have_the(cards):
        return False
    table = Table(CONFIG[0], 0, ())
    return score_valid_hand(cards, table, WinSituation(CONFIG[0]), locked=locked) is not None


def _py_score(six, locked, nb, chi, rev, dealer, self_drawn, last_card, out):  # type: ignore[no-untyped-def]
    table = Table(CONFIG[0], int(chi), _t(rev))
    sit = WinSituation(CONFIG[0], dealer=dealer, self_drawn=self_drawn, last_card=last_card)
    s = score_valid_hand(_t(six), table, sit, locked=locked, nhat_ban=nb)
    if s is None:
        return False, -1, 0, 0, 0, 0
    out[:] = s.arrangement
    mask = sum(1 << BONUS_IDS.index(b) for b in s.bonuses)
    the = -1 if s.the is None else THE_IDS.index(s.the)
    return True, the, s.tier, s.points, mask, s.indicator_points


@njit(cache=True)
def is_win(six, locked, kc):  # type: ignore[no-untyped-def]
    with objmode(r="boolean"):
        r = _py_is_win(six, locked)
    return r


@njit(cache=True)
def is_completed(six):  # type: ignore[no-untyped-def]
    with objmode(r="boolean"):
        r = completed_shape(_t(six)) > 0
    return r


@njit(cache=True)
def score_win(six, locked, nhat_ban, chi_diem, revealed, n_revealed, dealer, self_drawn, last_card, kc, out):  # type: ignore[no-untyped-def]
    rev = revealed[:n_revealed]
    with objmode(v="boolean", t="int64", ti="int64", p="int64", m="int64", ip="int64"):
        v, t, ti, p, m, ip = _py_score(
            six, locked, nhat_ban, chi_diem, rev, dealer, self_drawn, last_card, out
        )
    return v, t, ti, p, m, ip


@njit(cache=True)
def the_trang_eligible(hand5):  # type: ignore[no-untyped-def]
    with objmode(r="boolean"):
        r = _py_tt(_t(hand5))
    return r


@njit(cache=True)
def has_nhat_ban_wait(hand5):  # type: ignore[no-untyped-def]
    with objmode(r="boolean"):
        r = _py_wait(_t(hand5))
    return r


@njit(cache=True)
def waiting_gaps(hand5, out):  # type: ignore[no-untyped-def]
    with objmode(n="int64"):
        g = _py_gaps(_t(hand5))
        out[: len(g)] = g
        n = len(g)
    return n


@njit(cache=True)
def waiting_next_cards(hand5, gap, placed, n_placed, out):  # type: ignore[no-untyped-def]
    with objmode(n="int64"):
        g = _py_next(_t(hand5), int(gap), _t(placed[:n_placed]))
        out[: len(g)] = g
        n = len(g)
    return n


def _py_deck(seed: int, van: int, vong: int, out: np.ndarray) -> None:
    out[:] = derive_rng(int(seed), Stream.DEAL, int(van), int(vong)).permutation(121)


@njit(cache=True)
def deal_deck(seed, van, vong, out):  # type: ignore[no-untyped-def]
    with objmode():
        _py_deck(seed, van, vong, out)
