"""``greedy``: a rule-based player that always takes the best hand in reach.

* **Ù** whenever it wins, and **Thế trắng** whenever it may.
* **Swaps** (Bốc, Lấy, Cướp) towards the five cards with the highest
  :meth:`~tests.support.knowledge.HandJudge.value`: the Điểm of every win they would
  make on a card not seen yet, summed. A Cướp is judged as the locked hand it
  makes (Bội ước: no Quốc Sĩ family, no indicators) and must also gain
  ``cuop_margin`` more, for the Ẩn Sĩ it turns for everyone.
* **Nhất Bản** when the best arrangement it finds waits on at least
  ``nhat_ban_waits`` unseen cards and is worth at least what the free hand is
  (:meth:`~tests.support.knowledge.HandJudge.nhat_ban_candidates`); it then places that
  arrangement.

It is deterministic: the same view always gets the same action.

This is the readable definition of greedy, no longer part of the package:
production plays greedy's compiled kernel (:mod:`agents.batched_greedy`,
and :class:`agents.greedy.GreedyAgent` for one game), which
``tests/agents/test_batched_greedy.py`` proves equal to this, decision by
decision.
"""

from __future__ import annotations

from collections.abc import Hashable

from agents.knowledge import obvious_action, swapped_hand
from env121.engine.actions import (
    NHAT_BAN,
    PASS,
    action_card,
    card_action,
    is_card_action,
    nb_gap_action,
)
from env121.engine.game import swap_kind_between
from env121.engine.state import Phase, SwapKind
from env121.play.turn import Turn
from env121.rules.waits import GAP, placement_order
from tests.support.knowledge import HandJudge

Plan = tuple[tuple[int, ...], float]
"""A Nhất Bản arrangement and its value."""
ARRANGEMENT_MEMORY = 4096
"""Best arrangements remembered (then forgotten all at once)."""


class GreedyAgent:
    """The rule-based baseline; see the module docstring."""

    uses_search = False

    def __init__(self, cuop_margin: float = 4.0, nhat_ban_waits: int = 2) -> None:
        if cuop_margin < 0:
            raise ValueError(f"cuop_margin={cuop_margin} is not valid: expected ≥ 0")
        if nhat_ban_waits < 1:
            raise ValueError(f"nhat_ban_waits={nhat_ban_waits} is not valid: expected ≥ 1")
        self.spec = "greedy"
        self.cuop_margin = cuop_margin
        self.nhat_ban_waits = nhat_ban_waits
        self._arrangements: dict[Hashable, Plan | None] = {}

    def reset(self, seed: int) -> None:
        """Nothing to reseed: the agent is deterministic."""

    def act(self, turn: Turn) -> int:
        """The action this agent plays on ``turn``."""
        legal = turn.legal_actions
        obvious = obvious_action(legal)
        if obvious is not None:
            return obvious
        judge = HandJudge(turn.view, turn.config)
        phase = turn.view.phase
        if phase == Phase.OFFER:
            return self.best_swap(judge, legal)
        if phase == Phase.NB_CHOICE:
            return NHAT_BAN if self.nhat_ban_plan(judge) is not None else PASS
        return self.placement(judge, legal)

    # ------------------------------------------------------------ decisions

    def best_swap(self, judge: HandJudge, legal: tuple[int, ...]) -> int:
        """PASS, or the swap whose hand gains the most value."""
        cuop = swap_kind_between(judge.view.offer_exposer, judge.view.seat) == SwapKind.CUOP
        best, best_gain = PASS, self.cuop_margin if cuop else 0.0
        for action, gain in swap_gains(judge, legal).items():
            if gain > best_gain:
                best, best_gain = action, gain
        return best

    def nhat_ban_plan(self, judge: HandJudge) -> Plan | None:
        """The arrangement to declare, or None when the free hand is better."""
        plan = self.best_arrangement(judge)
        if plan is None:
            return None
        arrangement, value = plan
        if judge.waits(arrangement) < self.nhat_ban_waits:
            return None
        if value < judge.value(judge.own, locked=False):
            return None
        return plan

    def best_arrangement(self, judge: HandJudge) -> Plan | None:
        """The most valuable Nhất Bản arrangement of the seat's five cards
        (None when none is legal). Remembered for the moment it was judged at,
        so the placement that follows a declaration does not search again."""
        key = judge.moment()
        if key in self._arrangements:
            return self._arrangements[key]
        plans = [
            (a, judge.value(judge.own, locked=False, arrangement=a))
            for a in judge.nhat_ban_candidates(judge.own)
        ]
        best = max(plans, key=lambda plan: (plan[1], plan[0])) if plans else None
        if len(self._arrangements) >= ARRANGEMENT_MEMORY:
            self._arrangements.clear()
        self._arrangements[key] = best
        return best

    def placement(self, judge: HandJudge, legal: tuple[int, ...]) -> int:
        """The next NB_GAP / CARD action laying out the planned arrangement."""
        view = judge.view
        plan = self.best_arrangement(judge)
        if plan is None or not _agrees(plan[0], view.nb_gap, view.nb_placed):
            return legal[0]
        arrangement = plan[0]
        if view.phase == Phase.NB_GAP:
            action = nb_gap_action(arrangement.index(GAP))
        else:
            slot = placement_order(view.nb_gap)[len(view.nb_placed)]
            action = card_action(arrangement[slot])
        return action if action in legal else legal[0]


def swap_gains(judge: HandJudge, legal: tuple[int, ...]) -> dict[int, float]:
    """Per legal swap action: the value of the hand it makes minus the value of
    the hand kept (a Cướp's hand is judged locked)."""
    view = judge.view
    cuop = swap_kind_between(view.offer_exposer, view.seat) == SwapKind.CUOP
    locked_after = bool(judge.locked) or cuop
    keep = judge.value(judge.own, locked=bool(judge.locked))
    return {
        action: judge.value(
            swapped_hand(judge.own, action_card(action), view.offer_card), locked=locked_after
        )
        - keep
        for action in legal
        if is_card_action(action)
    }


def _agrees(arrangement: tuple[int, ...], gap: int, placed: tuple[int, ...]) -> bool:
    """Whether ``arrangement`` extends a placement in progress (gap -1: not begun)."""
    if gap < 0:
        return True
    if arrangement.index(GAP) != gap:
        return False
    slots = placement_order(gap)
    return all(arrangement[slot] == c for slot, c in zip(slots, placed, strict=False))


__all__ = ["GreedyAgent", "swap_gains"]
