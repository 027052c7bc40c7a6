"""Diagonals and triangles (NumPy reference: "Array creation routines": building
matrices; "Linear algebra": ``trace``). ``diagonal`` is a read-only live view, as in
NumPy; the others are new arrays computed by ``dask.array``."""

from __future__ import annotations

import operator
from typing import Any

import numpy

from .._array.viewspec import ComputedStep
from .._ir.dask_call import DaskCall
from . import reductions
from .broadcasting import broadcast_to, zero_memory
from .creation import asarray, copy, zeros
from .elementwise import where
from .ndarray import ndarray
from .numerical_ranges import arange

__all__ = ["diag", "diagonal", "trace", "tril", "triu"]


def diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.diagonal`: a read-only live view
    (writes raise ``ValueError``; writes to ``a`` are seen through it)."""
    array = asarray(a)
    offset = operator.index(offset)
    shape = numpy.diagonal(zero_memory(array), offset, axis1, axis2).shape  # NumPy's errors
    step = ComputedStep("diagonal", (offset, axis1, axis2), shape)
    return ndarray._from_parts(array._store, array._view.then_computed(step))


def diag(v: Any, k: int = 0) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.diag` (a read-only view of a 2-d
    argument's diagonal, a new matrix from a 1-d one)."""
    array = asarray(v)
    k = operator.index(k)
    if array.ndim == 2:
        return diagonal(array, k)
    if array.ndim != 1:
        raise ValueError("Input must be 1- or 2-d.")
    n = array.shape[0] + abs(k)
    node = DaskCall("diag", (array._read(), k), (n, n), array.dtype)
    return ndarray._from_expr(node)


def trace(
    a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None, out: Any = None
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.trace`: the sum of ``diagonal``."""
    return reductions.sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype, out=out)


def lower_triangle_mask(n: Any, m: Any, k: Any) -> ndarray:
    """NumPy's ``tri`` mask, ``arange(n)[:, None] >= arange(-k, m - k)``, by NumPy's
    arithmetic: a float ``n``, ``m`` or ``k`` gives NumPy's (odd) mask, not an error."""
    rows = arange(n, dtype=numpy.intp).reshape(-1, 1)
    columns = arange(-k, m - k, dtype=numpy.intp).reshape(1, -1)
    return rows >= columns


def _triangle(function: str, m: Any, k: Any) -> ndarray:
    array = asarray(m)
    if array.ndim == 0:
        getattr(numpy, function)(numpy.zeros(()))  # NumPy's error for a 0-d argument
    if not isinstance(k, (int, numpy.integer)):  # a float k: NumPy's where over its mask
        return _triangle_by_mask(function, array, k)
    k = operator.index(k)
    if array.ndim == 1:  # NumPy broadcasts a row against its (n, n) mask
        array = broadcast_to(array, (array.shape[0], array.shape[0]))
    if array.size == 0:
        return copy(array)
    return ndarray._from_expr(DaskCall(function, (array._read(), k), array.shape, array.dtype))


def _triangle_by_mask(function: str, array: ndarray, k: Any) -> ndarray:
    rows, columns = array.shape[-2:] if array.ndim > 1 else array.shape * 2
    zero = zeros(1, dtype=array.dtype)
    if function == "tril":
        return where(lower_triangle_mask(rows, columns, k), array, zero)
    return where(lower_triangle_mask(rows, columns, k - 1), zero, array)


def tril(m: Any, k: int = 0) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.tril`."""
    return _triangle("tril", m, k)


def triu(m: Any, k: int = 0) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.triu`."""
    return _triangle("triu", m, k)
