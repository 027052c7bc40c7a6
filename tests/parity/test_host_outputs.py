"""Host NumPy arrays as outputs: ``out=h`` of ufuncs, reductions and the functions that
take ``out=``, in-place operators with a host array on the left (``h *= ours``),
``numpy.copyto(h, ours)`` and ``numpy.put(h, ...)`` with our arrays as values/indices.

Each case runs the same statement on two host arrays, one with NumPy's operand and one
with ours, and compares the host arrays afterwards (and that the call returned the host
array, as NumPy's does); bad input raises NumPy's exception class."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_raises_like

HOST = numpy.arange(1.0, 49.0).reshape(6, 8) / 7.0


def ours_of(host: numpy.ndarray) -> dnp.ndarray:
    return dnp.array(host, chunks=(3, 4))


def check_into_host(
    statement: Callable[[Any, numpy.ndarray], Any],
    shape: tuple[int, ...] = (6, 8),
    dtype: Any = float,
    returns_out: bool = True,
) -> None:
    """``statement(operand, h)`` writes into ``h`` equally for NumPy's operand and ours."""
    expected = numpy.full(shape, 7, dtype=dtype)
    actual = numpy.full(shape, 7, dtype=dtype)
    numpy_result = statement(HOST, expected)
    our_result = statement(ours_of(HOST), actual)
    assert actual.dtype == expected.dtype
    numpy.testing.assert_allclose(actual, expected, rtol=1e-12)
    if returns_out:
        assert numpy_result is expected  # the statement itself is NumPy's
        assert our_result is actual


UFUNC_STATEMENTS: dict[str, Callable[[Any, numpy.ndarray], Any]] = {
    "add": lambda a, h: numpy.add(a, 1, out=h),
    "add_positional": lambda a, h: numpy.add(a, a, h),
    "add_tuple": lambda a, h: numpy.add(1, a, out=(h,)),
    "sin": lambda a, h: numpy.sin(a, out=h),
    "where": lambda a, h: numpy.multiply(a, 3, out=h, where=a > 2),
    "broadcast_into": lambda a, h: numpy.add(a[0], 1, out=h),
    "our_namespace": lambda a, h: (dnp if isinstance(a, dnp.ndarray) else numpy).add(a, 2, out=h),
}


@pytest.mark.parametrize("name", sorted(UFUNC_STATEMENTS))
def test_ufunc_out_host_array(name: str) -> None:
    check_into_host(UFUNC_STATEMENTS[name])


VIEW_STATEMENTS: dict[str, Callable[[Any, numpy.ndarray], Any]] = {
    "strided_view": lambda a, h: numpy.multiply(a[:, :4], 2, out=h[:, ::2]),
    "reversed_view_with_host_operand": lambda a, h: numpy.add(a, h[::-1], out=h),
    "zero_d_view": lambda a, h: numpy.add(a[2, 3], 1, out=h[0, 0:1].reshape(())),
    "dtype_and_unsafe_casting": lambda a, h: numpy.add(
        a, 1.5, out=h, dtype=numpy.float32, casting="unsafe"
    ),
}


@pytest.mark.parametrize("name", sorted(VIEW_STATEMENTS))
def test_ufunc_out_host_views_and_options(name: str) -> None:
    check_into_host(VIEW_STATEMENTS[name], returns_out=False)


def test_two_output_ufunc_into_host_and_ours() -> None:
    host_q, host_r = numpy.zeros((6, 8)), numpy.zeros((6, 8))
    numpy.divmod(HOST, 0.3, out=(host_q, host_r))
    q, r = numpy.zeros((6, 8)), dnp.zeros((6, 8))
    result = numpy.divmod(ours_of(HOST), 0.3, out=(q, r))
    assert result[0] is q and result[1] is r
    numpy.testing.assert_allclose(q, host_q)
    numpy.testing.assert_allclose(r.compute(), host_r)


INPLACE = {
    "iadd": lambda h, a: h.__iadd__(a),
    "imatmul": lambda h, a: h[:, :6].__imatmul__(a[:6, :6]),
    "ifloordiv": lambda h, a: h.__ifloordiv__(a),
    "isub": lambda h, a: h.__isub__(a),
    "imul": lambda h, a: h.__imul__(a),
    "itruediv": lambda h, a: h.__itruediv__(a),
    "ipow": lambda h, a: h.__ipow__(a),
    "imod": lambda h, a: h.__imod__(a),
}


@pytest.mark.parametrize("name", sorted(INPLACE))
def test_inplace_operator_with_host_array_on_the_left(name: str) -> None:
    check_into_host(lambda a, h: INPLACE[name](h, a), returns_out=name != "imatmul")


