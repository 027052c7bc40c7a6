"""Reductions and scans against NumPy: functions and methods, axes, keepdims, dtype=, ddof,
out=, every numeric dtype, 0-d / empty / 1-D..4-D shapes, several chunkings, NaN, errors."""

from __future__ import annotations

from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import PARITY_DTYPES, assert_eq, assert_raises_like

REDUCTIONS = ["sum", "prod", "mean", "var", "std", "min", "max", "argmin", "argmax", "any", "all"]
SCANS = ["cumsum", "cumprod"]
ALL_FUNCTIONS = REDUCTIONS + SCANS
# Reductions whose value depends on the (chunked) order of floating-point arithmetic.
ARITHMETIC = {"sum", "prod", "mean", "var", "std", "cumsum", "cumprod"}
DTYPES = PARITY_DTYPES


def make_host(shape: tuple[int, ...], dtype: Any, seed: int = 0) -> numpy.ndarray:
    """Values near 1 (so products neither overflow floats nor vanish), with repeats
    (so argmin/argmax ties test "first occurrence")."""
    rng = numpy.random.default_rng(seed)
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.kind in "iu":
        return rng.integers(0 if dtype.kind == "u" else -3, 4, shape).astype(dtype)
    values = rng.uniform(0.5, 1.5, shape)
    if dtype.kind == "c":
        values = values + 1j * rng.uniform(-0.5, 0.5, shape)
    return values.astype(dtype)


def tolerance(name: str, dtype: Any) -> float:
    """Chunked summation changes floating-point rounding; nothing else may differ."""
    if name not in ARITHMETIC:
        return 0.0
    kind = numpy.dtype(dtype).kind
    if kind in "fc":
        return 1e-5 if numpy.dtype(dtype).itemsize <= 4 else 1e-12
    return 1e-12 if name in ("mean", "var", "std") else 0.0


def check(
    name: str, host: numpy.ndarray, chunks: Any = None, *, method: bool = False, **kwargs: Any
) -> None:
    """``name`` on ours equals NumPy's, or raises NumPy's exception class."""
    ours = dnp.array(host, chunks=chunks) if chunks is not None else dnp.array(host)
    if method:

        def numpy_call() -> Any:
            return getattr(host, name)(**kwargs)

        def our_call() -> Any:
            return getattr(ours, name)(**kwargs)
    else:

        def numpy_call() -> Any:
            return getattr(numpy, name)(host, **kwargs)

        def our_call() -> Any:
            return getattr(dnp, name)(ours, **kwargs)

    try:
        expected = numpy_call()
    except Exception:  # noqa: BLE001 - NumPy refuses: we must refuse the same way
        assert_raises_like(numpy_call, our_call)
        return
    expected = numpy.asarray(expected)
    assert_eq(our_call(), expected, rtol=tolerance(name, kwargs.get("dtype") or expected.dtype))


# -- every function x every dtype, one 2-D shape with uneven chunks --------------------------
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ALL_FUNCTIONS)
def test_dtype_sweep(name: str, dtype: str) -> None:
    host = make_host((7, 5), dtype)
    axes = (None, 0, -1) if name not in SCANS else (None, 1)
    for axis in axes:
        check(name, host, chunks=(3, 2), axis=axis)


# -- shapes x chunkings x axes on float64 and int64 ---------------------------------------
SHAPES_AND_CHUNKS = [
    ((13,), (13,)),
    ((13,), (4,)),
    ((6, 9), (2, 4)),
    ((6, 9), (6, 1)),
    ((4, 5, 6), (3, 2, 4)),
    ((3, 4, 2, 5), (2, 3, 1, 2)),
]


def axes_of(ndim: int) -> list[Any]:
    """None, each axis (and its negative), and a tuple of two axes where there are two."""
    axes: list[Any] = [None, 0, -1]
    if ndim >= 2:
        axes += [(0, ndim - 1), (-1, 0)]
    if ndim >= 3:
        axes += [1, (0, 1, 2)]
    return axes


@pytest.mark.parametrize("dtype", ["float64", "int64"])
@pytest.mark.parametrize(("shape", "chunks"), SHAPES_AND_CHUNKS)
@pytest.mark.parametrize("name", REDUCTIONS)
def test_shapes_chunks_axes(
    name: str, shape: tuple[int, ...], chunks: tuple[int, ...], dtype: str
) -> None:
    host = make_host(shape, dtype, seed=len(shape))
    # keepdims alternates over the axes (both values meet int, negative, tuple and None axes
    # across the shapes) to keep the sweep inside the time budget.
    for position, axis in enumerate(axes_of(len(shape))):
        check(name, host, chunks, axis=axis, keepdims=(position + len(shape)) % 2 == 1)


