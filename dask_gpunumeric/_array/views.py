"""The operations that give views: basic indexing, transposes, and reshapes NumPy can do
without a copy. A view shares its base's ``Store``; only the ``ViewSpec`` differs."""

from __future__ import annotations

import math
from typing import Any

import numpy

from .._ir.indexing import Region, Reshape
from . import memory_order


def _view(array: Any, region: Region) -> Any:
    return type(array)._from_parts(array._store, array._view.then_region(region))


def transpose(array: Any, axes: Any = None) -> Any:
    if axes is None or axes == ():
        axes = tuple(reversed(range(array.ndim)))
    elif len(axes) == 1 and isinstance(axes[0], (tuple, list)):
        axes = tuple(axes[0])
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


def _requested_shape(size: int, shape: Any, order: Any) -> tuple[int, ...]:
    """NumPy's reading of a reshape target, ``-1`` resolved, with NumPy's errors (for a bad
    order too)."""
    probe = numpy.broadcast_to(numpy.zeros((), dtype=numpy.uint8), (size,))
    return numpy.reshape(probe, shape, order=order).shape


def reshape(array: Any, shape: Any, order: Any = "C", copy: bool | None = None) -> Any:
    """A view when NumPy would give one (it decides, on a stand-in with the view's strides),
    else a new array. In Fortran order (``'F'``, or ``'A'`` of a Fortran array) it is
    ``array.T.reshape(shape[::-1]).T``: a view exactly where NumPy's is one."""
    if isinstance(shape, (int, numpy.integer)):
        shape = (shape,)
    new_shape = _requested_shape(math.prod(array.shape), tuple(shape), order)
    if memory_order.reads_fortran(array, memory_order.order_of(order)):
        return transpose(_reshape_in_c_order(transpose(array), new_shape[::-1], copy))
    return _reshape_in_c_order(array, new_shape, copy)


def _reshape_in_c_order(array: Any, new_shape: tuple[int, ...], copy: bool | None) -> Any:
    if copy is not True:
        try:
            numpy.reshape(array._view.layout_stand_in(), new_shape, copy=False)
        except ValueError:
            if copy is False:
                raise ValueError("Unable to avoid creating a copy while reshaping.") from None
        else:
            return type(array)._from_parts(array._store, array._view.then_reshape(new_shape))
    return type(array)._from_expr(Reshape(array._read(), new_shape))


def ravel(array: Any, order: Any = "C") -> Any:
    """``array`` read in ``order`` (``'K'``: as its strides lie, NumPy's way) into one
    axis: a view where NumPy's ravel gives one (the reading is contiguous), else a copy."""
    order = memory_order.order_of(order, lambda o: numpy.ravel(memory_order.ORDER_STAND_IN, o))
    axes = memory_order.reading_axes(array, order)
    reading = array if axes == tuple(range(array.ndim)) else transpose(array, axes)
    if reading._view.layout_stand_in().flags.c_contiguous:
        return _reshape_in_c_order(reading, (array.size,), None)
    return type(array)._from_expr(Reshape(reading._read(), (array.size,)))