INTEGER_INPLACE = {
    "iand": lambda h, a: h.__iand__(a),
    "ior_bool": lambda h, a: h.__ior__(a > 20),
    "ilshift": lambda h, a: h.__ilshift__(a % 4),
    "imatmul": lambda h, a: h.__imatmul__(a),
}


@pytest.mark.parametrize("name", sorted(INTEGER_INPLACE))
def test_inplace_operator_on_integer_host_arrays(name: str) -> None:
    host = numpy.arange(36).reshape(6, 6)
    expected, actual = numpy.full((6, 6), 5), numpy.full((6, 6), 5)
    assert INTEGER_INPLACE[name](expected, host) is expected
    assert INTEGER_INPLACE[name](actual, dnp.array(host, chunks=(3, 3))) is actual
    numpy.testing.assert_array_equal(actual, expected)


def test_inplace_multiply_statement() -> None:
    # The pattern of the issue, as users write it.
    expected, actual = numpy.ones((6, 8)), numpy.ones((6, 8))
    expected *= HOST
    actual *= ours_of(HOST)
    numpy.testing.assert_array_equal(actual, expected)


def test_inplace_integer_host_with_our_float_refused_like_numpy() -> None:
    # same_kind: float results do not go into an int array in place.
    def numpy_call() -> None:
        h = numpy.ones((6, 8), dtype=int)
        h += HOST

    def our_call() -> None:
        h = numpy.ones((6, 8), dtype=int)
        h += ours_of(HOST)

    assert_raises_like(numpy_call, our_call)


def _read_only_out(a: Any) -> Any:
    out = numpy.zeros((6, 8))
    out.flags.writeable = False
    return numpy.add(a, 1, out=out)


BAD_OUTS: dict[str, Callable[[Any], Any]] = {
    "casting": lambda a: numpy.add(a, 1, out=numpy.zeros((6, 8), dtype=int)),
    "shape": lambda a: numpy.add(a, 1, out=numpy.zeros((3, 8))),
    "not_an_array": lambda a: numpy.add(a, 1, out=[0.0] * 8),
    "read_only": _read_only_out,
}


@pytest.mark.parametrize("name", sorted(BAD_OUTS))
def test_bad_host_out_raises_like_numpy(name: str) -> None:
    statement = BAD_OUTS[name]
    assert_raises_like(lambda: statement(HOST), lambda: statement(ours_of(HOST)))


def test_failed_host_write_leaves_the_host_array_untouched() -> None:
    h = numpy.full((6, 8), 7.0)
    with pytest.raises(ValueError):
        numpy.add(ours_of(HOST), 1, out=h, where=numpy.ones((5, 8), dtype=bool))
    numpy.testing.assert_array_equal(h, numpy.full((6, 8), 7.0))


FUNCTION_STATEMENTS: dict[str, tuple[Callable[[Any, numpy.ndarray], Any], tuple[int, ...]]] = {
    "sum": (lambda a, h: numpy.sum(a, axis=0, out=h), (8,)),
    "mean": (lambda a, h: numpy.mean(a, axis=1, out=h), (6,)),
    "max": (lambda a, h: numpy.max(a, axis=0, out=h), (8,)),
    "sum_where": (lambda a, h: numpy.sum(a, axis=0, out=h, where=a > 3), (8,)),
    "cumsum": (lambda a, h: numpy.cumsum(a, axis=1, out=h), (6, 8)),
    "clip": (lambda a, h: numpy.clip(a, 2, 5, out=h), (6, 8)),
    "around": (lambda a, h: numpy.around(a, 2, out=h), (6, 8)),
    "concatenate": (lambda a, h: numpy.concatenate([a, a], out=h), (12, 8)),
    "matmul": (lambda a, h: numpy.matmul(a, a.T, out=h), (6, 6)),
    "dot": (lambda a, h: numpy.dot(a, a.T, out=h), (6, 6)),
    "add_reduce": (lambda a, h: numpy.add.reduce(a, axis=1, out=h), (6,)),
    "multiply_outer": (lambda a, h: numpy.multiply.outer(a[0], a[1], out=h), (8, 8)),
    "einsum": (lambda a, h: numpy.einsum("ij,kj->ik", a, a, out=h), (6, 6)),
    "median": (lambda a, h: numpy.median(a, axis=0, out=h), (8,)),
    "quantile": (lambda a, h: numpy.quantile(a, 0.3, axis=1, out=h), (6,)),
    "take": (lambda a, h: numpy.take(a, [0, 2], axis=1, out=h), (6, 2)),
    "choose": (lambda a, h: numpy.choose((a > 3).astype(int), [a, -a], out=h), (6, 8)),
    "compress": (lambda a, h: numpy.compress([True, False] * 3, a, axis=0, out=h), (3, 8)),
    "stack": (lambda a, h: numpy.stack([a, a], out=h), (2, 6, 8)),
    "trace": (lambda a, h: numpy.trace(a, out=h), ()),
    "ptp": (lambda a, h: numpy.ptp(a, axis=0, out=h), (8,)),
    "vecdot": (lambda a, h: numpy.vecdot(a, a, out=h), (6,)),
    "nanvar_where": (lambda a, h: numpy.nanvar(a, axis=1, out=h, where=a > 1), (6,)),
    "fix": (lambda a, h: numpy.fix(a, out=h), (6, 8)),
}


