"""Rounding, angle, nan_to_num, sinc, i0, real_if_close, cumulative scans, ediff1d and
trapezoid against NumPy."""

from __future__ import annotations

import warnings

import numpy
import pytest

import dask_gpunumeric as np
from dask_gpunumeric.testing import PARITY_DTYPES, assert_eq, assert_raises_like
from tests.parity.device_rounding import device_rounding

SPECIAL = numpy.array([[1.25, -2.5, numpy.nan, numpy.inf], [-numpy.inf, 0.5, -0.0, 3.75]])


def _data(dtype: str) -> numpy.ndarray:
    data = numpy.arange(-12, 12).reshape(4, 6) * 1.75
    data = data.astype(dtype) if numpy.dtype(dtype).kind != "b" else data > 0
    if data.dtype.kind == "c":
        data = data + 1j * data[::-1]
    return data


@pytest.mark.parametrize("dtype", PARITY_DTYPES)
@pytest.mark.parametrize("chunks", [(2, 3), (4, 6)])
@pytest.mark.parametrize("name", ["around", "round", "angle", "nan_to_num", "sinc"])
def test_elementwise_like_numpy(
    dtype: str, chunks: tuple[int, int], name: str, backend: str
) -> None:
    data = _data(dtype)
    ours = getattr(np, name)(np.asarray(data, chunks=chunks))
    expected = getattr(numpy, name)(data)
    # angle is arctan2 and sinc CuPy's on cupy: within their ulps there (the H100 check);
    # bit for bit on the CPU backends.
    rounding = device_rounding(backend, expected.dtype) if name in ("angle", "sinc") else {}
    if rounding and name == "sinc":
        rounding["rtol"] = max(rounding["rtol"], 1e-6)  # sinc's tolerance on cupy until then
    assert_eq(ours, expected, **rounding)


@pytest.mark.parametrize("decimals", [-1, 0, 1, 2])
@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "complex128"])
def test_around_decimals(decimals: int, dtype: str) -> None:
    data = _data(dtype)
    assert_eq(np.around(np.asarray(data, chunks=(3, 2)), decimals), numpy.around(data, decimals))


@pytest.mark.parametrize("decimals", [-1, 1])
def test_around_of_booleans_with_decimals_raises_like_numpy(decimals: int) -> None:
    data = _data("bool")
    assert_raises_like(
        lambda: numpy.around(data, decimals), lambda: np.around(np.asarray(data), decimals)
    )


@pytest.mark.parametrize("decimals", [-1, 0, 1])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_around_of_complex_infinities(decimals: int, dtype: str) -> None:
    """The rounded parts are joined, not multiplied by 1j (``inf * 1j`` is ``nan+infj``)."""
    inf, nan = numpy.inf, numpy.nan
    data = numpy.array([complex(0, inf), complex(inf, 1.5), complex(nan, -inf), -0.5 - 0j], dtype)
    assert_eq(np.around(np.asarray(data, chunks=2), decimals), numpy.around(data, decimals))


def test_special_values() -> None:
    x = np.asarray(SPECIAL, chunks=(1, 2))
    for name in ("around", "fix", "angle", "nan_to_num", "sinc", "i0"):
        assert_eq(getattr(np, name)(x), getattr(numpy, name)(SPECIAL))
    assert_eq(
        np.nan_to_num(x, nan=-1.0, posinf=7.0, neginf=-7.0),
        numpy.nan_to_num(SPECIAL, nan=-1.0, posinf=7.0, neginf=-7.0),
    )
    assert_eq(np.angle(x, deg=True), numpy.angle(SPECIAL, deg=True))


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64"])
def test_fix_and_i0(dtype: str) -> None:
    data = _data(dtype)
    x = np.asarray(data, chunks=(3, 4))
    assert_eq(np.fix(x), numpy.fix(data))
    assert_eq(np.i0(x), numpy.i0(data), rtol=1e-6)


def test_fix_warns_as_numpy_does() -> None:
    """NumPy 2.5 deprecates ``numpy.fix``: ours gives the warnings NumPy's gives, none
    before 2.5."""
    data = _data("float64")
    with warnings.catch_warnings(record=True) as theirs:
        warnings.simplefilter("always")
        expected = numpy.fix(data)
    with warnings.catch_warnings(record=True) as ours:
        warnings.simplefilter("always")
        result = np.fix(np.asarray(data, chunks=(3, 4)))
    assert [(w.category, str(w.message)) for w in ours] == [
        (w.category, str(w.message)) for w in theirs
    ]
    assert_eq(result, expected)


def test_i0_rejects_complex() -> None:
    data = _data("complex128")
    assert_raises_like(lambda: numpy.i0(data), lambda: np.i0(np.asarray(data)))


def test_real_if_close() -> None:
    close = numpy.array([1.0 + 1e-15j, 2.0 - 1e-16j])
    far = numpy.array([1.0 + 1e-3j, 2.0])
    assert_eq(np.real_if_close(np.asarray(close, chunks=1)), numpy.real_if_close(close))
    assert_eq(np.real_if_close(np.asarray(far, chunks=1)), numpy.real_if_close(far))
    assert_eq(np.real_if_close(np.asarray(far.real)), numpy.real_if_close(far.real))


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("include_initial", [False, True])
@pytest.mark.parametrize("dtype", ["int32", "float64", "complex128"])
def test_cumulative(name: str, include_initial: bool, dtype: str) -> None:
    data = _data(dtype) / (1 if dtype == "int32" else 4)
    data = data.astype(dtype)
    ours, theirs = getattr(np, name), getattr(numpy, name)
    x = np.asarray(data, chunks=(3, 2))
    for axis in (0, 1, -1):
        expected = theirs(data, axis=axis, include_initial=include_initial)
        assert_eq(ours(x, axis=axis, include_initial=include_initial), expected, rtol=1e-12)
    assert_eq(
        ours(x[1], include_initial=include_initial),
        theirs(data[1], include_initial=include_initial),
    )
    assert_raises_like(lambda: theirs(data), lambda: ours(x))
    assert_raises_like(lambda: theirs(data, axis=2), lambda: ours(x, axis=2))


def test_ediff1d() -> None:
    data = _data("int64")
    x = np.asarray(data, chunks=(3, 4))
    assert_eq(np.ediff1d(x), numpy.ediff1d(data))
    assert_eq(
        np.ediff1d(x, to_end=[7, 8], to_begin=-1), numpy.ediff1d(data, to_end=[7, 8], to_begin=-1)
    )
    assert_raises_like(
        lambda: numpy.ediff1d(data, to_end=[0.5]), lambda: np.ediff1d(x, to_end=[0.5])
    )


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_trapezoid(axis: int) -> None:
    data = _data("float64")
    y = np.asarray(data, chunks=(3, 4))
    points = numpy.linspace(0.0, 3.0, data.shape[axis]) ** 2
    assert_eq(np.trapezoid(y, axis=axis), numpy.trapezoid(data, axis=axis))
    assert_eq(np.trapezoid(y, dx=0.5, axis=axis), numpy.trapezoid(data, dx=0.5, axis=axis))
    assert_eq(
        np.trapezoid(y, x=np.asarray(points, chunks=2), axis=axis),
        numpy.trapezoid(data, x=points, axis=axis),
        rtol=1e-12,
    )
    assert_raises_like(lambda: numpy.trapezoid(data, axis=3), lambda: np.trapezoid(y, axis=3))


def test_round_method() -> None:
    data = _data("float64") / 3
    x = np.asarray(data, chunks=(3, 4))
    assert_eq(x.round(), data.round())
    assert_eq(x.round(2), data.round(2))
