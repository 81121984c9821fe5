"""Cases for the differential tests of the compiled rules (``tests/rules/test_compiled_*.py``).

* :data:`SCORING_CONFIGS` — every rule variant that changes a score: the
  facing of the figures ([R-1]) and the literal Phe – Phe ([R-2]), alone and
  together;
* :func:`seeded_hands` — seeded hands (six cards, or five to wait), half uniform, half from
  small pools of figures and suits so that wins are frequent;
* :func:`compiled_achievable_thes` — the compiled search's answer with a
  witness per Thế, as the Python search gives it;
* :func:`built_cases` — the table-driven cases of ``tests/rules/test_patterns.py``
  (a positive and a negative case for every Thế, with their tables).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from env121.rules.cards import NUM_CARDS, NUM_FIGURES, NUM_SUITS
from env121.rules.compiled.config import kernel_config
from env121.rules.compiled.search import search, sort_six
from env121.rules.compiled.tables import THE_IDS
from env121.rules.config import RuleConfig

SCORING_CONFIGS: dict[str, RuleConfig] = {
    "default": RuleConfig(),
    "left_odd": RuleConfig(left_figures=frozenset({1, 3, 5, 7, 9})),
    "left_even_same_suits": RuleConfig(
        left_figures=frozenset({2, 4, 6, 8, 10}), phe_phe_same_suits=True
    ),
    "same_suits": RuleConfig(phe_phe_same_suits=True),
}


def pool_hand(rng: np.random.Generator, size: int) -> tuple[int, ...]:
    """``size`` distinct cards from a pool of 1-4 figures by 2-6 suits (or all
    cards when the pool is too small)."""
    while True:
        figures = rng.choice(NUM_FIGURES, int(rng.integers(1, 5)), replace=False)
        suits = rng.choice(NUM_SUITS, int(rng.integers(2, 7)), replace=False)
        pool = [int(NUM_SUITS * f + s) for f in figures for s in suits]
        if len(pool) >= size:
            return tuple(int(c) for c in rng.choice(pool, size, replace=False))


def seeded_hands(seed: int, n: int, size: int = 6) -> Iterator[tuple[int, ...]]:
    """``n`` seeded hands of ``size`` cards: even ones uniform, odd ones from a
    small pool (:func:`pool_hand`, so that many win or wait)."""
    rng = np.random.default_rng(seed)
    for i in range(n):
        if i % 2 == 0:
            yield tuple(int(c) for c in rng.choice(NUM_CARDS, size, replace=False))
        else:
            yield pool_hand(rng, size)


def compiled_achievable_thes(
    cards: Sequence[int], config: RuleConfig
) -> dict[str, tuple[int, ...]]:
    """Every searched Thế some order of the six cards matches, with its witness,
    through the compiled :func:`~env121.rules.compiled.search.search` (the kernels
    keep masks; the Python search answers in this form)."""
    kc = kernel_config(config)
    h = sort_six(np.asarray(cards, dtype=np.int64))
    found, _ = search(h, kc.left_figures, kc.phe_phe_same_suits, 0)
    witnesses = {}
    for t, the_id in enumerate(THE_IDS):
        if found >> t & 1:
            _, witness = search(h, kc.left_figures, kc.phe_phe_same_suits, 1 << t)
            witnesses[the_id] = tuple(int(c) for c in witness)
    return witnesses
