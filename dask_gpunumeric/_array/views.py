"""The operations that give views: basic indexing, transposes, and reshapes NumPy can do
without a copy. A view shares its base's ``Store``; only the ``ViewSpec`` differs."""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy

from .._ir.indexing import Region, Reshape


def _view(array: Any, region: Region) -> Any:
    return type(array)._from_parts(array._store, array._view.then_region(region))


def transpose(array: Any, axes: Any = None) -> Any:
    """``numpy.transpose(array, axes)``: ``None`` reverses the axes, one integer is a
    one-axis permutation (NumPy's, for 1-d arrays), ``()`` the permutation of a 0-d one."""
    if axes is None:
        axes = tuple(reversed(range(array.ndim)))
    elif isinstance(axes, (int, numpy.integer)):
        axes = (axes,)
    elif not numpy.iterable(axes):
        raise TypeError(f"expected a sequence of integers or a single integer, got '{axes}'")
    axes = tuple(operator.index(axis) for axis in axes)  # NumPy's TypeError before the length
    if len(axes) != array.ndim:
        raise ValueError("axes don't match array")
    normalized = tuple(numpy.lib.array_utils.normalize_axis_index(a, array.ndim) for a in axes)
    if len(set(normalized)) != len(normalized):
        raise ValueError("repeated axis in transpose")
    return _view(array, Region.transposition(array.shape, normalized))


def swapaxes(array: Any, axis1: int, axis2: int) -> Any:
    axis1 = numpy.lib.array_utils.normalize_axis_index(axis1, array.ndim)
    axis2 = numpy.lib.array_utils.normalize_axis_index(axis2, array.ndim)
    order = list(range(array.ndim))
    order[axis1], order[axis2] = order[axis2], order[axis1]
    return _view(array, Region.transposition(array.shape, tuple(order)))


def _requested_shape(size: int, shape: Any) -> tuple[int, ...]:
    """NumPy's reading of a reshape target, ``-1`` resolved, with NumPy's errors."""
    probe = numpy.broadcast_to(numpy.zeros((), dtype=numpy.uint8), (size,))
    return numpy.reshape(probe, shape).shape


def reshape(array: Any, shape: Any, order: str = "C", copy: bool | None = None) -> Any:
    """A view when NumPy would give one (it decides, on a stand-in with the view's strides),
    else a new array."""
    if order not in ("C", "A"):
        raise NotImplementedError(
            "dask_gpunumeric.reshape supports order='C' only; use .compute() and numpy for 'F'"
        )
    if isinstance(shape, (int, numpy.integer)):
        shape = (shape,)
    new_shape = _requested_shape(math.prod(array.shape), tuple(shape))
    if copy is not True:
        try:
            numpy.reshape(array._view.layout_stand_in(), new_shape, copy=False)
        except ValueError:
            if copy is False:
                raise ValueError("Unable to avoid creating a copy while reshaping.") from None
        else:
            return type(array)._from_parts(array._store, array._view.then_reshape(new_shape))
    return type(array)._from_expr(Reshape(array._read(), new_shape))


def ravel(array: Any, order: str = "C") -> Any:
    return reshape(array, (-1,), order=order)
