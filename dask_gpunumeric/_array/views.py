"""The operations that give views: basic indexing, transposes, and reshapes NumPy can do
without a copy. A view shares its base's ``Store``; only the ``ViewSpec`` differs."""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy

from .._ir.indexing import Region, Reshape
from . import memory_order
from .coercion import check_dtype, handle_type

# ``a.view()``'s "not given" (``None`` is a dtype to NumPy: float64).
NOT_GIVEN: Any = object()


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


def view(array: Any, dtype: Any = NOT_GIVEN, type: Any = NOT_GIVEN) -> Any:  # noqa: A002
    """NumPy's ``a.view([dtype][, type])``: a new view of the same store, its elements'
    bytes read as ``dtype`` (live, writes included, for the same item size; read-only for
    another, the last axis scaled by NumPy's rule and errors). ``type=numpy.ndarray``
    gives NumPy's array of the values (a copy: our values are not in this process); other
    NumPy subclasses are refused with NumPy's ``ValueError``."""
    if type is NOT_GIVEN and _is_array_type(dtype):
        dtype, type = NOT_GIVEN, dtype  # ``a.view(numpy.ndarray)``: NumPy reads a type
    if type is not NOT_GIVEN and not _is_array_type(type):
        raise ValueError("Type must be a sub-type of ndarray type")
    result = _as_dtype(array, numpy.dtype(dtype)) if dtype is not NOT_GIVEN else None
    if result is None:
        result = array.__class__._from_parts(array._store, array._view)
    if type is NOT_GIVEN or issubclass(type, handle_type()):
        return result
    if type is numpy.ndarray:
        return numpy.asarray(result)
    raise ValueError(
        f"dask_gpunumeric arrays cannot be viewed as {type.__module__}.{type.__name__}: "
        "their values are not in this process; use numpy.asarray(a).view(...) for a copy"
    )


def _is_array_type(value: Any) -> bool:
    return isinstance(value, type) and issubclass(value, (numpy.ndarray, handle_type()))


def _as_dtype(array: Any, dtype: numpy.dtype) -> Any:
    """``array``'s bytes as ``dtype``: NumPy's errors and shape, from a probe with the
    view's strides over one element (NumPy reads no data to make a view)."""
    spec = array._view
    unit = array.itemsize * (2 if spec.part else 1)  # a stand-in element is a store element
    stand_in = spec.layout_stand_in()
    probe = numpy.lib.stride_tricks.as_strided(
        numpy.zeros(1, dtype=array.dtype),
        shape=array.shape,
        strides=tuple(stride // stand_in.itemsize * unit for stride in stand_in.strides),
    )
    shape = probe.view(dtype).shape
    check_dtype(dtype)
    resized = dtype.itemsize != array.itemsize
    return array.__class__._from_parts(array._store, spec.then_reinterpret(dtype, shape, resized))
