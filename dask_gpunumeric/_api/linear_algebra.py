"""Products (NumPy reference: "Linear algebra", matrix and vector products)."""

from __future__ import annotations

from typing import Any

import numpy

from .._array.coercion import as_expr
from .._array.ndarray import ndarray
from .._ir.products import Matmul, Tensordot
from .ufuncs import ufuncs


def _to_out(result: ndarray, out: Any) -> ndarray:
    if out is None:
        return result
    if out.shape != result.shape or out.dtype != result.dtype:
        raise ValueError("output array is not acceptable (must have the right datatype, "
                         "number of dimensions, and be a C-Array)")
    out[...] = result
    return out


def dot(a: Any, b: Any, out: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.dot`."""
    left, right = as_expr(a), as_expr(b)
    if left.ndim == 0 or right.ndim == 0:
        return _to_out(ufuncs["multiply"](ndarray._from_expr(left), ndarray._from_expr(right)), out)
    contracted = right.ndim - 2 if right.ndim >= 2 else 0
    if left.shape[-1] != right.shape[contracted]:
        raise ValueError(
            f"shapes {left.shape} and {right.shape} not aligned: {left.shape[-1]} (dim "
            f"{left.ndim - 1}) != {right.shape[contracted]} (dim {contracted})"
        )
    return _to_out(ndarray._from_expr(Tensordot(left, right, (left.ndim - 1,), (contracted,))), out)


def inner(a: Any, b: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.inner`."""
    left, right = as_expr(a), as_expr(b)
    if left.ndim == 0 or right.ndim == 0:
        return ufuncs["multiply"](ndarray._from_expr(left), ndarray._from_expr(right))
    if left.shape[-1] != right.shape[-1]:
        raise ValueError(
            f"shapes {left.shape} and {right.shape} not aligned: {left.shape[-1]} (dim "
            f"{left.ndim - 1}) != {right.shape[-1]} (dim {right.ndim - 1})"
        )
    return ndarray._from_expr(Tensordot(left, right, (left.ndim - 1,), (right.ndim - 1,)))


def vdot(a: Any, b: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.vdot` (conjugates ``a``)."""
    left = ndarray._from_expr(as_expr(a)).ravel()
    right = ndarray._from_expr(as_expr(b)).ravel()
    if left.size != right.size:
        raise ValueError("cannot reshape array of size {} into shape ({},)".format(right.size, left.size))
    if left.dtype.kind == "c":
        left = ufuncs["conjugate"](left)
    return ndarray._from_expr(Tensordot(as_expr(left), as_expr(right), (0,), (0,)))


def outer(a: Any, b: Any, out: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.outer`."""
    left = ndarray._from_expr(as_expr(a)).ravel()
    right = ndarray._from_expr(as_expr(b)).ravel()
    return ufuncs["multiply"](left[:, None], right[None, :], out=out)


def matmul(a: Any, b: Any, /, out: Any = None, **kwargs: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.matmul`."""
    if kwargs:
        raise NotImplementedError(f"dask_gpunumeric.matmul does not support {sorted(kwargs)}")
    return _to_out(ndarray._from_expr(Matmul(as_expr(a), as_expr(b))), out)


def tensordot(a: Any, b: Any, axes: Any = 2) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.tensordot`."""
    left, right = as_expr(a), as_expr(b)
    if isinstance(axes, (int, numpy.integer)):
        left_axes = tuple(range(left.ndim - int(axes), left.ndim))
        right_axes = tuple(range(int(axes)))
    else:
        left_axes, right_axes = (tuple(x) if isinstance(x, (list, tuple)) else (x,) for x in axes)
    left_axes = tuple(numpy.lib.array_utils.normalize_axis_index(x, left.ndim) for x in left_axes)
    right_axes = tuple(numpy.lib.array_utils.normalize_axis_index(x, right.ndim) for x in right_axes)
    return ndarray._from_expr(Tensordot(left, right, left_axes, right_axes))
