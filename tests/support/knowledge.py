"""The readable definition of greedy's hand value: what a seat can reason
about its hand from its :class:`~env121.engine.view.SeatView`.

:class:`HandJudge` values five-card hands the way the hand-written agents
think about them: a hand is worth the Điểm of every win it would make on a card
the seat has not seen yet (:func:`unseen_cards`), summed — more waits and
bigger wins both count — plus a small term for related cards, which steers a
hand that waits on nothing towards one that soon will. Every Điểm comes from
the engine's own win table (:func:`env121.engine.win_table.win_points`), so the
Quốc Sĩ family, Bội ước and the indicators are judged exactly as the rules say.
Production computes the same values with the kernels of
:mod:`agents.batched_greedy` (``tests/agents/test_batched_greedy.py``).
"""

from __future__ import annotations

import copy
from collections.abc import Hashable, Iterable, Sequence
from itertools import combinations

import numpy as np

from agents.knowledge import NHAT_BAN_SAMPLE, RELATED_PAIR_WEIGHT
from env121.engine.view import SeatView
from env121.engine.win_table import win_points
from env121.rules.bonuses import WinSituation
from env121.rules.cards import FIG, NUM_CARDS, SUIT
from env121.rules.config import RuleConfig
from env121.rules.scoring import score_valid_hand
from env121.rules.thes import Table
from env121.rules.waits import GAP, all_arrangements, nhat_ban_arrangements


def unseen_cards(view: SeatView) -> np.ndarray:
    """Per card id, whether the seat cannot place it: it may still be drawn
    from the Nọc or put out by an opponent (hidden hands, Nọc, unturned Ẩn Sĩ)."""
    unseen = np.ones(NUM_CARDS, dtype=bool)
    seen: list[int] = [*view.hand, *view.dead, view.chi_diem, *view.an_si_revealed]
    for s in range(len(view.locked)):
        seen.extend(view.locked[s])
        seen.extend(view.known[s])
    if view.offer_card >= 0:
        seen.append(view.offer_card)
    unseen[seen] = False
    return unseen


def related_pairs(cards: Sequence[int]) -> int:
    """How many pairs of the cards share a figure or a suit."""
    return sum(FIG[x] == FIG[y] or SUIT[x] == SUIT[y] for x, y in combinations(cards, 2))


class HandJudge:
    """Values hands for one seat at one moment (its view and the rules)."""

    def __init__(self, view: SeatView, config: RuleConfig) -> None:
        self.view = view
        self.config = config
        self.unseen = unseen_cards(view)
        self.locked = view.locked[view.seat]
        self.own = tuple(sorted((*view.hand, *self.locked)))
        """The seat's five cards, free and locked."""
        self.dealer = view.dealer == view.seat

    def moment(self) -> Hashable:
        """A key equal for two judges that value every hand alike and hold
        the same five cards."""
        view = self.view
        return (
            self.own,
            view.chi_diem,
            view.an_si_revealed,
            self.dealer,
            self.unseen.tobytes(),
            self.config,
        )

    def after_swap(self, five: Sequence[int]) -> HandJudge:
        """This judge for the same moment, the seat holding ``five`` free cards
        instead (a swap only moves seen cards, so the unseen set is the same)."""
        judge = copy.copy(self)
        judge.own = tuple(sorted(five))
        return judge

    def table(
        self, five: Sequence[int], *, locked: bool, arrangement: tuple[int, ...] = ()
    ) -> np.ndarray:
        """Điểm of Ù on each card with these five (or this Nhất Bản arrangement)."""
        return win_points(
            tuple(sorted(five)),
            locked=locked,
            chi_diem=self.view.chi_diem,
            an_si=self.view.an_si_revealed,
            dealer=self.dealer,
            nb_arrangement=arrangement,
            config=self.config,
        )

    def value(
        self, five: Sequence[int], *, locked: bool, arrangement: tuple[int, ...] = ()
    ) -> float:
        """Summed Điểm over the unseen cards, plus the related-pairs term
        (none for a fixed arrangement, which can no longer change)."""
        points = float(self.table(five, locked=locked, arrangement=arrangement)[self.unseen].sum())
        if arrangement:
            return points
        return points + RELATED_PAIR_WEIGHT * related_pairs(five)

    def waits(self, arrangement: tuple[int, ...]) -> int:
        """Unseen cards that would win on a Nhất Bản arrangement."""
        table = self.table(self.own, locked=False, arrangement=arrangement)
        return int(np.count_nonzero(table[self.unseen]))

    def nhat_ban_candidates(self, five: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Legal Nhất Bản arrangements worth trying, in a fixed order: the layout
        of each Thế win the free hand has on an unseen card (its card taken out),
        then a spread sample of the other legal arrangements."""
        legal = (
            nhat_ban_arrangements(five)
            if self.config.nhat_ban_requires_wait
            else all_arrangements(five)
        )
        found = dict.fromkeys(a for a in self._the_layouts(five) if a in legal)
        ordered = sorted(legal)
        step = max(1, len(ordered) // NHAT_BAN_SAMPLE)
        found.update(dict.fromkeys(ordered[::step]))
        return list(found)

    def _the_layouts(self, five: tuple[int, ...]) -> Iterable[tuple[int, ...]]:
        points = self.table(five, locked=False)
        table = Table(self.config, self.view.chi_diem, self.view.an_si_revealed)
        situation = WinSituation(self.config, dealer=self.dealer)
        for c in np.flatnonzero((points > 0) & self.unseen):
            score = score_valid_hand(
                (*five, int(c)), table, situation, locked=False, nhat_ban=False
            )
            if score is not None:
                yield tuple(GAP if x == c else x for x in score.arrangement)


__all__ = ["HandJudge", "related_pairs", "unseen_cards"]
