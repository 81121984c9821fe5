"""``mc``: determinized Monte Carlo over the seat's choices.

For each decision with a real choice (an offer it may swap on, the Nhất Bản
choice), the agent

1. lists candidate *plans*: PASS, and every swap on a Bốc or Lấy — each
   twice, once followed by declaring Nhất Bản (when the new hand has a wait)
   and once not — or, on a Cướp, the ``width`` swaps
   :class:`~agents.greedy.GreedyAgent` values most (all when ``width`` is 0);
   at the Nhất Bản choice, declining and declaring;
2. draws ``budget`` determinizations of what the seat knows
   (:meth:`env121.turn.Turn.determinization`) — or as many as fit in ``ms``
   milliseconds when ``ms`` is set — and, in each, plays every candidate on a
   copy: the plan (a declared arrangement is the one greedy would lay out),
   then the rest of the vòng by the win-or-pass playout
   (:func:`agents.showdown.showdown`);
3. plays the first move of the plan with the best mean result for the seat
   (its points won or paid in the vòng); ties go to greedy's choice.

The same determinizations serve every candidate (common random numbers), so
the comparison is sharper than the budget suggests. It takes Ù whenever it can
and declares Thế trắng whenever it may, as greedy does, and places a Nhất Bản
arrangement as greedy would.
"""

from __future__ import annotations

import time

import numpy as np

from agents.greedy import GreedyAgent
from agents.knowledge import HandJudge, obvious_action, swapped_hand
from agents.showdown import seat_tables, showdown
from env121.actions import NHAT_BAN, PASS, action_card, is_card_action
from env121.game import apply, legal_actions, swap_kind_between
from env121.payment import win_payments
from env121.state import Phase, State, SwapKind
from env121.turn import Turn
from env121.waits import has_nhat_ban_wait
from env121.win_table import win_points

_OWN_FOLLOW_UP = (Phase.NB_CHOICE, Phase.NB_GAP, Phase.NB_PLACE)
TableKey = tuple[tuple[int, ...], bool, tuple[int, ...], int, tuple[int, ...], bool]
PlacementKey = tuple[Phase, tuple[int, ...], int, tuple[int, ...]]
Plan = tuple[int, bool]
"""A first action and whether to declare Nhất Bản if the choice follows."""


