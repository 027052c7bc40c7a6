"""A user's own ufunc (Numba ``@vectorize``, ``numpy.frompyfunc``) called on our arrays runs
block by block through ``__array_ufunc__`` and gives NumPy's result."""

from __future__ import annotations

import numpy
import pytest

import dask_gpunumeric as dgn
from dask_gpunumeric.testing import assert_eq, assert_raises_like

numba = pytest.importorskip("numba")


@numba.vectorize(["float64(float64, float64)", "int64(int64, int64)"])
def square_plus(x, y):  # type: ignore[no-untyped-def]
    return x * x + y


@numba.vectorize  # compiled lazily, per dtype, on the workers
def clipped_step(x):  # type: ignore[no-untyped-def]
    return 1.0 if x > 50 else 0.0


def _values(dtype: str) -> numpy.ndarray:
    return numpy.arange(120 * 90, dtype=dtype).reshape(120, 90) % 97


@pytest.mark.parametrize("dtype", ["int64", "float64"])
def test_numba_ufunc_with_a_scalar_matches_numpy(dtype: str) -> None:
    host = _values(dtype)
    ours = dgn.array(host, chunks=(40, 30))
    assert_eq(square_plus(ours, 3), square_plus(host, 3))


def test_numba_ufunc_broadcasts_two_arrays() -> None:
    host, row = _values("float64"), numpy.linspace(0, 1, 90)
    assert_eq(square_plus(dgn.array(host, chunks=(40, 30)), dgn.array(row)), square_plus(host, row))


def test_lazily_compiled_numba_ufunc_on_a_view() -> None:
    host = _values("float64")
    ours = dgn.array(host, chunks=(40, 30))
    assert_eq(clipped_step(ours[1:-1, ::2]), clipped_step(host[1:-1, ::2]))


def test_frompyfunc_matches_numpy() -> None:
    add_one = numpy.frompyfunc(lambda x: x + 1, 1, 1)
    host = numpy.arange(10_000.0)
    assert_eq(add_one(dgn.array(host)), add_one(host))


def test_result_is_lazy_and_chunked_like_the_operand() -> None:
    ours = dgn.array(_values("float64"), chunks=(40, 30))
    result = square_plus(ours, 1.0)
    assert isinstance(result, dgn.ndarray)
    assert result.to_dask().chunks == ours.to_dask().chunks


def test_unsupported_dtype_raises_like_numpy_at_the_call() -> None:
    host = numpy.ones(10, dtype=numpy.complex128)
    assert_raises_like(lambda: square_plus(host, 1), lambda: square_plus(dgn.array(host), 1))
