"""Products against NumPy: dot, matmul / ``@``, vdot, inner, outer, tensordot over operand
ranks, dtypes and chunkings; NumPy's shape-mismatch errors; ``out=`` and ``@=``."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_eq, assert_raises_like

DTYPES = ["bool", "int8", "int32", "int64", "uint8", "float32", "float64", "complex128"]


def make_host(shape: tuple[int, ...], dtype: Any, seed: int = 0) -> numpy.ndarray:
    rng = numpy.random.default_rng(seed)
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.kind in "iu":
        return rng.integers(0, 5, shape).astype(dtype)
    values = rng.standard_normal(shape)
    if dtype.kind == "c":
        values = values + 1j * rng.standard_normal(shape)
    return values.astype(dtype)


def tolerance(dtype: Any) -> float:
    """Blocked products sum in a different order; integers must be exact."""
    dtype = numpy.dtype(dtype)
    if dtype.kind not in "fc":
        return 0.0
    return 1e-5 if dtype.itemsize <= 4 else 1e-12


def ours(host: numpy.ndarray, chunks: Any = None) -> Any:
    return dnp.array(host, chunks=chunks) if chunks is not None else dnp.array(host)


def check(
    function: Callable[..., Any],
    our_function: Callable[..., Any],
    left: numpy.ndarray,
    right: numpy.ndarray,
    left_chunks: Any = None,
    right_chunks: Any = None,
    **kwargs: Any,
) -> None:
    """Our product equals NumPy's, or raises NumPy's exception class."""

    def numpy_call() -> Any:
        return function(left, right, **kwargs)

    def our_call() -> Any:
        return our_function(ours(left, left_chunks), ours(right, right_chunks), **kwargs)

    try:
        expected = numpy.asarray(numpy_call())
    except Exception:  # noqa: BLE001 - NumPy refuses: we must refuse alike
        assert_raises_like(numpy_call, our_call)
        return
    assert_eq(our_call(), expected, rtol=tolerance(expected.dtype), atol=tolerance(expected.dtype))


PRODUCTS = {
    "dot": (numpy.dot, dnp.dot),
    "matmul": (numpy.matmul, dnp.matmul),
    "operator": (operator.matmul, operator.matmul),
    "inner": (numpy.inner, dnp.inner),
    "vdot": (numpy.vdot, dnp.vdot),
    "outer": (numpy.outer, dnp.outer),
    "tensordot": (numpy.tensordot, dnp.tensordot),
}

# (left shape, left chunks, right shape, right chunks): ranks 2x2, 2x1, 1x2, 1x1, uneven
# blocks on the contracted axis, and one-block operands.
OPERANDS = [
    ((6, 8), (4, 3), (8, 5), (3, 2)),
    ((6, 8), (6, 8), (8, 5), (8, 5)),
    ((6, 8), (2, 5), (8,), (5,)),
    ((8,), (3,), (8, 5), (4, 5)),
    ((8,), (3,), (8,), (5,)),
    ((7, 7), (3, 4), (7, 7), (4, 3)),
]


@pytest.mark.parametrize("name", ["dot", "matmul", "operator", "inner", "vdot", "outer"])
@pytest.mark.parametrize(("left_shape", "left_chunks", "right_shape", "right_chunks"), OPERANDS)
def test_ranks_and_chunkings(
    name: str, left_shape: Any, left_chunks: Any, right_shape: Any, right_chunks: Any
) -> None:
    function, our_function = PRODUCTS[name]
    left = make_host(left_shape, "float64", seed=1)
    right = make_host(right_shape, "float64", seed=2)
    if name == "inner" and len(right_shape) == 2:
        right = right.T.copy()  # inner contracts the last axes
        right_chunks = right_chunks[::-1]
    check(function, our_function, left, right, left_chunks, right_chunks)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["dot", "matmul", "inner", "vdot", "outer", "tensordot"])
def test_dtypes(name: str, dtype: str) -> None:
    function, our_function = PRODUCTS[name]
    left = make_host((5, 6), dtype, seed=1)
    right = make_host((6, 6), dtype, seed=2)
    check(function, our_function, left, right, (3, 4), (4, 2))
    check(function, our_function, left[0], right[:, 1], (4,), (5,))


def test_mixed_dtypes() -> None:
    left = make_host((5, 6), "int32", seed=1)
    right = make_host((6, 4), "float32", seed=2)
    for function, our_function in (PRODUCTS["dot"], PRODUCTS["matmul"]):
        check(function, our_function, left, right, (3, 4), (4, 2))
        check(function, our_function, left.astype(bool), right.astype(numpy.complex128))


@pytest.mark.parametrize("name", ["dot", "inner", "vdot", "outer", "tensordot", "matmul"])
def test_zero_d_operands(name: str) -> None:
    function, our_function = PRODUCTS[name]
    matrix = make_host((4, 3), "float64")
    scalar = numpy.asarray(2.5)
    kwargs = {"axes": 0} if name == "tensordot" else {}
    check(function, our_function, scalar, matrix, None, (2, 2), **kwargs)
    check(function, our_function, matrix, scalar, (2, 2), None, **kwargs)
    check(function, our_function, scalar, scalar, **kwargs)


@pytest.mark.parametrize(
    ("left_shape", "right_shape"),
    [
        ((3, 4, 5), (3, 5, 2)),
        ((3, 4, 5), (5, 2)),
        ((4, 5), (2, 5, 3)),
        ((2, 1, 4, 5), (3, 5, 2)),
        ((3, 4, 5), (5,)),
        ((5,), (3, 5, 2)),
    ],
)
def test_batched_matmul(left_shape: tuple[int, ...], right_shape: tuple[int, ...]) -> None:
    left = make_host(left_shape, "float64", seed=1)
    right = make_host(right_shape, "float64", seed=2)
    left_chunks = tuple(max(1, n // 2) for n in left_shape)
    right_chunks = tuple(max(1, (n + 1) // 2) for n in right_shape)
    for function, our_function in (PRODUCTS["matmul"], PRODUCTS["operator"]):
        check(function, our_function, left, right, left_chunks, right_chunks)
        check(function, our_function, left.astype(numpy.int64), right.astype(numpy.int64))


@pytest.mark.parametrize(
    "axes", [0, 1, 2, ([1], [0]), ([0, 1], [1, 0]), ((2, 0), (0, 1)), ([-1], [0]), (1, 0)]
)
def test_tensordot_axes(axes: Any) -> None:
    left = make_host((4, 3, 5), "float64", seed=1)
    right = (
        make_host((5, 4, 3), "float64", seed=2)
        if axes not in (1, 2)
        else make_host((3, 5, 2), "float64", seed=2)
    )
    check(numpy.tensordot, dnp.tensordot, left, right, (2, 2, 3), (3, 2, 2), axes=axes)


@pytest.mark.parametrize("name", ["dot", "matmul", "operator", "inner", "vdot", "tensordot"])
def test_shape_mismatch(name: str) -> None:
    function, our_function = PRODUCTS[name]
    pairs = [((3, 4), (5, 2)), ((3, 4), (3,)), ((4,), (3, 4)), ((4,), (5,)), ((2, 3, 4), (3, 4, 2))]
    for left_shape, right_shape in pairs:
        check(function, our_function, numpy.ones(left_shape), numpy.ones(right_shape))


def test_tensordot_bad_axes() -> None:
    left, right = numpy.ones((3, 4)), numpy.ones((4, 3))
    for axes in (3, ([0], [0]), ([0, 1], [0]), ([2], [0]), -1):
        check(numpy.tensordot, dnp.tensordot, left, right, axes=axes)


def test_vdot_conjugates_and_flattens() -> None:
    left = make_host((3, 4), "complex128", seed=1)
    right = make_host((4, 3), "complex128", seed=2)
    check(numpy.vdot, dnp.vdot, left, right, (2, 3), (3, 2))


@pytest.mark.parametrize("name", ["dot", "matmul"])
def test_out(name: str) -> None:
    function, our_function = PRODUCTS[name]
    left = make_host((6, 8), "float64", seed=1)
    right = make_host((8, 5), "float64", seed=2)
    expected = numpy.zeros((6, 5))
    function(left, right, out=expected)
    out = dnp.zeros((6, 5))
    returned = our_function(ours(left, (4, 3)), ours(right, (3, 2)), out=out)
    assert returned is out
    assert_eq(out, expected, rtol=1e-12)


@pytest.mark.parametrize("name", ["dot", "matmul"])
def test_out_errors(name: str) -> None:
    function, our_function = PRODUCTS[name]
    left, right = numpy.ones((3, 4)), numpy.ones(4)
    for bad in (numpy.zeros(4), numpy.zeros(3, dtype=numpy.int64), numpy.zeros((3, 1))):
        assert_raises_like(
            lambda bad=bad: function(left, right, out=bad),
            lambda bad=bad: our_function(dnp.array(left), dnp.array(right), out=dnp.array(bad)),
        )


def test_matmul_out_casts_like_numpy() -> None:
    """matmul's out= casts same_kind (float64 into float32), dot's does not."""
    left, right = make_host((3, 4), "float64", 1), make_host((4,), "float64", 2)
    expected = numpy.zeros(3, dtype=numpy.float32)
    numpy.matmul(left, right, out=expected)
    out = dnp.zeros(3, dtype=numpy.float32)
    dnp.matmul(dnp.array(left), dnp.array(right), out=out)
    assert_eq(out, expected, rtol=1e-6)


def test_out_is_a_view() -> None:
    left, right = make_host((3, 4), "float64", 1), make_host((4, 2), "float64", 2)
    expected = numpy.zeros((5, 2))
    numpy.matmul(left, right, out=expected[1:4])
    target = dnp.zeros((5, 2))
    dnp.matmul(dnp.array(left), dnp.array(right), out=target[1:4])
    assert_eq(target, expected, rtol=1e-12)


def test_in_place_matmul() -> None:
    left = make_host((5, 5), "float64", seed=1)
    right = make_host((5, 5), "float64", seed=2)
    expected = left.copy()
    expected @= right
    target = dnp.array(left, chunks=(3, 2))
    alias = target[1:]
    target @= dnp.array(right, chunks=(2, 3))
    assert_eq(target, expected, rtol=1e-12)
    assert_eq(alias, expected[1:], rtol=1e-12)


def test_in_place_matmul_errors() -> None:
    def numpy_shape() -> None:
        a = numpy.ones((3, 4))
        a @= numpy.ones((4, 5))

    def our_shape() -> None:
        a = dnp.ones((3, 4))
        a @= dnp.ones((4, 5))

    assert_raises_like(numpy_shape, our_shape)

    def numpy_cast() -> None:
        a = numpy.ones((3, 3), dtype=numpy.int64)
        a @= numpy.ones((3, 3))

    def our_cast() -> None:
        a = dnp.ones((3, 3), dtype=numpy.int64)
        a @= dnp.ones((3, 3))

    assert_raises_like(numpy_cast, our_cast)


def test_methods_and_mixed_operands() -> None:
    left = make_host((4, 6), "float64", seed=1)
    right = make_host((6, 3), "float64", seed=2)
    assert_eq(ours(left, (2, 4)).dot(ours(right)), left.dot(right), rtol=1e-12)
    assert_eq(ours(left) @ right, left @ right, rtol=1e-12)
    assert_eq(left @ ours(right), left @ right, rtol=1e-12)
    assert_eq(ours(left).dot(right[:, 0].tolist()), left.dot(right[:, 0]), rtol=1e-12)


def test_numpy_functions_dispatch_to_ours() -> None:
    left = make_host((4, 6), "float64", seed=1)
    right = make_host((6, 3), "float64", seed=2)
    pairs = {
        "dot": (left, right),
        "matmul": (left, right),
        "tensordot": (left, right),
        "outer": (left, right),
        "inner": (left, right.T.copy()),
        "vdot": (left, left + 1),
    }
    for name, (a, b) in pairs.items():
        function = getattr(numpy, name)
        kwargs = {"axes": 1} if name == "tensordot" else {}
        result = function(ours(a, (2, 3)), ours(b, (3, 2)), **kwargs)
        assert isinstance(result, dnp.ndarray), name
        assert_eq(result, function(a, b, **kwargs), rtol=1e-12)


def test_products_of_views_and_expressions() -> None:
    host = make_host((8, 8), "float64")
    base = ours(host, (3, 5))
    assert_eq(base[1:, ::2].T @ base[1:, 1:5], host[1:, ::2].T @ host[1:, 1:5], rtol=1e-12)
    assert_eq(dnp.dot(base * 2, base[:, 0] + 1), numpy.dot(host * 2, host[:, 0] + 1), rtol=1e-12)


def test_dot_of_higher_ranks() -> None:
    """dot contracts the last axis of a with the second-to-last of b."""
    left = make_host((2, 3, 4), "float64", seed=1)
    right = make_host((2, 4, 5), "float64", seed=2)
    check(numpy.dot, dnp.dot, left, right, (1, 2, 3), (2, 3, 2))
    check(numpy.inner, dnp.inner, left, right.transpose(0, 2, 1).copy(), (1, 2, 3), (2, 2, 3))


@pytest.mark.parametrize("name", ["dot", "matmul", "inner", "vdot", "outer", "tensordot"])
def test_empty_operands(name: str) -> None:
    function, our_function = PRODUCTS[name]
    kwargs = {"axes": 1} if name == "tensordot" else {}
    check(function, our_function, numpy.ones((3, 0)), numpy.ones((0, 4)), **kwargs)
    check(function, our_function, numpy.ones(0), numpy.ones(0), **({"axes": 1} if kwargs else {}))
    if name == "matmul":
        check(function, our_function, numpy.ones((0, 3, 2)), numpy.ones((2, 4)))


def test_matmul_into_its_own_operand() -> None:
    host = make_host((4, 4), "float64")
    ours = dnp.array(host, chunks=3)
    numpy.matmul(host, host, out=host)
    dnp.matmul(ours, ours, out=ours)
    assert_eq(ours, host, rtol=1e-12)


def test_product_is_one_layer_of_one_task_per_output_block() -> None:
    """Structure, not only values: misaligned contracted chunks are matched inside the tasks
    (no rechunk layer, no tree-reduction layers)."""
    left = dnp.ones((6, 8), chunks=(3, 3))
    right = dnp.ones((8, 4), chunks=(5, 2))
    for product in (dnp.dot(left, right), left @ right, dnp.dot(left, right[:, 0])):
        graph = product.__dask_graph__()  # ours: task-graph layers whatever dask's arrays are
        computed = [name for name in graph.layers if name.startswith(("tensordot", "matmul"))]
        assert len(computed) == 1
        # Besides the product: only the operands' own layers (fills, the column view).
        assert all(
            name.startswith(("fill", "getitem")) or name == computed[0] for name in graph.layers
        )
        assert len(graph.layers[computed[0]]) == product.npartitions


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["vecdot", "linalg.vecdot"])
def test_vecdot_keeps_the_operands_dtype(name: str, dtype: str) -> None:
    """NumPy's vecdot stays in the operands' type (uint8 wraps around in uint8), where a
    sum of the products would widen small integers."""
    numpy_function = numpy.linalg.vecdot if name == "linalg.vecdot" else numpy.vecdot
    our_function = dnp.linalg.vecdot if name == "linalg.vecdot" else dnp.vecdot
    left = make_host((4, 30), dtype, seed=1) * (numpy.ones((), dtype) * 7)
    right = make_host((4, 30), dtype, seed=2)
    check(numpy_function, our_function, left, right, (2, 7), (3, 30))
    check(numpy_function, our_function, left, right[0], (2, 7), (11,))


def test_vecdot_of_mixed_dtypes() -> None:
    left, right = make_host((3, 8), "uint8", seed=1), make_host((3, 8), "int8", seed=2)
    check(numpy.vecdot, dnp.vecdot, left, right, (2, 3), (3, 5))
    check(numpy.vecdot, dnp.vecdot, left.astype(bool), right.astype("float32"))
