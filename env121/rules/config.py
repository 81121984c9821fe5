"""``RuleConfig``: every rule variant of the binding spec, with its defaults.

Each field is one choice the spec (``rules-121.md``) marks **[R-n]** or names as
a variant. The defaults are the spec's; a game record stores the whole config
so a replay plays the same game. A bad value raises ``ValueError`` naming the
field, the value and what is accepted.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, NoReturn

from env121.rules.cards import REGULAR_FIGURES

PaymentRounding = Literal["exact", "hundreds"]
PAYMENT_ROUNDINGS: tuple[str, ...] = ("exact", "hundreds")
NUM_VAN_CHOICES: tuple[int, ...] = (1, 2, 4)


@dataclass(frozen=True, eq=False)
class RuleConfig:
    """The rule variants of 121. Frozen and hashable; compare with ``==``.

    It keys the scorer's caches, so its hash is computed once and equality
    checks identity first.
    """

    left_figures: frozenset[int] = frozenset({1, 2, 3, 4, 5})
    """[R-1] The five regular figures that look left; the other five look right.
    CREST looks neither way."""

    phe_phe_same_suits: bool = False
    """[R-2] ``True``: the three Phe–Phe Thế also need suit(a_i) = suit(a_{i+3})
    (the book's literal "cùng chất")."""

    nhat_ban_requires_wait: bool = True
    """[R-8] Nhất Bản may be declared only if some card not in the hand would
    complete the fixed arrangement (riichi's tenpai rule)."""

    mask_invalid_win: bool = True
    """§5.7: ``True`` offers Ù only when the win is valid (Đền cannot happen);
    ``False`` always offers it and an invalid Ù is Đền."""

    payment_rounding: PaymentRounding = "exact"
    """[R-12] ``"exact"``: neighbours pay 30·D, opposite 40·D. ``"hundreds"``:
    neighbours pay 30·D rounded down to a multiple of 100, opposite the rest."""

    num_van: int = 1
    """§5.1: ván per match: 1 (amateur), 2 (semi-pro) or 4 (professional)."""

    starting_points: int = 2500
    """[R-6] Points each player holds at the start of a ván."""

    carry_scores: bool = False
    """[R-6] ``True`` carries points from one ván to the next instead of
    resetting them to ``starting_points``."""

    max_actions_per_vong: int | None = 4000
    """§8: a vòng reaching this many actions ends as a (truncated) draw;
    ``None`` is unlimited."""

    the_trang_asks_every_seat: bool = True
    """§5.3 and issue 19: ``True`` opens every vòng with the Thế trắng question
    to all four seats in order from the dealer (a seat that is not eligible may
    only pass), so the order of play tells no seat who was eligible. ``False``
    asks only the eligible seats (and skips the question when none is), as
    records of format version 1 were played."""

    def __post_init__(self) -> None:
        given: Any = self.left_figures
        left = given
        if not isinstance(left, frozenset):
            try:
                left = frozenset(left)
            except TypeError:
                _bad("left_figures", given, "a set of 5 regular figures (1..10)")
            object.__setattr__(self, "left_figures", left)
        if len(left) != 5 or not left <= set(REGULAR_FIGURES) or not _all_ints(left):
            _bad("left_figures", given, "a set of 5 distinct regular figures (1..10)")
        for name in (
            "phe_phe_same_suits",
            "nhat_ban_requires_wait",
            "mask_invalid_win",
            "carry_scores",
            "the_trang_asks_every_seat",
        ):
            if not isinstance(getattr(self, name), bool):
                _bad(name, getattr(self, name), "True or False")
        if self.payment_rounding not in PAYMENT_ROUNDINGS:
            _bad(
                "payment_rounding", self.payment_rounding, " or ".join(map(repr, PAYMENT_ROUNDINGS))
            )
        if not _is_int(self.num_van) or self.num_van not in NUM_VAN_CHOICES:
            _bad("num_van", self.num_van, "1, 2 or 4")
        if not _is_int(self.starting_points) or self.starting_points <= 0:
            _bad("starting_points", self.starting_points, "a positive integer")
        cap = self.max_actions_per_vong
        if cap is not None and (not _is_int(cap) or cap <= 0):
            _bad("max_actions_per_vong", cap, "a positive integer or None")

    def _key(self) -> tuple[Any, ...]:
        cached: tuple[Any, ...] | None = self.__dict__.get("_key_values")
        if cached is None:
            cached = tuple(getattr(self, f.name) for f in dataclasses.fields(self))
            object.__setattr__(self, "_key_values", cached)
        return cached

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, RuleConfig):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(self._key())
            object.__setattr__(self, "_hash", cached)
        return cached

    def __getstate__(self) -> dict[str, Any]:
        # The cached hash stays behind: string hashes differ between processes.
        state = dict(self.__dict__)
        state.pop("_hash", None)
        state.pop("_key_values", None)
        return state

    @property
    def right_figures(self) -> frozenset[int]:
        """The five regular figures that look right."""
        return frozenset(REGULAR_FIGURES) - self.left_figures

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of every field (sets become sorted lists)."""
        out = dataclasses.asdict(self)
        out["left_figures"] = sorted(self.left_figures)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleConfig:
        """The config a :meth:`to_dict` dict describes. Anything wrong raises
        ``ValueError``: unknown keys (named), or a bad value (naming the field)."""
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted((key for key in data if key not in known), key=repr)
        if unknown:
            raise ValueError(
                f"unknown RuleConfig field(s) {unknown}: expected some of {sorted(known)}"
            )
        return cls(**data)  # __post_init__ turns a list of left_figures into a set


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _all_ints(values: frozenset[Any]) -> bool:
    return all(_is_int(v) for v in values)


def _bad(name: str, value: object, expected: str) -> NoReturn:
    raise ValueError(f"RuleConfig.{name}={value!r} is not valid: expected {expected}")


DEFAULT_CONFIG = RuleConfig()

__all__ = ["DEFAULT_CONFIG", "PaymentRounding", "RuleConfig"]
