"""Indexing routines that select (NumPy reference: "Indexing routines": generating index
arrays, indexing-like operations). Integer indices travel to the host, as for fancy
indexing; masks whose true positions decide a size (``nonzero``, ``compress``) are
counted on the workers and only their positions are produced (``data_dependent``)."""

from __future__ import annotations

import math
from typing import Any

import numpy
from numpy.lib.array_utils import normalize_axis_index

from .._array.coercion import as_expr, as_operand
from .._array.data_dependent import flat_nonzero
from .._ir.dask_call import DaskCall
from .._ir.dtypes import operand_shape, stand_in
from .._ir.elementwise import cast_node, where_node
from .._ir.expr import Expr
from . import reductions
from .creation import asarray, zeros
from .joining import stack
from .ndarray import ndarray
from .ufuncs import ufuncs

__all__ = [
    "argwhere",
    "choose",
    "compress",
    "extract",
    "flatnonzero",
    "nonzero",
    "searchsorted",
    "select",
    "take",
    "take_along_axis",
]


def host_indices(indices: Any) -> numpy.ndarray:
    """Indices on the host, as ``take`` reads them (ours are computed: which blocks they
    touch is data)."""
    host = numpy.asarray(indices)
    # NumPy's take truncates float indices; an empty list is an empty integer index.
    return host if host.dtype.kind in "iu" else host.astype(numpy.intp)


def wrap_indices(host: numpy.ndarray, length: int, mode: str) -> numpy.ndarray:
    """``mode='wrap'``/``'clip'`` indices made in range; ``'raise'`` ones left as they are."""
    if mode == "wrap" and length:
        return host % length
    if mode == "clip":
        return numpy.clip(host, 0, max(length - 1, 0))
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got '{mode}')")
    return host


