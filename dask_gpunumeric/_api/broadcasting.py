"""Broadcasting and grids (NumPy reference: "Array manipulation": changing number of
dimensions; "Array creation routines": numerical ranges; "Indexing routines": ``ix_``).
``broadcast_to`` is a read-only live view, as NumPy's is."""

from __future__ import annotations

import operator
from typing import Any

import numpy

from .._array.viewspec import ComputedStep
from . import creation
from .creation import asarray
from .joining import stack
from .ndarray import ndarray
from .numerical_ranges import arange

__all__ = ["broadcast_arrays", "broadcast_shapes", "broadcast_to", "indices", "ix_", "meshgrid"]

broadcast_shapes = numpy.broadcast_shapes


def zero_memory(array: ndarray) -> numpy.ndarray:
    """A NumPy stand-in with ``array``'s shape and dtype that owns no memory (for NumPy's
    shape rules and errors)."""
    return numpy.broadcast_to(numpy.zeros((), dtype=array.dtype), array.shape)


def broadcast_to(array: Any, shape: Any, subok: bool = False) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.broadcast_to`: a read-only live view
    (writes raise ``ValueError``, writes to ``array`` are seen through it)."""
    source = asarray(array)
    target = numpy.broadcast_to(zero_memory(source), shape).shape  # NumPy's errors
    step = ComputedStep("broadcast_to", (target,), target)
    return ndarray._from_parts(source._store, source._view.then_computed(step))


def broadcast_arrays(*args: Any, subok: bool = False) -> tuple[ndarray, ...]:
    """dask_gpunumeric implementation of :func:`numpy.broadcast_arrays`.

    Differences from NumPy: the broadcast results are read-only (NumPy's warn on write,
    then write to every element sharing the memory); arguments already of the common
    shape are returned as they are, as in NumPy.
    """
    arrays = [asarray(a) for a in args]
    shape = numpy.broadcast_shapes(*(a.shape for a in arrays))
    return tuple(a if a.shape == shape else broadcast_to(a, shape) for a in arrays)


def meshgrid(
    *xi: Any, copy: bool = True, sparse: bool = False, indexing: str = "xy"
) -> tuple[ndarray, ...]:
    """dask_gpunumeric implementation of :func:`numpy.meshgrid`."""
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    ndim = len(xi)
    ones = (1,) * ndim
    grids = [asarray(x).reshape(ones[:i] + (-1,) + ones[i + 1 :]) for i, x in enumerate(xi)]
    if indexing == "xy" and ndim > 1:
        grids[0] = grids[0].reshape((1, -1) + ones[2:])
        grids[1] = grids[1].reshape((-1, 1) + ones[2:])
    if not sparse:
        grids = list(broadcast_arrays(*grids))
    if copy:
        grids = [creation.copy(g) for g in grids]
    return tuple(grids)


def indices(dimensions: Any, dtype: Any = int, sparse: bool = False) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.indices`."""
    dimensions = tuple(operator.index(n) for n in dimensions)
    ndim = len(dimensions)
    ramps = []
    for axis, length in enumerate(dimensions):
        shape = (1,) * axis + (length,) + (1,) * (ndim - axis - 1)
        ramps.append(arange(length, dtype=dtype).reshape(shape))
    if sparse:
        return tuple(ramps)
    if ndim == 0:
        return asarray(numpy.zeros((0,), dtype=dtype))
    return stack([broadcast_to(r, dimensions) for r in ramps])


def ix_(*args: Any) -> tuple[ndarray, ...]:
    """dask_gpunumeric implementation of :func:`numpy.ix_`."""
    from .selection import nonzero

    results = []
    for k, sequence in enumerate(args):
        array = asarray(sequence)
        if not isinstance(sequence, ndarray) and array.size == 0:
            array = asarray(array, dtype=numpy.intp)
        if array.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if array.dtype == bool:
            (array,) = nonzero(array)
        shape = (1,) * k + (array.size,) + (1,) * (len(args) - k - 1)
        results.append(array.reshape(shape))
    return tuple(results)
