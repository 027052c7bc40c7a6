"""Array creation routines against NumPy: values, dtypes, shapes, ``chunks=`` and the
exception classes of bad input."""

from __future__ import annotations

from typing import Any

import dask.array as da
import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_eq, assert_raises_like

DTYPES = [None, bool, int, "int8", "uint8", "uint64", "float32", float, "complex128"]
SHAPES = [(), 0, 3, (0, 4), (2, 3), [2, 1, 2], numpy.int64(4)]


def check(name: str, *args: Any, chunks: Any = None, **kwargs: Any) -> None:
    """``dnp.<name>(*args, **kwargs)`` matches NumPy's, or raises NumPy's exception class."""
    numpy_function = getattr(numpy, name)
    ours = getattr(dnp, name)
    extra = {} if chunks is None else {"chunks": chunks}
    try:
        expected = numpy_function(*args, **kwargs)
    except Exception:  # noqa: BLE001 - NumPy refuses: so must we
        assert_raises_like(
            lambda: numpy_function(*args, **kwargs), lambda: ours(*args, **kwargs, **extra)
        )
        return
    assert_eq(ours(*args, **kwargs, **extra), expected)


def check_chunks(array: dnp.ndarray, chunks: tuple[tuple[int, ...], ...]) -> None:
    assert array.to_dask().chunks == chunks


# -- zeros, ones, full, empty ------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["zeros", "ones"])
def test_zeros_ones(name: str, dtype: Any) -> None:
    for shape in SHAPES:
        check(name, shape, dtype=dtype)
    check(name, (5, 4), dtype=dtype, chunks=(2, 3))


@pytest.mark.parametrize("dtype", DTYPES)
def test_full(dtype: Any) -> None:
    for value in (7, -1, 2.5, numpy.nan, -0.0, True, 1j, 300, numpy.float32(0.1), numpy.int8(-3)):
        check("full", (2, 3), value, dtype=dtype)
    check("full", (5,), 3, dtype=dtype, chunks=2)


def test_full_with_array_fill_value() -> None:
    check("full", (2, 3), [1, 2, 3])
    check("full", (2, 3), numpy.array([[1.5], [2.5]]))
    assert_eq(dnp.full((2, 3), dnp.arange(3)), numpy.full((2, 3), numpy.arange(3)))
    check("full", (2, 3), [1, 2])  # NumPy's broadcasting error


@pytest.mark.parametrize("dtype", DTYPES)
def test_empty_shape_and_dtype(dtype: Any) -> None:
    """Contents of ``empty`` are documented as zeros: only shape and dtype are NumPy's."""
    for shape in SHAPES:
        expected = numpy.empty(shape, dtype=dtype)
        ours = dnp.empty(shape, dtype=dtype)
        assert (ours.shape, ours.dtype) == (expected.shape, expected.dtype)
        assert_eq(ours, numpy.zeros(shape, dtype=dtype))


@pytest.mark.parametrize("name", ["zeros", "ones", "empty"])
def test_bad_shapes_raise_like_numpy(name: str) -> None:
    for shape in (-1, (2, -1), 2.5, (2, 2.0), "a", None, [[2]]):
        assert_raises_like(
            lambda: getattr(numpy, name)(shape),  # noqa: B023 - called at once
            lambda: getattr(dnp, name)(shape),  # noqa: B023
        )


def test_full_bad_values_raise_like_numpy() -> None:
    check("full", 3, 300, dtype="uint8")
    check("full", 3, -1, dtype="uint64")
    check("full", 3, "a", dtype=int)
    check("full", 3, 1j, dtype=int)


def test_unsupported_dtypes_raise_type_error() -> None:
    """Differences from NumPy: string, object and datetime arrays are NumPy's business."""
    for dtype in ("U3", object, "datetime64[s]"):
        numpy.zeros(3, dtype=dtype)  # NumPy accepts them
        with pytest.raises(TypeError):
            dnp.zeros(3, dtype=dtype)
    for make in (
        lambda: dnp.eye(2, dtype="U3"),
        lambda: dnp.identity(2, dtype=object),
        lambda: dnp.linspace(0, 1, 3, dtype="U3"),
        lambda: dnp.full(2, "ab"),
    ):
        with pytest.raises(TypeError):
            make()
    with pytest.raises(TypeError):
        dnp.array(["a", "b"])
    with pytest.raises(TypeError):
        dnp.array([1, None])


