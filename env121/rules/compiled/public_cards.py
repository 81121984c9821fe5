"""``PublicCards``: the table's face-up indicators, as the compiled scorer reads them.

A score looks at the six cards and, besides them, at the Chỉ Điểm and the
revealed Ẩn Sĩ (Quốc Sĩ members, indicator points, the cards no seat can win
on). Those three values travel together from the game's record to every kernel
that scores, so they are one record: a named tuple, which numba passes by
value (its fields are unpacked into the kernel's registers: no allocation, no
indirection, and kernels taking it cache to disk like any other), unlike a
jitclass (a reference-counted object, not cacheable) or a structured-array
record (a view into an array the caller must allocate).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

MAX_AN_SI = 4
"""The Ẩn Sĩ dealt face down; at most this many are revealed."""


class PublicCards(NamedTuple):
    """The Chỉ Điểm and the revealed Ẩn Sĩ."""

    chi_diem: int
    """The Chỉ Điểm; -1 when unknown (then no indicator counts and the Quốc Sĩ
    members that need it never match)."""
    an_si: np.ndarray
    """The Ẩn Sĩ in turning order (card ids); only the first ``n_an_si`` are revealed."""
    n_an_si: int
    """How many Ẩn Sĩ are revealed."""


def public_cards(chi_diem: int | None, an_si: Sequence[int] = ()) -> PublicCards:
    """The record of a Chỉ Điểm (``None``: unknown) and the revealed Ẩn Sĩ, for
    Python callers."""
    cards = np.full(MAX_AN_SI, -1, dtype=np.int64)
    cards[: len(an_si)] = an_si
    return PublicCards(-1 if chi_diem is None else chi_diem, cards, len(an_si))


__all__ = ["MAX_AN_SI", "PublicCards", "public_cards"]
