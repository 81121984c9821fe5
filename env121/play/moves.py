"""A seat's legal moves named for a person: ``"swap out GEN/FR (Lấy MUS/LB)"``,
``"Ù — Phiên – Phiên Ba Đôi, 9 Điểm"``, ``"declare Nhất Bản"``.

:func:`named_moves` lists a :class:`~env121.play.turn.Turn`'s legal actions
in the order a person weighs them (Ù, the declarations, pass, the swaps, the
Nhất Bản slots) with a description of each; :func:`describe_move` names one.
Both read only the seat's :class:`~env121.engine.view.SeatView` and the rules,
so they show nothing the seat may not know. :func:`u_score` is what Ù would
score now, worked out from the view with the public scorer
(:func:`env121.rules.scoring.score_hand`), so it agrees with the engine.
"""

from __future__ import annotations

from env121.engine.actions import (
    NHAT_BAN,
    PASS,
    THE_TRANG,
    U,
    action_card,
    action_slot,
    is_card_action,
)
from env121.engine.game import swap_kind_between
from env121.engine.state import Phase, SwapKind
from env121.engine.view import SeatView
from env121.play.turn import Turn
from env121.rules.cards import format_card
from env121.rules.config import RuleConfig
from env121.rules.scoring import HandScore, score_hand
from env121.rules.waits import fill_gap, placement_order

_ORDER = {U: 0, THE_TRANG: 1, NHAT_BAN: 2, PASS: 3}
"""Where the single actions come in a list of moves; the card and slot
actions follow, in id order."""


def u_score(view: SeatView, config: RuleConfig) -> HandScore | None:
    """The score of Ù on the card on offer for the viewing seat; None if it
    would not be a win (a Đền)."""
    seat, card = view.seat, view.offer_card
    if view.nhat_ban[seat]:
        cards = fill_gap(view.nb_arrangement, card)
    else:
        cards = (*view.hand, *view.locked[seat], card)
    return score_hand(
        cards,
        chi_diem=view.chi_diem,
        an_si=view.an_si_revealed,
        locked=bool(view.locked[seat]),
        nhat_ban=view.nhat_ban[seat],
        dealer=seat == view.dealer,
        self_drawn=view.offer_flipped and view.offer_exposer == seat,
        last_card=view.offer_flipped and view.noc_left == 0,
        config=config,
    )


def describe_move(view: SeatView, action: int, config: RuleConfig) -> str:
    """One legal action of the viewing seat, in words."""
    phase = view.phase
    if phase == Phase.THE_TRANG:
        return "declare Thế trắng (wins 1 Điểm)" if action == THE_TRANG else "don't declare"
    if phase == Phase.NB_CHOICE:
        return "declare Nhất Bản" if action == NHAT_BAN else "don't declare Nhất Bản"
    if phase == Phase.NB_GAP:
        return f"leave slot {action_slot(action) + 1} of 6 empty"
    if phase == Phase.NB_PLACE:
        slot = placement_order(view.nb_gap)[len(view.nb_placed)]
        return f"put {format_card(action_card(action))} in slot {slot + 1}"
    if action == U:
        score = u_score(view, config)
        if score is None:
            return "Ù — not a win: Đền (you pay 1 Điểm to each other seat)"
        return f"Ù — {score.name_vi}, {score.points} Điểm"
    if action == PASS:
        return f"pass (Bỏ) on {format_card(view.offer_card)}"
    kind = swap_kind_between(view.offer_exposer, view.seat)
    taken = format_card(view.offer_card)
    lock = ": locks it, turns an Ẩn Sĩ" if kind == SwapKind.CUOP else ""
    return f"swap out {format_card(action_card(action))} ({kind.value} {taken}{lock})"


def named_moves(turn: Turn) -> list[tuple[int, str]]:
    """The turn's legal actions with their descriptions, in the order a
    person weighs them: Ù, Thế trắng, Nhất Bản, pass, the swaps (or the cards
    to place), the Nhất Bản slots."""
    actions = sorted(turn.legal_actions, key=_rank)
    return [(a, describe_move(turn.view, a, turn.config)) for a in actions]


def _rank(action: int) -> tuple[int, int]:
    if action in _ORDER:
        return (_ORDER[action], 0)
    return (len(_ORDER) + (0 if is_card_action(action) else 1), action)


__all__ = ["describe_move", "named_moves", "u_score"]