# -- *_like ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["zeros_like", "ones_like", "full_like", "empty_like"])
def test_like_functions(name: str) -> None:
    fill = (2.7,) if name == "full_like" else ()
    prototypes = [
        numpy.arange(6).reshape(2, 3),
        numpy.ones((0, 2), dtype="float32"),
        numpy.array(5, dtype="uint8"),
        [1.5, 2.5],
        3,
    ]
    for host in prototypes:
        for kwargs in ({}, {"dtype": "float32"}, {"dtype": bool}, {"shape": (3, 1)}, {"shape": 4}):
            expected = getattr(numpy, name)(host, *fill, **kwargs)
            for prototype in (host, dnp.array(host)):
                actual = getattr(dnp, name)(prototype, *fill, **kwargs)
                if name == "empty_like":
                    assert (actual.shape, actual.dtype) == (expected.shape, expected.dtype)
                    expected = numpy.zeros_like(expected)
                assert_eq(actual, expected)


def test_full_like_value_errors() -> None:
    host = numpy.arange(3, dtype="uint8")
    assert_raises_like(
        lambda: numpy.full_like(host, 300), lambda: dnp.full_like(dnp.array(host), 300)
    )
    assert_eq(dnp.full_like(dnp.arange(3), numpy.nan), numpy.full_like(numpy.arange(3), numpy.nan))


def test_like_of_a_view_and_chunks() -> None:
    base = dnp.arange(12).reshape(3, 4)
    assert_eq(dnp.ones_like(base.T[::2]), numpy.ones_like(numpy.arange(12).reshape(3, 4).T[::2]))
    check_chunks(dnp.zeros_like(base, chunks=2), ((2, 1), (2, 2)))


# -- arange ------------------------------------------------------------------------------
ARANGE_ARGS = [
    (5,),
    (0,),
    (-3,),
    (1, 10, 3),
    (10, 1, -3),
    (10, 1),
    (0.0, 1.0, 0.1),
    (1, 2, 0.1),
    (-1.5, 2.5, 0.5),
    (0, 5, 1.5),
    (1, -1, -0.25),
    (10, 0, -1.3),
    (0, 1, 1 / 3),
    (-0.0, 3.0),
    (2**40, 2**40 + 5),
    (0.5, 100.5),
    (-5, 5, 3),
    (3.0,),
]


@pytest.mark.parametrize("dtype", [None, "int32", "int8", "uint8", "float32", "float16", float])
def test_arange(dtype: Any) -> None:
    """Exact values: NumPy stores start and start + step, then fills start + i * delta in
    the result dtype (so int dtypes with float steps repeat values)."""
    for args in ARANGE_ARGS:
        check("arange", *args, dtype=dtype)
        check("arange", *args, dtype=dtype, chunks=4)


def test_arange_keywords_and_scalars() -> None:
    check("arange", stop=5)
    check("arange", start=2, stop=5)
    check("arange", numpy.float32(0.5), 10)
    check("arange", numpy.int8(1), numpy.int16(9), 2)
    check("arange", numpy.uint64(0), 5)
    check("arange", 2**63, 2**63 + 10, dtype="uint64")
    check("arange", -0.0, -5.0, -0.5)


def test_arange_errors() -> None:
    check("arange")
    check("arange", 0, 10, 0)
    check("arange", -1, 5, dtype="uint8")
    check("arange", 0, 500, 200, dtype="int8")
    check("arange", 0, 5, dtype=bool)
    check("arange", 0, 2, dtype=bool)
    check("arange", 1j, 5j)
    check("arange", 0, 4, 1, "complex128")


def test_arange_long_and_chunked() -> None:
    ours = dnp.arange(0.1, 1000.0, 0.3, chunks=100)
    assert len(ours.to_dask().chunks[0]) > 1
    assert_eq(ours, numpy.arange(0.1, 1000.0, 0.3))
    assert_eq(
        dnp.arange(0, 3000, 1.0, dtype="float16"), numpy.arange(0, 3000, 1.0, dtype="float16")
    )
    assert_eq(
        dnp.arange(0, 1000, 7, dtype="int8", chunks=33), numpy.arange(0, 1000, 7, dtype="int8")
    )


# -- linspace ----------------------------------------------------------------------------
@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize("num", [0, 1, 2, 5, 50])
def test_linspace(num: int, endpoint: bool) -> None:
    for start, stop in ((0, 1), (-2.5, 3), (1, 1), (3, -7), (0, 1e-300), ([0, 1], [1, 5])):
        for dtype in (None, int, "float32", "int8", "complex128"):
            check("linspace", start, stop, num, endpoint, dtype=dtype)
            check("linspace", start, stop, num, endpoint, dtype=dtype, chunks=2)


