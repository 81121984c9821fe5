"""Why a vòng ended as it did: its result as rows a person reads.

:func:`explain_results` walks a match's events and explains every finished
vòng (:class:`~env121.engine.state.VongResult`): for a win, one row for the
Thế (its Vietnamese name, gloss, the book's table and its Điểm), one per
Thưởng, one per indicator that counted (which of its figure and suit the hand
holds) and the total — the same parts :func:`env121.rules.scoring.score_hand`
added up; for Thế trắng, a Đền or a draw, one row saying so. Each explanation
also names the payments and the step (the action) that ended the vòng, so the
replay viewer can jump there. It is plain data (dicts of strings and ints),
ready for JSON.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from env121.engine.render import SEAT_NAMES, describe_result
from env121.engine.state import AnSiTurned, Event, Outcome, VongResult, VongStarted
from env121.rules.bonuses import NHAT_BAN_BONUS, THUONG_BY_ID, indicator_hits
from env121.rules.cards import format_card
from env121.rules.thes import THE_BY_ID


def result_rows(
    result: VongResult, chi_diem: int, an_si: Sequence[int]
) -> list[tuple[str, str, int]]:
    """``(part, why, Điểm)`` rows adding up to ``result.points``; ``chi_diem``
    and ``an_si`` are the indicators on the table when the vòng ended."""
    if result.outcome == Outcome.THE_TRANG:
        return [("Thế trắng", "five cards declared before the first flip", 1)]
    if result.outcome == Outcome.DEN:
        return [("Đền", "Ù called on a hand that is not a win: 1 Điểm to each other seat", 1)]
    if result.outcome == Outcome.DRAW:
        why = "the action limit was reached" if result.truncated else "the Nọc ran out"
        return [("Drawn", why, 0)]
    rows = []
    if result.the is None:
        rows.append(("Thế", "none: a completed hand under Nhất Bản", 0))
    else:
        the = THE_BY_ID[result.the]
        rows.append(("Thế", f"{the.name_vi} — {the.gloss} ({the.heading})", result.tier))
    for bonus in result.bonuses:
        if bonus == NHAT_BAN_BONUS:
            rows.append(("Thưởng", "Nhất Bản — won under a Nhất Bản declaration", 1))
        else:
            thuong = THUONG_BY_ID[bonus]
            rows.append(("Thưởng", f"{thuong.name_vi} — {thuong.gloss}", 1))
    if result.indicator_points:
        for indicator in (chi_diem, *an_si):
            hits = indicator_hits(result.arrangement, indicator)
            if hits:
                which = "Chỉ Điểm" if indicator == chi_diem else "Ẩn Sĩ"
                label = f"{which} {format_card(indicator)}: the hand holds {' and '.join(hits)}"
                rows.append(("indicator", label, len(hits)))
    return rows


def explain_results(
    events: Sequence[Event],
    results: Sequence[VongResult],
    names: Sequence[str] = SEAT_NAMES,
    *,
    ended_at: Sequence[int] = (),
) -> list[dict[str, Any]]:
    """Every finished vòng of a match explained (see the module docstring).

    ``events`` are the match's events and ``results`` its results, in order;
    ``ended_at[i]``, when given, is the step that ended vòng ``i``.
    """
    indicators: list[tuple[int, list[int]]] = []
    for event in events:
        if isinstance(event, VongStarted):
            indicators.append((event.chi_diem, []))
        elif isinstance(event, AnSiTurned):
            indicators[-1][1].append(event.card)
    explained = []
    for i, result in enumerate(results):
        chi_diem, an_si = indicators[i]
        rows = result_rows(result, chi_diem, an_si)
        explained.append(
            {
                "van": result.van,
                "vong": result.vong,
                "title": f"ván {result.van + 1}, vòng {result.vong + 1}",
                "summary": describe_result(result, names),
                "rows": [list(row) for row in rows],
                "points": result.points,
                "payments": list(result.payments),
                "step": ended_at[i] if i < len(ended_at) else None,
            }
        )
    return explained


__all__ = ["explain_results", "result_rows"]
