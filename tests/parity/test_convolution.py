"""convolve, correlate and interp against NumPy."""

from __future__ import annotations

import numpy
import pytest

import dask_gpunumeric as np
from dask_gpunumeric.testing import assert_eq, assert_raises_like
from tests.parity.device_rounding import device_rounding

RNG = numpy.random.default_rng(4)
LENGTHS = [(9, 3), (9, 4), (3, 9), (4, 9), (6, 6), (1, 4), (4, 1)]


def _pair(n: int, m: int, dtype: str) -> tuple[numpy.ndarray, numpy.ndarray]:
    def make(size: int) -> numpy.ndarray:
        values = RNG.integers(-4, 5, size) + (
            1j * RNG.integers(-4, 5, size) if dtype[0] == "c" else 0
        )
        return numpy.asarray(values).astype(dtype)

    return make(n), make(m)


@pytest.mark.parametrize("lengths", LENGTHS)
@pytest.mark.parametrize("dtype", ["int8", "complex128", "bool"])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_convolve_and_correlate(lengths: tuple[int, int], dtype: str, mode: str) -> None:
    a, v = _pair(*lengths, dtype)
    x, y = np.asarray(a, chunks=2), np.asarray(v, chunks=3)
    # Exact here: small integers in any dtype sum exactly in any order.
    assert_eq(np.convolve(x, y, mode), numpy.convolve(a, v, mode))
    assert_eq(np.correlate(x, y, mode), numpy.correlate(a, v, mode))


def test_correlate_of_floats_to_the_last_bits() -> None:
    a, v = RNG.standard_normal(50), RNG.standard_normal(7)
    x = np.asarray(a, chunks=11)
    assert_eq(np.correlate(x, v, "same"), numpy.correlate(a, v, "same"), rtol=1e-12)
    assert_eq(np.convolve(v, x), numpy.convolve(v, a), rtol=1e-12)


@pytest.mark.parametrize(
    "call",
    [
        lambda xp, a: xp.convolve(a, a[:0]),
        lambda xp, a: xp.correlate(a[:0], a),
        lambda xp, a: xp.convolve(a[None], a),
        lambda xp, a: xp.correlate(a, a, "middle"),
        lambda xp, a: xp.interp(a, a[:3], a[:4]),
        lambda xp, a: xp.interp(a, a[None], a[None]),
        lambda xp, a: xp.interp(a + 1j, a, a),
        lambda xp, a: xp.interp(a, a, a, period=0),
    ],
)
def test_bad_input_raises_like_numpy(call: object) -> None:
    data = numpy.arange(6.0)
    assert_raises_like(lambda: call(numpy, data), lambda: call(np, np.asarray(data)))  # type: ignore[operator]


@pytest.mark.parametrize("chunks", [(2, 4), (5, 6)])
def test_interp(chunks: tuple[int, int], backend: str) -> None:
    """On cupy, CuPy's interp rounds as its kernel does (the H100 check): within rounding."""
    points = RNG.uniform(-1, 11, (5, 6))
    table_x, table_f = numpy.arange(10.0), numpy.arange(10.0) ** 2
    x = np.asarray(points, chunks=chunks)
    rounding = device_rounding(backend, "float64")
    assert_eq(np.interp(x, table_x, table_f), numpy.interp(points, table_x, table_f), **rounding)
    ours = np.interp(
        x, np.asarray(table_x, chunks=3), np.asarray(table_f + 1j, chunks=4), left=0, right=-1
    )
    assert_eq(ours, numpy.interp(points, table_x, table_f + 1j, left=0, right=-1), **rounding)
    assert_eq(
        np.interp(x, table_x, table_f, period=3),
        numpy.interp(points, table_x, table_f, period=3),
        **rounding,
    )
    ints = numpy.arange(12).reshape(3, 4).astype("int16")
    assert_eq(
        np.interp(np.asarray(ints), table_x, table_f),
        numpy.interp(ints, table_x, table_f),
        **rounding,
    )


def test_interp_of_a_scalar() -> None:
    table = numpy.arange(10.0)
    assert_eq(
        np.interp(np.asarray(2.5), table, table**2),
        numpy.asarray(numpy.interp(2.5, table, table**2)),
    )
