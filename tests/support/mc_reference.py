"""``mc``'s plans and playout as they were written on :class:`~env121.engine.state.State`
objects, one plan at a time: the reference :func:`agents.batched_mc.play_plans`
is proven equal to (``tests/agents/test_batched_mc.py``), value by value, on
the same worlds; and :func:`plans`, the plans ``mc`` lists judged by the
readable greedy (:mod:`tests.support.greedy`), which
:meth:`agents.mc.MCAgent.plans` lists from greedy's kernel.

Its two valuations, in plain Python from per-seat win tables (the Điểm of Ù
on each card, :func:`env121.engine.win_table.win_points`, without Tự thân and
Kết chung, which they add):

* :func:`offer_round` — the card on offer goes round its remaining askers, the
  first whose Ù would be valid wins (``tests/agents/test_agents.py`` checks it
  against the engine played win-or-pass); :func:`leaf_value` — that, else the
  fitted line of :mod:`agents.leaf`;
* :func:`showdown` — the *win-or-pass* policy to the end of the vòng: when
  every seat keeps its hand and only declares Ù or passes, the end is fixed
  by the hands and the Nọc order (each lượt's flipper turns the next card and
  offers it to itself and the three after it). Not modelled (the policy never
  reaches them): swaps, Nhất Bản declarations, the ``max_actions_per_vong``
  cap.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agents.batched_mc import KET_CHUNG, TU_THAN
from agents.knowledge import swapped_hand
from agents.leaf import SCALE, noc_means
from agents.mc import Plan
from env121.engine.actions import NHAT_BAN, PASS, action_card, is_card_action
from env121.engine.game import apply, legal_actions, nhat_ban_allowed, swap_kind_between
from env121.engine.state import NUM_SEATS, Phase, State, SwapKind
from env121.engine.win_table import seat_win_points
from env121.play.turn import Turn
from env121.rules.payment import win_payments
from tests.support.greedy import GreedyAgent
from tests.support.knowledge import HandJudge

_OWN_FOLLOW_UP = (Phase.NB_CHOICE, Phase.NB_GAP, Phase.NB_PLACE)


def plans(turn: Turn, *, width: int = 3, nhat_ban: bool = True) -> list[Plan]:
    """Greedy's plan first, then the other plans of the decision, as
    :meth:`agents.mc.MCAgent.plans` lists them (its ``width`` and ``nhat_ban``)."""
    greedy = GreedyAgent()
    legal = turn.legal_actions
    first = greedy.act(turn)
    if turn.view.phase == Phase.NB_CHOICE:
        return [(a, a == NHAT_BAN) for a in (first, *(a for a in legal if a != first))]
    judge = HandJudge(turn.view, turn.config)
    offer = turn.view.offer_card
    swaps = [a for a in legal if is_card_action(a)]

    def after(action: int) -> list[int]:
        return swapped_hand(judge.own, action_card(action), offer)

    if swap_kind_between(turn.view.offer_exposer, turn.seat) == SwapKind.CUOP:
        if width and len(swaps) > width:

            def gain(action: int) -> float:
                return judge.value(after(action), locked=True)

            swaps = sorted(swaps, key=lambda a: (-gain(a), a))[:width]
        return list(dict.fromkeys([(first, False), (PASS, False), *((a, False) for a in swaps)]))
    listed: list[Plan] = []
    for a in swaps:
        listed.append((a, False))
        if nhat_ban and nhat_ban_allowed(turn.config, after(a)):
            listed.append((a, True))
    declares = is_card_action(first) and (
        greedy.nhat_ban_plan(judge.after_swap(after(first))) is not None
    )
    return list(dict.fromkeys([(first, declares), (PASS, False), *listed]))


def playout(world: State, seat: int, plan: Plan, *, chain: bool, leaf: bool) -> float:
    """The seat's result in the vòng: the plan and the seat's follow-up, with
    ``chain`` greedy for every seat until the next flip, then the leaf value
    (or the showdown); the vòng's payment to the seat if it ended on the way."""
    greedy = GreedyAgent()
    action, declare = plan
    state = world.clone()
    apply(state, action)
    while state.current_player == seat and state.phase in _OWN_FOLLOW_UP:
        if state.phase == Phase.NB_CHOICE:
            move = NHAT_BAN if declare and NHAT_BAN in legal_actions(state) else PASS
        else:
            move = greedy.act(Turn(state, seat))
        apply(state, move)
    if chain:
        flips = state.noc_pos
        while len(state.results) == len(world.results) and state.noc_pos == flips:
            apply(state, greedy.act(Turn(state, state.current_player)))
    if len(state.results) > len(world.results):
        return float(state.results[-1].payments[seat])
    if state.phase != Phase.OFFER:
        return 0.0
    tables = [seat_win_points(state, s) for s in range(4)]
    if leaf:
        return leaf_value(state, seat, tables)
    winner, points = showdown(state, tables)
    return 0.0 if winner < 0 else float(win_payments(points, winner, state.config)[seat])


def offer_round(state: State, tables: Sequence[np.ndarray]) -> tuple[int, int]:
    """``(winner, Điểm)`` when one of the askers still to answer on the card on
    offer wins on it (the first in order), else ``(-1, 0)``."""
    if state.phase != Phase.OFFER:
        raise ValueError(f"the card on offer needs an OFFER state, not {state.phase.value}")
    card, exposer, flipped = state.offer_card, state.offer_exposer, state.offer_flipped
    for seat in state.ask_order[state.ask_pos :]:
        points = int(tables[seat][card])
        if points:
            own_flip = flipped and exposer == seat
            last = flipped and state.noc_left == 0
            return seat, points + TU_THAN * own_flip + KET_CHUNG * last
    return -1, 0


def leaf_value(state: State, seat: int, tables: Sequence[np.ndarray]) -> float:
    """The seat's points from an OFFER state: the card on offer goes round its
    remaining askers, who win on it or pass (exact in this state); if nobody
    wins, the fitted value of the hands for the rest of the vòng."""
    winner, points = offer_round(state, tables)
    if winner >= 0:
        return float(win_payments(points, winner, state.config)[seat])
    t = noc_means(state, tables)
    return SCALE * float(t[seat] - t.mean())


def showdown(state: State, tables: Sequence[np.ndarray]) -> tuple[int, int]:
    """``(winner, Điểm)`` of the win-or-pass playout from an OFFER state, or
    ``(-1, 0)`` for a draw on an empty Nọc; ``tables`` as in :func:`offer_round`."""
    winner, points = offer_round(state, tables)
    if winner >= 0:
        return winner, points
    noc = state.noc[state.noc_pos :]
    flipper = (state.offer_exposer + 1) % NUM_SEATS
    for i, card in enumerate(noc):
        last = i == len(noc) - 1
        for k in range(NUM_SEATS):
            seat = (flipper + k) % NUM_SEATS
            points = int(tables[seat][card])
            if points:
                return seat, points + TU_THAN * (k == 0) + KET_CHUNG * last
        flipper = (flipper + 1) % NUM_SEATS
    return -1, 0
