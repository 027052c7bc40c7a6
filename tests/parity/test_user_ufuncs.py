"""A user's own ufunc (Numba ``@vectorize``/``@guvectorize``, ``numpy.frompyfunc``) called
on our arrays runs block by block through ``__array_ufunc__`` and gives NumPy's result on
host chunks. These are host (CPU) ufuncs: on device chunks CuPy refuses them, and so does
the simulated device (the test asserts the refusal on both, NumPy's result on ``numpy``).
NumPy's own generalized ufuncs (``vecdot``, ``matvec``...) work on every backend."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy
import pytest

import dask_gpunumeric as dgn
from dask_gpunumeric._backends import get_backend
from dask_gpunumeric.testing import assert_eq, assert_raises_like

numba = pytest.importorskip("numba")


@numba.vectorize(["float64(float64, float64)", "int64(int64, int64)"])
def square_plus(x, y):  # type: ignore[no-untyped-def]
    return x * x + y


@numba.vectorize  # compiled lazily, per dtype, on the workers
def clipped_step(x):  # type: ignore[no-untyped-def]
    return 1.0 if x > 50 else 0.0


@numba.guvectorize(["void(float64[:], float64[:])", "void(int64[:], int64[:])"], "(n)->()")
def row_sum(x, out):  # type: ignore[no-untyped-def]
    total = x[0] - x[0]
    for value in x:
        total += value
    out[0] = total


@numba.guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),(n)->(n)")
def plus_twice(x, y, out):  # type: ignore[no-untyped-def]
    for i in range(x.shape[0]):
        out[i] = x[i] + 2.0 * y[i]


@numba.guvectorize(["void(float64[:,:], float64[:], float64[:])"], "(m,n),(n)->(m)")
def matrix_times_vector(a, v, out):  # type: ignore[no-untyped-def]
    for i in range(a.shape[0]):
        total = 0.0
        for j in range(a.shape[1]):
            total += a[i, j] * v[j]
        out[i] = total


def _values(dtype: str) -> numpy.ndarray:
    return numpy.arange(120 * 90, dtype=dtype).reshape(120, 90) % 97


def on_a_device(backend: str) -> bool:
    """Whether ``backend``'s chunks are device arrays (CuPy's, the simulated device's),
    which refuse a host ufunc. Asked by the backend's name ("simulated-device"), these
    tests expected NumPy's result on cupy: the H100 report's 6 "Implicit conversion"
    failures are CuPy refusing ``vectorize`` (``numpy.vectorize`` converts each block)."""
    return get_backend(backend).chunk_type is not numpy.ndarray


def check_host_ufunc(backend: str, our_result: Any, expected: Any, refusal: type) -> None:
    """NumPy's result on host chunks; on device chunks, the refusal CuPy gives a host
    ufunc on its arrays (when the blocks are computed)."""
    assert isinstance(our_result, dgn.ndarray)  # lazy on every backend
    assert our_result.shape == numpy.shape(expected)
    assert our_result.dtype == numpy.asarray(expected).dtype
    if on_a_device(backend):
        with pytest.raises(refusal):
            our_result.compute()
    else:
        assert_eq(our_result, expected)


# A typed host ufunc on device arrays: CuPy's (and the simulated device's)
# __array_ufunc__ returns NotImplemented, NumPy raises TypeError. A lazily typed Numba
# ufunc then tries to compile for the device array's type: Numba's ValueError.
TYPED_REFUSAL = TypeError
LAZY_REFUSAL = ValueError


@pytest.mark.parametrize("dtype", ["int64", "float64"])
def test_numba_ufunc_with_a_scalar(backend: str, dtype: str) -> None:
    host = _values(dtype)
    ours = dgn.array(host, chunks=(40, 30))
    check_host_ufunc(backend, square_plus(ours, 3), square_plus(host, 3), TYPED_REFUSAL)


def test_numba_ufunc_broadcasts_two_arrays(backend: str) -> None:
    host, row = _values("float64"), numpy.linspace(0, 1, 90)
    ours = square_plus(dgn.array(host, chunks=(40, 30)), dgn.array(row))
    check_host_ufunc(backend, ours, square_plus(host, row), TYPED_REFUSAL)


def test_lazily_compiled_numba_ufunc_on_a_view(backend: str) -> None:
    host = _values("float64")
    ours = dgn.array(host, chunks=(40, 30))
    expected = clipped_step(host[1:-1, ::2])
    check_host_ufunc(backend, clipped_step(ours[1:-1, ::2]), expected, LAZY_REFUSAL)


def test_frompyfunc(backend: str) -> None:
    add_one = numpy.frompyfunc(lambda x: x + 1, 1, 1)
    host = numpy.arange(10_000.0)
    check_host_ufunc(backend, add_one(dgn.array(host)), add_one(host), TYPED_REFUSAL)


def test_result_is_lazy_and_chunked_like_the_operand() -> None:
    ours = dgn.array(_values("float64"), chunks=(40, 30))
    result = square_plus(ours, 1.0)
    assert isinstance(result, dgn.ndarray)
    assert result.to_dask().chunks == ours.to_dask().chunks


def test_unsupported_dtype_raises_like_numpy_at_the_call() -> None:
    host = numpy.ones(10, dtype=numpy.complex128)
    assert_raises_like(lambda: square_plus(host, 1), lambda: square_plus(dgn.array(host), 1))


def test_numpy_ufuncs_still_run_on_device_chunks() -> None:
    # NumPy's own ufuncs stand for CuPy's: the simulated device accepts them.
    host = _values("float64")
    ours = dgn.array(host, chunks=(40, 30))
    assert_eq(numpy.sin(ours) + numpy.hypot(ours, 2), numpy.sin(host) + numpy.hypot(host, 2))


# -- generalized ufuncs: by core dimensions --------------------------------------------------
GUFUNC_CASES: dict[str, tuple[Callable[..., Any], Callable[[Any], tuple[Any, ...]]]] = {
    "row_sum": (row_sum, lambda a: (a,)),
    "row_sum_of_a_view": (row_sum, lambda a: (a[1:-1, ::2],)),
    "row_sum_3d": (row_sum, lambda a: (a.reshape(4, 30, 90),)),
    "plus_twice_broadcast": (plus_twice, lambda a: (a, a[0])),
    "matrix_times_vector_batched": (
        matrix_times_vector,
        lambda a: (a.reshape(4, 30, 90), a[0]),
    ),
}


@pytest.mark.parametrize("name", sorted(GUFUNC_CASES))
@pytest.mark.parametrize("chunks", [(40, 30), (120, 90), (7, 11)])
def test_numba_guvectorize_by_core_dimensions(backend: str, name: str, chunks: Any) -> None:
    function, arguments = GUFUNC_CASES[name]
    host = _values("float64")
    ours = dgn.array(host, chunks=chunks)
    expected = function(*arguments(host))
    check_host_ufunc(backend, function(*arguments(ours)), expected, TYPED_REFUSAL)


def test_guvectorize_keeps_the_loop_chunks() -> None:
    ours = dgn.array(_values("float64"), chunks=(40, 30))
    assert row_sum(ours).to_dask().chunks == ((40, 40, 40),)


@pytest.mark.parametrize(
    "call",
    [
        lambda xp: plus_twice(xp.ones((4, 5)), xp.ones(6)),  # core sizes differ
        lambda xp: matrix_times_vector(xp.ones(5), xp.ones(5)),  # too few dimensions
        lambda xp: plus_twice(xp.ones((4, 5)), xp.ones((3, 5))),  # loop shapes
    ],
)
def test_guvectorize_errors_like_numpy_at_the_call(call: Callable[[Any], Any]) -> None:
    assert_raises_like(lambda: call(numpy), lambda: call(dgn))


CUBE = numpy.arange(60.0).reshape(3, 4, 5)
AXES_CASES: dict[str, Callable[[Any], Any]] = {
    "axis_0": lambda a: row_sum(a, axis=0),
    "axis_1_keepdims": lambda a: row_sum(a, axis=1, keepdims=True),
    "keepdims": lambda a: row_sum(a, keepdims=True),
    "axes_input_only": lambda a: row_sum(a, axes=[(1,)]),
    "axes_with_output": lambda a: row_sum(a, axes=[(1,), ()]),
    "axes_ints_keepdims": lambda a: row_sum(a, axes=[0], keepdims=True),
    "axes_keepdims_placed": lambda a: row_sum(a, axes=[0, 1], keepdims=True),
    "axis_shared_output": lambda a: plus_twice(a, a, axis=0),
    "axes_output_moved": lambda a: plus_twice(a, a[:, :, :1], axes=[1, 1, 0]),
    "axes_two_core_dims": lambda a: matrix_times_vector(a, a[0, :, 0], axes=[(2, 1), (0,), (0,)]),
}


@pytest.mark.parametrize("name", sorted(AXES_CASES))
def test_guvectorize_axes_axis_keepdims(backend: str, name: str) -> None:
    call = AXES_CASES[name]
    result = call(dgn.array(CUBE, chunks=(2, 2, 3)))
    check_host_ufunc(backend, result, call(CUBE), TYPED_REFUSAL)


def test_guvectorize_out(backend: str) -> None:
    expected, into_host = numpy.zeros((3, 4)), numpy.zeros((3, 4))
    row_sum(CUBE, out=expected)
    into_ours = dgn.zeros((3, 4))
    ours = dgn.array(CUBE, chunks=(2, 2, 3))
    assert row_sum(ours, out=into_ours) is into_ours
    if on_a_device(backend):
        with pytest.raises(TypeError):
            row_sum(ours, out=into_host)  # a host out computes at once: refused there
        return
    assert row_sum(ours, out=into_host) is into_host
    numpy.testing.assert_array_equal(into_host, expected)
    assert_eq(into_ours, expected)


BAD_KEYWORDS: dict[str, Callable[[Any], Any]] = {
    "axis_out_of_bounds": lambda a: row_sum(a, axis=3),
    "axis_and_axes": lambda a: row_sum(a, axis=0, axes=[(0,)]),
    "axis_with_two_core_dims": lambda a: matrix_times_vector(a, a[0, 0], axis=0),
    "axes_wrong_length": lambda a: plus_twice(a, a, axes=[2]),
    "axes_not_a_list": lambda a: row_sum(a, axes=(0,)),
    "keepdims_with_output_core": lambda a: plus_twice(a, a, keepdims=True),
    "out_casting": lambda a: row_sum(a, out=numpy.zeros((3, 4), dtype=int)),
    "out_shape": lambda a: row_sum(a, out=numpy.zeros((3, 5))),
}


@pytest.mark.parametrize("name", sorted(BAD_KEYWORDS))
def test_guvectorize_keyword_errors_like_numpy(name: str) -> None:
    call = BAD_KEYWORDS[name]
    assert_raises_like(lambda: call(CUBE), lambda: call(dgn.array(CUBE, chunks=(2, 2, 3))))


def test_guvectorize_other_keywords_are_refused_clearly() -> None:
    with pytest.raises(NotImplementedError, match="axes=, axis=, keepdims= and out= only"):
        row_sum(dgn.ones((4, 5)), dtype=float)


@pytest.mark.parametrize(
    "call",
    [
        lambda xp, a: numpy.vecdot(a, a),
        lambda xp, a: numpy.vecdot(a, a[0]),
        lambda xp, a: numpy.matvec(a.T, a[:, 0]),
        lambda xp, a: numpy.vecmat(a[:, 0], a),
        lambda xp, a: numpy.matmul(a, a.T),
    ],
)
def test_numpy_generalized_ufuncs_on_every_backend(call: Callable[..., Any]) -> None:
    host = _values("float64") / 10
    ours = dgn.array(host, chunks=(40, 30))
    result = call(dgn, ours)
    assert isinstance(result, dgn.ndarray)
    assert_eq(result, call(numpy, host), rtol=1e-12)


# -- our vectorize and frompyfunc: the Python function runs block by block ---------------------
VECTORIZE_CASES: dict[str, Callable[[Any, Any], Any]] = {
    "first_element_decides_the_dtype": lambda xp, a: xp.vectorize(lambda x: x if x > 0 else 0)(a),
    "otypes_and_a_scalar": lambda xp, a: xp.vectorize(lambda x, y: x * y, otypes=[float])(a, 2),
    "broadcast_a_row": lambda xp, a: xp.vectorize(lambda x, y: x - y)(a, a[0]),
    "signature_reduces": lambda xp, a: xp.vectorize(
        lambda r: r.max() - r.min(), signature="(n)->()"
    )(a),
    "signature_keeps": lambda xp, a: xp.vectorize(lambda r: r[::-1] * 1.0, signature="(n)->(n)")(a),
    "frompyfunc": lambda xp, a: xp.frompyfunc(lambda x: abs(x) + 1, 1, 1)(a),
}


@pytest.mark.parametrize("name", sorted(VECTORIZE_CASES))
def test_our_vectorize_and_frompyfunc(backend: str, name: str) -> None:
    host = numpy.arange(-30.0, 30.0).reshape(6, 10)
    call = VECTORIZE_CASES[name]
    expected = call(numpy, host)
    result = call(dgn, dgn.array(host, chunks=(3, 5)))
    # numpy.vectorize converts its operands implicitly, and a frompyfunc ufunc is a host
    # ufunc: a device chunk refuses both with TypeError.
    check_host_ufunc(backend, result, expected, TypeError)


def test_our_vectorize_on_host_data_is_numpys() -> None:
    function = dgn.vectorize(lambda x: x + 1)
    result = function(numpy.arange(3))
    assert isinstance(result, numpy.ndarray)
    numpy.testing.assert_array_equal(result, numpy.arange(1, 4))


def test_our_vectorize_errors_like_numpy() -> None:
    assert_raises_like(
        lambda: numpy.vectorize(lambda x: x)(numpy.zeros(0)),
        lambda: dgn.vectorize(lambda x: x)(dgn.zeros(0)),
    )
    with pytest.raises(NotImplementedError, match="positional"):
        dgn.vectorize(lambda x, y: x + y, excluded={"y"})(dgn.ones(3), y=1)


# -- out= (ours or a host array), where=, host operands -------------------------------------
def test_numba_ufunc_with_a_host_operand(backend: str) -> None:
    host = _values("float64")
    ours = dgn.array(host, chunks=(40, 30))
    check_host_ufunc(backend, square_plus(ours, host[0]), square_plus(host, host[0]), TypeError)


def test_numba_ufunc_into_our_out_with_where(backend: str) -> None:
    host = _values("float64")
    mask = host > 40
    expected = numpy.full(host.shape, -1.0)
    numpy.add(host, 1.0, out=expected, where=mask)  # the unselected stay
    expected[mask] = square_plus(host, 1.0)[mask]
    out = dgn.full(host.shape, -1.0, chunks=(40, 30))
    result = square_plus(dgn.array(host, chunks=(40, 30)), 1.0, out=out, where=mask)
    assert result is out
    check_host_ufunc(backend, out, expected, TypeError)


def test_numba_ufunc_into_a_host_out(backend: str) -> None:
    host = _values("float64")
    expected, into_host = numpy.zeros(host.shape), numpy.zeros(host.shape)
    square_plus(host, 2.0, out=expected)
    ours = dgn.array(host, chunks=(40, 30))
    if on_a_device(backend):
        with pytest.raises(TypeError):  # a host out computes at the call: refused there
            square_plus(ours, 2.0, out=into_host)
        return
    assert square_plus(ours, 2.0, out=into_host) is into_host
    numpy.testing.assert_array_equal(into_host, expected)


def test_numba_ufunc_out_casting_like_numpy() -> None:
    host = _values("float64")
    assert_raises_like(
        lambda: square_plus(host, 2.0, out=numpy.zeros(host.shape, dtype=int)),
        lambda: square_plus(dgn.array(host), 2.0, out=numpy.zeros(host.shape, dtype=int)),
    )


def test_user_ufunc_of_two_outputs_is_refused_clearly() -> None:
    split = numpy.frompyfunc(lambda x: (x // 2, x % 2), 1, 2)
    with pytest.raises(NotImplementedError, match="one output"):
        split(dgn.arange(10))
