"""Shape manipulation that NumPy answers with views (NumPy reference: "Array manipulation")."""

from __future__ import annotations

from typing import Any

import numpy

from .._array import views
from .._array.ndarray import ndarray
from .creation import asarray

__all__ = ["ndim", "ravel", "reshape", "shape", "size", "swapaxes", "transpose"]


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