@pytest.mark.parametrize(("shape", "chunks"), SHAPES_AND_CHUNKS)
@pytest.mark.parametrize("name", SCANS)
def test_scans_shapes_chunks_axes(
    name: str, shape: tuple[int, ...], chunks: tuple[int, ...]
) -> None:
    host = make_host(shape, "float64", seed=len(shape))
    for axis in [None, 0, -1] + ([1] if len(shape) >= 3 else []):
        check(name, host, chunks, axis=axis)


@pytest.mark.parametrize("name", ALL_FUNCTIONS)
def test_methods(name: str) -> None:
    host = make_host((6, 8), "float64")
    for kwargs in ({}, {"axis": 0}, {"axis": -1}):
        check(name, host, (4, 3), method=True, **kwargs)
    if name in REDUCTIONS:
        check(name, host, (4, 3), method=True, axis=1, keepdims=True)


@pytest.mark.parametrize("name", REDUCTIONS)
def test_zero_d(name: str) -> None:
    host = numpy.asarray(2.5)
    for axis in (None, 0, -1, (), (0,)):
        check(name, host, axis=axis)


@pytest.mark.parametrize("name", SCANS)
def test_scans_zero_d(name: str) -> None:
    host = numpy.asarray(2.5)
    for axis in (None, 0, 1):
        check(name, host, axis=axis)


@pytest.mark.parametrize("name", ALL_FUNCTIONS)
def test_empty(name: str) -> None:
    """NumPy raises ValueError for min/max/argmin/argmax over an empty axis, and gives the
    identity (or NaN for mean/var) otherwise."""
    for shape in ((0,), (0, 3), (3, 0)):
        host = numpy.zeros(shape)
        for axis in (None, 0, -1):
            check(name, host, axis=axis)
            if name in REDUCTIONS:
                check(name, host, axis=axis, keepdims=True)


# -- keyword arguments ------------------------------------------------------------------
@pytest.mark.parametrize("name", ["sum", "prod", "mean", "var", "std", "cumsum", "cumprod"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "complex128", "int8"])
def test_dtype_argument(name: str, dtype: str) -> None:
    for source in ("int16", "float32", "bool"):
        host = make_host((5, 6), source)
        for axis in (None, 0):
            check(name, host, (2, 4), axis=axis, dtype=dtype)


@pytest.mark.parametrize("name", ["var", "std"])
def test_ddof(name: str) -> None:
    for dtype in ("float64", "int64", "complex128"):
        host = make_host((5, 7), dtype)
        for ddof in (0, 1, 2):
            for axis in (None, 0, 1):
                check(name, host, (2, 3), axis=axis, ddof=ddof)
    check(name, make_host((5, 7), "float64"), (2, 3), axis=1, correction=1)


@pytest.mark.parametrize("name", REDUCTIONS)
def test_out(name: str) -> None:
    host = make_host((6, 4), "float64")
    ours = dnp.array(host, chunks=(4, 3))
    for axis, keepdims in ((0, False), (1, True), (None, False)):
        expected_dtype = numpy.asarray(getattr(numpy, name)(host, axis=axis)).dtype
        expected = numpy.asarray(getattr(numpy, name)(host, axis=axis, keepdims=keepdims))
        out = dnp.zeros(expected.shape, dtype=expected_dtype)
        kwargs = {"keepdims": keepdims} if keepdims else {}
        returned = getattr(dnp, name)(ours, axis=axis, out=out, **kwargs)
        assert returned is out
        assert_eq(out, expected, rtol=tolerance(name, expected.dtype))


def test_out_casts_like_numpy() -> None:
    host = make_host((6, 4), "float64")
    expected = numpy.zeros(4, dtype=numpy.int32)
    numpy.sum(host, axis=0, out=expected)
    out = dnp.zeros(4, dtype=numpy.int32)
    dnp.sum(dnp.array(host, chunks=(4, 3)), axis=0, out=out)
    assert_eq(out, expected)


def test_out_is_a_view() -> None:
    host = make_host((6, 4), "float64")
    target = numpy.zeros((3, 4))
    numpy.sum(host, axis=0, out=target[1])
    ours = dnp.zeros((3, 4))
    dnp.sum(dnp.array(host, chunks=(4, 3)), axis=0, out=ours[1])
    assert_eq(ours, target, rtol=1e-12)


@pytest.mark.parametrize("name", SCANS)
def test_scan_out(name: str) -> None:
    host = make_host((6, 4), "float64")
    out = dnp.zeros((6, 4))
    returned = getattr(dnp, name)(dnp.array(host, chunks=(4, 3)), axis=0, out=out)
    assert returned is out
    assert_eq(out, getattr(numpy, name)(host, axis=0), rtol=1e-12)


