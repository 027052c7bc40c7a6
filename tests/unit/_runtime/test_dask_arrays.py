"""``_runtime/dask_arrays``: the one place the package takes dask's arrays from (issue 28).

With query planning off (this process) each function it gives is dask.array's own, as the
``dask.array`` namespace names it; no other module of the package reads that namespace,
whose names change with ``array.query-planning``.
"""

from __future__ import annotations

import functools
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


@pytest.mark.parametrize("path", PATHS)
def test_a_function_by_path_is_dask_arrays_own(path: str) -> None:
    found = dask_arrays.function(path)
    assert found.__wrapped__ is functools.reduce(getattr, path.split("."), dask.array)


@pytest.mark.parametrize("kind", KINDS)
def test_a_reduction_by_kind_is_dask_arrays_own(kind: str) -> None:
    found = dask_arrays.reduction(kind)
    while hasattr(found, "__wrapped__"):
        found = found.__wrapped__
    assert found is getattr(dask.array, kind)


def test_the_arrays_are_dask_arrays_own_with_query_planning_off() -> None:
    assert dask_arrays.Array is dask.array.Array
    assert not dask_arrays.query_planning()
    x = dask.array.from_array(numpy.arange(12.0).reshape(3, 4), chunks=2)
    assert dask_arrays.is_dask_array(x)
    assert dask_arrays.task_graph_array(x) is x
    assert dask_arrays.for_user(x) is x
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
