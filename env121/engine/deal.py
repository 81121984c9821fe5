"""The deal of one vòng (spec §5.2): hands, Chỉ Điểm, Ẩn Sĩ and Nọc.

A :class:`Deal` is plain data. The engine makes one per vòng with
:meth:`Deal.from_seed`, which deals the deck shuffled by the deal's stream of
``(match seed, ván, vòng)`` (:mod:`env121.engine.shuffle`, defined in our code
and shared with the compiled engine): no global randomness, no dependence on
a numpy release, and any vòng of a match can be re-dealt on its own.

Dealing order: the shuffled deck's first 20 cards go round the table one at a
time starting with the dealer (card ``i`` to seat ``dealer + i``), the 21st is
the Chỉ Điểm (face up), the next four are the Ẩn Sĩ (face down), and the last
96 are the Nọc, top first.

Duplicate deals
---------------
``rotation=k`` gives seat ``s`` the five cards that seat ``(s + k) % 4`` gets
with ``rotation=0``; the Chỉ Điểm, Ẩn Sĩ, Nọc and dealer stay put. Playing one
seed with ``k = 0, 1, 2, 3`` hands every player every hand. (To replay the same
cards in the same *positions* with different players, keep ``rotation=0`` and
move the players between seats instead.)

Tests build a deal by hand with :meth:`Deal.from_notation`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from env121.engine.shuffle import shuffled_deck
from env121.rules.cards import NUM_CARDS, format_cards, parse_cards

NUM_SEATS = 4
HAND_SIZE = 5
NUM_AN_SI = 4
NOC_SIZE = NUM_CARDS - NUM_SEATS * HAND_SIZE - 1 - NUM_AN_SI


class DealError(ValueError):
    """A deal that does not place each of the 121 cards exactly once."""


@dataclass(frozen=True)
class Deal:
    """Where every card starts a vòng: the hands by seat, the indicators, the Nọc."""

    hands: tuple[tuple[int, ...], ...]
    """Five cards per seat 0..3."""
    chi_diem: int
    """The face-up indicator."""
    an_si: tuple[int, ...]
    """The four face-down indicators, in the order they are turned."""
    noc: tuple[int, ...]
    """The draw pile, top card first."""

    def __post_init__(self) -> None:
        if len(self.hands) != NUM_SEATS or any(len(h) != HAND_SIZE for h in self.hands):
            sizes = [len(h) for h in self.hands]
            raise DealError(f"a deal has {NUM_SEATS} hands of {HAND_SIZE} cards, got sizes {sizes}")
        if len(self.an_si) != NUM_AN_SI:
            raise DealError(f"a deal has {NUM_AN_SI} Ẩn Sĩ, got {format_cards(self.an_si)!r}")
        cards = [c for h in self.hands for c in h] + [self.chi_diem, *self.an_si, *self.noc]
        if sorted(cards) != list(range(NUM_CARDS)):
            twice = sorted(c for c, n in Counter(cards).items() if n > 1)
            missing = sorted(set(range(NUM_CARDS)) - set(cards))
            raise DealError(
                "a deal must place each of the 121 cards exactly once: "
                f"repeated {format_cards(twice) or 'none'}, "
                f"missing {format_cards(missing) or 'none'}"
            )

    @classmethod
    def from_deck(cls, deck: Sequence[int], dealer: int, rotation: int = 0) -> Deal:
        """Deal a shuffled deck (spec §5.2) for ``dealer``, hands rotated by ``rotation``."""
        if len(deck) != NUM_CARDS:
            raise DealError(f"a deck has {NUM_CARDS} cards, got {len(deck)}")
        first = NUM_SEATS * HAND_SIZE
        by_seat: list[list[int]] = [[] for _ in range(NUM_SEATS)]
        for i, c in enumerate(deck[:first]):
            by_seat[(dealer + i) % NUM_SEATS].append(int(c))
        hands = tuple(tuple(sorted(by_seat[(s + rotation) % NUM_SEATS])) for s in range(NUM_SEATS))
        rest = [int(c) for c in deck[first:]]
        return cls(hands, rest[0], tuple(rest[1 : 1 + NUM_AN_SI]), tuple(rest[1 + NUM_AN_SI :]))

    @classmethod
    def from_seed(cls, seed: int, van: int, vong: int, dealer: int, rotation: int = 0) -> Deal:
        """The deal of vòng ``vong`` of ván ``van`` in the match with this seed
        (non-negative integers; a ValueError names a bad one)."""
        return cls.from_deck(shuffled_deck(seed, van, vong), dealer, rotation)

    @classmethod
    def from_notation(
        cls,
        hands: Sequence[str],
        chi_diem: str,
        an_si: str,
        noc_top: str = "",
        noc_bottom: str = "",
        rng: np.random.Generator | None = None,
    ) -> Deal:
        """A deal written in the card notation, for tests and examples.

        ``hands`` are four 5-card strings by seat, ``an_si`` four cards,
        ``noc_top`` the first cards of the Nọc (top first) and ``noc_bottom``
        its last ones (the very last card last). The middle of the Nọc is every
        other card, shuffled with ``rng`` or in id order if ``None``.
        """
        parsed = tuple(tuple(sorted(parse_cards(h))) for h in hands)
        chi = parse_cards(chi_diem)
        if len(chi) != 1:
            raise DealError(f"Chỉ Điểm must be one card, got {chi_diem!r}")
        top = parse_cards(noc_top) if noc_top else ()
        bottom = parse_cards(noc_bottom) if noc_bottom else ()
        an = parse_cards(an_si)
        used = {c for h in parsed for c in h} | {chi[0], *an, *top, *bottom}
        rest = [c for c in range(NUM_CARDS) if c not in used]
        if rng is not None:
            rest = [rest[i] for i in rng.permutation(len(rest))]
        return cls(parsed, chi[0], an, (*top, *rest, *bottom))


__all__ = ["HAND_SIZE", "NOC_SIZE", "NUM_AN_SI", "NUM_SEATS", "Deal", "DealError"]
