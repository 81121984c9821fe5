"""The compiled deal (:mod:`env121.engine.kernel.rng`) is the reference deal, bit for bit.

Each case compares the kernel's deal with ``Deal.from_seed`` (hands, Chỉ Điểm,
Ẩn Sĩ, Nọc): on the seeds at the edges of SeedSequence's 32-bit words and on
hypothesis-drawn keys. Both draw the deck from the deal's stream, whose proof
against numpy's is ``test_shuffle.py``; this checks the kernel's dealing.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from env121.engine.deal import Deal
from env121.engine.kernel.rng import MAX_KEY, deal_from_seed

EDGE_SEEDS = [0, 1, 2**32 - 1, 2**32, 2**63, MAX_KEY]


@pytest.mark.parametrize("seed", EDGE_SEEDS, ids=hex)
def test_the_kernel_deals_every_vong_of_an_edge_seed_as_the_reference(seed):
    for van in range(3):
        for vong in range(12):
            for rotation in range(4):
                dealer = (van + vong) % 4
                expected = Deal.from_seed(seed, van, vong, dealer, rotation)
                assert deal_from_seed(seed, van, vong, dealer, rotation) == expected, (
                    seed, van, vong, dealer, rotation
                )  # fmt: skip


keys = st.integers(0, MAX_KEY)
small = st.integers(0, 40)


@settings(max_examples=300, deadline=None)
@given(
    seed=st.one_of(keys, st.integers(0, 2**32 - 1)),
    van=st.one_of(small, keys),
    vong=st.one_of(small, keys),
    dealer=st.integers(0, 3),
    rotation=st.integers(0, 3),
)
def test_the_kernel_deals_drawn_keys_as_the_reference(seed, van, vong, dealer, rotation):
    expected = Deal.from_seed(seed, van, vong, dealer, rotation)
    assert deal_from_seed(seed, van, vong, dealer, rotation) == expected


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((-1, 0, 0, 0), r"seed must be an integer in 0\.\.2\*\*64-1, got -1"),
        ((2**64, 0, 0, 0), r"seed must be an integer in 0\.\.2\*\*64-1, got 18446744073709551616"),
        ((1.0, 0, 0, 0), r"seed must be an integer in 0\.\.2\*\*64-1, got 1\.0"),
        ((True, 0, 0, 0), r"seed must be an integer in 0\.\.2\*\*64-1, got True"),
        ((3, -2, 0, 0), r"van must be an integer in 0\.\.2\*\*64-1, got -2"),
        ((3, 0, "1", 0), r"vong must be an integer in 0\.\.2\*\*64-1, got '1'"),
        ((3, 0, 0, 4), r"dealer must be an integer in 0\.\.3, got 4"),
        ((3, 0, 0, 0, -1), r"rotation must be an integer in 0\.\.3, got -1"),
    ],
    ids=["negative", "too-big", "float", "bool", "van", "vong", "dealer", "rotation"],
)
def test_the_face_names_a_bad_argument(args, message):
    with pytest.raises(ValueError, match=message):
        deal_from_seed(*args)


def test_the_face_takes_numpy_integers():
    expected = Deal.from_seed(2**40 + 5, 1, 7, 2, 3)
    assert deal_from_seed(np.uint64(2**40 + 5), np.int64(1), np.int8(7), np.int64(2), 3) == expected
