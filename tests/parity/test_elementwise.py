"""Elementwise functions that are not ufuncs (``where``, ``clip``, ``astype``, ``real``,
``imag``) against NumPy, 0-d arrays included."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_eq, assert_raises_like

DTYPES = [
    "bool",
    "int8",
    "uint8",
    "int64",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
]
FLOATS = [numpy.nan, numpy.inf, -numpy.inf, -0.0, 0.0, 2.5, -1.5, 300.0, 1e10, -7.0]


def values(dtype: str, shape: tuple[int, ...] = (10,)) -> numpy.ndarray:
    """NaN, inf, -0.0, fractions, negatives and out-of-range values, cast as NumPy casts."""
    size = int(numpy.prod(shape, dtype=numpy.int64))
    pool = numpy.array(FLOATS * (size // len(FLOATS) + 1))[:size]
    if dtype.startswith("complex"):
        return (pool + 1j * pool[::-1]).astype(dtype).reshape(shape)
    with numpy.errstate(invalid="ignore", over="ignore"):
        return pool.astype(dtype).reshape(shape)


def check(function: Callable[[Any], Any], make: Callable[[Any], Any] | None = None) -> None:
    """``function(dnp)`` equals ``function(numpy)``, or raises NumPy's exception class."""
    try:
        expected = function(numpy)
    except Exception:  # noqa: BLE001 - NumPy refuses: so must we
        assert_raises_like(lambda: function(numpy), lambda: function(dnp))
        return
    assert_eq(function(dnp), expected)


def arr(module: Any, host: Any, chunks: Any = None) -> Any:
    """``host`` as the module's array (ours with ``chunks``)."""
    if module is dnp:
        return dnp.array(host, chunks=chunks)
    return numpy.array(host)


# -- where -------------------------------------------------------------------------------
CONDITIONS = [
    numpy.array([[True, False, True]]).T,
    numpy.array([0, 2, -1]),
    numpy.array([0.0, numpy.nan, -0.0]),
    numpy.array(True),
]


@pytest.mark.parametrize("dtype", DTYPES)
def test_where_dtypes(dtype: str) -> None:
    x, y = values(dtype, (3, 3)), values(dtype, (3, 3))[::-1]
    for condition in CONDITIONS:
        check(lambda m: m.where(arr(m, condition), arr(m, x, 2), arr(m, y, (1, 2))))  # noqa: B023


def test_where_scalars_and_promotion() -> None:
    condition = numpy.array([True, False, True])
    small = numpy.array([1, 2, 3], dtype="uint8")
    check(lambda m: m.where(arr(m, condition), 1, 2.5))
    check(lambda m: m.where(arr(m, condition), arr(m, small), 3))  # weak int keeps uint8
    check(lambda m: m.where(arr(m, condition), arr(m, small), 300))  # NEP 50: promotes... or not
    check(lambda m: m.where(arr(m, condition), arr(m, small), -1.5))
    check(lambda m: m.where(arr(m, condition), numpy.float32(1), 2))
    check(lambda m: m.where(arr(m, condition), 1j, arr(m, small)))
    check(lambda m: m.where(arr(m, condition), arr(m, small), numpy.int16(-1)))


def test_where_broadcasting_and_chunks() -> None:
    condition = numpy.arange(12).reshape(3, 4) % 3 == 0
    check(lambda m: m.where(arr(m, condition, (2, 3)), arr(m, numpy.arange(4.0)), -1))
    check(
        lambda m: m.where(
            arr(m, condition[:, :1]), arr(m, numpy.arange(4.0), 3), arr(m, numpy.ones((2, 1, 1)))
        )
    )
    check(lambda m: m.where(arr(m, [True, False]), arr(m, [1, 2, 3]), 0))  # broadcast error


def test_where_host_and_list_operands() -> None:
    condition = numpy.array([True, False, True])
    assert_eq(dnp.where(condition, dnp.arange(3), 0), numpy.where(condition, numpy.arange(3), 0))
    assert_eq(
        dnp.where([1, 0, 1], [1, 2, 3], [4, 5, 6]), numpy.where([1, 0, 1], [1, 2, 3], [4, 5, 6])
    )


