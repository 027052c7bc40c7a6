"""``initial=`` and ``where=`` of the reductions against NumPy: every reduction NumPy
gives them to (functions, methods and the ``ufunc.reduce`` forms), axes, keepdims,
several dtypes and chunkings, ``out=``, empty selections, and NumPy's errors."""

from __future__ import annotations

import warnings
from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_eq, assert_raises_like

RNG = numpy.random.default_rng(7)
MASK = RNG.random((6, 8)) > 0.4
MASK[:, 0] = MASK[0, :] = True  # every lane selects something (no empty-slice warnings)
ROW_MASK = numpy.array([True, False, True, True, False, False, True, False])
CHUNKINGS = [(6, 8), (3, 4), (2, 3)]


def host_values(dtype: str) -> numpy.ndarray:
    if dtype == "bool":
        return RNG.random((6, 8)) > 0.5
    if dtype in ("int64", "int8", "uint8"):
        return RNG.integers(0, 5, (6, 8)).astype(dtype)
    values = RNG.uniform(0.5, 1.5, (6, 8))
    if dtype.startswith("complex"):
        values = values + 1j * RNG.uniform(-0.5, 0.5, (6, 8))
    return values.astype(dtype)


def check(name: str, host: numpy.ndarray, chunks: Any, **kwargs: Any) -> None:
    """``name(a, **kwargs)`` on ours equals NumPy's (values to rounding, dtype, shape)."""
    ours = dnp.array(host, chunks=chunks)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's own empty-slice warnings
        expected = getattr(numpy, name)(host, **kwargs)
    result = getattr(dnp, name)(ours, **kwargs)
    # Chunked floating-point sums round differently; extremes and integer sums do not.
    integer_sum = host.dtype.kind in "biu" and name in ("sum", "prod", "nansum", "nanprod")
    exact = integer_sum or name.removeprefix("nan") in ("max", "min", "amax", "amin", "any", "all")
    tolerance = 0.0 if exact else 1e-6
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert_eq(result, expected, rtol=tolerance)


IDENTITY_REDUCTIONS = ["sum", "prod", "nansum", "nanprod"]
EXTREMES = ["max", "min", "amax", "amin", "nanmax", "nanmin"]


@pytest.mark.parametrize("chunks", CHUNKINGS)
@pytest.mark.parametrize("name", IDENTITY_REDUCTIONS + EXTREMES)
@pytest.mark.parametrize("dtype", ["float64", "int64", "float32"])
def test_initial(name: str, dtype: str, chunks: Any) -> None:
    host = host_values(dtype)
    for axis in (None, 0, 1):
        check(name, host, chunks, axis=axis, initial=3)
    check(name, host, chunks, axis=1, initial=1, keepdims=True)


@pytest.mark.parametrize("chunks", CHUNKINGS)
@pytest.mark.parametrize("name", IDENTITY_REDUCTIONS + EXTREMES)
@pytest.mark.parametrize("dtype", ["float64", "int8", "complex128", "bool"])
def test_where_with_initial(name: str, dtype: str, chunks: Any) -> None:
    host = host_values(dtype)
    for axis in (None, 0, 1):
        check(name, host, chunks, axis=axis, where=MASK, initial=2)
    check(name, host, chunks, axis=0, where=ROW_MASK, initial=1, keepdims=True)


@pytest.mark.parametrize("name", IDENTITY_REDUCTIONS + ["any", "all"])
@pytest.mark.parametrize("dtype", ["float64", "int64", "bool", "complex64"])
def test_where_without_initial(name: str, dtype: str) -> None:
    host = host_values(dtype)
    for axis in (None, 0, 1):
        check(name, host, (3, 4), axis=axis, where=MASK)
    check(name, host, (3, 4), axis=1, where=ROW_MASK, keepdims=True)


MOMENTS = ["mean", "var", "std", "nanmean", "nanvar", "nanstd"]


@pytest.mark.parametrize("chunks", CHUNKINGS)
@pytest.mark.parametrize("name", MOMENTS)
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "complex128"])
def test_moments_with_where(name: str, dtype: str, chunks: Any) -> None:
    host = host_values(dtype)
    for axis in (None, 0, 1):
        check(name, host, chunks, axis=axis, where=MASK)
    check(name, host, chunks, axis=0, where=ROW_MASK, keepdims=True)
    if name.endswith(("var", "std")):
        check(name, host, chunks, axis=1, where=MASK, ddof=1)


@pytest.mark.parametrize("name", ["nanmax", "nanmin", "nansum", "nanmean", "nanvar"])
def test_nan_functions_ignore_nans_inside_the_selection(name: str) -> None:
    host = host_values("float64")
    host[0, 1] = host[2, :] = host[:, 5] = numpy.nan
    kwargs = {"initial": 0.5} if name in ("nanmax", "nanmin", "nansum") else {}
    for axis in (None, 0, 1):
        check(name, host, (3, 4), axis=axis, where=MASK, **kwargs)
    if name in ("nanmax", "nanmin"):
        check(name, host, (3, 4), axis=1, initial=0.5)  # an all-NaN row gives initial


