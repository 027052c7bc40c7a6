"""Python operators on our arrays against NumPy's: forward, reflected (Python scalars, NumPy
scalars and host arrays on the left) and in-place forms, including through views."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import dask
import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_eq, assert_raises_like
from tests.parity.device_rounding import device_rounding

DTYPES = ("bool", "int8", "int64", "uint8", "uint64", "float32", "float64", "complex128")

BINARY = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
    "**": operator.pow,
    "&": operator.and_,
    "|": operator.or_,
    "^": operator.xor,
    "<<": operator.lshift,
    ">>": operator.rshift,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
    "divmod": divmod,
}
IN_PLACE = {
    "+=": operator.iadd,
    "-=": operator.isub,
    "*=": operator.imul,
    "/=": operator.itruediv,
    "//=": operator.ifloordiv,
    "%=": operator.imod,
    "**=": operator.ipow,
    "&=": operator.iand,
    "|=": operator.ior,
    "^=": operator.ixor,
    "<<=": operator.ilshift,
    ">>=": operator.irshift,
}
UNARY = {"-": operator.neg, "+": operator.pos, "abs": abs, "~": operator.invert}


def sample(dtype: str, shape: tuple[int, ...], seed: int = 0, *, exponent: bool = False) -> Any:
    """NaN, inf, -0.0, zeros and negatives where the dtype has them; small non-negative
    integers for exponents and shifts (NumPy raises at compute time for int ** -n)."""
    kind = numpy.dtype(dtype).kind
    if kind == "b":
        pool = [True, False]
    elif kind in "fc":
        pool = [numpy.nan, numpy.inf, -numpy.inf, -0.0, 0.0, 1.0, -1.5, 2.5, 3.0, 0.25]
    elif exponent or kind == "u":
        pool = [0, 1, 2, 3, 5, 7]
    else:
        pool = [0, 1, -1, 2, -3, 5, 7, -8]
    rng = numpy.random.default_rng(seed)
    size = int(numpy.prod(shape, dtype=numpy.int64))
    picks = numpy.concatenate([numpy.arange(len(pool)), rng.integers(0, len(pool), size)])
    return numpy.array(pool, dtype=dtype)[rng.permutation(picks)[:size]].reshape(shape)


def second_for(symbol: str, dtype: str, shape: tuple[int, ...]) -> Any:
    exponent = symbol.strip("=") in ("**", "<<", ">>")
    return sample(dtype, shape, 1, exponent=exponent)


def check(
    function: Callable[..., Any], hosts: list[Any], operands: list[Any], backend: str = ""
) -> None:
    """``function(*operands)`` matches ``function(*hosts)``: values or exception class.
    With ``backend``: complex results within CuPy's rounding on cupy (its complex power is
    thrust's ``exp(b log a)``, where NumPy multiplies out small integer exponents:
    ``1j ** 2`` is ``-1+1.2e-16j`` there, docs/numpy-differences.md)."""
    try:
        expected = function(*hosts)
    except Exception:  # noqa: BLE001 - NumPy refuses: so must we
        assert_raises_like(lambda: function(*hosts), lambda: function(*operands))
        return
    actual = function(*operands)
    for mine, theirs in zip(
        *((actual, expected) if isinstance(expected, tuple) else ((actual,), (expected,))),
        strict=True,
    ):
        dtype = numpy.asarray(theirs).dtype
        assert_eq(mine, theirs, **(device_rounding(backend, dtype) if dtype.kind == "c" else {}))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("symbol", list(BINARY))
def test_binary_operator(symbol: str, dtype: str, backend: str) -> None:
    function = BINARY[symbol]
    left, right = sample(dtype, (3, 4)), second_for(symbol, dtype, (4,))
    operands = [dnp.array(left, chunks=(2, 3)), dnp.array(right, chunks=2)]
    check(function, [left, right], operands, backend if symbol == "**" else "")


@pytest.mark.parametrize("symbol", list(BINARY))
def test_reflected_scalars_and_host_arrays(symbol: str, backend: str) -> None:
    """Scalar or host array on the left: Python asks our reflected method, NumPy asks our
    ``__array_ufunc__``; either way the result is our array."""
    function = BINARY[symbol]
    host = sample("int64", (5,), exponent=True) + 1
    ours = dnp.array(host, chunks=2)
    for left in (
        2,
        2.5,
        True,
        1j,
        numpy.int8(3),
        numpy.float32(0.5),
        numpy.arange(1, 6),
        numpy.linspace(-1, 1, 5),
    ):
        rounding = backend if symbol == "**" else ""
        check(function, [left, host], [left, ours], rounding)
        check(function, [host, left], [ours, left], rounding)


def test_reflected_nested_list() -> None:
    host = numpy.arange(3.0)
    assert_eq([1, 2, 3] - dnp.array(host), [1, 2, 3] - host)
    assert_eq(dnp.array(host) * [[1], [2]], host * [[1], [2]])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("symbol", list(UNARY))
def test_unary_operator(symbol: str, dtype: str) -> None:
    host = sample(dtype, (2, 5))
    check(UNARY[symbol], [host], [dnp.array(host, chunks=(1, 3))])


@pytest.mark.parametrize("symbol", list(UNARY))
def test_unary_operator_0d(symbol: str) -> None:
    host = numpy.array(-3)
    check(UNARY[symbol], [host], [dnp.array(host)])


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "float32", "float64", "complex128"])
@pytest.mark.parametrize("symbol", list(IN_PLACE))
def test_in_place_operator(symbol: str, dtype: str, backend: str) -> None:
    """Same dtype on both sides; when NumPy refuses (``float &= ...``) the error class is
    NumPy's and our array is left as it was."""
    function = IN_PLACE[symbol]
    host, other = sample(dtype, (3, 4)), second_for(symbol, dtype, (3, 4))
    ours = dnp.array(host, chunks=(2, 3))
    before = host.copy()
    try:
        expected = function(host, other)
    except Exception:  # noqa: BLE001
        assert_raises_like(
            lambda: function(host.copy(), other), lambda: function(ours, dnp.array(other))
        )
        assert_eq(ours, before)
        return
    result = function(ours, dnp.array(other, chunks=3))
    assert result is ours  # in place: the same handle, no new array
    # complex **= on cupy: CuPy's power, within rounding (see ``check``)
    rounding = symbol == "**=" and dtype.startswith("complex")
    assert_eq(ours, expected, **(device_rounding(backend, dtype) if rounding else {}))


