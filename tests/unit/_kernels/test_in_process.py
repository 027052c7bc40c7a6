"""Small expressions are evaluated in the client process (``_kernels/in_process.py``):
same values, dtypes and shapes as NumPy and as the task path, no task for tiny arrays."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._backends import get_backend
from dask_gpunumeric._ir.leaves import ChunkValue
from dask_gpunumeric.testing import assert_eq, assert_raises_like
from examples.stencil import stencil


def _is_in_process(array: Any) -> bool:
    return isinstance(array._store.version, ChunkValue)


def _check_both_paths(program: Callable[[Any], Any]) -> None:
    """``program(dnp)`` equals ``program(numpy)`` evaluated in process and through tasks."""
    expected = program(numpy)
    ours = program(dnp)
    assert _is_in_process(ours)
    assert isinstance(ours._store.version.value, get_backend().chunk_type)
    assert_eq(ours, expected)
    with dnp.config.set(in_process_evaluation=False):
        through_tasks = program(dnp)
        assert not _is_in_process(through_tasks)
        assert_eq(through_tasks, expected)


def _repeated_update(np: Any) -> Any:
    x = np.ones(1024)
    y = np.arange(1024.0)
    for _ in range(200):
        x += 2 * y
    return x


def _views_and_writes(np: Any) -> Any:
    a = np.arange(60.0).reshape(6, 10)
    a[1:-1, ::3] = a[2:, 0:10:3] * -1.5
    a.T[2] = 7
    b = a[::-1, None, 2:5].astype(np.float32)
    b[0, 0, :] += np.sqrt(a[0, :3])
    c = np.where(a > 20, a, 0.5 * a.reshape(60)[:10])
    return c + b[1:2, 0, :1] - (a < 3)


@pytest.mark.parametrize("program", [_repeated_update, _views_and_writes])
def test_in_process_equals_numpy_and_the_task_path(program: Callable[[Any], Any]) -> None:
    _check_both_paths(program)


def _products(np: Any) -> Any:
    a = np.asarray(numpy.arange(12.0).reshape(3, 4))
    v = np.asarray(numpy.arange(4.0))
    k = np.asarray(numpy.arange(5, dtype=numpy.int16))
    rs = v @ v  # a solver's r @ r: a value at once, read by what follows
    return np.tensordot(a, a, axes=([1], [1])) + (a @ v)[:, None] * rs + (k @ k)


def test_products_of_tiny_arrays_are_computed_when_built() -> None:
    _check_both_paths(_products)
    v = dnp.asarray(numpy.arange(4.0))
    assert _is_in_process(v @ v) and _is_in_process(dnp.tensordot(v, v, axes=1))


def test_small_stencil_runs_in_process() -> None:
    _check_both_paths(lambda np: stencil(np, 30, 40))


def test_large_and_explicitly_chunked_arrays_stay_lazy() -> None:
    limit = dnp.config.get("min-chunk-elements")
    assert not _is_in_process(dnp.ones(limit) + 1)
    assert not _is_in_process(dnp.ones(100, chunks=10) + 1)
    assert _is_in_process(dnp.ones(limit - 1) + 1)


def test_tiny_values_mix_with_lazy_ones() -> None:
    big_host = numpy.arange(3.0 * dnp.config.get("min-chunk-elements"))
    big, tiny = dnp.asarray(big_host), dnp.arange(10.0)
    mixed = big[:10] * tiny
    assert not _is_in_process(mixed)
    assert_eq(mixed, big_host[:10] * numpy.arange(10.0))
    big[5:15] = tiny + 1
    big_host[5:15] = numpy.arange(10.0) + 1
    assert_eq(big, big_host)


def test_computed_results_do_not_alias_our_values() -> None:
    ours = dnp.zeros(8)
    host = ours.compute()
    host[0] = 5.0
    also = numpy.asarray(ours)
    also[1] = 6.0
    assert_eq(ours, numpy.zeros(8))


def test_in_process_values_follow_a_backend_change() -> None:
    ours = dnp.arange(6.0) * 2
    for name in ("simulated-device", "numpy"):
        with dnp.config.set(backend=name):
            assert_eq(ours + 1, numpy.arange(6.0) * 2 + 1)


# -- the tiny in-place path: one evaluation per store write, NumPy's semantics -----------


def _in_place_through_views(np: Any) -> Any:
    base = np.arange(24.0)
    x = base[2:12]  # x is a view of a bigger tiny array...
    y = base[::2][:10]  # ...and y a strided view of the same one, overlapping x
    x += 2 * y
    x += base[1:11]  # the input overlaps the output: NumPy reads it before writing
    grid = base.reshape(4, 6)
    grid.T[1:3] *= -0.5  # through a transpose
    grid[1] -= grid[2]
    return base


def _in_place_with_casts(np: Any) -> Any:
    counts = np.arange(10, dtype=np.int16)
    counts += 3  # weak Python scalar: stays int16
    counts *= np.ones(10, dtype=np.int8)
    ratio = np.linspace(0.0, 1.0, 10, dtype=np.float32)
    ratio += counts  # int16 into float32: same_kind allows it
    ratio[::3] /= 4
    return ratio


@pytest.mark.parametrize("program", [_in_place_through_views, _in_place_with_casts])
def test_in_place_on_views_and_casts_equals_numpy_and_the_task_path(
    program: Callable[[Any], Any],
) -> None:
    _check_both_paths(program)


@pytest.mark.parametrize(
    "update",
    [
        lambda np, x: x.__iadd__(1.5),  # float into an integer array: UFuncTypeError
        lambda np, x: x.__itruediv__(2),
        lambda np, x: np.add(x, np.ones(10, dtype=np.float32), out=x),
        lambda np, x: x.__iadd__(np.ones(3)),  # output shape (10,) cannot take (3,)
    ],
)
def test_refused_in_place_updates_raise_numpys_error_and_leave_the_array(update: Any) -> None:
    host = numpy.arange(10)
    ours = dnp.arange(10)
    assert_raises_like(lambda: update(numpy, host), lambda: update(dnp, ours))
    assert_eq(ours, numpy.arange(10))
    assert _is_in_process(ours)


def test_an_in_place_update_through_views_evaluates_each_operation_once(
    monkeypatch: Any,
) -> None:
    """A view's operand takes the expression route (``2 * y[1:]``); the write through a
    view is ``_array/tiny_ufuncs.py``'s (into ``x``'s value, which nothing else reads)."""
    from dask_gpunumeric._kernels import in_process

    evaluations: list[str] = []
    real = in_process._computed

    def counting(expr: Any, *args: Any) -> Any:
        evaluations.append(type(expr).__name__)
        return real(expr, *args)

    x, y = dnp.ones(1024), dnp.arange(1024.0)
    tail = x[1:]
    monkeypatch.setattr(in_process, "_computed", counting)
    before = weakref.ref(x._store.held_chunk()[0])  # not a reader: no reference held
    tail += 2 * y[1:]
    # ``2 * y[1:]`` when its array is made; the add into x's value, in place
    assert evaluations == ["Elementwise"]
    assert _is_in_process(x)
    assert x._store.held_chunk()[0] is before()
    assert x._store.version.depth == 1
    expected = numpy.ones(1024)
    expected[1:] += 2 * numpy.arange(1024.0)[1:]
    assert_eq(x, expected)


def test_whole_array_writes_never_alias_another_array() -> None:
    source = dnp.arange(10.0)
    target = dnp.zeros(5)
    target[...] = source[::2]  # the new version may share the source's value...
    source[0] = 100.0  # ...which a write to the source never changes in place
    source += 1
    assert_eq(target, numpy.arange(10.0)[::2])
    host = numpy.arange(4.0)
    copied = dnp.zeros(4)
    copied[...] = host
    host[0] = 9.0  # NumPy copies on assignment, so must we
    copied[1] = 5.0  # and a value taken from the host stays writable through our arrays
    assert_eq(copied, numpy.array([0.0, 5.0, 2.0, 3.0]))


def test_tiny_and_lazy_values_updated_in_place() -> None:
    big_host = numpy.arange(3.0 * dnp.config.get("min-chunk-elements"))
    big, tiny = dnp.asarray(big_host), dnp.arange(10.0)
    tiny += big[:10]  # a lazy input: the tiny array waits for the cluster
    assert not _is_in_process(tiny)
    big[:10] += tiny
    tiny_host = numpy.arange(10.0) + big_host[:10]
    big_host[:10] += tiny_host
    assert_eq(tiny, tiny_host)
    assert_eq(big, big_host)


def test_configuration_changes_take_effect_at_the_next_operation() -> None:
    x = dnp.ones(100)
    with dnp.config.set(in_process_evaluation=False):
        assert not _is_in_process(x + 1)
        with dnp.config.set(in_process_evaluation=True):
            assert _is_in_process(x + 1)
        assert not _is_in_process(x + 1)
    with dnp.config.set(min_chunk_elements=100):
        assert not _is_in_process(x + 1)
    assert _is_in_process(x + 1)
    other = "numpy" if get_backend().name == "simulated-device" else "simulated-device"
    with dnp.config.set(backend=other):
        fresh = dnp.ones(100) + 1
        assert isinstance(fresh._store.version.value, get_backend(other).chunk_type)
        assert_eq(x + 1, numpy.full(100, 2.0))  # values of the other backend: moved
    assert_eq(x + 1, numpy.full(100, 2.0))


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ((4,), (4,)),
        ((3, 4), (4,)),
        ((4,), (4, 5)),
        ((2, 3, 4), (4, 5)),
        ((2, 1, 3, 4), (5, 4, 2)),
        ((3, 4), (5,)),  # NumPy's ValueError
        ((4,), (3, 5)),
    ],
)
@pytest.mark.parametrize(
    ("left_dtype", "right_dtype"),
    [("float64", "float64"), ("int8", "bool"), ("float32", "int64"), ("complex64", "float64")],
)
def test_tiny_matmul_is_numpys(
    left: tuple[int, ...], right: tuple[int, ...], left_dtype: str, right_dtype: str
) -> None:
    """``a @ b`` of whole tiny arrays is NumPy's call on their chunks: values, dtype and
    errors; the result is a value at once."""
    rng = numpy.random.default_rng(1)
    a_host = (rng.random(left) * 5).astype(left_dtype)
    b_host = (rng.random(right) * 5).astype(right_dtype)
    a, b = dnp.asarray(a_host), dnp.asarray(b_host)
    try:
        expected = a_host @ b_host
    except ValueError:
        assert_raises_like(lambda: a @ b, lambda: a_host @ b_host)
        return
    ours = a @ b
    assert _is_in_process(ours)
    assert_eq(ours, expected)


def test_tiny_matmul_refuses_what_numpy_refuses_and_large_results() -> None:
    vector = numpy.arange(3.0)
    assert_raises_like(lambda: dnp.asarray(vector) @ 2.0, lambda: vector @ 2.0)
    assert_raises_like(
        lambda: dnp.asarray(numpy.float64(2.0)) @ dnp.asarray(vector),
        lambda: numpy.asarray(numpy.float64(2.0)) @ vector,
    )
    limit = dnp.config.get("min-chunk-elements")
    column = numpy.ones((300, 1))  # an outer product of 90,000 elements: not tiny
    assert 300 * 300 >= limit
    outer = dnp.asarray(column) @ dnp.asarray(column.T)
    assert not _is_in_process(outer)
    assert_eq(outer, column @ column.T)


@pytest.mark.parametrize(
    "host", [numpy.float64(2.5), numpy.array([1.5]), numpy.array([0.0, 1.0]), numpy.int8(-3)]
)
def test_checks_of_values_here_are_numpys(host: Any) -> None:
    """``float()``/``bool()`` of a tiny value read its chunk: NumPy's results, errors and
    warnings (a 1-element 1-d array's deprecation)."""
    import warnings

    ours = dnp.asarray(host) * 1
    assert _is_in_process(ours)
    expected_host = numpy.asarray(host) * 1
    for convert in (float, bool):
        try:
            with warnings.catch_warnings(record=True) as numpys:
                warnings.simplefilter("always")
                expected = convert(expected_host)
        except (TypeError, ValueError):
            assert_raises_like(lambda c=convert: c(ours), lambda c=convert: c(expected_host))
            continue
        with warnings.catch_warnings(record=True) as theirs:
            warnings.simplefilter("always")
            assert convert(ours) == expected
        assert [w.category for w in theirs] == [w.category for w in numpys]