@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize("num", [0, 1, 2, 7])
def test_linspace_retstep(num: int, endpoint: bool) -> None:
    expected, expected_step = numpy.linspace(-1, 4, num, endpoint=endpoint, retstep=True)
    ours, step = dnp.linspace(-1, 4, num, endpoint=endpoint, retstep=True)
    assert_eq(ours, expected)
    numpy.testing.assert_array_equal(step, expected_step, strict=True)


def test_linspace_errors() -> None:
    check("linspace", 0, 1, -1)
    check("linspace", 0, 1, 2.0)
    check("linspace", 0, 1, "a")


# -- eye, identity -----------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [float, int, bool, "complex128", "uint8"])
def test_eye(dtype: Any) -> None:
    for N, M, k in (  # noqa: N806 - NumPy's parameter names
        (3, None, 0),
        (3, 5, 1),
        (4, 2, -1),
        (3, 3, 5),
        (0, 0, 0),
        (3, 4, -10),
        (5, 5, -2),
        (1, 1, 0),
    ):
        check("eye", N, M, k, dtype=dtype)
        check("eye", N, M, k=k, dtype=dtype, chunks=2)


def test_eye_errors() -> None:
    check("eye", -1)
    check("eye", 2.0)
    check("eye", 2, -3)
    check("eye", 2, k=1.5)


def test_identity() -> None:
    for n in (0, 1, 4):
        for dtype in (None, int, bool, "float32"):
            check("identity", n, dtype=dtype)
    check("identity", -2)


# -- array, asarray, asanyarray, copy ----------------------------------------------------
INPUTS = [
    1,
    2.5,
    True,
    1j,
    -0.0,
    [1, 2],
    [[1, 2], [3, 4]],
    [1, 2.5],
    [True, 2],
    [],
    [[]],
    numpy.arange(4.0).reshape(2, 2),
    numpy.float32(2),
    numpy.array(3),
    [numpy.int8(1), 2],
    range(4),
    (1, 2),
    [[1j, 2]],
    numpy.arange(6, dtype="uint16")[::2],
]


@pytest.mark.parametrize("name", ["array", "asarray", "asanyarray"])
def test_array_from_host_inputs(name: str) -> None:
    for value in INPUTS:
        for dtype in (None, "float32", int, bool):
            check(name, value, dtype=dtype)


@pytest.mark.parametrize("name", ["array", "asarray", "asanyarray"])
def test_array_bad_inputs(name: str) -> None:
    check(name, [[1, 2], [3]])  # ragged: ValueError in NumPy 2
    check(name, [1, 2], dtype="not-a-dtype")
    check(name, [1.5, numpy.nan], dtype="int8")  # NumPy casts unsafely (with a warning)
    check(name, [300], dtype="uint8")


def test_array_ndmin_and_copy() -> None:
    check("array", [1, 2], ndmin=3)
    check("array", 5, ndmin=2)
    assert_eq(dnp.array(dnp.arange(2), ndmin=3), numpy.array(numpy.arange(2), ndmin=3))
    check("array", [1, 2], copy=False)  # a host list always needs a copy: NumPy's ValueError
    assert_raises_like(
        lambda: numpy.asarray([1, 2], copy=False), lambda: dnp.asarray([1, 2], copy=False)
    )


def test_array_copies_host_data() -> None:
    host = numpy.arange(5.0)
    ours = dnp.array(host)
    also = dnp.asarray(host)
    host[0] = 99  # a later host write is not seen: the value was taken at the call
    assert_eq(ours, numpy.arange(5.0))
    assert_eq(also, numpy.arange(5.0))


def test_array_of_our_array() -> None:
    source = dnp.arange(6.0, chunks=4)
    copied = dnp.array(source)
    same = dnp.asarray(source)
    assert same is source
    assert dnp.asanyarray(source) is source
    assert dnp.array(source, copy=False) is source
    source[0] = 42  # a copy does not see later writes; asarray's result is the array itself
    expected = numpy.arange(6.0)
    assert_eq(copied, expected)
    expected[0] = 42
    assert_eq(same, expected)
    assert_eq(dnp.asarray(source, dtype="int32"), expected.astype("int32"))
    assert_raises_like(
        lambda: numpy.array(expected, dtype=int, copy=False),
        lambda: dnp.array(source, dtype=int, copy=False),
    )


