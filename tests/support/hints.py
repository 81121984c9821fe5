"""The readable definitions of the ``swap_wins`` and ``nb_wins`` hint parts
(:data:`agents.inputs.SWAP_WINS_LAYOUT`, :data:`agents.inputs.NB_WINS_LAYOUT`),
valued with :class:`tests.support.knowledge.HandJudge`: what production computes with
the kernels of :mod:`agents.batched_hints` (:func:`agents.hints.swap_wins`,
:func:`agents.hints.nb_wins`), which ``tests/agents/test_batched_hints.py``
proves equal to these at every step of whole matches.
"""

from __future__ import annotations

import numpy as np

from agents.inputs import NB_WINS_LAYOUT, SWAP_POINTS_SCALE, SWAP_WAITS_SCALE, SWAP_WINS_LAYOUT
from agents.knowledge import swapped_hand
from env121.engine.actions import CARD_BASE, NB_GAP_BASE, NHAT_BAN, PASS, is_card_action
from env121.engine.game import swap_kind_between
from env121.engine.state import Phase, SwapKind
from env121.play.turn import Turn
from env121.rules.waits import (
    GAP,
    Arrangement,
    all_arrangements,
    nhat_ban_arrangements,
    placement_order,
)
from tests.support.knowledge import HandJudge

SWAP_WINS_SIZE = SWAP_WINS_LAYOUT.size
NB_WINS_SIZE = NB_WINS_LAYOUT.size


def swap_wins(turn: Turn) -> np.ndarray:
    """What each action of ``turn`` leaves the seat to win on
    (``float32[SWAP_WINS_SIZE]``, :data:`~agents.inputs.SWAP_WINS_LAYOUT`):
    in OFFER, for each legal swap the five cards it makes — locked (Bội ước)
    when the seat has locked cards or the swap is a Cướp — and for PASS the
    five kept (under Nhất Bản, its fixed arrangement); per hand, the Điểm of Ù
    on each unseen card (:meth:`~tests.support.knowledge.HandJudge.table`) summed, and
    how many unseen cards it wins on. All zeros in every other phase."""
    values = np.zeros(SWAP_WINS_SIZE, dtype=np.float32)
    view = turn.view
    if view.phase != Phase.OFFER:
        return values
    part = SWAP_WINS_LAYOUT.views(values)
    judge = HandJudge(view, turn.config)
    locked = bool(judge.locked)
    cuop = swap_kind_between(view.offer_exposer, view.seat) == SwapKind.CUOP
    for action in turn.legal_actions:
        if is_card_action(action):
            five = swapped_hand(judge.own, action - CARD_BASE, view.offer_card)
            table = judge.table(five, locked=locked or cuop)
        elif action == PASS:
            table = judge.table(judge.own, locked=locked, arrangement=view.nb_arrangement)
        else:
            continue
        wins = table[judge.unseen]
        part["swap_points"][action] = int(wins.sum()) / SWAP_POINTS_SCALE
        part["swap_waits"][action] = int(np.count_nonzero(wins > 0)) / SWAP_WAITS_SCALE
    return values


def arrangement_wins(judge: HandJudge) -> dict[Arrangement, tuple[int, int]]:
    """Every legal Nhất Bản arrangement of the judge's five
    (:func:`~env121.rules.waits.nhat_ban_arrangements`, or all of them when
    the rules do not ask for a wait) and what it wins on: ``(points, waits)``,
    the Điểm of Ù on each unseen card summed and how many unseen cards win."""
    legal = (
        nhat_ban_arrangements(judge.own)
        if judge.config.nhat_ban_requires_wait
        else all_arrangements(judge.own)
    )
    wins: dict[Arrangement, tuple[int, int]] = {}
    for arrangement in legal:
        on_unseen = judge.table(judge.own, locked=False, arrangement=arrangement)[judge.unseen]
        wins[arrangement] = (int(on_unseen.sum()), int(np.count_nonzero(on_unseen > 0)))
    return wins


def nb_wins(turn: Turn) -> np.ndarray:
    """What each Nhất Bản action of ``turn`` leaves the seat to win on
    (``float32[NB_WINS_SIZE]``, :data:`~agents.inputs.NB_WINS_LAYOUT`):
    the best ``(points, waits)`` of :func:`arrangement_wins` — by points, then
    waits — over the legal arrangements the action leaves open: in NB_CHOICE
    all of them for NHAT_BAN (PASS: the free hand, as :func:`swap_wins` gives
    PASS in OFFER); in NB_GAP those with the gap in that slot; in NB_PLACE
    those with the gap chosen, the cards placed so far and that card in the
    next slot. All zeros in every other phase."""
    values = np.zeros(NB_WINS_SIZE, dtype=np.float32)
    view = turn.view
    if view.phase not in (Phase.NB_CHOICE, Phase.NB_GAP, Phase.NB_PLACE):
        return values
    part = NB_WINS_LAYOUT.views(values)
    judge = HandJudge(view, turn.config)
    best: dict[int, tuple[int, int]] = {}
    if view.phase == Phase.NB_CHOICE:
        on_unseen = judge.table(judge.own, locked=bool(judge.locked))[judge.unseen]
        best[PASS] = (int(on_unseen.sum()), int(np.count_nonzero(on_unseen > 0)))
    legal = set(turn.legal_actions)
    for arrangement, wins in arrangement_wins(judge).items():
        action = _leaves_open(view.phase, arrangement, view.nb_gap, view.nb_placed)
        if action in legal and wins > best.get(action, (-1, 0)):
            best[action] = wins
    for action, (points, waits) in best.items():
        part["nb_points"][action] = points / SWAP_POINTS_SCALE
        part["nb_waits"][action] = waits / SWAP_WAITS_SCALE
    return values


def _leaves_open(phase: Phase, arrangement: Arrangement, gap: int, placed: tuple[int, ...]) -> int:
    """The action of ``phase`` after which ``arrangement`` can still be laid
    out (the gap ``gap`` chosen and the cards ``placed`` laid, in NB_PLACE),
    or -1 when it no longer can."""
    if phase == Phase.NB_CHOICE:
        return NHAT_BAN
    if phase == Phase.NB_GAP:
        return NB_GAP_BASE + arrangement.index(GAP)
    order = placement_order(gap)
    if arrangement[gap] != GAP or any(arrangement[order[k]] != c for k, c in enumerate(placed)):
        return -1
    return CARD_BASE + arrangement[order[len(placed)]]


__all__ = ["arrangement_wins", "nb_wins", "swap_wins"]
