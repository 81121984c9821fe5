"""The public scoring API: is a six-card hand a win, and for how many Điểm?

* :func:`score_hand` — the best score of a win (spec §3–§6), or ``None``.
* :func:`thes_of` — the Thế one exact arrangement matches.
* :func:`is_completed` — whether one exact arrangement is a completed hand.
* :func:`explain_no_win` — why six cards are not a win, in words.

These are thin faces over the compiled scorer (:mod:`env121.rules.compiled`),
the one implementation the engine, the agents and these functions share: they
check their input, ask the kernel and turn its answer into Python values (a
:class:`HandScore`, a set of Thế ids). A normal win is laid out automatically
[R-14]: :func:`score_hand` takes the order with the most points, found without
trying the 720 orders (:mod:`env121.rules.compiled.scoring`). A Nhất Bản win
scores only the fixed arrangement.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

import numpy as np

from env121.rules.bonuses import WinSituation
from env121.rules.cards import NUM_CARDS, format_card, format_cards
from env121.rules.compiled.config import KernelConfig, kernel_config
from env121.rules.compiled.public_cards import MAX_AN_SI, public_cards
from env121.rules.compiled.scoring import (
    Six,
    completed_in_some_order,
    completed_shape,
    matching,
    score_win,
)
from env121.rules.compiled.search import search, sort_six
from env121.rules.compiled.tables import BONUS_IDS, QUOC_SI_FAMILY_MASK, THE_IDS
from env121.rules.config import DEFAULT_CONFIG, RuleConfig
from env121.rules.thes import THE_BY_ID, Table


@dataclass(frozen=True)
class HandScore:
    """The score of a valid win."""

    the: str | None
    """Id of the reported Thế; ``None`` for a Nhất Bản completed hand without one."""
    tier: int
    """Điểm of the Thế (``quoc_si_vo_song`` counts 10 [R-13]; 0 when ``the`` is None)."""
    points: int
    """Total Điểm: tier + len(bonuses) + indicator_points."""
    bonuses: frozenset[str]
    """Thưởng ids earned, plus ``"nhat_ban"`` for a win under Nhất Bản."""
    indicator_points: int
    """Điểm from the Chỉ Điểm and revealed Ẩn Sĩ (0 when they do not count)."""
    arrangement: tuple[int, ...]
    """The six card ids in the scored order."""

    @property
    def name_vi(self) -> str:
        """Vietnamese name of the Thế, or "Nhất Bản (hoàn thành bài)"."""
        return THE_BY_ID[self.the].name_vi if self.the else "Nhất Bản (hoàn thành bài)"

    def __str__(self) -> str:
        the = f"{self.the} ({self.name_vi}, {self.tier} Điểm)" if self.the else self.name_vi
        return f"{format_cards(self.arrangement)}: {the}, total {self.points} Điểm"


def score_hand(
    cards: Sequence[int],
    *,
    chi_diem: int | None,
    an_si: Iterable[int] = (),
    locked: bool = False,
    nhat_ban: bool = False,
    dealer: bool = False,
    self_drawn: bool = False,
    last_card: bool = False,
    config: RuleConfig | None = None,
) -> HandScore | None:
    """Score six cards as a win; ``None`` when they are not a valid win.

    ``cards``: six distinct card ids in any order — or, with ``nhat_ban=True``,
    the fixed arrangement with the winning card in its slot. ``chi_diem``: the
    Chỉ Điểm, or ``None`` for a hand scored without one (no indicator points;
    Thất Sĩ and above, which need it, never match: as :func:`thes_of`);
    ``an_si``: the *revealed* Ẩn Sĩ (0–4, only with a Chỉ Điểm). ``locked``: the winner is
    in Bội ước (no Quốc Sĩ family, no indicators). ``dealer``/``self_drawn``/
    ``last_card``: Thắng cái / Tự thân / Kết chung.

    Raises ``ValueError`` for malformed cards or indicators, and for
    ``locked`` together with ``nhat_ban`` (Nhất Bản cannot be declared in
    Bội ước).
    """
    config = DEFAULT_CONFIG if config is None else config
    hand = _six_cards(cards, "cards")
    table = _table(hand, chi_diem, an_si, config)
    if locked and nhat_ban:
        raise ValueError(
            "locked=True with nhat_ban=True is impossible: Nhất Bản cannot be declared in Bội ước"
        )
    situation = WinSituation(config, dealer=dealer, self_drawn=self_drawn, last_card=last_card)
    return score_valid_hand(hand, table, situation, locked=locked, nhat_ban=nhat_ban)


def score_valid_hand(
    hand: Sequence[int],
    table: Table,
    situation: WinSituation,
    *,
    locked: bool = False,
    nhat_ban: bool = False,
) -> HandScore | None:
    """:func:`score_hand` without its input checks, for callers whose input is
    valid by construction (the engine, the agents): six distinct card ids, a
    table with distinct revealed Ẩn Sĩ outside the hand, and not both
    ``locked`` and ``nhat_ban``."""
    return _score(tuple(hand), table, situation, locked, nhat_ban)


@lru_cache(maxsize=1 << 14)
def _score(
    hand: tuple[int, ...], table: Table, situation: WinSituation, locked: bool, nhat_ban: bool
) -> HandScore | None:
    """:func:`score_valid_hand`, remembered: a hand asked again (a search
    agent's playouts, the same offer seen by each seat) costs a lookup."""
    arrangement = np.zeros(6, dtype=np.int64)
    valid, the, tier, points, bonuses, indicators = score_win(
        np.array(hand, dtype=np.int64),
        locked,
        nhat_ban,
        public_cards(table.chi_diem, table.an_si),
        situation.dealer,
        situation.self_drawn,
        situation.last_card,
        _kernel_config(table.config),
        arrangement,
    )
    if not valid:
        return None
    return HandScore(
        the=THE_IDS[the] if the >= 0 else None,
        tier=int(tier),
        points=int(points),
        bonuses=frozenset(b for i, b in enumerate(BONUS_IDS) if bonuses >> i & 1),
        indicator_points=int(indicators),
        arrangement=tuple(int(c) for c in arrangement),
    )


def clear_score_cache() -> None:
    """Forget the remembered scores (for benchmarks that time a cold start)."""
    _score.cache_clear()


@lru_cache(maxsize=16)
def _kernel_config(config: RuleConfig) -> KernelConfig:
    """The kernels' form of ``config``, made once per config."""
    return kernel_config(config)


def thes_of(
    arrangement: Sequence[int],
    *,
    chi_diem: int | None = None,
    an_si: Iterable[int] = (),
    config: RuleConfig | None = None,
) -> frozenset[str]:
    """Ids of every Thế this exact order of six cards matches (spec §4).

    Thất Sĩ and above need the Chỉ Điểm: with ``chi_diem=None`` they never
    match. The Quốc Sĩ family is cumulative: a Cửu Sĩ is also a Bát Sĩ, a
    Thất Sĩ and a Quốc Sĩ.
    """
    config = DEFAULT_CONFIG if config is None else config
    hand = _six_cards(arrangement, "arrangement")
    table = _table(hand, chi_diem, an_si, config)
    public = public_cards(table.chi_diem, table.an_si)
    found = matching(np.asarray(hand, dtype=np.int64), public, _kernel_config(config))
    return frozenset(the for t, the in enumerate(THE_IDS) if found >> t & 1)


def is_completed(arrangement: Sequence[int], config: RuleConfig | None = None) -> bool:
    """Whether this exact order of six cards is a completed hand (spec §3).

    No rule variant changes the completed-hand shapes; ``config`` is accepted
    so every scoring function takes the same arguments.
    """
    hand = cast("Six", _six_cards(arrangement, "arrangement"))
    return bool(completed_shape(hand) > 0)


# ----------------------------------------------------------- input checks


def _card_id(value: Any, what: str) -> int:
    try:
        card = operator.index(value)
    except TypeError:
        raise ValueError(
            f"{what} {value!r} is not a card id: expected an int 0..{NUM_CARDS - 1} "
            "(use env121.parse_cards for the card notation)"
        ) from None
    if not 0 <= card < NUM_CARDS:
        raise ValueError(f"{what} {card} is out of range: expected a card id 0..{NUM_CARDS - 1}")
    return card


def _six_cards(cards: object, what: str) -> tuple[int, ...]:
    if isinstance(cards, str):
        raise ValueError(
            f"{what} {cards!r} is a string: expected six card ids (env121.parse_cards converts)"
        )
    if not isinstance(cards, Iterable):
        raise ValueError(f"{what} {cards!r} is not a sequence: expected six card ids")
    hand = tuple(_card_id(c, f"{what} entry") for c in cards)
    if len(hand) != 6 or len(set(hand)) != 6:
        raise ValueError(
            f"{what} must be six distinct cards, got {len(hand)} "
            f"({format_cards(hand)}){' with repeats' if len(set(hand)) != len(hand) else ''}"
        )
    return hand


def _table(
    hand: tuple[int, ...], chi_diem: int | None, an_si: Iterable[int], config: RuleConfig
) -> Table:
    if chi_diem is None:
        extra = list(an_si)
        if extra:
            raise ValueError(f"an_si {extra} given without chi_diem: expected chi_diem too")
        return Table(config)
    chi = _card_id(chi_diem, "chi_diem")
    revealed = tuple(_card_id(c, "an_si entry") for c in an_si)
    if chi in hand:
        raise ValueError(f"chi_diem {format_card(chi)} is one of the six cards: expected another")
    if len(revealed) > MAX_AN_SI or len(set(revealed)) != len(revealed):
        raise ValueError(
            f"an_si must be 0–{MAX_AN_SI} distinct cards, got {format_cards(revealed)!r}"
        )
    clash = [c for c in revealed if c in hand or c == chi]
    if clash:
        raise ValueError(
            f"an_si {format_cards(clash)} is also in the hand or the Chỉ Điểm: expected other cards"
        )
    return Table(config, chi, revealed)


def explain_no_win(
    cards: Sequence[int],
    *,
    locked: bool = False,
    nhat_ban: bool = False,
    config: RuleConfig | None = None,
) -> str:
    """Why six cards are not a valid win, in words (for people and logs).

    Meant for hands :func:`score_hand` returned ``None`` for; the indicators
    never decide it, so they are not asked for.
    """
    config = DEFAULT_CONFIG if config is None else config
    hand = _six_cards(cards, "cards")
    if nhat_ban:
        return "the fixed Nhất Bản arrangement is not a completed hand"
    six = np.asarray(hand, dtype=np.int64)
    kc = _kernel_config(config)
    found, _ = search(sort_six(six), kc.left_figures, kc.phe_phe_same_suits, 0)
    if locked and found and not found & ~QUOC_SI_FAMILY_MASK:
        names = ", ".join(sorted(the for t, the in enumerate(THE_IDS) if found >> t & 1))
        return f"only Quốc Sĩ-family Thế ({names}), which Bội ước forbids"
    if completed_in_some_order(six):
        return "completed hand but no Thế: Cấm thủ"
    return "not a completed hand in any order"
