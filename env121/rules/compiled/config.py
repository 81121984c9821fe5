"""``KernelConfig``: a :class:`~env121.rules.config.RuleConfig` as compiled code reads it.

numba kernels cannot read a frozen dataclass of frozensets and ``None``; they
read this named tuple of plain scalars and one array instead, made once per
engine by :func:`kernel_config`. Each field is the RuleConfig field of the same
name, with two changes of form: ``left_figures`` becomes one flag per figure,
and ``max_actions_per_vong=None`` (unlimited) becomes 0.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from env121.rules.cards import NUM_FIGURES
from env121.rules.config import RuleConfig


class KernelConfig(NamedTuple):
    """The rule variants, one scalar each (``left_figures`` an ``int8[11]``)."""

    left_figures: np.ndarray
    """``int8[11]``: 1 where the figure looks left ([R-1]); CREST and the others 0."""
    phe_phe_same_suits: bool
    nhat_ban_requires_wait: bool
    mask_invalid_win: bool
    payment_hundreds: bool
    """``payment_rounding == "hundreds"`` ([R-12])."""
    num_van: int
    starting_points: int
    carry_scores: bool
    max_actions_per_vong: int
    """The cap on actions per vòng; 0 when unlimited (``None``)."""
    the_trang_asks_every_seat: bool


def kernel_config(config: RuleConfig) -> KernelConfig:
    """The :class:`KernelConfig` of ``config``."""
    left = np.zeros(NUM_FIGURES, dtype=np.int8)
    left[sorted(config.left_figures)] = 1
    cap = config.max_actions_per_vong
    return KernelConfig(
        left_figures=left,
        phe_phe_same_suits=config.phe_phe_same_suits,
        nhat_ban_requires_wait=config.nhat_ban_requires_wait,
        mask_invalid_win=config.mask_invalid_win,
        payment_hundreds=config.payment_rounding == "hundreds",
        num_van=config.num_van,
        starting_points=config.starting_points,
        carry_scores=config.carry_scores,
        max_actions_per_vong=0 if cap is None else cap,
        the_trang_asks_every_seat=config.the_trang_asks_every_seat,
    )


__all__ = ["KernelConfig", "kernel_config"]
