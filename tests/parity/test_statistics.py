"""average, ptp and the NaN-ignoring reductions and scans, against NumPy."""

from __future__ import annotations

import numpy
import pytest

import dask_gpunumeric as np
from dask_gpunumeric.testing import PARITY_DTYPES, assert_eq, assert_raises_like

NAN_REDUCTIONS = ["nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmin", "nanmax"]


def _data(dtype: str, nans: bool = True, modulus: int = 7) -> numpy.ndarray:
    data = (numpy.arange(60).reshape(3, 4, 5) % modulus).astype(dtype)
    if nans and data.dtype.kind in "fc":
        data[0, 1, 2] = data[2, 3, :] = numpy.nan
        data[1, :, 4] = numpy.nan  # a whole lane of NaNs
    return data


def _tolerance(name: str, dtype: str) -> float:
    inexact = name in ("nanmean", "nanvar", "nanstd") or numpy.dtype(dtype).kind in "fc"
    return 1e-6 if inexact else 0.0


@pytest.mark.parametrize("name", NAN_REDUCTIONS)
@pytest.mark.parametrize("dtype", PARITY_DTYPES)
@pytest.mark.parametrize("axis", [None, 2, (0, 2)])
def test_nan_reductions(name: str, dtype: str, axis: object) -> None:
    data = _data(dtype)
    x = np.asarray(data, chunks=(2, 3, 2))
    expected = numpy.asarray(getattr(numpy, name)(data, axis=axis))
    assert_eq(getattr(np, name)(x, axis=axis), expected, rtol=_tolerance(name, dtype))


@pytest.mark.parametrize("name", ["nanargmin", "nanargmax"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "complex128", "bool"])
def test_nan_arg_reductions(name: str, dtype: str) -> None:
    data = _data(dtype, nans=False)
    if data.dtype.kind in "fc":
        data[0, 1, 2] = data[2, 3, 1:4] = numpy.nan
    x = np.asarray(data, chunks=(2, 3, 2))
    for axis in (None, 0, -1):
        assert_eq(getattr(np, name)(x, axis=axis), numpy.asarray(getattr(numpy, name)(data, axis)))


def test_nan_arg_reduction_of_all_nans_raises_when_computed() -> None:
    data = numpy.full((3, 4), numpy.nan)
    assert_raises_like(
        lambda: numpy.nanargmax(data), lambda: np.nanargmax(np.asarray(data, chunks=2)).compute()
    )


@pytest.mark.parametrize("name", ["nancumsum", "nancumprod"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "uint16", "complex128", "bool"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_nan_scans(name: str, dtype: str, axis: int | None) -> None:
    data = _data(dtype, modulus=3)
    x = np.asarray(data, chunks=(2, 3, 2))
    assert_eq(getattr(np, name)(x, axis=axis), getattr(numpy, name)(data, axis=axis))


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@pytest.mark.parametrize("dtype", PARITY_DTYPES)
@pytest.mark.parametrize("axis", [None, 0, 1, 2, -1])
def test_scans_along_every_axis_and_dtype(name: str, dtype: str, axis: int | None) -> None:
    data = _data(dtype, nans=False, modulus=3)
    x = np.asarray(data, chunks=(2, 3, 2))
    for out_dtype in (None, "float32", "int64"):
        expected = getattr(numpy, name)(data, axis=axis, dtype=out_dtype)
        assert_eq(getattr(np, name)(x, axis=axis, dtype=out_dtype), expected)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "float32", "complex128"])
@pytest.mark.parametrize("axis", [None, 1, (0, 2)])
def test_ptp(dtype: str, axis: object) -> None:
    data = (numpy.arange(60).reshape(3, 4, 5) * 37 % 255 - 100).astype(dtype)
    x = np.asarray(data, chunks=(2, 3, 2))
    assert_eq(np.ptp(x, axis=axis), numpy.asarray(numpy.ptp(data, axis=axis)))
    assert_eq(np.ptp(x, axis=axis, keepdims=True), numpy.ptp(data, axis=axis, keepdims=True))


@pytest.mark.parametrize("dtype", ["int16", "float32", "bool"])
def test_average(dtype: str) -> None:
    data = (numpy.arange(24).reshape(2, 3, 4) % 5).astype(dtype)
    x = np.asarray(data, chunks=(1, 2, 3))
    weights = numpy.arange(1, 5.0)
    plane = numpy.arange(1, 7).reshape(3, 2).astype("float32")
    assert_eq(np.average(x), numpy.asarray(numpy.average(data)))
    assert_eq(np.average(x, axis=2, weights=weights), numpy.average(data, axis=2, weights=weights))
    assert_eq(
        np.average(x, axis=(1, 0), weights=plane),
        numpy.average(data, axis=(1, 0), weights=plane),
        rtol=1e-6,
    )
    full = data + 1
    assert_eq(
        np.average(x, weights=np.asarray(full)), numpy.asarray(numpy.average(data, weights=full))
    )


@pytest.mark.parametrize("kwargs", [{}, {"axis": 1}, {"axis": 2, "weights": [1, 2, 3, 4.0]}])
@pytest.mark.parametrize("keepdims", [False, True])
def test_average_returned(kwargs: dict, keepdims: bool) -> None:
    data = numpy.arange(24.0).reshape(2, 3, 4)
    x = np.asarray(data, chunks=(1, 2, 3))
    result, scale = np.average(x, returned=True, keepdims=keepdims, **kwargs)
    expected, expected_scale = numpy.average(data, returned=True, keepdims=keepdims, **kwargs)
    assert_eq(result, numpy.asarray(expected))
    assert_eq(scale, numpy.asarray(expected_scale))


@pytest.mark.parametrize(
    "call",
    [
        lambda xp, a: xp.average(a, weights=[1.0, 2.0, 3.0, 4.0]),
        lambda xp, a: xp.average(a, axis=1, weights=[1.0, 2.0, 3.0, 4.0]),
        lambda xp, a: xp.average(a, axis=3),
        lambda xp, a: xp.ptp(a > 0),
        lambda xp, a: xp.nanmean(a, axis=(0, 0)),
        lambda xp, a: xp.nanstd(a, axis=4),
        lambda xp, a: xp.nancumsum(a, axis=3),
    ],
)
def test_bad_input_raises_like_numpy(call: object) -> None:
    data = numpy.arange(24.0).reshape(2, 3, 4)
    assert_raises_like(lambda: call(numpy, data), lambda: call(np, np.asarray(data)))  # type: ignore[operator]