def take(
    a: Any, indices: Any, axis: int | None = None, out: Any = None, mode: str = "raise"
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.take` (always a new array)."""
    array = asarray(a)
    if axis is None:
        array, axis = array.reshape(-1), 0
    axis = normalize_axis_index(axis, array.ndim)
    host = wrap_indices(host_indices(indices), array.shape[axis], mode)
    if host.size and array.shape[axis] == 0:
        shape = array.shape[:axis] + host.shape + array.shape[axis + 1 :]
        if int(numpy.prod(shape, dtype=numpy.int64)):
            raise IndexError("cannot do a non-empty take from an empty axes.")
        if mode == "raise" and int(numpy.prod(array.shape[:axis], dtype=numpy.int64)):
            # NumPy checks each index once per cell before the axis, and there are some.
            raise IndexError(f"index {host.flat[0]} is out of bounds for axis {axis} with size 0")
        # An empty result: NumPy takes nothing and checks no index.
        result = zeros(shape, dtype=array.dtype)
    else:
        result = array[(slice(None),) * axis + (host,)]
    if out is None:
        return result
    out[...] = result
    return out


def take_along_axis(arr: Any, indices: Any, axis: int | None = -1) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.take_along_axis`."""
    view, index = along_axis_index(asarray(arr), indices, axis)
    return view[index]


def along_axis_index(array: ndarray, indices: Any, axis: int | None) -> tuple[ndarray, tuple]:
    """NumPy's fancy index for ``*_along_axis`` (the array flattened when axis is None)."""
    host = numpy.asarray(indices)
    if axis is None:
        if host.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        array, axis = array.reshape(-1), 0
    if host.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    if host.ndim != array.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    axis = normalize_axis_index(axis, array.ndim)
    index: list[Any] = []
    for k, length in enumerate(array.shape):
        if k == axis:
            index.append(host)
        else:
            shape = (1,) * k + (length,) + (1,) * (array.ndim - k - 1)
            index.append(numpy.arange(length).reshape(shape))
    return array, tuple(index)


def flatnonzero(a: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.flatnonzero`.

    A materialization boundary: the mask is computed and kept on the workers; only the
    number of true elements per block comes to the client.
    """
    array = asarray(a)
    mask = cast_node(array.reshape(-1)._read(), bool)
    return ndarray._from_expr(flat_nonzero(mask))


def nonzero(a: Any) -> tuple[ndarray, ...]:
    """dask_gpunumeric implementation of :func:`numpy.nonzero` (see :func:`flatnonzero`)."""
    array = asarray(a)
    if array.ndim == 0:
        raise ValueError(
            "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() "
            "instead."
        )
    flat = flatnonzero(array)
    if array.ndim == 1:
        return (flat,)
    coordinates = []
    for k, length in enumerate(array.shape):
        stride = math.prod(array.shape[k + 1 :])
        coordinates.append(ufuncs["remainder"](ufuncs["floor_divide"](flat, stride), length))
    return tuple(coordinates)


def argwhere(a: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.argwhere`."""
    array = asarray(a)
    if array.ndim == 0:
        return argwhere(array.reshape(1))[:, :0]
    return stack(nonzero(array), axis=1)


def compress(condition: Any, a: Any, axis: int | None = None, out: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.compress`."""
    mask = asarray(condition)
    if mask.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    (positions,) = nonzero(mask)
    return take(a, positions, axis=axis, out=out)


def extract(condition: Any, arr: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.extract`."""
    (positions,) = nonzero(asarray(condition).reshape(-1))
    return take(asarray(arr).reshape(-1), positions)


def choose(a: Any, choices: Any, out: Any = None, mode: str = "raise") -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.choose`: a chain of ``where``.

    Differences from NumPy: with ``mode='raise'`` the index array's minimum and maximum
    are computed at the call (NumPy's ``ValueError`` for an invalid entry needs them).
    """
    index = asarray(a)
    options = [as_operand(c) for c in choices]
    # NumPy's errors for the index's dtype, and the result's dtype.
    dtype = numpy.choose(numpy.zeros((0,), index.dtype), [stand_in(c) for c in options]).dtype
    numpy.broadcast_shapes(index.shape, *(operand_shape(c) for c in options))
    index = _in_range(index, len(options), mode)
    result: Any = options[-1]
    for k in range(len(options) - 2, -1, -1):
        result = where_node(ufuncs["equal"](index, k)._read(), options[k], result)
    if len(options) == 1:
        result = where_node(ufuncs["equal"](index, 0)._read(), result, result)
    chosen = ndarray._from_expr(cast_node(result, dtype))
    if out is None:
        return chosen
    out[...] = chosen
    return out


def _in_range(index: ndarray, count: int, mode: str) -> ndarray:
    if mode == "wrap":
        return ufuncs["remainder"](index, count)
    if mode == "clip":
        return ufuncs["minimum"](ufuncs["maximum"](index, 0), count - 1)
    if mode != "raise":
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got '{mode}')")
    if index.size:
        low, high = numpy.asarray(stack([reductions.min(index), reductions.max(index)]))
        if low < 0 or high >= count:
            raise ValueError("invalid entry in choice array")
    return index


def select(condlist: Any, choicelist: Any, default: Any = 0) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.select`: a chain of ``where``."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    # Python scalars stay weak (NEP 50), as NumPy keeps them.
    choices = [_weak_or_expr(c) for c in [*choicelist, default]]
    dtype = numpy.result_type(*(stand_in(c) for c in choices))
    conditions = [asarray(c) for c in condlist]
    for k, condition in enumerate(conditions):
        if condition.dtype != bool:
            raise TypeError(f"invalid entry {k} in condlist: should be boolean ndarray")
    numpy.broadcast_shapes(*(c.shape for c in conditions), *(operand_shape(c) for c in choices))
    result: Any = choices[-1]
    for condition, choice in zip(reversed(conditions), reversed(choices[:-1]), strict=True):
        result = where_node(condition._read(), choice, result)
    if not isinstance(result, Expr):
        result = where_node(conditions[0]._read(), result, result)
    return ndarray._from_expr(cast_node(result, dtype))


def _weak_or_expr(value: Any) -> Any:
    return value if type(value) in (int, float, complex) else as_expr(value)


def searchsorted(a: Any, v: Any, side: str = "left", sorter: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.searchsorted` (``dask.array``'s)."""
    array = asarray(a)
    if sorter is not None:
        array = take(array, sorter)
    values = asarray(v)
    # NumPy's errors (a not 1-d, a bad side) and dtypes, on stand-ins owning no memory.
    numpy.searchsorted(
        numpy.broadcast_to(numpy.zeros((), array.dtype), array.shape),
        numpy.empty((0,), values.dtype),
        side=side,  # type: ignore[call-overload]
    )
    common = numpy.result_type(array.dtype, values.dtype)
    flat = values.reshape(-1)  # dask's searchsorted takes arrays of values only
    operands = (cast_node(array._read(), common), cast_node(flat._read(), common))
    node = DaskCall("searchsorted", operands, flat.shape, numpy.intp, (("side", side),))
    return ndarray._from_expr(node).reshape(values.shape)