class MCAgent:
    """Determinized Monte Carlo with the win-or-pass playout; see the module docstring."""

    uses_search = True

    def __init__(
        self, budget: int = 24, ms: float = 0.0, width: int = 3, nhat_ban: bool = True
    ) -> None:
        if budget < 1:
            raise ValueError(f"budget={budget} is not valid: expected ≥ 1 determinization")
        if ms < 0:
            raise ValueError(f"ms={ms} is not valid: expected ≥ 0 (0: use the budget)")
        if width < 0:
            raise ValueError(f"width={width} is not valid: expected ≥ 0 (0: every swap)")
        self.spec = "mc"
        self.budget = budget
        self.ms = ms
        self.width = width
        self.nhat_ban = nhat_ban
        self.greedy = GreedyAgent()
        self.rng = np.random.default_rng(0)

    def reset(self, seed: int) -> None:
        """Reseed the determinizations for a new match."""
        self.rng = np.random.default_rng(seed)

    def act(self, turn: Turn) -> int:
        """The first move of the plan with the best mean playout result."""
        obvious = obvious_action(turn.legal_actions)
        if obvious is not None:
            return obvious
        phase = turn.view.phase
        if phase != Phase.OFFER and not (phase == Phase.NB_CHOICE and self.nhat_ban):
            return self.greedy.act(turn)
        plans = self.plans(turn)
        if len({action for action, _ in plans}) == 1:
            return plans[0][0]
        totals = self.evaluate(turn, plans)
        best = max(range(len(plans)), key=lambda i: (totals[i], -i))
        return plans[best][0]

    def plans(self, turn: Turn) -> list[Plan]:
        """Greedy's plan first, then the other plans of the decision."""
        legal = turn.legal_actions
        first = self.greedy.act(turn)
        if turn.view.phase == Phase.NB_CHOICE:
            return [(a, a == NHAT_BAN) for a in (first, *(a for a in legal if a != first))]
        judge = HandJudge(turn.view, turn.config)
        offer = turn.view.offer_card
        swaps = [a for a in legal if is_card_action(a)]

        def after(action: int) -> list[int]:
            return swapped_hand(judge.own, action_card(action), offer)

        if swap_kind_between(turn.view.offer_exposer, turn.seat) == SwapKind.CUOP:
            if self.width and len(swaps) > self.width:

                def gain(action: int) -> float:
                    return judge.value(after(action), locked=True)

                swaps = sorted(swaps, key=lambda a: (-gain(a), a))[: self.width]
            return list(
                dict.fromkeys([(first, False), (PASS, False), *((a, False) for a in swaps)])
            )
        plans: list[Plan] = []
        for a in swaps:
            plans.append((a, False))
            if self.nhat_ban and nhat_ban_allowed_for(turn, after(a)):
                plans.append((a, True))
        declares = is_card_action(first) and (
            self.greedy.nhat_ban_plan(judge.after_swap(after(first))) is not None
        )
        return list(dict.fromkeys([(first, declares), (PASS, False), *plans]))

    def evaluate(self, turn: Turn, plans: list[Plan]) -> list[float]:
        """Summed playout results of each plan over the determinizations."""
        seat = turn.seat
        totals = [0.0] * len(plans)
        tables: dict[TableKey, np.ndarray] = {}
        placements: dict[PlacementKey, int] = {}
        deadline = time.perf_counter() + self.ms / 1000 if self.ms else None
        samples = 0
        while True:
            world = turn.determinization(self.rng)
            for i, plan in enumerate(plans):
                totals[i] += self._playout(world, seat, plan, tables, placements)
            samples += 1
            if deadline is None and samples >= self.budget:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return totals

    def _playout(
        self,
        world: State,
        seat: int,
        plan: Plan,
        tables: dict[TableKey, np.ndarray],
        placements: dict[PlacementKey, int],
    ) -> float:
        """The seat's result in the vòng: the plan, its placement by greedy
        (memoized: it depends only on what the seat knows), then the
        win-or-pass playout."""
        action, declare = plan
        state = world.clone()
        before = len(state.results)
        apply(state, action)
        while state.current_player == seat and state.phase in _OWN_FOLLOW_UP:
            if state.phase == Phase.NB_CHOICE:
                move = NHAT_BAN if declare and NHAT_BAN in legal_actions(state) else PASS
            else:
                key = (state.phase, state.hands[seat], state.nb_gap, state.nb_placed)
                move = placements.get(key, -1)
                if move < 0:
                    move = placements[key] = self.greedy.act(Turn(state, seat))
            apply(state, move)
        if len(state.results) > before or state.phase != Phase.OFFER:
            return float(state.scores[seat] - world.scores[seat])
        winner, points = showdown(state, [_table(state, s, tables) for s in range(4)])
        if winner < 0:
            return 0.0
        return float(win_payments(points, winner, state.config)[seat])


def nhat_ban_allowed_for(turn: Turn, five: list[int]) -> bool:
    """Whether Nhất Bản could be declared with these five free cards."""
    return not turn.config.nhat_ban_requires_wait or has_nhat_ban_wait(five)


def _table(state: State, seat: int, memo: dict[TableKey, np.ndarray]) -> np.ndarray:
    five, locked, arrangement = seat_tables(state, seat)
    an_si = state.revealed_an_si
    dealer = state.dealer == seat
    key = (five, locked, arrangement, state.chi_diem, an_si, dealer)
    table = memo.get(key)
    if table is None:
        table = win_points(
            five,
            locked=locked,
            chi_diem=state.chi_diem,
            an_si=an_si,
            dealer=dealer,
            nb_arrangement=arrangement,
            config=state.config,
        )
        memo[key] = table
    return table


__all__ = ["MCAgent"]
