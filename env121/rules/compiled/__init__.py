"""The rules compiled with numba, for the batched engine (:mod:`env121.engine.batched`).

The one implementation of the Thế search, the scorer and the Nhất Bản waits:
the engine, the agents and the Python faces of :mod:`env121.rules`
(``score_hand``, ``thes_of``, waits) all ask it. It reads the rules as data
from :mod:`env121.rules` (the Thế registry, the Thưởng, the groups) and is
proven equal to the readable Python scorer it was ported from
(``tests/support/scorer.py``) and to a brute force (``tests/support/reference.py``)
by differential tests (``tests/rules/test_compiled_*.py``,
``tests/engine/test_compiled_win_table.py``, ``scripts/differential_rules.py``).
Kernels take a :class:`KernelConfig`, the
numba-friendly form of a :class:`~env121.rules.config.RuleConfig`; cards are
``int64`` ids, sets of Thế and of bonuses are ``int64`` masks over
``tables.THE_IDS`` and ``tables.BONUS_IDS``.

* :mod:`~env121.rules.compiled.tables` — the rule tables, read off the rule modules;
* :mod:`~env121.rules.compiled.thes` — the groups and every Thế's predicate;
* :mod:`~env121.rules.compiled.search` — the Thế search (``search``, ``sort_six``);
* :mod:`~env121.rules.compiled.wins` — ``is_win``, ``the_trang_eligible``;
* :mod:`~env121.rules.compiled.scoring` — ``score_win`` (``score_normal``,
  ``score_nhat_ban``), ``matching``, ``completed_shape``;
* :mod:`~env121.rules.compiled.waits` — Nhất Bản waits, ``fill_gap``, ``nhat_ban_wins``;
* :mod:`~env121.rules.compiled.win_table` — ``win_points``, a seat's win table.

The kernels are imported from their modules; this package imports only the
config, so that reading a :class:`KernelConfig` costs no kernel. Its import —
the first of :mod:`env121`'s, before any kernel is defined — chooses numba's
CPU, points numba's cache at the kernels' folders, unpacks the shipped
kernels and installs the line that says when kernels compile
(:mod:`~env121.rules.compiled.cache`).
"""

from pathlib import Path

from env121.rules.compiled.cache import use_kernel_cache
from env121.rules.compiled.config import KernelConfig, kernel_config

use_kernel_cache(Path(__file__).resolve().parents[3])

__all__ = ["KernelConfig", "kernel_config"]