def test_where_0d() -> None:
    check(lambda m: m.where(True, 1, 2))
    check(lambda m: m.where(arr(m, False), arr(m, 1.5), arr(m, numpy.int8(2))))
    check(lambda m: m.where(arr(m, True), arr(m, [1, 2]), 0))


def test_where_argument_count() -> None:
    check(lambda m: m.where(arr(m, [True]), 1))
    (ours,) = dnp.where(dnp.array([0, 1, 3, 0]))  # one argument: nonzero
    assert_eq(ours, numpy.where(numpy.array([0, 1, 3, 0]))[0])


def test_where_reads_operands_at_call() -> None:
    source = dnp.arange(4.0)
    result = dnp.where(source > 1, source, -source)
    source[...] = 100
    assert_eq(result, numpy.array([-0.0, -1.0, 2.0, 3.0]))


# -- clip --------------------------------------------------------------------------------
BOUNDS = [
    (0, 1),
    (None, 1),
    (0, None),
    (-1, [0, 1, 2]),
    (1, 0),
    (numpy.nan, 1),
    (0.5, 1.5),
    (-0.0, 0.0),
    (numpy.float32(0.5), 2),
    (0, 300),
    (-1, 1),
]


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int64", "float32", "float64"])
def test_clip(dtype: str) -> None:
    host = values(dtype, (3,))
    for low, high in BOUNDS:
        check(lambda m: m.clip(arr(m, host, 2), low, high))  # noqa: B023
        check(lambda m: m.clip(arr(m, host), min=low, max=high))  # noqa: B023
        check(lambda m: arr(m, host).clip(low, high))  # noqa: B023


def test_clip_keywords_and_none() -> None:
    host = numpy.array([-3.0, 0.5, 7.0])
    check(lambda m: m.clip(arr(m, host), None, None))
    check(lambda m: m.clip(arr(m, host)))
    check(lambda m: m.clip(arr(m, host), min=1))
    check(lambda m: m.clip(arr(m, host), max=1))
    check(lambda m: m.clip(arr(m, host), 0, 1, min=0))


def test_clip_method_takes_numpys_parameter_names() -> None:
    """``ndarray.clip(min=None, max=None, out=None, **kwargs)``: not the function's
    ``a_min``/``a_max``, so a positional bound and a keyword one mix."""
    host = numpy.array([-3.0, 0.5, 7.0])
    check(lambda m: arr(m, host).clip(0, max=1))
    check(lambda m: arr(m, host).clip(min=0))
    check(lambda m: arr(m, host).clip(max=1))
    check(lambda m: arr(m, host).clip(a_min=0))


def test_clip_array_bounds_and_broadcasting() -> None:
    check(lambda m: m.clip(arr(m, [[1, 5, 9]]), arr(m, [[2], [3]], 1), 8))
    check(
        lambda m: m.clip(
            arr(m, numpy.arange(12.0).reshape(3, 4), (2, 3)),
            arr(m, numpy.arange(4.0)),
            arr(m, numpy.full((3, 1), 6.0)),
        )
    )
    check(lambda m: m.clip(arr(m, [1, 2]), arr(m, [0, 1, 2]), 3))


def test_clip_0d() -> None:
    check(lambda m: m.clip(arr(m, 5), 0, 3))
    check(lambda m: m.clip(arr(m, -0.0), 0.0, 1.0))


def test_clip_out() -> None:
    host = numpy.array([1.0, 5.0, 9.0])
    out = dnp.zeros(3)
    assert dnp.clip(dnp.array(host), 2, 8, out=out) is out
    assert_eq(out, numpy.clip(host, 2, 8))
    base = dnp.zeros((2, 3))
    dnp.clip(dnp.array(host), 2, 8, out=base[1])
    expected = numpy.zeros((2, 3))
    numpy.clip(host, 2, 8, out=expected[1])
    assert_eq(base, expected)
    assert_raises_like(
        lambda: numpy.clip(host, 2, 8, out=numpy.zeros(3, dtype=int)),
        lambda: dnp.clip(dnp.array(host), 2, 8, out=dnp.zeros(3, dtype=int)),
    )


