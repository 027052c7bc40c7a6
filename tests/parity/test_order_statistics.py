"""median, percentile, quantile and their nan twins: exact, against NumPy."""

from __future__ import annotations

import numpy
import pytest

import dask_gpunumeric as np
from dask_gpunumeric.testing import assert_eq, assert_raises_like

METHODS = ["linear", "lower", "higher", "nearest", "midpoint"]
AXES = [None, 0, -1, (0, 2)]


def _data(dtype: str = "float64", nans: bool = False) -> numpy.ndarray:
    data = numpy.random.default_rng(3).standard_normal((5, 6, 4)) * 10
    data = data.astype(dtype)
    if nans:
        data[1, 2, 0] = data[4, :, 1] = numpy.nan
    return data


@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int16", "uint8", "bool"])
def test_median(axis: object, keepdims: bool, dtype: str) -> None:
    data = _data(dtype)
    x = np.asarray(data, chunks=(2, 4, 3))
    assert_eq(
        np.median(x, axis=axis, keepdims=keepdims), numpy.median(data, axis, keepdims=keepdims)
    )


@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("q", [0.35, [0.0, 0.5, 1.0], numpy.array([[0.2], [0.9]], "float32")])
def test_quantile_and_percentile(axis: object, method: str, q: object) -> None:
    data = _data("float32")
    x = np.asarray(data, chunks=(3, 2, 4))
    assert_eq(
        np.quantile(x, q, axis=axis, method=method), numpy.quantile(data, q, axis, method=method)
    )
    p = numpy.multiply(q, 100)
    assert_eq(
        np.percentile(x, p, axis=axis, method=method, keepdims=True),
        numpy.percentile(data, p, axis, method=method, keepdims=True),
    )


@pytest.mark.parametrize("method", ["hazen", "weibull", "inverted_cdf"])
def test_quantile_methods_cupy_lacks(method: str) -> None:
    """CuPy's quantile has five of NumPy's thirteen methods (and a 1-d q only): the
    lanes run NumPy's on a device worker's host (``_kernels/lanes.py``)."""
    data = _data("float32")
    x = np.asarray(data, chunks=(3, 2, 4))
    assert_eq(
        np.quantile(x, 0.35, axis=0, method=method), numpy.quantile(data, 0.35, 0, method=method)
    )


@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("method", METHODS)
def test_nan_order_statistics(axis: object, method: str) -> None:
    data = _data("float64", nans=True)
    x = np.asarray(data, chunks=(2, 3, 2))
    assert_eq(np.nanmedian(x, axis=axis), numpy.nanmedian(data, axis))
    # 1-d q only: NumPy 2.4's nan twins misplace a 2-d q's axes with tuple axes.
    assert_eq(
        np.nanquantile(x, [0.25, 0.75], axis=axis, method=method),
        numpy.nanquantile(data, [0.25, 0.75], axis, method=method),
    )
    assert_eq(
        np.nanpercentile(x, 40, axis=axis, method=method),
        numpy.asarray(numpy.nanpercentile(data, 40, axis, method=method)),
    )


def test_median_of_nans_and_integers_and_q_array_of_ours() -> None:
    data = _data("float64", nans=True)
    assert_eq(np.median(np.asarray(data), axis=1), numpy.median(data, axis=1))
    ints = numpy.arange(20, dtype="int16")[::-1]
    x = np.asarray(ints, chunks=6)
    assert_eq(
        np.percentile(x, 30, method="nearest"),
        numpy.asarray(numpy.percentile(ints, 30, method="nearest")),
    )
    q = numpy.array([0.1, 0.6])
    assert_eq(np.quantile(x, np.asarray(q)), numpy.quantile(ints, q))


def test_out_and_empty() -> None:
    data = _data()
    out = np.zeros((5, 4))
    np.median(np.asarray(data), axis=1, out=out)
    assert_eq(out, numpy.median(data, axis=1))
    empty = numpy.zeros((0, 3))
    assert_eq(np.median(np.asarray(empty), axis=1), numpy.median(empty, axis=1))


@pytest.mark.parametrize(
    "call",
    [
        lambda xp, a: xp.quantile(a, 1.5),
        lambda xp, a: xp.percentile(a, -1),
        lambda xp, a: xp.quantile(a, 0.5, method="nonsense"),
        lambda xp, a: xp.median(a, axis=3),
        lambda xp, a: xp.nanquantile(a, 0.5, axis=(0, 0)),
    ],
)
def test_bad_input_raises_like_numpy(call: object) -> None:
    data = _data()
    assert_raises_like(lambda: call(numpy, data), lambda: call(np, np.asarray(data)))  # type: ignore[operator]


def test_lanes_keep_the_other_axes_chunks() -> None:
    x = np.asarray(_data(), chunks=(2, 3, 4))
    assert np.median(x, axis=1).to_dask().chunks == ((2, 2, 1), (4,))
