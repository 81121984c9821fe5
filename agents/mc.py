"""``mc``: determinized Monte Carlo over the seat's choices.

For each decision with a real choice (an offer it may swap on, the Nhất Bản
choice), the agent

1. lists candidates: PASS and the ``width`` swaps :class:`~agents.greedy.GreedyAgent`
   values most (every swap when ``width`` is 0); at the Nhất Bản choice,
   declining and declaring greedy's arrangement;
2. draws ``budget`` determinizations of what the seat knows
   (:meth:`env121.turn.Turn.determinization`) — or as many as fit in ``ms``
   milliseconds when ``ms`` is set — and, in each, plays every candidate on a
   copy: the candidate, the seat's own follow-up moves (Nhất Bản choice and
   placement) by greedy, then the rest of the vòng by the win-or-pass playout
   (:func:`agents.showdown.showdown`);
3. plays the candidate with the best mean result for the seat (its points won
   or paid in the vòng); ties go to greedy's choice.

The same determinizations serve every candidate (common random numbers), so
the comparison is sharper than the budget suggests. It takes Ù whenever it can
and declares Thế trắng whenever it may, as greedy does, and places a Nhất Bản
arrangement as greedy would.
"""

from __future__ import annotations

import time

import numpy as np

from agents.greedy import GreedyAgent
from agents.knowledge import HandJudge
from agents.showdown import seat_tables, showdown
from env121.actions import NHAT_BAN, PASS, THE_TRANG, U, action_card, is_card_action
from env121.game import apply
from env121.payment import win_payments
from env121.state import Phase, State
from env121.turn import Turn
from env121.win_table import win_points

_OWN_FOLLOW_UP = (Phase.NB_CHOICE, Phase.NB_GAP, Phase.NB_PLACE)
TableKey = tuple[tuple[int, ...], bool, tuple[int, ...], int, tuple[int, ...], bool]
FollowUpKey = tuple[Phase, tuple[int, ...], int, int, tuple[int, ...]]


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
        """The candidate with the best mean playout result (see the module docstring)."""
        legal = turn.legal_actions
        if len(legal) == 1:
            return legal[0]
        if U in legal:
            return U
        if THE_TRANG in legal:
            return THE_TRANG
        phase = turn.view.phase
        if phase != Phase.OFFER and not (phase == Phase.NB_CHOICE and self.nhat_ban):
            return self.greedy.act(turn)
        candidates = self.candidates(turn)
        if len(candidates) == 1:
            return candidates[0]
        totals = self.evaluate(turn, candidates)
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return candidates[best]

    def candidates(self, turn: Turn) -> list[int]:
        """Greedy's choice first, then the other candidates of the decision."""
        judge = HandJudge(turn.view, turn.config)
        legal = turn.legal_actions
        first = self.greedy.act(turn)
        if turn.view.phase == Phase.NB_CHOICE:
            return [first, *(a for a in (PASS, NHAT_BAN) if a in legal and a != first)]
        swaps = [a for a in legal if is_card_action(a)]
        if self.width and len(swaps) > self.width:
            own = judge.own
            offer = turn.view.offer_card
            locked = bool(judge.locked)

            def swap_value(action: int) -> float:
                put = action_card(action)
                five = [c for c in own if c != put] + [offer]
                return judge.value(five, locked=locked)

            swaps = sorted(swaps, key=lambda a: (-swap_value(a), a))[: self.width]
        return [first, *(a for a in (PASS, *swaps) if a != first)]

    def evaluate(self, turn: Turn, candidates: list[int]) -> list[float]:
        """Summed playout results of each candidate over the determinizations."""
        seat = turn.seat
        totals = [0.0] * len(candidates)
        tables: dict[TableKey, np.ndarray] = {}
        follow_ups: dict[FollowUpKey, int] = {}
        deadline = time.perf_counter() + self.ms / 1000 if self.ms else None
        samples = 0
        while True:
            world = turn.determinization(self.rng)
            for i, action in enumerate(candidates):
                totals[i] += self._playout(world, seat, action, tables, follow_ups)
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
        action: int,
        tables: dict[TableKey, np.ndarray],
        follow_ups: dict[FollowUpKey, int],
    ) -> float:
        """The seat's result in the vòng: ``action``, its own follow-up moves by
        greedy (memoized: they depend only on what the seat knows), then the
        win-or-pass playout."""
        state = world.clone()
        before = len(state.results)
        apply(state, action)
        while state.current_player == seat and state.phase in _OWN_FOLLOW_UP:
            key = (state.phase, state.hands[seat], state.offer_card, state.nb_gap, state.nb_placed)
            move = follow_ups.get(key)
            if move is None:
                move = follow_ups[key] = self.greedy.act(Turn(state, seat))
            apply(state, move)
        if len(state.results) > before or state.phase != Phase.OFFER:
            return float(state.scores[seat] - world.scores[seat])
        winner, points = showdown(state, [_table(state, s, tables) for s in range(4)])
        if winner < 0:
            return 0.0
        return float(win_payments(points, winner, state.config)[seat])


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