@pytest.mark.parametrize("symbol", list(IN_PLACE))
def test_in_place_through_view(symbol: str) -> None:
    host = sample("int64", (4, 6), exponent=True) + 1
    base = dnp.array(host, chunks=(3, 4))
    view = base[1:, ::2]
    other = 2
    expected_view = host[1:, ::2]
    try:
        IN_PLACE[symbol](expected_view, other)
    except Exception:  # noqa: BLE001
        assert_raises_like(
            lambda: IN_PLACE[symbol](host.copy()[1:, ::2], other),
            lambda: IN_PLACE[symbol](view, other),
        )
        return
    IN_PLACE[symbol](view, other)
    assert_eq(base, host)
    assert_eq(view, host[1:, ::2])


def test_in_place_view_with_broadcast_and_transpose() -> None:
    host = numpy.arange(12.0).reshape(3, 4)
    base = dnp.array(host, chunks=2)
    view = base.T[::-1]
    view += numpy.arange(3.0)
    host.T[::-1] += numpy.arange(3.0)
    assert_eq(base, host)


def test_in_place_same_kind_error_leaves_array_unchanged() -> None:
    host = numpy.arange(6)
    ours = dnp.array(host, chunks=4)
    error = assert_raises_like(
        lambda: operator.iadd(host.copy(), 1.5), lambda: operator.iadd(ours, 1.5)
    )
    assert isinstance(error, numpy._core._exceptions.UFuncTypeError)
    assert_eq(ours, host)
    view = ours[::2]
    assert_raises_like(
        lambda: operator.itruediv(host.copy()[::2], 2), lambda: operator.itruediv(view, 2)
    )
    assert_eq(ours, host)


def test_in_place_broadcast_error() -> None:
    host = numpy.arange(3.0)
    ours = dnp.array(host)
    assert_raises_like(
        lambda: operator.iadd(host.copy(), numpy.ones((2, 3))),
        lambda: operator.iadd(ours, dnp.ones((2, 3))),
    )
    assert_eq(ours, host)


def test_in_place_0d() -> None:
    host = numpy.array(2.5)
    ours = dnp.array(host)
    ours *= 4
    host *= 4
    assert_eq(ours, host)


def test_in_place_reads_before_writing() -> None:
    """``a += a[::-1]`` reads the whole right-hand side before writing (NumPy buffers
    overlapping operands)."""
    host = numpy.arange(8.0)
    ours = dnp.array(host, chunks=3)
    ours += ours[::-1]
    host += host[::-1].copy()
    assert_eq(ours, host)


def test_in_place_other_views_see_the_write() -> None:
    ours = dnp.zeros((4, 4), chunks=2)
    row = ours[1]
    column = ours[:, 2]
    row += 5
    assert_eq(column, numpy.array([0.0, 5.0, 0.0, 0.0]))


