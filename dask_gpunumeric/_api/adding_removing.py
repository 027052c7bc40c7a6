"""Adding and removing elements (NumPy reference: "Array manipulation"): ``append``,
``delete``, ``insert``, ``resize`` and ``trim_zeros``.

``delete`` and ``insert`` work out which positions survive (or where the new ones go) by
running NumPy's own function on an index range of the axis, on the host (the axis'
length, not the data), then ``take`` from the (joined) array: one gather node.
``trim_zeros`` needs the first and last nonzero along each trimmed axis: it computes
one boolean per position of those axes (DESIGN §3), never the array.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy
from numpy.lib.array_utils import normalize_axis_index

from .._ir.dtypes import shape_text
from .broadcasting import broadcast_to
from .creation import asarray, zeros
from .joining import concatenate
from .manipulation import moveaxis
from .ndarray import ndarray
from .reductions import any as any_
from .selection import take

__all__ = ["append", "delete", "insert", "resize", "trim_zeros"]


def append(arr: Any, values: Any, axis: int | None = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.append`."""
    array, extra = asarray(arr), asarray(values)
    if axis is None:
        return concatenate([array.ravel(), extra.ravel()], axis=0)
    return concatenate([array, extra], axis=axis)


def _host_index(obj: Any) -> Any:
    """Index metadata on the host: our arrays of positions or flags are computed (they are
    as small as the axis)."""
    return obj.compute() if isinstance(obj, ndarray) else obj


def delete(arr: Any, obj: Any, axis: int | None = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.delete`."""
    array = asarray(arr)
    if axis is None:
        array, axis = array.ravel(), 0
    axis = normalize_axis_index(axis, array.ndim)
    kept = numpy.delete(numpy.arange(array.shape[axis]), _host_index(obj))
    return take(array, kept, axis=axis)


def insert(arr: Any, obj: Any, values: Any, axis: int | None = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.insert`."""
    array = asarray(arr)
    if axis is None:
        array, axis = array.ravel(), 0
    axis = normalize_axis_index(axis, array.ndim)
    obj = _host_index(obj)
    length = array.shape[axis]
    given = asarray(values).astype(array.dtype)
    new = given.reshape((1,) * (array.ndim - given.ndim) + given.shape)
    positions = numpy.arange(length)[obj] if isinstance(obj, slice) else numpy.asarray(obj)
    if positions.dtype == bool:
        positions = numpy.flatnonzero(positions)
    single = positions.size == 1  # NumPy inserts every value there, a block of them
    if single and not -length <= positions.item() <= length:
        raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {length}")
    if numpy.ndim(obj) == 0 and not isinstance(obj, slice):
        new = moveaxis(new, 0, axis)
    count = new.shape[axis] if single else positions.size
    block_shape = array.shape[:axis] + (count,) + array.shape[axis + 1 :]
    order = numpy.insert(numpy.arange(length), obj, numpy.arange(length, length + count))
    try:
        block = broadcast_to(new, block_shape)
    except ValueError:  # NumPy's words: a slice assignment (one index) or a fancy one
        if single:
            raise ValueError(
                f"could not broadcast input array from shape {shape_text(new.shape)} "
                f"into shape {shape_text(block_shape)}"
            ) from None
        raise ValueError(
            f"shape mismatch: value array of shape {shape_text(given.shape)} could not be "
            f"broadcast to indexing result of shape {shape_text(block_shape)}"
        ) from None
    return take(concatenate([array, block], axis=axis), order, axis=axis)


def resize(a: Any, new_shape: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.resize` (the data repeated)."""
    shape = (new_shape,) if isinstance(new_shape, int) else tuple(new_shape)
    shape = tuple(operator.index(n) for n in shape)
    if any(n < 0 for n in shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    flat = asarray(a).ravel()
    size = int(numpy.prod(shape, dtype=numpy.intp))
    if flat.size == 0 or size == 0:
        return zeros(shape, dtype=flat.dtype)
    repeats = -(-size // flat.size)
    return concatenate([flat] * repeats)[:size].reshape(shape)


def trim_zeros(filt: Any, trim: str = "fb", axis: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.trim_zeros` (a view)."""
    array = asarray(filt)
    probe = numpy.ones((1,) * max(array.ndim, 1), dtype=array.dtype)
    numpy.trim_zeros(probe, trim, axis)  # type: ignore[arg-type]  # NumPy's errors
    axes = range(array.ndim) if axis is None else numpy.atleast_1d(axis)
    index = [slice(None)] * array.ndim
    for each in axes:
        each = normalize_axis_index(int(each), array.ndim)
        others = tuple(i for i in range(array.ndim) if i != each)
        flags = numpy.asarray(any_(array != 0, axis=others).compute())
        index[each] = _kept_span(flags, trim.lower())
    return array[tuple(index)]


def _kept_span(flags: numpy.ndarray, trim: str) -> slice:
    nonzero = numpy.flatnonzero(flags)
    if nonzero.size == 0:
        return slice(0, 0)
    start = int(nonzero[0]) if "f" in trim else 0
    stop = int(nonzero[-1]) + 1 if "b" in trim else flags.size
    return slice(start, stop)
