"""``mc``'s playout as it was written on :class:`~env121.engine.state.State`
objects, one plan at a time: the reference :func:`agents.batched_mc.play_plans`
is proven equal to (``tests/agents/test_batched_mc.py``), value by value, on
the same worlds."""

from __future__ import annotations

from agents.greedy import GreedyAgent
from agents.leaf import leaf_value
from agents.mc import Plan
from agents.showdown import showdown
from env121.engine.actions import NHAT_BAN, PASS
from env121.engine.game import apply, legal_actions
from env121.engine.state import Phase, State
from env121.engine.win_table import seat_win_points
from env121.play.turn import Turn
from env121.rules.payment import win_payments

_OWN_FOLLOW_UP = (Phase.NB_CHOICE, Phase.NB_GAP, Phase.NB_PLACE)


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
