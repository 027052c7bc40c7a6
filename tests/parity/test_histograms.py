"""histogram, histogram_bin_edges and bincount against NumPy."""

from __future__ import annotations

import numpy
import pytest

import dask_gpunumeric as np
from dask_gpunumeric.testing import assert_eq, assert_raises_like

RNG = numpy.random.default_rng(11)
DATA = RNG.standard_normal((40, 6))
WEIGHTS = RNG.random((40, 6))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int16", "uint8"])
@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"bins": 7, "range": (-1, 1)},
        {"bins": [-3, -1, 0, 0.5, 3]},
        {"density": True},
        {"bins": [-1, 0, 2], "density": True},
    ],
)
def test_histogram(dtype: str, kwargs: dict) -> None:
    data = (DATA * 3 + 4).astype(dtype)
    x = np.asarray(data, chunks=(15, 4))
    counts, edges = np.histogram(x, **kwargs)
    expected_counts, expected_edges = numpy.histogram(data, **kwargs)
    assert_eq(counts, expected_counts)
    assert_eq(edges, expected_edges)
    edge_kwargs = {k: v for k, v in kwargs.items() if k != "density"}
    assert_eq(
        np.histogram_bin_edges(x, **edge_kwargs), numpy.histogram_bin_edges(data, **edge_kwargs)
    )


@pytest.mark.parametrize("density", [False, True])
@pytest.mark.parametrize("weight_chunks", [(15, 4), (7, 6)])
def test_weighted_histogram(density: bool, weight_chunks: tuple[int, int]) -> None:
    x = np.asarray(DATA, chunks=(15, 4))
    weights = np.asarray(WEIGHTS, chunks=weight_chunks)  # chunked unlike the values
    counts, edges = np.histogram(x, bins=5, weights=weights, density=density)
    expected_counts, expected_edges = numpy.histogram(DATA, 5, weights=WEIGHTS, density=density)
    # Weight sums are added in another order than NumPy's: last-bit differences only.
    assert_eq(counts, expected_counts, rtol=1e-12)
    assert_eq(edges, expected_edges)


def test_histogram_of_empty_and_constant_data() -> None:
    for data in (numpy.zeros(0), numpy.full(5, 2.0)):
        counts, edges = np.histogram(np.asarray(data))
        expected_counts, expected_edges = numpy.histogram(data)
        assert_eq(counts, expected_counts)
        assert_eq(edges, expected_edges)


@pytest.mark.parametrize(
    "call",
    [
        lambda xp, a, w: xp.histogram(a, bins=[1, 0]),
        lambda xp, a, w: xp.histogram(a, bins=-1),
        lambda xp, a, w: xp.histogram(a, range=(2, 1)),
        lambda xp, a, w: xp.histogram(a, weights=w[:3]),
        lambda xp, a, w: xp.histogram(a * numpy.nan),
        lambda xp, a, w: xp.bincount(a),
        lambda xp, a, w: xp.bincount(w.astype(int)[None]),
        lambda xp, a, w: xp.bincount(numpy.array([1, 2]), minlength=-1),
    ],
)
def test_bad_input_raises_like_numpy(call: object) -> None:
    data, weights = DATA[:, 0], WEIGHTS[:, 0]
    assert_raises_like(
        lambda: call(numpy, data, weights),  # type: ignore[operator]
        lambda: call(np, np.asarray(data), np.asarray(weights)),  # type: ignore[operator]
    )


@pytest.mark.parametrize("dtype", ["int8", "int64", "uint16", "bool"])
@pytest.mark.parametrize("minlength", [0, 3, 30])
def test_bincount(dtype: str, minlength: int) -> None:
    data = RNG.integers(0, 9, size=50).astype(dtype)
    x = np.asarray(data, chunks=12)
    assert_eq(np.bincount(x, minlength=minlength), numpy.bincount(data, minlength=minlength))
    weights = numpy.linspace(-1, 1, 50)
    ours = np.bincount(x, weights=np.asarray(weights, chunks=17), minlength=minlength)
    assert_eq(ours, numpy.bincount(data, weights=weights, minlength=minlength), rtol=1e-12)


def test_bincount_refuses_negative_values_and_counts_empty() -> None:
    data = numpy.array([1, -1, 2])
    assert_raises_like(lambda: numpy.bincount(data), lambda: np.bincount(np.asarray(data)))
    empty = numpy.zeros(0, dtype=int)
    assert_eq(np.bincount(np.asarray(empty), minlength=4), numpy.bincount(empty, minlength=4))
