"""``import:`` batched policies for the tests (:func:`agents.entries.batched_decide`).

``highest_legal`` decides for many games at once on the legal masks alone (the
highest legal id), as :class:`HighestLegal` does one turn at a time;
``illegal`` answers the lowest illegal id and ``ragged`` one id too few. A
torch module is in ``tests/support/torch_policy.py`` (torch: the train extra).
"""

from __future__ import annotations

import numpy as np

from env121.play.turn import Turn


def highest_legal(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The highest legal id of each mask."""
    highest: np.ndarray = masks.shape[1] - 1 - np.argmax(masks[:, ::-1], axis=1)
    return highest


class HighestLegal:
    """:func:`highest_legal` as an agent of ``act(turn)``."""

    uses_search = False

    def reset(self, seed: int) -> None:
        """Nothing to seed."""

    def act(self, turn: Turn) -> int:
        """The highest legal id."""
        return max(turn.legal_actions)


def illegal(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The lowest illegal id of each mask."""
    lowest: np.ndarray = np.argmin(masks, axis=1)
    return lowest


def ragged(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """One id too few."""
    return highest_legal(observations, masks)[1:]
