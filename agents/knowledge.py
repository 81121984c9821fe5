"""What every built-in agent knows without judging a hand: the move it makes
without thinking (:func:`obvious_action`), the five cards a swap makes
(:func:`swapped_hand`), and the constants of greedy's hand value
(:data:`RELATED_PAIR_WEIGHT`, :data:`NHAT_BAN_SAMPLE`).

A hand's value itself — the Điểm of every win it would make on a card the
seat has not seen yet, summed, plus a small term for related cards — is
computed by the kernels of :mod:`agents.batched_greedy`; its readable
definition, :class:`HandJudge` on a :class:`~env121.engine.view.SeatView`,
lives in ``tests/support/knowledge.py``, which the kernels are proven equal to.
"""

from __future__ import annotations

from collections.abc import Sequence

from env121.engine.actions import THE_TRANG, U

RELATED_PAIR_WEIGHT = 0.1
"""Value of each related pair (same figure or suit) among the five cards."""
NHAT_BAN_SAMPLE = 24
"""Waiting arrangements tried besides those that lay out the hand's Thế wins."""


def obvious_action(legal: Sequence[int]) -> int | None:
    """The move every built-in agent makes without thinking, if there is one:
    the only legal action, Ù, or Thế trắng."""
    if len(legal) == 1:
        return legal[0]
    if U in legal:
        return U
    if THE_TRANG in legal:
        return THE_TRANG
    return None


def swapped_hand(own: Sequence[int], put: int, offer: int) -> list[int]:
    """The five cards after taking ``offer`` and putting ``put`` out."""
    return [c for c in own if c != put] + [offer]


__all__ = ["NHAT_BAN_SAMPLE", "RELATED_PAIR_WEIGHT", "obvious_action", "swapped_hand"]
