"""Any chunking of a random array gives NumPy's exact answer for the whole-lane, binned
and set routines (sort, argsort, median, quantile, unique, histogram, diff, nan*)."""

from __future__ import annotations

from typing import Any

import numpy
from hypothesis import given, settings
from hypothesis import strategies as st

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_eq


def _chunking(length: int) -> st.SearchStrategy[tuple[int, ...]]:
    """Block sizes summing to ``length``, cut at random points."""
    cuts = st.sets(st.integers(1, length - 1)) if length > 1 else st.just(set())
    return cuts.map(lambda c: tuple(numpy.diff([0, *sorted(c), length]).tolist()))


@st.composite
def arrays_with_nans(draw: st.DrawFn) -> tuple[numpy.ndarray, tuple[tuple[int, ...], ...]]:
    """Float64 arrays of 1-3 dims with repeated values and some NaNs, random chunks."""
    shape = tuple(draw(st.lists(st.integers(1, 6), min_size=1, max_size=3)))
    rng = numpy.random.default_rng(draw(st.integers(0, 2**16)))
    host = rng.integers(-3, 4, shape).astype(float)
    host[rng.random(shape) < 0.15] = numpy.nan
    return host, tuple(draw(_chunking(n)) for n in shape)


LANE_CALLS = {
    "sort": lambda xp, a, axis: xp.sort(a, axis=axis),
    "argsort": lambda xp, a, axis: xp.argsort(a, axis=axis, kind="stable"),
    "median": lambda xp, a, axis: xp.median(a, axis=axis),
    "quantile": lambda xp, a, axis: xp.quantile(a, [0.2, 0.7], axis=axis, method="nearest"),
    "nanmax": lambda xp, a, axis: xp.nanmax(a, axis=axis),
    "nancumsum": lambda xp, a, axis: xp.nancumsum(a, axis=axis),
    "diff": lambda xp, a, axis: xp.diff(a, axis=-1 if axis is None else axis),
}


@settings(max_examples=30, deadline=None)
@given(data=st.data(), array=arrays_with_nans(), name=st.sampled_from(sorted(LANE_CALLS)))
def test_lane_routines_match_numpy_for_any_chunking(
    data: st.DataObject, array: Any, name: str
) -> None:
    host, chunks = array
    axis = data.draw(st.one_of(st.none(), st.integers(-host.ndim, host.ndim - 1)))
    expected = numpy.asarray(LANE_CALLS[name](numpy, host, axis))
    assert_eq(LANE_CALLS[name](dnp, dnp.asarray(host, chunks=chunks), axis), expected)


@settings(max_examples=20, deadline=None)
@given(array=arrays_with_nans())
def test_unique_and_histogram_match_numpy_for_any_chunking(array: Any) -> None:
    host, chunks = array
    x = dnp.asarray(host, chunks=chunks)
    ours = dnp.unique(x, return_index=True, return_inverse=True, return_counts=True)
    expected = numpy.unique(host, return_index=True, return_inverse=True, return_counts=True)
    for actual, wanted in zip(ours, expected, strict=True):
        assert_eq(actual, wanted)
    finite = numpy.nan_to_num(host)
    counts, edges = dnp.histogram(dnp.asarray(finite, chunks=chunks), bins=4)
    expected_counts, expected_edges = numpy.histogram(finite, bins=4)
    assert_eq(counts, expected_counts)
    assert_eq(edges, expected_edges)
