"""``oracle``: :mod:`agents.mc`'s search on the true state — it sees every hand.

A diagnostic ceiling, not a fair player. Where ``mc`` draws determinizations
of what its seat knows, the oracle plays each of mc's plans once on the true
state (:meth:`env121.play.turn.Turn.true_state`: every hand and the Nọc's
order) with mc's playout, and picks the plan with the best result (greedy's on
ties). That is exactly ``mc`` whose determinizations are all the true state:
its samples are then identical, so each plan's gain is either exactly zero or
infinitely many standard errors from it, and the confidence gate and the
budget change nothing.

Its edge over an agent measures what the hidden cards are worth to that
agent's search (``agents/README.md``). With ``chain`` its playout has greedy
play every seat to the next flip — on the true hands, so it also foresees
greedy opponents exactly: an edge over greedy then measures foresight of
greedy as well.

It declares ``sees_all_hands``: the arena seats it and labels it "(sees all
hands)" in every table; ``env121 play`` beside a person, the web table and a
:class:`~env121.envs.single_seat.SingleSeat` opponent refuse it
(:func:`env121.play.protocol.require_fair`).
"""

from __future__ import annotations

import numpy as np

from agents.mc import NO_VALUE, MCAgent, Plan, Searched
from env121.engine.game import kernel_record
from env121.play.turn import Turn


class OracleAgent(MCAgent):
    """``mc``'s plans and playout on the true state; see the module docstring."""

    uses_search = False
    sees_all_hands = True

    def __init__(
        self,
        width: int = 3,
        nhat_ban: bool = True,
        chain: bool = False,
        leaf: bool = True,
        value: str = NO_VALUE,
    ) -> None:
        super().__init__(width=width, nhat_ban=nhat_ban, chain=chain, leaf=leaf, value=value)
        self.spec = "oracle"

    def search(self, turn: Turn, plans: list[Plan]) -> Searched:
        """The plan with the best playout on the true state (0, greedy's, on
        ties); its gains are exact (±inf standard errors, 0 for a tie)."""
        world = kernel_record(turn.true_state())
        results = self.play(world, turn.seat, plans, turn.config)[0]
        gains = results - results[0]
        z = np.where(gains == 0, 0.0, np.copysign(np.inf, gains))
        return Searched(int(np.argmax(results)), gains, z)


__all__ = ["OracleAgent"]