def test_array_of_a_view_copies_the_view() -> None:
    base = dnp.arange(12).reshape(3, 4)
    copied = dnp.array(base[1:, ::2])
    base[...] = 0
    assert_eq(copied, numpy.arange(12).reshape(3, 4)[1:, ::2])


def test_copy() -> None:
    check("copy", [1, 2])
    check("copy", numpy.arange(3.0))
    source = dnp.arange(4)
    copied = dnp.copy(source)
    method = source.copy()
    source += 1
    assert_eq(copied, numpy.arange(4))
    assert_eq(method, numpy.arange(4))


def test_array_chunks() -> None:
    ours = dnp.array(numpy.arange(20).reshape(4, 5), chunks=(3, 2))
    check_chunks(ours, ((3, 1), (2, 2, 1)))
    assert_eq(ours, numpy.arange(20).reshape(4, 5))
    check_chunks(dnp.zeros((5, 4), chunks=2), ((2, 2, 1), (2, 2)))
    check_chunks(dnp.ones(7, chunks=(3, 4)), ((3, 4),))
    check_chunks(dnp.full((2, 6), 1.5, chunks=(1, 6)), ((1, 1), (6,)))
    check_chunks(dnp.arange(10, chunks=4), ((4, 4, 2),))
    check_chunks(dnp.linspace(0, 1, 10, chunks=4), ((4, 4, 2),))
    check_chunks(dnp.eye(5, chunks=3), ((3, 2), (3, 2)))


# -- dask arrays in and out --------------------------------------------------------------
def test_dask_array_inputs() -> None:
    host = numpy.arange(12.0).reshape(3, 4)
    lazy = da.from_array(host, chunks=(2, 3))
    for name in ("array", "asarray", "asanyarray"):
        assert_eq(getattr(dnp, name)(lazy), host)
        assert_eq(getattr(dnp, name)(lazy, dtype="float32"), host.astype("float32"))
    assert_eq(dnp.from_dask(lazy), host)
    assert_eq(dnp.from_dask(lazy) + 1, host + 1)


def test_to_dask_round_trip() -> None:
    host = numpy.linspace(-1, 1, 24).reshape(4, 6)
    ours = dnp.array(host, chunks=(2, 4))
    lazy = dnp.to_dask(ours)
    assert isinstance(lazy, da.Array)
    assert lazy.chunks == ((2, 2), (4, 2))
    assert isinstance(lazy._meta, type(dnp.zeros(1).to_dask()._meta))
    # lazy + lazy, not lazy * 2: dask's expression arithmetic (array.query-planning) makes
    # the 2 a NumPy block, which a device chunk refuses (CuPy's do, and the simulated one)
    back = dnp.from_dask(lazy + lazy)
    assert_eq(back, host * 2)
    assert_eq(dnp.from_dask(dnp.to_dask(back)), host * 2)


@pytest.mark.parametrize("axis", [0, 1, -1, 2, -3])
def test_linspace_axis(axis: int) -> None:
    """NumPy builds along axis 0 and returns a moveaxis view of it."""
    check("linspace", [0, 1], [2, 5], 4, axis=axis)
    check("linspace", [[0, 1], [2, 3]], 5, 3, False, axis=axis, chunks=2)
    check("linspace", 0, 1, 3, axis=axis)


def test_linspace_computes_in_numpy_dtype() -> None:
    """float32 start/stop: NumPy computes in float32, not float64 then cast."""
    check("linspace", numpy.float32(0), numpy.float32(1), 7)
    check("linspace", numpy.float32(0.1), 3, 11, dtype="float64")
    check("linspace", numpy.array([0, 1], dtype="float32"), 2.5, 9, chunks=4)
    check("linspace", 0, 1j, 5)
    check("linspace", 1 + 1j, 2, 4, endpoint=False)
    check("linspace", -7, 3, 6, dtype=int)
    check("linspace", 0, 255, 7, dtype="uint8")


def test_linspace_of_our_arrays() -> None:
    start = dnp.array([0.0, 1.0])
    assert_eq(dnp.linspace(start, 2, 3), numpy.linspace([0.0, 1.0], 2, 3))
    assert_eq(numpy.linspace(start, dnp.array(2.0), 3), numpy.linspace([0.0, 1.0], 2.0, 3))