def test_max_propagates_nan_with_initial() -> None:
    host = host_values("float64")
    host[1, 3] = numpy.nan
    check("max", host, (3, 4), axis=1, initial=0.0)
    check("min", host, (3, 4), where=MASK, initial=9.0)


def test_methods_and_ufunc_reduce_forms() -> None:
    host = host_values("float64")
    ours = dnp.array(host, chunks=(3, 4))
    expected = host.sum(axis=0, where=MASK, initial=1)
    assert_eq(ours.sum(axis=0, where=MASK, initial=1), expected, rtol=1e-12)
    assert_eq(ours.max(initial=5), host.max(initial=5))
    assert_eq(numpy.max(ours, initial=0), numpy.max(host, initial=0))  # the pattern
    assert_eq(numpy.min(ours, axis=1, initial=0.7), numpy.min(host, axis=1, initial=0.7))
    assert_eq(ours.prod(where=MASK, axis=0), host.prod(where=MASK, axis=0), rtol=1e-12)
    assert_eq(ours.std(where=MASK), host.std(where=MASK), rtol=1e-12)
    assert_eq(ours.mean(axis=1, where=MASK), host.mean(axis=1, where=MASK), rtol=1e-12)
    assert_eq(ours.any(where=MASK), host.any(where=MASK))
    expected = numpy.add.reduce(host, axis=1, where=MASK, initial=2)
    assert_eq(numpy.add.reduce(ours, axis=1, where=MASK, initial=2), expected, rtol=1e-12)
    assert_eq(dnp.add.reduce(ours, axis=1, where=MASK, initial=2), expected, rtol=1e-12)
    expected = numpy.maximum.reduce(host, axis=None, initial=1.2, where=MASK)
    assert_eq(numpy.maximum.reduce(ours, axis=None, initial=1.2, where=MASK), expected)
    assert_eq(
        dnp.logical_or.reduce(ours > 1, where=MASK), numpy.logical_or.reduce(host > 1, where=MASK)
    )


def test_our_array_as_the_mask() -> None:
    host = host_values("float64")
    ours = dnp.array(host, chunks=(3, 4))
    assert_eq(
        dnp.sum(ours, axis=0, where=ours > 1), numpy.sum(host, axis=0, where=host > 1), rtol=1e-12
    )


def test_all_unselected_and_empty() -> None:
    host = host_values("float64")
    check("max", host, (3, 4), where=False, initial=-1.0)
    check("sum", host, (3, 4), axis=0, where=numpy.zeros(8, dtype=bool))
    empty = numpy.zeros((0, 4))
    check("max", empty, None, axis=0, initial=4.0)
    check("sum", empty, None, axis=1, initial=4.0, where=numpy.ones(4, dtype=bool))


def test_out_with_where_and_initial() -> None:
    host = host_values("float64")
    ours = dnp.array(host, chunks=(3, 4))
    expected = numpy.zeros(8)
    numpy.max(host, axis=0, where=MASK, initial=0.9, out=expected)
    into_ours = dnp.zeros(8)
    assert dnp.max(ours, axis=0, where=MASK, initial=0.9, out=into_ours) is into_ours
    assert_eq(into_ours, expected)
    into_host = numpy.zeros(8)
    assert dnp.max(ours, axis=0, where=MASK, initial=0.9, out=into_host) is into_host
    numpy.testing.assert_array_equal(into_host, expected)
    # Reductions cast into out= unsafely, as NumPy's do.
    expected = numpy.zeros(8, dtype=int)
    numpy.mean(host * 10, axis=0, where=MASK, out=expected)
    into_host = numpy.zeros(8, dtype=int)
    dnp.mean(ours * 10, axis=0, where=MASK, out=into_host)
    numpy.testing.assert_array_equal(into_host, expected)


BAD_CALLS = {
    "max_where_without_initial": lambda xp, a: xp.max(a, where=MASK),
    "min_where_without_initial": lambda xp, a: xp.min(a, axis=0, where=MASK),
    "max_of_empty_without_initial": lambda xp, a: xp.max(a[:0]),
    "integer_mask": lambda xp, a: xp.sum(a, where=MASK.astype(int)),
    "mask_shape": lambda xp, a: xp.sum(a, where=numpy.ones(6, dtype=bool)),
    "bad_axis": lambda xp, a: xp.sum(a, axis=2, where=MASK),
    "out_not_an_array": lambda xp, a: xp.sum(a, axis=0, where=MASK, out=[0.0] * 8),
    "out_shape": lambda xp, a: xp.sum(a, axis=0, where=MASK, out=numpy.zeros(6)),
}


@pytest.mark.parametrize("name", sorted(BAD_CALLS))
def test_errors_like_numpy(name: str) -> None:
    host = host_values("float64")
    ours = dnp.array(host, chunks=(3, 4))
    assert_raises_like(lambda: BAD_CALLS[name](numpy, host), lambda: BAD_CALLS[name](dnp, ours))


