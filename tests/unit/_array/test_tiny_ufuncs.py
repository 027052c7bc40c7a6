"""Ufunc calls on whole tiny arrays are NumPy's ufunc on their chunks
(``_array/tiny_ufuncs.py``): no expression node is built and nothing is walked, values,
dtypes and errors are NumPy's; every other call still builds its expression."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import dask
import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._api import ufuncs
from dask_gpunumeric._backends import get_backend
from dask_gpunumeric._ir.leaves import ChunkValue
from dask_gpunumeric._kernels import in_process
from dask_gpunumeric.testing import assert_eq, assert_raises_like


@pytest.fixture
def expression_route(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the ufunc nodes built and the expressions evaluated in process."""
    taken: list[str] = []
    build, evaluate = ufuncs.ufunc_node, in_process._computed

    def building(op: str, *args: Any, **kwargs: Any) -> Any:
        taken.append(op)
        return build(op, *args, **kwargs)

    def evaluating(expr: Any, *args: Any) -> Any:
        taken.append(type(expr).__name__)
        return evaluate(expr, *args)

    monkeypatch.setattr(ufuncs, "ufunc_node", building)
    monkeypatch.setattr(in_process, "_computed", evaluating)
    return taken


def _repeated_update(np: Any) -> Any:
    x = np.ones(1024)
    y = np.arange(1024.0)
    for _ in range(20):
        x += 2 * y
    np.multiply(x, 0.5, out=x)
    np.negative(x, out=(x,))
    return np.sqrt(-x) + np.arange(1024, dtype=np.int16) // 3


def _mixed_dtypes(np: Any) -> Any:
    counts = np.arange(12, dtype=np.int16)
    counts += 3  # a weak Python scalar keeps int16
    counts *= np.ones(12, dtype=np.int8)
    ratio = np.linspace(0.0, 1.0, 12, dtype=np.float32)
    ratio += counts  # same_kind: int16 into float32
    flags = (ratio > 0.5) ^ (counts % 2 == 0)
    return np.where(flags, ratio, -ratio) + (1 + 2j) * np.ones((3, 1, 1)) ** 2


def _zero_d_and_broadcast(np: Any) -> Any:
    scalar = np.asarray(2.5)
    column, row = np.arange(4.0).reshape(4, 1), np.arange(3.0)
    column = np.ones((4, 1)) * np.arange(4.0).reshape(4, 1)  # a whole array, reshaped
    return (scalar * scalar + 1) * (np.ones((4, 1)) + np.ones(3)) + column - row


def _one_input_calls(np: Any) -> Any:
    counts = np.arange(-6, 6, dtype=np.int8) * 1  # a value: each call below is tiny
    zero_d = np.asarray(0.5) * 2
    waves = np.exp(1j * np.linspace(0.0, 3.0, 12))
    return [
        np.sqrt(counts * counts),  # int8 in, NumPy's float16 out
        np.negative(counts),  # wraps at -128 as NumPy's does
        np.signbit(counts + 0.0),  # bool
        np.exp(zero_d),  # 0-d
        np.absolute(waves),  # complex in, float out
        np.invert(counts > 0),
    ]


@pytest.mark.parametrize(
    "program", [_repeated_update, _mixed_dtypes, _zero_d_and_broadcast, _one_input_calls]
)
def test_whole_tiny_arrays_equal_numpy(program: Callable[[Any], Any]) -> None:
    ours, expected = program(dnp), program(numpy)
    if isinstance(expected, list):
        assert len(ours) == len(expected)
        for one, numpys in zip(ours, expected, strict=True):
            assert_eq(one, numpys)
    else:
        assert_eq(ours, expected)


def test_a_tiny_update_builds_no_expression(expression_route: list[str]) -> None:
    x, y = dnp.ones(1024), dnp.arange(1024.0)
    expression_route.clear()  # creation routines are leaves evaluated once
    x += 2 * y
    dnp.add(x, 1, out=x)
    z = dnp.sqrt(x)
    assert expression_route == []
    for array in (x, z):
        assert type(array._store.version) is ChunkValue
        assert isinstance(array._store.version.value, get_backend().chunk_type)
    assert_eq(z, numpy.sqrt(1 + 2 * numpy.arange(1024.0) + 1))


@pytest.mark.parametrize(
    "call",
    [
        lambda np, x: x[1:] * 2,  # a view
        lambda np, x: np.add(x, 1, where=x > 3, out=np.zeros(10)),
        lambda np, x: np.add(x, 1, dtype=np.float32),
        lambda np, x: np.add(x, 1, casting="unsafe"),
        lambda np, x: x + np.float32(2),  # a NumPy scalar
        lambda np, x: x + [1] * 10,  # a list
        lambda np, x: np.divmod(x, 3)[1],  # two outputs
        lambda np, x: np.sqrt(x[::2]),  # a view, one input
        lambda np, x: np.modf(x / 3)[0],  # one input, two outputs
    ],
)
def test_other_calls_build_their_expression(call: Any, expression_route: list[str]) -> None:
    host = numpy.arange(10.0)
    assert_eq(call(dnp, dnp.arange(10.0)), call(numpy, host))
    assert expression_route


