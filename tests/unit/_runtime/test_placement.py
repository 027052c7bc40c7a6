"""The owner map: contiguous C-order ranges of blocks per worker, nearly equal, stable;
its annotation needs nothing of this package to be called on the scheduler."""

from __future__ import annotations

import itertools
import math
import pickle

import pytest

from dask_gpunumeric._runtime.placement import owner_annotations, owner_position


@pytest.mark.parametrize("numblocks", [(7,), (4, 1), (3, 4), (2, 3, 5)])
@pytest.mark.parametrize("workers", [1, 2, 3, 8])
def test_owners_are_contiguous_nearly_equal_ranges(
    numblocks: tuple[int, ...], workers: int
) -> None:
    owners = [
        owner_position(index, numblocks, workers)
        for index in itertools.product(*map(range, numblocks))
    ]
    assert owners == sorted(owners)  # C order: one contiguous range per worker
    blocks = math.prod(numblocks)
    counts = [owners.count(w) for w in range(workers)]
    assert sum(counts) == blocks
    assert max(counts) - min(counts) <= 1
    assert len(set(owners)) == min(workers, blocks)  # fewer blocks: one worker each


def test_owner_annotations_are_a_plain_dict_lookup() -> None:
    workers = ("tcp://a:1", "tcp://b:1")
    sources = {("x", i, 0): ((i, 0), (4, 1)) for i in range(4)}
    annotations = owner_annotations(sources, workers)
    assert annotations["allow_other_workers"] is True
    lookup = annotations["workers"]
    assert [lookup(("x", i, 0)) for i in range(4)] == [["tcp://a:1"]] * 2 + [["tcp://b:1"]] * 2
    assert lookup(("y", 0, 0)) is None  # keys not placed get no restriction
    payload = pickle.dumps(lookup)
    assert b"dask_gpunumeric" not in payload
    assert pickle.loads(payload)(("x", 3, 0)) == ["tcp://b:1"]


def test_one_worker_or_no_blocks_places_nothing() -> None:
    assert owner_annotations({("x", 0): ((0,), (1,))}, ("tcp://a:1",)) == {}
    assert owner_annotations({}, ("tcp://a:1", "tcp://b:1")) == {}
