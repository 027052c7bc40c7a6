"""``_runtime/dask_arrays``: the one place the package takes dask's arrays from (issue 28).

With query planning off each function it gives is dask.array's own, as the ``dask.array``
namespace names it; with it on (``DASK_ARRAY__QUERY_PLANNING=True``, a CI step) the
task-graph function of the same name, from dask.array's modules, never an expression one.
Either way a call takes and gives task-graph arrays and equals NumPy. No other module of
the package reads that namespace, whose names change with ``array.query-planning``.
"""

from __future__ import annotations

import functools
import inspect
import pathlib
import re

import dask.array
import numpy
import pytest

import dask_gpunumeric
from dask_gpunumeric._runtime import dask_arrays

# The paths the package's ``DaskCall`` nodes and lowerings name.
PATHS = (
    "stack", "diag", "tril", "triu", "searchsorted", "roll", "map_blocks", "blockwise",
    "rechunk", "einsum", "tile", "pad", "repeat", "tensordot", "matmul", "from_zarr",
    "to_zarr", "fft.fft", "fft.rfft", "fft.ifftn", "linalg.qr", "linalg.svd", "linalg.tsqr",
    "Array.view",
)  # fmt: skip
KINDS = (
    "sum", "prod", "min", "max", "mean", "var", "std", "nansum", "nanmean", "nanvar",
    "argmin", "argmax", "nanargmin", "nanargmax", "any", "all", "cumsum", "nancumprod",
)  # fmt: skip


def _task_graph_function(found: object) -> object:
    while hasattr(found, "__wrapped__"):
        found = found.__wrapped__
    return found


def _is_task_graph_functions(found: object, name: str) -> bool:
    """Whether ``found`` is dask.array's task-graph function ``name``: its own module's
    (``dask.array.routines.stack``...), not one of ``dask.array._array_expr``'s."""
    module = inspect.getmodule(found)
    assert module is not None, found
    owner = module.__name__
    return (
        owner.startswith("dask.array.")
        and "_array_expr" not in owner
        and getattr(found, "__name__", None) == name.rpartition(".")[2]
    )


@pytest.mark.parametrize("path", PATHS)
def test_a_function_by_path_is_dask_arrays_own(path: str) -> None:
    found = _task_graph_function(dask_arrays.function(path))
    if dask_arrays.query_planning():
        assert _is_task_graph_functions(found, path), found
    else:
        assert found is functools.reduce(getattr, path.split("."), dask.array)


@pytest.mark.parametrize("kind", KINDS)
def test_a_reduction_by_kind_is_dask_arrays_own(kind: str) -> None:
    found = _task_graph_function(dask_arrays.reduction(kind))
    if dask_arrays.query_planning():
        assert _is_task_graph_functions(found, kind), found
    else:
        assert found is getattr(dask.array, kind)


# Reductions lowering reaches with query planning on too (arg reductions are a tree of
# ours then: ``_lowering/trees.py``).
@pytest.mark.parametrize("kind", ["sum", "var", "nanmean", "max", "cumsum"])
def test_a_reduction_takes_and_gives_task_graph_arrays_equal_to_numpys(kind: str) -> None:
    values = numpy.arange(24.0).reshape(4, 6) % 7
    x = dask_arrays.task_graph_array(dask.array.from_array(values, chunks=(2, 4)))
    result = dask_arrays.reduction(kind)(x, axis=1)
    assert isinstance(result, dask_arrays.Array)
    expected = getattr(numpy, kind)(values, axis=1)
    computed = result.compute(scheduler="synchronous")
    assert computed.dtype == expected.dtype
    numpy.testing.assert_array_equal(computed, expected)


# Called through dask.array's namespace with query planning on too (the others of PATHS
# have a lowering of ours then: ``_lowering/block_calls.py``, ``products.py``).
@pytest.mark.parametrize("path", ["stack", "diag", "roll"])
def test_a_function_takes_and_gives_task_graph_arrays_equal_to_numpys(path: str) -> None:
    values = numpy.arange(16.0).reshape(4, 4)
    x = dask_arrays.task_graph_array(dask.array.from_array(values, chunks=2))
    call = {
        "stack": lambda f, a: f([a, a + 1]),
        "diag": lambda f, a: f(a, 1),
        "roll": lambda f, a: f(a, 3, axis=1),
    }[path]
    result = call(dask_arrays.function(path), x)
    assert isinstance(result, dask_arrays.Array)
    expected = call(getattr(numpy, path), values)
    numpy.testing.assert_array_equal(result.compute(scheduler="synchronous"), expected)


def test_the_arrays_are_dask_arrays_own_with_query_planning_off() -> None:
    if dask_arrays.query_planning():
        pytest.skip("query planning is on: the next test")
    assert dask_arrays.Array is dask.array.Array
    x = dask.array.from_array(numpy.arange(12.0).reshape(3, 4), chunks=2)
    assert dask_arrays.is_dask_array(x)
    assert dask_arrays.task_graph_array(x) is x
    assert dask_arrays.for_user(x) is x
    assert not dask_arrays.is_dask_array(numpy.arange(3))


def test_expression_arrays_convert_both_ways_with_query_planning_on() -> None:
    if not dask_arrays.query_planning():
        pytest.skip("query planning is off: the test before")
    values = numpy.arange(12.0).reshape(3, 4)
    x = dask.array.from_array(values, chunks=2)
    assert dask_arrays.Array is not dask.array.Array
    assert not isinstance(x, dask_arrays.Array)
    assert dask_arrays.is_dask_array(x)
    graph_array = dask_arrays.task_graph_array(x)
    assert isinstance(graph_array, dask_arrays.Array)
    assert (graph_array.name, graph_array.chunks) == (x.name, x.chunks)
    for_user = dask_arrays.for_user(graph_array)
    assert isinstance(for_user, dask.array.Array)
    assert for_user.chunks == x.chunks
    for array in (graph_array, for_user):
        numpy.testing.assert_array_equal(array.compute(scheduler="synchronous"), values)
    assert not dask_arrays.is_dask_array(numpy.arange(3))


def test_an_unknown_path_raises_naming_it() -> None:
    with pytest.raises(AttributeError, match="no_such_function"):
        dask_arrays.function("no_such_function")


def test_no_other_module_reads_the_dask_array_namespace() -> None:
    """``import dask.array`` (as a namespace) and ``from dask import array`` appear in
    ``_runtime/dask_arrays.py`` only; submodules (``dask.array.core``,
    ``dask.array.dispatch``) are the same whatever query planning says."""
    package = pathlib.Path(dask_gpunumeric.__file__).parent
    namespace = re.compile(
        r"^\s*(import dask\.array(\s+as\s+\w+)?\s*$|from dask import array\b|"
        r"from dask\.array import )",
        re.MULTILINE,
    )
    readers = sorted(
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if namespace.search(path.read_text()) and path.name != "dask_arrays.py"
    )
    assert readers == []