def test_integer_dtype_variance_with_where_is_refused_clearly() -> None:
    with pytest.raises(NotImplementedError, match="integer dtype"):
        dnp.var(dnp.ones((4, 4)), where=MASK[:4, :4], dtype=int)


@pytest.mark.usefixtures("four_workers")
def test_where_folds_into_the_chunk_reduction() -> None:
    # No gathering: the masked reduction keeps the operand's blocks along the kept axis.
    host = RNG.uniform(size=(300, 40))
    mask = host > 0.3
    ours = dnp.array(host)
    row_blocks = ours.to_dask().chunks[0]
    assert len(row_blocks) > 1
    result = dnp.sum(ours, axis=1, where=mask, initial=1)
    assert result.to_dask().chunks == (row_blocks,)
    assert_eq(result, numpy.sum(host, axis=1, where=mask, initial=1), rtol=1e-12)


# issue 30: with out= (ours, a host array, a view) of another dtype than the input's,
# NumPy reduces in their promoted dtype, then casts into out: a bool or integer input
# into a wider out keeps initial= (3, not True), float32 into float64 adds in float64.
OUT_DTYPE_CASES = [
    ("bool", "int32"),
    ("bool", "float32"),
    ("uint8", "int8"),
    ("int64", "float64"),
    ("float32", "float64"),
    ("float64", "float32"),
    ("float64", "int32"),
    ("complex128", "complex64"),
]
OUT_KINDS = ["ours", "host", "view"]


def _out(kind: str, shape: tuple[int, ...], dtype: str) -> tuple[Any, Any]:
    """An output of ``kind`` filled with 7 and what to read back after the call."""
    if kind == "host":
        out = numpy.full(shape, 7, dtype=dtype)
        return out, out
    if kind == "view":
        base = dnp.full((2, *shape), 7, dtype=dtype)
        return base[1, ...], base
    out = dnp.full(shape, 7, dtype=dtype)
    return out, out


@pytest.mark.parametrize("name", ["amax", "amin", "max", "min", "nanmax", "nanmin"])
@pytest.mark.parametrize(("dtype", "out_dtype"), OUT_DTYPE_CASES)
@pytest.mark.parametrize("out_kind", OUT_KINDS)
def test_max_min_into_out_of_another_dtype(
    name: str, dtype: str, out_dtype: str, out_kind: str
) -> None:
    host = host_values(dtype)
    initial = 3 if dtype in ("bool", "uint8", "int64") else 1.25
    for chunks in [(6, 8), (2, 3)]:
        ours = dnp.array(host, chunks=chunks)
        for axis, keepdims, kwargs in [
            (None, False, {}),
            (0, True, {"initial": initial}),
            (1, False, {"initial": initial, "where": MASK}),
            ((0, 1), True, {"initial": -initial if dtype != "uint8" else 0}),
            (-1, True, {"initial": initial, "where": ROW_MASK}),
        ]:
            shape = numpy.max(host, axis=axis, keepdims=keepdims).shape
            expected, expected_read = _out("host", shape, out_dtype)
            got, got_read = _out(out_kind, shape, out_dtype)
            if out_kind == "view":
                expected_read = numpy.full((2, *shape), 7, dtype=out_dtype)
                expected = expected_read[1, ...]
            getattr(numpy, name)(host, axis=axis, out=expected, keepdims=keepdims, **kwargs)
            result = getattr(dnp, name)(ours, axis=axis, out=got, keepdims=keepdims, **kwargs)
            assert result is got
            assert_eq(got_read if out_kind != "host" else dnp.asarray(got_read), expected_read)


@pytest.mark.parametrize(("dtype", "out_dtype"), OUT_DTYPE_CASES)
@pytest.mark.parametrize("name", ["sum", "prod", "nansum", "mean"])
def test_sums_into_out_of_another_dtype(name: str, dtype: str, out_dtype: str) -> None:
    host = host_values(dtype)
    ours = dnp.array(host, chunks=(2, 3))
    for axis, kwargs in [(None, {}), (0, {"keepdims": True}), (1, {"where": MASK})]:
        if name == "prod" and "where" not in kwargs:
            kwargs = {**kwargs, "initial": 1}
        shape = numpy.sum(host, axis=axis, keepdims=kwargs.get("keepdims", False)).shape
        expected = numpy.full(shape, 7, dtype=out_dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", numpy.exceptions.ComplexWarning)
            getattr(numpy, name)(host, axis=axis, out=expected, **kwargs)
        got = dnp.full(shape, 7, dtype=out_dtype)
        getattr(dnp, name)(ours, axis=axis, out=got, **kwargs)
        tolerance = 1e-6 if "float32" in (dtype, out_dtype) or out_dtype == "complex64" else 1e-12
        assert_eq(got, expected, rtol=tolerance)
