"""Joining and splitting arrays (NumPy reference: "Array manipulation": joining arrays,
splitting arrays). Joins are one ``Concatenate`` node: the inputs' blocks are reused
along the joined axis, and take the first input's chunks along the others (no slivers). Split pieces are
live views (slices) of their argument."""

from __future__ import annotations

import itertools
import operator
from typing import Any

import numpy
from numpy.lib.array_utils import normalize_axis_index

from .._ir.elementwise import cast_node
from .._ir.joining import Concatenate
from . import host_outputs
from .creation import asarray
from .manipulation import atleast_1d, atleast_2d, atleast_3d, moveaxis
from .ndarray import ndarray

__all__ = [
    "block",
    "concat",
    "unstack",
    "array_split",
    "column_stack",
    "concatenate",
    "dsplit",
    "dstack",
    "hsplit",
    "hstack",
    "split",
    "stack",
    "vsplit",
    "vstack",
]


def _zero_memory(array: ndarray, empty_axis: int | None = None) -> numpy.ndarray:
    """A NumPy stand-in with ``array``'s shape and dtype that owns no memory; with
    ``empty_axis``, that axis has length 0 (so NumPy's result is empty too)."""
    shape = list(array.shape)
    if empty_axis is not None:
        shape[empty_axis] = 0
    return numpy.broadcast_to(numpy.zeros((), dtype=array.dtype), tuple(shape))


def _concatenation_stand_ins(arrays: list[ndarray], axis: int) -> list[numpy.ndarray]:
    """Stand-ins on which ``numpy.concatenate`` raises what it raises for ``arrays``, and
    otherwise returns an empty result of the right dtype."""
    ndims = {a.ndim for a in arrays}
    if len(ndims) != 1 or 0 in ndims:
        return [_zero_memory(a) for a in arrays]  # NumPy refuses before allocating
    try:
        axis = normalize_axis_index(axis, ndims.pop())
    except numpy.exceptions.AxisError:
        return [_zero_memory(a) for a in arrays]
    return [_zero_memory(a, axis) for a in arrays]