@pytest.mark.parametrize("name", REDUCTIONS)
def test_out_wrong_shape(name: str) -> None:
    host = make_host((6, 4), "float64")
    for bad in ((3,), (1, 4), ()):
        assert_raises_like(
            lambda bad=bad: getattr(numpy, name)(host, axis=0, out=numpy.zeros(bad)),
            lambda bad=bad: getattr(dnp, name)(dnp.array(host), axis=0, out=dnp.zeros(bad)),
        )


# -- NaN ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["max", "min", "argmax", "argmin", "sum", "mean", "var", "cumsum"])
def test_nan(name: str) -> None:
    host = make_host((5, 8), "float64")
    host[1, 6] = numpy.nan
    host[3, 2] = numpy.nan
    host[4, 7] = numpy.nan
    for chunks in ((5, 8), (2, 3)):
        for axis in (None, 0, 1):
            check(name, host, chunks, axis=axis)


def test_argmax_points_at_first_nan() -> None:
    host = numpy.array([1.0, 5.0, numpy.nan, 7.0, numpy.nan, 2.0])
    assert_eq(dnp.argmax(dnp.array(host, chunks=2)), numpy.argmax(host))
    assert_eq(dnp.argmin(dnp.array(host, chunks=4)), numpy.argmin(host))
    assert_eq(dnp.max(dnp.array(host, chunks=3)), numpy.max(host))


# -- errors ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ALL_FUNCTIONS)
def test_bad_axis(name: str) -> None:
    host = make_host((3, 4), "float64")
    for axis in (2, -3, (0, 0), (0, 2), 1.5, (1, -1)):
        check(name, host, axis=axis)


def test_argmax_tuple_axis() -> None:
    host = make_host((3, 4), "float64")
    for name in ("argmax", "argmin"):
        check(name, host, axis=(0, 1))
        check(name, host, axis=(0,))


def test_argmax_keepdims() -> None:
    host = make_host((3, 4, 5), "float64")
    for name in ("argmax", "argmin"):
        for axis in (None, 0, -1):
            check(name, host, (2, 3, 2), axis=axis, keepdims=True)


def test_errors_raised_at_call_time() -> None:
    """The error comes from building the expression, not from computing it."""
    ours = dnp.ones((3, 4))
    with pytest.raises(numpy.exceptions.AxisError):
        ours.sum(axis=5)
    with pytest.raises(ValueError):
        dnp.max(dnp.ones((0, 3)), axis=0)


# -- NumPy's dispatch protocols -------------------------------------------------------------
def test_numpy_functions_dispatch_to_ours() -> None:
    host = make_host((6, 4), "float64")
    ours = dnp.array(host, chunks=(4, 3))
    for name in ALL_FUNCTIONS:
        result = getattr(numpy, name)(ours, axis=0)
        assert isinstance(result, dnp.ndarray), name
        assert_eq(result, getattr(numpy, name)(host, axis=0), rtol=tolerance(name, "float64"))


def test_ufunc_reduce_dispatches_to_ours() -> None:
    host = make_host((6, 4), "float64")
    ours = dnp.array(host, chunks=(4, 3))
    for ufunc in (numpy.add, numpy.multiply, numpy.maximum, numpy.minimum):
        for axis in (0, 1, None):
            result = ufunc.reduce(ours, axis=axis)
            assert isinstance(result, dnp.ndarray), ufunc
            assert_eq(result, ufunc.reduce(host, axis=axis), rtol=1e-12)
    assert_eq(numpy.add.reduce(ours), numpy.add.reduce(host), rtol=1e-12)
    booleans = host > 1
    for ufunc in (numpy.logical_and, numpy.logical_or):
        assert_eq(ufunc.reduce(dnp.array(booleans, chunks=(4, 3))), ufunc.reduce(booleans))


def test_reduction_of_lazy_expression_and_view() -> None:
    host = make_host((8, 6), "float64")
    ours = dnp.array(host, chunks=(3, 4))
    assert_eq((ours * 2 + 1).sum(axis=0), (host * 2 + 1).sum(axis=0), rtol=1e-12)
    assert_eq(ours[1:-1, ::2].max(axis=1), host[1:-1, ::2].max(axis=1))
    assert_eq(ours.T.argmax(axis=0), host.T.argmax(axis=0))


def test_reduction_keeps_value_after_write() -> None:
    host = make_host((8, 6), "float64")
    ours = dnp.array(host, chunks=(3, 4))
    total = ours.sum()
    ours[0, 0] = 100.0
    assert_eq(total, host.sum(), rtol=1e-12)


def test_keepdims_values_as_numpy_takes_them() -> None:
    """``keepdims=1`` counts as True; NumPy refuses ``numpy.True_`` (TypeError): so do we."""
    host = make_host((6, 4), "float64")
    for name in ("sum", "max", "argmax", "mean"):
        check(name, host, (4, 3), axis=0, keepdims=1)
        check(name, host, (4, 3), axis=0, keepdims=numpy.True_)