@pytest.mark.parametrize("name", sorted(FUNCTION_STATEMENTS))
def test_function_out_host_array(name: str) -> None:
    statement, shape = FUNCTION_STATEMENTS[name]
    check_into_host(statement, shape)


@pytest.mark.parametrize(
    "statement",
    [
        lambda a: numpy.around(a, 1, out=numpy.zeros((6, 8), dtype=int)),  # same_kind
        lambda a: numpy.matmul(a, a.T, out=numpy.zeros((6, 6), dtype=int)),  # same_kind
        lambda a: numpy.matmul(a, a.T, out=numpy.zeros((3, 6), dtype=int)),  # casting first
        lambda a: numpy.matmul(a, a.T, out=numpy.zeros((3, 6))),  # shape
        lambda a: numpy.clip(a, 0, 1, out=numpy.zeros((6, 8), dtype=int)),  # same_kind
        lambda a: numpy.concatenate([a, a], out=numpy.zeros((6, 8))),  # shape
    ],
)
def test_function_out_errors_like_numpy(statement: Callable[[Any], Any]) -> None:
    assert_raises_like(lambda: statement(HOST), lambda: statement(ours_of(HOST)))


def test_reduction_into_host_of_wrong_shape_raises_like_numpy() -> None:
    assert_raises_like(
        lambda: numpy.sum(HOST, axis=0, out=numpy.zeros(6)),
        lambda: numpy.sum(ours_of(HOST), axis=0, out=numpy.zeros(6)),
    )


def test_copyto_host_from_ours() -> None:
    check_into_host(lambda a, h: numpy.copyto(h, a), returns_out=False)
    check_into_host(lambda a, h: numpy.copyto(h, a, where=a > 3), returns_out=False)
    assert_raises_like(
        lambda: numpy.copyto(numpy.zeros((6, 8), dtype=int), HOST),
        lambda: numpy.copyto(numpy.zeros((6, 8), dtype=int), ours_of(HOST)),
    )


@pytest.mark.parametrize("ours_indices", [False, True])
def test_put_into_host_with_our_values_and_indices(ours_indices: bool) -> None:
    indices = numpy.array([0, 5, 17, 47])

    def statement(a: Any, h: numpy.ndarray) -> None:
        where = dnp.array(indices) if ours_indices and isinstance(a, dnp.ndarray) else indices
        numpy.put(h, where, a[1, :4])

    check_into_host(statement, returns_out=False)


def test_put_into_host_out_of_bounds_raises_like_numpy() -> None:
    def statement(a: Any) -> None:
        numpy.put(numpy.zeros(4), [9], a[0, :1])

    assert_raises_like(lambda: statement(HOST), lambda: statement(ours_of(HOST)))


def test_putmask_and_place_into_host() -> None:
    check_into_host(lambda a, h: numpy.putmask(h, a > 3, a), returns_out=False)
    check_into_host(lambda a, h: numpy.place(h, a > 3, a[0]), returns_out=False)


def test_the_copy_into_the_host_is_the_backends_explicit_transfer(
    backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # On the simulated device an implicit conversion would raise TypeError; this checks
    # the positive side: the values came through the backend's to_host.
    from dask_gpunumeric._backends import get_backend

    chunk_backend = type(get_backend(backend))
    transfers: list[Any] = []
    original = chunk_backend.to_host

    def counted(self: Any, chunk: Any) -> numpy.ndarray:
        transfers.append(chunk)
        return original(self, chunk)

    monkeypatch.setattr(chunk_backend, "to_host", counted)
    ours = ours_of(HOST)
    for statement in (
        lambda h: numpy.add(ours, 1, out=h),
        lambda h: h.__imul__(ours),
        lambda h: numpy.copyto(h, ours),
    ):
        transfers.clear()
        h = numpy.ones((6, 8))
        statement(h)
        assert transfers, "no explicit transfer to the host"