def concatenate(
    arrays: Any,
    axis: int | None = 0,
    out: Any = None,
    *,
    dtype: Any = None,
    casting: Any = "same_kind",
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.concatenate`.

    The inputs' blocks are reused along the joined axis; an input chunked differently
    along another axis is rechunked to the first input's chunks there (no slivers).
    """
    inputs = [asarray(a) for a in arrays]
    if axis is None:
        inputs = [a.reshape(-1) for a in inputs]
        axis = 0
    axis = operator.index(axis)
    stand_ins = _concatenation_stand_ins(inputs, axis)
    host_outputs.check_output(out)
    empty = numpy.concatenate(stand_ins, axis=axis, dtype=dtype, casting=casting)
    axis = normalize_axis_index(axis, inputs[0].ndim)
    shape = list(inputs[0].shape)
    shape[axis] = sum(a.shape[axis] for a in inputs)
    operands = [cast_node(a._read(), empty.dtype) for a in inputs]
    result = ndarray._from_expr(Concatenate(tuple(operands), axis, tuple(shape), empty.dtype))
    if out is None:
        return result
    if out.shape != result.shape:
        raise ValueError("Output array is the wrong shape")
    numpy.concatenate(stand_ins, axis=axis, out=_zero_memory(out, axis).copy(), casting=casting)
    return host_outputs.assign(out, result)


def stack(
    arrays: Any, axis: int = 0, out: Any = None, *, dtype: Any = None, casting: str = "same_kind"
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.stack`."""
    inputs = [asarray(a) for a in arrays]
    if not inputs:
        raise ValueError("need at least one array to stack")
    if len({a.shape for a in inputs}) != 1:
        raise ValueError("all input arrays must have the same shape")
    axis = normalize_axis_index(axis, inputs[0].ndim + 1)
    index = (slice(None),) * axis + (None,)
    expanded = [a[index] for a in inputs]
    return concatenate(expanded, axis=axis, out=out, dtype=dtype, casting=casting)


def _as_tuple(result: Any) -> tuple[ndarray, ...]:
    return result if isinstance(result, tuple) else (result,)


def hstack(tup: Any, *, dtype: Any = None, casting: str = "same_kind") -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.hstack`."""
    arrays = _as_tuple(atleast_1d(*tup)) if len(tup) else ()
    axis = 0 if arrays and arrays[0].ndim == 1 else 1
    return concatenate(arrays, axis=axis, dtype=dtype, casting=casting)


def vstack(tup: Any, *, dtype: Any = None, casting: str = "same_kind") -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.vstack`."""
    arrays = _as_tuple(atleast_2d(*tup)) if len(tup) else ()
    return concatenate(arrays, axis=0, dtype=dtype, casting=casting)


def dstack(tup: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.dstack`."""
    arrays = _as_tuple(atleast_3d(*tup)) if len(tup) else ()
    return concatenate(arrays, axis=2)


def column_stack(tup: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.column_stack`."""
    columns = []
    for value in tup:
        array = asarray(value)
        if array.ndim < 2:
            array = atleast_2d(array).T
        columns.append(array)
    return concatenate(columns, axis=1)


def array_split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list[ndarray]:
    """dask_gpunumeric implementation of :func:`numpy.array_split` (views)."""
    array = asarray(ary)
    total = array.shape[axis]  # NumPy's IndexError for a bad axis
    axis = normalize_axis_index(axis, array.ndim)
    if numpy.ndim(indices_or_sections) == 0:
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.")
        each, extras = divmod(total, sections)
        sizes = [0] + extras * [each + 1] + (sections - extras) * [each]
        points = numpy.cumsum(sizes).tolist()
    else:
        points = [0, *list(indices_or_sections), total]
    before = (slice(None),) * axis
    return [array[(*before, slice(start, stop))] for start, stop in itertools.pairwise(points)]


def split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list[ndarray]:
    """dask_gpunumeric implementation of :func:`numpy.split` (views)."""
    array = asarray(ary)
    if numpy.ndim(indices_or_sections) == 0:
        if array.shape[axis] % indices_or_sections:
            raise ValueError("array split does not result in an equal division")
    return array_split(array, indices_or_sections, axis)


def hsplit(ary: Any, indices_or_sections: Any) -> list[ndarray]:
    """dask_gpunumeric implementation of :func:`numpy.hsplit` (views)."""
    array = asarray(ary)
    if array.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(array, indices_or_sections, 1 if array.ndim > 1 else 0)


def vsplit(ary: Any, indices_or_sections: Any) -> list[ndarray]:
    """dask_gpunumeric implementation of :func:`numpy.vsplit` (views)."""
    array = asarray(ary)
    if array.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(array, indices_or_sections, 0)


def dsplit(ary: Any, indices_or_sections: Any) -> list[ndarray]:
    """dask_gpunumeric implementation of :func:`numpy.dsplit` (views)."""
    array = asarray(ary)
    if array.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(array, indices_or_sections, 2)


def concat(arrays: Any, /, axis: int | None = 0, out: Any = None, **kwargs: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.concat` (``concatenate``)."""
    return concatenate(arrays, axis=axis, out=out, **kwargs)


def unstack(x: Any, /, *, axis: int = 0) -> tuple[ndarray, ...]:
    """dask_gpunumeric implementation of :func:`numpy.unstack` (views)."""
    array = asarray(x)
    if array.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    moved = moveaxis(array, axis, 0)
    return tuple(moved[i] for i in range(moved.shape[0]))


def block(arrays: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.block` (nested ``Concatenate``
    nodes, innermost lists along the last axis)."""
    from numpy._core.shape_base import _block_check_depths_match  # type: ignore[attr-defined]

    bottom_index, _, _ = _block_check_depths_match(arrays)
    list_depth = len(bottom_index)
    if list_depth and bottom_index[-1] is None:
        raise ValueError("block's lists cannot be empty: give each at least one array")
    if list_depth == 0:
        return asarray(arrays).copy()  # type: ignore[attr-defined]
    ndim = max(list_depth, _deepest_ndim(arrays))
    return _block(arrays, 0, list_depth, ndim)


def _deepest_ndim(arrays: Any) -> int:
    if isinstance(arrays, list):
        return max((_deepest_ndim(item) for item in arrays), default=0)
    return asarray(arrays).ndim


def _block(arrays: Any, depth: int, list_depth: int, ndim: int) -> ndarray:
    if isinstance(arrays, list):
        parts = [_block(item, depth + 1, list_depth, ndim) for item in arrays]
        return concatenate(parts, axis=-(list_depth - depth))
    leaf = asarray(arrays)
    return leaf.reshape((1,) * (ndim - leaf.ndim) + leaf.shape)
