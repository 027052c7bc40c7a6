"""The math-routines benchmark runs, and the STRUCTURE it relies on holds: a lane
operation along an axis that is already whole moves no data (one task per input block,
no rechunk), and the gathered case really is one chunk. No wall-clock asserts."""

from __future__ import annotations

import numpy
import pytest

import dask_gpunumeric as np
from benchmarks.math_routines import measure

pytestmark = pytest.mark.benchmark


def test_benchmark_measures_every_routine() -> None:
    timings = measure(rows=40, cols=10, row_chunks=4, repeat=1)
    assert [t.name for t in timings] == [
        "median(axis=1)",
        "sort(axis=1)",
        "quantile(axis=None)",
        "histogram(50 bins)",
        "unique(ints)",
    ]
    assert all(t.numpy_seconds > 0 and t.ours_seconds > 0 for t in timings)


def test_sort_along_a_whole_axis_adds_no_rechunk() -> None:
    x = np.asarray(numpy.random.default_rng(0).standard_normal((40, 10)), chunks=(10, 10))
    graph = dict(np.sort(x, axis=1).to_dask().__dask_graph__())
    assert not [key for key in graph if "rechunk" in str(key)]
    sorted_keys = [key for key in graph if str(key[0]).startswith("lanes-")]
    assert len(sorted_keys) == 4  # one task per row block


def test_median_over_all_axes_gathers_one_chunk() -> None:
    x = np.asarray(numpy.ones((40, 10)), chunks=(10, 5))
    lanes = [
        k for k in dict(np.median(x).to_dask().__dask_graph__()) if str(k[0]).startswith("lanes-")
    ]
    assert len(lanes) == 1