def test_matmul_operators() -> None:
    # Small integers in floats: every order of a chunked dot product's additions is exact
    # (with inf, the order decides NaN vs inf; with fractions, the last bit).
    left = numpy.arange(12.0).reshape(3, 4) - 5
    right = numpy.arange(8.0).reshape(4, 2) - 3
    ours_left, ours_right = dnp.array(left, chunks=2), dnp.array(right, chunks=3)
    assert_eq(ours_left @ ours_right, left @ right)
    assert_eq(left @ ours_right, left @ right)
    assert_eq(ours_left @ right, left @ right)
    square = dnp.array(left[:, :3])
    square @= dnp.eye(3)
    assert_eq(square, left[:, :3] @ numpy.eye(3))
    assert_raises_like(lambda: left @ left, lambda: ours_left @ ours_left)


def test_matmul_in_place_same_kind_error() -> None:
    host = numpy.eye(2, dtype=int)
    ours = dnp.array(host)
    assert_raises_like(
        lambda: operator.imatmul(host.copy(), numpy.eye(2)),
        lambda: operator.imatmul(ours, dnp.eye(2)),
    )


def test_numpy_functions_give_our_arrays() -> None:
    host = numpy.linspace(-2, 2, 7)
    ours = dnp.array(host, chunks=3)
    assert_eq(numpy.sin(ours), numpy.sin(host), rtol=1e-12)
    assert_eq(numpy.add(ours, 1), numpy.add(host, 1))
    assert_eq(numpy.add(1, ours), numpy.add(1, host))
    assert_eq(numpy.maximum(host, ours), numpy.maximum(host, host))
    fraction, whole = numpy.modf(ours)
    assert_eq(fraction, numpy.modf(host)[0])
    assert_eq(whole, numpy.modf(host)[1])
    out = dnp.zeros(7)
    assert numpy.multiply(ours, 2, out=out) is out
    assert_eq(out, host * 2)


def test_comparison_with_unsupported_objects() -> None:
    """NumPy compares an array with ``None`` or a string elementwise (all unequal)."""
    host = numpy.arange(3.0)
    ours = dnp.array(host)
    assert_eq(ours == None, host == None)  # noqa: E711 - the operator is what is tested
    assert_eq(ours != "a", host != "a")
    assert_raises_like(lambda: host < None, lambda: ours < None)
    assert_raises_like(lambda: host < "a", lambda: ours < "a")
    assert_raises_like(lambda: "a" >= host, lambda: "a" >= ours)


def test_operators_on_python_and_numpy_scalars_keep_nep50() -> None:
    host = numpy.arange(4, dtype=numpy.uint8)
    ours = dnp.array(host)
    checks = [
        (ours + 3, host + 3),
        (ours * 2.5, host * 2.5),
        (ours - numpy.int16(1), host - numpy.int16(1)),
        (3**ours, 3**host),
        (numpy.float32(2) / ours, numpy.float32(2) / host),
    ]
    persisted = dask.persist(*(mine for mine, _ in checks))
    for mine, (_, theirs) in zip(persisted, checks, strict=True):
        assert_eq(mine, theirs)
    assert_raises_like(lambda: host + 300, lambda: ours + 300)
    assert_raises_like(lambda: 300 + host, lambda: 300 + ours)
    assert_eq(ours < -1.5j, host < -1.5j)  # complex ordering is NumPy's lexicographic one


def test_bool_of_arrays() -> None:
    assert_raises_like(lambda: bool(numpy.ones(2) == 1), lambda: bool(dnp.ones(2) == 1))
    assert bool(dnp.ones(1) == 1) is True
    assert (dnp.arange(3) == dnp.arange(3)).all()


def test_negative_integer_scalar_exponent_raises_at_call() -> None:
    """``int ** -1`` is NumPy's ValueError; with a scalar exponent it is known at the call."""
    host = numpy.arange(3)
    ours = dnp.array(host)
    for exponent in (-1, numpy.int8(-2)):
        assert_raises_like(lambda: host**exponent, lambda: ours**exponent)  # noqa: B023
        assert_raises_like(lambda: numpy.power(host, exponent), lambda: dnp.power(ours, exponent))  # noqa: B023
    assert_raises_like(lambda: numpy.array([True]) ** -1, lambda: dnp.array([True]) ** -1)
    assert_eq(ours**-1.0, host**-1.0)
    assert_eq(dnp.array([], dtype=int) ** -1, numpy.array([], dtype=int) ** -1)