def test_ufunc_accumulate_dispatches_to_ours() -> None:
    host = make_host((6, 4), "int64")
    ours = dnp.array(host, chunks=(4, 3))
    for ufunc in (numpy.add, numpy.multiply):
        result = ufunc.accumulate(ours)
        assert isinstance(result, dnp.ndarray)
        assert_eq(result, ufunc.accumulate(host))
        assert_eq(
            ufunc.accumulate(ours, axis=1, dtype=float), ufunc.accumulate(host, axis=1, dtype=float)
        )


@pytest.mark.parametrize("name", ALL_FUNCTIONS)
def test_out_dtypes(name: str) -> None:
    """Writing into ``out=`` of another dtype casts, or refuses, as NumPy does (``std`` into
    integers and ``argmax`` into floats are refused)."""
    host = make_host((6, 4), "float64")
    shape = (6, 4) if name in SCANS else (4,)
    for dtype in ("int32", "float32", "complex128", "bool", "intp"):

        def numpy_call(dtype: str = dtype) -> numpy.ndarray:
            out = numpy.zeros(shape, dtype=dtype)
            getattr(numpy, name)(host, axis=0, out=out)
            return out

        def our_call(dtype: str = dtype) -> Any:
            out = dnp.zeros(shape, dtype=dtype)
            getattr(dnp, name)(dnp.array(host, chunks=(4, 3)), axis=0, out=out)
            return out

        try:
            expected = numpy_call()
        except Exception:  # noqa: BLE001 - NumPy refuses: we must refuse alike
            assert_raises_like(numpy_call, our_call)
            continue
        assert_eq(our_call(), expected, rtol=1e-6)


@pytest.mark.parametrize("name", SCANS)
def test_scan_out_wrong_shape(name: str) -> None:
    host = make_host((6, 4), "float64")
    for axis, bad in ((None, (6, 4)), (None, (4, 6)), (0, (2, 6, 4)), (0, (1, 4))):
        assert_raises_like(
            lambda axis=axis, bad=bad: getattr(numpy, name)(host, axis=axis, out=numpy.zeros(bad)),
            lambda axis=axis, bad=bad: getattr(dnp, name)(
                dnp.array(host), axis=axis, out=dnp.zeros(bad)
            ),
        )


def test_methods_with_keywords() -> None:
    host = make_host((6, 4), "int16")
    ours = dnp.array(host, chunks=(4, 3))
    assert_eq(ours.sum(axis=0, dtype="float32"), host.sum(axis=0, dtype="float32"), rtol=1e-6)
    assert_eq(ours.mean(0, "float32", None, True), host.mean(0, "float32", None, True), rtol=1e-6)
    assert_eq(ours.var(axis=1, ddof=1), host.var(axis=1, ddof=1), rtol=1e-12)
    assert_eq(ours.std(0, None, None, 2), host.std(0, None, None, 2), rtol=1e-12)
    assert_eq(ours.cumprod(axis=1, dtype="int64"), host.cumprod(axis=1, dtype="int64"))
    out = dnp.zeros(6, dtype="int64")
    assert ours.max(axis=1, out=out) is out
    assert_eq(out, host.max(axis=1).astype("int64"))


def test_out_aliasing_the_input() -> None:
    """``out=`` a row of the reduced array itself, and a scan into a column view: NumPy's
    order of effects (the whole input is read before ``out`` is written)."""
    host = make_host((7, 6), "float64")
    ours = dnp.array(host, chunks=(3, 4))
    numpy.sum(host, axis=0, out=host[0])
    dnp.sum(ours, axis=0, out=ours[0])
    assert_eq(ours, host, rtol=1e-12)
    numpy.cumsum(host[:, 0], out=host[:, 1])
    dnp.cumsum(ours[:, 0], out=ours[:, 1])
    assert_eq(ours, host, rtol=1e-12)


@pytest.mark.parametrize("name", ["argmin", "argmax", "nanargmin", "nanargmax"])
def test_arg_reductions_over_more_blocks_than_one_combine_takes(name: str) -> None:
    """Hundreds of blocks (several rounds of combines, ``_lowering/trees.py``), ties and
    NaNs in several of them, an all-NaN slice of one block: NumPy's first index."""
    host = numpy.random.default_rng(3).integers(0, 4, (50, 37)).astype(float)
    host[3, 4] = host[40, 30] = numpy.nan
    host[10:12, 20] = numpy.nan  # one block's whole column along axis 0
    ours = dnp.array(host, chunks=(2, 2))
    for axis in (None, 0, 1):
        for keepdims in (False, True):
            expected = getattr(numpy, name)(host, axis=axis, keepdims=keepdims)
            assert_eq(getattr(dnp, name)(ours, axis=axis, keepdims=keepdims), expected)
