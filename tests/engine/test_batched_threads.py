"""``SliceThreads``: the split of a batch over threads that the engine, the
batched policies and the input encoder share."""

from __future__ import annotations

import threading

import pytest

from env121.engine.batched.threads import SliceThreads


@pytest.mark.parametrize(("count", "threads", "used"), [(0, 2, 1), (7, 2, 1), (8, 2, 2), (9, 4, 2)])
def test_each_item_is_run_once_in_as_many_slices_as_have_enough_items(count, threads, used):
    split = SliceThreads(threads, min_per_thread=4)
    seen: list[int] = []
    slices: list[slice] = []
    lock = threading.Lock()

    def run(part: slice) -> None:
        with lock:
            seen.extend(range(count)[part])
            slices.append(part)

    split.run(count, run)
    assert sorted(seen) == list(range(count))
    assert split.used(count) == used
    assert len(slices) == used


@pytest.mark.parametrize("threads", [0, -1, 1.5, True, "2"])
def test_a_bad_thread_count_is_one_line_naming_it(threads):
    with pytest.raises(
        ValueError, match=r"^threads=.* is not valid: expected a positive int or None$"
    ):
        SliceThreads(threads, min_per_thread=1)