# -- astype ------------------------------------------------------------------------------
@pytest.mark.parametrize("source", DTYPES)
def test_astype_values_and_casting_rules(source: str, backend: str) -> None:
    host = values(source)
    ours = dnp.array(host, chunks=3)
    for target in DTYPES:
        if backend == "cupy" and source == "float16" and numpy.dtype(target).kind in "iu":
            _check_float16_to_integer_on_cupy(host, ours, target)
            continue
        for casting in ("unsafe", "safe", "same_kind", "no", "equiv"):
            try:
                with numpy.errstate(invalid="ignore", over="ignore"):
                    expected = host.astype(target, casting=casting)
            except TypeError:
                assert_raises_like(
                    lambda: host.astype(target, casting=casting),  # noqa: B023
                    lambda: ours.astype(target, casting=casting),  # noqa: B023
                )
                continue
            assert_eq(ours.astype(target, casting=casting), expected)


def _check_float16_to_integer_on_cupy(host: numpy.ndarray, ours: Any, target: str) -> None:
    """float16 kernels are CuPy's own (no fused C++ type): NaN, infinities and values out
    of the target's range cast as CUDA casts them (it saturates; NumPy's C casts are
    undefined there and wrap on x86), docs/numpy-differences.md. The others are NumPy's."""
    info = numpy.iinfo(target)
    keep = numpy.isfinite(host) & (host >= info.min) & (host <= info.max)
    assert_eq(ours.astype(target)[keep], host.astype(target)[keep])


def test_astype_copy_false_and_function_form() -> None:
    ours = dnp.arange(3)
    assert ours.astype(ours.dtype, copy=False) is ours
    copied = ours.astype(ours.dtype)
    assert copied is not ours
    ours[0] = 7  # the copy does not see later writes
    assert_eq(copied, numpy.arange(3))
    assert_eq(ours.astype("float32", copy=False), numpy.array([7, 1, 2], dtype="float32"))
    assert_eq(dnp.astype(ours, "int8"), numpy.astype(numpy.array([7, 1, 2]), "int8"))
    assert_eq(dnp.astype(numpy.arange(3), "float32"), numpy.arange(3).astype("float32"))


def test_astype_of_view_and_0d() -> None:
    base = dnp.arange(12.0).reshape(3, 4)
    assert_eq(
        base[1:, ::-2].astype("int16"), numpy.arange(12.0).reshape(3, 4)[1:, ::-2].astype("int16")
    )
    check(lambda m: arr(m, 2.75).astype("int8"))
    check(lambda m: arr(m, -1).astype("uint8"))


def test_astype_bad_dtypes() -> None:
    check(lambda m: arr(m, [1, 2]).astype("not-a-dtype"))
    with pytest.raises(TypeError):  # Differences from NumPy: no string arrays
        dnp.arange(2).astype("U3")


# -- real, imag --------------------------------------------------------------------------
COMPONENT_INPUTS = [
    numpy.array([1 + 2j, -0.0 - 3j, complex(numpy.nan, numpy.inf)]),
    numpy.array([1 + 1j], dtype="complex64"),
    numpy.array([1.5, -0.0]),
    numpy.array([1, 2], dtype="int8"),
    numpy.array([True]),
    numpy.array(1 + 2j),
    numpy.array(2.0),
]


@pytest.mark.parametrize("part", ["real", "imag"])
def test_real_imag(part: str) -> None:
    for host in COMPONENT_INPUTS:
        check(lambda m: getattr(m, part)(arr(m, host, 1)))  # noqa: B023
        check(lambda m: getattr(arr(m, host), part))  # noqa: B023
    check(lambda m: getattr(m, part)(3 + 4j))
    check(lambda m: getattr(m, part)([1.5, 2]))


def test_conj_and_0d_ufunc_results() -> None:
    for host in COMPONENT_INPUTS:
        check(lambda m: m.conj(arr(m, host)))  # noqa: B023
        check(lambda m: arr(m, host).conjugate())  # noqa: B023
    check(lambda m: m.sqrt(arr(m, 4.0)) + 1)
    check(lambda m: m.divmod(arr(m, 7), 2)[1])
    check(lambda m: m.where(arr(m, 4.0) > 3, m.sin(arr(m, 0.0)), m.clip(arr(m, 5), 0, 3)))
