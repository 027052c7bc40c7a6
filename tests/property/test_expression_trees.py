"""Random expression trees of ufuncs, ``where`` and ``astype`` over 2-3 broadcastable
inputs with random shapes, dtypes and chunkings give NumPy's answer (or NumPy's error),
with chunk fusion on and off (``gpunumeric.fusion``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dask_gpunumeric as dnp
from dask_gpunumeric._ir.ufunc_table import ufunc_table
from dask_gpunumeric.testing import assert_eq, assert_raises_like

DTYPES = ["bool", "int8", "int32", "int64", "uint8", "uint64", "float32", "float64", "complex128"]
# Correctly rounded ufuncs only: a transcendental one may differ by an ulp between NumPy's
# SIMD and scalar loops (chunk lengths differ from the whole array's), and a tree would
# amplify that ulp without bound. The parity tests cover those with a tolerance. Integer
# ``power`` is left out because ``x ** -1`` raises at compute time in NumPy (data-dependent).
EXCLUDED_FAMILIES = ("exponents-logarithms", "trigonometric")
EXCLUDED = ("power", "float_power", "cbrt", "isnat")
UFUNCS = sorted(
    {
        row.name
        for row in ufunc_table
        if row.nout == 1 and row.family not in EXCLUDED_FAMILIES and row.name not in EXCLUDED
    }
    | {"degrees", "radians"}
)
UNARY = [name for name in UFUNCS if getattr(numpy, name).nin == 1]
BINARY = [name for name in UFUNCS if getattr(numpy, name).nin == 2]
POOLS = {
    "b": [True, False],
    "i": [0, 1, -1, 2, -3, 7, 100, -128, 127],
    "u": [0, 1, 2, 3, 7, 100, 255],
    "f": [numpy.nan, numpy.inf, -numpy.inf, -0.0, 0.0, 1.0, -1.5, 2.5, 0.1, 1e300],
    "c": [complex(numpy.nan, 0), complex(0, numpy.inf), 1 + 2j, -0.0j, 0.5 - 1j, 3 + 0j],
}
SCALARS = [0, 1, -1, 2, 3, 2.5, -0.0, True, 1j, 300]


@dataclass(frozen=True)
class Leaf:
    index: int


@dataclass(frozen=True)
class Scalar:
    value: Any


@dataclass(frozen=True)
class Call:
    op: str  # a ufunc name, "where" or "astype"
    args: tuple[Any, ...]
    dtype: str | None = None


def evaluate(tree: Any, module: Any, inputs: list[Any]) -> Any:
    if isinstance(tree, Leaf):
        return inputs[tree.index]
    if isinstance(tree, Scalar):
        return tree.value
    args = [evaluate(arg, module, inputs) for arg in tree.args]
    if tree.op == "astype":
        return module.asarray(args[0]).astype(tree.dtype)
    return getattr(module, tree.op)(*args)


def trees(n_inputs: int) -> st.SearchStrategy[Any]:
    leaves = st.one_of(
        st.builds(Leaf, st.integers(0, n_inputs - 1)),
        st.builds(Scalar, st.sampled_from(SCALARS)),
    )

    def extend(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        return st.one_of(
            st.builds(lambda op, a: Call(op, (a,)), st.sampled_from(UNARY), children),
            st.builds(
                lambda op, a, b: Call(op, (a, b)), st.sampled_from(BINARY), children, children
            ),
            st.builds(lambda c, a, b: Call("where", (c, a, b)), children, children, children),
            st.builds(lambda a, d: Call("astype", (a,), d), children, st.sampled_from(DTYPES)),
        )

    # The root reads at least one input, so the result is one of our arrays.
    root = extend(st.recursive(leaves, extend, max_leaves=6))
    return root.filter(lambda tree: _reads_input(tree))


def _reads_input(tree: Any) -> bool:
    if isinstance(tree, Leaf):
        return True
    return isinstance(tree, Call) and any(_reads_input(arg) for arg in tree.args)


@st.composite
def broadcastable_shapes(draw: st.DrawFn, count: int) -> list[tuple[int, ...]]:
    """``count`` shapes that broadcast together: each drops leading axes of a common shape
    and may set any axis to 1."""
    full = draw(st.lists(st.integers(1, 6) | st.just(0), min_size=1, max_size=4))
    shapes = []
    for _ in range(count):
        dropped = draw(st.integers(0, len(full)))
        shape = [1 if draw(st.booleans()) and draw(st.booleans()) else n for n in full[dropped:]]
        shapes.append(tuple(shape))
    return shapes


@st.composite
def cases(draw: st.DrawFn) -> tuple[Any, list[numpy.ndarray], list[tuple[int, ...]], list[bool]]:
    count = draw(st.integers(2, 3))
    shapes = draw(broadcastable_shapes(count))
    hosts = []
    chunkings = []
    for shape in shapes:
        dtype = numpy.dtype(draw(st.sampled_from(DTYPES)))
        pool = (
            numpy.array(POOLS[dtype.kind]).astype(dtype)
            if dtype.kind != "c"
            else numpy.array(POOLS["c"], dtype=dtype)
        )
        size = int(numpy.prod(shape, dtype=numpy.int64))
        picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size))
        hosts.append(pool[numpy.array(picks, dtype=numpy.intp)].reshape(shape))
        # Mostly several chunks per axis (uneven ones included), sometimes one.
        chunkings.append(
            tuple(draw(st.integers(1, max(1, (n + 1) // 2)) | st.just(max(1, n))) for n in shape)
        )
    reversed_inputs = [draw(st.booleans()) for _ in shapes]
    return draw(trees(count)), hosts, chunkings, reversed_inputs


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(cases())
def test_expression_tree_matches_numpy(case: tuple[Any, ...]) -> None:
    tree, hosts, chunkings, reversed_inputs = case
    ours = [dnp.array(host, chunks=chunks) for host, chunks in zip(hosts, chunkings, strict=True)]
    # Some inputs are reversed views (negative steps), as stencils read their neighbours.
    flips = [
        (slice(None, None, -1),) * host.ndim if flip else ()
        for host, flip in zip(hosts, reversed_inputs, strict=True)
    ]
    hosts = [host[flip] for host, flip in zip(hosts, flips, strict=True)]
    ours = [array[flip] for array, flip in zip(ours, flips, strict=True)]
    with numpy.errstate(all="ignore"):
        try:
            expected = evaluate(tree, numpy, hosts)
        except Exception:  # noqa: BLE001 - NumPy refuses the tree: so must we, the same way
            assert_raises_like(
                lambda: evaluate(tree, numpy, hosts), lambda: evaluate(tree, dnp, ours)
            )
            return
        actual = evaluate(tree, dnp, ours)
        assert_eq(actual, numpy.asarray(expected))  # fused (the default)
        with dnp.config.set(fusion=False):
            assert_eq(actual, numpy.asarray(expected))
