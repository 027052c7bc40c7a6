"""Iterating over an array (``for v in a``) as NumPy does, at the cost of one computation:
a 1-d array's elements are values (NumPy yields scalars), computed once; a write to the
array during the loop is seen by the rest of it, as in NumPy; an N-d array's rows are
live views."""

from __future__ import annotations

from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._array import handle
from dask_gpunumeric._ir.elementwise import Elementwise
from dask_gpunumeric._ir.leaves import ChunkValue
from dask_gpunumeric.testing import assert_eq, assert_raises_like


@pytest.fixture
def computations(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every ``compute_expr`` the iteration makes."""
    made: list[Any] = []
    real = handle.compute_expr

    def counting(expr: Any) -> Any:
        made.append(expr)
        return real(expr)

    monkeypatch.setattr(handle, "compute_expr", counting)
    return made


def test_a_1d_array_is_computed_once_for_the_whole_loop(computations: list[Any]) -> None:
    host = numpy.arange(100.0) ** 1.5 - 40
    ours = dnp.array(host, chunks=7) * 1.0  # lazy, several blocks
    values = [float(v) for v in ours]
    assert values == [float(v) for v in host]
    # One computation of the array; each float() reads a value already here (no work).
    assert [type(e) for e in computations if type(e) is not ChunkValue] == [Elementwise]
    elements = list(ours)
    assert [type(v) for v in elements] == [dnp.ndarray] * 100
    assert all(v.shape == () and v.dtype == host.dtype for v in elements)


def test_a_write_during_the_loop_is_seen_by_the_rest_of_it() -> None:
    host = numpy.arange(10.0)
    ours = dnp.array(host, chunks=4)
    for array in (host, ours):
        for i, value in enumerate(array):
            if i + 1 < len(array):
                array[i + 1] += value
    assert_eq(ours, host)


def test_elements_are_copies_and_rows_are_views() -> None:
    host = numpy.arange(12.0).reshape(3, 4)
    ours = dnp.array(host, chunks=2)
    for array in (host, ours):
        for row in array:
            row *= 10  # a view: reaches the array
        for element in array[0]:
            element += 1000  # a copy: does not
    assert_eq(ours, host)


@pytest.mark.parametrize("dtype", ["int32", "bool", "complex128", "float32"])
def test_element_values_and_dtypes_are_numpys(dtype: str) -> None:
    host = (numpy.arange(9) % 4).astype(dtype)
    ours = dnp.array(host, chunks=4)
    assert [v.item() for v in ours] == [v.item() for v in host]
    assert {v.dtype for v in ours} == {host.dtype}


def test_a_0d_array_cannot_be_iterated() -> None:
    assert_raises_like(
        lambda: iter(numpy.float64(1.0) * numpy.ones(())), lambda: iter(dnp.ones(()))
    )