def test_in_process_evaluation_off_builds_expressions(expression_route: list[str]) -> None:
    with dnp.config.set(in_process_evaluation=False):
        x = dnp.arange(10.0)
        x += 1
        assert type(x._store.version) is not ChunkValue
    assert "add" in expression_route
    assert_eq(x, numpy.arange(10.0) + 1)


def test_lazy_operands_build_expressions(expression_route: list[str]) -> None:
    partitioned = dnp.ones(10, chunks=5)  # explicit chunks of several blocks: lazy
    assert type(partitioned._store.version) is not ChunkValue
    assert_eq(dnp.arange(10.0) + partitioned, numpy.arange(10.0) + 1)
    assert "add" in expression_route


def test_a_large_broadcast_result_stays_lazy() -> None:
    limit = dnp.config.get("min-chunk-elements")
    column, row = dnp.ones((limit // 64, 1)), dnp.arange(128.0)
    assert type((column + row)._store.version) is not ChunkValue
    assert_eq(column + row, numpy.ones((limit // 64, 1)) + numpy.arange(128.0))


@pytest.mark.parametrize(
    "update",
    [
        lambda np, x: x.__iadd__(1.5),  # float into an integer array: UFuncTypeError
        lambda np, x: np.add(x, np.ones(10, dtype=np.float32), out=x),
        lambda np, x: x.__iadd__(np.ones(3, dtype=np.int64)),  # cannot broadcast
        lambda np, x: np.add(x, np.ones((2, 10), dtype=np.int64), out=x),  # out too small
        lambda np, x: x.astype(np.int8) + 1000,  # NEP 50: out of int8's range
        lambda np, x: x**-1,  # integers to negative integer powers
        lambda np, x: np.subtract(x > 2, x < 5),  # no boolean subtract
    ],
)
def test_refused_calls_raise_numpys_error_and_leave_the_array(update: Any) -> None:
    host, ours = numpy.arange(10), dnp.arange(10)
    assert_raises_like(lambda: update(numpy, host), lambda: update(dnp, ours))
    assert_eq(ours, numpy.arange(10))
    assert type(ours._store.version) is ChunkValue


def test_results_never_share_their_operands_chunks() -> None:
    x = dnp.arange(6.0)
    before = x._store.version.value
    y = x + 0
    x += 1
    assert x._store.version.value is not before
    assert y._store.version.value is not before
    assert_eq(y, numpy.arange(6.0))
    assert_eq(x, numpy.arange(6.0) + 1)


def test_read_only_outputs_are_refused_as_numpy_refuses_them() -> None:
    host, ours = numpy.arange(4.0), dnp.arange(4.0)
    assert_raises_like(
        lambda: numpy.add(host, 1, out=numpy.broadcast_to(host, (4,))),
        lambda: dnp.add(ours, 1, out=dnp.broadcast_to(ours, (4,))),
    )
    assert_eq(ours, numpy.arange(4.0))


def _made_here(np: Any, host: Any) -> Any:
    """A tiny value as a solver's loop makes it: the result of an operation, whose store
    holds the chunk itself until a reader asks for its node (``Store.holding_chunk``)."""
    value = np.asarray(host) * 1
    if np is dnp:
        assert value._store.chunk is not None
    return value


def _operands_made_here(np: Any) -> tuple[Any, ...]:
    return (
        _made_here(np, numpy.linspace(0.5, 2.0, 50)),
        _made_here(np, numpy.arange(50.0)),
        _made_here(np, numpy.arange(-6, 6, dtype=numpy.int8)),
        _made_here(np, numpy.arange(12, dtype=numpy.int16)),
    )


def _values_made_here(np: Any, p: Any, r: Any, small: Any, wide: Any) -> list[Any]:
    rsold = r @ r
    alpha = rsold / (p @ r)  # 0-d by 0-d
    x = p + alpha * p  # 0-d by 1-D, then 1-D by 1-D
    return [
        rsold,
        alpha,
        x,
        r - alpha * x,
        float(np.sqrt(x @ x)),
        np.sqrt(small * small),  # int8 in, float16 out
        small + wide,  # promoted to int16
        small > wide,
        small @ wide,  # an integer dot
    ]


def _views_of_values_made_here(np: Any, p: Any, r: Any, small: Any, wide: Any) -> list[Any]:
    return [p[1:] + r[:-1], np.negative(small[::2]), p[::2] @ r[1::2]]


def test_values_made_here_combine_as_numpys(expression_route: list[str]) -> None:
    operands = _operands_made_here(dnp)
    expression_route.clear()
    ours = _values_made_here(dnp, *operands)
    assert expression_route == []  # each one NumPy's call on the chunks
    ours += _views_of_values_made_here(dnp, *operands)
    assert expression_route  # views build their expressions
    numpys = _operands_made_here(numpy)
    expected = _values_made_here(numpy, *numpys) + _views_of_values_made_here(numpy, *numpys)
    assert len(ours) == len(expected)
    for one, numpys_value in zip(ours, expected, strict=True):
        if type(numpys_value) is float:
            assert type(one) is float and one == numpys_value
        else:
            assert_eq(one, numpys_value)


@pytest.mark.parametrize(
    "call",
    [
        lambda np, x, y: x + y,  # (5,) and (4,) do not broadcast
        lambda np, x, y: x @ y,  # nor multiply
        lambda np, x, y: (x > 1) - (x > 2),  # no boolean subtract
        lambda np, x, y: x.astype(np.int64) ** -(x.astype(np.int64)),  # negative powers
    ],
)
def test_values_made_here_raise_numpys_errors(call: Any) -> None:
    def operands(np: Any) -> tuple[Any, Any]:
        return _made_here(np, numpy.arange(1.0, 6.0)), _made_here(np, numpy.arange(4.0))

    assert_raises_like(lambda: call(numpy, *operands(numpy)), lambda: call(dnp, *operands(dnp)))


def test_values_made_here_take_the_expression_where_the_settings_say() -> None:
    def results(setting: Callable[[], Any] = contextlib.nullcontext) -> list[bool]:
        """Whether ``+``, ``@`` and a one-input call of fresh values made chunks (a node
        asked of a value makes its store hold that node from then on: fresh operands
        each time, the checks of the values after)."""
        calls = [lambda x, y: x + y, lambda x, y: x @ y, lambda x, y: dnp.sqrt(x)]
        operands = [
            (_made_here(dnp, numpy.arange(8.0)), _made_here(dnp, numpy.ones(8))) for _ in calls
        ]
        with setting():  # made now: ``config.set`` applies as it is made
            made = [call(x, y) for call, (x, y) in zip(calls, operands, strict=True)]
        chunks = [value._store.chunk is not None for value in made]
        assert_eq(made[0], numpy.arange(8.0) + 1)
        assert_eq(made[1], numpy.arange(8.0).sum())
        assert_eq(made[2], numpy.sqrt(numpy.arange(8.0)))
        return chunks

    assert results() == [True] * 3
    other = "numpy" if get_backend().name != "numpy" else "simulated-device"
    settings = [
        lambda: dnp.config.set(in_process_evaluation=False),
        # the values are no longer tiny (and the small-work policy, which would compute
        # ``x @ y`` of values held here, is off: the suite's default, pinned)
        lambda: dnp.config.set(min_chunk_elements=8, client_work_bytes=0),
        lambda: dnp.config.set(backend=other),  # values of another backend: converted
    ]
    for setting in settings:
        assert results(setting) == [False] * 3
    assert results(lambda: dask.annotate(priority=3)) == [False] * 3
    x, y = _made_here(dnp, numpy.arange(8.0)), _made_here(dnp, numpy.ones(8))
    with dask.annotate(priority=3):  # the value's node records the block
        made = x * y
    assert dict(made._store.version.annotations) == {"priority": 3}


_REDUCTIONS = [
    lambda np, x: x.sum(),
    lambda np, x: np.mean(x, axis=0),
    lambda np, x: x.std(axis=1, ddof=1, keepdims=True),
    lambda np, x: np.argmax(x, axis=1),
    lambda np, x: x.max(axis=(0, 1)),
    lambda np, x: np.var(x, dtype=np.float32),
    lambda np, x: (x * 1000).astype(np.int8).prod(axis=0),  # int8: NumPy's int64 result
    lambda np, x: np.nanmean(np.where(x > 0.5, np.nan, x), axis=0),
]


@pytest.mark.parametrize("reduce", _REDUCTIONS)
def test_reductions_of_values_held_here_are_numpys_at_the_call(reduce: Any) -> None:
    """With the policy on, a reduction of a whole value held here is NumPy's, computed
    when called (no node): values, dtypes, warnings as NumPy gives them."""
    host = numpy.random.default_rng(2).random((120, 150))  # over the suite's one block
    with dnp.config.set(client_work_bytes="64 MiB"):
        ours = reduce(dnp, dnp.array(host) * 1)
        if get_backend().chunk_type is numpy.ndarray:
            assert ours._store.held_chunk() is not None  # a value, not a node
        assert_eq(ours, reduce(numpy, host))


@pytest.mark.parametrize(
    "reduce",
    [
        lambda np, x: x.sum(axis=2),  # NumPy's AxisError
        lambda np, x: np.argmax(x[:0], axis=0),  # an empty sequence
        lambda np, x: x.mean(axis=(0, 0)),  # a repeated axis
        lambda np, x: np.sum(x, dtype="not a dtype"),
    ],
)
def test_reductions_of_values_held_here_raise_numpys_errors(reduce: Any) -> None:
    host = numpy.random.default_rng(2).random((120, 150))
    with dnp.config.set(client_work_bytes="64 MiB"):
        ours = dnp.array(host) * 1
        assert_raises_like(lambda: reduce(numpy, host), lambda: reduce(dnp, ours))
