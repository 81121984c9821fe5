"""``greedy``: a rule-based player that always takes the best hand in reach.

* **Ù** whenever it wins, and **Thế trắng** whenever it may.
* **Swaps** (Bốc, Lấy, Cướp) towards the five cards with the highest value:
  the Điểm of every win they would make on a card not seen yet, summed, plus
  a small weight per related pair. A Cướp is judged as the locked hand it
  makes (Bội ước: no Quốc Sĩ family, no indicators) and must also gain
  ``cuop_margin`` more, for the Ẩn Sĩ it turns for everyone.
* **Nhất Bản** when the best arrangement it finds waits on at least
  ``nhat_ban_waits`` unseen cards and is worth at least what the free hand is;
  it then places that arrangement.

It is deterministic: the same view always gets the same action.

There is one definition of greedy's judgement, the compiled kernel
:func:`agents.batched_greedy.greedy_action`; :class:`GreedyAgent` is that
kernel for one game (a batch of one: the :class:`~env121.play.turn.Turn`'s
:meth:`~env121.play.turn.Turn.seat_record`), and
:class:`~agents.batched_greedy.BatchedGreedy` is it for many. The readable
Python definition the kernel is proven equal to, decision by decision, lives in
``tests/support/greedy.py`` (``tests/agents/test_batched_greedy.py``).
"""

from __future__ import annotations

import numpy as np

from agents.batched_greedy import check_parameters, greedy_actions, new_plans
from env121.engine.game import kernel_config_of
from env121.play.turn import Turn

_FIRST = np.zeros(1, dtype=np.int64)
"""The one game of a batch of one."""


class GreedyAgent:
    """The rule-based baseline for one game at a time; see the module docstring."""

    uses_search = False

    def __init__(self, cuop_margin: float = 4.0, nhat_ban_waits: int = 2) -> None:
        check_parameters(cuop_margin, nhat_ban_waits)
        self.spec = "greedy"
        self.cuop_margin = float(cuop_margin)
        self.nhat_ban_waits = int(nhat_ban_waits)
        self._plans = new_plans(1)
        """The arrangement memory (:func:`~agents.batched_greedy.new_plans`):
        a declaration and its placements search their arrangement once."""

    def reset(self, seed: int) -> None:
        """Nothing to reseed: the agent is deterministic."""

    def act(self, turn: Turn) -> int:
        """The action this agent plays on ``turn``."""
        legal = turn.legal_actions
        if len(legal) == 1:
            return legal[0]
        return self.act_on(turn.seat_record(), turn)

    def act_on(self, record: np.ndarray, turn: Turn) -> int:
        """The action on ``turn`` judged from ``record``, its
        :meth:`~env121.play.turn.Turn.seat_record` (for a caller that reads it
        for more than greedy's choice)."""
        out = np.empty(1, dtype=np.int64)
        config = kernel_config_of(turn.config)
        greedy_actions(
            record, config, _FIRST, self.cuop_margin, self.nhat_ban_waits, self._plans, out
        )
        return int(out[0])


__all__ = ["GreedyAgent"]
