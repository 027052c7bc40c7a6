"""Shape manipulation that NumPy answers with views (NumPy reference: "Array
manipulation": changing shape, transpose-like operations, changing dimensions,
rearranging elements). Every function here returns a live view of its argument, as
NumPy does; joining and splitting are in ``joining``, tiling and padding in ``tiling``."""

from __future__ import annotations

import operator
from typing import Any

import numpy
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from .._array import views
from .creation import asarray
from .ndarray import ndarray

__all__ = [
    "matrix_transpose",
    "permute_dims",
    "rollaxis",
    "atleast_1d",
    "atleast_2d",
    "atleast_3d",
    "expand_dims",
    "flip",
    "fliplr",
    "flipud",
    "moveaxis",
    "ndim",
    "ravel",
    "reshape",
    "rot90",
    "shape",
    "size",
    "squeeze",
    "swapaxes",
    "transpose",
]


def reshape(a: Any, /, shape: Any = None, order: str = "C", *, copy: bool | None = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.reshape` (a view where NumPy gives one)."""
    return views.reshape(asarray(a), shape, order=order, copy=copy)


def ravel(a: Any, order: str = "C") -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.ravel`."""
    return views.ravel(asarray(a), order)


def transpose(a: Any, axes: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.transpose` (a view)."""
    return views.transpose(asarray(a), axes)


def swapaxes(a: Any, axis1: int, axis2: int) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.swapaxes` (a view)."""
    return views.swapaxes(asarray(a), axis1, axis2)


def moveaxis(a: Any, source: Any, destination: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.moveaxis` (a view)."""
    array = asarray(a)
    source = normalize_axis_tuple(source, array.ndim, "source")
    destination = normalize_axis_tuple(destination, array.ndim, "destination")
    if len(source) != len(destination):
        raise ValueError(
            "`source` and `destination` arguments must have the same number of elements"
        )
    order = [n for n in range(array.ndim) if n not in source]
    for dest, src in sorted(zip(destination, source, strict=True)):
        order.insert(dest, src)
    return views.transpose(array, tuple(order))


def squeeze(a: Any, axis: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.squeeze` (a view)."""
    array = asarray(a)
    if axis is None:
        axes = tuple(k for k, n in enumerate(array.shape) if n == 1)
    else:
        axes = normalize_axis_tuple(axis, array.ndim)
        if any(array.shape[k] != 1 for k in axes):
            raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
    # The Ellipsis keeps an index of integers alone a 0-d view rather than a scalar copy.
    index = tuple(0 if k in axes else slice(None) for k in range(array.ndim))
    return array[(*index, Ellipsis)]


def expand_dims(a: Any, axis: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.expand_dims` (a view)."""
    array = asarray(a)
    if not isinstance(axis, (tuple, list)):
        axis = (axis,)
    new_axes = normalize_axis_tuple(axis, array.ndim + len(axis))
    index = tuple(None if k in new_axes else slice(None) for k in range(array.ndim + len(axis)))
    return array[index]


def flip(m: Any, axis: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.flip` (a view: negative-step slices)."""
    array = asarray(m)
    axes = range(array.ndim) if axis is None else normalize_axis_tuple(axis, array.ndim)
    index = [slice(None)] * array.ndim
    for k in axes:
        index[k] = slice(None, None, -1)
    return array[tuple(index)]


def fliplr(m: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.fliplr` (a view)."""
    array = asarray(m)
    if array.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return array[:, ::-1]


def flipud(m: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.flipud` (a view)."""
    array = asarray(m)
    if array.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return array[::-1, ...]


def rot90(m: Any, k: int = 1, axes: Any = (0, 1)) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.rot90` (a view)."""
    array = asarray(m)
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == array.ndim:
        raise ValueError("Axes must be different.")
    if not all(-array.ndim <= axis < array.ndim for axis in axes):
        raise ValueError(f"Axes={axes} out of range for array of ndim={array.ndim}.")
    first = normalize_axis_index(axes[0], array.ndim)
    second = normalize_axis_index(axes[1], array.ndim)
    turns = operator.index(k) % 4
    if turns == 0:
        return array[...]
    if turns == 2:
        return flip(flip(array, first), second)
    order = list(range(array.ndim))
    order[first], order[second] = order[second], order[first]
    if turns == 1:
        return views.transpose(flip(array, second), tuple(order))
    return flip(views.transpose(array, tuple(order)), second)


def _at_least(arrays: tuple[Any, ...], grow: Any) -> Any:
    results = tuple(grow(asarray(a)) for a in arrays)
    return results[0] if len(results) == 1 else results


def atleast_1d(*arys: Any) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.atleast_1d` (views)."""
    return _at_least(arys, lambda a: a.reshape(1) if a.ndim == 0 else a)


def atleast_2d(*arys: Any) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.atleast_2d` (views)."""

    def grow(a: ndarray) -> ndarray:
        return a.reshape(1, 1) if a.ndim == 0 else a[None, :] if a.ndim == 1 else a

    return _at_least(arys, grow)


def atleast_3d(*arys: Any) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.atleast_3d` (views)."""

    def grow(a: ndarray) -> ndarray:
        if a.ndim == 0:
            return a.reshape(1, 1, 1)
        if a.ndim == 1:
            return a[None, :, None]
        return a[:, :, None] if a.ndim == 2 else a

    return _at_least(arys, grow)


def shape(a: Any) -> tuple[int, ...]:
    """dask_gpunumeric implementation of :func:`numpy.shape`."""
    return a.shape if isinstance(a, ndarray) else numpy.shape(a)


def ndim(a: Any) -> int:
    """dask_gpunumeric implementation of :func:`numpy.ndim`."""
    return a.ndim if isinstance(a, ndarray) else numpy.ndim(a)


def size(a: Any, axis: int | None = None) -> int:
    """dask_gpunumeric implementation of :func:`numpy.size`."""
    if not isinstance(a, ndarray):
        return numpy.size(a, axis)
    return a.size if axis is None else a.shape[axis]


def permute_dims(a: Any, /, axes: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.permute_dims` (a view)."""
    return transpose(a, axes)


def matrix_transpose(x: Any, /) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.matrix_transpose` (a view)."""
    array = asarray(x)
    if array.ndim < 2:
        raise ValueError(f"Input array must be at least 2-dimensional, but it is {array.ndim}")
    return swapaxes(array, -1, -2)


def rollaxis(a: Any, axis: int, start: int = 0) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.rollaxis` (a view; NumPy's rules)."""
    array = asarray(a)
    n = array.ndim
    axis = normalize_axis_index(axis, n)
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise numpy.exceptions.AxisError(
            f"'start' arg requires {-n} <= start < {n + 1}, but {start} was passed in"
        )
    if axis < start:
        start -= 1
    if axis == start:
        return array[...]
    axes = list(range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return transpose(array, axes)
