"""Print numpy's deal stream for the keys of ``tests/engine/golden/deal_stream.txt``.

The deal's stream is our code (:mod:`env121.engine.shuffle`); the frozen
file is the proof that it is the stream of record formats 1 and 2, drawn
from numpy 2.4's ``default_rng(SeedSequence([seed, van, vong])).permutation(121)``
so the proof holds whatever numpy is installed later. This script made that
file (``python scripts/freeze_deal_stream.py > tests/engine/golden/deal_stream.txt``,
numpy 2.4.6); rerun it only to check it, with a numpy whose stream
``tests/engine/test_shuffle.py`` still finds equal.
"""

from __future__ import annotations

import numpy as np

MAX_KEY = 2**64 - 1
EDGE_SEEDS = [0, 1, 2**32 - 1, 2**32, 2**63, MAX_KEY]
EDGE_VAN_VONG = [(0, 0), (1, 11), (2**32 - 1, 2**32), (MAX_KEY, 0), (0, MAX_KEY)]
LARGE_SEEDS = [2**64, 2**100 + 7, 3**150]  # beyond a uint64: the Python face only


def keys() -> list[tuple[int, int, int]]:
    """The frozen keys: the edges of SeedSequence's words, a run of seeds, large seeds."""
    edges = [(seed, van, vong) for seed in EDGE_SEEDS for van, vong in EDGE_VAN_VONG]
    run = [(seed, seed % 3, seed % 12) for seed in range(24)]
    large = [(seed, 1, 2) for seed in LARGE_SEEDS]
    return edges + run + large


def main() -> None:
    print("# seed van vong: numpy 2.4's permutation(121), by scripts/freeze_deal_stream.py")
    for seed, van, vong in keys():
        deck = np.random.default_rng(np.random.SeedSequence([seed, van, vong])).permutation(121)
        print(f"{seed} {van} {vong}: {' '.join(str(c) for c in deck)}")


if __name__ == "__main__":
    main()
